"""One spine for a position: a ``ScoreRequest`` (from an SGF record or a board) into ``score``,
and the count that says what the rules make of the stones read dead."""

import dataclasses

import numpy as np
import pytest

from conftest import LEFT_IN_NOTE, STONES_LEFT_IN, TWO_WALLS, board
from seog.api import positions
from seog.features import coords, sgf
from seog.features.board import IllegalPosition
from seog.scoring.count import count_blocks, dame_as_read
from seog.scoring.report import to_dict
from seog.scoring.request import NoMarkup, ScoreRequest, from_board, from_game
from seog.scoring.rules import DeadNotCounted, get_rules
from seog.scoring.score import score, score_game


def setup_record(rows, *, komi=6.5, rules="Japanese", extra="") -> str:
    """SGF text whose last position is ``rows`` as setup stones, then two passes."""
    grid = board("\n".join(rows)).grid
    size = len(rows)
    stones = {c: "".join(f"[{coords.index_to_sgf(i, size)}]" for i in (grid.ravel() == c).nonzero()[0])
              for c in (coords.BLACK, coords.WHITE)}
    return (f"(;GM[1]FF[4]SZ[{size}]KM[{komi}]RU[{rules}]{extra}"
            f"AB{stones[coords.BLACK]}AW{stones[coords.WHITE]};B[];W[])")


def test_a_board_sent_as_json_rows_and_as_an_sgf_record_gives_the_same_score():
    from_rows = positions.from_rows(TWO_WALLS, rules="japanese", komi=6.5)
    from_sgf = positions.from_sgf(setup_record(TWO_WALLS))
    assert isinstance(from_rows, ScoreRequest) and isinstance(from_sgf, ScoreRequest)
    by_rows, by_sgf = score(from_rows, None), score(from_sgf, None)
    assert to_dict(by_rows) == to_dict(by_sgf)
    assert by_rows.result == "W+13.5" and coords.gtp_to_index("C7", 9) in by_rows.dead


def test_a_request_from_a_record_takes_its_rules_komi_and_handicap_unless_told_otherwise():
    game = sgf.loads(setup_record(TWO_WALLS, komi=0.5, rules="Chinese", extra="HA[2]"))
    request = from_game(game)
    assert (request.rules.name, request.komi, request.handicap) == ("chinese", 0.5, 2)
    told = from_game(game, rules="aga", komi=7)
    assert (told.rules.name, told.komi, told.handicap) == ("aga", 7.0, 2)
    assert request.game is game and request.recorded is None and request.dead is None


def test_a_dead_override_under_tromp_taylor_is_refused_by_score():
    game = sgf.loads(STONES_LEFT_IN)
    b7 = coords.gtp_to_index("B7", 9)
    request = dataclasses.replace(from_game(game), overrides={b7: False})
    with pytest.raises(DeadNotCounted, match="dead-stone override at B7: tromp-taylor rules count every stone"):
        score(request, None)
    alive = dataclasses.replace(request, overrides={b7: True})
    assert score(alive).result == "W+7.5"  # an alive override changes nothing there, and is taken


def test_tromp_taylor_counts_the_stones_read_dead_as_they_stand_and_keeps_the_reading():
    counted = score(from_game(sgf.loads(STONES_LEFT_IN)))
    assert len(counted.dead) == 0 and all(b.alive and not b.uncertain for b in counted.blocks)
    read_dead = [b for b in counted.read if not b.alive]
    assert sorted(coords.index_to_gtp(int(b.points[0]), 9) for b in read_dead) == ["B7", "H6"]
    assert counted.notes == [LEFT_IN_NOTE]
    chinese = score(from_game(sgf.loads(STONES_LEFT_IN), rules="chinese"))
    assert [b.alive for b in chinese.blocks] == [b.alive for b in chinese.read] == [b.alive for b in counted.read]
    assert np.array_equal(chinese.dead, counted.read_dead)


def test_the_count_of_statuses_read_dead_takes_them_off_unless_the_rules_count_every_stone():
    from seog.classifiers.vocabulary import BlockStatus, Source
    from seog.features.topology import analyze

    grid = board("\n".join(TWO_WALLS)).grid
    topology = analyze(grid)
    c7 = topology.block_of.flat[coords.gtp_to_index("C7", 9)] - 1
    read = [BlockStatus(b.id, b.color, b.points, b.id != c7, Source.MARKUP) for b in topology.blocks]
    japanese = count_blocks(grid, read, get_rules("japanese"), 6.5)
    tromp = count_blocks(grid, read, get_rules("tromp-taylor"), 7.5)
    assert japanese.read == tromp.read == read
    assert [b.alive for b in japanese.blocks] == [b.alive for b in read]
    assert all(b.alive for b in tromp.blocks) and len(tromp.dead) == 0
    assert np.array_equal(dame_as_read(grid, tromp), dame_as_read(grid, count_blocks(grid, read, get_rules("chinese"), 7.5)))


def test_the_loaders_notes_open_the_answers_notes_and_a_given_komi_drops_its_own():
    game = sgf.loads(STONES_LEFT_IN.replace("RU[Tromp-Taylor]", "RU[Ing]"))
    notes = score(from_game(game, rules="tromp-taylor")).notes
    assert notes == [LEFT_IN_NOTE]  # rules given: no note on the RU
    ing = score(from_game(game)).notes
    assert ing[0].startswith("RU[Ing] counted by area under chinese rules")


def test_a_record_without_marks_asked_for_its_marks_is_refused_when_the_request_is_built():
    game = sgf.loads(setup_record(TWO_WALLS))
    with pytest.raises(NoMarkup, match="no TB/TW territory marks"):
        from_game(game, use_markup=True)
    assert NoMarkup in positions.INPUT_ERRORS  # the API's 400


def test_a_suicide_the_records_rules_forbid_is_refused_when_the_request_is_built():
    # Black fills its own corner, walled in by White: B2 takes off its four stones.
    game = sgf.loads("(;SZ[9]KM[7]AW[ca][cb][ac][bc][cc];B[aa];W[ee];B[ab];W[ef];B[ba];W[eg];B[bb];W[];B[])")
    assert game.suicides
    with pytest.raises(sgf.SgfError, match="suicide"):
        from_game(game)
    assert from_game(game, rules="nz").rules.name == "nz"  # the given rules, where RU does not say


def test_a_block_without_liberties_is_refused_by_score():
    full = from_board(board("X" * 5 + "\n" + "\n".join(["O" * 5] * 4)), rules="chinese", komi=0)
    with pytest.raises(IllegalPosition, match="has no liberties"):
        score(full, None)


def test_an_override_on_an_empty_point_is_refused_by_score():
    request = from_board(board("\n".join(TWO_WALLS)), overrides={0: True})
    with pytest.raises(ValueError, match="override at A9: no stone there"):
        score(request, None)


def test_score_game_is_the_request_of_the_game_scored():
    game = sgf.loads(setup_record(TWO_WALLS))
    assert to_dict(score_game(game, model=None)) == to_dict(score(from_game(game), None))


def test_the_referee_scores_the_request_of_its_board():
    from seog.gtp.referee import Referee

    referee = Referee(9, komi=6.5, model=None)
    referee.load(sgf.loads(setup_record(TWO_WALLS)))
    request = referee.request()
    assert (request.rules.name, request.komi) == ("japanese", 6.5)
    assert to_dict(referee.score()) == to_dict(score(request, None))


def test_seog_score_use_markup_on_a_record_without_marks_names_the_file_and_the_flag(tmp_path, capsys):
    from seog.cli import main

    path = tmp_path / "walls.sgf"
    path.write_text(setup_record(TWO_WALLS))
    assert main(["score", str(path), "--use-markup"]) == 1
    assert capsys.readouterr().err.strip() == (f"seog score: error: {path}: --use-markup given but the file has "
                                               "no TB/TW territory marks")
