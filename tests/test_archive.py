"""The archive reader: what a folder or tarball holds, and what it leaves out, with the reason."""

import io
import tarfile
import zipfile

import pytest

from seog.datasets import archive

GAME = b"(;GM[1]SZ[9]KM[6.5]RE[B+R];B[ee];W[])"


def add(tar, name, data=b"", **kind):
    """A member of ``tar``: a file with ``data``, or a link given as type= and linkname=."""
    info = tarfile.TarInfo(name)
    for key, value in kind.items():
        setattr(info, key, value)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data) if data else None)


def test_a_hard_link_in_a_tarball_is_read_as_the_file_it_names(tmp_path):
    path = tmp_path / "games.tar.gz"
    with tarfile.open(path, "w:gz") as tar:
        add(tar, "x/a.sgf", GAME)
        add(tar, "x/hard.sgf", type=tarfile.LNKTYPE, linkname="x/a.sgf")
    assert archive.names(path) == ["x/a.sgf", "x/hard.sgf"]
    assert {e.name: e.data for e in archive.read(path)} == {"x/a.sgf": GAME, "x/hard.sgf": GAME}


def test_symlinks_and_a_name_stored_twice_in_a_tarball_are_left_out_with_a_reason(tmp_path):
    path = tmp_path / "games.tar"
    later = b"(;GM[1]SZ[9]C[a later version])"
    with tarfile.open(path, "w") as tar:
        add(tar, "dup.sgf", GAME)
        add(tar, "link.sgf", type=tarfile.SYMTYPE, linkname="dup.sgf")
        add(tar, "dup.sgf", later)
        add(tar, "readme.txt", b"not a game")
    found = archive.listing(path)
    first = archive.duplicate_name("dup.sgf", 1)
    assert found.games == ["dup.sgf"] and not found.cut
    assert set(found.skipped) == {"link.sgf", first}
    assert archive.names(path) == sorted(["dup.sgf", "link.sgf", first])  # all that read() yields
    assert "symbolic link" in found.skipped["link.sgf"] and "only the last is read" in found.skipped[first]
    entries = {e.name: e for e in archive.read(path)}
    assert entries["dup.sgf"].data == later  # the last member of the name, as tar -x leaves it
    assert entries["link.sgf"].error == found.skipped["link.sgf"] and entries[first].error


def test_folder_links_outside_or_to_nothing_are_left_out_and_links_to_files_followed(tmp_path):
    outside, src = tmp_path / "outside", tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    outside.mkdir()
    (outside / "far.sgf").write_bytes(GAME)
    (src / "sub" / "a.sgf").write_bytes(GAME)
    (src / "linked-out").symlink_to(outside, target_is_directory=True)
    (src / "linked-in").symlink_to(src / "sub", target_is_directory=True)  # its games are read at sub/
    (src / "gone.sgf").symlink_to(tmp_path / "nothing.sgf")
    (src / "far.sgf").symlink_to(outside / "far.sgf")
    found = archive.listing(src)
    assert found.games == ["far.sgf", "sub/a.sgf"]
    assert list(found.skipped) == ["gone.sgf", "linked-out"]
    assert "outside the input" in found.skipped["linked-out"] and "does not exist" in found.skipped["gone.sgf"]
    assert {e.name: bool(e.error) for e in archive.read(src)} == {
        "far.sgf": False, "sub/a.sgf": False, "gone.sgf": True, "linked-out": True}


def test_a_zip_archive_is_refused_by_name(tmp_path):
    path = tmp_path / "games.ZIP"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.sgf", GAME)
    with pytest.raises(ValueError, match="zip archives are not supported; use a folder or .tar.gz/.tar.xz"):
        archive.names(path)


def entries(path, found=None) -> dict:
    out, cut = {}, None
    try:
        for e in archive.read(path, found=found):
            out[e.name] = (e.data, e.error)
    except archive.ArchiveCut as exc:
        cut = str(exc)
    return {"entries": out, "cut": cut}


@pytest.mark.parametrize("keep", [0, len(GAME) + 40, archive.KEEP_BYTES])
def test_reading_with_the_listing_gives_what_reading_alone_gives(tmp_path, keep):
    """``read`` given the listing (its files kept, some kept, none) yields the same entries as
    ``read`` alone: links, a name stored twice, a cut archive's damage after its games."""
    path = tmp_path / "games.tar.xz"
    with tarfile.open(path, "w:xz") as tar:
        add(tar, "a.sgf", GAME)
        add(tar, "dup.sgf", GAME + b" ")
        add(tar, "hard.sgf", type=tarfile.LNKTYPE, linkname="a.sgf")
        add(tar, "link.sgf", type=tarfile.SYMTYPE, linkname="a.sgf")
        add(tar, "dup.sgf", GAME + b"  ")
        add(tar, "b.sgf", GAME * 3)
    found = archive.listing(path, keep=keep)
    assert sum(map(len, found.data.values())) <= keep
    assert entries(path, found) == entries(path) and entries(path)["entries"]["dup.sgf"][0] == GAME + b"  "
    cut = tmp_path / "cut.tar"
    with tarfile.open(cut, "w") as tar:
        for n in range(4):
            add(tar, f"g{n}.sgf", GAME * 40)
    cut.write_bytes(cut.read_bytes()[:3 * 2048 + 512 + 700])  # inside the fourth game
    found = archive.listing(cut, keep=keep)
    read = entries(cut, found)
    assert found.cut and read == entries(cut) and read["cut"]
    assert [bool(error) for _, error in read["entries"].values()] == [False, False, False, True]  # the cut one
