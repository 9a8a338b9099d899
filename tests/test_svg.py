"""The scored board as SVG, checked structurally: stones, crosses, territory squares, seki, dame, counts."""

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from test_text import SEKI_AND_DEAD, scored

from conftest import LEFT_IN_NOTE, STONES_LEFT_IN, board
from seog.cli import main
from seog.features import sgf
from seog.features.coords import gtp_to_index, index_to_sgf
from seog.scoring import svg as svg_module
from seog.scoring.score import score_game
from seog.scoring.svg import render_svg, star_points

NS = "{http://www.w3.org/2000/svg}"


def elements(root, tag, cls):
    """Elements ``tag`` whose class list holds every word of ``cls``."""
    want = set(cls.split())
    return [e for e in root.iter(NS + tag) if want <= set(e.get("class", "").split())]


def vertices(elems):
    return sorted(e.get("data-vertex") for e in elems)


@pytest.mark.parametrize("rules", ["japanese", "chinese"])
def test_every_mark_of_the_score_is_drawn_once(rules):
    b, score = scored(rules)
    root = ET.fromstring(render_svg(b.grid, score))
    stones = elements(root, "circle", "stone")
    assert len(stones) == int((b.grid != 0).sum()) == 31
    assert len(elements(root, "circle", "stone black")) == int((b.grid == 1).sum())
    assert vertices(elements(root, "circle", "stone dead")) == ["B4", "H3"]
    assert vertices(elements(root, "path", "dead-mark")) == ["B4", "H3"]
    assert len(elements(root, "rect", "territory black")) == len(score.territory[1])
    assert len(elements(root, "rect", "territory white")) == len(score.territory[-1])
    assert vertices(elements(root, "path", "seki-mark")) == sorted(
        ["D9", "D8", "D7", "E7", "F9", "F8", "F7"])
    assert vertices(elements(root, "circle", "dame")) == ["E8", "E9", "F1"]
    assert elements(root, "circle", "uncertain-mark") == []



@pytest.mark.parametrize("rules, dead", [("tromp-taylor", []), ("chinese", ["B7", "H6"])])
def test_stones_are_drawn_dead_only_where_the_count_takes_them_off(rules, dead):
    """Issue #7: Tromp-Taylor counts B7 and H6 as they stand, so they are drawn as live stones."""
    game = sgf.loads(STONES_LEFT_IN)
    root = ET.fromstring(render_svg(game.board.grid, score_game(game, rules=rules)))
    assert vertices(elements(root, "circle", "stone dead")) == sorted(dead)
    assert vertices(elements(root, "path", "dead-mark")) == sorted(dead)
    assert len(elements(root, "circle", "stone alive")) == 20 - len(dead)
    assert root.get("data-result") == "W+7.5"


def test_the_scores_notes_are_written_under_the_board_within_its_width(tmp_path):
    """Issue #7: the picture said W+7.5 under Tromp-Taylor with no word of B7 and H6, which seog
    reads dead and the count keeps; the notes are the text output's, one text each."""
    path = tmp_path / "left-in.sgf"
    path.write_text(STONES_LEFT_IN.replace("KM[7.5]", "KM[750]"))  # a second note: komi in hundredths
    out = tmp_path / "left-in.svg"
    assert main(["score", str(path), "--svg", str(out), "--color", "never"]) == 0
    root = ET.parse(out).getroot()
    notes = elements(root, "text", "note")
    assert [" ".join(n.itertext()) for n in notes] == [
        "Note: KM[750] read as komi 7.5 (written in hundredths of a point)", f"Note: {LEFT_IN_NOTE}"]
    width = float(root.get("width"))
    assert all(len(line.text) * svg_module.NOTE_CHAR_PX <= width for n in notes for line in n)
    game = sgf.loads(STONES_LEFT_IN)
    chinese = ET.fromstring(render_svg(game.board.grid, score_game(game, rules="chinese")))
    assert elements(chinese, "text", "note") == []  # nothing to say: no note


def test_result_and_counts_are_written_under_the_board():
    b, score = scored()
    root = ET.fromstring(render_svg(b.grid, score, recorded="B+0.5", title="seki and dead stones"))
    [result] = elements(root, "text", "result")
    text = "".join(result.itertext())
    assert score.result in text and "recorded: B+0.5" in text
    [black] = elements(root, "text", "count black")
    [white] = elements(root, "text", "count white")
    assert "".join(black.itertext()).endswith(f"= {score.black:g}")
    assert f"territory {len(score.territory[-1])}" in "".join(white.itertext())
    assert "komi 6.5" in "".join(white.itertext())
    assert root.get("data-result") == score.result
    # Coordinates: GTP column letters without I, rows numbered from the bottom.
    labels = [t.text for g in elements(root, "g", "coords") for t in g]
    assert labels.count("J") == 2 and "I" not in labels and labels.count("9") == 2


def test_uncertain_block_gets_a_ring_on_every_stone():
    b, score = scored()
    blk = next(x for x in score.blocks if gtp_to_index("F9", 9) in x.points)
    blk.doubt = "model"
    root = ET.fromstring(render_svg(b.grid, score))
    rings = elements(root, "circle", "uncertain-mark")
    assert len(rings) == len(blk.points)


def test_stones_carry_their_block_so_a_page_can_flip_it():
    b, score = scored()
    root = ET.fromstring(render_svg(b.grid, score))
    by_vertex = {e.get("data-vertex"): e for e in elements(root, "circle", "stone")}
    assert by_vertex["D9"].get("data-block") == by_vertex["E7"].get("data-block")
    assert by_vertex["D9"].get("data-block") != by_vertex["F9"].get("data-block")
    assert "dead" in by_vertex["B4"].find(NS + "title").text


def test_star_points_follow_the_board_size():
    assert len(star_points(19)) == 9 and (3, 3) in star_points(19) and (9, 9) in star_points(19)
    assert sorted(star_points(9)) == [(2, 2), (2, 6), (4, 4), (6, 2), (6, 6)]
    assert star_points(5) == []


def test_a_grid_of_the_wrong_size_is_refused():
    _, score = scored()
    with pytest.raises(ValueError, match="does not match"):
        render_svg(np.zeros((13, 13), dtype=np.int8), score)


def sgf_of(picture, dead_komi="6.5"):
    """A setup-only SGF of a picture, as a finished game record."""
    b = board(picture)
    ab = "".join(f"[{index_to_sgf(i, b.size)}]" for i in np.flatnonzero(b.grid.reshape(-1) == 1))
    aw = "".join(f"[{index_to_sgf(i, b.size)}]" for i in np.flatnonzero(b.grid.reshape(-1) == -1))
    return f"(;GM[1]FF[4]SZ[{b.size}]KM[{dead_komi}]RU[Japanese]PB[Kuro]PW[Shiro]AB{ab}AW{aw})"


def test_cli_writes_the_svg_beside_the_terminal_board(tmp_path, capsys):
    game = tmp_path / "seki.sgf"
    game.write_text(sgf_of(SEKI_AND_DEAD))
    out = tmp_path / "seki.svg"
    assert main(["score", str(game), "--no-model", "--svg", str(out), "--color", "never"]) == 0
    printed = capsys.readouterr()
    assert "\x1b" not in printed.out and f"wrote {out}" in printed.err
    root = ET.parse(out).getroot()
    result = root.get("data-result")
    assert f"Result: {result}" in printed.out
    [title] = elements(root, "text", "title")
    assert title.text == "Kuro vs Shiro"
    assert len(elements(root, "circle", "stone")) == 31


def test_cli_png_says_clearly_when_no_converter_is_installed(tmp_path, capsys, monkeypatch):
    game = tmp_path / "seki.sgf"
    game.write_text(sgf_of(SEKI_AND_DEAD))
    monkeypatch.setattr(svg_module, "png_converter", lambda: None)
    assert main(["score", str(game), "--no-model", "--png", str(tmp_path / "x.png")]) == 1
    assert "no SVG converter found" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_cli_png_is_a_png_where_a_converter_exists(tmp_path):
    if svg_module.png_converter() is None:
        pytest.skip("no SVG to PNG converter installed (cairosvg, rsvg-convert or ImageMagick)")
    game = tmp_path / "seki.sgf"
    game.write_text(sgf_of(SEKI_AND_DEAD))
    out = tmp_path / "seki.png"
    assert main(["score", str(game), "--no-model", "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("option", ["--svg", "--png"])
def test_cli_picture_into_a_missing_folder_or_under_a_file_is_one_line_naming_it(tmp_path, capsys, option):
    """Issue #7: the path was left to Python's '[Errno 2] No such file or directory: ...'."""
    if option == "--png" and svg_module.png_converter() is None:
        pytest.skip("no SVG to PNG converter installed (cairosvg, rsvg-convert or ImageMagick)")
    game = tmp_path / "seki.sgf"
    game.write_text(sgf_of(SEKI_AND_DEAD))
    (tmp_path / "afile").write_text("")
    missing, under_file = tmp_path / "missing" / "folder" / "out.x", tmp_path / "afile" / "out.x"
    assert main(["score", str(game), "--no-model", option, str(missing)]) == 1
    printed = capsys.readouterr()
    assert printed.err == (f"seog score: error: {option} {missing}: cannot write "
                           f"(folder {missing.parent} does not exist)\n") and printed.out == ""
    assert not (tmp_path / "missing").exists()  # never made behind the user's back
    assert main(["score", str(game), "--no-model", option, str(under_file)]) == 1
    assert capsys.readouterr().err == (f"seog score: error: {option} {under_file}: cannot write "
                                       f"({tmp_path / 'afile'} is not a folder)\n")
