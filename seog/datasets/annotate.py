"""Batch annotation: score every game of an SGF archive and write a marked copy of each.

Each output game carries the territory marks TB/TW the way KGS writes them (a side's marks cover
its territory *and* the points of the opponent's dead stones), the computed RE, and a comment with
the rules, the recorded result and the blocks the model was unsure of. The input is only read.

The work is one pure function per game (``annotate_bytes``: name and SGF bytes in, a report row
and SGF bytes out), so the same function runs inline, in a process pool or on a Dask cluster;
only the calling process writes files, each through a temporary file and ``os.replace``, so an
interrupted run leaves whole files only and a rerun skips the games already written.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import lzma
import os
import signal
import tarfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from seog.datasets import archive
from seog.features import sgf
from seog.scoring.annotated import annotated_sgf
from seog.scoring.result import parse_result, same_result

REPORT_NAME = "annotate-report.csv"
COLUMNS = ("name", "status", "recorded", "result", "agree", "uncertain", "error")
ANNOTATED, SKIPPED, FAILED = "annotated", "skipped", "failed"
ARCHIVE_ERRORS = (tarfile.TarError, EOFError, lzma.LZMAError, zlib.error, OSError)


@dataclass(frozen=True)
class Options:
    """How to score each game: ``rules`` overrides the file's RU; ``use_markup`` counts with the
    file's own TB/TW dead stones where it has them; ``model`` is 'default' or None (heuristic)."""

    rules: str | None = None
    use_markup: bool = False
    model: str | None = "default"


@dataclass
class Row:
    """One line of the CSV report. ``agree``: our result equals the recorded counted result
    (None when the record has no counted result to compare with)."""

    name: str
    status: str
    recorded: str = ""
    result: str = ""
    agree: bool | None = None
    uncertain: int = 0
    error: str = ""

    def as_csv(self) -> dict:
        agree = "" if self.agree is None else ("yes" if self.agree else "no")
        return {**dataclasses.asdict(self), "agree": agree}

    @classmethod
    def from_csv(cls, row: dict) -> Row:
        agree = {"yes": True, "no": False}.get(row.get("agree", ""))
        uncertain = int(row["uncertain"]) if (row.get("uncertain") or "").isdigit() else 0
        return cls(row.get("name", ""), row.get("status", ""), row.get("recorded", ""),
                   row.get("result", ""), agree, uncertain, row.get("error", ""))


@dataclass
class Summary:
    """The outcome of a run: one row per game of the input, the wall time and where it ran."""

    rows: list[Row] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1
    dask: str | None = None
    report: Path | None = None

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

    def lines(self) -> list[str]:
        done = self.count(ANNOTATED)
        rate = done / self.seconds if self.seconds > 0 else 0.0
        out = [(f"processed {done}, skipped {self.count(SKIPPED)} (written before), "
               f"failed {self.count(FAILED)} in {self.seconds:.1f} s "
               f"({rate:.1f} games/s, {self.ran_on})")]
        compared = self.compared
        if compared:
            agree = sum(r.agree for r in compared)
            out.append(f"agreement with the recorded result: {agree} of {len(compared)} counted games "
                       f"({100 * agree / len(compared):.1f}%), same winner in {self.same_winner}")
        else:
            out.append("agreement with the recorded result: no counted result to compare with")
        for r in self.rows:
            if r.status == FAILED:
                out.append(f"failed: {r.name}: {r.error}")
        if self.report:
            out.append(f"report: {self.report}")
        return out


# ---- one game ------------------------------------------------------------------------------

def annotate_bytes(name: str, data: bytes, options: Options = Options()) -> tuple[Row, bytes | None]:
    """Score one SGF file; never raises for a bad file: the row says what went wrong."""
    from seog.scoring.score import score_game

    try:
        game = sgf.loads(data)
        use_markup = options.use_markup and game.has_markup
        note = "Dead stones from the file's own marks." if use_markup else (
            "The file has no marks; dead stones were decided." if options.use_markup else "")
        score = score_game(game, rules=options.rules, use_markup=use_markup, model=options.model)
        out = annotated_sgf(game, score, note)
    except (ValueError, RecursionError) as exc:  # SgfError, IllegalPosition, UnknownRules, ...
        return Row(name, FAILED, error=str(exc) or type(exc).__name__), None
    except Exception as exc:  # noqa: BLE001 - a bug must not stop a long run; the report names it
        return Row(name, FAILED, error=f"{type(exc).__name__}: {exc}"), None
    recorded = game.result
    agree = same_result(recorded, score.result) if parse_result(recorded).counted else None
    return Row(name, ANNOTATED, recorded, score.result, agree, len(score.uncertain_blocks)), out


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
    """Write ``data`` to a hidden temporary file beside ``path``, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def read_report(path: Path) -> dict[str, Row]:
    """The rows of an earlier run's report by name (empty when there is none or it is unreadable)."""
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            return {r["name"]: Row.from_csv(r) for r in csv.DictReader(fh) if r.get("name")}
    except (OSError, csv.Error, KeyError):
        return {}


def write_report(rows: Iterable[Row], path: Path) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row.as_csv())
    write_atomic(path, buffer.getvalue().encode("utf-8"))


# ---- the run ---------------------------------------------------------------------------------

def annotate(source: str | Path, out: str | Path, *, workers: int = 1, options: Options = Options(),
             dask: str | None = None, limit: int | None = None, report: str | Path | None = None,
             progress: bool = True) -> Summary:
    """Annotate every SGF game of ``source`` (folder or tarball) into ``out``.

    ``workers`` processes (1: in this process), or the Dask scheduler at ``dask``; ``limit``
    takes the first N names only. Games whose copy exists are skipped. The CSV report (default
    ``out/annotate-report.csv``) lists every game; it is written even when the run is interrupted.
    """
    source, out = Path(source), Path(out)
    check_paths(source, out)
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    out.mkdir(parents=True, exist_ok=True)
    report_path = Path(report) if report else out / REPORT_NAME
    if report:
        archive.check_output_file("--report", report_path, [source])
    if report_path.is_dir():
        raise ValueError(f"--report {report_path} is a folder: name a .csv file")
    if not os.access(out, os.W_OK):
        raise ValueError(f"--out {out}: no permission to write there")
    earlier = read_report(report_path)

    try:
        names = archive.names(source)[:limit]
    except FileNotFoundError:
        raise
    except ARCHIVE_ERRORS as exc:
        raise ValueError(f"{source}: cannot list the archive (damaged or not a tarball?): {exc}") from None
    rows: dict[str, Row] = {}
    todo: list[str] = []
    for name in names:
        try:
            target = output_path(out, name)
        except ValueError as exc:
            rows[name] = Row(name, FAILED, error=str(exc))
            continue
        if target.exists():
            before = earlier.get(name)
            rows[name] = dataclasses.replace(before, status=SKIPPED) if before else Row(name, SKIPPED)
        else:
            rows[name] = Row(name, "pending")
            todo.append(name)

    summary = Summary(workers=workers, dask=dask, report=report_path)
    start = time.perf_counter()
    bar = _progress(len(todo), len(names) - len(todo), progress)
    try:
        for row, data in _run(source, todo, options, workers, dask):
            if data is not None:
                try:
                    write_atomic(output_path(out, row.name), data)
                except OSError as exc:
                    row = dataclasses.replace(row, status=FAILED, error=f"cannot write: {exc}")
            rows[row.name] = row
            bar.update(1)
            if row.status == FAILED:
                bar.set_postfix(failed=sum(r.status == FAILED for r in rows.values()), refresh=False)
    finally:
        bar.close()
        summary.seconds = time.perf_counter() - start
        summary.rows = [r for r in rows.values() if r.status != "pending"]
        write_report(summary.rows, report_path)
    return summary


def _progress(total: int, skipped: int, enabled: bool):
    from tqdm import tqdm

    return tqdm(total=total, unit="game", desc="annotating" + (f" ({skipped} done before)" if skipped else ""),
                disable=not enabled, dynamic_ncols=True, smoothing=0.1)


def _entries(source: Path, todo: list[str]) -> Iterator[archive.Entry]:
    """The archive entries named in ``todo``, stopping as soon as all have been read."""
    wanted = set(todo)
    if not wanted:
        return
    reader = archive.read(source, wanted)
    try:
        while wanted:
            try:
                entry = next(reader, None)
            except ARCHIVE_ERRORS as exc:
                raise ValueError(f"{source}: cannot read on after {len(todo) - len(wanted)} games "
                                 f"(damaged archive?): {exc}") from None
            if entry is None:
                break
            yield entry
            wanted.discard(entry.name)
    finally:
        reader.close()


def _run(source: Path, todo: list[str], options: Options, workers: int,
         dask: str | None) -> Iterator[tuple[Row, bytes | None]]:
    """Results in completion order: inline, in a process pool, or on a Dask cluster."""
    entries = _entries(source, todo)
    if dask:
        yield from _run_dask(entries, options, dask)
    elif workers == 1:
        for entry in entries:
            yield _unread(entry) or annotate_bytes(entry.name, entry.data, options)
    else:
        pool = futures.ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        try:
            yield from _pooled(pool.submit, entries, options, 4 * workers)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def _unread(entry: archive.Entry) -> tuple[Row, None] | None:
    """The failed row of a file that could not be read, else None."""
    return (Row(entry.name, FAILED, error=entry.error), None) if entry.error else None


def _ignore_interrupts() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops the run and writes the report."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_dask(entries, options: Options, address: str):
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'seog[dask]'") from None
    try:
        client = Client(address, timeout=30)
    except OSError as exc:
        raise ValueError(f"--dask {address}: cannot reach the scheduler ({exc})") from None
    try:
        executor = client.get_executor(pure=False)
        n = max(1, sum(client.nthreads().values()))
        yield from _pooled(executor.submit, entries, options, 4 * n)
    finally:
        client.close()


def _pooled(submit: Callable, entries, options: Options, in_flight: int):
    """Keep at most ``in_flight`` games submitted; yield each result as it completes."""
    pending: dict[futures.Future, str] = {}
    entries = iter(entries)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < in_flight:
            entry = next(entries, None)
            if entry is None:
                exhausted = True
                break
            if entry.error:
                yield _unread(entry)
                continue
            pending[submit(annotate_bytes, entry.name, entry.data, options)] = entry.name
        if not pending:
            break
        done, _ = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
        for fut in done:
            name = pending.pop(fut)
            try:
                yield fut.result()
            except Exception as exc:  # noqa: BLE001 - a worker died (e.g. out of memory): a rerun retries
                yield Row(name, FAILED, error=f"worker failed: {type(exc).__name__}: {exc}"), None
