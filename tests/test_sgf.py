"""SGF in: replay with captures and prisoners, KGS territory marks, and clear errors for bad files."""

import dataclasses

import pytest

from seog.features import coords, sgf
from seog.features.coords import BLACK, WHITE, gtp_to_index
from seog.features.sgf import SgfError
from seog.scoring.rules import check_suicides


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


@pytest.mark.parametrize("record", [
    b"(;GM[1]FF[4]SZ[9]AB[aa:ii];AE[ee])",  # a board filled by hand: 80 stones were a handicap of 80
    b"(;GM[1]SZ[19]AB[dd][pp][dp][pd][jj][dj][pj][jd][jp][cc];W[qq])",  # 10 stones: more than servers give
    b"(;GM[1]SZ[9]AB[cc][gg]AW[ee];B[dd])",  # a problem: stones of both colours
    b"(;GM[1]SZ[9]AB[cc][gg];B[ee])",  # Black moves first: not a handicap game
    b"(;GM[1]SZ[9]AB[cc][gg])",  # no moves at all: a position
    b"(;GM[1]SZ[19]AB[dd];W[pp])",  # one stone is no handicap
])
def test_setup_stones_that_do_not_look_like_a_handicap_are_not_one(record):
    assert sgf.loads(record).handicap == 0


def test_without_ha_two_to_nine_black_stones_then_white_are_a_handicap_and_ha_is_believed():
    nine = b"(;GM[1]SZ[19]AB[dd][pp][dp][pd][jj][dj][pj][jd][jp];W[qq])"
    assert sgf.loads(nine).handicap == 9
    assert sgf.loads(b"(;GM[1]SZ[19];AB[dd][pp];W[pd])").handicap == 2  # in a node of their own, as editors write
    assert sgf.loads(b"(;GM[1]SZ[9]HA[2]AB[cc][gg]AW[ee];B[dd])").handicap == 2  # HA says so: believed
    assert sgf.loads(b"(;GM[1]SZ[9]HA[1];B[dd])").handicap == 0  # an even game without komi


def test_a_setup_position_is_counted_without_handicap_compensation():
    """Under area rules a handicap gives White a point a stone: the filled board of the acceptance
    test (80 black stones set up, no HA) gave White 80 points."""
    from seog.scoring.score import score_game

    # AE in a node of its own: one node may not set E5 twice
    score = score_game(sgf.loads(b"(;GM[1]FF[4]SZ[9]AB[aa:ii];AE[ee])"), rules="chinese")
    assert score.handicap == 0 and score.breakdown[WHITE].get("handicap", 0) == 0


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


def test_a_suicide_is_replayed_and_listed_and_the_rules_judge_it():
    # Black stones at B9 and A8 close the corner; White's A9 has no liberty and comes off.
    game = sgf.loads(b"(;GM[1]SZ[9];B[ba];W[ii];B[ab];W[aa])")
    assert game.suicides == [4] and game.board.prisoners == {BLACK: 1, WHITE: 0}
    assert game.board.to_rows()[0] == ".X......."
    with pytest.raises(SgfError, match=r"move 4 \(W A9\) is illegal: it is suicide"):
        check_suicides(game)  # no RU: Japanese unless the caller says otherwise
    assert check_suicides(game, "nz") is game


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


# A record with more than moves: a root comment and properties seog does not read, chat and
# time left on the moves, setup after a move, a variation, and the players' marks at the end.
RICH = (b"(;GM[1]FF[4]SZ[9]KM[6.50]RU[Japanese]RE[W+R]AP[CGoban:3]ST[2]US[club]SO[book]"
        b"C[Round 1]OB[5]OW[5];B[ee]BL[290.5]C[hello];W[cc]WL[288]"
        b"(;B[gg]BL[280];AB[aa];W[];B[]TB[ba]C[agreed])(;B[gc]C[or here]))")


def marks(*sgf_points, size=9):
    return {coords.flat_to_index(coords.from_sgf(p, size), size) for p in sgf_points}


def node_properties(data: bytes) -> list[dict]:
    """Every node's properties as written ({key: [raw values]}), depth first, main line first."""
    from sgfmill import sgf as sgfmill

    stack, out = [sgfmill.Sgf_game.from_bytes(data).get_root()], []
    while stack:
        node = stack.pop()
        out.append(node.get_raw_property_map())
        stack.extend(reversed(node))
    return out


def test_a_copy_keeps_comments_times_setup_variations_and_root_properties():
    game = sgf.loads(RICH)
    text = sgf.with_score(game, "B+3.5", {BLACK: marks("ab"), WHITE: marks("ii")}, "seog: B+3.5")
    before, after = node_properties(RICH), node_properties(text)
    assert after[0] == {**before[0], "RE": [b"B+3.5"], "CA": [b"UTF-8"]}
    assert after[1:7] == before[1:7] and after[8:] == before[7:]  # moves, chat, times, setup, the variation
    assert after[7] == {"C": [b"seog: B+3.5"], "TB": [b"ab"], "TW": [b"ii"]}  # after the main line's last
    copy = sgf.loads(text)
    assert copy.moves == game.moves and copy.later_setup == game.later_setup and copy.variations
    assert copy.result == "B+3.5" and copy.territory == {BLACK: marks("ab"), WHITE: marks("ii")}


def test_a_copy_of_a_copy_rewrites_seogs_node_instead_of_adding_one():
    once = sgf.with_score(sgf.loads(RICH), "B+3.5", {BLACK: marks("ab"), WHITE: marks("ii")}, "seog: first")
    twice = sgf.with_score(sgf.loads(once), "B+1.5", {BLACK: marks("hh"), WHITE: set()}, "seog: second")
    before, after = node_properties(once), node_properties(twice)
    assert len(after) == len(before) and after[1:7] == before[1:7] and after[8:] == before[8:]
    assert after[7] == {"C": [b"seog: second"], "TB": [b"hh"]}  # the old marks and comment replaced
    assert after[6] == node_properties(RICH)[6] == {"B": [b""], "TB": [b"ba"], "C": [b"agreed"]}
    assert sgf.loads(twice).territory == {BLACK: marks("hh"), WHITE: set()}


def test_a_copy_writes_km_and_ru_only_where_the_count_used_others():
    game = sgf.loads(RICH)
    same = node_properties(sgf.with_score(game, "B+3.5", {BLACK: set(), WHITE: set()}, "seog: x"))[0]
    assert (same["KM"], same["RU"]) == ([b"6.50"], [b"Japanese"])  # as written when the count used them
    other = sgf.with_score(dataclasses.replace(game, komi=7.5, rules="chinese"), "B+2.5",
                           {BLACK: set(), WHITE: set()}, "seog: x")
    assert node_properties(other)[0] == {**node_properties(RICH)[0], "KM": [b"7.5"], "RU": [b"chinese"],
                                         "RE": [b"B+2.5"], "CA": [b"UTF-8"]}
    fox = sgf.loads(b"(;GM[1]SZ[9]KM[375]AP[foxwq]CA[gb2312];B[ee]C[\xba\xc3])")  # C[好] in GB2312
    copy = sgf.with_score(fox, "W+0.5", {BLACK: set(), WHITE: set()}, "seog: y")
    root, move = node_properties(copy)[:2]
    assert (root["KM"], root["AP"], root["CA"], move["C"]) == ([b"7.5"], [b"foxwq"], [b"UTF-8"], ["好".encode()])
    assert sgf.loads(copy).komi == 7.5 and sgf.loads(copy).komi_note == ""


# ---- what real files write against the standard ---------------------------------------------

def test_setup_stones_in_the_first_node_are_the_handicap_and_later_setup_survives_the_copy():
    game = sgf.loads(b"(;GM[1]SZ[9]KM[0.5];AB[cc][gg];W[ee];B[dd];AE[dd]AB[aa];W[ff])")
    assert game.handicap == 2 and sorted(p for _, p in game.setup) == sorted(
        coords.to_flat(r, c, 9) for r, c in ((2, 2), (6, 6)))
    assert [(n, color) for n, color, _ in game.later_setup] == [(2, BLACK), (2, 0)]
    copy = sgf.loads(sgf.with_score(game, "W+1.5", {BLACK: set(), WHITE: set()}))
    assert (copy.board.grid == game.board.grid).all() and copy.handicap == 2
    assert copy.moves == game.moves and copy.later_setup == game.later_setup


def test_fox_komi_in_hundredths_is_read_as_points_and_said_so():
    fox = sgf.loads(b"(;GM[1]SZ[19]KM[375]AP[foxwq]RU[Chinese];B[pd])")
    assert fox.komi == 7.5 and fox.komi_note == ("KM[375] read as komi 7.5 (Fox writes komi in hundredths "
                                                 "of a stone, 2 points each: 3.75 stones)")
    handicap = sgf.loads(b"(;GM[1]SZ[19]KM[50]HA[2]AP[foxwq]AB[dd][pp];W[pd])")
    assert handicap.komi == 0.5 and handicap.komi_note == "KM[50] read as komi 0.5 (Fox writes komi in hundredths of a point)"
    other = sgf.loads(b"(;GM[1]SZ[19]KM[650]AP[SGFC:2.0];B[pd])")
    assert other.komi == 6.5 and other.komi_note == "KM[650] read as komi 6.5 (written in hundredths of a point)"
    unlabelled = sgf.loads(b"(;GM[1]SZ[19]KM[375];B[pd])")  # the note gives the reason that makes 375 7.5, not 3.75
    assert unlabelled.komi == 7.5 and unlabelled.komi_note == ("KM[375] read as komi 7.5 (written in hundredths "
                                                               "of a stone, 2 points each: 3.75 stones)")
    plain = sgf.loads(b"(;GM[1]SZ[19]KM[7.5]AP[foxwq];B[pd])")
    assert plain.komi == 7.5 and plain.komi_note == ""
    assert sgf.loads(b"(;GM[1]SZ[19]KM[6,5];B[pd])").komi == 6.5


@pytest.mark.parametrize("prop, message", [
    (b"KM[nan]", r"KM: komi 'nan' is not a number"),
    (b"KM[inf]", r"KM: komi 'inf' is not a number"),
    (b"KM[6_5]", r"KM: komi '6_5' is not a number"),
    (b"KM[120]", r"KM: komi 120 is out of range \(-81..81 points on a 9x9 board\)"),
    (b"KM[1e308]", r"KM: komi 1e308 is out of range \(-81..81 points on a 9x9 board\)"),
    (b"KM[-1e400]", r"KM: komi -1e400 is out of range \(-81..81 points on a 9x9 board\)"),
    (b"HA[inf]", r"HA: handicap 'inf' is not a number"),
    (b"HA[1_0]", r"HA: handicap '1_0' is not a number"),
    (b"HA[2.5]", r"HA: handicap '2.5' is not a whole number"),
    (b"HA[400]", r"HA: handicap 400 is more stones than the 9x9 board holds"),
])
def test_impossible_komi_and_handicap_are_named(prop, message):
    with pytest.raises(SgfError, match=message):
        sgf.loads(b"(;GM[1]SZ[9]" + prop + b";B[ee])")


def test_a_collection_of_games_is_refused_rather_than_cut_to_the_first():
    with pytest.raises(SgfError, match="the file holds 2 games"):
        sgf.loads(b"(;GM[1]SZ[9];B[ee])\n(;GM[1]SZ[9];B[cc])")


def test_names_keep_their_letters_whatever_the_encoding_label_says():
    text = "(;GM[1]SZ[9]PB[Müller]PW[李昌镐];B[ee])"
    assert sgf.loads(text).properties["PB"] == "Müller"  # already decoded: UTF-8, no CA needed
    assert sgf.loads(text.encode("utf-8")).properties["PW"] == "李昌镐"  # UTF-8 without CA
    assert sgf.loads(text.replace("李昌镐", "x").encode("latin-1")).properties["PB"] == "Müller"
    gbk = "(;GM[1]CA[gb2312]SZ[9]PB[李昌镐]PW[陈耀烨];B[ee])".encode("gb18030")  # 烨 is not in GB2312
    assert sgf.loads(gbk).properties["PW"] == "陈耀烨"


def test_a_file_labelled_utf8_that_is_not_is_read_as_latin1_and_said_so():
    """CA[UTF-8] on Latin-1 bytes gave PB[M\ufffdller] in the copy without a word, where the same
    bytes without CA gave Müller."""
    from seog.scoring.score import score_game

    labelled = b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[M\xfcller]PW[Fran\xe7ois]KM[6.5];B[ee];W[];B[])"
    game = sgf.loads(labelled)
    assert game.properties == {"PB": "Müller", "PW": "François"}
    assert game.text_note == "CA[UTF-8] says UTF-8 but the file is not UTF-8; its text was read as Latin-1"
    assert score_game(game).notes[0] == game.text_note
    copy = sgf.with_score(game, "B+73.5", {BLACK: set(), WHITE: set()})
    assert "PB[Müller]PW[François]".encode() in copy and b"CA[UTF-8]" in copy
    assert sgf.loads(copy).properties["PB"] == "Müller" and sgf.loads(copy).text_note == ""
    unlabelled = sgf.loads(labelled.replace(b"CA[UTF-8]", b""))
    assert unlabelled.properties == game.properties and unlabelled.text_note == ""


@pytest.mark.parametrize("record", [
    "(;GM[1]CA[UTF-8]SZ[9]PB[Müller];B[ee])".encode(),  # really UTF-8
    "(;GM[1]CA[utf8]SZ[9]PB[Müller];B[ee])".encode(),
    "(;GM[1]CA[ISO-8859-1]SZ[9]PB[Müller];B[ee])".encode("latin-1"),  # labelled rightly
])
def test_text_read_as_its_label_says_has_no_note(record):
    game = sgf.loads(record)
    assert game.properties["PB"] == "Müller" and game.text_note == ""


def test_control_characters_never_reach_the_result_or_names():
    game = sgf.loads(b"(;GM[1]SZ[9]RE[B+3\x1b[2J]PB[a\x01b];B[ee])")
    assert game.result == "B+3[2J" and game.properties["PB"] == "ab"


def test_marks_left_before_a_stone_was_played_are_not_the_final_marks():
    game = sgf.loads(b"(;GM[1]SZ[9];B[cc];W[gg]TW[ee][ef][fe];B[ee];W[];B[])")
    assert not game.has_markup
    kept = sgf.loads(b"(;GM[1]SZ[9];B[cc];W[gg]TW[ee][ef][fe];B[];W[])")  # passes change nothing
    assert kept.has_markup


@pytest.mark.parametrize("gm", [b"3", b"2", b"01x", b"x" * 100])
def test_a_record_of_another_game_than_go_is_refused_naming_gm(gm):
    """A chess record (GM[3]) was scored as Go: B+63."""
    with pytest.raises(SgfError, match=r"GM\[.{1,43}\]: the record is not of a game of Go \(GM\[1\]\); seog scores only Go"):
        sgf.loads(b"(;GM[" + gm + b"]FF[4]SZ[8];B[ee])")


@pytest.mark.parametrize("root", [b"GM[1]", b"GM[ 01 ]", b"GM[]", b""])
def test_go_is_gm_1_or_no_gm_at_all(root):
    assert len(sgf.loads(b"(;" + root + b"SZ[9];B[ee])").moves) == 1


def test_a_node_with_two_moves_is_refused():
    with pytest.raises(SgfError, match="node 1 holds both a B and a W move"):
        sgf.loads(b"(;GM[1]SZ[9];B[aa]W[bb])")


@pytest.mark.parametrize("record, message", [
    ("(;GM[1]FF[4]SZ[9]AB[aa]AW[aa])", "node 0: AB and AW both set A9"),
    ("(;GM[1]FF[4]SZ[9]AE[aa]AB[aa])", "node 0: AB and AE both set A9"),
    ("(;GM[1]FF[4]SZ[9]AB[aa:cc]AW[bb])", "node 0: AB and AW both set B8"),
    ("(;GM[1]FF[4]SZ[9];B[ee];AW[ee]AE[ee])", "node 2: AW and AE both set E5"),
], ids=["AB-AW", "AE-AB", "AW-inside-AB", "later-AW-AE"])
def test_a_node_that_sets_a_point_twice_is_refused_naming_the_point(tmp_path, capsys, record, message):
    """Issue #7: the one placed last won without a word (A9 white, B8 white inside Black's square)."""
    from seog.cli import main

    with pytest.raises(SgfError, match=f"^{message}; a node may set a point only once$"):
        sgf.loads(record)
    path = tmp_path / "twice.sgf"
    path.write_text(record)
    assert main(["score", str(path)]) == 1
    assert capsys.readouterr().err == f"seog score: error: twice.sgf: {message}; a node may set a point only once\n"


def test_setup_in_a_later_node_still_changes_a_point_set_before():
    game = sgf.loads("(;GM[1]FF[4]SZ[9]AB[aa][bb];AW[aa]AE[bb];B[ee])")
    assert game.board.grid[0, 0] == WHITE and game.board.grid[1, 1] == 0 and len(game.moves) == 1


def test_a_record_of_more_nodes_than_any_game_is_refused_before_it_is_built():
    variations = b"(;SZ[19]" + b"(;)" * sgf.MAX_NODES + b")"  # 10,001 nodes with the root
    with pytest.raises(SgfError, match=f"has {sgf.MAX_NODES + 1} nodes; at most {sgf.MAX_NODES}"):
        sgf.loads(variations)
    main_line = b"(;SZ[19]" + b";" * (sgf.MAX_NODES - 1) + b")"  # exactly the limit: read
    assert sgf.loads(main_line).size == 19


def test_semicolons_inside_values_and_escapes_are_not_nodes():
    nodes = b";C[;;\\];;]" * (sgf.MAX_NODES - 1)  # an escaped ']': the comment goes on
    assert sgf.loads(b"(;SZ[9]" + nodes + b")").size == 9
    with pytest.raises(SgfError, match=f"has {sgf.MAX_NODES + 1} nodes"):
        sgf.loads(b"(;SZ[9]" + nodes + b";)")
    backslash = b";C[a;b\\\\];c]" * 2 * sgf.MAX_NODES  # an escaped backslash: the value ends at its ']'
    with pytest.raises(SgfError, match="not a readable SGF file"):  # and ';c]' after it is not SGF
        sgf.loads(b"(;SZ[9]" + backslash + b")")


def short_variations(count: int) -> bytes:
    return b"(;GM[1]SZ[19]" + b"(;B[aa];W[bb])" * count + b")"


def test_a_file_of_short_variations_is_refused_at_the_node_limit():
    """sgfmill keeps every token and node: counted on its tree, 10 MB of these cost 13 s and
    1.1 GB. Counted while reading, the read stops at the limit (its seconds:
    benchmarks/bench_deadlines.py)."""
    data = short_variations(290_000)  # 4.1 MB, under the byte limit: 580,001 nodes
    with pytest.raises(SgfError, match=f"^the record has 580001 nodes; at most {sgf.MAX_NODES} are read"):
        sgf.loads(data)


def test_a_file_over_the_byte_limit_is_refused_without_being_read_whole(tmp_path):
    path = tmp_path / "big.sgf"
    path.write_bytes(short_variations(714_285))  # 10 MB
    with pytest.raises(SgfError, match=r"^big.sgf: the file is more than the 4,194,304 bytes \(4 MiB\) seog reads"):
        sgf.load(path)
    with pytest.raises(SgfError, match=r"^the file is 10,000,004 bytes, more than the 4,194,304 bytes"):
        sgf.loads(path.read_bytes())


@pytest.mark.parametrize("record, limit", [
    (b"(;SZ[19]C" + b"[]" * 100_001 + b")", "more than 100000 property values"),
    (b"(;SZ[19]AB" + b"[aa]" * 100_001 + b")", "more than 100000 property values"),
    (b"(;SZ[19]" + b"A " * 100_001 + b"C[])", "more than 100000 property names"),
    (b"(;SZ[19]" + b"(" * 10_002 + b")", "more than 10000 variations"),
], ids=["values", "setup", "names", "parentheses"])
def test_more_tokens_than_any_game_has_are_refused_before_sgfmill_reads_them(record, limit):
    with pytest.raises(SgfError, match=f"^the file has {limit}; at most"):
        sgf.loads(record)


def test_a_game_near_every_limit_is_read():
    """10,000 nodes, each a move with its time and a comment, and a node of 361 setup stones."""
    setup = b"AB" + b"".join(b"[" + bytes([97 + c, 97 + r]) + b"]" for r in range(19) for c in range(19))
    nodes = b"".join(b";%s[]BL[%d]C[move; %d]" % (b"BW"[n % 2:n % 2 + 1], n, n) for n in range(sgf.MAX_NODES - 2))
    game = sgf.loads(b"(;SZ[19];" + setup + nodes + b")")
    assert len(game.moves) == sgf.MAX_NODES - 2 and len(game.setup) == 361


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_a_file_saved_as_utf16_is_named_as_such(tmp_path, capsys, encoding):
    from seog.cli import main

    path = tmp_path / "u16.sgf"
    path.write_bytes("(;GM[1]SZ[9]PB[Müller];B[ee])".encode(encoding))
    assert main(["score", str(path)]) == 1
    assert capsys.readouterr().err == ("seog score: error: u16.sgf: not a readable SGF file (no SGF data found); "
                                       "the file looks like UTF-16 text: save it as UTF-8 (or ASCII) and try again\n")
    with pytest.raises(SgfError, match=r"\(no SGF data found\)$"):  # a file that is not SGF at all
        sgf.loads("Müller wins by 3.5 points".encode())



LONG, X40, N40 = "x" * 10_000, "x" * 40 + "...", "9" * 40 + "..."


@pytest.mark.parametrize("record, message", [
    (f"(;GM[1]SZ[{LONG}])", f"SZ: '{X40}' is not a board size"),
    (f"(;GM[1]SZ[{'9' * 4000}])", f"SZ: board size {N40} is not supported (must be 2..25)"),
    (f"(;GM[1]SZ[9]KM[{LONG}];B[ee])", f"KM: komi '{X40}' is not a number"),
    (f"(;GM[1]SZ[9]KM[{'9' * 300}];B[ee])", f"KM: komi {N40} is out of range (-81..81 points on a 9x9 board)"),
    (f"(;GM[1]SZ[9]HA[{LONG}];B[ee])", f"HA: handicap '{X40}' is not a number"),
    (f"(;GM[1]SZ[9]HA[{'9' * 300}];B[ee])", f"HA: handicap {N40} is more stones than the 9x9 board holds"),
    (f"(;GM[1]SZ[9];B[{LONG}])", f"move 1: B[{X40}] is not a point"),
    # sgfmill's own message, which ends in the value, is clipped whole
    (f"(;GM[1]SZ[9]CA[{LONG}];B[ee])", f"not a readable SGF file (unknown encoding: {'x' * 22}...)"),
], ids=["SZ", "SZ-digits", "KM", "KM-digits", "HA", "HA-digits", "B", "CA"])
def test_seog_score_quotes_at_most_40_characters_of_a_broken_value(tmp_path, capsys, record, message):
    """A 10,000-character value is clipped in the message, as the API clips it."""
    from seog.cli import main

    path = tmp_path / "bad.sgf"
    path.write_text(record)
    assert main(["score", str(path)]) == 1
    assert capsys.readouterr().err == f"seog score: error: bad.sgf: {message}\n"


def test_a_note_on_rules_seog_does_not_know_quotes_at_most_40_characters_of_ru():
    from seog.scoring.request import game_notes

    game = sgf.loads(f"(;GM[1]SZ[9]RU[{LONG}];B[ee];W[];B[])")
    assert game_notes(game) == [f"RU[{X40}] names rules seog does not know; counted under japanese rules"]


def test_seog_score_names_the_file_of_a_record_with_a_block_without_liberties(tmp_path, capsys, monkeypatch):
    """Setup stones can leave a block without liberties: the error named the block, not the file."""
    import io

    from seog.cli import main

    record = b"(;GM[1]SZ[9]AB[aa]AW[ba][ab])"  # A9 black, surrounded by white setup stones
    path = tmp_path / "no-liberty.sgf"
    path.write_bytes(record)
    assert main(["score", str(path)]) == 1
    assert capsys.readouterr().err == "seog score: error: no-liberty.sgf: the block at A9 has no liberties\n"
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(record)))
    assert main(["score", "-"]) == 1
    assert capsys.readouterr().err == "seog score: error: standard input: the block at A9 has no liberties\n"


@pytest.mark.parametrize("komi, message", [
    ("1e9", "komi '1e9' is more points than the largest board (625) holds"),
    ("6_5", "komi '6_5' is not a number"),
])
def test_seog_score_komi_option_says_what_is_wrong_with_it(tmp_path, capsys, komi, message):
    from seog.cli import main

    path = tmp_path / "g.sgf"
    path.write_bytes(b"(;GM[1]SZ[9];B[ee])")
    with pytest.raises(SystemExit):
        main(["score", str(path), "--komi", komi])
    assert capsys.readouterr().err.splitlines()[-1] == f"seog score: error: argument --komi: {message}"
