"""Microseconds a game of reading SGF (``sgf.loads``: parse and replay) and of writing the scored
copy (``sgf.with_score``), over the first games of the KGS training archive.

    python benchmarks/bench_sgf.py [--games 2000] [--rounds 3] [--turns 2] [--baseline REV]

Each turn is a process that reads the games from the tarball once, before the clock, then times
``--rounds`` rounds of every game; the best round of all turns is printed (the machine's own load
moves single rounds). ``--baseline REV`` also times revision REV's ``seog`` (exported with ``git
archive`` into a temporary folder), turn by turn with this tree so that both see the same load,
and prints this tree's time as a ratio of REV's: of the best rounds, and the median of the turns'
ratios (each turn against REV's turn just before it), which a loaded machine moves less.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = ROOT.parent / "shared" / "data" / "kgs-6d-train.tar.xz"


def games(archive: Path, n: int) -> list[bytes]:
    """The bytes of the first ``n`` SGF members of ``archive``, in name order."""
    with tarfile.open(archive) as tar:  # read in the archive's order: a compressed tarball does not seek back
        found = {m.name: tar.extractfile(m).read() for m in tar if m.isfile() and m.name.endswith(".sgf")}
    return [found[name] for name in sorted(found)[:n]]


def one_round(data: list[bytes]) -> dict[str, float]:
    """Microseconds a game of ``loads`` and of ``with_score`` (a copy with one mark and a comment)."""
    from seog.features import sgf
    from seog.features.coords import BLACK, WHITE

    start = time.perf_counter()
    loaded = [sgf.loads(d) for d in data]
    read = time.perf_counter() - start
    marks = {BLACK: {0}, WHITE: set()}
    start = time.perf_counter()
    for game in loaded:
        sgf.with_score(game, "B+0.5", marks, "seog: bench")
    write = time.perf_counter() - start
    return {"loads_us": read / len(data) * 1e6, "with_score_us": write / len(data) * 1e6}


def turn(archive: str, n: int, rounds: int) -> None:
    """The best of ``rounds`` rounds in this process, as a JSON line."""
    data = games(Path(archive), n)
    figures = [one_round(data) for _ in range(rounds)]
    print(json.dumps({key: min(f[key] for f in figures) for key in figures[0]}))


def turn_in(tree: Path, archive: Path, n: int, rounds: int) -> dict[str, float]:
    """One turn in a process of its own, importing ``seog`` from ``tree``."""
    code = f"import sys; sys.path.insert(0, {str(tree)!r}); sys.path.insert(1, {str(ROOT / 'benchmarks')!r}); " \
           f"import bench_sgf; bench_sgf.turn({str(archive)!r}, {n}, {rounds})"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds a turn")
    parser.add_argument("--turns", type=int, default=2, help="processes a tree")
    parser.add_argument("--archive", type=Path, default=ARCHIVE)
    parser.add_argument("--baseline", help="a git revision to time round by round with this tree")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="seog-bench-sgf-") as folder:
        trees = {"this tree": ROOT}
        if args.baseline:
            base = Path(folder)
            archive = subprocess.run(["git", "archive", args.baseline, "seog"], cwd=ROOT, check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            trees = {args.baseline: base, **trees}
        best: dict[str, dict[str, float]] = {}
        ratios: list[dict[str, float]] = []
        for _ in range(args.turns):
            got = {}
            for name, tree in trees.items():
                got[name] = turn_in(tree, args.archive, args.games, args.rounds)
                best[name] = {k: min(v, best.get(name, {}).get(k, v)) for k, v in got[name].items()}
            if args.baseline:
                ratios.append({k: got["this tree"][k] / got[args.baseline][k] for k in got["this tree"]})
    for name, figures in best.items():
        print(f"{name:>12}: loads {figures['loads_us']:7.0f} us a game, with_score {figures['with_score_us']:7.0f} "
              f"us a game (best of {args.turns} x {args.rounds} rounds, {args.games} games)")
    if args.baseline:
        base, this = best[args.baseline], best["this tree"]
        print(f"this tree / {args.baseline}: loads {this['loads_us'] / base['loads_us']:.3f}, "
              f"with_score {this['with_score_us'] / base['with_score_us']:.3f} (best rounds); median of the "
              f"turns: loads {statistics.median(r['loads_us'] for r in ratios):.3f}, "
              f"with_score {statistics.median(r['with_score_us'] for r in ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
