"""Shared test helpers: positions drawn as ASCII pictures, and the optional ../shared data; a
check that the test run leaves no process behind."""

import ctypes
import os
import signal
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from seog.features import coords
from seog.features.board import Board

ROOT = Path(__file__).resolve().parent.parent  # the repository: tests run the same from any folder
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data"
EXAMPLES = ROOT / "seog" / "api" / "static" / "examples"  # the web page's games

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


# A seki with eyes: Black's corner group (eye A7) and White's group (eye E7) share C7; the outer
# walls live with eyes of their own. C1 is dame between the walls.
SEKI_WITH_EYES = """
    . X . O . O X
    X X X O O O X
    O O O X X X X
    . O O X X . X
    O . O X . X X
    O O O X X X X
    . O . X . X .
"""

# Black's stone at D7 is cut off in atari; C7 looks like Black's territory but Black must fill it
# before White captures D7: a false eye on the edge.
FALSE_EYE = """
    . X . X O . .
    . X X O O . .
    X X O O . . .
    . X O . . . .
    X X O . . . .
    . X O . . . .
    . X O . . . .
"""


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


# White's six stones in the top left corner have one eye space, A9 B9 C9 A8: the bent four with
# its bend on the corner point A9. Black's wall shuts them in with no liberty outside.
BENT_FOUR_CORNER = """
    . . . O X . . . .
    . O O O X . . . .
    O O X X X . . . .
    X X X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""

# Three kos between two walls: Black can take at E8 and E2, White at D5 (17 stones each).
TRIPLE_KO = """
X . X X O O . . .
. . X O . O . . .
. . X X O O . . .
. . X X O O . . .
. . X . X O . . .
. . X X O O . . .
. . X X O O . . .
. . X O . O . . .
. . X X O O . . .
"""
# Each side takes in turn where the simple-ko rule lets it; the sixth capture brings back the
# position the cycle started from, with Black to move.
CYCLE = ["play b E8", "play w D5", "play b E2", "play w D8", "play b E5", "play w D2"]


def board(picture: str) -> Board:
    """A board from a picture: X black, O white, . empty; rows top to bottom."""
    return Board.from_rows(picture)


def moves_of(picture: str) -> list[str]:
    """GTP play commands that build ``picture`` by alternating colours, White passing when done."""
    b = board(picture)
    stones = {"X": [], "O": []}
    for r, row in enumerate(b.to_rows()):
        for c, ch in enumerate(row):
            if ch in stones:
                stones[ch].append(coords.rc_to_gtp(r, c, b.size))
    out = []
    whites = stones["O"] + ["pass"] * (len(stones["X"]) - len(stones["O"]))
    for x, o in zip(stones["X"], whites):
        out += [f"play b {x}", f"play w {o}"]
    return out + ["play b pass", "play w pass"]


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
    """A marked dev-set game decided by the shipped model's nets and every rule after them, kept
    by the model or not, the life-and-death search left out (these are the rules' own tests): (topology, the marks' verdict per
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
    every = [rule for rule, _ in later_passes() if rule != "life"]  # the search has tests of its own
    return topo, block_labels(topo, position.dead)[0], decide(topo, default_model(), passes=every)


@pytest.fixture
def one_torch_thread():
    """Tiny nets train fastest on one thread, and the machine is shared. Skips where torch is
    not installed (serving needs none; only training does)."""
    torch = pytest.importorskip("torch", reason="training needs torch, which is not installed")
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


PR_SET_CHILD_SUBREAPER = 36  # prctl option: orphans of this process's descendants become its children
HELPERS = (b"multiprocessing.resource_tracker", b"multiprocessing.forkserver")  # live as long as the run


def process_state(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a process from /proc, or None once it is gone."""
    try:
        after_name = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(after_name[1]), after_name[0]


def alive(pid: int) -> bool:
    """The process runs (a zombie has ended: it only waits for its parent to read its status)."""
    state = process_state(pid)
    return state is not None and state[1] not in "ZX"


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, zombies included."""
    return [int(p.name) for p in Path("/proc").iterdir()
            if p.name.isdigit() and (process_state(int(p.name)) or (None,))[0] == pid]


def left_behind(grace: float) -> dict[int, str]:
    """This run's child processes still running after ``grace`` seconds (multiprocessing's own
    helpers aside), with their command lines; ended ones are reaped."""
    deadline = time.monotonic() + grace
    while True:
        running = {}
        for pid in children_of(os.getpid()):
            if not alive(pid):
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
                continue
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if not any(helper in command for helper in HELPERS):
                running[pid] = command.replace(bytes(1), b" ").decode(errors="replace").strip()
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.2)


@pytest.fixture(scope="session", autouse=True)
def no_process_left_behind():
    """Fail the run when a process it started outlives it: a server's workers orphaned by a kill of
    their supervisor kept answering on their port. On Linux this process adopts its descendants'
    orphans (a child subreaper), so that those are found too."""
    if not sys.platform.startswith("linux") or not Path("/proc/self/stat").exists():
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    yield
    running = left_behind(grace=10)
    for pid in running:  # reported, then ended: the run leaves nothing behind either way
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    if running:
        pytest.fail("processes the tests started were still running:\n"
                    + "\n".join(f"{pid}: {command}" for pid, command in running.items()), pytrace=False)
