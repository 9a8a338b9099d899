"""SGF in: replay with captures and prisoners, KGS territory marks, and clear errors for bad files."""

import pytest

from seog.features import sgf
from seog.features.coords import BLACK, WHITE, gtp_to_index
from seog.features.sgf import SgfError


def test_replay_counts_prisoners_and_reads_the_root():
    game = sgf.loads(b"(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]RE[W+0.5]PB[a]PW[b]"
                     b";B[ba];W[aa];B[ab])")  # Black's A8 takes the corner stone at A9
    assert (game.size, game.komi, game.rules, game.result) == (9, 6.5, "Japanese", "W+0.5")
    assert game.board.prisoners == {BLACK: 1, WHITE: 0}
    assert game.board.grid[0, 0] == 0 and len(game.moves) == 3
    assert game.properties["PB"] == "a"


def test_handicap_stones_are_setup_and_counted():
    game = sgf.loads(b"(;GM[1]SZ[19]HA[3]AB[dd][pp][dp];W[pd])")
    assert game.handicap == 3 and len(game.setup) == 3
    assert sgf.loads(b"(;GM[1]SZ[19]AB[dd][pp];W[pd])").handicap == 2  # no HA: the stones say it


def test_kgs_territory_marks_make_the_stones_inside_them_dead():
    # White's stone at B8 sits inside Black's marks; Black's stone at H2 inside White's.
    game = sgf.loads(b"(;GM[1]SZ[9];B[cc];W[bb];B[hh];W[gg];B[tt];W[tt]"
                     b"TB[aa][ba][ab][bb]TW[hh][ih][hi][ii])")
    dead = game.marked_dead()
    assert dead.flat[gtp_to_index("B8", 9)] and dead.flat[gtp_to_index("H2", 9)]
    assert dead.sum() == 2 and game.has_markup


def test_a_truncated_file_is_a_clear_error():
    with pytest.raises(SgfError, match="not a readable SGF file"):
        sgf.loads(b"(;GM[1]SZ[19];B[dd];W[pp")


def test_a_board_size_we_cannot_play_is_named():
    with pytest.raises(SgfError, match=r"SZ: board size 40 is not supported \(must be 2..25\)"):
        sgf.loads(b"(;GM[1]SZ[40];B[aa])")


def test_a_move_off_the_board_names_the_move():
    with pytest.raises(SgfError, match=r"move 2: W\[zz\] is off the 9x9 board"):
        sgf.loads(b"(;GM[1]SZ[9];B[ee];W[zz])")


def test_a_move_on_an_occupied_point_names_the_move_and_vertex():
    with pytest.raises(SgfError, match=r"move 2 \(W E5\) is illegal: the point is occupied"):
        sgf.loads(b"(;GM[1]SZ[9];B[ee];W[ee])")


def test_a_suicide_names_the_move_and_vertex():
    # Black stones at B9 and A8 close the corner; White's A9 would have no liberty.
    with pytest.raises(SgfError, match=r"move 4 \(W A9\) is illegal: it is suicide"):
        sgf.loads(b"(;GM[1]SZ[9];B[ba];W[ii];B[ab];W[aa])")


def test_retaking_a_ko_at_once_names_the_move_and_vertex():
    # A ko at B8/C8: White takes the black stone at C8, and Black may not take back at once.
    moves = b";B[ba];W[ca];B[ab];W[db];B[bc];W[cc];B[cb];W[bb]"  # W B8 takes C8
    game = sgf.loads(b"(;GM[1]SZ[9]" + moves + b")")
    assert game.board.prisoners[WHITE] == 1
    with pytest.raises(SgfError, match=r"move 9 \(B C8\) is illegal: it retakes a ko at once"):
        sgf.loads(b"(;GM[1]SZ[9]" + moves + b";B[cb])")


def test_with_score_writes_result_and_marks_that_load_reads_back():
    game = sgf.loads(b"(;GM[1]SZ[9]KM[6.5];B[ee];W[cc])")
    text = sgf.with_score(game, "B+3.5", {BLACK: {0, 1}, WHITE: {80}}, "scored by seog")
    again = sgf.loads(text)
    assert again.result == "B+3.5" and again.territory == {BLACK: {0, 1}, WHITE: {80}}
    assert again.moves == game.moves
