"""How soon seog gives up on what does not answer: each deadline against the wait it promises.

Run: python benchmarks/bench_deadlines.py [--rounds 3]

- ``gtp timeout``: a GTP engine that never answers ``genmove``, asked with a 0.5 s timeout
  (``GtpEngine.send``); the ratio is the seconds taken over the timeout.
- ``teacher restart`` / ``teacher drop``: a GTP teacher hanging on ``final_status_list`` with a
  0.5 s timeout (``labels.GtpTeacher``): one hang then an answer from the restarted engine; four
  hangs, the engine dropped after the third. The ratio is over the timeouts waited (1 and 3).
- ``sgf node limit``: a 4.1 MB record of short variations refused at ``sgf.MAX_NODES`` nodes,
  against reading the shipped 19x19 example; the ratio is over that read.
- ``annotate, no worker``: ``seog annotate --dask`` on 40 games (a quarter second each) against a
  local cluster scaled to no workers after two rows: the seconds from the scale-down to the exit,
  over ``--dask-timeout`` (3 s). Needs ``distributed``; skipped without it.

The seconds ``seog serve --workers 2`` takes to end on SIGTERM are the last line of
``benchmarks/bench_soak.py``. Prints the best of ``--rounds`` per row.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A GTP engine that answers everything at once but ``genmove`` and ``final_status_list``, on
# which it sleeps; given a flag file that is missing, it hangs once and makes the file.
HANGING = textwrap.dedent("""
    import os, sys, time
    flag = sys.argv[1] if len(sys.argv) > 1 else ""
    for line in sys.stdin:
        ident, name = (line.split() + ["", ""])[:2]
        if name == "quit":
            break
        if name in ("genmove", "final_status_list") and not (flag and os.path.exists(flag)):
            if flag:
                open(flag, "w").close()
            time.sleep(600)
        answer = "C7" if name == "final_status_list" else ""
        sys.stdout.write("=" + ident + " " + answer + "\\n\\n")
        sys.stdout.flush()
""")
WALL = (b"(;GM[1]FF[4]SZ[9]KM[7.5]RU[Japanese]AB[da][db][dc][dd][de][df][dg][dh][di]"
        b"AW[ea][eb][ec][ed][ee][ef][eg][eh][ei][cc])")


def gtp_timeout(folder: Path) -> tuple[float, float]:
    from seog.gtp.client import EngineTimeout, GtpEngine

    script = folder / "hang.py"
    script.write_text(HANGING)
    with GtpEngine(f"{sys.executable} {script}", timeout=5) as engine:
        engine.send("name")
        start = time.perf_counter()
        try:
            engine.send("genmove b", timeout=0.5)
        except EngineTimeout:
            pass
        return time.perf_counter() - start, 0.5


def teacher(folder: Path, once: bool) -> tuple[float, float]:
    from seog.datasets import labels

    script = folder / "hang.py"
    script.write_text(HANGING)
    flag = folder / "hung"
    flag.unlink(missing_ok=True)
    start = time.perf_counter()
    with labels.GtpTeacher(command=[sys.executable, str(script), *([str(flag)] if once else [])],
                           timeout=0.5, name="hang") as t:
        for _ in range(2 if once else 4):
            try:
                t.dead(WALL, 9)
            except labels.EngineError:
                pass
    return time.perf_counter() - start, 0.5 if once else 1.5


def sgf_node_limit(folder: Path) -> tuple[float, float]:
    from seog.features import sgf

    data = b"(;GM[1]SZ[19]" + b"(;B[aa];W[bb])" * 290_000 + b")"
    start = time.perf_counter()
    try:
        sgf.loads(data)
    except sgf.SgfError:
        pass
    refused = time.perf_counter() - start
    example = (ROOT / "examples" / "gnugo-selfplay-19.sgf").read_bytes()
    start = time.perf_counter()
    sgf.loads(example)
    return refused, time.perf_counter() - start


def annotate_without_workers(folder: Path) -> tuple[float, float] | None:
    try:
        import distributed
    except ImportError:
        return None
    src, out = folder / "in", folder / "out"
    src.mkdir(exist_ok=True)
    for i in range(40):
        (src / f"g{i:02}.sgf").write_bytes(WALL)
    import seog.datasets.annotate as ann

    real = ann.annotate_bytes

    def slow(name, data, options=ann.Options()):
        time.sleep(0.25)
        return real(name, data, options)

    ann.annotate_bytes = slow  # the cluster's worker runs in this process (processes=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=":0") as cluster:
        proc = subprocess.Popen([sys.executable, "-m", "seog", "annotate", str(src), "--out", str(out), "--quiet",
                                 "--dask", cluster.scheduler_address, "--dask-timeout", "3"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report = out / ann.REPORT_NAME
        while proc.poll() is None and not (report.exists() and len(report.read_text().splitlines()) > 2):
            time.sleep(0.02)
        cluster.scale(0)
        start = time.perf_counter()
        proc.wait(timeout=120)
        took = time.perf_counter() - start
    ann.annotate_bytes = real
    return took, 3.0


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    rows = [("gtp timeout", gtp_timeout), ("teacher restart", lambda f: teacher(f, once=True)),
            ("teacher drop", lambda f: teacher(f, once=False)), ("sgf node limit", sgf_node_limit),
            ("annotate, no worker", annotate_without_workers)]
    print(f"{'deadline':22} {'seconds':>8} {'against':>8} {'ratio':>6}")
    for name, run in rows:
        best = None
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as tmp:
                got = run(Path(tmp))
            if got is None:
                break
            best = got if best is None or got[0] < best[0] else best
        if best is None:
            print(f"{name:22} skipped: distributed is not installed")
            continue
        print(f"{name:22} {best[0]:>8.2f} {best[1]:>8.2f} {best[0] / best[1]:>6.1f}")


if __name__ == "__main__":
    main()
