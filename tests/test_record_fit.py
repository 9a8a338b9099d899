"""Real records whose RE gives a count: the recorded result settles the groups the blind reading
gets wrong, keeps the blind reading when no turn reaches it, and is left out when asked
(``--ignore-result``) or when the game was decided otherwise (a resignation).

Both records are KGS games of the held-out ``hash`` side (``kgs-6d-more``), kept in tests/records."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import RESIGNED_AT_226, setup_record
from seog.classifiers.vocabulary import Doubt, Source
from seog.datasets import annotate as ann
from seog.features import sgf
from seog.features.coords import gtp_to_index
from seog.scoring.report import to_dict
from seog.scoring.request import from_game
from seog.scoring.result import FitOutcome
from seog.scoring.score import score

RECORDS = Path(__file__).resolve().parent / "records"
# B+13.5: White's five stones D3-G2 in Black's lower-left corner are dead; the blind reading
# calls them alive (p 0.98) and counts W+48.5.
CORNER_GROUP = RECORDS / "kgs-2006-03-21-34.sgf"
# W+161.5: the blind count is 8 points short and no single group's turn makes it up.
OUT_OF_REACH = RECORDS / "kgs-2003-10-17-14.sgf"


def block_at(counted, vertex):
    index = gtp_to_index(vertex, counted.size)
    return next(b for b in counted.blocks if index in b.points)


def test_the_recorded_count_settles_a_group_read_alive_in_the_opponents_corner():
    game = sgf.load(CORNER_GROUP)
    blind = score(from_game(game, ignore_result=True))
    assert blind.result == "W+48.5" and block_at(blind, "D3").alive
    fitted = score(from_game(game))
    assert fitted.result == "B+13.5" and fitted.record_gap == 0
    assert fitted.record_fit is FitOutcome.SETTLED
    d3 = block_at(fitted, "D3")
    assert not d3.alive and d3.source is Source.RECORD
    assert d3.doubt is Doubt.RECORD  # the nets were sure of it: the answer still asks a person to look
    assert [b.points.tolist() for b in fitted.turned][0] == d3.points.tolist()
    answer = to_dict(fitted, game.recorded)
    assert answer["settled_by"] == "recorded result" and answer["record_fit"] == "settled"
    assert answer["turned"][0]["stones"][0] == "D3" and answer["turned"][0]["blind_status"] == "alive"
    assert any("recorded result settled" in note and "D3" in note for note in answer["notes"])


def test_a_recorded_count_no_turn_reaches_keeps_the_blind_reading_and_flags_it():
    game = sgf.load(OUT_OF_REACH)
    blind = score(from_game(game, ignore_result=True))
    fitted = score(from_game(game))
    assert fitted.record_fit is FitOutcome.NO_FIT
    assert [b.alive for b in fitted.blocks] == [b.alive for b in blind.blocks]
    assert fitted.result == blind.result != "W+161.5"
    assert fitted.in_doubt and fitted.turned == ()
    assert any("no turn of the blocks in doubt" in note for note in fitted.notes)


def test_a_resigned_game_uses_nothing_of_its_result():
    game = sgf.loads(setup_record(RESIGNED_AT_226, "B+Resign"))
    answer = to_dict(score(from_game(game)), game.recorded)
    assert "record_fit" not in answer and "settled_by" not in answer
    assert answer == to_dict(score(from_game(game, ignore_result=True)), game.recorded)


def test_ignore_result_reads_blind_from_the_command_line():
    run = subprocess.run([sys.executable, "-m", "seog", "score", str(CORNER_GROUP), "--json", "--ignore-result"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    game = sgf.load(CORNER_GROUP)
    assert answer == to_dict(score(from_game(game, ignore_result=True)), game.recorded)
    assert answer["result"] == "W+48.5" and "settled_by" not in answer
    assert all(b["source"] != "record" for b in answer["blocks"])


def test_a_board_posted_with_its_result_is_settled_as_its_record_is():
    from fastapi.testclient import TestClient

    from seog.api.http import create_app

    game = sgf.load(CORNER_GROUP)
    rows = game.board.to_rows()
    body = {"board": rows, "rules": "japanese", "komi": game.komi,
            "prisoners": {"black": game.board.prisoners[1], "white": game.board.prisoners[-1]}}
    with TestClient(create_app(static_dir=None)) as client:
        settled = client.post("/v1/score", json={**body, "result": "B+13.5"}).json()
        blind = client.post("/v1/score", json={**body, "result": "B+13.5", "ignore_result": True}).json()
        refused = client.post("/v1/score", json={**body, "result": "B+R"})
    assert settled["result"] == "B+13.5" and settled["settled_by"] == "recorded result"
    assert blind["result"] == "W+48.5" and "settled_by" not in blind
    assert refused.status_code in (400, 422) and "result" in refused.text


@pytest.mark.parametrize("ignore", [False, True])
def test_annotate_reports_what_the_recorded_result_did(tmp_path, ignore):
    games = tmp_path / "games"
    games.mkdir()
    for path in (CORNER_GROUP, OUT_OF_REACH):
        (games / path.name).write_bytes(path.read_bytes())
    summary = ann.annotate(games, tmp_path / "out", workers=1, progress=False,
                           options=ann.Options(ignore_result=ignore))
    rows = {r.name: r for r in summary.rows}
    fits = {name: rows[name].record_fit for name in (CORNER_GROUP.name, OUT_OF_REACH.name)}
    if ignore:
        assert fits == {CORNER_GROUP.name: "", OUT_OF_REACH.name: ""}
        assert not any("disagree" in line for line in summary.lines())
    else:
        assert fits == {CORNER_GROUP.name: "settled", OUT_OF_REACH.name: "no fit"}
        assert rows[CORNER_GROUP.name].result == "B+13.5"
        assert any("disagree on 2 counted games: the recorded result settled 1, 1 left" in line
                   for line in summary.lines())
        copy = (tmp_path / "out" / CORNER_GROUP.name).read_text()
        assert "recorded result settled" in copy
    assert (games / CORNER_GROUP.name).read_bytes() == CORNER_GROUP.read_bytes()  # the source is never written


def test_the_python_api_settles_by_the_record_unless_told_to_read_blind():
    import seog

    settled = seog.score(CORNER_GROUP)
    blind = seog.score(CORNER_GROUP, ignore_result=True)
    assert (settled.result, settled.settled_by, settled.record_fit) == ("B+13.5", "recorded result", "settled")
    assert (blind.result, blind.settled_by, blind.record_fit) == ("W+48.5", None, None)
    with pytest.raises(ValueError, match="result go with a board"):
        seog.score(CORNER_GROUP, result="B+13.5")
