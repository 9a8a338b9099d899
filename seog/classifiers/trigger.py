"""Which groups to read: the groups whose life a search should decide, chosen by Go structure.

A group is a chain (``topology.chains``: the blocks of one colour joined by shared liberties).
One is read when it has ``trigger_min_stones`` stones or more, is not settled by Benson (some
block of it is not unconditionally alive), and is at stake in one of four ways:

- short of liberties: ``trigger_few_liberties`` or fewer liberties (the chain's);
- little eye room: fewer than ``trigger_roomy`` points in the regions it encloses (the CERs of
  its colour it borders whose stones inside are all read dead), so its eyes are a matter of shape;
- a race: it borders a group of the other colour that is triggered-sized and unsettled too, and
  both have ``trigger_race_liberties`` or fewer liberties;
- the nets doubt one of its blocks (``BlockStatus.doubt``).

A threshold of 0 turns its way off. The net's confidence is one way of four, so a group the nets
are sure of is still read when its structure puts it at stake (their worst errors are confident).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source
from seog.features.topology import Chain, Topology


@dataclass(frozen=True)
class Group:
    """One group to read: its chain's id, colour and block ids, and why it is read (``reasons``:
    'liberties', 'room', 'race', 'doubt')."""

    chain: int
    color: int
    blocks: tuple[int, ...]
    reasons: tuple[str, ...]


def groups_to_read(topology: Topology, statuses: Mapping[int, BlockStatus] | Sequence[BlockStatus],
                   settings: PassSettings = DEFAULT) -> list[Group]:
    """The groups of ``topology`` a reader should decide, given every block's ``statuses`` (by
    block id), in chain id order."""
    s = settings
    candidates = {ch.id: ch for ch in topology.chains
                  if len(ch.points) >= s.trigger_min_stones and not _settled(ch, statuses)}
    liberties = {cid: len(ch.liberties) for cid, ch in candidates.items()}
    out = []
    for cid, chain in candidates.items():
        reasons = []
        if liberties[cid] <= s.trigger_few_liberties:
            reasons.append("liberties")
        if s.trigger_roomy and _eye_room(topology, chain, statuses) < s.trigger_roomy:
            reasons.append("room")
        if liberties[cid] <= s.trigger_race_liberties and any(
                liberties.get(other, s.trigger_race_liberties + 1) <= s.trigger_race_liberties
                for other in _bordering_chains(topology, chain)):
            reasons.append("race")
        if any(statuses[b].doubt != Doubt.NONE for b in chain.blocks):
            reasons.append("doubt")
        if reasons:
            out.append(Group(cid, chain.color, tuple(chain.blocks), tuple(reasons)))
    return out


def _settled(chain: Chain, statuses) -> bool:
    """Every block of the chain decided for good by the static pass (Benson)."""
    return all(Source(statuses[b].source).settled for b in chain.blocks)


def _eye_room(topology: Topology, chain: Chain, statuses) -> int:
    """Points of the regions the chain encloses: its colour's CERs it borders whose inner stones
    are all read dead (an opponent read alive inside is no eye room), each counted once."""
    cers = topology.cers[chain.color]
    seen = {r for b in chain.blocks for r in topology.blocks[b].adjacent_cers}
    return sum(len(cers[r].points) for r in seen
               if not any(statuses[b].alive for b in cers[r].inner_blocks))


def _bordering_chains(topology: Topology, chain: Chain) -> set[int]:
    """Ids of the other colour's chains that touch the chain."""
    return {topology.blocks[o].chain for b in chain.blocks for o in topology.blocks[b].opponents}
