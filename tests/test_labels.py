"""Dead-stone labels: masks, per-block labels, teacher files, the consistency filter, GTP engines."""

import gzip
import json
import sys
import textwrap

import numpy as np
import pytest
from test_select import wall

from conftest import board, mask, shared_dir
from seog.datasets import labels
from seog.features import sgf
from seog.features.topology import analyze

# White has a three-stone block (B2, A1, B1) and a lone stone at F1; Black surrounds both.
CORNER = """
. . X . . . .
. . X . . . .
. . X . . . .
. . X . . . .
X X X . . . .
X O X . X X X
O O X . X O X
"""


def test_block_labels_follow_most_of_each_block():
    top = analyze(board(CORNER).grid)
    dead = mask("""
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. o . . . . .
o . . . . o .
""")
    y, mixed = labels.block_labels(top, dead)
    by_point = {tuple(np.argwhere(top.block_of == b.id + 1)[0]): int(y[b.id]) for b in top.blocks}
    # 2 of the corner block's 3 stones marked: dead, and counted as partly marked.
    assert by_point[(5, 1)] == 0 and by_point[(6, 5)] == 0
    assert mixed == 1
    assert sum(y) == len(top.blocks) - 2
    assert (labels.block_mask(top, y) == (dead | mask("""
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. o . . . . .
"""))).all()


def test_masks_from_sgf_and_gtp_agree():
    a = labels.mask_from_sgf(["cc", "ai"], 9)
    b = labels.mask_from_gtp(["C7", "A1"], 9)
    assert (a == b).all() and a.sum() == 2
    assert labels.sgf_points(a) == ["cc", "ai"]


def test_dead_mark_on_an_empty_point_is_an_error():
    game = sgf.loads(wall())
    with pytest.raises(labels.LabelError, match="empty points"):
        labels.check_on_stones(game.board.grid, labels.mask_from_sgf(["dd"], 9))
    _, _, problem = labels.teacher_check(game, ["dd"])
    assert "empty points" in problem


def test_consistency_filter_keeps_labels_that_reproduce_the_result():
    game = sgf.loads(wall())
    ok = labels.check(game, labels.mask_from_sgf(["cc"], 9))
    assert ok.consistent and ok.ours == "B+3.5" and ok.gap == 0
    # Leaving the dead stone on the board turns Black's side into dame: far from RE.
    missed = labels.check(game, np.zeros((9, 9), dtype=bool))
    assert not missed.consistent and missed.gap < -30


def test_consistency_under_area_rules():
    game = sgf.loads(wall(re="B+2.5").replace(b"RU[Japanese]", b"RU[Chinese]").replace(b"KM[6.5]", b"KM[7.5]"))
    # Area: Black 9 stones + 36 = 45, White 9 + 27 + 7.5 = 43.5 -> B+1.5, not B+2.5.
    result = labels.check(game, labels.mask_from_sgf(["cc"], 9))
    assert result.ours == "B+1.5" and not result.consistent and result.gap == -1


def test_read_teacher_file(tmp_path):
    path = tmp_path / "t.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        fh.write(json.dumps({"name": "a", "katago_dead": ["cc"], "result_consistent": True}) + "\n")
        fh.write(json.dumps({"name": "b", "katago_dead": [], "result_consistent": False}) + "\n")
    got = labels.read_teacher(path)
    assert got["a"].dead == ["cc"] and got["a"].consistent and got["b"].dead == []
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"name": "a"}\n')
    with pytest.raises(labels.LabelError, match="line 1"):
        labels.read_teacher(bad)


def test_game_key_drops_folder_and_suffix():
    assert labels.game_key("kgs-6d/KGS2001__2001-01-01-1.sgf") == "KGS2001__2001-01-01-1"


@pytest.mark.skipif(not labels.gnugo_available(), reason="GNU Go is not installed")
def test_gnugo_names_the_stone_inside_the_wall_dead():
    with labels.GtpTeacher(level=10) as teacher:
        dead, seconds = teacher.dead(wall(), 9)
    assert labels.sgf_points(dead) == ["cc"] and seconds > 0


def test_engine_error_names_the_command():
    with pytest.raises(labels.EngineError, match="cannot start"):
        labels.GtpEngine(["/nonexistent/engine"])


# A GTP engine that loads anything and names C7 dead, but hangs on final_status_list: always,
# or, given a file name, while that file is missing (it makes the file: the next engine answers).
HANGING = textwrap.dedent("""
    import os, sys, time
    flag = sys.argv[1] if len(sys.argv) > 1 else ""
    for line in sys.stdin:
        ident, name = (line.split() + ["", ""])[:2]
        if name == "quit":
            break
        if name == "final_status_list" and not (flag and os.path.exists(flag)):
            if flag:
                open(flag, "w").close()
            time.sleep(600)
        answer = "C7" if name == "final_status_list" else ""
        sys.stdout.write("=" + ident + " " + answer + "\\n\\n")
        sys.stdout.flush()
""")


def hanging_teacher(tmp_path, once: bool, timeout: float = 0.5) -> labels.GtpTeacher:
    script = tmp_path / "hang.py"
    script.write_text(HANGING)
    flag = [str(tmp_path / "hung")] if once else []
    return labels.GtpTeacher(command=[sys.executable, str(script), *flag], timeout=timeout, name="fake")


def test_engine_that_hangs_once_is_restarted_for_the_next_game(tmp_path):
    # the restarted engine must start and answer in time on a loaded machine too: with both
    # cores busy training, a fresh interpreter took over 2 s to answer; 4 s
    with hanging_teacher(tmp_path, once=True, timeout=4.0) as teacher:
        with pytest.raises(labels.EngineError) as hung:
            teacher.dead(wall(), 9, game="wall.sgf")
        dead, _ = teacher.dead(wall(), 9, game="wall.sgf")
    assert str(hung.value) == ("fake did not answer 'final_status_list dead' within 4 s; fake restarted")
    assert labels.sgf_points(dead) == ["cc"]


def test_engine_that_keeps_hanging_is_dropped_after_three_games(tmp_path):
    with hanging_teacher(tmp_path, once=False) as teacher:
        answers = []
        for _ in range(4):
            with pytest.raises(labels.EngineError) as exc:
                teacher.dead(wall(), 9)
            answers.append(str(exc.value))
    assert answers[1].endswith("; fake restarted")
    assert answers[2].endswith("; fake dropped for the rest of the run (3 positions in a row without an answer)")
    assert answers[3] == "fake was dropped for the rest of the run (3 positions in a row without an answer)"
    assert not teacher.engines


@pytest.mark.slow
def test_katago_labels_on_training_games_mostly_reproduce_the_result():
    """On the first 300 training games, our scorer keeps at least the share the file's own check keeps."""
    from seog.datasets import archive
    data = shared_dir("kgs-6d-train.tar.xz")
    teacher = labels.read_teacher(data.parent / "kgs-6d-train-katago.jsonl.gz", "katago")
    ours = theirs = n = 0
    for entry in archive.read(data):
        label = teacher[labels.game_key(entry.name)]
        game = sgf.loads(entry.data)
        _, check, problem = labels.teacher_check(game, label.dead)
        assert problem == ""
        ours += check.consistent
        theirs += bool(label.consistent)
        n += 1
        if n == 300:
            break
    assert ours >= theirs and ours / n > 0.9


@pytest.mark.slow
@pytest.mark.skipif(not labels.gnugo_available(), reason="GNU Go is not installed")
def test_selfplay_game_is_written_with_marks_that_carry_the_teachers_dead_stones(tmp_path):
    from seog.datasets import selfplay
    counts = selfplay.generate(tmp_path, 9, 2, seed=5, levels=(1,), log=lambda *_: None)
    lines = [json.loads(x) for x in (tmp_path / "index.jsonl").read_text().splitlines()]
    assert len(lines) == 2 and sum(counts.values()) == 2
    for entry in lines:
        if entry["outcome"] == "kept":
            game = sgf.load(tmp_path / "9x9" / f"{entry['name']}.sgf")
            assert game.result == entry["teacher_score"]
            assert labels.sgf_points(game.marked_dead()) == labels.sgf_points(
                labels.mask_from_gtp(entry["teacher_dead"], 9))


class _Refusing:
    """A GTP engine stand-in that refuses the first ``refuse`` moves it is asked to play."""

    def __init__(self, refuse: int):
        self.refuse, self.played = refuse, []

    def send(self, command: str) -> str:
        if self.refuse:
            self.refuse -= 1
            raise labels.EngineRefused(command, "illegal move", "stand-in")
        self.played.append(command)
        return ""


def test_wild_move_is_the_first_random_point_the_engine_accepts():
    import random

    from seog.datasets.selfplay import _random_move
    engine = _Refusing(refuse=3)
    vertex = _random_move(engine, "b", 9, random.Random(1))
    assert engine.played == [f"play b {vertex}"] and len(vertex) >= 2


def test_wild_move_gives_way_to_the_engine_when_no_random_point_is_legal():
    import random

    from seog.datasets.selfplay import _random_move
    assert _random_move(_Refusing(refuse=100), "w", 9, random.Random(1), tries=8) is None
