"""Benson's algorithm: blocks that stay alive whatever the opponent plays, even if their owner passes.

A region enclosed by colour c is *vital* to a c block when every empty point of the region is a
liberty of that block. Repeatedly drop blocks with fewer than two vital regions among the regions
still standing, and regions bordered by a dropped block; the blocks left are unconditionally alive.
"""

from __future__ import annotations

from seog.features.coords import BLACK, WHITE
from seog.features.topology import Topology


def unconditionally_alive(topology: Topology) -> set[int]:
    """Ids of the blocks that are alive by Benson's algorithm (both colours)."""
    alive: set[int] = set()
    for color in (BLACK, WHITE):
        alive |= _alive_of_color(topology, color)
    return alive


def _alive_of_color(topology: Topology, color: int) -> set[int]:
    blocks = {b.id for b in topology.blocks if b.color == color}
    cers = topology.cers[color]
    # A region with no empty point cannot give a block a liberty: never vital. Nor can a region
    # with more empty points than the block has liberties.
    vital_to = {}
    for cer in cers:
        size = len(cer.empty)
        if size == 0:
            continue
        vital_to[cer.id] = vital = set()
        empty = None  # built for the first block with liberties enough
        for b in cer.blocks:
            liberties = topology.blocks[b].liberties
            if len(liberties) >= size:
                empty = empty or set(cer.empty.tolist())
                if empty.issubset(liberties.tolist()):
                    vital.add(b)
    regions = set(vital_to)
    while True:
        counts = dict.fromkeys(blocks, 0)
        for r in regions:
            for b in vital_to[r]:
                if b in counts:
                    counts[b] += 1
        dropped = {b for b, n in counts.items() if n < 2}
        if not dropped:
            return blocks
        blocks -= dropped
        regions = {r for r in regions if dropped.isdisjoint(cers[r].blocks)}
