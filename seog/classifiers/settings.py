"""The passes' thresholds: every number a pass of ``seog.classifiers`` decides by, in one frozen
dataclass (``PassSettings``); ``DEFAULT`` holds the values the shipped model is measured with
(docs/model.md, "Settings", says how each was chosen, with its figures).

Each pass takes the settings as an argument (``settings``, ``DEFAULT`` when none is given):
``status.decide`` hands them to the heuristic, the passes of ``status.PIPELINE`` and the race
flag. The nets' margins (cascade, refiner, flag and part margins) are a model's own: a model
file writes them (``classifiers.choices``) and its values come first; ``cascade_margin`` and
``refiner_margin`` are what ``model_file`` gives a model that names none. ``sure`` is
``vocabulary.SURE`` and the search limits are ``features.reading``'s defaults, named here so that one table lists every threshold.

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
    sure: float = SURE  # a pass turning a reader this sure flags it; the calibration's top bin

    # tactical reading (``classifiers.reading``; the search is ``features.reading``)
    read_min_stones: int = 4  # smaller blocks are left to the nets, which read them better
    read_max_liberties: int = 3  # blocks with more liberties are not read
    read_max_chain_liberties: int = 5  # a chain with more has connected out
    read_depth: int = search.DEPTH  # plies the search looks ahead
    read_nodes: int = search.NODES  # positions searched per block: above the longest held-out proof
    read_position_nodes: int = search.POSITION_NODES  # and per position: a bound on a position's reading time

    # eye shape (``classifiers.eyespace``)
    big_eye: int = 7  # a region of this many empty points makes a group called dead alive: no such eye dies
    alone_eye: int = 6  # an opponent group with one eye this big (stones too) lives alone
    big_eye_and_another: int = 6  # and this big beside another eye: six points make one eye
    few_stones: int = 3  # opponent stones too few to live inside a big eye
    open_board: float = 0.5  # a region over this share of the board is no eye (a four-move opening)
    small_eye: int = 8  # regions up to this size are a walled-in group's eyes
    taken_min: int = 2  # prisoners in atari this big leave an eye once taken (one stone: a ko)

    # mutual seki (``classifiers.seki``) and races (``classifiers.race``)
    seki_min_opponent: int = 4  # smaller partners may be stones thrown in
    race_max_liberties: int = 12  # a side with more wins any race the liberty counts describe

    # which groups to read (``classifiers.trigger``; 0 turns a way off): chosen on hash, docs/reading.md
    trigger_min_stones: int = 2  # smaller groups are left to the nets; 2-6 swept, 2 reaches most
    trigger_few_liberties: int = 0  # off: 2-4 reach no wrong hash position the race misses, at more groups
    trigger_roomy: int = 0  # off: eye room under 6 reaches one more wrong hash position at 3.2 groups a position
    trigger_race_liberties: int = 6  # both bordering groups this short of liberties: 9 of 11 wrong hash reached

    # the life-and-death pass (``classifiers.life``) on the groups the trigger picks
    life_nodes: int = 150  # moves each search may play: 150, 300 and 600 read hash alike, 150 the smallest
    life_position_nodes: int = 1200  # moves all its searches may play on the board (owl, pre-reads, races): bounds its time


DEFAULT = PassSettings()
