"""``seog.score``, the Python API: the same answer as ``seog score --json`` and the REST API, in
this process, with errors that name the problem."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import seog
from conftest import EXAMPLES, TWO_WALLS
from seog.api.http import create_app
from seog.api.positions import RequestError
from seog.cli import main as cli_main
from seog.features.board import IllegalPosition
from seog.features.sgf import SgfError

GAMES = sorted(EXAMPLES.glob("*.sgf")) + [Path(__file__).resolve().parent.parent / "examples" / "gnugo-selfplay-19.sgf"]


def cli_json(capsys, *args) -> dict:
    assert cli_main(["score", *map(str, args), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_a_real_game_gets_what_seog_score_json_answers(game, capsys):
    answer = seog.score(game)
    assert answer.model_dump(exclude_unset=True) == cli_json(capsys, game)
    assert seog.score(str(game)) == seog.score(game.read_text()) == seog.score(game.read_bytes()) == answer


def test_the_rules_and_komi_given_override_the_records(capsys):
    game = EXAMPLES / "seki-and-dead-stones-9x9.sgf"
    answer = seog.score(game, rules="chinese", komi=7.5)
    assert (answer.rules, answer.komi) == ("chinese", 7.5)
    assert answer.model_dump(exclude_unset=True) == cli_json(capsys, game, "--rules", "chinese", "--komi", "7.5")


def test_two_walls_as_board_rows_get_the_rest_apis_answer():
    """Japanese, komi 6.5: the white stone at C7 in Black's side is dead, W+13.5."""
    answer = seog.score(TWO_WALLS, rules="japanese", komi=6.5)
    assert (answer.result, answer.dead, answer.score.white) == ("W+13.5", ["C7"], 36.5)
    with TestClient(create_app(static_dir=None)) as client:
        served = client.post("/v1/score", json={"board": TWO_WALLS, "rules": "japanese", "komi": 6.5}).json()
    del served["seog_version"], served["model"]
    assert answer.model_dump(exclude_unset=True) == served


def test_the_callers_alive_override_keeps_the_stone_left_in_blacks_side():
    answer = seog.score(TWO_WALLS, rules="japanese", komi=6.5, alive=["C7"])
    block = next(b for b in answer.blocks if b.stones == ["C7"])
    assert answer.dead == [] and (block.status, block.source) == ("alive", "override")


@pytest.mark.parametrize("game, options, error, words", [
    (["XO.", "..", "..."], {}, IllegalPosition, "row 2 has 2 points, expected 3"),
    (TWO_WALLS, {"dead": ["A1"]}, RequestError, "override at A1: no stone there"),
    (TWO_WALLS, {"use_markup": True}, RequestError, "use_markup needs SGF input"),
    ("(;GM[2]SZ[9])", {}, SgfError, "not of a game of Go"),
    ("no-such-game.sgf", {}, SgfError, "no-such-game.sgf: cannot read"),
    (EXAMPLES / "gnugo-selfplay-9x9.sgf", {"rules": "checkers"}, ValueError, "unknown rules 'checkers'"),
    (EXAMPLES / "gnugo-selfplay-9x9.sgf", {"prisoners": {"black": 3}}, RequestError, "go with a board"),
    (TWO_WALLS, {"komi": float("nan")}, ValueError, "finite number"),
], ids=["ragged-rows", "override-on-an-empty-point", "markup-of-a-board", "a-record-of-another-game",
        "a-missing-file", "unknown-rules", "prisoners-with-sgf", "komi-not-a-number"])
def test_bad_input_raises_a_value_error_naming_the_problem(game, options, error, words):
    with pytest.raises(error, match=words) as raised:
        seog.score(game, **options)
    assert isinstance(raised.value, ValueError)


def test_something_that_is_no_game_is_a_type_error():
    with pytest.raises(TypeError, match="not int"):
        seog.score(42)


def test_import_seog_stays_light():
    """``import seog`` loads neither pydantic nor the scorer: ``seog.score`` imports them when asked."""
    loaded = subprocess.run([sys.executable, "-c", "import sys, seog; print(sorted(m for m in sys.modules if "
                             "m.startswith(('pydantic', 'numpy', 'seog.'))))"],
                            capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"
