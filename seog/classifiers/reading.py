"""The tactical-reading pass: big blocks called alive that the search (``features.reading``)
captures whoever moves first are dead, with the rest of their chain."""

from __future__ import annotations

from seog.classifiers.vocabulary import BlockStatus, Source, turn
from seog.features.reading import Reader
from seog.features.topology import Topology

READ_MIN_STONES, READ_MAX_LIBERTIES = 4, 3  # the blocks that tactical reading may call dead
READ_MAX_CHAIN_LIBERTIES = 5  # more, and the block's chain has room to connect out


def read_dead(topology: Topology, statuses: dict[int, BlockStatus]) -> dict[int, BlockStatus]:
    """Blocks called alive that tactical reading captures whoever moves first are dead, and so
    are the other blocks of their chain (``read_candidates`` says which blocks are read)."""
    turned: dict[int, bool] = {}
    reader = None
    for b in read_candidates(topology, statuses):
        if b in turned:
            continue  # already down with its chain
        reader = reader or Reader(topology.grid)
        if reader.dead(topology.blocks[b].points):
            turned.update(dict.fromkeys(topology.chains[topology.blocks[b].chain].blocks, False))
    return turn(statuses, turned, Source.READING)


def read_candidates(topology: Topology, statuses: dict[int, BlockStatus],
                    min_stones: int = READ_MIN_STONES) -> list[int]:
    """The blocks tactical reading looks at, likeliest deaths first (fewest liberties, then
    biggest), so that they come before the search's budget runs out.

    A block is read when it is called alive (not by Benson), has ``min_stones`` or more stones
    and at most ``READ_MAX_LIBERTIES`` liberties (``READ_MAX_CHAIN_LIBERTIES`` for its chain:
    with more it connects out), and every opponent block next to it is alive (a capture needs
    living capturers). Big one-eyed groups short of liberties are what the nets miss, while
    stones of one to three that can be taken are often counted alive: on the KataGo-labelled
    archive, reading them disagreed with KataGo 53 times out of 62 (docs/model.md).
    """
    blocks, chains = topology.blocks, topology.chains
    chosen = [b for b, st in statuses.items()
              if st.alive and st.source != Source.BENSON and len(blocks[b].points) >= min_stones
              and len(blocks[b].liberties) <= READ_MAX_LIBERTIES
              and len(chains[blocks[b].chain].liberties) <= READ_MAX_CHAIN_LIBERTIES
              and all(statuses[o].alive for o in blocks[b].opponents)]
    return sorted(chosen, key=lambda b: (len(blocks[b].liberties), -len(blocks[b].points)))
