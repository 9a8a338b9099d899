"""The held-out split of the training archives: which games every choice is made on.

A game is named by its id, the archive name's part after ``__`` (``2006-03-14-21`` in
``kgs-19-2006__2006-03-14-21`` and ``2006__2006-03-14-21``), so a game that two archives hold falls
on the same side in both. Two held-out sets, fixed before any training on them:

- ``hash``: one game in ten, by the first eight hex digits of the sha1 of its id modulo 10 being 0.
  Every choice (a net's size, its epochs, a margin, a rule on or off) is made on it.
- ``year``: every game played in ``HELD_OUT_YEAR`` (the archive's latest year, which no other
  archive holds): a check that a choice holds on games of another period. Nothing is chosen on it.

Training uses the rest (``train``). The dev sets (kgs-2017-q1, gnugo-regression-games,
ogs-score-estimator) are in no split: they are reported after a choice, never used to make one.
"""

from __future__ import annotations

import hashlib

HELD_OUT_EVERY = 10
HELD_OUT_YEAR = "2015"
SPLITS = ("train", "hash", "year")
BEFORE_END = "@-"  # NAME@-K: the position K moves before the end of the game NAME


def game_id(name: str) -> str:
    """A game's id: the archive file name without its archive prefix or ``.sgf``; a position
    before the end of a game is named for it (``NAME@-K``: K moves before the last, ``datasets.cache``)."""
    name = name.rsplit("/", 1)[-1].split(BEFORE_END, 1)[0].removesuffix(".sgf")
    return name.split("__", 1)[-1]


def split_of(name: str) -> str:
    """'train', 'hash' or 'year': where the game ``name`` (any archive's spelling) belongs."""
    gid = game_id(name)
    if gid.startswith(HELD_OUT_YEAR + "-"):
        return "year"
    if int(hashlib.sha1(gid.encode()).hexdigest()[:8], 16) % HELD_OUT_EVERY == 0:
        return "hash"
    return "train"
