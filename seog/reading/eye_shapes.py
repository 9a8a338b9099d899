"""The table of eye values of small shapes, derived by exhaustive search (``eyes.evaluate``).

A *placed shape* is a set of cells (row, col) with the board's edges on some sides of its
bounding box (``N``, ``S``, ``W``, ``E``): no edge is a shape in the centre, one an edge shape,
two that meet a corner shape. Every cell's neighbour outside the shape and on the board is the
defender's wall, one block with no liberty outside the space. ``build_table`` reads every
shape of 1 to ``MAX_CELLS`` cells (up to the square's eight symmetries), in the centre, on each
edge and in each corner, empty and with one attacker stone on each cell; the table is shipped as
JSON (``eye_table.json``, made by ``python -m seog.reading.eye_shapes``) because reading it takes
minutes and loading it a millisecond. The file holds only the shapes that are not two eyes
whoever moves (most are): a shape the table covers and does not list is two eyes. ``lookup``
answers a placed shape in any orientation.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from seog.reading.eyes import ATTACKER, DEFENDER, EMPTY, EyeGame, EyeValue, evaluate

MAX_CELLS = 7
TABLE_FILE = Path(__file__).with_name("eye_table.json")
SIDES = "NESW"
_STEPS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# The square's symmetries as (swap rows and columns, flip rows, flip columns).
_SYMMETRIES = tuple((swap, fr, fc) for swap in (False, True) for fr in (False, True) for fc in (False, True))

Cell = tuple[int, int]


def polyominoes(size: int) -> list[frozenset[Cell]]:
    """Every connected shape of ``size`` cells, one per class of the square's symmetries."""
    shapes = {_canonical(frozenset({(0, 0)}), "", frozenset())[0]}
    for _ in range(size - 1):
        grown = set()
        for key in shapes:
            cells = _cells(key)
            for r, c in cells:
                for dr, dc in _STEPS:
                    cell = (r + dr, c + dc)
                    if cell not in cells:
                        grown.add(_canonical(cells | {cell}, "", frozenset())[0])
        shapes = grown
    return sorted((_cells(k) for k in shapes), key=sorted)


def placements(cells: frozenset[Cell]) -> list[str]:
    """The edges a shape may lie on: none, one side, or two sides that meet (distinct up to symmetry)."""
    options = ["", "N", "E", "S", "W", "NE", "ES", "SW", "NW"]
    seen, out = set(), []
    for sides in options:
        key = _canonical(cells, sides, frozenset())[0]
        if key not in seen:
            seen.add(key)
            out.append(sides)
    return out


def game_of(cells: frozenset[Cell], sides: str = "", stones: frozenset[Cell] = frozenset()) -> EyeGame:
    """The eye game of a placed shape with the attacker's ``stones`` on some of its cells."""
    if not cells or not _connected(cells):
        raise ValueError(f"an eye space is one connected set of cells, not {sorted(cells)}")
    if not stones <= cells:
        raise ValueError(f"attacker stones {sorted(stones - cells)} are outside the shape")
    if set(sides) - set(SIDES):
        raise ValueError(f"edges are some of {SIDES!r}, not {sides!r}")
    order = sorted(cells)
    index = {cell: i for i, cell in enumerate(order)}
    wall = len(order)
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    bottom, right = max(r for r, _ in cells), max(c for _, c in cells)
    neighbours: list[list[int]] = [[] for _ in range(wall + 1)]
    for (r, c), i in index.items():
        for dr, dc in _STEPS:
            nr, nc = r + dr, c + dc
            if (nr, nc) in index:
                neighbours[i].append(index[(nr, nc)])
            elif not ((nr < top and "N" in sides) or (nr > bottom and "S" in sides)
                      or (nc < left and "W" in sides) or (nc > right and "E" in sides)):
                if wall not in neighbours[i]:
                    neighbours[i].append(wall)
                    neighbours[wall].append(i)
    start = tuple(ATTACKER if cell in stones else EMPTY for cell in order) + (DEFENDER,)
    return EyeGame(tuple(map(tuple, neighbours)), start, (True,) * wall + (False,), (EMPTY,) * (wall + 1),
                   frozenset({wall}), tuple(order) + (None,))


def build_table(max_cells: int = MAX_CELLS) -> dict[str, list]:
    """Every placed shape's value, empty and with one attacker stone on each cell: ``key ->
    [least, most, attack, defence, ko, seki]``, the points as cells of the key's orientation."""
    table = {}
    for size in range(1, max_cells + 1):
        for cells in polyominoes(size):
            for sides in placements(cells):
                for stones in [frozenset()] + [frozenset({cell}) for cell in sorted(cells)]:
                    key, (cells_c, sides_c, stones_c) = _canonical_form(cells, sides, stones)
                    if key in table:
                        continue
                    value = evaluate(game_of(cells_c, sides_c, stones_c))
                    table[key] = [value.least, value.most, value.attack, value.defence, value.ko, value.seki]
    return table


@cache
def load_table() -> dict[str, list]:
    """The shipped table (``build_table``'s, less its plain two-eye shapes), read once."""
    raw = json.loads(TABLE_FILE.read_text())
    return {k: [v[0], v[1], _cell(v[2]), _cell(v[3]), v[4], v[5]] for k, v in raw.items()}


def lookup(cells, sides: str = "", stones=frozenset()) -> EyeValue | None:
    """The shipped value of a placed shape in any orientation and place, its vital points as the
    caller's cells; None for a shape the table does not cover (too big, or more stones)."""
    cells, stones = frozenset(cells), frozenset(stones)
    if not 1 <= len(cells) <= MAX_CELLS or len(stones) > 1 or not stones <= cells or not _connected(cells):
        return None
    key, _ = _canonical_form(cells, sides, stones)
    row = load_table().get(key)
    if row is None:
        return EyeValue(2, 2)
    back = _back_map(cells, sides, stones)
    least, most, attack, defence, ko, seki = row
    return EyeValue(least, most, back.get(attack), back.get(defence), ko, seki)


def key_of(cells, sides: str = "", stones=frozenset()) -> str:
    """The table's key of a placed shape: the same for each of its turns and mirror images."""
    return _canonical_form(frozenset(cells), sides, frozenset(stones))[0]


def orientations(cells, sides: str = "", stones=frozenset()) -> list[tuple[frozenset[Cell], str, frozenset[Cell]]]:
    """The placed shape turned and mirrored the square's eight ways (cells moved to row and column 0)."""
    out = []
    for symmetry in _SYMMETRIES:
        shift, new_sides = _oriented(cells, sides, stones, symmetry)
        out.append((frozenset(shift.values()), new_sides, frozenset(shift[s] for s in stones)))
    return out


def _cell(value) -> Cell | None:
    return None if value is None else (value[0], value[1])


def _connected(cells: frozenset[Cell]) -> bool:
    first = next(iter(cells))
    seen, todo = {first}, [first]
    while todo:
        r, c = todo.pop()
        for dr, dc in _STEPS:
            cell = (r + dr, c + dc)
            if cell in cells and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    return len(seen) == len(cells)


def _transform(cell: Cell, symmetry) -> Cell:
    swap, flip_r, flip_c = symmetry
    r, c = (cell[1], cell[0]) if swap else cell
    return (-r if flip_r else r, -c if flip_c else c)


def _side(side: str, symmetry) -> str:
    """Where a bounding box's side goes under a symmetry."""
    swap, flip_r, flip_c = symmetry
    if swap:
        side = {"N": "W", "W": "N", "S": "E", "E": "S"}[side]
    if flip_r:
        side = {"N": "S", "S": "N"}.get(side, side)
    if flip_c:
        side = {"W": "E", "E": "W"}.get(side, side)
    return side


def _oriented(cells, sides, stones, symmetry):
    moved = [_transform(cell, symmetry) for cell in cells]
    top, left = min(r for r, _ in moved), min(c for _, c in moved)
    shift = {cell: (m[0] - top, m[1] - left) for cell, m in zip(cells, moved, strict=True)}
    new_sides = "".join(s for s in SIDES if s in {_side(x, symmetry) for x in sides})
    return shift, new_sides


def _canonical_form(cells: frozenset[Cell], sides: str, stones: frozenset[Cell]):
    """The least key over the eight orientations, and the placed shape in that orientation."""
    best = None
    for symmetry in _SYMMETRIES:
        shift, new_sides = _oriented(cells, sides, stones, symmetry)
        new_cells = frozenset(shift.values())
        new_stones = frozenset(shift[s] for s in stones)
        key = _key(new_cells, new_sides, new_stones)
        if best is None or key < best[0]:
            best = (key, (new_cells, new_sides, new_stones))
    return best


def _canonical(cells, sides, stones):
    return _canonical_form(cells, sides, stones)


def _back_map(cells: frozenset[Cell], sides: str, stones: frozenset[Cell]) -> dict[Cell, Cell]:
    """Cells of the canonical orientation -> the caller's cells."""
    key = _canonical_form(cells, sides, stones)[0]
    for symmetry in _SYMMETRIES:
        shift, new_sides = _oriented(cells, sides, stones, symmetry)
        if _key(frozenset(shift.values()), new_sides, frozenset(shift[s] for s in stones)) == key:
            return {v: k for k, v in shift.items()}
    raise AssertionError("a shape's canonical orientation is one of its own")


def _key(cells: frozenset[Cell], sides: str, stones: frozenset[Cell]) -> str:
    text = " ".join(f"{r},{c}" for r, c in sorted(cells))
    return f"{text}|{sides}|" + " ".join(f"{r},{c}" for r, c in sorted(stones))


def _cells(key: str) -> frozenset[Cell]:
    return frozenset(tuple(int(x) for x in part.split(",")) for part in key.split("|")[0].split())


def main() -> None:
    """Write ``eye_table.json`` (``python -m seog.reading.eye_shapes``)."""
    table = build_table()
    kept = {k: v for k, v in table.items() if v[:2] != [2, 2] or v[4] or v[5]}
    TABLE_FILE.write_text(json.dumps(kept, separators=(",", ":"), sort_keys=True) + "\n")
    print(f"{len(table)} placed shapes read, {len(kept)} that are not two eyes written to {TABLE_FILE}")


if __name__ == "__main__":
    main()
