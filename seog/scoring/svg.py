"""A scored board as a standalone SVG picture: what `seog score --svg` writes and the web page shows.

Every mark is its own element with a class and the point's GTP vertex (``data-vertex``), so the
picture can be checked structurally and a page can attach clicks to stones:
``circle.stone.black|white.alive|dead`` (with ``data-block``), ``path.dead-mark`` (a cross on
each dead stone), ``rect.territory.black|white`` (one small square per point of territory),
``path.seki-mark`` (a triangle on each stone in seki), ``circle.dame`` (a dot on each neutral
point), ``circle.uncertain-mark`` (a dashed ring on each stone of an uncertain block), and
``text.result`` / ``text.count`` / ``text.note`` (each of the score's notes, its lines as
``tspan``) under the board. Styles are presentation attributes, not CSS, so that converters
such as rsvg-convert draw it the same as a browser.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from seog.features.coords import BLACK, COLOR_NAMES, GTP_COLUMNS, WHITE, index_to_gtp
from seog.scoring.count import Score

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
WOOD, LINE = "#dcb35c", "#4a3a1a"
STONE_FILL = {BLACK: "#151515", WHITE: "#f7f7f2"}
STONE_EDGE = {BLACK: "#000000", WHITE: "#555555"}
DEAD_RED, SEKI_BLUE, DAME_GREY, UNCERTAIN_ORANGE = "#d0231b", "#1565c0", "#6b5a3a", "#ff7f00"
MIN_WIDTH = 480
LINE_HEIGHT = 20
NOTE_LINE, NOTE_CHAR_PX = 15, 6.6  # a note's lines wrap to the picture's width at font size 11


def star_points(size: int) -> list[tuple[int, int]]:
    """(row, col) of the hoshi: 3-3 points and sides on 13x13 and up, 2-2 points on 7x7 to 11x11."""
    if size < 7:
        return []
    edge = 3 if size >= 13 else 2
    lines = [edge, size - 1 - edge]
    if size % 2 == 1 and size >= 9:
        lines.insert(1, size // 2)
    if size < 13 and len(lines) == 3:
        return [(lines[0], lines[0]), (lines[0], lines[2]), (lines[1], lines[1]),
                (lines[2], lines[0]), (lines[2], lines[2])]
    return [(r, c) for r in lines for c in lines]


def _num(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _count_line(score: Score, color: int) -> str:
    items = score.breakdown.get(color, {})
    total = score.black if color == BLACK else score.white
    parts = " + ".join(f"{k.replace('_', ' ')} {v:g}" for k, v in items.items())
    return f"{COLOR_NAMES[color].capitalize()}: {parts} = {total:g}"


@dataclass(frozen=True)
class _Frame:
    """Where the board lies in the picture: ``cell`` pixels between lines, the board's square
    (``board_px``, from ``top``) centred in a picture ``width`` wide, the first line at ``x0, y0``."""

    size: int
    cell: float
    margin: float
    board_px: float
    width: float
    x0: float
    y0: float

    @property
    def top(self) -> float:
        return self.y0 - self.margin

    def xy(self, index: int) -> tuple[float, float]:
        """The picture's coordinates of a grid index."""
        r, c = divmod(int(index), self.size)
        return self.x0 + c * self.cell, self.y0 + r * self.cell


def render_svg(grid: np.ndarray, score: Score, *, recorded: str | None = None, title: str | None = None,
               cell: float = 30.0) -> str:
    """The final board of ``score`` (stones from ``grid``) with its marks and counts, as SVG text."""
    grid = np.asarray(grid)
    size = grid.shape[0]
    if grid.shape != (size, size) or size != score.size:
        raise ValueError(f"grid of shape {grid.shape} does not match a scored {score.size}x{score.size} board")
    margin = cell * 1.3
    board_px = (size - 1) * cell + 2 * margin
    width = max(board_px, MIN_WIDTH)
    frame = _Frame(size, cell, margin, board_px, width, (width - board_px) / 2 + margin,
                   margin + (LINE_HEIGHT if title else 0))
    dead = {int(i) for i in score.dead}
    out = [*_board(frame), *_stones(frame, grid, score, dead), *_territory(frame, score),
           *_dame(frame, grid, score), *_marks(frame, score, dead)]
    texts, y = _below(frame, score, recorded, title)
    out += texts
    y += LINE_HEIGHT * 0.4
    out.append(_legend(width, y, cell))
    height = y + LINE_HEIGHT * 1.6
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="seog-board" data-size="{size}" '
            f'data-result={quoteattr(score.result)} width="{_num(width)}" height="{_num(height)}" '
            f'viewBox="0 0 {_num(width)} {_num(height)}">')
    background = f'<rect class="background" width="{_num(width)}" height="{_num(height)}" fill="#ffffff"/>'
    return "\n".join([head, background, *out, "</svg>"]) + "\n"


def _board(f: _Frame) -> list[str]:
    """The wood, the lines, the star points and the coordinates."""
    x0, y0, cell, size = f.x0, f.y0, f.cell, f.size
    out = [f'<rect class="wood" x="{_num(x0 - f.margin)}" y="{_num(f.top)}" width="{_num(f.board_px)}" '
           f'height="{_num(f.board_px)}" fill="{WOOD}" rx="4"/>']
    add = out.append
    end = (size - 1) * cell
    add(f'<g class="grid" stroke="{LINE}" stroke-width="1">')
    for k in range(size):
        add(f'<line x1="{_num(x0)}" y1="{_num(y0 + k * cell)}" x2="{_num(x0 + end)}" y2="{_num(y0 + k * cell)}"/>')
        add(f'<line x1="{_num(x0 + k * cell)}" y1="{_num(y0)}" x2="{_num(x0 + k * cell)}" y2="{_num(y0 + end)}"/>')
    add("</g>")
    for r, c in star_points(size):
        add(f'<circle class="star" cx="{_num(x0 + c * cell)}" cy="{_num(y0 + r * cell)}" '
            f'r="{_num(cell * 0.1)}" fill="{LINE}"/>')
    fs = _num(cell * 0.4)
    add(f'<g class="coords" font-family="{FONT}" font-size="{fs}" fill="{LINE}" text-anchor="middle" '
        f'dominant-baseline="central">')
    off = f.margin * 0.62
    for k in range(size):
        x, y = _num(x0 + k * cell), _num(y0 + k * cell)
        add(f'<text x="{x}" y="{_num(y0 - off)}">{GTP_COLUMNS[k]}</text>')
        add(f'<text x="{x}" y="{_num(y0 + end + off)}">{GTP_COLUMNS[k]}</text>')
        add(f'<text x="{_num(x0 - off)}" y="{y}">{size - k}</text>')
        add(f'<text x="{_num(x0 + end + off)}" y="{y}">{size - k}</text>')
    add("</g>")
    return out


def _stones(f: _Frame, grid: np.ndarray, score: Score, dead: set[int]) -> list[str]:
    """The stones: live ones solid, dead ones faded, each with its block and a tooltip."""
    block_of: dict[int, object] = {}
    for blk in score.blocks:
        for p in blk.points:
            block_of[int(p)] = blk
    radius = _num(f.cell * 0.47)
    out = ['<g class="stones">']
    for index in np.flatnonzero(grid.reshape(-1) != 0):
        index = int(index)
        color = int(np.sign(grid.flat[index]))
        state = "dead" if index in dead else "alive"
        x, y = f.xy(index)
        vertex = index_to_gtp(index, f.size)
        blk = block_of.get(index)
        attrs = f' data-block="{blk.block}"' if blk is not None else ""
        note = f"{vertex} {COLOR_NAMES[color]}, {state}"
        if blk is not None:
            note += f" ({blk.source}" + ("" if blk.p_alive is None else f", p(alive) {blk.p_alive:.2f}") + ")"
        opacity = ' opacity="0.45"' if state == "dead" else ""
        out.append(f'<circle class="stone {COLOR_NAMES[color]} {state}" data-vertex="{vertex}"{attrs} '
                   f'cx="{_num(x)}" cy="{_num(y)}" r="{radius}" fill="{STONE_FILL[color]}" '
                   f'stroke="{STONE_EDGE[color]}" stroke-width="1"{opacity}><title>{escape(note)}</title></circle>')
    out.append("</g>")
    return out


def _territory(f: _Frame, score: Score) -> list[str]:
    """A small square in the owner's colour on each point of territory."""
    half = f.cell * 0.16
    out = ['<g class="territories" pointer-events="none">']
    for color in (BLACK, WHITE):
        for index in score.territory[color]:
            x, y = f.xy(index)
            out.append(f'<rect class="territory {COLOR_NAMES[color]}" data-vertex="{index_to_gtp(index, f.size)}" '
                       f'x="{_num(x - half)}" y="{_num(y - half)}" width="{_num(2 * half)}" '
                       f'height="{_num(2 * half)}" fill="{STONE_FILL[color]}" stroke="{STONE_EDGE[color]}" '
                       f'stroke-width="0.8"/>')
    out.append("</g>")
    return out


def _dame(f: _Frame, grid: np.ndarray, score: Score) -> list[str]:
    """A small dot on each neutral point without a stone."""
    out = ['<g class="dames" pointer-events="none">']
    for index in score.dame:
        if grid.flat[index] == 0:
            x, y = f.xy(index)
            out.append(f'<circle class="dame" data-vertex="{index_to_gtp(index, f.size)}" cx="{_num(x)}" '
                       f'cy="{_num(y)}" r="{_num(f.cell * 0.09)}" fill="{DAME_GREY}"/>')
    out.append("</g>")
    return out


def _marks(f: _Frame, score: Score, dead: set[int]) -> list[str]:
    """Crosses on dead stones, triangles on stones in seki, rings around uncertain blocks."""
    cell, size = f.cell, f.size
    d = cell * 0.26
    out = ['<g class="marks" fill="none" stroke-linecap="round" pointer-events="none">']
    add = out.append
    for index in sorted(dead):
        x, y = f.xy(index)
        add(f'<path class="dead-mark" data-vertex="{index_to_gtp(index, size)}" stroke="{DEAD_RED}" '
            f'stroke-width="{_num(cell * 0.09)}" d="M{_num(x - d)} {_num(y - d)}L{_num(x + d)} {_num(y + d)}'
            f'M{_num(x - d)} {_num(y + d)}L{_num(x + d)} {_num(y - d)}"/>')
    t = cell * 0.24
    for index in score.seki:
        x, y = f.xy(index)
        add(f'<path class="seki-mark" data-vertex="{index_to_gtp(index, size)}" stroke="{SEKI_BLUE}" '
            f'stroke-width="{_num(cell * 0.08)}" stroke-linejoin="round" '
            f'd="M{_num(x)} {_num(y - t)}L{_num(x + t * 0.95)} {_num(y + t * 0.6)}'
            f'L{_num(x - t * 0.95)} {_num(y + t * 0.6)}Z"/>')
    for index in (int(p) for blk in score.uncertain_blocks for p in blk.points):
        x, y = f.xy(index)
        add(f'<circle class="uncertain-mark" data-vertex="{index_to_gtp(index, size)}" cx="{_num(x)}" '
            f'cy="{_num(y)}" r="{_num(cell * 0.5)}" stroke="{UNCERTAIN_ORANGE}" '
            f'stroke-width="{_num(cell * 0.1)}" stroke-dasharray="{_num(cell * 0.16)} {_num(cell * 0.1)}"/>')
    add("</g>")
    return out


def _below(f: _Frame, score: Score, recorded: str | None, title: str | None) -> tuple[list[str], float]:
    """Under the board: the result, each side's count, the rules and the notes (and the title
    above it); with the height reached."""
    width = f.width
    y = f.top + f.board_px + LINE_HEIGHT * 1.2
    cx = _num(width / 2)
    result = f'Result: <tspan class="result-value" font-weight="bold">{escape(score.result)}</tspan>'
    if recorded:
        result += f'<tspan class="recorded" font-size="13" dx="12">(recorded: {escape(recorded)})</tspan>'
    out = [f'<g font-family="{FONT}" fill="#222" text-anchor="middle">',
           f'<text class="result" x="{cx}" y="{_num(y)}" font-size="17">{result}</text>']
    add = out.append
    for color in (BLACK, WHITE):
        y += LINE_HEIGHT
        add(f'<text class="count {COLOR_NAMES[color]}" x="{cx}" y="{_num(y)}" font-size="13">'
            f'{escape(_count_line(score, color))}</text>')
    y += LINE_HEIGHT
    rules = f"rules {score.rules.name}, komi {score.komi:g}" + (
        f", handicap {score.handicap}" if score.handicap else "")
    if score.uncertain_blocks:
        rules += f"; {len(score.uncertain_blocks)} uncertain block(s)"
    add(f'<text class="rules" x="{cx}" y="{_num(y)}" font-size="12">{escape(rules)}</text>')
    for note in score.notes:  # how the game was read, and Tromp-Taylor's stones read dead yet counted
        lines = textwrap.wrap(f"Note: {note}", width=max(40, int(width / NOTE_CHAR_PX)))
        spans = "".join(f'<tspan x="{cx}" dy="{0 if k == 0 else NOTE_LINE}">{escape(line)}</tspan>'
                        for k, line in enumerate(lines))
        y += LINE_HEIGHT
        add(f'<text class="note" x="{cx}" y="{_num(y)}" font-size="11">{spans}</text>')
        y += NOTE_LINE * (len(lines) - 1)
    if title:
        add(f'<text class="title" x="{cx}" y="{_num(LINE_HEIGHT * 0.9)}" font-size="14">{escape(title)}</text>')
    add("</g>")
    return out, y


def _legend(width: float, y: float, cell: float) -> str:
    """One row of sample marks with their meaning."""
    s = 9.0
    items = [
        ("dead", f'<path d="M-5 -5L5 5M-5 5L5 -5" stroke="{DEAD_RED}" stroke-width="2.2" fill="none"/>'),
        ("territory", f'<rect x="-5" y="-5" width="{s}" height="{s}" fill="{STONE_FILL[BLACK]}"/>'),
        ("seki", f'<path d="M0 -6L6 4L-6 4Z" stroke="{SEKI_BLUE}" stroke-width="2" fill="none"/>'),
        ("dame", f'<circle r="3" fill="{DAME_GREY}"/>'),
        ("uncertain", (f'<circle r="6" stroke="{UNCERTAIN_ORANGE}" stroke-width="2.2" '
                       'stroke-dasharray="4 2.5" fill="none"/>')),
    ]
    step = 92.0
    x = width / 2 - step * (len(items) - 1) / 2 - 24
    parts = [f'<g class="legend" font-family="{FONT}" font-size="12" fill="#333">']
    for label, mark in items:
        parts.append(f'<g transform="translate({_num(x)} {_num(y + 8)})">{mark}'
                     f'<text x="11" y="4">{label}</text></g>')
        x += step
    parts.append("</g>")
    return "\n".join(parts)


class PngError(ValueError):
    """A PNG could not be written: no SVG converter is installed, or the converter failed."""


def png_converter() -> str | None:
    """The first SVG-to-PNG converter available: 'cairosvg', 'rsvg-convert' or 'magick'; None if none."""
    import importlib.util
    import shutil
    import subprocess

    if importlib.util.find_spec("cairosvg") is not None:
        return "cairosvg"
    if shutil.which("rsvg-convert"):
        return "rsvg-convert"
    for name in ("magick", "convert"):
        exe = shutil.which(name)
        if exe:
            try:  # only a real ImageMagick, not some other program of that name
                banner = subprocess.run([exe, "-version"], capture_output=True, text=True, timeout=10, check=False).stdout
            except (OSError, subprocess.SubprocessError):
                continue
            if "ImageMagick" in banner:
                return name
    return None


def write_png(svg: str, path, scale: float = 1.0) -> str:
    """Convert SVG text to a PNG file with the first converter found; return the converter's name.
    The converter hands back the bytes and Python writes them, so that a path that cannot be
    written is an OSError naming it, whichever converter ran."""
    from pathlib import Path

    tool = png_converter()
    if tool is None:
        raise PngError("cannot write PNG: no SVG converter found (pip install cairosvg, or install "
                             "rsvg-convert from librsvg2-bin, or ImageMagick); --svg works without one")
    Path(path).write_bytes(png_bytes(svg, tool, scale))
    return tool


def png_bytes(svg: str, tool: str, scale: float = 1.0) -> bytes:
    """SVG text as PNG bytes, converted by ``tool`` (a name ``png_converter`` gives)."""
    import subprocess

    data = svg.encode("utf-8")
    if tool == "cairosvg":
        import cairosvg
        return cairosvg.svg2png(bytestring=data, scale=scale)
    if tool == "rsvg-convert":
        cmd = ["rsvg-convert", "-f", "png", "-z", str(scale)]
    else:
        cmd = [tool, "-density", str(int(96 * scale)), "svg:-", "png:-"]
    done = subprocess.run(cmd, input=data, capture_output=True, timeout=120, check=False)
    if done.returncode != 0 or not done.stdout:
        raise PngError(f"{tool} failed to convert the SVG: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout
