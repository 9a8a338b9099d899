"""The feature cache: one row per block with labels, static statuses and global related rows."""

import numpy as np
import pytest
from test_select import wall

from seog.datasets import cache
from seog.features import vector

# Black walls off the left side, White the right; a three-stone White group sits dead on
# Black's side (Japanese: Black 36 + 3 prisoners, White 27 + 6.5 -> B+5.5).
TWO = """(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]RE[B+5.5]
AB[ea][eb][ec][ed][ee][ef][eg][eh][ei]
AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][bf][bg][cg]
;B[tt];W[tt]TB[aa:di]TW[ga:ii])"""


def _folder(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "wall.sgf").write_bytes(wall())
    (folder / "two.sgf").write_bytes(TWO.encode())
    (folder / "wrong.sgf").write_bytes(wall(re="W+10.5"))  # marks do not reproduce RE
    (folder / "resigned.sgf").write_bytes(wall(re="B+R"))
    return folder


def test_build_writes_every_block_with_labels_and_global_related_rows(tmp_path):
    out = tmp_path / "c.npz"
    counts = cache.build(cache.jobs([_folder(tmp_path)]), out, workers=1)
    assert counts["positions"] == 2
    assert counts["skipped"] == {"inconsistent with RE": 1, "resignation": 1}
    data = cache.load(out)
    assert list(data["positions"]) == ["two.sgf", "wall.sgf"]
    n = len(data["y"])
    assert data["X"].shape == (n, len(vector.SET_B)) and data["X"].dtype == np.float32
    assert list(data["feature_names"]) == vector.SET_B
    assert data["y"].dtype == np.int8 and data["static"].dtype == np.int8
    # 'two': black wall, white wall, the dead white group; 'wall': the same with one dead stone.
    assert n == 6 and int((data["y"] == 0).sum()) == 2
    assert set(np.unique(data["static"])) <= {-1, 0, 1}
    rel = data["related"]
    assert rel.shape[:2] == (n, len(vector.DYNAMIC)) and rel.dtype == np.int32
    # Slot 0 is the block itself; every index points into the same position.
    assert (rel[:, 0, 0] == np.arange(n)).all()
    valid = rel >= 0
    rows = np.broadcast_to(np.arange(n)[:, None, None], rel.shape)
    assert (data["position"][rel[valid]] == data["position"][rows[valid]]).all()
    assert list(data["sizes"]) == [9, 9]
    assert cache.picks(data) == vector.PICKS == "features"


def test_build_keeps_inconsistent_games_on_request(tmp_path):
    out = tmp_path / "c.npz"
    counts = cache.build(cache.jobs([_folder(tmp_path)]), out, workers=1, consistent=False)
    assert counts["positions"] == 3


def test_teacher_labels_replace_the_marks(tmp_path):
    from seog.datasets.labels import TeacherLabel
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "wall.sgf").write_bytes(wall(marks=""))
    teacher = {"wall": TeacherLabel("wall", ["cc"], True, {})}
    counts = cache.build(cache.jobs([folder], teacher), tmp_path / "c.npz", workers=1)
    assert counts["positions"] == 1 and counts["dead_rows"] == 1
    with pytest.raises(ValueError, match="no labels"):
        cache.build(cache.jobs([folder]), tmp_path / "d.npz", workers=1)


def test_an_ownership_array_labels_the_dead_group_inside_the_black_wall(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "two.sgf").write_bytes(TWO.replace("TB[aa:di]TW[ga:ii]", "").encode())
    owner = np.where(np.arange(9) <= 4, 100, -100)[None, :].repeat(9, axis=0).ravel().astype(np.int8)
    labels = tmp_path / "own.npz"
    np.savez(labels, names=np.array(["two"]), ownership=owner[None])
    counts = cache.build(cache.jobs([folder], ownership=labels), tmp_path / "c.npz", workers=1)
    assert counts["positions"] == 1 and counts["dead_rows"] == 1  # the three White stones, one block
    # White owning its group's points: alive, and the count no longer reproduces B+5.5.
    owner.reshape(9, 9)[5:7, 1:3] = -100
    np.savez(labels, names=np.array(["two"]), ownership=owner[None])
    with pytest.raises(ValueError, match="inconsistent with RE 1"):
        cache.build(cache.jobs([folder], ownership=labels), tmp_path / "d.npz", workers=1)


def test_positions_before_the_end_count_a_stone_captured_in_the_last_moves_as_dead(tmp_path):
    from seog.datasets.split import game_id

    folder = tmp_path / "g"
    folder.mkdir()
    # White's A1 goes into Black's area and is taken: Black 34 + 4 prisoners, White 27 + 6.5.
    moves = TWO.replace("RE[B+5.5]", "RE[B+4.5]").replace(";B[tt];W[tt]TB[aa:di]TW[ga:ii]", ";B[bi];W[ai];B[ah];W[];B[]")
    (folder / "two.sgf").write_bytes(moves.encode())
    owner = np.where(np.arange(9) <= 4, 100, -100)[None, :].repeat(9, axis=0).ravel().astype(np.int8)
    labels = tmp_path / "own.npz"
    np.savez(labels, names=np.array(["two"]), ownership=owner[None])
    counts = cache.build(cache.jobs([folder], ownership=labels, back=(1, 2, 5)), tmp_path / "c.npz", workers=1)
    assert counts["skipped"] == {"too short": 1}  # three moves: none five before the last
    data = cache.load(tmp_path / "c.npz")
    assert list(data["positions"]) == ["two.sgf", "two.sgf@-1", "two.sgf@-2"]
    assert {game_id(str(n)) for n in data["positions"]} == {"two"}
    blocks = np.bincount(data["position"])
    dead = np.bincount(data["position"], weights=data["y"] == 0).astype(int)
    # last: walls, the White group, B1, A2; one move back A1 still stands and is dead; two back, B1 alone.
    assert list(blocks) == [5, 5, 4] and list(dead) == [1, 2, 1]


def test_positions_before_the_end_need_ownership_labels(capsys):
    with pytest.raises(SystemExit) as stop:
        cache.main(["games.tar", "--back", "4"])
    assert stop.value.code == 2 and "--back needs --ownership" in capsys.readouterr().err


def test_two_workers_give_the_same_rows(tmp_path):
    folder = _folder(tmp_path)
    cache.build(cache.jobs([folder]), tmp_path / "one.npz", workers=1)
    cache.build(cache.jobs([folder]), tmp_path / "two.npz", workers=2)
    a, b = cache.load(tmp_path / "one.npz"), cache.load(tmp_path / "two.npz")
    for key in cache.KEYS:
        assert (a[key] == b[key]).all(), key


def test_load_refuses_other_files(tmp_path):
    np.savez_compressed(tmp_path / "x.npz", X=np.zeros(2))
    with pytest.raises(ValueError, match="not a feature cache"):
        cache.load(tmp_path / "x.npz")


def test_merge_shifts_rows_and_refuses_a_part_whose_neighbours_were_picked_otherwise(tmp_path):
    folder = _folder(tmp_path)
    cache.build(cache.jobs([folder]), tmp_path / "a.npz", workers=1)
    cache.build(cache.jobs([folder]), tmp_path / "b.npz", workers=1)
    counts = cache.merge([tmp_path / "a.npz", tmp_path / "b.npz"], tmp_path / "ab.npz")
    a, ab = cache.load(tmp_path / "a.npz"), cache.load(tmp_path / "ab.npz")
    n = len(a["y"])
    assert counts["positions"] == 4 and counts["rows"] == 2 * n and cache.picks(ab) == vector.PICKS
    assert (ab["related"][n:][ab["related"][n:] >= 0] >= n).all()  # the second part's rows point past the first
    assert list(ab["position"][n:]) == list(a["position"] + 2)
    old = {k: v for k, v in a.items() if k != "picks"}  # a cache from before ties went by features
    np.savez_compressed(tmp_path / "old.npz", **old)
    assert cache.picks(cache.load(tmp_path / "old.npz")) == "ids"
    with pytest.raises(ValueError, match="old.npz picks neighbours by ids, .*a.npz by features: rebuild"):
        cache.merge([tmp_path / "a.npz", tmp_path / "old.npz"], tmp_path / "mixed.npz")
