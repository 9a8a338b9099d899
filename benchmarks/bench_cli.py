"""Wall time of ``seog score game.sgf`` from a cold process, against a baseline revision in the same run.

Each variant runs as a new process (the shell's view: interpreter start, imports, model load,
scoring, printing), interleaved round by round so that load falls on all alike; the median of
``--runs`` is printed beside two floors, a bare ``python -c pass`` and ``import numpy``, and the
machine's load. The baseline is a git revision checked out into a temporary worktree and put
first on ``PYTHONPATH``. Bytecode is written and warm (one untimed run of each first).

    python benchmarks/bench_cli.py --baseline 6eedadf --runs 10
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT.parent / "shared" / "data" / "kgs-2017-q1" / "2017-01-01-10.sgf"


def wall(command: list[str], env: dict) -> float:
    start = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", help="a git revision to time beside the working tree")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--game", default=str(GAME))
    args = parser.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    here = dict(env, PYTHONPATH=str(ROOT))
    variants = {"python -c pass": ([sys.executable, "-c", "pass"], env),
                "python -c 'import numpy'": ([sys.executable, "-c", "import numpy"], env),
                "seog score (this tree)": ([sys.executable, "-m", "seog", "score", args.game], here)}
    with tempfile.TemporaryDirectory() as folder:
        if args.baseline:
            tree = Path(folder) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), args.baseline],
                           check=True)
            variants[f"seog score ({args.baseline})"] = ([sys.executable, "-m", "seog", "score", args.game],
                                                         dict(env, PYTHONPATH=str(tree)))
        try:
            times: dict[str, list[float]] = {name: [] for name in variants}
            for command, variant_env in variants.values():
                wall(command, variant_env)  # bytecode written, files in the page cache
            load = os.getloadavg()[0]
            for _ in range(args.runs):
                for name, (command, variant_env) in variants.items():
                    times[name].append(wall(command, variant_env))
        finally:
            if args.baseline:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    print(f"{Path(args.game).name}, {args.runs} runs each, load {load:.2f} -> {os.getloadavg()[0]:.2f}, "
          f"{os.cpu_count()} cores")
    medians = {name: statistics.median(t) for name, t in times.items()}
    for name, median in medians.items():
        print(f"  {name:32s} median {median * 1000:6.0f} ms  (min {min(times[name]) * 1000:.0f}, "
              f"max {max(times[name]) * 1000:.0f})")
    if args.baseline:
        ratio = medians[f"seog score ({args.baseline})"] / medians["seog score (this tree)"]
        print(f"  this tree is {ratio:.2f}x faster than {args.baseline}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
