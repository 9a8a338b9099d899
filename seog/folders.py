"""Files and folders seog writes: a lock on an output folder (``seog match``, ``seog annotate``),
and a damaged file set aside rather than written over."""

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
