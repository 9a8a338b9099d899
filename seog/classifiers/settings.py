"""The passes' thresholds: every number a pass of ``seog.classifiers`` decides by, in one frozen
dataclass (``PassSettings``); ``DEFAULT`` holds the values the shipped model is measured with
(docs/model.md, "Settings").

Each pass takes the settings as an argument (``settings``, ``DEFAULT`` when none is given):
``status.decide`` hands them to the heuristic, the rules of ``status.PIPELINE`` and the race
flag. The nets' margins (cascade, refiner, flag and part margins) are a model's own: a model
file writes them (``classifiers.choices``) and its values come first; ``cascade_margin`` and
``refiner_margin`` are what ``model_file`` gives a model that names none. ``sure`` is ``vocabulary.SURE`` and the search limits are
``features.reading``'s defaults, named here so that one table lists every threshold.

    from dataclasses import replace
    decide(topology, model, settings=replace(DEFAULT, read_min_stones=2))
"""

from __future__ import annotations

from dataclasses import dataclass

from seog.classifiers.vocabulary import SURE
from seog.features import reading as search


@dataclass(frozen=True)
class PassSettings:
    """One field per threshold, grouped by the pass that reads it."""

    # the heuristic (``status.heuristic``, no model)
    heuristic_eye_space: int = 2  # eye-space points that make a block alive; a plain fallback, not tuned
    heuristic_reach: int = 3  # how far around its chain stones are counted; a plain fallback, not tuned

    # flags (a model file's own margins come first: ``model_file``, ``choices``)
    cascade_margin: float = 0.25  # flag the cascade when |p - 0.5| is below; the shipped model names 0
    refiner_margin: float = 0.25  # one pass this near 0.5 runs the symmetric mean (and flags, without a flag margin)
    sure: float = SURE  # a rule turning a reader this sure flags it; the calibration's top bin, not swept

    # tactical reading (``classifiers.reading``; the search is ``features.reading``)
    read_min_stones: int = 4  # smaller are left to the nets: read, 1-3 stones disagreed with KataGo 53 of 62
    read_max_liberties: int = 3  # blocks with more are not read; 2 and 4 put no more hash positions right
    read_max_chain_liberties: int = 5  # more: the chain connects out; 3-8 tie on hash (experiments/settings_sweep.py)
    read_depth: int = search.DEPTH  # plies the search looks ahead; 8-16 put no more hash positions right
    read_nodes: int = search.NODES  # positions searched per block; the longest hash-side proof takes 66
    read_position_nodes: int = search.POSITION_NODES  # and per position; the worst dev position: about 17 ms

    # eye shape (``classifiers.eyespace``)
    big_eye: int = 7  # a region of this many empty points makes a group called dead alive: Go theory
    alone_eye: int = 6  # an opponent group with one eye this big (stones too) lives alone; hash + small
    big_eye_and_another: int = 6  # and this big beside another eye; six points make one (2017-01-13-14)
    few_stones: int = 3  # opponent stones too few to live inside a big eye: Go theory
    open_board: float = 0.5  # a region over this share of the board is no eye (a four-move opening)
    small_eye: int = 8  # regions up to this size are a walled-in group's eyes; chosen with the rule, not swept
    taken_min: int = 2  # prisoners in atari this big leave an eye once taken (one stone: a ko); hard__9700868

    # mutual seki (``classifiers.seki``) and races (``classifiers.race``)
    seki_min_opponent: int = 4  # smaller partners may be thrown in: the archive's one wrong revival, 2 stones
    race_max_liberties: int = 12  # a side with more wins any race the liberty counts describe; not swept

    # which groups to read (``classifiers.trigger``; 0 turns a way off): chosen on hash, docs/reading.md
    trigger_min_stones: int = 2  # smaller groups are left to the nets; 2-6 swept, 2 reaches most
    trigger_few_liberties: int = 0  # off: 2-4 reach no wrong hash position the race misses, at more groups
    trigger_roomy: int = 0  # off: eye room under 6 reaches one more wrong hash position at 3.2 groups a position
    trigger_race_liberties: int = 6  # both bordering groups this short of liberties: 9 of 11 wrong hash reached


DEFAULT = PassSettings()
