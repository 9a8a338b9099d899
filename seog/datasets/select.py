"""The selector: which game records of an archive are finished games scored by counting.

A record is kept when it reads and replays without an illegal move, is on an allowed board
size, has no variations, and its RE is a count (``B+6.5``, ``W+0.5``, jigo), not a
resignation, a loss on time, a forfeit or nothing. Where the final node carries TB/TW marks,
the stones inside the other colour's marks are its dead-stone labels. Every dropped record
gets one reason, the first that applies in the order of ``REASONS``. A tarball that is damaged
or cut short is read up to the damage: the records before it are judged, then ``ArchiveCut``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from seog.datasets import archive
from seog.datasets.labels import sgf_points
from seog.features import sgf
from seog.scoring.result import parse_result
from seog.scoring.rules import check_suicides

REASONS = ["unreadable", "illegal move", "wrong size", "no result", "resignation", "time loss", "forfeit",
           "result not a count", "variations"]
RESULT_REASONS = {"resign": "resignation", "time": "time loss", "forfeit": "forfeit", "unknown": "result not a count"}


@dataclass
class Record:
    """One archive entry after selection: ``reason`` is '' for a kept game.

    ``dead``: SGF points of the stones marked dead (None when the record has no TB/TW marks).
    """

    name: str
    reason: str = ""
    detail: str = ""
    size: int = 0
    rules: str = ""
    komi: float = 0.0
    handicap: int = 0
    result: str = ""
    moves: int = 0
    dead: list | None = None
    game: sgf.Game | None = field(default=None, repr=False)
    data: bytes = field(default=b"", repr=False)

    @property
    def kept(self) -> bool:
        return not self.reason

    @property
    def marked(self) -> bool:
        return self.dead is not None


def judge(name: str, data: bytes, sizes: Iterable[int] = (9, 13, 19)) -> Record:
    """Select or drop one SGF record."""
    try:
        game = check_suicides(sgf.loads(data))
    except sgf.SgfError as exc:
        reason = "illegal move" if "illegal" in str(exc) else "unreadable"
        return Record(name, reason, str(exc))
    rec = Record(name, "", "", game.size, game.rules, game.komi, game.handicap, game.result, len(game.moves),
                 None, game, data)
    if game.size not in set(sizes):
        rec.reason, rec.detail = "wrong size", f"{game.size}x{game.size}"
    elif not game.result:
        rec.reason = "no result"
    elif not (r := parse_result(game.result)).counted:
        rec.reason, rec.detail = RESULT_REASONS.get(r.how, "result not a count"), game.result
    elif game.variations:
        rec.reason = "variations"
    elif game.has_markup:
        rec.dead = sgf_points(game.marked_dead())
    return rec


def select(source, sizes: Iterable[int] = (9, 13, 19), progress: Callable | None = None) -> Iterator[Record]:
    """Judge every SGF record of a folder, file or tarball, in archive order; a damaged tarball
    raises ArchiveCut after the records read before the damage."""
    sizes = tuple(sizes)
    for entry in archive.read(source):
        rec = Record(entry.name, "unreadable", entry.error) if entry.error else judge(entry.name, entry.data, sizes)
        if progress:
            progress(rec)
        yield rec


def tally(records: Iterable[Record]) -> tuple[int, Counter]:
    """(kept, Counter of drop reasons)."""
    kept, dropped = 0, Counter()
    for r in records:
        if r.kept:
            kept += 1
        else:
            dropped[r.reason] += 1
    return kept, dropped


CSV_FIELDS = ["name", "kept", "reason", "detail", "size", "rules", "komi", "handicap", "result", "moves", "marked",
              "dead"]


def csv_row(rec: Record) -> dict:
    return {"name": rec.name, "kept": int(rec.kept), "reason": rec.reason, "detail": rec.detail, "size": rec.size,
            "rules": rec.rules, "komi": rec.komi, "handicap": rec.handicap, "result": rec.result,
            "moves": rec.moves, "marked": int(rec.marked), "dead": " ".join(rec.dead or [])}
