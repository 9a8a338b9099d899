"""Labelled positions for evaluation: a folder of SGF files with the players' dead stones, or of
OGS ``.game`` boards with their removal maps.

- SGF folders (``kgs-2017-q1``, ``gnugo-regression-games``, self-play output, any game records
  with KGS-style TB/TW marks): the dead stones are the decoded ``NAME.json`` lists
  (``dead_black``/``dead_white``) when that file sits beside the SGF, else the TB/TW marks.
  Records with neither are skipped as unlabelled.
- OGS folders (``ogs-score-estimator``): each ``NAME.game`` holds a board grid and then a removal
  grid (1 = removed); stones under a removal mark are dead, empty points under one are dame.
  These positions have no komi, rules or result, so only block figures apply to them.

A folder holding both reads both: its ``.game`` boards, then its SGF files.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from sgfmill import sgf as sgfmill_sgf

from seog.datasets.labels import LabelError, block_labels, check_on_stones, mask_from_sgf, read_teacher
from seog.features import sgf
from seog.features.board import Board, IllegalPosition
from seog.features.coords import BLACK, WHITE
from seog.features.topology import Topology, analyze
from seog.scoring.rules import check_suicides


@dataclass
class Position:
    """One labelled final position.

    ``dead`` is the truth (bool (size, size) mask); ``result`` the recorded RE ('' when none);
    ``sgf_data`` an SGF record an engine can ``loadsgf`` (the game itself, or the setup stones).
    """

    name: str
    board: Board
    dead: np.ndarray
    rules: str = ""
    komi: float = 0.0
    handicap: int = 0
    result: str = ""
    sgf_data: bytes = b""
    game: sgf.Game | None = None
    extra: dict = field(default_factory=dict)

    @property
    def size(self) -> int:
        return self.board.size

    @property
    def prisoners(self) -> dict:
        return self.board.prisoners


@dataclass
class Skipped:
    name: str
    reason: str


def files(folder: str | Path) -> tuple[list[Path], list[Path]]:
    """The OGS ``.game`` boards of a folder and its SGF files (searched recursively), each sorted;
    a single file is one or the other."""
    folder = Path(folder)
    if not folder.exists():
        raise FileNotFoundError(f"{folder}: no such folder")
    if folder.is_file():
        return ([folder], []) if folder.suffix.lower() == ".game" else ([], [folder])
    return (sorted(folder.glob("*.game")),
            sorted(p for p in folder.rglob("*") if p.suffix.lower() == ".sgf"))


def items(folder: str | Path, limit: int | None = None) -> Iterator[Position | Skipped]:
    """The positions of a folder (or one file) as each file is read, the ``.game`` boards first,
    with the files skipped and why; after ``limit`` positions nothing more is read."""
    folder = Path(folder)
    boards, games = files(folder)
    found = 0
    for item in itertools.chain(_read_ogs(boards), _read_sgf(folder, games)):
        yield item
        found += isinstance(item, Position)
        if limit is not None and found >= limit:
            return


def read(folder: str | Path, limit: int | None = None) -> tuple[list[Position], list[Skipped]]:
    """Every labelled position of a folder (or one file), and the files skipped with the reason."""
    got = list(items(folder, limit))
    return ([p for p in got if isinstance(p, Position)], [s for s in got if isinstance(s, Skipped)])


def labelled(folders: Iterable[str | Path], teacher: str | Path | None = None
             ) -> Iterator[tuple[str, str, Topology, np.ndarray]]:
    """(source, name, topology, 1 alive / 0 dead per block) for every position of the dev sets
    (the marks; source: the folder's name), then every consistent game of a KataGo-labelled
    archive (source 'archive'): the positions the evidence tools weigh a rule on."""
    for folder in folders:
        source = Path(folder).name
        for position in read(folder)[0]:
            topology = analyze(position.board.grid)
            yield source, position.name, topology, block_labels(topology, position.dead)[0]
    if teacher:
        for label in read_teacher(teacher, "katago").values():
            if label.consistent:
                topology = analyze(Board.from_rows(label.record["final_board"]).grid)
                dead = mask_from_sgf(label.dead, topology.size)
                yield "archive", label.name, topology, block_labels(topology, dead)[0]


def _read_sgf(folder: Path, paths: list[Path]) -> Iterator[Position | Skipped]:
    for path in paths:
        name = path.relative_to(folder).as_posix() if folder.is_dir() else path.name
        name = name[:-4] if name.lower().endswith(".sgf") else name
        try:
            data = path.read_bytes()
            game = check_suicides(sgf.loads(data))
            side = path.with_suffix(".json")
            if side.exists():
                info = json.loads(side.read_text(encoding="utf-8"))
                if not isinstance(info, dict) or "dead_black" not in info:
                    raise LabelError(f"{side.name} has no dead_black/dead_white lists")
                dead = mask_from_sgf(list(info["dead_black"]) + list(info.get("dead_white", [])), game.size)
            elif game.has_markup:
                dead = game.marked_dead()
            else:
                yield Skipped(name, "unlabelled (no TB/TW marks)")
                continue
            check_on_stones(game.board.grid, dead)
        except (ValueError, OSError) as exc:
            yield Skipped(name, str(exc))
            continue
        yield Position(name, game.board, dead, game.rules, game.komi, game.handicap, game.result,
                       data, game)


def _read_ogs(paths: list[Path]) -> Iterator[Position | Skipped]:
    for path in paths:
        try:
            board, removal, to_move = read_game_file(path)
            dead = removal & (board.grid != 0)
        except (ValueError, OSError) as exc:
            yield Skipped(path.stem, str(exc))
            continue
        yield Position(path.stem, board, dead, sgf_data=setup_sgf(board, to_move),
                       extra={"dame_marked": int((removal & (board.grid == 0)).sum())})


def read_game_file(path: Path) -> tuple[Board, np.ndarray, int]:
    """An OGS ``.game`` file: (board, removal mask, player to move)."""
    header, rows = {}, []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] in ("height", "width", "player_to_move"):
            header[parts[0]] = int(parts[1])
            continue
        try:
            rows.append([int(v) for v in parts])
        except ValueError:
            raise ValueError(f"{path.name}: bad row {line!r}") from None
    size = header.get("height", 0)
    if size != header.get("width") or len(rows) != 2 * size:
        raise ValueError(f"{path.name}: expected a square board and a removal grid of {size} rows each")
    grid = np.array(rows[:size], dtype=np.int8)
    removal = np.array(rows[size:], dtype=np.int8) != 0
    try:
        board = Board.from_grid(grid)
    except IllegalPosition as exc:
        raise ValueError(f"{path.name}: {exc}") from None
    return board, removal, header.get("player_to_move", BLACK)


def setup_sgf(board: Board, to_move: int = BLACK) -> bytes:
    """An SGF record that sets up ``board`` with AB/AW stones (for engines' ``loadsgf``)."""
    size = board.size
    record = sgfmill_sgf.Sgf_game(size=size)
    root = record.get_root()
    stones = {BLACK: set(), WHITE: set()}
    for color in (BLACK, WHITE):
        for index in np.flatnonzero(board.grid == color):
            r, c = divmod(int(index), size)
            stones[color].add((size - 1 - r, c))
    root.set_setup_stones(stones[BLACK], stones[WHITE])
    root.set("PL", "b" if to_move == BLACK else "w")
    return record.serialise()
