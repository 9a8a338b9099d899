"""A scored board as text for the terminal: stones, dead stones, territory, seki and dame.

The letters alone carry the whole picture (so the board reads the same in a log file, a pipe or
with NO_COLOR set); ``colour=True`` adds ANSI 256-colour styles on top of the same letters.
"""

from __future__ import annotations

import os

import numpy as np

from seog.features.coords import BLACK, COLOR_NAMES, GTP_COLUMNS, WHITE, index_to_gtp
from seog.scoring.count import Score

# X/O live stones, x/o dead stones, b/w territory of that colour, #/@ a stone in seki,
# ',' a neutral point (dame), '.' an empty point that counts for nobody. A stone of a block
# whose status the model was unsure of keeps its mark and has a '?' before it, in place of the
# space (the blocks are listed under the board with how they were counted).
LEGEND = "X O: stones  x o: dead  b w: territory  # @: seki  , : dame  ?X: in doubt (listed below)"
DOUBT = "?"

RESET = "\x1b[0m"
_BOARD = "48;5;180"  # a light wood background behind the whole board
# One SGR style per mark: black and white marks in their own colour, dead stones faded,
# seki on a blue tint, dame in brown; a stone in doubt, and its '?', on red.
STYLES = {
    "X": "1;38;5;16", "O": "1;38;5;231",
    "x": "38;5;242", "o": "38;5;252",
    "b": "38;5;16", "w": "38;5;231",
    "#": "1;38;5;16;48;5;110", "@": "1;38;5;231;48;5;110",
    ",": "38;5;130", ".": "38;5;137",
}
_IN_DOUBT = "48;5;203"


def wants_colour(stream) -> bool:
    """Colour only for a terminal: never with NO_COLOR set or TERM=dumb, always with FORCE_COLOR."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM", "") != "dumb"


def symbols(grid: np.ndarray, score: Score) -> np.ndarray:
    """(size, size) array of one-character marks for the scored board."""
    marks = np.full(grid.shape, ".", dtype="<U1")
    marks[grid == BLACK] = "X"
    marks[grid == WHITE] = "O"
    flat = marks.reshape(-1)
    flat[score.territory[BLACK]] = "b"
    flat[score.territory[WHITE]] = "w"
    flat[score.dame] = ","
    for i in score.dead:
        flat[i] = "x" if grid.flat[i] == BLACK else "o"
    for i in score.seki:
        flat[i] = "#" if grid.flat[i] == BLACK else "@"
    return marks


def in_doubt(grid: np.ndarray, score: Score) -> np.ndarray:
    """(size, size) bool mask of the stones of uncertain blocks (drawn with a '?' before them)."""
    doubt = np.zeros(grid.size, dtype=bool)
    for b in score.uncertain_blocks:
        doubt[b.points] = True
    return doubt.reshape(grid.shape)


def _paint(mark: str, style: str) -> str:
    """One character in ``style`` on the board's wood (a background in ``style`` wins)."""
    return f"\x1b[0;{_BOARD};{style}m{mark}"


def board_lines(grid: np.ndarray, score: Score, colour: bool = False) -> list[str]:
    """The board with coordinates on all four sides, one string per line."""
    size = grid.shape[0]
    marks, doubt = symbols(grid, score), in_doubt(grid, score)
    cols = "   " + " ".join(GTP_COLUMNS[:size])
    lines = [cols]
    for r in range(size):
        cells = []
        for c in range(size):
            m, gap = marks[r, c], DOUBT if doubt[r, c] else " "
            if colour:
                style = f"{STYLES[m]};{_IN_DOUBT}" if doubt[r, c] else STYLES[m]
                gap, m = _paint(gap, style if doubt[r, c] else STYLES["."]), _paint(m, style)
            cells.append(gap + m)
        row = "".join(cells) + (RESET if colour else "")
        lines.append(f"{size - r:>2}{row} {size - r:<2}".rstrip())
    lines.append(cols)
    return lines


def _bold(text: str, colour: bool) -> str:
    return f"\x1b[1m{text}{RESET}" if colour else text


def summary_lines(score: Score, recorded: str | None = None, colour: bool = False) -> list[str]:
    """Rules, the itemised count for each side, notes on heuristic or uncertain blocks, the result."""
    size = score.size
    lines = [f"rules {score.rules.name}, komi {score.komi:g}" +
             (f", handicap {score.handicap}" if score.handicap else "")]
    for color in (BLACK, WHITE):
        items = score.breakdown[color]
        total = score.black if color == BLACK else score.white
        name = COLOR_NAMES[color].capitalize()
        lines.append(f"{name}: " + ", ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in items.items())
                     + f" = {total:g}")
    lines.extend(f"note: {note}" for note in score.notes)
    if any(blk.source == "heuristic" for blk in score.blocks):
        lines.append("note: some statuses come from the simple heuristic (no trained model loaded)")
    seki = set(np.asarray(score.seki).tolist())
    for blk in score.uncertain_blocks:
        why = f", {blk.why_uncertain}" if blk.why_uncertain else ""
        status = "in seki" if blk.alive and int(blk.points[0]) in seki else blk.status
        lines.append(f"uncertain: {COLOR_NAMES[blk.color]} block at {index_to_gtp(int(blk.points[0]), size)} "
                     f"({len(blk.points)} stone{'s' if len(blk.points) != 1 else ''}), "
                     f"counted {status}{why}")
    line = "Result: " + _bold(score.result, colour) + ("" if score.finished else " (an estimate: not finished)")
    if recorded:
        line += f"   (recorded: {recorded})"
    lines.append(line)
    return lines


def render(grid: np.ndarray, score: Score, recorded: str | None = None, colour: bool = False) -> str:
    """The board, the legend, the counts and the result as one printable string."""
    return "\n".join(board_lines(grid, score, colour) + [LEGEND] + summary_lines(score, recorded, colour))
