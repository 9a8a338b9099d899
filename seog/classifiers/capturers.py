"""Captures need a living capturer: blocks called dead whose every capturer is dead are alive."""

from __future__ import annotations

from seog.classifiers.vocabulary import BlockStatus, Source, redecide
from seog.features.topology import Topology


def revive_uncaptured(topology: Topology, statuses: dict[int, BlockStatus],
                      blocks=None) -> dict[int, BlockStatus]:
    """A capture needs a living capturer: a block called dead is alive (``capturers-dead``) when
    every opponent block next to it is dead for another reason than atari (an opponent in atari
    among dead stones is one its owner will take). ``blocks`` are the ids to look at; by
    default, those settled dead for being in atari."""
    if blocks is None:
        blocks = [b for b, st in statuses.items() if st.source == Source.ATARI]
    revived = {}
    for b in blocks:
        around = [statuses[o] for o in topology.blocks[b].opponents]
        if around and all(not o.alive and o.source != Source.ATARI for o in around):
            revived[b] = True
    return redecide(statuses, revived, Source.CAPTURERS_DEAD)
