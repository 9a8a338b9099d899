"""The rule sets' special rulings that a count meets: the Japanese ruling on bent four in the corner.

Under the Japanese rules (1989, Article 7's confirmation of life and death) a group whose only
eye space is the bent four in the corner is dead in the final position, whatever the ko
threats: the attacker can fill the outside liberties and remove every ko threat before starting
the ko that the defender can never start first. The shape is the eye table's corner ko
(``reading.eye_shapes``): four empty points bent round the corner point. Under area rules it is
played out, so the count meets it only as it stands (``Rules.bent_four_dead``).
"""

from __future__ import annotations

from seog.classifiers.vocabulary import BlockStatus, Source
from seog.features.topology import CER, Topology
from seog.reading.eye_shapes import lookup
from seog.scoring.rules import Rules

BENT_FOUR = 4  # the points of the shape


def bent_four_in_the_corner(topology: Topology, statuses: list[BlockStatus], rules: Rules) -> list[BlockStatus]:
    """``statuses`` with every group the ruling kills turned dead (``Source.RULING``), under rules
    with ``bent_four_dead``; the same list when it turns none (``ruled_groups``)."""
    if not rules.bent_four_dead:
        return statuses
    doomed = {b for group in ruled_groups(topology, statuses) for b in group}
    if not doomed:
        return statuses
    return [st.turned(False, Source.RULING) if st.block in doomed else st for st in statuses]


def ruled_groups(topology: Topology, statuses: list[BlockStatus]) -> list[list[int]]:
    """The block ids of each group whose every eye space is one bent four in the corner: walled
    by blocks read alive (none Benson's or the caller's), with no other eye, every opponent
    block beside it alive and out of atari, and every outside liberty one the attacker can fill
    without self-atari. A group that could capture its way out, or whose outside liberties the
    attacker cannot fill, is not this ruling."""
    alive = {st.block: st.alive for st in statuses}
    settled = {st.block for st in statuses if Source(st.source).settled or st.source == Source.OVERRIDE}
    out = []
    for color in (1, -1):
        for cer in topology.cers[color]:
            if not is_bent_four_in_the_corner(topology, cer):
                continue
            group = group_of(topology, cer)
            if (all(alive[b] and b not in settled for b in group)
                    and not other_eyes(topology, color, group, cer, alive)
                    and shut_in(topology, color, group, cer, alive)):
                out.append(sorted(group))
    return out


def is_bent_four_in_the_corner(topology: Topology, cer: CER) -> bool:
    """Is the region four empty points that the eye table reads as the corner ko (the attacker,
    moving first, starts a ko; the defender, moving first, makes two eyes)?"""
    if not cer.is_eye or len(cer.points) != BENT_FOUR:
        return False
    n = topology.size
    cells = [(int(p) // n, int(p) % n) for p in cer.points]
    rows, cols = [r for r, _ in cells], [c for _, c in cells]
    sides = ("N" if min(rows) == 0 else "") + ("E" if max(cols) == n - 1 else "") \
        + ("S" if max(rows) == n - 1 else "") + ("W" if min(cols) == 0 else "")
    value = lookup(cells, sides)
    return value is not None and value.ko and value.least == 1 and value.most == 2


def group_of(topology: Topology, cer: CER) -> set[int]:
    """The blocks around the space and those linked to them through shared liberties (their chains)."""
    chains = {topology.blocks[b].chain for b in cer.blocks}
    return {b for c in chains for b in topology.chains[c].blocks} | set(cer.blocks)


def other_eyes(topology: Topology, color: int, group: set[int], space: CER, alive: dict[int, bool]) -> bool:
    """Does the group border another region it walls in alone (empty, or holding only stones read dead)?"""
    for b in group:
        for c in topology.blocks[b].adjacent_cers:
            cer = topology.cers[color][c]
            if cer.id != space.id and all(not alive[o] for o in cer.inner_blocks):
                return True
    return False


def shut_in(topology: Topology, color: int, group: set[int], space: CER, alive: dict[int, bool]) -> bool:
    """Is the group shut in by opponent blocks read alive and out of atari, its every liberty
    outside the space one the attacker fills keeping two liberties?"""
    inside = set(space.points.tolist())
    for b in group:
        block = topology.blocks[b]
        for o in block.opponents:
            if not alive[o] or len(topology.blocks[o].liberties) < 2:
                return False
        for p in block.liberties.tolist():
            if p in inside:
                continue
            after = topology.liberties_after(p, -color)
            if after is None or len(after - {p}) < 2:
                return False
    return True
