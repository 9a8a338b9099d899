"""The SEOG feature vector on small hand-drawn positions: each value worked out by hand."""

import re
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

from seog.features import vector as V
from seog.features.arrays import FOUR
from seog.features.families import FAMILIES
from seog.features.measures import measure
from seog.features.neighbours import pair_rank, row_rank
from seog.features.scaling import Scaler, ScalerError
from seog.features.shapes import split_mask
from seog.features.topology import analyze
from tests.conftest import board


def features(picture: str):
    """Topology and a lookup ``f(gtp_point_or_index, name)`` for the block on that point."""
    topo = analyze(board(picture).grid)

    def f(row: int, col: int, name: str) -> float:
        block = topo.block_at(row * topo.size + col)
        assert block is not None, f"no stone at {row},{col}"
        return float(V.extract(topo, [block.id], [name])[0, 0])

    return topo, f


# ---- the registry -------------------------------------------------------------------------------

def test_registry_has_every_study_feature_once_and_set_a_is_33_of_them():
    assert len(V.SET_B) == len(set(V.SET_B)) == 90
    assert len(V.SET_A) == 33 and set(V.SET_A) <= set(V.SET_B)
    assert V.SET_A == [n for n in V.SET_B if n in V.SET_A]
    for name in ["liberties_1", "liberties_2", "liberties_3", "protected_liberties", "eye_sum_split_points",
                 "pacer_sum_int_split_points", "pacer_average_power", "opp_cer_perimeter", "chain_pacer9_ave_power",
                 "chain_estimated_adj_terr", "terr_all_opp_liberties"]:
        assert name in V.SET_B
    assert all(f.definition.endswith(".") and f.sets in ("AB", "B") for f in V.FEATURES)
    assert len(V.DYNAMIC) == 7


def test_the_families_columns_are_the_registry_in_order_for_both_sets():
    assert [f.name for f in V.FEATURES] == [name for family in FAMILIES for name in family.names]
    assert [f.family for f in V.FEATURES] == [family.name for family in FAMILIES for _ in family.names]
    topo = analyze(board(SURROUNDED).grid)
    m, ids = measure(topo), list(range(len(topo.blocks)))
    for names in (V.SET_A, V.SET_B):
        rows = V.extract(topo, ids, names)
        assert rows.shape == (len(ids), len(names))
        for family in FAMILIES:
            columns = np.concatenate([np.reshape(c, (len(ids), -1)) for c in family.function(m)], axis=1)
            assert columns.shape[1] == len(family.names), family.name
            for j, name in enumerate(family.names):
                if name in names:
                    assert np.array_equal(rows[:, names.index(name)], columns[:, j]), name
    assert np.array_equal(V.compute(topo).values, V.extract(topo, ids))


def test_a_topology_is_frozen_and_its_table_computed_once():
    topo = analyze(board(SURROUNDED).grid)
    with pytest.raises(AttributeError):
        topo.blocks = []
    assert V.table(topo) is V.table(topo)
    assert V.table(analyze(topo.grid)) is not V.table(topo)


def test_docs_list_every_feature_with_its_set():
    doc = (Path(__file__).resolve().parent.parent / "docs" / "features.md").read_text()
    for f in V.FEATURES:
        row = re.search(rf"^\| `{f.name}` \|.*\| (A, B|B) \|$", doc, re.M)
        assert row, f"{f.name} missing from docs/features.md"
        assert row.group(1) == ("A, B" if f.sets == "AB" else "B"), f.name


def test_unknown_names_and_ids_are_clear_errors():
    topo = analyze(board("X..\n...\n..O").grid)
    with pytest.raises(V.FeatureError, match="unknown feature 'eyes'"):
        V.extract(topo, [0], ["eyes"])
    with pytest.raises(V.FeatureError, match="out of range"):
        V.extract(topo, [2])


# ---- the block ------------------------------------------------------------------------------------

def test_liberty_ranks_of_a_lone_stone_in_the_centre_and_in_the_corner():
    _, f = features("""
        .....
        .....
        ..X..
        .....
        .....""")
    assert [f(2, 2, n) for n in ("liberties_1", "liberties_2", "liberties_3")] == [4, 8, 8]
    _, f = features("""
        X....
        .....
        .....
        .....
        .....""")
    assert [f(0, 0, n) for n in ("liberties_1", "liberties_2", "liberties_3")] == [2, 3, 4]
    assert f(0, 0, "perimeter") == 4          # perimeter ignores the edge
    assert f(0, 0, "cm_x") == 0 and f(0, 0, "cm_y") == 0


def test_liberty_ranks_stop_at_stones():
    _, f = features("""
        .....
        .O...
        .X...
        .....
        .....""")
    assert f(2, 1, "liberties_1") == 3        # (2,0) (2,2) (3,1); (1,1) is white
    assert f(2, 1, "liberties_2") == 6        # (1,0) (3,0) (1,2) (3,2) (2,3) (4,1)
    assert f(2, 1, "liberties_3") == 7        # (0,0) (4,0) (0,2) (1,3) (4,2) (3,3) (2,4); not (0,1)


def test_block_shape_measures_on_an_edge_block():
    _, f = features("""
        .XXX.
        ..X..
        .....
        .....
        .....""")
    assert f(0, 1, "size") == 4
    assert f(0, 1, "perimeter") == 8          # 3 off the board above + (0,0) (0,4) (1,1) (1,3) (2,2)
    assert f(0, 1, "liberties_1") == 5
    assert f(0, 1, "bb_square") == 6
    assert f(0, 1, "cm_x") == 2 and f(0, 1, "cm_y") == pytest.approx(0.25)


def test_protected_liberties_are_where_an_opponent_stone_would_be_in_atari():
    _, f = features("""
        .X.O.
        X.X..
        .X...
        .....
        .....""")
    assert f(0, 1, "liberties_1") == 3        # (0,0) (0,2) (1,1)
    # white on (0,0) or (1,1): no liberty; on (0,2) it joins (0,3) and keeps (0,4) and (1,3)
    assert f(0, 1, "protected_liberties") == 2
    # white (0,3): black on (0,4) keeps (1,4); on (0,2) it has none but captures nothing
    assert f(0, 3, "protected_liberties") == 1


def test_a_move_that_captures_is_not_self_atari():
    _, f = features("""
        XO.
        .X.
        ...""")
    # white (0,1) has liberty (0,2) only; black (0,0) has liberty (1,0). White on (1,0) would have
    # no liberty of its own but captures (0,0): that liberty is not protected
    assert f(0, 0, "liberties_1") == 1
    assert f(0, 0, "protected_liberties") == 0


def test_local_majority_counts_stones_within_distance_two():
    _, f = features("""
        .....
        ..O..
        .XX.O
        ...X.
        .....""")
    # the block (2,1)-(2,2): black (3,3) at distance 2; white (1,2) at 1 and (2,4) at 2
    assert f(2, 1, "local_majority") == 1 - 2
    # white (1,2): both black stones within 2; (3,3) and (2,4) are 3 away
    assert f(1, 2, "local_majority") == 0 - 2


# ---- eyes and regions ----------------------------------------------------------------------------

LIVING = """
    .X.X.O
    XX.XXO
    XXXXOO
    OOOOO.
    ......
    ......"""


def test_eyes_of_a_corner_group():
    _, f = features(LIVING)
    assert f(0, 1, "eye_num") == 2            # (0,0) and (0,2)-(1,2); (0,4) opens onto white
    assert f(0, 1, "eye_sum_size") == 3
    assert f(0, 1, "eye_sum_perimeter") == 4 + 6
    assert f(0, 1, "eye_sum_split_points") == 0
    assert f(0, 1, "chain_eye_num") == 2
    assert f(0, 1, "chain_adj_cer_num") == 3
    assert f(0, 1, "pacer_sum_acc_size") == 1  # (0,4), in the region that holds the white stones


def splits(picture: str) -> int:
    """Split points of the empty points of a (not necessarily square) picture."""
    empty = np.array([[ch == "." for ch in row.strip()] for row in picture.strip().splitlines()])
    return int(split_mask(np.pad(empty, 1)[None]).sum())


def test_split_points_of_straight_bent_and_square_eyes():
    assert splits("""
        XXXXX
        X...X
        XXXXX""") == 1                        # straight three: the middle point
    assert splits("""
        XXXXXX
        X....X
        XXXXXX""") == 2
    assert splits("""
        XXXX
        X..X
        X..X
        XXXX""") == 0                         # square four
    assert splits("""
        XXXXX
        X...X
        XX.XX
        XXXXX""") == 1                        # pyramid four: the centre
    assert splits("""
        XXXXX
        X...X
        X.X.X
        X...X
        XXXXX""") == 0                        # a ring has no split point
    assert splits("""
        ..X
        .XX
        XXX""") == 1                          # bent three in the corner


def test_split_points_agree_with_relabelling_on_random_sets():
    rng = np.random.default_rng(7)
    sets = rng.random((40, 7, 7)) < 0.6
    found = split_mask(np.stack([np.pad(s, 1) for s in sets]))
    for k, s in enumerate(sets):
        pieces = ndimage.label(s, FOUR)[1]
        for r, c in zip(*np.nonzero(s)):
            t = s.copy()
            t[r, c] = False
            assert found[k, r + 1, c + 1] == (ndimage.label(t, FOUR)[1] > pieces), (k, r, c)


def test_partially_accessible_region_and_opponent_region():
    _, f = features("""
        .XXX.
        X...X
        X.O.X
        X...X
        .XXX.""")
    assert f(2, 2, "opp_cer_size") == 9       # white sits in the 3x3 inside black's ring
    assert f(2, 2, "opp_cer_perimeter") == 12
    top = (0, 1)
    assert f(*top, "eye_num") == 2            # the corners (0,0) and (0,4)
    assert f(*top, "pacer_sum_acc_size") == 3          # (1,1) (1,2) (1,3)
    assert f(*top, "pacer_sum_acc_perimeter") == 8     # a row of three
    assert f(*top, "pacer_sum_int_size") == 6          # rows 2-3 of the 3x3
    assert f(*top, "pacer_sum_int_perimeter") == 10    # a 2x3 rectangle
    assert f(*top, "pacer_sum_int_split_points") == 0
    assert f(*top, "pacer_average_power") == 0         # every empty point there is contested
    # white's own enclosed region is the rest of the board, black stones included
    assert f(2, 2, "pacer_sum_acc_size") == 4
    assert f(2, 2, "pacer_sum_int_size") == 24 - 4


# ---- chains and surroundings ---------------------------------------------------------------------

def test_chain_of_two_blocks_joined_by_a_shared_liberty():
    _, f = features("""
        .....
        .X.X.
        .....
        .....
        .....""")
    assert f(1, 1, "chain_blocks_num") == 2
    assert f(1, 1, "chain_size") == 2
    assert f(1, 1, "chain_liberties") == 7
    assert f(1, 1, "chain_split_liberties") == 1       # (1,2)
    assert f(1, 1, "chain_connections") == 1
    assert f(1, 1, "chain_perimeter") == 7


def test_chain_liberties_shared_with_the_opponent():
    _, f = features("""
        .....
        .X.O.
        .....
        .....
        .....""")
    assert f(1, 1, "chain_ext_opp_liberties") == 1     # (1,2)
    assert f(1, 1, "opp_blocks_num") == 0
    assert f(1, 1, "weak_lib_size") == 1               # white shares (1,2) with the chain
    assert f(1, 1, "weak_lib_shared_liberties") == 1
    assert f(1, 1, "weak1_size") == 0                  # no adjacent opponent


SURROUNDED = """
    ...X..
    .OXO..
    ..X...
    ......
    ......
    ......"""


def test_weakest_neighbours_opponent_chain_and_friend():
    topo, f = features(SURROUNDED)
    a = (1, 2)                                         # the black block (1,2)-(2,2)
    assert f(*a, "opp_blocks_num") == 2
    assert f(*a, "weak1_liberties") == 2               # white (1,3): (1,4) (2,3)
    assert f(*a, "weak1_shared_liberties") == 1        # (2,3)
    assert f(*a, "weak1_atari_liberties") == 2
    assert f(*a, "weak2_liberties") == 3               # white (1,1)
    assert f(*a, "weak2_atari_liberties") == 0
    assert f(*a, "opp_chain_size") == 1 and f(*a, "opp_chain_perimeter") == 4
    assert f(*a, "weak_lib_liberties") == 2            # (1,3) again, sharing (2,3) with the chain
    assert f(*a, "friend_size") == 1 and f(*a, "friend_liberties") == 2   # black (0,3)
    assert f(*a, "friend_shared_liberties") == 1       # (0,2)
    assert f(*a, "chain_blocks_num") == 2


def test_related_blocks_and_dynamic_features():
    topo = analyze(board(SURROUNDED).grid)
    ids = {name: topo.block_at(r * 6 + c).id for name, (r, c) in
           {"corner": (0, 3), "a": (1, 2), "left": (1, 1), "right": (1, 3)}.items()}
    rel = V.related(topo, [ids["a"], ids["left"]])
    assert rel[0] == [[ids["a"]], [ids["corner"]], [ids["right"]], [ids["left"]], [ids["right"]],
                      [ids["right"]], [ids["corner"]]]
    assert rel[1][1] == [] and rel[1][2] == [ids["a"]] and rel[1][3] == []
    p = np.zeros(len(topo.blocks))
    p[ids["corner"]], p[ids["a"]], p[ids["left"]], p[ids["right"]] = 0.9, 0.8, 0.3, 0.1
    dyn = V.dynamic(p, rel)
    assert dyn.shape == (2, 7)
    assert dyn[0].tolist() == pytest.approx([0.8, 0.9, 0.1, 0.3, 0.1, 0.1, 0.9])
    assert dyn[1, 1] == 0.5 and dyn[1, 3] == 0.5       # empty slots


def test_pacer_power_is_the_mean_influence_on_the_region_s_empty_points():
    picture = """
        .XXXXX.
        X.....X
        X.....X
        X..O..X
        X.....X
        X.....X
        .XXXXX."""
    _, f = features(picture)
    from seog.features.influence import influence
    infl = influence(board(picture).grid)
    inside = infl[1:6, 1:6].astype(float)
    expected = (inside.sum() - inside[2, 2]) / 24
    assert expected > 0                                # black's wall outweighs the lone stone
    assert f(0, 1, "pacer_average_power") == pytest.approx(expected)
    assert f(3, 3, "pacer_average_power") < 0          # for white, the board outside is black's


def test_territory_features_count_liberties_in_the_adjacent_territory():
    _, f = features("""
        ....X....
        ....X....
        ....X....
        XXXXX....
        .........
        .........
        .........
        .........
        .........""")
    # Bouzy 5/21 keeps the 4x3 corner behind the wall (12 points, 2 of them the wall's liberties)
    assert f(0, 4, "chain_estimated_adj_terr") > 0
    assert f(0, 4, "terr_direct_liberties") == f(0, 4, "terr_all_friend_liberties")
    assert f(0, 4, "terr_all_opp_liberties") == 0


# ---- any board, any block -------------------------------------------------------------------------

# every feature but the centre of mass, whose x and y swap: the picked neighbours' too, since ties
# between equal neighbours go by what they hand on, and by id only when that is the same
GEOMETRIC = [n for n in V.SET_B if not n.startswith("cm_")]


@pytest.mark.parametrize("size", [5, 9, 13, 19, 25])
def test_every_size_works_and_transposing_the_board_keeps_the_features(size):
    rng = np.random.default_rng(size)
    grid = rng.choice([-1, 0, 0, 1], size=(size, size)).astype(np.int8)
    topo, flipped = analyze(grid), analyze(grid.T.copy())
    all_ids = range(len(topo.blocks))
    rows = V.extract(topo, all_ids)
    assert rows.shape == (len(topo.blocks), len(V.SET_B)) and np.isfinite(rows).all()
    twin = [flipped.block_at(int(c) * size + int(r)).id for r, c in
            (divmod(int(b.points[0]), size) for b in topo.blocks)]
    cols = [V.SET_B.index(n) for n in GEOMETRIC]
    assert np.array_equal(rows[:, cols], V.extract(flipped, twin)[:, cols])
    swapped = V.extract(flipped, twin, ["cm_y", "cm_x"])
    assert np.array_equal(V.extract(topo, all_ids, ["cm_x", "cm_y"]), swapped)
    assert len(V.related(topo, all_ids)) == len(topo.blocks)


# kgs-2017-q1 2017-01-03-2: turned, its blocks once picked other equal neighbours, whose chains
# differ (opp_chain_*), since ties went by block id, which follows the scan order
TIES = """
....XOO....OXX.....
..XXXXOX...OOXXX...
..XOOXOX....OOOXXX.
..XOXO.OOO....OX..X
...OXO...O....OOXXX
.XXXXOOOO.OOOOXXOOX
..XOOX.O.O.OXXXO..O
.XO.O.XO.OOX..XO.O.
.XOOXX.XOXXXXXOO.OO
XXOOO...OX.O.XO..OX
OXXOX...OOX..XXOOXX
OOOOOX.XOXX.OOOXXX.
...OXOOOXX.XOXXX...
.O.OXXOOOOXX.XO.O..
O.OX.XOXOOOXXX...X.
XOOXXXXXXOOOOXOXXO.
XXX..XOXO....OXXO..
...XXOOOO.OOOOX.X..
...XOOO..O...OOX...
"""


@pytest.mark.parametrize("turns, mirror, swap", [(t, m, s) for t in range(4) for m in (0, 1) for s in (0, 1)])
def test_a_turned_mirrored_or_colour_swapped_board_gives_every_block_the_same_features(turns, mirror, swap):
    grid = board(TIES).grid
    turned = np.rot90(grid, turns)[:, ::-1] if mirror else np.rot90(grid, turns)
    topo, other = analyze(grid), analyze(np.ascontiguousarray(turned * (-1 if swap else 1)))
    where = np.rot90(topo.block_of, turns)[:, ::-1] if mirror else np.rot90(topo.block_of, turns)
    twin = [int(other.block_of.flat[np.flatnonzero(where == b.id + 1)[0]]) - 1 for b in topo.blocks]
    cols = [n for n in V.SET_B if not n.startswith("cm_")]  # x and y swap under a quarter turn
    assert np.array_equal(V.extract(topo, range(len(topo.blocks)), cols), V.extract(other, twin, cols))


def test_extract_on_an_empty_board_and_an_empty_selection():
    topo = analyze(np.zeros((9, 9), dtype=np.int8))
    assert V.extract(topo, []).shape == (0, len(V.SET_B))
    topo = analyze(board(LIVING).grid)
    assert V.extract(topo, [], V.SET_A).shape == (0, 33)


def test_kgs_dev_positions_give_finite_rows(tmp_path):
    from seog.classifiers.status import safely_capturable, static_statuses
    from seog.features import sgf
    from tests.conftest import shared_dir
    games = sorted(shared_dir("kgs-2017-q1").glob("*.sgf"))[:5]
    for path in games:
        topo = analyze(sgf.load(path).board.grid)
        settled = static_statuses(topo)
        ids = [b.id for b in topo.blocks if b.id not in settled]
        rows = V.extract(topo, ids)
        assert rows.shape == (len(ids), 90) and np.isfinite(rows).all()
        # Blocks in atari stay open only when taking them runs into a recapture.
        in_atari = [b for b, libs in zip(ids, rows[:, V.SET_B.index("liberties_1")]) if libs < 2]
        assert not any(safely_capturable(topo, topo.blocks[b]) for b in in_atari)


# ---- scaling ---------------------------------------------------------------------------------------

def test_scaler_maps_training_range_to_unit_interval_and_round_trips():
    rows = np.array([[1.0, 5.0, 2.0], [3.0, 5.0, 6.0], [2.0, 5.0, 4.0]])
    scaler = Scaler.fit(rows, ["a", "b", "c"])
    out = scaler.transform(rows)
    assert out[:, 0].tolist() == [0.0, 1.0, 0.5]
    assert out[:, 1].tolist() == [0.0, 0.0, 0.0]       # constant column
    again = Scaler.from_dict(scaler.to_dict())
    assert np.array_equal(again.transform([[5.0, 7.0, 2.0]]), [[2.0, 0.0, 0.0]])
    assert again.names == ["a", "b", "c"]
    with pytest.raises(ScalerError, match="fitted on 3"):
        scaler.transform([[1.0, 2.0]])
    with pytest.raises(ScalerError):
        Scaler.from_dict({"minimum": [1.0], "maximum": [0.0]})


def test_row_ranks_are_numpys_unique_inverse_on_random_tables():
    rng = np.random.default_rng(3)
    for _ in range(100):
        rows = rng.integers(0, 3, size=(int(rng.integers(1, 60)), 4)).astype(np.float64)
        assert np.array_equal(row_rank(rows), np.unique(rows, axis=0, return_inverse=True)[1].reshape(-1))
        pairs = rng.integers(-4, 4, size=(int(rng.integers(1, 60)), 2))
        assert np.array_equal(pair_rank(pairs[:, 0], pairs[:, 1]), row_rank(pairs))
