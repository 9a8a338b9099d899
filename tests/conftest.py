"""Shared test helpers: positions drawn as ASCII pictures, and the optional ../shared data."""

from pathlib import Path

import numpy as np
import pytest

from seog.features import coords
from seog.features.board import Board

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"
DATA = SHARED / "data"
EXAMPLES = Path(__file__).resolve().parent.parent / "seog" / "api" / "static" / "examples"  # the web page's games

# A corner seki: Black's block (A1, B1, A2, B2) and White's (A3-D3, D2, D1) share C1 and C2 and
# have no eye, so whoever fills a shared liberty is taken.
SEKI_CORNER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    X X X X X . . . .
    O O O O X . . . .
    X X . O X . . . .
    X X . O X . . . .
"""

# Issue #7's game: a black wall on column D, a white one on column F, a white stone left at B7 in
# Black's side and a black one at H6 in White's, then two passes. The shipped model reads both
# single stones dead: Chinese rules take them off (W+7.5: 36 to 36 + 7.5); Tromp-Taylor counts
# every stone as it stands (W+7.5 too: 10 stones a side, no territory), so nothing is dead.
STONES_LEFT_IN = ("(;GM[1]FF[4]SZ[9]KM[7.5]RU[Tromp-Taylor]AB[da][db][dc][dd][de][df][dg][dh][di][hd]"
                  "AW[fa][fb][fc][fd][fe][ff][fg][fh][fi][bc];B[tt];W[tt])")
LEFT_IN_NOTE = ("tromp-taylor rules count every stone on the board: 2 stones seog reads as dead (B7, H6) "
                "count as they stand; capture them before the game ends to take them off")


# Two walls on a 9x9 board, Black's on column D and White's on E: each side has two one-point
# eyes on the top edge (alive by Benson), and the white stone at C7 inside Black's area is in
# atari (dead by the static pass).
TWO_WALLS = [
    ".X.XO.O.O",
    "XXXXOOOOO",
    ".XOXO....",
    "...XO....",
    "...XO....",
    "...XO....",
    "...XO....",
    "...XO....",
    "...XO....",
]


# the last board of KGS game 2003-11-21-4 (kgs-6d-more), which Black won by resignation at move 226
RESIGNED_AT_226 = [
    ".O.OXX.X..XXXO.OXX.", ".XXO.OXX.XXOOO.OOX.", ".OXOOOXOX.OO..OOX..", ".OOXXXOOX..XOOOXX..",
    ".OXX.OO.X.X.XOXX...", ".OXXO.OX....XXOX...", ".OOX..OXO..XO.OX.XX", "XOOX..OXXX.XX.OX.XO",
    "O.OX..OOXOX...OOXXO", ".OXXO...OOOOOX.OOOO", "OX....O......OOX...", ".X.XX...X.XOOXXXXO.",
    "...OX..OXOXOXOOXO..", ".XOXX..OXX.XX..XO..", "..XOO.OX....OOXX.O.", "XXXXOO.X.XXXXXOXXX.",
    "XOOOOXX..XOOXOOOXO.", "OO.O.OX..XO.O.O.OX.", "....O......O....OX.",
]


def setup_record(rows: list[str], result: str = "") -> str:
    """A 3-stone handicap record, komi 0.5, whose last position is ``rows`` set up; RE ``result``."""
    grid = Board.from_rows(rows).grid
    stones = {c: "".join(f"[{coords.index_to_sgf(i, len(rows))}]" for i in (grid.ravel() == c).nonzero()[0])
              for c in (coords.BLACK, coords.WHITE)}
    re = f"RE[{result}]" if result else ""
    return (f"(;GM[1]FF[4]SZ[{len(rows)}]HA[3]KM[0.5]RU[Japanese]{re}AB{stones[coords.BLACK]}"
            f"AW{stones[coords.WHITE]})")


def board(picture: str) -> Board:
    """A board from a picture: X black, O white, . empty; rows top to bottom."""
    return Board.from_rows(picture)


def verdicts(topo, dead=()) -> dict:
    """Statuses as the nets might give them: every block alive (source 'refiner', p = 0.99,
    nothing by Benson) except the ids in ``dead``."""
    from seog.classifiers.status import BlockStatus

    return {b.id: BlockStatus(b.id, b.color, b.points, b.id not in dead, "refiner", 0.99) for b in topo.blocks}


def at(topo, row: int, col: int):
    """The block on a point given as row and column."""
    return topo.block_at(row * topo.size + col)


def mask(picture: str) -> np.ndarray:
    """A bool mask from a picture: any of x/o/* marks a point."""
    rows = [[ch for ch in r if not ch.isspace()] for r in picture.strip().splitlines() if r.strip()]
    return np.array([[ch in "xo*" for ch in r] for r in rows])


def shared_dir(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"../shared/data/{name} is not here")
    return path


def decided_game(folder: str, name: str):
    """A marked dev-set game decided by the shipped model's nets and every pass after them, kept
    by the model or not (these are the rules' own tests): (topology, the marks' verdict per
    block, 1 alive, and the statuses in block id order)."""
    from seog.classifiers.status import decide, later_passes
    from seog.datasets.devsets import read
    from seog.datasets.labels import block_labels
    from seog.features.topology import analyze
    from seog.scoring.score import default_model

    path = shared_dir(folder) / f"{name}.sgf"
    if path.exists():
        position = read(path)[0][0]
    else:  # a folder of another format (OGS .game files)
        position = next(p for p in read(shared_dir(folder))[0] if p.name == name)
    topo = analyze(position.board.grid)
    every = [rule for rule, _ in later_passes()]
    return topo, block_labels(topo, position.dead)[0], decide(topo, default_model(), passes=every)


@pytest.fixture
def one_torch_thread():
    """Tiny nets train fastest on one thread, and the machine is shared."""
    import torch
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
