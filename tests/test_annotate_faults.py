"""``seog annotate`` under faults: a run killed between a copy and its row, leftover temporary
files, reports without the finished columns, and a Dask cluster whose scheduler or workers are lost."""

import csv
import json
import socket
import subprocess
import sys
import time

import pytest
from test_annotate import REAL_ANNOTATE_BYTES, TWO_WALLS, record

from conftest import RESIGNED_AT_226, setup_record
from seog.cli import annotate as cli_annotate
from seog.cli import main as cli_main
from seog.datasets import annotate as ann
from seog.features import sgf
from seog.scoring.request import SAID_UNFINISHED_CLI


def report_rows(path):
    with open(path, newline="") as fh:
        return {r["name"]: r for r in csv.DictReader(fh)}


def header(path):
    return path.read_text().splitlines()[0]


@pytest.fixture
def varied(tmp_path):
    """Twelve games: counted ones that agree or not with their RE, resigned ones (not finished)."""
    src = tmp_path / "in"
    src.mkdir()
    for i in range(12):
        result = ("W+13.5", "B+2", "W+R")[i % 3]
        (src / f"game-{i:02}.sgf").write_text(record(TWO_WALLS, result=result, moves=";B[ch];W[fc]"
                                                     if result == "W+R" else ""))
    return src


def full(row):
    """A report row holding what the game's scoring found."""
    return (row["status"] in ("annotated", "skipped") and row["result"] == "W+13.5" and row["recorded"]
            and row["finished"] in ("yes", "no") and row["uncertain"].isdigit() and not row["error"])


def expected_rows(src, tmp_path):
    """The report of an uninterrupted run, by name, without its status."""
    out = tmp_path / "clean"
    ann.annotate(src, out, workers=1, progress=False)
    return {n: {k: v for k, v in r.items() if k != "status"} for n, r in report_rows(out / ann.REPORT_NAME).items()}


# ---- a run killed between a copy and its row --------------------------------------------------

DIES_AFTER_A_COPY = """
import os, sys
from seog.cli import main
from seog.datasets import annotate as ann

victim, real = sys.argv[1], ann.write_atomic


def write_atomic(path, data):
    real(path, data)
    if path.name == victim:  # the copy is in place, its row not yet in the report: as kill -9 there
        os._exit(9)


ann.write_atomic = write_atomic
sys.exit(main(["annotate", *sys.argv[2:], "--quiet", "--workers", "1"]))
"""


def test_a_copy_left_without_its_row_by_a_killed_run_gets_a_full_row_from_the_rerun(varied, tmp_path, capsys):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-c", DIES_AFTER_A_COPY, "game-04.sgf", str(varied), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 9, proc.stderr
    rows = report_rows(out / ann.REPORT_NAME)
    assert (out / "game-04.sgf").exists() and "game-04.sgf" not in rows and len(rows) == 4  # the fault is there
    (out / ".game-05.sgf.99999.part").write_bytes(b"(;GM[1]SZ[9]")  # a copy cut off mid-write

    assert cli_main(["annotate", str(varied), "--out", str(out), "--quiet", "--workers", "1"]) == 0
    printed = capsys.readouterr().out
    rows = report_rows(out / ann.REPORT_NAME)
    assert sorted(rows) == sorted(p.name for p in varied.iterdir()) and all(full(r) for r in rows.values())
    assert {n: {k: v for k, v in r.items() if k != "status"} for n, r in rows.items()} == expected_rows(varied, tmp_path)
    assert rows["game-04.sgf"]["status"] == "annotated" and sgf.load(out / "game-04.sgf").result == "W+13.5"
    assert "processed 8, skipped 4 (written before)" in printed  # game-04 and the seven not started
    assert "agreement with the recorded result: 4 of 8 counted games (50.0%)" in printed  # every game counted
    assert "1 copy written before had no result in the report" in printed
    assert "removed 1 temporary file left by a run that was killed" in printed
    assert not list(out.rglob("*.part"))


def test_rows_without_a_result_and_a_line_cut_short_are_scored_again(varied, tmp_path):
    """A copy whose row holds no result (``NAME,skipped,,,,0,``) and one whose line is cut short
    are both scored again; the whole rows are kept."""
    out = tmp_path / "out"
    ann.annotate(varied, out, workers=1, progress=False, limit=4)
    report = out / ann.REPORT_NAME
    lines = report.read_text().splitlines()
    lines[1] = "game-00.sgf,skipped,,,,0,,,"
    lines[-1] = lines[-1][:18]  # "game-03.sgf,annota"
    report.write_text("\n".join(lines))
    summary = ann.annotate(varied, out, workers=1, progress=False, limit=4)
    assert {r.name: r.status for r in summary.rows} == {
        "game-00.sgf": "annotated", "game-01.sgf": "skipped", "game-02.sgf": "skipped", "game-03.sgf": "annotated"}
    assert all(full(r) for r in report_rows(report).values()) and len(report_rows(report)) == 4


def test_a_rerun_removes_only_temporary_files_of_its_own_naming(varied, tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "reports"
    (out / "sub").mkdir(parents=True)
    elsewhere.mkdir()
    leftovers = [out / ".game-01.sgf.123.part", out / "sub" / ".x.sgf.4567.part",
                 elsewhere / ".r.csv.77.part"]
    kept = [out / "notes.part", out / ".game.sgf.part", out / ".a.sgf.12x.part", elsewhere / ".other.csv.77.part"]
    for path in leftovers + kept:
        path.write_text("x")
    summary = ann.annotate(varied, out, workers=1, progress=False, limit=1, report=elsewhere / "r.csv")
    assert not any(p.exists() for p in leftovers) and all(p.exists() for p in kept)
    assert "removed 3 temporary files left by a run that was killed" in summary.lines()


# ---- the finished columns, and a report without them ----------------------------------------

def test_a_report_without_the_finished_columns_is_read_and_rewritten_with_them(varied, tmp_path):
    out = tmp_path / "out"
    ann.annotate(varied, out, workers=1, progress=False, limit=6)
    report = out / ann.REPORT_NAME
    with open(report, newline="") as fh:
        old = [{k: r[k] for k in ann.OLD_COLUMNS} for r in csv.DictReader(fh)]
    with open(report, "w", newline="") as fh:  # the first seven columns only, and a row of another input
        writer = csv.DictWriter(fh, fieldnames=ann.OLD_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(old + [{**old[0], "name": "elsewhere/other.sgf"}])

    summary = ann.annotate(varied, out, workers=1, progress=False)
    assert header(report) == ",".join(ann.COLUMNS)
    rows = report_rows(report)
    assert len(rows) == 13 and rows["elsewhere/other.sgf"]["result"] == "W+13.5"
    for row in old:  # every row kept as it was, its finished columns not known
        assert {k: rows[row["name"]][k] for k in ann.OLD_COLUMNS} == {**row, "status": "skipped"}
        assert rows[row["name"]]["finished"] == rows[row["name"]]["unfinished"] == ""
    assert rows["game-08.sgf"]["finished"] == "no" and rows["game-08.sgf"]["unfinished"] == "RE[W+R]"
    assert rows["game-07.sgf"]["finished"] == "yes"
    assert summary.count(ann.ANNOTATED) == 6 and summary.not_finished == 2  # the seven-column rows' are not known
    assert "not a finished position: 2 games, whose count is an estimate" in "\n".join(summary.lines())


def test_an_unfinished_position_says_so_in_its_row_and_its_copys_comment(varied, tmp_path):
    out = tmp_path / "out"
    summary = ann.annotate(varied, out, workers=1, progress=False)
    rows = report_rows(out / ann.REPORT_NAME)
    resigned = [n for n, r in rows.items() if r["recorded"] == "W+R"]
    assert len(resigned) == 4 and summary.not_finished == 4
    assert all((rows[n]["finished"], rows[n]["unfinished"]) == ("no", "RE[W+R]") for n in resigned)
    text = (out / resigned[0]).read_text()
    assert "Note: not a finished position (RE[W+R\\]): the count is an estimate of the board as it stands" in text
    assert "not a finished position" not in (out / "game-00.sgf").read_text()


def test_an_archive_said_unfinished_reads_its_games_without_result_as_their_resigned_records(tmp_path):
    """``seog annotate --unfinished``: a record without RE is a game not counted. The last board of
    a resigned game saved without its RE is read as the record with ``RE[B+Resign]`` is (the
    same count and dead stones), its row and comment say why it is an estimate, and its copy
    gets no RE; a record whose RE gives a count stays a finished game."""
    src, out, resigned_out = tmp_path / "games", tmp_path / "out", tmp_path / "resigned"
    src.mkdir()
    (src / "no-result.sgf").write_text(setup_record(RESIGNED_AT_226))
    (src / "counted.sgf").write_text(record(TWO_WALLS))
    (tmp_path / "resigned.sgf").write_text(setup_record(RESIGNED_AT_226, "B+Resign"))
    assert cli_main(["annotate", str(src), "--out", str(out), "--unfinished", "--workers", "1", "--quiet"]) == 0
    assert cli_main(["annotate", str(tmp_path / "resigned.sgf"), "--out", str(resigned_out), "--workers", "1",
                     "--quiet"]) == 0
    rows, resigned = report_rows(out / ann.REPORT_NAME), report_rows(resigned_out / ann.REPORT_NAME)["resigned.sgf"]
    said = rows["no-result.sgf"]
    assert (said["finished"], said["unfinished"]) == ("no", SAID_UNFINISHED_CLI)
    assert said["result"] == resigned["result"] and resigned["unfinished"] == "RE[B+Resign]"
    dead = sgf.load(out / "no-result.sgf").marked_dead()
    assert dead.any() and (dead == sgf.load(resigned_out / "resigned.sgf").marked_dead()).all()
    copy = (out / "no-result.sgf").read_text()
    assert "RE[" not in copy and f"not a finished position ({SAID_UNFINISHED_CLI})" in copy
    assert (rows["counted.sgf"]["finished"], rows["counted.sgf"]["result"]) == ("yes", "W+13.5")
    plain = tmp_path / "plain"  # without the flag the same record counts as a finished game
    assert cli_main(["annotate", str(src), "--out", str(plain), "--workers", "1", "--quiet"]) == 0
    alone = report_rows(plain / ann.REPORT_NAME)["no-result.sgf"]
    assert alone["finished"] == "yes" and alone["result"] != said["result"]


# ---- a Dask cluster that stops doing the games ---------------------------------------------------

@pytest.fixture
def distributed():
    """dask.distributed, or the test is skipped where it is not installed."""
    return pytest.importorskip("distributed")

SLOW = """
import time
import seog.datasets.annotate as ann

real = ann.__dict__.setdefault("unslowed", ann.annotate_bytes)  # Dask imports a preload more than once


def annotate_bytes(name, data, options=ann.Options()):
    time.sleep({seconds})
    return real(name, data, options)


ann.annotate_bytes = annotate_bytes
"""


IN_THIS_PROCESS = {"processes": False, "protocol": "tcp://", "host": "127.0.0.1", "dashboard_address": ":0"}


def slow_annotate_bytes(name, data, options=ann.Options()):
    time.sleep(0.25)
    return REAL_ANNOTATE_BYTES(name, data, options)


@pytest.fixture
def many(tmp_path):
    """Forty games: at a quarter of a second each on one worker, ten seconds of work."""
    src = tmp_path / "in"
    src.mkdir()
    for i in range(40):
        (src / f"g{i:02}.sgf").write_text(record(TWO_WALLS))
    return src


def start_cli(src, out, address, timeout):
    return subprocess.Popen([sys.executable, "-m", "seog", "annotate", str(src), "--out", str(out), "--quiet",
                             "--dask", address, "--dask-timeout", str(timeout)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_rows(report, proc, rows=2):
    """Return once the report of the running ``proc`` holds ``rows`` finished games' rows."""
    deadline = time.monotonic() + 120  # only against a hang
    while proc.poll() is None and time.monotonic() < deadline:
        if report.exists() and len(report.read_text().splitlines()) > rows:
            return
        time.sleep(0.02)
    proc.kill()
    pytest.fail(f"the run ended (or hung) before {rows} rows reached the report: {proc.communicate()}")


def ended(proc, within):
    """The run's exit status, output and seconds taken to end; a run still going after ``within``
    seconds fails the test."""
    start = time.monotonic()
    try:
        printed, errors = proc.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"the run did not end within {within} s: {proc.communicate()}")
    return proc.returncode, printed, errors, time.monotonic() - start


def whole(out, names):
    """Every copy has a full row, the report is whole, and each row's copy exists."""
    rows = report_rows(out / ann.REPORT_NAME)
    copies = {p.name for p in out.glob("*.sgf")}
    assert set(rows) == copies and copies <= names
    assert all(full(r) and r["finished"] == "yes" for r in rows.values())
    assert (out / ann.REPORT_NAME).read_text().endswith("\n") and not list(out.rglob("*.part"))
    return rows


def test_a_killed_dask_scheduler_ends_the_run_with_exit_1_and_a_rerun_resumes(many, tmp_path, distributed):
    names = {p.name for p in many.iterdir()}
    (tmp_path / "slow.py").write_text(SLOW.format(seconds=0.25))
    info = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard", "--scheduler-file", str(info)],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--scheduler-file",
                                   str(info), "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                   "--preload", str(tmp_path / "slow.py")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        address = json.loads(info.read_text())["address"]
        out = tmp_path / "out"
        proc = start_cli(many, out, address, timeout=30)
        wait_for_rows(out / ann.REPORT_NAME, proc)
        scheduler.kill()  # kill -9
        code, printed, errors, _ = ended(proc, within=60)
    finally:
        for p in (scheduler, worker):
            if p:
                p.kill()
                p.wait()
    rows = whole(out, names)
    assert code == 1, errors
    assert errors.strip().splitlines() == [
        f"seog annotate: error: lost the Dask scheduler at {address}: the games in flight were cancelled: "
        f"{len(rows)} games written, rerun to continue"]
    assert f"processed {len(rows)}, skipped 0 (written before), failed 0" in printed and 2 <= len(rows) < 40

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2,
                                  **IN_THIS_PROCESS) as cluster:
        rerun = start_cli(many, out, cluster.scheduler_address, timeout=30)
        code, printed, errors, _ = ended(rerun, within=120)
    assert code == 0, errors
    assert f"processed {40 - len(rows)}, skipped {len(rows)} (written before), failed 0" in printed
    assert "40 of 40 counted games" in printed
    assert set(whole(out, names)) == names


def test_a_dask_cluster_left_without_workers_ends_the_run_after_the_timeout(many, tmp_path, monkeypatch, distributed):
    monkeypatch.setattr(ann, "annotate_bytes", slow_annotate_bytes)  # as this process's worker reads it
    out = tmp_path / "out"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1,
                                  **IN_THIS_PROCESS) as cluster:
        proc = start_cli(many, out, cluster.scheduler_address, timeout=3)
        wait_for_rows(out / ann.REPORT_NAME, proc)
        cluster.scale(0)
        code, printed, errors, _ = ended(proc, within=60)
    rows = whole(out, {p.name for p in many.iterdir()})
    assert code == 1, errors
    assert errors.strip().splitlines() == [
        f"seog annotate: error: the Dask scheduler at {cluster.scheduler_address} has no worker left: no game "
        f"finished in 3 s (--dask-timeout): {len(rows)} games written, rerun to continue"]
    assert f"processed {len(rows)}," in printed and len(rows) < 40


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_no_scheduler_or_no_worker_at_the_start_is_an_error_before_anything_is_written(many, tmp_path, capsys, distributed):
    out = tmp_path / "out"
    address = f"tcp://127.0.0.1:{free_port()}"
    assert cli_main(["annotate", str(many), "--out", str(out), "--quiet", "--dask", address,
                     "--dask-timeout", "1"]) == 1
    assert f"seog annotate: error: --dask {address}: cannot reach the scheduler" in capsys.readouterr().err
    assert not out.exists()
    ann.annotate(many, out, limit=1, progress=False)  # an earlier report: left as it was
    before = (out / ann.REPORT_NAME).read_bytes()
    with distributed.LocalCluster(n_workers=0, **IN_THIS_PROCESS) as cluster:
        assert cli_main(["annotate", str(many), "--out", str(out), "--quiet", "--dask", cluster.scheduler_address,
                         "--dask-timeout", "1"]) == 1
    assert capsys.readouterr().err == (f"seog annotate: error: --dask {cluster.scheduler_address}: the scheduler "
                                       "has no worker (none joined in 1 s)\n")
    assert (out / ann.REPORT_NAME).read_bytes() == before


def test_dask_timeout_must_be_positive_and_defaults_to_a_minute(many, tmp_path, capsys):
    assert cli_main(["annotate", str(many), "--out", str(tmp_path / "o"), "--dask", "tcp://127.0.0.1:1",
                     "--dask-timeout", "0"]) == 1
    assert "--dask-timeout must be more than 0 seconds, got 0" in capsys.readouterr().err
    assert cli_annotate.DASK_TIMEOUT == ann.DASK_TIMEOUT == 60
    assert not (tmp_path / "o").exists()


def test_stalled_pool_and_cancelled_games_stop_pooled_after_the_results_that_came(tmp_path):
    """The pool keeps the results that finished before it stops: the same games, the same rows."""
    from concurrent import futures

    entries = [ann.archive.Entry(f"g{i}.sgf", record(TWO_WALLS).encode()) for i in range(3)]

    def submit_stuck(*args):
        return futures.Future()  # never finishes

    with pytest.raises(ann._Stalled):
        list(ann._pooled(submit_stuck, entries, ann.Options(), 2, timeout=0.2))

    def submit_cancelled(fn, games, options):
        fut = futures.Future()
        if games[0][0] == "g1.sgf":  # as distributed's executor cancels a game its scheduler lost
            fut.cancel()
            fut.set_running_or_notify_cancel()
        else:
            fut.set_result(fn(games, options))
        return fut

    got = []
    with pytest.raises(ann._Cancelled):
        for row, _ in ann._pooled(submit_cancelled, entries, ann.Options(), 3, timeout=5):
            got.append(row.name)
    assert sorted(got) == ["g0.sgf", "g2.sgf"]
