"""The life-and-death pass: the groups the trigger picks (``classifiers.trigger``), read by the
search of ``seog.reading.life``.

A search that ends (no line cut short by its budget or depth) and finds the group alive, or dead
whoever moves first without a ko, decides each of the group's blocks the trigger picked (source
'life'). A group whose fate hangs on who moves first or on a ko keeps the nets' verdict: in a
finished game both players passed, and the position alone does not say who would have played
there. A search that runs out of budget decides nothing; where its unfinished reading says
otherwise than the verdict, the block is flagged (``doubt`` 'unread'); the searches of a
position share a budget too, and a group left when it is spent is not read. Blocks Benson
settles are never read. The pass runs on finished positions only, like the eye-shape passes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from seog.classifiers.settings import DEFAULT, PassSettings
from seog.classifiers.trigger import groups_to_read
from seog.classifiers.vocabulary import BlockStatus, Doubt, Source, redecide
from seog.features.board import Board
from seog.features.coords import index_to_flat
from seog.features.topology import Topology
from seog.reading import life
from seog.reading.board import SearchBoard
from seog.reading.groups import group_of
from seog.reading.results import Status


def life_decided(topology: Topology, statuses: dict[int, BlockStatus],
                 settings: PassSettings = DEFAULT) -> dict[int, BlockStatus]:
    """``statuses`` with the triggered groups' blocks decided where a search proves their life or
    death, and flagged 'unread' where an unfinished search says otherwise than the verdict."""
    picked = [b for group in groups_to_read(topology, statuses, settings) for b in group.blocks
              if not Source(statuses[b].source).settled]
    if not picked:
        return statuses
    readings = group_readings(topology, tuple(picked), settings.life_nodes, settings.life_position_nodes)
    turned, unread = {}, []
    for b, reading in readings.items():
        if reading is None or reading.status is Status.CRITICAL or reading.ko:
            continue
        alive = reading.status is Status.ALIVE
        if reading.proven:
            turned[b] = alive
        elif alive != statuses[b].alive:
            unread.append(b)
    out = redecide(statuses, turned, Source.LIFE)
    if unread:
        out = dict(out)
        for b in unread:
            if out[b].doubt == Doubt.NONE:
                out[b] = out[b].doubted(Doubt.UNREAD)
    return out


def group_readings(topology: Topology, blocks: tuple[int, ...], nodes: int,
                   position_nodes: int) -> dict[int, life.Reading | None]:
    """The life-and-death reading of each block of ``blocks`` (ids of ``topology``): one search
    a group, its reading shared by the blocks of the group; each search plays at most ``nodes``
    moves and all of them ``position_nodes`` (a group left when they are spent is not read: None)."""
    return dict(zip(blocks, _readings(topology.grid.astype(np.int8).tobytes(), topology.size,
                                      tuple(int(topology.blocks[b].points[0]) for b in blocks), nodes,
                                      position_nodes)))


@lru_cache(maxsize=256)
def _readings(grid: bytes, size: int, anchors: tuple[int, ...], nodes: int,
              position_nodes: int) -> tuple[life.Reading | None, ...]:
    # cached: a decision made again (other passes, the held-out trials) reads a position once
    board = SearchBoard.from_board(Board.from_grid(np.frombuffer(grid, dtype=np.int8).reshape(size, size)))
    known: dict[int, life.Reading | None] = {}
    left = position_nodes
    for index in anchors:
        point = index_to_flat(index, size)
        if point in known:
            continue
        if left <= 0:
            known[point] = None
            continue
        before = board.played
        reading = life.read(board, point, min(nodes, left))
        left -= board.played - before  # every move: the owl's, the pre-reads' and the races'
        for blk in group_of(board, point):
            for p in blk.stones:
                known[p] = reading
    return tuple(known[index_to_flat(index, size)] for index in anchors)

