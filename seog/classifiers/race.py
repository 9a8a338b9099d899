"""Liberty races: dead groups their only capturer may not be able to take, flagged for a person.

A group called dead whose one living neighbour is a group short of liberties, with no other
dead group beside that neighbour, is a race between the two: a capture either way or a seki
(the corners of kgs-2017-q1's `2017-02-13-1` and `2017-02-28-24`). The race is read on liberty
counts alone: each side's outside liberties (one-point eyes among them, which the other side
may fill only to capture), the liberties they share, and who fills which first. When the dead
group, moving first, is not taken, the verdict is not changed (most such groups are dead all
the same) but both groups are flagged uncertain with the doubt 'race' (its figures on the
KataGo-labelled archive: docs/model.md). A race where a person has decided a block of either
side (source 'override') is not in doubt.
"""

from __future__ import annotations

from functools import lru_cache

from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source
from seog.features.topology import Topology

CAPTURER, GROUP, SEKI = 1, -1, 0  # outcomes of a race


@lru_cache(maxsize=1 << 15)  # bounded: a server meets new races for as long as it runs
def race(capturer: int, capturer_eyes: int, group: int, group_eyes: int, shared: int,
         capturer_moves: bool, passes: int = 0) -> int:
    """Who takes whom (``CAPTURER``, ``GROUP``) or ``SEKI``, both playing their best, from each
    side's outside liberties (of which ``*_eyes`` are one-point eyes) and their ``shared`` ones."""
    if passes == 2:
        return SEKI
    mine, his, his_eyes = (capturer, group, group_eyes) if capturer_moves else (group, capturer, capturer_eyes)
    win = CAPTURER if capturer_moves else GROUP
    if his + shared == 1:
        return win  # his last liberty: filling it captures, even inside an eye
    results = [race(capturer, capturer_eyes, group, group_eyes, shared, not capturer_moves, passes + 1)]
    if his > his_eyes:  # fill one of his outside liberties that is not an eye
        fewer = (capturer, capturer_eyes, group - 1, group_eyes) if capturer_moves else \
            (capturer - 1, capturer_eyes, group, group_eyes)
        results.append(race(*fewer, shared, not capturer_moves))
    if shared and mine + shared > 1:  # fill a shared liberty, keeping one of his own
        results.append(race(capturer, capturer_eyes, group, group_eyes, shared - 1, not capturer_moves))
    return max(results) if capturer_moves else min(results)


def _liberties(topology: Topology, blocks: list[int]) -> set[int]:
    return {int(p) for b in blocks for p in topology.blocks[b].liberties}


def _eyes(topology: Topology, blocks: list[int], color: int) -> set[int]:
    """The one-point empty regions bordered by ``blocks`` alone."""
    own = set(blocks)
    return {int(r.points[0]) for b in blocks for r in (topology.regions[i] for i in topology.blocks[b].regions)
            if len(r.points) == 1 and r.borders == {color} and own.issuperset(r.blocks)}


def doubtful(topology: Topology, statuses: dict[int, BlockStatus], settings: PassSettings = DEFAULT) -> set[int]:
    """The blocks of every dead group (dead blocks sharing liberties) and of its only capturer
    (the living blocks of one chain) where the group, moving first, is not taken, unless a person
    decided one of them. A side with more than ``settings.race_max_liberties`` liberties wins any
    race these counts describe: such a pair is not read."""
    out: set[int] = set()
    seen: set[int] = set()
    for block in topology.blocks:
        if statuses[block.id].alive or block.id in seen:
            continue
        group = [b for b in topology.chains[block.chain].blocks if not statuses[b].alive]
        seen.update(group)
        around = {o for b in group for o in topology.blocks[b].opponents if statuses[o].alive}
        chains = {topology.blocks[o].chain for o in around}
        if len(chains) != 1:
            continue
        capturer = [b for b in topology.chains[chains.pop()].blocks if statuses[b].alive]
        if any(statuses[b].source in (Source.BENSON, Source.OVERRIDE) for b in capturer + group):
            continue
        if any(not statuses[o].alive and o not in group for b in capturer for o in topology.blocks[b].opponents):
            continue  # the capturer can gain liberties elsewhere
        libs_c, libs_g = _liberties(topology, capturer), _liberties(topology, group)
        if max(len(libs_c), len(libs_g)) > settings.race_max_liberties:
            continue
        shared = libs_c & libs_g
        eyes_c = len(_eyes(topology, capturer, -block.color))  # an eye is never a shared liberty
        eyes_g = len(_eyes(topology, group, block.color))
        if race(len(libs_c) - len(shared), eyes_c, len(libs_g) - len(shared), eyes_g, len(shared), False) != CAPTURER:
            out.update(group, capturer)
    return out


def flag_races(topology: Topology, statuses: dict[int, BlockStatus],
               settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """``statuses`` with the blocks of doubtful races, and those alone, in doubt for the race
    (a block the model doubts keeps that reason); verdicts unchanged. It runs once, after any
    overrides (``status.apply_passes``)."""
    racing = doubtful(topology, statuses, settings)
    changed = {b: st.doubted(Doubt.RACE if b in racing else Doubt.NONE) for b, st in statuses.items()
               if st.doubt != Doubt.MODEL and (st.doubt == Doubt.RACE) != (b in racing)}
    return {**statuses, **changed} if changed else statuses
