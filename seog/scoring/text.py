"""A scored board as text for the terminal: stones, dead stones, territory, seki and dame."""

from __future__ import annotations

import numpy as np

from seog.features.coords import BLACK, GTP_COLUMNS, WHITE
from seog.scoring.count import Score

# X/O live stones, x/o dead stones, b/w territory of that colour, s marks a stone in seki,
# '.' a neutral point, '?' a stone whose status the model was unsure of.
LEGEND = "X O: stones  x o: dead  b w: territory  # @: seki  , : dame  ?: uncertain"


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
    for b in score.uncertain_blocks:
        flat[b.points] = "?"
    return marks


def render(grid: np.ndarray, score: Score, recorded: str | None = None) -> str:
    size = grid.shape[0]
    marks = symbols(grid, score)
    cols = "   " + " ".join(GTP_COLUMNS[:size])
    lines = [cols]
    for r in range(size):
        lines.append(f"{size - r:>2} " + " ".join(marks[r]) + f" {size - r:<2}")
    lines.append(cols)
    lines.append(LEGEND)
    b, w = score.breakdown[BLACK], score.breakdown[WHITE]
    lines.append(f"rules {score.rules.name}, komi {score.komi:g}" +
                 (f", handicap {score.handicap}" if score.handicap else ""))
    lines.append("Black: " + ", ".join(f"{k} {v:g}" for k, v in b.items()) + f" = {score.black:g}")
    lines.append("White: " + ", ".join(f"{k} {v:g}" for k, v in w.items()) + f" = {score.white:g}")
    if any(blk.source == "heuristic" for blk in score.blocks):
        lines.append("note: some statuses come from the simple heuristic (no trained model loaded)")
    if score.uncertain_blocks:
        lines.append(f"uncertain: {len(score.uncertain_blocks)} block(s) near the decision boundary")
    line = f"Result: {score.result}"
    if recorded:
        line += f"   (recorded: {recorded})"
    lines.append(line)
    return "\n".join(lines)
