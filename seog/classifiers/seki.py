"""Mutual seki: two blocks with no eyes, the same liberties, and no way in for either side.

The nets sometimes call one side of such a seki dead, most often a group on the edge whose only
liberties are shared with an opponent group that lives by the seki alone. A fill that gains no
liberty of its own takes one from both blocks; whoever fills the last but one puts both in atari
and is captured first, so neither side can approach, however many liberties they share. The one
way in is a throw-in: sacrificing a few stones so that the space they leave is one eye. That
needs the opponent block to be small; when it has ``settings.seki_min_opponent`` stones or more
(``classifiers.settings``), the space its capture leaves has room for two eyes, and the seki holds.
"""

from __future__ import annotations

from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import BY_NETS, Source, redecide
from seog.features.topology import Topology


def seki_alive(topology: Topology, statuses: dict, settings: PassSettings = DEFAULT) -> dict:
    """Statuses with the blocks called dead by the nets that are in a mutual seki alive again
    (source ``seki``)."""
    return redecide(statuses, {block.id: True for block in topology.blocks
                           if not statuses[block.id].alive and statuses[block.id].source in BY_NETS
                           and _in_seki(topology, block, statuses, settings.seki_min_opponent)}, Source.SEKI)


def _in_seki(topology: Topology, block, statuses: dict, min_opponent: int) -> bool:
    """Does ``block`` share all its liberties (two or more) with a living opponent block of
    ``min_opponent`` stones or more, among living opponents only, with no shared liberty either
    side can fill without being captured first?"""
    liberties = set(block.liberties.tolist())
    if len(liberties) < 2 or not all(statuses[o].alive for o in block.opponents):
        return False
    partner = any(other.size >= min_opponent and set(other.liberties.tolist()) == liberties
                  and all(statuses[m].alive for m in other.opponents if m != block.id)
                  for other in (topology.blocks[o] for o in block.opponents))
    return partner and not any(_can_fill(topology, p, c, liberties) for p in liberties for c in (1, -1))


def _can_fill(topology: Topology, point: int, color: int, shared: set[int]) -> bool:
    """Can ``color`` fill the shared liberty at ``point`` and gain a liberty that is not shared,
    or capture something there? Otherwise every fill takes one liberty from both sides, and the
    side that fills the last but one is taken first."""
    liberties = topology.liberties_after(point, color)
    return liberties is None or bool(liberties - shared)  # None: the move captures
