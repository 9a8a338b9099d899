"""The feature cache: every block of every labelled position as one row of numbers, in a single
compressed numpy file, so training never analyses a position again.

Arrays (all loadable with ``allow_pickle=False``):

| key | shape, type | what |
|---|---|---|
| ``X`` | (N, F) float32 | ``vector.extract(topology, all blocks, SET_B)`` |
| ``feature_names`` | (F,) str | the columns of X |
| ``y`` | (N,) int8 | 1 alive, 0 dead (the label) |
| ``static`` | (N,) int8 | -1 unsettled, else 0/1 as ``status.static_statuses`` decides |
| ``position`` | (N,) int32 | row of ``positions`` the block belongs to |
| ``related`` | (N, 7, K) int32 | global rows of ``vector.related`` (its ``DYNAMIC`` slots), -1 padded |
| ``positions`` | (P,) str | position names |
| ``sizes`` | (P,) int16 | board size of each position |
| ``picks`` | () str | how ties between equal neighbours were broken (``vector.PICKS``; absent: 'ids') |

Build it from an archive plus a teacher file, or from folders of marked games; games whose
labels do not reproduce their recorded result with our scorer are left out (``consistent``):

    python -m seog.datasets.cache ../shared/data/kgs-6d-train.tar.xz \\
        --teacher ../shared/data/kgs-6d-train-katago.jsonl.gz --out cache/train.npz --workers 2
    python -m seog.datasets.cache ../shared/data/kgs-6d-more.tar.xz \\
        --ownership ../shared/data/kgs-6d-more-katago.npz --out cache/more8.npz --workers 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

KEYS = ("X", "feature_names", "y", "static", "position", "related", "positions", "sizes")


@dataclass
class Job:
    """One game to turn into rows: its SGF bytes and the teacher's dead stones, or its ownership
    of the final position (x100, + Black; a block is dead where its mean has the opponent's sign);
    with neither, the record's TB/TW marks."""

    name: str
    data: bytes
    dead: list | None = None
    owner: np.ndarray | None = None
    back: int = 0  # rows of the position this many moves before the last (ownership labels only)


@dataclass
class Rows:
    """The rows of one position, or why it was left out (``skip``)."""

    name: str
    skip: str = ""
    size: int = 0
    X: np.ndarray | None = None
    y: np.ndarray | None = None
    static: np.ndarray | None = None
    related: list | None = None


def position_rows(job: Job, consistent: bool = True) -> Rows:
    """Features, labels and static statuses of every block of one game's final position, or of the
    position ``job.back`` moves before it."""
    from seog.classifiers.status import static_statuses
    from seog.datasets.labels import (
        LabelError,
        block_labels,
        block_mask,
        check,
        check_on_stones,
        mask_from_sgf,
        teacher_alive,
    )
    from seog.datasets.select import judge
    from seog.features import vector
    from seog.features.topology import analyze

    rec = judge(job.name, job.data, sizes=range(2, 26))
    if not rec.kept:
        return Rows(job.name, f"{rec.reason}")
    game = rec.game
    try:
        if job.owner is not None:
            owner = np.asarray(job.owner, dtype=np.float32).reshape(game.size, game.size)
            labelled = analyze(game.board.grid)
            dead = block_mask(labelled, teacher_alive(labelled, owner))
        elif job.dead is not None:
            dead = mask_from_sgf(job.dead, game.size)
        elif game.has_markup:
            dead = game.marked_dead()
        else:
            return Rows(job.name, "no labels")
        check_on_stones(game.board.grid, dead)
    except (LabelError, ValueError) as exc:
        return Rows(job.name, f"bad labels: {exc}")
    if consistent:
        try:
            if not check(game, dead).consistent:
                return Rows(job.name, "inconsistent with RE")
        except ValueError as exc:
            return Rows(job.name, f"cannot score: {exc}")
    if job.back:
        grid = board_before(game, job.back)
        if grid is None:
            return Rows(job.name, "too short")
        topology = analyze(grid)
        y = teacher_alive(topology, owner).astype(np.int8)
    else:
        topology = analyze(game.board.grid)
        y, _ = block_labels(topology, dead)
    ids = list(range(len(topology.blocks)))
    static = np.full(len(ids), -1, dtype=np.int8)
    for b, st in static_statuses(topology).items():
        static[b] = int(st.alive)
    if not ids:
        return Rows(job.name, "no stones")
    X = vector.extract(topology, ids, vector.SET_B).astype(np.float32)
    related = [[list(map(int, slot)) for slot in slots] for slots in vector.related(topology, ids)]
    return Rows(job.name, "", game.size, X, y, static, related)


def board_before(game, back: int) -> np.ndarray | None:
    """The board ``back`` moves before the last move of the main line (trailing passes off); None
    for a line that short or one with setup stones between its moves."""
    from seog.features.board import Board

    moves = list(game.moves)
    while moves and moves[-1][1] is None:
        moves.pop()
    if back >= len(moves) or game.later_setup:
        return None
    board = Board(game.size)
    for color, point in game.setup:
        board.place(color, point)
    for color, point in moves[:len(moves) - back]:
        board.play(color, point, suicide=True)
    return board.grid


def _work(args) -> Rows:
    job, consistent = args
    try:
        return position_rows(job, consistent)
    except Exception as exc:  # noqa: BLE001 (a worker must answer for every job; the reason is reported)
        return Rows(job.name, f"error: {type(exc).__name__}: {exc}")


def jobs(sources: Iterable[str | Path], teacher: dict | None = None, ownership: str | Path | None = None,
         back: Iterable[int] = ()) -> Iterator[Job]:
    """Jobs for every SGF record of the sources; teacher labels (name -> TeacherLabel) where present,
    or the rows of an ownership file (``names``, ``ownership``: ``kgs-6d-more-katago.npz``). With
    ``back``, a game the ownership file labels gives the positions that many moves before its last
    too (named ``NAME@-K``), labelled by the last position's ownership: a block taken off in the
    last moves is dead, one still there has the fate it has at the end. A game whose last position
    is left out (its labels do not give its result) gives none of them."""
    from seog.datasets import archive
    from seog.datasets.labels import game_key
    from seog.datasets.split import BEFORE_END

    owners = {}
    if ownership is not None:
        arrays = np.load(ownership, allow_pickle=False)
        owners = dict(zip((str(n) for n in arrays["names"]), arrays["ownership"]))
    for source in sources:
        for entry in archive.read(source):
            label = teacher.get(game_key(entry.name)) if teacher else None
            owner = owners.get(game_key(entry.name))
            yield Job(entry.name, entry.data, None if label is None else label.dead, owner)
            if owner is not None:
                for k in back:
                    yield Job(f"{entry.name}{BEFORE_END}{k}", entry.data, None, owner, k)


def build(job_iter: Iterable[Job], out: str | Path, workers: int = 2, consistent: bool = True,
          progress=None) -> dict:
    """Compute the rows of every job (in ``workers`` processes) and write the cache; return counts."""
    from seog.features.vector import DYNAMIC, PICKS, SET_B

    parts: list[Rows] = []
    skipped = Counter()
    examples = {}
    tasks = ((job, consistent) for job in job_iter)
    if workers > 1:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap(_work, tasks, chunksize=8)
    else:
        pool, results = None, map(_work, tasks)
    try:
        for rows in results:
            if rows.skip:
                reason = rows.skip.split(":")[0]
                skipped[reason] += 1
                examples.setdefault(reason, f"{rows.name}: {rows.skip}"[:160])
            else:
                parts.append(rows)
            if progress:
                progress()
    finally:
        if pool:
            pool.close()
            pool.join()
    if not parts:
        raise ValueError("no position gave rows: " + ", ".join(f"{k} {v}" for k, v in skipped.items()))

    offsets = np.cumsum([0] + [len(p.y) for p in parts])
    k = max((len(slot) for p in parts for slots in p.related for slot in slots), default=1) or 1
    related = np.full((offsets[-1], len(DYNAMIC), k), -1, dtype=np.int32)
    for p, start in zip(parts, offsets):
        for i, slots in enumerate(p.related):
            for j, slot in enumerate(slots):
                if slot:
                    related[start + i, j, : len(slot)] = np.asarray(slot, dtype=np.int32) + start
    arrays = {
        "X": np.concatenate([p.X for p in parts]).astype(np.float32),
        "feature_names": np.array(SET_B, dtype=str),
        "y": np.concatenate([p.y for p in parts]).astype(np.int8),
        "static": np.concatenate([p.static for p in parts]).astype(np.int8),
        "position": np.repeat(np.arange(len(parts), dtype=np.int32), [len(p.y) for p in parts]),
        "related": related,
        "positions": np.array([p.name for p in parts], dtype=str),
        "sizes": np.array([p.size for p in parts], dtype=np.int16),
        "picks": np.array(PICKS),
    }
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    return {"positions": len(parts), "rows": int(offsets[-1]), "features": len(SET_B), "related_k": int(k),
            "dead_rows": int((arrays["y"] == 0).sum()), "unsettled_rows": int((arrays["static"] == -1).sum()),
            "skipped": dict(skipped), "examples": examples}


def load(path: str | Path) -> dict[str, np.ndarray]:
    """The cache's arrays, checked for the keys the trainer reads."""
    from seog.classifiers.model_file import read_arrays

    arrays = read_arrays(path, "feature cache", ValueError)
    missing = [k for k in KEYS if k not in arrays]
    if missing:
        raise ValueError(f"{path}: not a feature cache (missing {', '.join(missing)})")
    return arrays


def picks(arrays: dict) -> str:
    """How the cache's neighbour picks broke ties (``vector.PICKS``); 'ids' for a cache built
    before that was recorded."""
    return str(arrays["picks"]) if "picks" in arrays else "ids"


def merge(paths: Iterable[str | Path], out: str | Path) -> dict:
    """Join caches built from different sources (say the 19x19 archive and 9x9/13x13 self-play)
    into one, shifting each part's position and ``related`` row indices past the parts before it."""
    parts = [load(p) for p in paths]
    names = parts[0]["feature_names"]
    for path, part in zip(paths, parts):
        if not np.array_equal(part["feature_names"], names):
            raise ValueError(f"{path}: built with other feature definitions than {paths[0]}")
        if picks(part) != picks(parts[0]):
            raise ValueError(f"{path} picks neighbours by {picks(part)}, {paths[0]} by {picks(parts[0])}: "
                             "rebuild the older one (python -m seog.datasets.cache)")
    k = max(part["related"].shape[2] for part in parts)
    rows = np.cumsum([0] + [len(part["y"]) for part in parts])
    games = np.cumsum([0] + [len(part["positions"]) for part in parts])
    related = []
    for part, start in zip(parts, rows):
        r = part["related"]
        r = np.where(r >= 0, r + start, -1).astype(np.int32)
        related.append(np.pad(r, ((0, 0), (0, 0), (0, k - r.shape[2])), constant_values=-1))
    arrays = {
        "X": np.concatenate([part["X"] for part in parts]),
        "feature_names": names,
        "y": np.concatenate([part["y"] for part in parts]),
        "static": np.concatenate([part["static"] for part in parts]),
        "position": np.concatenate([part["position"] + g for part, g in zip(parts, games)]).astype(np.int32),
        "related": np.concatenate(related),
        "positions": np.concatenate([part["positions"] for part in parts]),
        "sizes": np.concatenate([part["sizes"] for part in parts]),
        "picks": np.array(picks(parts[0])),
    }
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **arrays)
    return {"positions": int(games[-1]), "rows": int(rows[-1]), "out": str(out)}


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv and argv[0] == "merge":
        p = argparse.ArgumentParser(prog="python -m seog.datasets.cache merge",
                                    description="Join feature caches into one.")
        p.add_argument("caches", nargs="+")
        p.add_argument("--out", required=True)
        args = p.parse_args(argv[1:])
        print(json.dumps(merge(args.caches, args.out), indent=1))
        return 0
    p = argparse.ArgumentParser(prog="python -m seog.datasets.cache",
                                description="Build the feature cache from archives of finished games.")
    p.add_argument("sources", nargs="+", help="folders, SGF files or tarballs")
    p.add_argument("--teacher", help="teacher labels (JSON lines) for the sources' games; else their TB/TW marks")
    p.add_argument("--teacher-field", choices=["katago", "gnugo"], help="which dead list of the teacher file")
    p.add_argument("--ownership", help="ownership rows of the games' final positions (npz: names, ownership "
                   "x100, + Black), the labels where a game has one")
    p.add_argument("--out", default="cache/train.npz")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--back", nargs="*", type=int, default=[],
                   help="with --ownership, the positions this many moves before the last as well")
    p.add_argument("--all", action="store_true", help="keep games whose labels do not reproduce RE too")
    p.add_argument("--limit", type=int, help="only the first N records (for a quick check)")
    args = p.parse_args(argv)
    if args.back and not args.ownership:
        p.error("--back needs --ownership: a position before the end is labelled by the last one's ownership")

    from itertools import islice

    from tqdm import tqdm

    from seog.datasets.labels import read_teacher

    teacher = read_teacher(args.teacher, args.teacher_field) if args.teacher else None
    job_iter = jobs(args.sources, teacher, args.ownership, args.back)
    if args.limit:
        job_iter = islice(job_iter, args.limit)
    start = time.time()
    bar = tqdm(unit="game", mininterval=5)
    try:
        counts = build(job_iter, args.out, args.workers, not args.all, progress=bar.update)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        bar.close()
    counts["seconds"] = round(time.time() - start, 1)
    counts["out"] = str(args.out)
    print(json.dumps(counts, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
