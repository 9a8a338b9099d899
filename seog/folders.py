"""Files and folders seog writes: a lock on an output folder (``seog match``, ``seog annotate``),
a damaged file set aside rather than written over, and an output path seog cannot write named
in one line."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def claimed(folder: Path, command: str) -> Iterator[None]:
    """Hold a lock on ``folder`` (created) while the block runs: a second ``seog COMMAND`` into the
    same folder is refused at once. The lock goes with the process however it ends, and its file
    is removed at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f".seog-{command}.lock"
    with open(path, "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ValueError(f"--out {folder}: another seog {command} is writing there") from None
        try:
            yield
        finally:
            path.unlink(missing_ok=True)


def set_aside(path: Path) -> Path:
    """Rename a damaged file to ``NAME.damaged`` (``NAME.damaged-2``... if taken), so that nothing
    is lost when a fresh one is started; return the new path."""
    aside, n = path.with_name(path.name + ".damaged"), 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{n}")
    path.rename(aside)
    return aside


def cannot_write(option: str, path: str | Path, exc: OSError) -> ValueError:
    """``exc`` from writing ``path`` (given as ``option``) as one line naming the path and why, as
    the CLI says it cannot read an input, rather than Python's '[Errno 2] No such file...'."""
    why = exc.strerror or str(exc)
    if isinstance(exc, (FileNotFoundError, NotADirectoryError, FileExistsError)):
        folder = Path(path).parent
        above = next((p for p in (Path(path), *Path(path).parents) if p.exists()), folder)
        if not above.is_dir():
            why = f"{above} is not a folder"
        elif isinstance(exc, FileNotFoundError) and not folder.exists():
            why = f"folder {folder} does not exist"
    return ValueError(f"{option} {path}: cannot write ({why})")
