"""SGF archives: a folder (searched recursively), a single file, or a tarball (.tar, .tar.gz, .tgz,
.tar.xz, .tar.bz2) of SGF files, read as (name, bytes) pairs without unpacking to disk.

A tarball that is damaged or cut short is read up to the damage: its listing holds the files
before it, and reading yields them, then raises ``ArchiveCut``. A name stored twice (``tar
--append``) is read from its last member, as ``tar`` extracts it; the earlier ones are named
with the reason.
"""

from __future__ import annotations

import lzma
import tarfile
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

TAR_SUFFIXES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2")
ERRORS = (tarfile.TarError, EOFError, lzma.LZMAError, zlib.error, OSError)  # what a damaged tarball raises


class ArchiveCut(ValueError):
    """A tarball that could not be read to its end: ``read`` records came before the damage."""

    def __init__(self, source, read: int, problem: Exception) -> None:
        what = (f"the archive is cut short after {read} record(s) (damaged or truncated)" if read
                else "cannot read the archive (damaged or not a tarball?)")
        problem = " ".join(str(problem).split())  # tarfile lists each compression it tried on a line
        super().__init__(f"{source}: {what}: {problem}")
        self.read = read


@dataclass(frozen=True)
class Entry:
    """One SGF file of an archive: ``name`` is its path inside the archive (posix), ``data`` its
    bytes; ``error`` says why the file could not be read or is left out (then ``data`` is empty)."""

    name: str
    data: bytes
    error: str = ""


SOURCE_SUFFIXES = (".sgf", ".json", ".jsonl", ".jsonl.gz", ".game", ".zip", *TAR_SUFFIXES)  # what batch commands read


def check_output_file(option: str, path: str | Path, sources) -> None:
    """Refuse a report or CSV path that a batch command could write over an input with: an
    input itself, anything inside an input folder, or a file named like a game, a label file or
    an archive; and a folder, refused before the work rather than when the file is written. A batch
    run never writes over what it reads."""
    dst = Path(path).resolve()
    if dst.is_dir():
        raise ValueError(f"{option} {path} is a folder: name a file")
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


def is_sgf_name(name: str) -> bool:
    return name.lower().endswith(".sgf")


@dataclass(frozen=True)
class Listing:
    """What an archive holds: ``games``, the SGF names to read (sorted), and ``skipped``, the
    SGF names left out with the reason (a link not followed, a name stored twice), so that no
    file of the input vanishes without a word; ``cut`` says why a damaged tarball was listed
    only up to the damage ('' when it was read to its end)."""

    games: list[str]
    skipped: dict[str, str] = field(default_factory=dict)
    cut: str = ""
    # A tarball's members as listed (name, member, why skipped) and its damage: ``read`` given
    # this listing reads the games in one pass forward instead of listing the tarball again.
    members: list = field(default_factory=list, repr=False, compare=False)
    damage: ArchiveCut | None = field(default=None, repr=False, compare=False)
    data: dict = field(default_factory=dict, repr=False, compare=False)  # member -> bytes, when kept


KEEP_BYTES = 64 << 20  # the SGF bytes a listing may keep for ``read`` (a KGS archive of 8,270 games: 18 MB)


def refuse_zip(path: Path) -> None:
    """A zip would otherwise be read as one broken SGF file."""
    if path.is_file() and path.name.lower().endswith(".zip"):
        raise ValueError(f"{path}: zip archives are not supported; use a folder or .tar.gz/.tar.xz")


def listing(source: str | Path, keep: int = 0) -> Listing:
    """The SGF names of an archive and the ones it skips. A tarball's files are read on the way
    and, up to ``keep`` bytes in all, kept for ``read``, which then needs no second pass over a
    compressed stream; folders are listed without reading."""
    path = Path(source)
    refuse_zip(path)
    if is_tarball(path):
        data: dict = {}
        with open_tar(path) as tar:
            found, cut = tar_scan(path, tar, keep, data)
        return Listing(sorted(key for key, _, reason in found if not reason),
                       dict(sorted((key, reason) for key, _, reason in found if reason)), str(cut or ""),
                       found, cut, data)
    if path.is_dir():
        return folder_listing(path)
    if path.is_file():
        return Listing([path.name])
    raise FileNotFoundError(f"{source}: no such file or folder")


def names(source: str | Path) -> list[str]:
    """Every name ``read`` yields, the games' and the skipped ones', sorted, without reading
    their contents (a count for a progress bar)."""
    found = listing(source)
    return sorted([*found.games, *found.skipped])


REPLACED = "an earlier member of this name in the tarball, replaced by a later one: only the last is read"


def duplicate_name(name: str, nth: int) -> str:
    """The report name of the ``nth`` member stored under ``name`` (1, 2, ...), which a later one replaces."""
    return f"{name} (member {nth} of that name)"


@contextmanager
def open_tar(path: Path) -> Iterator[tarfile.TarFile]:
    """The open tarball; one that cannot be opened at all raises ArchiveCut with nothing read."""
    try:
        tar = tarfile.open(path)
    except ERRORS as exc:
        raise ArchiveCut(path, 0, exc) from None
    with tar:
        yield tar


def tar_scan(path: Path, tar: tarfile.TarFile, keep: int = 0, data: dict | None = None,
             ) -> tuple[list[tuple[str, tarfile.TarInfo, str]], ArchiveCut | None]:
    """``tar_members`` of every member stored before the end or the damage, and the ArchiveCut
    to raise after them when there was damage; damage before any SGF member raises it at once.
    SGF files are read into ``data`` (member -> bytes) while they come, up to ``keep`` bytes."""
    members, keep = [], keep if data is not None else 0
    try:
        for member in tar:
            members.append(member)
            if member.size <= keep and member.isfile() and is_sgf_name(member.name):
                try:
                    data[member] = tar.extractfile(member).read()
                    keep -= member.size
                except ERRORS:  # damage inside the file: ``read`` names it on its own
                    keep = 0
    except ERRORS as exc:
        found = list(tar_members(members))
        if not found:
            raise ArchiveCut(path, 0, exc) from None
        return found, ArchiveCut(path, len(found), exc)
    return list(tar_members(members)), None


def tar_members(members: list[tarfile.TarInfo]) -> Iterator[tuple[str, tarfile.TarInfo, str]]:
    """(name, member, why it is skipped or '') for each SGF-named member, in stored order. Files
    and hard links are read (``extractfile`` follows a hard link); a symbolic link, and a member
    whose name comes again later, are skipped: the last member of a name is the file, as
    ``tar --append`` means it and ``tar -x`` extracts it."""
    sgf = [m for m in members if is_sgf_name(m.name) and (m.isfile() or m.islnk() or m.issym())]
    stored, seen = Counter(m.name for m in sgf), Counter()
    for member in sgf:
        seen[member.name] += 1
        if (nth := seen[member.name]) < stored[member.name]:
            yield duplicate_name(member.name, nth), member, REPLACED
        elif member.issym():
            yield member.name, member, f"a symbolic link in the tarball (to {member.linkname}), not followed"
        else:
            yield member.name, member, ""


def folder_listing(path: Path) -> Listing:
    """The SGF files of a folder, searched recursively; symbolic links to files are followed, a
    link to a folder outside it is not (its games are reported as not read), nor a dangling link."""
    games, skipped = [], {}
    root = path.resolve()
    for p in path.rglob("*"):
        name = p.relative_to(path).as_posix()
        if p.is_symlink() and p.is_dir():
            if not p.resolve().is_relative_to(root):
                skipped[name] = "a symbolic link to a folder outside the input, not followed"
        elif is_sgf_name(p.name) and p.is_file():
            games.append(name)
        elif is_sgf_name(p.name) and p.is_symlink() and not p.exists():
            skipped[name] = "a symbolic link to a file that does not exist"
    return Listing(sorted(games), dict(sorted(skipped.items())))


def read(source: str | Path, wanted: set[str] | None = None, found: Listing | None = None) -> Iterator[Entry]:
    """Yield the SGF files of an archive in name order (tarballs in their stored order); a file
    the listing skips comes as an entry whose ``error`` says why. ``found``, the ``listing`` of
    the same tarball, spares listing it again: each xz or gzip pass over it costs as much as the
    first."""
    path = Path(source)
    refuse_zip(path)
    if is_tarball(path):
        with open_tar(path) as tar:
            if found is not None and found.members:
                members, cut, kept = found.members, found.damage, found.data
            else:
                (members, cut), kept = tar_scan(path, tar), {}
            for name, member, reason in members:
                if wanted is None or name in wanted:
                    if reason:
                        yield Entry(name, b"", reason)
                    elif member in kept:
                        yield Entry(name, kept[member])
                    else:
                        yield tar_entry(tar, name, member)
        if cut:
            raise cut
        return
    if path.is_dir():
        found = folder_listing(path)
        for name in found.games:
            if wanted is None or name in wanted:
                try:
                    yield Entry(name, (path / name).read_bytes())
                except OSError as exc:  # unreadable or gone: that file fails, the others go on
                    yield Entry(name, b"", f"cannot read the file ({exc.strerror or exc})")
        for name, reason in found.skipped.items():
            if wanted is None or name in wanted:
                yield Entry(name, b"", reason)
        return
    if path.is_file():
        yield Entry(path.name, path.read_bytes())
        return
    raise FileNotFoundError(f"{source}: no such file or folder")


def tar_entry(tar: tarfile.TarFile, name: str, member: tarfile.TarInfo) -> Entry:
    """The bytes of a file or hard link member. A hard link to a member the tarball lacks, and a
    file the damage of a tarball falls in (its bytes end early), fail alone."""
    try:
        return Entry(name, tar.extractfile(member).read())
    except KeyError:
        return Entry(name, b"", f"a hard link to {member.linkname}, which is not in the tarball")
    except ERRORS as exc:
        problem = " ".join(str(exc).split())
        return Entry(name, b"", f"cannot read it: the tarball is damaged or cut short inside it ({problem})")
