"""The ownership refiner's training data: input planes and teacher ownership maps, cached.

For each game of a teacher file with ownership maps (``kgs-6d-train-katago.jsonl.gz``: the
final board and KataGo's ownership of every point), or of an SGF archive with an ownership
array beside it (``--archive kgs-6d-more.tar.xz --ownership kgs-6d-more-katago.npz``: the
board after the main line, trailing passes off), the refiner's input is the board planes and
the verdicts of a trained cascade (``classifiers.refiner.inputs``); the target is the teacher's
ownership. Each position keeps its name and recorded result, so training can hold out games by
``datasets.split`` and tell finished games from resigned ones. Games with territory marks (TB/TW, e.g. the labelled 9x9 and 13x13 self-play of
``seog.datasets.selfplay``) add positions of other sizes: their target is +1 on Black's
territory and live stones, -1 on White's, 0 on dame and seki. Smaller boards are stored in the
corner of a 19x19 canvas with the ``on_board`` plane 0 outside (training masks it). The cascade's verdicts depend on the cascade, so the cache records the sha1 of the
model file it was built with, and the refiner must be trained on top of that same cascade.

    python -m seog.datasets.planes ../shared/data/kgs-6d-train-katago.jsonl.gz \\
        [--marked cache/selfplay/9x9 cache/selfplay/13x13] --model seog/models/default.npz \\
        --out cache/planes.npz [--workers 2]
    python -m seog.datasets.planes --archive ../shared/data/kgs-6d-more.tar.xz \\
        --ownership ../shared/data/kgs-6d-more-katago.npz --out cache/planes-more.npz --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from seog.classifiers.model_file import DEFAULT_MODEL as SHIPPED_MODEL
from seog.datasets.labels import read_teacher
from seog.features.board import Board

_model = None
CANVAS = 19


def _init(model_path: str) -> None:
    global _model
    from seog.classifiers import model_file

    _model = model_file.load(model_path)
    _model.refiner = None  # the cascade's own verdicts are the refiner's input


def example(grid: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(input planes float16, segment ids int16, ownership x100 int8) of one position, on the canvas."""
    from seog.classifiers.refiner import inputs
    from seog.classifiers.status import decide
    from seog.features.planes import segments
    from seog.features.topology import analyze

    topology = analyze(grid)
    statuses = {st.block: st for st in decide(topology, _model, passes=())}
    seg, n_segments = segments(topology)
    n = topology.size
    if n > CANVAS:
        raise ValueError(f"a {n}x{n} board does not fit the {CANVAS}x{CANVAS} canvas")
    x = inputs(topology, statuses)
    planes = np.zeros((x.shape[0], CANVAS, CANVAS), dtype=np.float16)
    planes[:, :n, :n] = x
    segs = np.full((CANVAS, CANVAS), n_segments, dtype=np.int16)  # one dummy segment off the board
    segs[:n, :n] = seg
    target = np.zeros((CANVAS, CANVAS), dtype=np.int8)
    target[:n, :n] = owner
    return planes, segs, target


def _teacher_one(record: dict):
    try:
        n = int(record.get("size", CANVAS))
        owner = np.asarray(record["ownership"], dtype=np.int8).reshape(n, n)
        ex = example(Board.from_rows(record["final_board"]).grid, owner)
        return record["name"], ex + (record.get("result", ""),), ""
    except (KeyError, ValueError) as exc:  # IllegalPosition is a ValueError
        return record.get("name", "?"), None, f"{type(exc).__name__}: {exc}"


def _archive_one(item: tuple[str, bytes, np.ndarray]):
    """One archive game: its board after the main line, and the ownership array's row."""
    from seog.features import sgf

    name, data, owner = item
    try:
        game = sgf.loads(data)
        n = game.size
        return name, example(game.board.grid, owner.reshape(n, n)) + (game.result,), ""
    except ValueError as exc:
        return name, None, f"{type(exc).__name__}: {exc}"


def archive_items(archive: Path, ownership: Path):
    """(name, SGF bytes, ownership row) of every game of a tar archive that the ownership file labels."""
    import tarfile

    labels = np.load(ownership)
    rows = {str(name): i for i, name in enumerate(labels["names"])}
    owners = labels["ownership"]
    with tarfile.open(archive) as tar:
        for member in tar:
            name = member.name.rsplit("/", 1)[-1].removesuffix(".sgf")
            if member.isfile() and name in rows:
                yield name, tar.extractfile(member).read(), owners[rows[name]]


def marked_owner(game) -> np.ndarray:
    """Ownership x100 from a game's TB/TW marks: marked points and unmarked live stones."""
    from seog.features.coords import BLACK, WHITE

    owner = (game.board.grid.astype(np.int16) * 100).astype(np.int8)
    owner.flat[sorted(game.territory[BLACK])] = 100
    owner.flat[sorted(game.territory[WHITE])] = -100
    return owner


def _marked_one(path: str):
    from seog.features import sgf

    try:
        game = sgf.load(path)
        if not game.has_markup:
            return path, None, "no TB/TW marks"
        return path, example(game.board.grid, marked_owner(game)) + (game.result,), ""
    except (OSError, ValueError) as exc:
        return path, None, f"{type(exc).__name__}: {exc}"


def tags(names, results) -> dict[str, np.ndarray]:
    """Per position: its game id, its side of the held-out split (``datasets.split``), and whether
    the game was finished: decided by a count (not resigned, lost on time, forfeited or left
    without a result)."""
    from seog.datasets.split import game_id, split_of
    from seog.scoring.result import parse_result

    names = [str(n) for n in names]
    return {"game": np.array([game_id(n) for n in names]), "split": np.array([split_of(n) for n in names]),
            "finished": np.array([parse_result(str(r)).counted for r in results], dtype=bool)}


def build(teacher: Path | None, model_path: Path, out: Path, workers: int = 1, marked: list[Path] = (),
          archive: tuple[Path, Path] | None = None) -> dict:
    """Write the cache; returns its summary (positions kept, skipped with why, seconds)."""
    records = [] if teacher is None else [label.record for _, label in sorted(read_teacher(teacher, "katago").items())]
    records = [r for r in records if "ownership" in r]
    paths = [str(p) for folder in marked for p in sorted(Path(folder).glob("*.sgf"))]
    games = archive_items(*archive) if archive else iter(())
    start = time.perf_counter()
    if workers > 1:
        with ProcessPoolExecutor(workers, initializer=_init, initargs=(str(model_path),)) as pool:
            results = list(pool.map(_teacher_one, records, chunksize=64))
            results += list(pool.map(_marked_one, paths, chunksize=16))
            results += list(pool.map(_archive_one, games, chunksize=64))
    else:
        _init(str(model_path))
        results = ([_teacher_one(r) for r in records] + [_marked_one(p) for p in paths]
                   + [_archive_one(g) for g in games])
    kept = [(name, ex) for name, ex, _ in results if ex is not None]
    skipped = {name: why for name, ex, why in results if ex is None}
    from seog.classifiers import model_file

    source = Path(teacher).name if teacher else Path(archive[1]).name if archive else "marked games"
    meta = {"teacher": source, "marked": [str(f) for f in marked],
            "cascade_sha1": model_file.cascade_sha1(model_file.load(model_path)),
            "games": len(kept), "skipped": skipped, "seconds": round(time.perf_counter() - start, 1)}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, planes=np.stack([ex[0] for _, ex in kept]), segments=np.stack([ex[1] for _, ex in kept]),
                        ownership=np.stack([ex[2] for _, ex in kept]), names=np.array([n for n, _ in kept]),
                        results=np.array([ex[3] for _, ex in kept]),
                        **tags([n for n, _ in kept], [ex[3] for _, ex in kept]),
                        meta=np.array(json.dumps(meta)))
    tmp.replace(out)
    return meta


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.planes", description=__doc__.splitlines()[0])
    p.add_argument("teacher", nargs="?", help="teacher JSON lines with final_board and ownership (gzip or plain)")
    p.add_argument("--archive", type=Path, help="a tar archive of SGF games (with --ownership)")
    p.add_argument("--ownership", type=Path, help="names and ownership rows of the archive's last positions (npz)")
    p.add_argument("--model", default=str(SHIPPED_MODEL), help="the cascade whose verdicts feed the refiner")
    p.add_argument("--out", default="cache/planes.npz")
    p.add_argument("--marked", nargs="*", default=[], help="folders of SGF games with TB/TW marks (any size up to 19)")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    if (args.archive is None) != (args.ownership is None):
        p.error("--archive and --ownership go together")
    if not (args.teacher or args.archive or args.marked):
        p.error("give a teacher file, --archive with --ownership, or --marked folders")
    archive = (args.archive, args.ownership) if args.archive else None
    meta = build(Path(args.teacher) if args.teacher else None, Path(args.model), Path(args.out), args.workers,
                 [Path(f) for f in args.marked], archive)
    print(f"{args.out}: {meta['games']} positions, {len(meta['skipped'])} skipped, {meta['seconds']} s")
    for name, why in list(meta["skipped"].items())[:10]:
        print(f"  skipped {name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
