import pytest

from seog.features import coords


@pytest.mark.parametrize("size", [9, 13, 19, 25])
def test_gtp_sgf_and_flat_round_trip_on_every_point(size):
    for index in range(size * size):
        flat = coords.index_to_flat(index, size)
        assert coords.flat_to_index(flat, size) == index
        assert coords.from_gtp(coords.to_gtp(flat, size), size) == flat
        assert coords.from_sgf(coords.to_sgf(flat, size), size) == flat


def test_gtp_skips_the_letter_i_and_counts_rows_from_the_bottom():
    assert coords.to_gtp(coords.to_flat(0, 8, 19), 19) == "J19"
    assert coords.to_gtp(coords.to_flat(18, 0, 19), 19) == "A1"
    assert coords.from_gtp("d4", 19) == coords.to_flat(15, 3, 19)
    with pytest.raises(coords.CoordinateError):
        coords.from_gtp("I5", 19)


def test_passes_and_off_board_points():
    assert coords.from_sgf("", 19) is None and coords.from_sgf("tt", 19) is None
    assert coords.from_gtp("PASS", 9) is None
    with pytest.raises(coords.CoordinateError):
        coords.from_sgf("jj", 9)
    with pytest.raises(coords.CoordinateError):
        coords.from_gtp("K10", 9)


def test_a_corner_has_two_walls_among_its_padded_neighbours():
    size = 9
    corner = coords.to_flat(0, 0, size)
    from seog.features.board import Board
    b = Board(size)
    near = coords.padded_neighbours(size)[corner]
    assert [b.stones[q] == coords.BORDER for q in near] == [True, True, False, False]  # up, left, right, down
    assert near[2] == coords.to_flat(0, 1, size) and near[3] == coords.to_flat(1, 0, size)


def test_adjacent_lists_only_points_on_the_board():
    near = coords.adjacent(9)
    assert sorted(near[0]) == [1, 9]  # the corner A9
    assert sorted(near[4 * 9 + 4]) == [3 * 9 + 4, 4 * 9 + 3, 4 * 9 + 5, 5 * 9 + 4]
    assert sorted(near[9 * 9 - 1]) == [8 * 9 - 1, 9 * 9 - 2]
    assert sum(len(n) for n in near) == 2 * 2 * 9 * 8  # every edge of the grid, both ways


def test_unsupported_sizes_are_refused():
    for size in (1, 26, 0):
        with pytest.raises(ValueError, match="not supported"):
            coords.check_size(size)


@pytest.mark.parametrize("vertex", ["d\u00b2", "d\u0664", "\uff244", "D4.", "D+4", "D 4"])
def test_gtp_vertices_take_ascii_digits_only(vertex):
    with pytest.raises(coords.CoordinateError, match="bad GTP vertex"):
        coords.from_gtp(vertex, 19)


def test_sgf_points_name_every_point_once_and_leave_the_pass_out():
    """The replay's table: each two letters as written on the board is its point; ``tt`` (a pass
    up to 19x19), ``""`` and capitals are not there."""
    from seog.features.coords import from_sgf, from_sgfmill, sgf_points, to_sgfmill

    table = sgf_points(19)
    assert len(table) == 361 and len(set(table.values())) == 361
    assert table[b"dd"] == from_sgf("dd", 19) and table[b"sa"] == from_sgf("sa", 19)
    assert b"tt" not in table and b"" not in table and b"DD" not in table
    assert from_sgfmill(to_sgfmill(table[b"cq"], 19), 19) == table[b"cq"] and to_sgfmill(table[b"aa"], 19) == (18, 0)
