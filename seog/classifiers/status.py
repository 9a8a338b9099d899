"""Block statuses: the cheap static pass, and the decision for every block of a position.

The static pass settles the obvious blocks: unconditionally alive by Benson's algorithm, or
dead because a finished game left them in atari where the opponent can take them safely (the
capturing stone keeps two liberties, so no ko or snapback answers it). A block in atari that can
only be taken into a recapture is left to the model: players count such blocks alive often
enough (on KataGo-labelled training games, 69 of 192, against 90 of 4,462 safely capturable ones).
The rest are *unsettled*; a trained cascade decides them when a model is given (``cascade``),
otherwise ``heuristic`` does. A model with an ownership refiner (``refiner``) then reads the
whole board with every verdict and decides every block Benson does not settle. Then the passes
after the nets that the model keeps (``model_passes``, chosen on held-out data), in this order: tactical reading
(``classifiers.reading``) calls dead the big blocks called alive that are captured whoever
moves first (``reading``); groups called dead that enclose a region too big to
kill are alive (``big-eye``); the eye-space pass (``eyespace``) kills the groups called alive
that have no room for two eyes among opponents that live on their own; blocks called dead that
are one side of a mutual seki are alive (``seki``), and so are walled-in groups called dead that
enclose two eyes (``eyes``). The eye-shape passes (big-eye, eyespace, eyes) run only on a
finished position. Last, ``classifiers.race`` flags, without changing them, dead groups in a liberty race
their only capturer may not win. Every threshold these passes read is a field of the settings
they are given (``classifiers.settings``: ``decide(..., settings=...)``, ``DEFAULT`` when none is).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import numpy as np

from seog.classifiers.capturers import revive_uncaptured
from seog.classifiers.cascade import classify
from seog.classifiers.eyespace import big_eye_alive, enclosed_alive, eyeless_dead
from seog.classifiers.life import life_decided
from seog.classifiers.model_file import Model
from seog.classifiers.race import flag_races
from seog.classifiers.reading import read_dead
from seog.classifiers.refiner import refine
from seog.classifiers.seki import seki_alive
from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.vocabulary import (  # noqa: F401  (the vocabulary, also reached from here)
    ALIVE,
    DEAD,
    EYE_SHAPE_PASSES,
    SURE,
    BlockStatus,
    Doubt,
    Source,
    redecide,
)
from seog.features.arrays import grow
from seog.features.benson import unconditionally_alive
from seog.features.coords import adjacent
from seog.features.topology import Topology

# The passes after the nets, in the order they run, each named by the source it gives; each is a
# function of (topology, statuses, settings) -> statuses.
PIPELINE = ((Source.READING, read_dead), (Source.BIG_EYE, big_eye_alive), (Source.EYESPACE, eyeless_dead),
            (Source.SEKI, seki_alive), (Source.EYES, enclosed_alive), (Source.LIFE, life_decided))


def static_statuses(topology: Topology) -> dict[int, BlockStatus]:
    """Statuses of the blocks the static pass settles, keyed by block id."""
    settled = {}
    for b in unconditionally_alive(topology):
        block = topology.blocks[b]
        settled[b] = BlockStatus(b, block.color, block.points, True, Source.BENSON)
    for block in topology.blocks:
        if block.id not in settled and len(block.liberties) == 1 and safely_capturable(topology, block):
            settled[block.id] = BlockStatus(block.id, block.color, block.points, False, Source.ATARI)
    return settled


def safely_capturable(topology: Topology, block) -> bool:
    """Can the opponent take this block (in atari) so that the capturing stone keeps two liberties?

    Worked out from the topology: the capturing stone joins the opponent blocks next to it, and
    its liberties are theirs and its empty neighbours (less the point it fills), and the stones it
    takes (the blocks of ours next to it whose only liberty it fills) that touch it or them.
    """
    near = adjacent(topology.size)
    block_of = topology.block_of.ravel().tolist()
    point = int(block.liberties[0])
    joined, taken, liberties = {-1}, [], set()  # joined: block labels, -1 for the capturing stone
    for q in near[point]:
        label = block_of[q]
        if not label:
            liberties.add(q)
            continue
        other = topology.blocks[label - 1]
        if other.color != block.color:
            joined.add(label)
            liberties.update(other.liberties.tolist())
        elif len(other.liberties) == 1:
            taken.extend(other.points.tolist())
    liberties.discard(point)
    block_of[point] = -1
    liberties.update(p for p in taken if any(block_of[q] in joined for q in near[p]))
    return len(liberties) >= 2


def heuristic(topology: Topology, block_ids: list[int], settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """A simple rule for unsettled blocks, used when no trained model is available.

    A block is alive when its chain borders at least ``settings.heuristic_eye_space`` points (two)
    of eye space (empty regions bordered by its colour alone); otherwise when the stones of its
    colour within distance ``heuristic_reach`` (three) of the chain are at least as many as the
    opponent's; else dead.
    """
    out = {}
    grid = topology.grid
    for b in block_ids:
        block = topology.blocks[b]
        chain = topology.chains[block.chain]
        regions = {r for m in chain.blocks for r in topology.blocks[m].regions}
        eye_space = sum(len(topology.regions[r].points) for r in regions
                        if topology.regions[r].borders == {block.color})
        if eye_space >= settings.heuristic_eye_space:
            alive = True
        else:
            mask = np.zeros(grid.shape, dtype=bool)
            mask.flat[chain.points] = True
            near = grow(mask, settings.heuristic_reach) & ~mask
            own = int((grid[near] == block.color).sum())
            opp = int((grid[near] == -block.color).sum())
            alive = own >= opp
        out[b] = BlockStatus(b, block.color, block.points, alive, Source.HEURISTIC)
    return out


def cascade_statuses(topology: Topology, model: Model | None = None, settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """Every block's status before the refiner: the static pass, then the nets (the heuristic
    without a model), with uncaptured blocks brought back; what the refiner reads."""
    settled = static_statuses(topology)
    unsettled = [b.id for b in topology.blocks if b.id not in settled]
    if unsettled:
        if model is not None:
            settled.update(classify(topology, unsettled, settled, model))
        else:
            settled.update(heuristic(topology, unsettled, settings))
    return revive_uncaptured(topology, settled)


def decide(topology: Topology, model: Model | None = None, passes: Collection[str] | None = None,
           finished: bool = True, settings: PassSettings = DEFAULT,
           overrides: Mapping[int, bool] | None = None,
           reading: dict[int, BlockStatus] | None = None) -> list[BlockStatus]:
    """A status for every block, in block id order: what the nets read (``read``, or ``reading``
    when the caller has it for this position, ``finished`` and ``settings``: deciding again with
    other passes need not read twice), then the passes after them (``apply_passes``: those the
    model keeps, ``model_passes``, or those named in ``passes``, ``()`` for none, and none
    without a model; the eye-shape passes only on a ``finished`` position), every pass with the
    thresholds of ``settings``; then a person's ``overrides`` (block id -> alive?)."""
    passes = () if model is None else model_passes(model) if passes is None else passes
    reading = read(topology, model, finished, settings) if reading is None else reading
    settled = apply_passes(topology, reading, passes, finished, settings, overrides)
    return [settled[b.id] for b in topology.blocks]


def passes_without_eye_shape(model: Model | None) -> tuple[str, ...]:
    """The passes a model keeps (``model_passes``; every pass for one that names none) less the
    eye-shape passes, which assume closed borders."""
    kept = model_passes(model)
    return tuple(name for name, _ in PIPELINE if not name.reads_eye_shape and (kept is None or name in kept))


def model_passes(model: Model | None) -> tuple[str, ...] | None:
    """The passes after the nets that a model keeps (``Model.passes``, chosen with its reader on
    held-out data: docs/model.md); None, every pass, for no model or one that names none."""
    return None if model is None else model.passes


def reads_finished(model: Model | None) -> bool:
    """Is the model's reader told whether the position is finished (``Refiner.reads_finished``)?"""
    return model is not None and model.refiner is not None and model.refiner.reads_finished


def read(topology: Topology, model: Model | None = None, finished: bool = True,
         settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """The statuses before the passes after the nets: the static pass and the cascade
    (``cascade_statuses``), then the refiner when the model has one (told whether the position
    is ``finished`` when it reads that). The nets' flag margins are the model's own
    (``model_file``), not ``settings``'."""
    settled = cascade_statuses(topology, model, settings)
    if model is not None and model.refiner is not None:
        settled = refine(topology, settled, model.refiner, model.refiner_margin, finished,
                         model.part_margin, model.flag_margin)
    return settled


def apply_passes(topology: Topology, settled: dict[int, BlockStatus], passes: Collection[str] | None = None,
                 finished: bool = True, settings: PassSettings = DEFAULT,
                 overrides: Mapping[int, bool] | None = None) -> dict[int, BlockStatus]:
    """The passes of ``later_passes`` after the nets' reading: all of them, or those named in
    ``passes`` (``()`` for none), less the eye-shape passes when the position is not
    ``finished``, each with the thresholds of ``settings``. A block a pass turns against a
    reader that was sure of it (``settings.sure``) is flagged (``doubt`` 'rule'). A person's
    ``overrides`` (block id -> alive?) come after the passes, never in doubt. The race flag
    (``classifiers.race``) always runs last, once: it changes no verdict, and a race a person
    has settled is not in doubt."""
    if passes is not None and (unknown := set(passes) - {name for name, _ in PIPELINE}):
        raise ValueError(f"unknown passes {sorted(unknown)}: the passes are "
                         f"{', '.join(name for name, _ in PIPELINE)}")
    before = settled
    for name, run in PIPELINE:
        if (passes is None or name in passes) and (finished or not name.reads_eye_shape):
            settled = run(topology, settled, settings)
    settled = flag_sure_turned(before, settled, settings.sure)
    return flag_races(topology, overridden(settled, overrides or {}), settings)


def overridden(settled: dict[int, BlockStatus], overrides: Mapping[int, bool]) -> dict[int, BlockStatus]:
    """``settled`` with a person's verdicts (block id -> alive?): source 'override', the nets'
    probability kept, no doubt."""
    out = dict(settled)
    for b, alive in overrides.items():
        st = settled[b]
        out[b] = BlockStatus(st.block, st.color, st.points, bool(alive), Source.OVERRIDE, st.p_alive)
    return out


def flag_sure_turned(before: dict[int, BlockStatus], settled: dict[int, BlockStatus],
                     sure: float = DEFAULT.sure) -> dict[int, BlockStatus]:
    """``settled`` with every block whose verdict a pass turned although the reader (``before``
    the passes) gave it a probability of ``sure`` or more either way flagged ``doubt`` 'rule'."""
    out = dict(settled)
    for b, st in settled.items():
        p = before[b].p_alive
        if (st.alive != before[b].alive and p is not None and abs(p - 0.5) >= sure - 0.5
                and st.doubt != Doubt.RULE):
            out[b] = st.doubted(Doubt.RULE)
    return out


def later_passes() -> tuple:
    """The passes that run after the nets, in order: ``(name, function of (topology, statuses,
    settings) -> statuses)`` (``PIPELINE``; ``settings`` may be left out for ``DEFAULT``)."""
    return PIPELINE
