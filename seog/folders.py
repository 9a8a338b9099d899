"""Output folders that one process at a time writes into (``seog match``, ``seog annotate``)."""

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
