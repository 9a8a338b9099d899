"""The recorded count as evidence: which blocks in doubt, turned, make the count equal the players'.

A record whose RE gives a count (``W+56.5``) says more about its dead stones than any net: a
reading whose count differs from it has read a group wrong (or the players agreed otherwise).
``fit_record`` looks for the most probable set of turns that makes the count equal the record:

    units      the blocks no proof settles (not Benson's, the static pass's, a ruling's, the
               marks' or the caller's), as
               groups: the blocks of one chain that share a status, and each block alone
    cost       a unit's cost is the nets' confidence in its status as read, as log-odds (the
               largest of its blocks'): turning a block read at p 0.6 costs little, at 0.99 much
    deltas     each unit turned alone is counted exactly; sets of up to ``FitSettings.turns``
               units whose deltas add up to the gap are counted again as a whole
    choose     the cheapest set whose count equals the record, when the next cheapest costs at
               least ``FitSettings.clear`` more; otherwise none (two fits about as good, or none)

A turned block the nets were sure of (``SURE``) is turned only by the cheapest exact fit, and
stays flagged. The search never reads the board again: it only asks the count.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from seog.classifiers.vocabulary import SURE, BlockStatus, Doubt, Source
from seog.features.topology import Topology
from seog.scoring.count import count, dead_mask
from seog.scoring.result import FitOutcome
from seog.scoring.rules import Rules

PROVEN = frozenset({Source.BENSON, Source.ATARI, Source.MARKUP, Source.OVERRIDE, Source.RULING})


@dataclass(frozen=True)
class FitSettings:
    """The search's bounds; chosen on the held-out ``hash`` side (docs/scoring.md)."""

    turns: int = 1  # units turned at most: two or three made more positions wrong on hash
    units: int = 24  # the cheapest units searched
    clear: float = math.log(4)  # the next fit must cost this much more (log-odds: 4 times less likely)
    floor: float = 0.05  # the cost of turning back a block a rule turned against the nets
    min_stones: int = 3  # units of fewer stones are not turned: a stone the players left explains a gap as well


DEFAULT = FitSettings()


@dataclass(frozen=True)
class Fit:
    """The outcome, the statuses as fitted (the blind ones unless ``SETTLED``), the blocks turned
    with their blind statuses, and the count's distance to the record before the fit."""

    outcome: FitOutcome
    statuses: list[BlockStatus]
    turned: tuple[BlockStatus, ...] = ()
    gap: float = 0.0

    @property
    def settled(self) -> bool:
        return self.outcome is FitOutcome.SETTLED

    def why(self, name: Callable[[BlockStatus], str] = lambda st: f"block {st.block}") -> str:
        """For people: what the record did (each turned block by ``name``), or why it could not
        settle the count."""
        gap = f"{abs(self.gap):g} points"
        if self.outcome is FitOutcome.SETTLED:
            turned = ", ".join(f"{name(st)} now {'dead' if st.alive else 'alive'}" for st in self.turned)
            return f"the recorded result settled what the blind reading counted {gap} off: {turned}"
        if self.outcome is FitOutcome.NO_FIT:
            return f"no turn of the blocks in doubt reaches the recorded result ({gap} off): the blind reading stands"
        if self.outcome is FitOutcome.AMBIGUOUS:
            return f"two readings reach the recorded result ({gap} off) about as well: the blind reading stands"
        return ""


@dataclass(frozen=True)
class _Unit:
    blocks: tuple[int, ...]
    cost: float
    sure: bool
    delta: float = 0.0


def fit_record(topology: Topology, statuses: list[BlockStatus], record_margin: float, rules: Rules, komi: float,
               handicap: int = 0, prisoners: dict | None = None, settings: FitSettings = DEFAULT,
               blind_margin: float | None = None) -> Fit:
    """The statuses (block id order) fitted to the recorded margin (Black's, as ``Score.margin``)
    under the position's rules, komi, handicap and prisoners; ``blind_margin``, the margin of the
    statuses as they are when the caller has counted it already."""
    grid = topology.grid

    def margin(dead: np.ndarray) -> float:
        return count(grid, dead, rules, komi, handicap, prisoners).margin

    dead = None
    if blind_margin is None:
        dead = dead_mask(grid, statuses)
        blind_margin = margin(dead)
    blind = blind_margin
    gap = blind - record_margin
    if gap == 0:  # most records: nothing more to build
        return Fit(FitOutcome.AGREES, statuses)
    if not rules.remove_dead:  # every stone counts as it stands: no status changes the count
        return Fit(FitOutcome.NO_FIT, statuses, gap=gap)
    dead = dead_mask(grid, statuses) if dead is None else dead
    units = []
    for unit in _units(topology, statuses, settings)[:settings.units]:
        turned = _turn(dead, statuses, unit.blocks)
        units.append(replace(unit, delta=margin(turned) - blind))
    fits = []
    for k in range(1, settings.turns + 1):
        for chosen in itertools.combinations(units, k):
            if abs(sum(u.delta for u in chosen) + gap) > 1e-6 or not _disjoint(chosen):
                continue
            blocks = tuple(b for u in chosen for b in u.blocks)
            if k > 1 and margin(_turn(dead, statuses, blocks)) != record_margin:
                continue
            fits.append((sum(u.cost for u in chosen), blocks, any(u.sure for u in chosen)))
    if not fits:
        return Fit(FitOutcome.NO_FIT, statuses, gap=gap)
    fits.sort(key=lambda f: f[0])
    best_cost, blocks, sure = fits[0]
    if len(fits) > 1 and fits[1][0] - best_cost < settings.clear:
        return Fit(FitOutcome.AMBIGUOUS, statuses, gap=gap)
    out = list(statuses)
    for b in blocks:
        st = statuses[b]
        doubt = Doubt.RECORD if _confidence(st) >= SURE else st.doubt
        out[b] = replace(st.turned(not st.alive, Source.RECORD), doubt=doubt)
    return Fit(FitOutcome.SETTLED, out, tuple(statuses[b] for b in blocks), gap=gap)


def _units(topology: Topology, statuses: list[BlockStatus], settings: FitSettings) -> list[_Unit]:
    """The sets of blocks that may be turned together, cheapest first: each open block alone,
    and the open blocks of one chain that share a status."""
    open_ = {st.block for st in statuses if st.p_alive is not None and st.source not in PROVEN}
    sets = {(b,) for b in open_}
    for chain in topology.chains:
        for alive in (True, False):
            members = tuple(sorted(b for b in chain.blocks if b in open_ and statuses[b].alive == alive))
            if len(members) > 1:
                sets.add(members)
    units = [_Unit(s, max(_cost(statuses[b], settings) for b in s),
                   any(_confidence(statuses[b]) >= SURE for b in s)) for s in sets
             if sum(len(statuses[b].points) for b in s) >= settings.min_stones]
    return sorted(units, key=lambda u: (u.cost, u.blocks))


def _confidence(st: BlockStatus) -> float:
    """The nets' probability of the status as read."""
    return float(st.p_alive) if st.alive else 1.0 - float(st.p_alive)


def _cost(st: BlockStatus, settings: FitSettings) -> float:
    """Log-odds of the status as read against its turn; a status a rule gave against the nets costs
    ``settings.floor``."""
    p = min(max(_confidence(st), 1e-4), 1 - 1e-4)
    return max(math.log(p / (1 - p)), settings.floor)


def _turn(dead: np.ndarray, statuses: list[BlockStatus], blocks: tuple[int, ...]) -> np.ndarray:
    out = dead.copy()
    for b in blocks:
        out.flat[statuses[b].points] = statuses[b].alive  # alive now read dead, and the other way
    return out


def _disjoint(units: tuple[_Unit, ...]) -> bool:
    seen = set()
    for u in units:
        if seen.intersection(u.blocks):
            return False
        seen.update(u.blocks)
    return True
