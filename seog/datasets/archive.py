"""SGF archives: a folder (searched recursively), a single file, or a tarball (.tar, .tar.gz, .tgz,
.tar.xz, .tar.bz2) of SGF files, read as (name, bytes) pairs without unpacking to disk."""

from __future__ import annotations

import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2")


@dataclass(frozen=True)
class Entry:
    """One SGF file of an archive: ``name`` is its path inside the archive (posix), ``data`` its
    bytes; ``error`` says why a file of a folder could not be read (then ``data`` is empty)."""

    name: str
    data: bytes
    error: str = ""


SOURCE_SUFFIXES = (".sgf", ".json", ".jsonl", ".jsonl.gz", ".game", ".zip", *TAR_SUFFIXES)  # what batch commands read


def check_output_file(option: str, path: str | Path, sources) -> None:
    """Refuse a report or CSV path that a batch command could write over an input with: an
    input itself, anything inside an input folder, or a file named like a game, a label file or
    an archive. A batch run never writes over what it reads."""
    dst = Path(path).resolve()
    if dst.name.lower().endswith(SOURCE_SUFFIXES):
        raise ValueError(f"{option} {path}: name a .csv file, not a game, label or archive file")
    for source in sources:
        src = Path(source).resolve()
        if dst == src:
            raise ValueError(f"{option} {path} is the input itself: choose another file")
        if src.is_dir() and dst.is_relative_to(src):
            raise ValueError(f"{option} {path} is inside the input folder {source}: choose a place outside it")


def is_tarball(path: Path) -> bool:
    return path.is_file() and path.name.lower().endswith(TAR_SUFFIXES)


def names(source: str | Path) -> list[str]:
    """The SGF names of an archive, sorted, without reading their contents."""
    path = Path(source)
    if is_tarball(path):
        with tarfile.open(path) as tar:
            return sorted(m.name for m in tar.getmembers() if m.isfile() and m.name.lower().endswith(".sgf"))
    if path.is_dir():
        return sorted(p.relative_to(path).as_posix() for p in path.rglob("*") if p.suffix.lower() == ".sgf" and p.is_file())
    if path.is_file():
        return [path.name]
    raise FileNotFoundError(f"{source}: no such file or folder")


def read(source: str | Path, wanted: set[str] | None = None) -> Iterator[Entry]:
    """Yield the SGF files of an archive in name order (tarballs in their stored order)."""
    path = Path(source)
    if is_tarball(path):
        with tarfile.open(path) as tar:
            for member in tar:
                if (member.isfile() and member.name.lower().endswith(".sgf")
                        and (wanted is None or member.name in wanted)):
                    yield Entry(member.name, tar.extractfile(member).read())
        return
    if path.is_dir():
        for name in names(path):
            if wanted is None or name in wanted:
                try:
                    yield Entry(name, (path / name).read_bytes())
                except OSError as exc:  # unreadable or gone: that file fails, the others go on
                    yield Entry(name, b"", f"cannot read the file ({exc.strerror or exc})")
        return
    if path.is_file():
        yield Entry(path.name, path.read_bytes())
        return
    raise FileNotFoundError(f"{source}: no such file or folder")
