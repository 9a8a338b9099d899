"""Batch annotation: score every game of an SGF archive and write a marked copy of each.

Each output game carries the territory marks TB/TW the way KGS writes them (a side's marks cover
its territory *and* the points of the opponent's dead stones), the computed RE, and a comment with
the rules, the recorded result and the blocks the model was unsure of. The input is only read.

The work is one pure function per game (``annotate_bytes``: name and SGF bytes in, a report row
and SGF bytes out), so the same function runs inline, in a process pool or on a Dask cluster;
only the calling process writes files, each through a temporary file and ``os.replace``, so an
interrupted run leaves whole files only and a rerun skips the games already written. The report
gets each row as its game finishes, after its copy; a copy a run killed outright left without a
row is scored again by the rerun, which also removes the temporary files such a run left. A full
disk stops the run at once (``DiskFull``), and so does a Dask cluster that stops doing the games
(``DaskLost``). A damaged tarball is annotated up to the damage, and the summary says where it is cut.
"""

from __future__ import annotations

import csv
import dataclasses
import errno
import glob
import io
import logging
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from seog import folders
from seog.datasets import archive
from seog.features import sgf
from seog.scoring.annotated import annotated_sgf
from seog.scoring.count import FAR_FROM_RECORD
from seog.scoring.result import FitOutcome, parse_result, same_result

REPORT_NAME = "annotate-report.csv"
COLUMNS = ("name", "status", "recorded", "result", "agree", "uncertain", "error", "finished", "unfinished",
           "record_fit")
OLD_COLUMNS = COLUMNS[:7]  # a report without the finished columns: read, then rewritten with COLUMNS
EARLIER_COLUMNS = (OLD_COLUMNS, COLUMNS[:9])  # and one without record_fit
ANNOTATED, SKIPPED, FAILED = "annotated", "skipped", "failed"
PENDING = "pending"  # not settled yet: never written to the report
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)  # handled like Ctrl-C: the run stops, the report stays
WORKER_DIED = "a worker process died (out of memory, or killed?); a rerun retries this game"
DASK_TIMEOUT = 60.0  # seconds: reaching the scheduler, and the longest wait for a game to finish on it
POOL_CHUNK = 8  # games a task of a local pool takes at most: handing work over costs a fifth of a game
LEFTOVER = re.compile(r"\..+\.[0-9]+\.part")  # write_atomic's temporary files: .NAME.PID.part
DISK_FULL = {errno.ENOSPC: "disk full", errno.EDQUOT: "disk quota exceeded", errno.EROFS: "read-only file system"}


class Interrupted(KeyboardInterrupt):
    """The run was stopped by Ctrl-C, SIGTERM or SIGHUP (``signum``); ``summary`` covers the games
    settled before it, and the report on disk holds them."""

    def __init__(self, signum: int, summary: Summary | None = None):
        super().__init__(signal.Signals(signum).name)
        self.signum, self.summary = signum, summary


class DiskFull(OSError):
    """Writing ``path`` failed for want of space (or quota, or on a read-only disk): the run stops,
    since every later game would fail the same way. What is on disk is whole; ``summary`` covers
    the games settled before."""

    def __init__(self, path: Path, errnum: int, summary: Summary | None = None):
        written = summary.count(ANNOTATED) if summary else 0
        super().__init__(f"{DISK_FULL.get(errnum, os.strerror(errnum))} writing {path}: {written} "
                         f"game{'s' if written != 1 else ''} written, rerun to continue")
        self.errno, self.path, self.summary = errnum, path, summary


def disk_full(exc: BaseException, path: Path) -> DiskFull | None:
    """``exc`` as DiskFull naming ``path`` when it says the disk is full, else None."""
    return DiskFull(path, exc.errno) if isinstance(exc, OSError) and exc.errno in DISK_FULL else None


class DaskLost(RuntimeError):
    """The Dask cluster stopped doing the games (``why``: its scheduler lost, no worker left, no
    game finished for ``--dask-timeout`` seconds): the run stops. What is on disk is whole;
    ``summary`` covers the games settled before, and a rerun does the rest."""

    def __init__(self, why: str, summary: Summary | None = None):
        written = summary.count(ANNOTATED) if summary else 0
        super().__init__(f"{why}: {written} game{'s' if written != 1 else ''} written, rerun to continue")
        self.why, self.summary = why, summary


class DamagedReport(ValueError):
    """An existing report file that cannot be read as one (undecodable bytes, other columns)."""


@dataclass(frozen=True)
class Options:
    """How to score each game: ``rules`` overrides the file's RU; ``use_markup`` counts with the
    file's own TB/TW dead stones where it has them; ``model`` is 'default' or None (heuristic);
    ``unfinished``: a record without a counted result (no RE, or one like ``RE[?]``) is a game not
    counted (stopped, or still going), read as a position that is not finished; ``ignore_result``:
    read blind, a record's counted RE left out of deciding the dead stones."""

    rules: str | None = None
    use_markup: bool = False
    model: str | None = "default"
    unfinished: bool = False
    ignore_result: bool = False


@dataclass
class Row:
    """One line of the CSV report. ``agree``: our result equals the recorded counted result
    (None when the record has no counted result to compare with). ``finished``: the position is
    a finished one (None: not known, a failed game or a report without the column); when not, the
    count is an estimate and ``unfinished`` says why (the record's RE, open borders).
    ``record_fit``: what the record's counted result did to the reading (``FitOutcome``: agrees,
    settled, no fit, ambiguous; '' when it gave none, or was ignored)."""

    name: str
    status: str
    recorded: str = ""
    result: str = ""
    agree: bool | None = None
    uncertain: int = 0
    error: str = ""
    finished: bool | None = None
    unfinished: str = ""
    record_fit: str = ""

    def as_csv(self) -> dict:
        # the fields are plain values: no deep copy (``dataclasses.asdict``), which cost the main
        # process more than writing the row
        return {**vars(self), "agree": _yes_no(self.agree), "finished": _yes_no(self.finished)}

    @classmethod
    def from_csv(cls, row: dict) -> Row:
        yes_no = {"yes": True, "no": False}
        uncertain = int(row["uncertain"]) if (row.get("uncertain") or "").isdigit() else 0
        return cls(row.get("name", ""), row.get("status", ""), row.get("recorded", ""),
                   row.get("result", ""), yes_no.get(row.get("agree", "")), uncertain, row.get("error", ""),
                   yes_no.get(row.get("finished") or ""), row.get("unfinished") or "", row.get("record_fit") or "")


def _yes_no(value: bool | None) -> str:
    return "" if value is None else ("yes" if value else "no")


@dataclass
class Summary:
    """The outcome of a run: one row per game of the input, the wall time and where it ran."""

    rows: list[Row] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    dask: str | None = None
    report: Path | None = None
    notes: list[str] = field(default_factory=list)
    cut: str = ""  # a damaged tarball: where it is cut (the games after it were not read)

    @property
    def ran_on(self) -> str:
        if self.dask:
            return f"on Dask at {self.dask}"
        return f"{self.workers} worker{'s' if self.workers != 1 else ''}"

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.rows)

    @property
    def compared(self) -> list[Row]:
        """Rows with a counted recorded result and our result (this run's and earlier runs')."""
        return [r for r in self.rows if r.agree is not None]

    @property
    def same_winner(self) -> int:
        return sum(parse_result(r.recorded).winner == parse_result(r.result).winner for r in self.compared)

    @property
    def far_from_record(self) -> list[Row]:
        """Counted games whose count lies more than ``FAR_FROM_RECORD`` points from the recorded
        result: a group read wrong or a result agreed otherwise, the first copies to look at. Like
        the agreement line it compares whatever rules were counted by; the copy's own flag
        (``Score.far_from_record``) holds only under the record's rules and komi."""
        return [r for r in self.compared
                if abs(parse_result(r.result).margin - parse_result(r.recorded).margin) > FAR_FROM_RECORD]

    @property
    def disagreeing(self) -> list[Row]:
        """Counted games whose blind count is not the recorded result (``record_fit``): settled by
        it, or left to a person."""
        return [r for r in self.rows if r.record_fit and r.record_fit != FitOutcome.AGREES]

    @property
    def not_finished(self) -> int:
        """Games whose position is not a finished one: their count is an estimate."""
        return sum(r.finished is False for r in self.rows)

    @property
    def left_out(self) -> list[Row]:
        """Skipped rows with a reason: links not followed, names stored twice, clashing copies."""
        return [r for r in self.rows if r.status == SKIPPED and r.error]

    def lines(self) -> list[str]:
        done = self.count(ANNOTATED)
        rate = done / self.seconds if self.seconds > 0 else 0.0
        left_out = self.left_out
        more = f" and {len(left_out)} not read (see below)" if left_out else ""
        out = [*self.notes,
               (f"processed {done}, skipped {self.count(SKIPPED) - len(left_out)} (written before){more}, "
                f"failed {self.count(FAILED)} in {self.seconds:.1f} s "
                f"({rate:.1f} games/s, {self.ran_on})")]
        compared = self.compared
        if compared:
            agree = sum(r.agree for r in compared)
            out.append(f"agreement with the recorded result: {agree} of {len(compared)} counted games "
                       f"({100 * agree / len(compared):.1f}%), same winner in {self.same_winner}")
            if far := self.far_from_record:
                out.append(f"counted more than {FAR_FROM_RECORD:g} points from the recorded result: {len(far)} "
                           f"game{'s' if len(far) != 1 else ''} (look at these first): "
                           + ", ".join(r.name for r in far[:5]) + (", ..." if len(far) > 5 else ""))
        else:
            out.append("agreement with the recorded result: no counted result to compare with")
        if fitted := self.disagreeing:
            settled = sum(r.record_fit == FitOutcome.SETTLED for r in fitted)
            out.append(f"the blind reading and the recorded result disagree on {len(fitted)} counted "
                       f"game{'s' if len(fitted) != 1 else ''}: the recorded result settled {settled}, "
                       f"{len(fitted) - settled} left to a person (no reading in reach gives it; record_fit "
                       "column)")
        if self.not_finished:
            n = self.not_finished
            out.append(f"not a finished position: {n} game{'s' if n != 1 else ''}, whose count is an estimate "
                       "of the board as it stands (the report's unfinished column says why)")
        out += [f"skipped: {r.name}: {r.error}" for r in left_out]
        out += [f"failed: {r.name}: {r.error}" for r in self.rows if r.status == FAILED]
        if self.report:
            out.append(f"report: {self.report}")
        return out


# ---- one game ------------------------------------------------------------------------------

def annotate_bytes(name: str, data: bytes, options: Options = Options()) -> tuple[Row, bytes | None]:
    """Score one SGF file; never raises for a bad file: the row says what went wrong."""
    from seog.scoring.request import SAID_UNFINISHED_CLI, from_game
    from seog.scoring.score import score

    try:
        game = sgf.loads(data)
        use_markup = options.use_markup and game.has_markup
        note = "Dead stones from the file's own marks." if use_markup else (
            "The file has no marks; dead stones were decided." if options.use_markup else "")
        said = SAID_UNFINISHED_CLI if options.unfinished and not parse_result(game.recorded).counted else ""
        counted = score(from_game(game, rules=options.rules, use_markup=use_markup, said_unfinished=said,
                                  ignore_result=options.ignore_result), options.model)
        out = annotated_sgf(game, counted, note)
    except (ValueError, RecursionError) as exc:  # SgfError, IllegalPosition, UnknownRules, ...
        return Row(name, FAILED, error=str(exc) or type(exc).__name__), None
    except Exception as exc:  # noqa: BLE001 - a bug must not stop a long run; the report names it
        return Row(name, FAILED, error=f"{type(exc).__name__}: {exc}"), None
    recorded = game.recorded
    agree = same_result(recorded, counted.result) if parse_result(recorded).counted else None
    return Row(name, ANNOTATED, recorded, counted.result, agree, len(counted.uncertain_blocks),
               finished=counted.finished, unfinished=counted.unfinished,
               record_fit=str(counted.record_fit or "")), out


def annotate_games(games: list[tuple[str, bytes]], options: Options = Options()) -> list[tuple[Row, bytes | None]]:
    """``annotate_bytes`` for each (name, SGF bytes): one task of a pool, so that a few games
    share the cost of handing work to a process and back."""
    return [annotate_bytes(name, data, options) for name, data in games]


# ---- files -----------------------------------------------------------------------------------

def check_paths(source: Path, out: Path) -> None:
    """Refuse an output folder that is the input or inside it, or that is a file."""
    src, dst = source.resolve(), out.resolve()
    if not src.exists():
        raise FileNotFoundError(f"{source}: no such file or folder")
    if src.is_dir() and (dst == src or dst.is_relative_to(src)):
        raise ValueError(f"--out {out} is inside the input folder {source}: choose a folder outside it")
    if dst.exists() and not dst.is_dir():
        raise ValueError(f"--out {out} exists and is not a folder")


def output_path(out: Path, name: str) -> Path:
    """Where the copy of archive member ``name`` goes; refuses names that would leave ``out``."""
    parts = PurePosixPath(name).parts
    if not parts or PurePosixPath(name).is_absolute() or ".." in parts:
        raise ValueError(f"{name!r}: unsafe name in the archive (absolute or with '..')")
    return out.joinpath(*parts)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a hidden temporary file beside ``path``, then rename it into place; a
    full disk raises DiskFull naming ``path``, and nothing is left of the temporary file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        try:
            fh = open(tmp, "wb")
        except FileNotFoundError:  # the first copy into this folder makes it
            path.parent.mkdir(parents=True, exist_ok=True)
            fh = open(tmp, "wb")
        with fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        tmp.unlink(missing_ok=True)
        if full := disk_full(exc, path):
            raise full from exc
        raise


def read_report(path: Path) -> dict[str, Row]:
    """The rows of an earlier run's report by name, the last row of a name winning (a run appends
    each row as its game finishes); empty when there is no report yet. A report of the first
    seven columns only (``OLD_COLUMNS``) or nine is read too, the columns it lacks unknown; a line cut
    short is left out. A file that is not a report raises DamagedReport rather than being taken
    for an empty one and written over."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    try:
        reader = csv.DictReader(io.StringIO(data.decode("utf-8"), newline=""))
        if data and tuple(reader.fieldnames or ()) not in (COLUMNS, *EARLIER_COLUMNS):
            raise DamagedReport(f"its first line is not the report's header {','.join(COLUMNS)}")
        return {r["name"]: Row.from_csv(r) for r in reader
                if r.get("name") and r.get("status") in (ANNOTATED, SKIPPED, FAILED)
                and None not in r.values() and None not in r}
    except (UnicodeDecodeError, csv.Error) as exc:
        raise DamagedReport(str(exc)) from None


def earlier_rows(path: Path) -> tuple[dict[str, Row], list[str]]:
    """An earlier run's rows and notes for the summary. A damaged report is renamed
    ``<report>.damaged`` (nothing is lost) and the run starts a fresh one."""
    try:
        return read_report(path), []
    except DamagedReport as exc:
        aside = folders.set_aside(path)
        return {}, [f"{path} could not be read as a report ({exc}): kept as {aside}; a fresh report is started"]


def report_rows(earlier: dict[str, Row], rows: dict[str, Row]) -> list[Row]:
    """The report: this run's settled rows over the earlier report's, so a rerun on fewer names
    (a smaller --limit, another input into the same --out) keeps the other rows; by name."""
    merged = {**earlier, **{name: r for name, r in rows.items() if r.status != PENDING}}
    return [merged[name] for name in sorted(merged)]


def csv_lines(rows: Iterable[Row], header: bool = False) -> bytes:
    """Report lines for ``rows`` (UTF-8), after the header if asked."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(row.as_csv() for row in rows)
    return buffer.getvalue().encode("utf-8")


def write_report(rows: Iterable[Row], path: Path) -> None:
    write_atomic(path, csv_lines(rows, header=True))


def remove_leftovers(out: Path, report: Path) -> int:
    """Remove the temporary files (``.NAME.PID.part``) a run killed outright left in ``out`` and
    beside the report; the run's lock on ``out`` says no other run is writing them. Returns how many."""
    found = [Path(folder, name) for folder, _, names in os.walk(out) for name in names if LEFTOVER.fullmatch(name)]
    if report.parent.resolve() != out.resolve() and report.parent.is_dir():
        found += [p for p in report.parent.glob(f".{glob.escape(report.name)}.*.part") if LEFTOVER.fullmatch(p.name)]
    for path in found:
        path.unlink(missing_ok=True)
    return len(found)


@contextmanager
def appending(path: Path) -> Iterator[Callable[[Row], None]]:
    """A function that adds one row to the end of the report, whole or not at all: a write that
    fails (a full disk raises DiskFull) or is interrupted is cut off again, so no torn line is left."""
    with open(path, "ab", buffering=0) as fh:

        def append(row: Row) -> None:
            end = fh.seek(0, os.SEEK_END)
            try:
                line = memoryview(csv_lines([row]))
                while line:
                    line = line[fh.write(line):]
            except BaseException as exc:
                fh.truncate(end)
                if full := disk_full(exc, path):
                    raise full from exc
                raise

        yield append


# ---- the run ---------------------------------------------------------------------------------

def plan(names: list[str], out: Path, earlier: dict[str, Row],
         skipped: dict[str, str]) -> tuple[dict[str, Row], list[str]]:
    """A row for every name and the names to score: a copy already written is skipped, keeping
    what the earlier report found, unless the report has no result for it (a run killed between
    the copy and its row): that game is scored again. An unsafe name fails, and a name whose copy
    would land on another's (``a/./b.sgf`` and ``a/b.sgf``) is skipped with that reason."""
    rows = {name: Row(name, PENDING) for name in names}
    claimed: dict[Path, str] = {}
    # A name already in its plain form claims its output path first.
    for name in sorted(names, key=lambda n: "/".join(PurePosixPath(n).parts) != n):
        try:
            target = output_path(out, name)
        except ValueError as exc:
            rows[name] = Row(name, FAILED, error=str(exc))
            continue
        if target in claimed:
            rows[name] = Row(name, SKIPPED, error=f"its copy would be the same file as the copy of "
                                                  f"{claimed[target]}, not read")
            continue
        claimed[target] = name
        before = earlier.get(name)
        if before and before.result and target.exists():
            rows[name] = dataclasses.replace(before, status=SKIPPED)
    rows.update((name, Row(name, SKIPPED, error=why)) for name, why in skipped.items())
    return rows, [name for name, r in rows.items() if r.status == PENDING]


def annotate(source: str | Path, out: str | Path, *, workers: int = 1, options: Options = Options(),
             dask: str | None = None, limit: int | None = None, report: str | Path | None = None,
             progress: bool = True, dask_timeout: float = DASK_TIMEOUT) -> Summary:
    """Annotate every SGF game of ``source`` (folder or tarball) into ``out``.

    ``workers`` processes (1: in this process; never more than the games to do), or the Dask
    scheduler at ``dask``; ``limit`` takes the first N names only. Games whose copy and row exist
    are skipped. The CSV report (default ``out/annotate-report.csv``) keeps the earlier rows and
    gets each game's row as it finishes. Ctrl-C, SIGTERM and SIGHUP, from the listing on, raise
    Interrupted; a full disk raises DiskFull; a Dask scheduler lost, or no game finished on it for
    ``dask_timeout`` seconds, raises DaskLost; all three carry the summary. A scheduler not reached,
    or without a worker, in ``dask_timeout`` seconds is a ValueError before anything is written.
    A damaged tarball's games before the damage are annotated and ``Summary.cut`` says where it is cut.
    """
    source, out = Path(source), Path(out)
    check_paths(source, out)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    if not dask_timeout > 0:
        raise ValueError(f"--dask-timeout must be more than 0 seconds, got {dask_timeout:g}")
    report_path = Path(report) if report else out / REPORT_NAME
    if report:
        archive.check_output_file("--report", report_path, [source])
    if report_path.is_dir():
        raise ValueError(f"--report {report_path} is a folder: name a .csv file")
    with _stop_on_signals():  # listing a large tarball takes a while: a signal then stops the run as later
        try:
            found = _listing(source)
            with _dask_cluster(dask, dask_timeout) as cluster, _claimed(out):  # two runs into one folder
                _report_folder(report_path)                                    # would score every game twice
                return _annotate(source, out, found, workers, options, cluster, limit, report_path, progress)
        except Interrupted:
            raise
        except KeyboardInterrupt:  # Ctrl-C before the games started
            raise Interrupted(signal.SIGINT) from None


@contextmanager
def _claimed(out: Path) -> Iterator[None]:
    """Create ``out`` and hold the run's lock on it while the block runs. A full or read-only disk
    there stops the run as a full disk does later (DiskFull, naming the folder or lock file it could
    not create), and a folder seog may not write in (or under a file) is named, rather than a bare OSError."""
    with ExitStack() as stack:
        try:
            stack.enter_context(folders.claimed(out, "annotate"))
        except PermissionError:
            raise ValueError(f"--out {out}: no permission to write there") from None
        except OSError as exc:
            if full := disk_full(exc, Path(exc.filename or out)):
                raise full from exc
            raise folders.cannot_write("--out", out, exc) from None
        yield


def _report_folder(path: Path) -> None:
    """Create the report's folder (its first write would), so that a --report seog cannot write
    there is named before any game runs, rather than a bare OSError; a full disk stops the run."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if full := disk_full(exc, path.parent):
            raise full from exc
        raise folders.cannot_write("--report", path, exc) from None


def _listing(source: Path) -> archive.Listing:
    """The games of ``source``; an input without any, or a tarball unreadable from its start, is a ValueError."""
    try:
        found = archive.listing(source, keep=archive.KEEP_BYTES)
    except (FileNotFoundError, ValueError):
        raise
    except archive.ERRORS as exc:
        raise ValueError(f"{source}: cannot list the archive (damaged or not a tarball?): {exc}") from None
    if not found.games:
        raise ValueError(found.cut or f"{source}: no SGF games found (.sgf files in a folder or a tarball)")
    return found


def _annotate(source: Path, out: Path, found: archive.Listing, workers: int, options: Options,
              cluster: DaskCluster | None, limit: int | None, report_path: Path, progress: bool) -> Summary:
    """The run itself, under the lock on ``out`` and with the stop signals handled."""
    earlier, notes = earlier_rows(report_path)
    if removed := remove_leftovers(out, report_path):
        notes.append(f"removed {removed} temporary file{'s' if removed != 1 else ''} left by a run that was killed")
    rows, todo = plan(found.games[:limit], out, earlier, found.skipped)
    again = sum(output_path(out, name).exists() for name in todo)
    if again:
        notes.append(f"{again} cop{'ies' if again != 1 else 'y'} written before had no result in the report "
                     "(a run killed between a copy and its row, or a fresh report): scored again")
    workers = min(workers, max(1, len(todo)))

    summary = Summary(workers=workers, dask=cluster and cluster.address, report=report_path, notes=notes,
                      cut=found.cut)
    start = time.perf_counter()
    bar = _progress(len(todo), sum(r.status == SKIPPED and not r.error for r in rows.values()), progress)
    stopped = full = lost = None
    results = _run(source, todo, options, workers, cluster, found)
    try:
        write_report(report_rows(earlier, rows), report_path)
        with appending(report_path) as append:
            for row, data in results:
                with _signals_held():
                    row = _keep(out, row, data, append)
                    rows[row.name] = row
                bar.update(1)
                if row.status == FAILED:
                    bar.set_postfix(failed=sum(r.status == FAILED for r in rows.values()), refresh=False)
    except KeyboardInterrupt as exc:
        stopped = getattr(exc, "signum", signal.SIGINT)
    except DiskFull as exc:
        full = exc
    except DaskLost as exc:
        lost = exc
    except archive.ArchiveCut as exc:  # damage the listing did not meet: the games before it are done
        summary.cut = str(exc)
    finally:
        results.close()
        bar.close()
        summary.seconds = time.perf_counter() - start
        summary.rows = [r for r in rows.values() if r.status != PENDING]
        try:
            write_report(report_rows(earlier, rows), report_path)
        except DiskFull as exc:  # the report as appended holds every row: it stays
            full = full or exc
    if stopped is not None:
        raise Interrupted(stopped, summary)
    if full is not None:
        raise DiskFull(full.path, full.errno, summary) from full.__cause__
    if lost is not None:
        raise DaskLost(lost.why, summary) from None
    return summary


def _keep(out: Path, row: Row, data: bytes | None, append: Callable[[Row], None]) -> Row:
    """Write a game's copy and add its row to the report; return the row. A copy that cannot be
    written fails its game, but a full disk stops the run (DiskFull); a copy whose row cannot be
    added is removed again, so that every copy has its row and a rerun redoes the game."""
    path = None if data is None else output_path(out, row.name)
    if path is not None:
        try:
            write_atomic(path, data)
        except DiskFull:
            raise
        except OSError as exc:
            row, path = dataclasses.replace(row, status=FAILED, error=f"cannot write: {exc}"), None
    try:
        append(row)
    except BaseException:
        if path is not None:
            path.unlink(missing_ok=True)
        raise
    return row


@contextmanager
def _signals_held():
    """Ctrl-C, SIGTERM and SIGHUP wait while a game's copy, its report row and the run's tally are
    written, and stop the run once they are: a stop lands between two games, never between a copy
    and its row (where the report rewritten at the end would lose the row). Their handlers only
    note the signal meanwhile (a signal mask would not do: Python runs a handler in the main thread
    whichever thread the signal reaches, a pool's or tqdm's)."""
    if threading.current_thread() is not threading.main_thread():  # no handler runs here
        yield
        return
    caught: list[int] = []
    held = {s: h for s in (signal.SIGINT, *STOP_SIGNALS) if callable(h := signal.getsignal(s))}
    for s in held:
        signal.signal(s, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for s, handler in held.items():
            signal.signal(s, handler)
    if caught:
        held[caught[0]](caught[0], None)


@contextmanager
def _stop_on_signals():
    """SIGTERM (a scheduler's time limit, ``kill``) and SIGHUP (a dropped ssh connection) stop the run
    as Ctrl-C does. A signal already ignored (``nohup``) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    for s, handler in before.items():
        if handler == signal.SIG_DFL:
            signal.signal(s, _raise_interrupted)
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)


def _raise_interrupted(signum, frame):
    raise Interrupted(signum)


def _progress(total: int, skipped: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc="annotating" + (f" ({skipped} done before)" if skipped else ""),
                disable=not enabled, dynamic_ncols=True, smoothing=0.1)


def _entries(source: Path, todo: list[str], found: archive.Listing | None = None) -> Iterator[archive.Entry]:
    """The archive entries named in ``todo``, stopping as soon as all have been read; a damaged
    tarball raises ArchiveCut after the entries before the damage. ``found``: its listing."""
    wanted = set(todo)
    if not wanted:
        return
    reader = archive.read(source, wanted, found)
    try:
        for entry in reader:
            yield entry
            wanted.discard(entry.name)
            if not wanted:
                break
    finally:
        reader.close()


def _run(source: Path, todo: list[str], options: Options, workers: int, cluster: DaskCluster | None,
         found: archive.Listing | None = None) -> Iterator[tuple[Row, bytes | None]]:
    """Results in completion order: inline, in a process pool, or on a Dask cluster."""
    entries = _entries(source, todo, found)
    if cluster:
        yield from _run_dask(entries, options, cluster)
    elif workers == 1:
        for entry in entries:
            yield _unread(entry) or annotate_bytes(entry.name, entry.data, options)
    else:
        yield from _run_pool(entries, options, workers, pool_chunk(len(todo), workers))


def pool_chunk(games: int, workers: int) -> int:
    """Games per task of a local pool: up to ``POOL_CHUNK``, fewer when a run is short, so that
    every worker has some 16 tasks to take."""
    return max(1, min(POOL_CHUNK, games // (16 * workers)))


def _run_pool(entries, options: Options, workers: int, chunk: int = 1):
    """``_pooled`` on local worker processes, ``chunk`` games a task. A worker that dies (out of
    memory, killed) breaks the pool: the games it held become failed rows and the run goes on in
    a fresh pool."""
    _preload(options)
    pool = _new_pool(workers)

    def submit(*args):
        nonlocal pool
        try:
            return pool.submit(*args)
        except BrokenProcessPool:
            pool.shutdown(wait=True)
            pool = _new_pool(workers)
            return pool.submit(*args)

    try:
        yield from _pooled(submit, entries, options, 4 * workers, chunk=chunk)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _preload(options: Options) -> None:
    """Import the scoring modules and load the model in this process before the pool starts, so
    that forked workers inherit them instead of each paying for them."""
    import seog.scoring.request  # noqa: F401 - imported for the workers to inherit
    from seog.scoring import score

    if options.model == score.DEFAULT:
        score.default_model()


def _new_pool(workers: int) -> futures.ProcessPoolExecutor:
    return futures.ProcessPoolExecutor(max_workers=workers, initializer=_start_worker)


def _unread(entry: archive.Entry) -> tuple[Row, None] | None:
    """The failed row of a file that could not be read, else None."""
    return (Row(entry.name, FAILED, error=entry.error), None) if entry.error else None


def _start_worker() -> None:
    """Workers leave Ctrl-C and hangups to the parent, which stops the run and writes the report
    (SIGTERM keeps its default: the pool ends broken workers with it), and end themselves when
    the parent is gone (killed with -9), which their task queue would never tell them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler, inherited by fork
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()


def _exit_when_orphaned(parent: int, every: float = 0.5) -> None:
    """Exit once this process's parent is no longer ``parent`` (it died; the worker was adopted)."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


@dataclass(frozen=True)
class DaskCluster:
    """A connected Dask client, the scheduler's address and the run's ``--dask-timeout``."""

    client: object
    address: str
    timeout: float


@contextmanager
def _dask_cluster(address: str | None, timeout: float) -> Iterator[DaskCluster | None]:
    """The Dask scheduler at ``address`` (None without one), reached with a worker before anything
    is written: no answer, or no worker, in ``timeout`` seconds is a ValueError naming it."""
    if not address:
        yield None
        return
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'seog[dask]'") from None
    with _distributed_errors_only():
        try:
            client = Client(address, timeout=timeout)  # also how long it tries to reconnect once connected
        except (OSError, ValueError) as exc:
            raise ValueError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
        try:
            try:
                client.wait_for_workers(1, timeout=timeout)
            except TimeoutError:
                raise ValueError(f"--dask {address}: the scheduler has no worker (none joined in {timeout:g} s)") from None
            yield DaskCluster(client, address, timeout)
        finally:
            _close(client)


@contextmanager
def _distributed_errors_only() -> Iterator[None]:
    """Keep distributed's client-side log to its errors while the run uses it: its notes on a
    connection closed (with a traceback) or a result rescheduled would bury the run's own message."""
    loggers = [logging.getLogger(name) for name in ("distributed", "distributed.client")]
    levels = [logger.level for logger in loggers]
    for logger, level in zip(loggers, levels):
        logger.setLevel(max(level, logging.ERROR))
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def _close(client) -> None:
    """Close a Dask client without the tracebacks distributed and tornado log when it closes
    with games still in flight or its scheduler lost, so that the run's own error is the one message."""
    disabled = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        client.close(timeout=10)
    except Exception:  # noqa: BLE001 - closing a client already lost must not hide why the run stopped
        pass
    finally:
        logging.disable(disabled)


class _Cancelled(Exception):
    """The pool cancelled games in flight (a Dask scheduler lost or restarted)."""


class _Stalled(Exception):
    """No game finished within the pool's time limit."""


def _run_dask(entries, options: Options, cluster: DaskCluster):
    """``_pooled`` on a Dask cluster: a scheduler lost stops the run at once, and so does no game
    finished for ``cluster.timeout`` seconds (no worker left), both as DaskLost."""
    client, address, timeout = cluster.client, cluster.address, cluster.timeout
    executor = client.get_executor(pure=False)
    n = max(1, sum(client.nthreads().values()))

    def submit(*args):
        if client.status != "running":
            raise DaskLost(f"lost the Dask scheduler at {address}")
        try:
            return executor.submit(*args)
        except Exception:
            if client.status != "running":
                raise DaskLost(f"lost the Dask scheduler at {address}") from None
            raise

    try:
        yield from _pooled(submit, entries, options, 4 * n, timeout)
    except _Cancelled:
        raise DaskLost(f"lost the Dask scheduler at {address}: the games in flight were cancelled") from None
    except _Stalled:
        raise DaskLost(_stalled(client, address, timeout)) from None


def _stalled(client, address: str, timeout: float) -> str:
    """Why no game finished on the cluster for ``timeout`` seconds, as far as the scheduler says."""
    waited = f"no game finished in {timeout:g} s (--dask-timeout)"
    if client.status != "running":
        return f"lost the Dask scheduler at {address}: {waited}"
    try:
        workers = client.nthreads(callback_timeout=min(timeout, 10))
    except Exception:  # noqa: BLE001 - the scheduler does not answer: that is the news
        return f"lost the Dask scheduler at {address}: {waited}, and it does not answer"
    if not workers:
        return f"the Dask scheduler at {address} has no worker left: {waited}"
    return (f"{waited} on the Dask cluster at {address}, which has {len(workers)} worker"
            f"{'s' if len(workers) != 1 else ''}: stuck or busy with other work (a longer --dask-timeout waits for them)")


def _pooled(submit: Callable, entries, options: Options, in_flight: int, timeout: float | None = None,
            chunk: int = 1):
    """Keep at most ``in_flight`` tasks of up to ``chunk`` games submitted; yield each game's
    result as its task completes. No task finished in ``timeout`` seconds raises _Stalled, a task
    cancelled _Cancelled (after the results that came with it)."""
    pending: dict[futures.Future, list[str]] = {}
    entries = iter(entries)
    exhausted, cut = False, None
    while pending or not exhausted:
        while not exhausted and len(pending) < in_flight:
            games = []
            while len(games) < chunk:
                try:
                    entry = next(entries, None)
                except archive.ArchiveCut as exc:  # the games in flight, read before the damage, still finish
                    entry, cut = None, exc
                if entry is None:
                    exhausted = True
                    break
                if entry.error:
                    yield _unread(entry)
                    continue
                games.append((entry.name, entry.data))
            if games:
                pending[submit(annotate_games, games, options)] = [name for name, _ in games]
        if not pending:
            break
        done, _ = futures.wait(pending, timeout=timeout, return_when=futures.FIRST_COMPLETED)
        if not done:
            raise _Stalled
        cancelled = False
        for fut in done:
            names = pending.pop(fut)
            try:
                yield from fut.result()
            except futures.CancelledError:
                cancelled = True
            except BrokenProcessPool:
                for name in names:
                    yield Row(name, FAILED, error=WORKER_DIED), None
            except Exception as exc:  # noqa: BLE001 - a worker that failed otherwise: a rerun retries
                for name in names:
                    yield Row(name, FAILED, error=f"worker failed: {type(exc).__name__}: {exc}"), None
        if cancelled:
            raise _Cancelled
    if cut:
        raise cut
