"""The tactical-reading pass: big blocks called alive that the search (``features.reading``)
captures whoever moves first are dead, with the rest of their chain."""

from __future__ import annotations

from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import BlockStatus, Source, redecide
from seog.features.reading import Reader
from seog.features.topology import Topology


def read_dead(topology: Topology, statuses: dict[int, BlockStatus],
              settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """Blocks called alive that tactical reading captures whoever moves first are dead, and so
    are the other blocks of their chain (``read_candidates`` says which blocks are read; the
    search's limits are ``settings.read_depth``, ``read_nodes`` and ``read_position_nodes``)."""
    turned: dict[int, bool] = {}
    reader = None
    for b in read_candidates(topology, statuses, settings):
        if b in turned:
            continue  # already down with its chain
        reader = reader or Reader(topology.grid, depth=settings.read_depth, nodes=settings.read_nodes,
                                  total=settings.read_position_nodes)
        if reader.dead(topology.blocks[b].points):
            turned.update(dict.fromkeys(topology.chains[topology.blocks[b].chain].blocks, False))
    return redecide(statuses, turned, Source.READING)


def read_candidates(topology: Topology, statuses: dict[int, BlockStatus], settings: PassSettings = DEFAULT,
                    min_stones: int | None = None) -> list[int]:
    """The blocks tactical reading looks at, likeliest deaths first (fewest liberties, then
    biggest), so that they come before the search's budget runs out.

    A block is read when it is called alive (not by Benson), has ``settings.read_min_stones``
    stones or more (``min_stones`` when given) and at most ``read_max_liberties`` liberties
    (``read_max_chain_liberties`` for its chain: with more it connects out), and every opponent
    block next to it is alive (a capture needs living capturers). Big one-eyed groups short of
    liberties are what the nets miss, while stones of one to three that can be taken are often
    counted alive, and reading them disagrees with KataGo (docs/model.md, "Settings").
    """
    least = settings.read_min_stones if min_stones is None else min_stones
    blocks, chains = topology.blocks, topology.chains
    chosen = [b for b, st in statuses.items()
              if st.alive and st.source != Source.BENSON and len(blocks[b].points) >= least
              and len(blocks[b].liberties) <= settings.read_max_liberties
              and len(chains[blocks[b].chain].liberties) <= settings.read_max_chain_liberties
              and all(statuses[o].alive for o in blocks[b].opponents)]
    return sorted(chosen, key=lambda b: (len(blocks[b].liberties), -len(blocks[b].points)))
