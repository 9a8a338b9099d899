"""Benchmark: the search board's play + undo, against the analysis board's play on a copy, and
the nodes a second of tactical reading plays, on the final positions of KGS games.

For the first ``--games`` games of kgs-2017-q1: every legal move of each colour on the final
position, played and taken back on ``seog.reading.board.SearchBoard`` (lists, undo in place),
then played on a copy of ``seog.features.board.Board`` (numpy, what a search without undo would
do), in the same run, alternating ``--rounds`` times; then ``attack`` and ``defend`` of every
block of at most three liberties, with the nodes they played. Prints the load average too.

    python benchmarks/bench_search_board.py [--games 50] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from seog.features import sgf
from seog.features.board import IllegalMove
from seog.features.coords import BLACK, WHITE
from seog.reading import tactics
from seog.reading.board import SearchBoard

KGS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "kgs-2017-q1"


def positions(games: int) -> list:
    out = []
    for path in sorted(KGS.glob("*.sgf"))[:games]:
        try:
            out.append(sgf.load(path).board)
        except sgf.SgfError:
            continue
    return out


def legal_moves(board) -> list[tuple[int, int]]:
    search = SearchBoard.from_board(board)
    return [(color, p) for color in (BLACK, WHITE) for p in search.points if search.is_legal(color, p)]


def time_search_board(boards, moves) -> tuple[int, float]:
    searches = [SearchBoard.from_board(board) for board in boards]  # built once, as a search does
    count, start = 0, time.perf_counter()
    for search, tries in zip(searches, moves):
        for color, point in tries:
            search.play(color, point)
            search.undo()
        count += len(tries)
    return count, time.perf_counter() - start


def time_copy_and_play(boards, moves) -> tuple[int, float]:
    count, start = 0, time.perf_counter()
    for board, tries in zip(boards, moves):
        for color, point in tries:
            trial = board.copy()
            try:
                trial.play(color, point)
            except IllegalMove:
                pass
        count += len(tries)
    return count, time.perf_counter() - start


def time_tactics(boards) -> tuple[int, int, float]:
    searches = nodes = 0
    start = time.perf_counter()
    for board in boards:
        search = SearchBoard.from_board(board)
        seen = set()
        for p in search.points:
            blk = search.block[p]
            if blk is None or id(blk) in seen or len(blk.libs) > 3:
                continue
            seen.add(id(blk))
            for question in (tactics._Search.attack_root, tactics._Search.defend_root):
                reader = tactics._Search(search, p, None, tactics.DEFAULT_LIMITS)
                question(reader)
                nodes += reader.nodes
                searches += 1
    return searches, nodes, time.perf_counter() - start


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args()
    if not KGS.is_dir():
        print(f"no games at {KGS}")
        return 1
    boards = positions(args.games)
    moves = [legal_moves(b) for b in boards]
    print(f"{len(boards)} final positions, {sum(map(len, moves))} legal moves; "
          f"load average {os.getloadavg()[0]:.2f}")
    best = {"search board play + undo": 0.0, "analysis board copy + play": 0.0}
    for _ in range(args.rounds):
        for label, run in (("search board play + undo", time_search_board),
                           ("analysis board copy + play", time_copy_and_play)):
            count, seconds = run(boards, moves)
            best[label] = max(best[label], count / seconds)
    for label, rate in best.items():
        print(f"{label:<28} {rate:>10,.0f} /s")
    print(f"ratio: {best['search board play + undo'] / best['analysis board copy + play']:.1f}x")
    searches, nodes, seconds = time_tactics(boards)
    print(f"tactics: {searches} searches (attack and defend of the blocks of 1-3 liberties), "
          f"{nodes} nodes in {seconds:.2f} s: {nodes / seconds:,.0f} nodes/s, "
          f"{1000 * seconds / max(searches, 1):.2f} ms a search")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
