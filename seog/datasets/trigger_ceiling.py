"""The trigger's ceiling on a held-out side: how many misread positions a reader of the triggered
groups could mend, with GNU Go's owl reading as a realistic reader beside a perfect one.

Every counted game of the side is scored blind (``from_game(..., ignore_result=True)``, as
``seog score`` reads it) and set against KataGo's dead stones (the planes caches). The figures:
the wrong positions; those with every wrong block inside a triggered group (the reach, which is
also what a perfect reader of the triggered groups mends: the ceiling); what GNU Go's
``owl_attack``/``owl_defend`` on each triggered block, and its ``dragon_status`` (owl and
semeai together), would mend and break, under each way of resolving a critical group; the share of positions and groups triggered; the trigger's time.
GNU Go's answers are kept in a JSON file (``--owl-cache``, keyed by game id and vertex), so a
rerun does not ask again. ``--sweep`` instead measures the reach of a grid of trigger settings
without GNU Go (the selection rule of docs/reading.md); ``--life-pass`` measures the
life-and-death pass of the scoring path (``classifiers.life``) on the same positions.

    python -m seog.datasets.trigger_ceiling ../shared/data/kgs-6d-more.tar.xz ../shared/data/kgs-6d-train.tar.xz \\
        --side hash --planes cache/planes-more.npz cache/planes-train.npz [--limit N] [--sweep] \\
        [--owl-cache cache/owl-hash.json] [--life-pass [--life-nodes N]] [--out runs/trigger-hash.json]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from seog.datasets.heldout import held_out_arguments, milliseconds, write_figures

OWL_TIMEOUT = 20.0  # seconds per owl command: a loaded machine has needed 5 s on a 19x19 corner fight
# GNU Go's owl answers: 0 fails, 1 succeeds, 2 and 3 succeed by ko (3: a ko the mover must find threats for)
FAILS = 0
# How a critical group (the attacker kills moving first, the defender lives moving first) is read
# in a finished game, where both players passed: left as it stands (alive), taken (dead), by
# the side to move after the record's last move, or as the nets read it (the reader decides only
# where it is sure either way).
CRITICAL = ("alive", "dead", "to move", "as read")
# The sweep's grid (``--sweep``): each trigger threshold's values, 0 turning its way off.
GRID = {"trigger_min_stones": (2, 3, 4, 6), "trigger_few_liberties": (0, 2, 3, 4),
        "trigger_roomy": (0, 6, 10, 16, 24), "trigger_race_liberties": (0, 4, 6, 8)}
BUDGET = 3.0  # triggered groups a position on average, at most (the selection rule, docs/reading.md)


@dataclass
class Position:
    """One counted position read blind: its board, topology, statuses (by block id), the blocks
    read otherwise than KataGo reads them, and the side to move after the last move."""

    gid: str
    grid: object
    topology: object
    statuses: list
    wrong: frozenset
    truth_alive: dict
    to_move: int
    komi: float


def read_positions(games, model, truth, limit: int | None = None, log=None) -> list[Position]:
    """Every counted game of ``games`` ((id, SGF bytes)) scored blind, against ``truth`` (a
    ``recount.dead_by``); the first ``limit`` counted ones when given."""
    from seog.features import sgf
    from seog.features.coords import BLACK, WHITE
    from seog.features.topology import analyze
    from seog.scoring.request import from_game
    from seog.scoring.result import parse_result
    from seog.scoring.score import score

    out = []
    for gid, data in games:
        if limit is not None and len(out) >= limit:
            break
        try:
            game = sgf.loads(data)
            if not parse_result(game.result).counted:
                continue
            request = from_game(game, ignore_result=True)
            counted = score(request, model)
            dead_truth = truth(game, data, gid)
        except ValueError as exc:
            if log:
                log(f"skipped {gid}: {exc}")
            continue
        topology = analyze(request.board.grid)
        truth_alive = {b.id: not bool(dead_truth.flat[b.points[0]]) for b in topology.blocks}
        wrong = frozenset(b for b in truth_alive if counted.read[b].alive != truth_alive[b])
        last = game.moves[-1][0] if game.moves else (WHITE if game.handicap else BLACK)
        out.append(Position(gid, request.board.grid.copy(), topology, counted.read, wrong, truth_alive,
                            -last if game.moves else last, game.komi))
        if log and len(out) % 100 == 0:
            log(f"  {len(out)} counted positions read")
    return out


def reach(positions: list[Position], settings) -> dict:
    """The trigger's figures without a reader: positions and groups triggered, wrong positions,
    and those with every wrong block in a triggered group (what a perfect reader mends)."""
    from seog.classifiers.trigger import groups_to_read

    tally = Counter()
    for pos in positions:
        groups = groups_to_read(pos.topology, pos.statuses, settings)
        inside = {b for g in groups for b in g.blocks}
        tally["positions"] += 1
        tally["groups"] += len(pos.topology.chains)
        tally["groups triggered"] += len(groups)
        tally["positions triggered"] += bool(groups)
        tally["wrong"] += bool(pos.wrong)
        tally["reached"] += bool(pos.wrong) and pos.wrong <= inside
    return dict(tally)


def sweep(positions: list[Position], budget: float = BUDGET) -> dict:
    """The reach of every setting of ``GRID`` and the choice: the most wrong positions reached
    with at most ``budget`` triggered groups a position on average; ties to fewer groups."""
    from seog.classifiers.settings import DEFAULT

    rows = []
    for values in itertools.product(*GRID.values()):
        named = dict(zip(GRID, values))
        figures = reach(positions, replace(DEFAULT, **named))
        rows.append({**named, "reached": figures["reached"], "wrong": figures["wrong"],
                     "groups a position": round(figures["groups triggered"] / max(figures["positions"], 1), 3)})
    within = [r for r in rows if r["groups a position"] <= budget]
    choice = max(within, key=lambda r: (r["reached"], -r["groups a position"])) if within else None
    return {"budget": budget, "choice": choice, "grid": rows}


class Owl:
    """GNU Go's verdicts on final positions, asked once: ``answers(position, vertices)`` gives
    {vertex: [owl_attack code, owl_defend code, dragon_status word]}, from the JSON cache when
    it has them."""

    def __init__(self, cache: str | None, level: int = 10, timeout: float = OWL_TIMEOUT):
        self.path = Path(cache) if cache else None
        self.known = json.loads(self.path.read_text()) if self.path and self.path.exists() else {}
        self.level, self.timeout = level, timeout
        self.engine = None
        self.seconds = 0.0
        self.asked = 0

    def answers(self, pos: Position, vertices: list[str]) -> dict:
        known = self.known.setdefault(pos.gid, {})
        missing = [v for v in vertices if len(known.get(v, ())) < 3]
        if missing:
            self._ask(pos, missing, known)
        return {v: known[v] for v in vertices if len(known.get(v, ())) == 3}

    def _ask(self, pos: Position, vertices: list[str], known: dict) -> None:
        from seog.datasets.labels import GtpEngine, gnugo_command
        from seog.gtp.client import EngineError, EngineRefused

        if self.engine is None:
            self.engine = GtpEngine(gnugo_command(self.level), "gnugo", self.timeout)
        with tempfile.NamedTemporaryFile("w", suffix=".sgf", delete=False) as fh:
            fh.write(setup_sgf(pos))
            path = fh.name
        start = time.perf_counter()
        try:
            self.engine.send(f"loadsgf {path}")
            for v in vertices:
                known[v] = [_code(self.engine.send(f"owl_attack {v}")), _code(self.engine.send(f"owl_defend {v}")),
                            self.engine.send(f"dragon_status {v}").split()[0]]
                self.asked += 1
        except EngineRefused as exc:
            print(f"gnugo refused {pos.gid}: {exc.message}", file=sys.stderr)
        except EngineError as exc:  # hung or died: start a new one for the next position
            print(f"gnugo failed on {pos.gid}: {exc}", file=sys.stderr)
            self.engine.close()
            self.engine = None
        finally:
            os.unlink(path)
            self.seconds += time.perf_counter() - start

    def save(self) -> None:
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.known, sort_keys=True))

    def close(self) -> None:
        if self.engine is not None:
            self.engine.close()
            self.engine = None


class SeogOwl:
    """seog's own life-and-death reading (``reading.life``) in the place of GNU Go's, in process:
    the same ``answers(position, vertices)``, from seog's ``status`` (the owl search, then the
    races behind a kill) for the owl codes and ``dragon_status`` alike."""

    def __init__(self, nodes: int | None = None):
        self.nodes = nodes
        self.seconds = 0.0
        self.asked = 0

    def answers(self, pos: Position, vertices: list[str]) -> dict:
        from seog.features.board import Board
        from seog.features.coords import gtp_to_index, index_to_flat
        from seog.reading import life
        from seog.reading.board import SearchBoard

        start = time.perf_counter()
        board = SearchBoard.from_board(Board.from_grid(pos.grid))
        size = pos.topology.size
        out = {}
        for v in vertices:
            state, attack, defence = life.status(board, index_to_flat(gtp_to_index(v, size), size), self.nodes)
            out[v] = [int(attack.code), 0 if defence is None else int(defence.code), state.value]
            self.asked += 1
        self.seconds += time.perf_counter() - start
        return out

    def save(self) -> None:
        """Nothing kept: seog's reading is asked again each run."""

    def close(self) -> None:
        """Nothing to end: the reading runs in this process."""


def _code(answer: str) -> int:
    """The result code of an owl answer ('0', or '1 C3', '2 C3', '3 C3')."""
    return int(answer.split()[0])


def setup_sgf(pos: Position) -> str:
    """The final position as an SGF of setup stones, with the side to move (PL)."""
    from seog.features.coords import BLACK, WHITE, index_to_sgf

    size = pos.topology.size
    flat = pos.grid.ravel()
    stones = {c: "".join(f"[{index_to_sgf(int(i), size)}]" for i in (flat == c).nonzero()[0]) for c in (BLACK, WHITE)}
    ab = f"AB{stones[BLACK]}" if stones[BLACK] else ""
    aw = f"AW{stones[WHITE]}" if stones[WHITE] else ""
    return f"(;GM[1]FF[4]SZ[{size}]KM[{pos.komi}]{ab}{aw}PL[{'B' if pos.to_move == BLACK else 'W'}])"


def verdict_kind(answer: list) -> str:
    """'alive' when the owl attack fails, 'dead' when it succeeds (perhaps by ko) and the defence
    fails, else 'critical' (both succeed, either perhaps by ko)."""
    attack, defend = answer[0], answer[1]
    return "alive" if attack == FAILS else "dead" if defend == FAILS else "critical"


def owl_alive(answer: list, mover_attacks: bool, critical: str) -> bool | None:
    """A block's life by GNU Go's owl codes (``verdict_kind``), a critical one as ``critical``
    resolves it (None: the nets' verdict stands)."""
    kind = verdict_kind(answer)
    return kind == "alive" if kind != "critical" else _resolve(mover_attacks, critical)


def dragon_alive(answer: list, mover_attacks: bool, critical: str) -> bool | None:
    """A block's life by GNU Go's ``dragon_status`` (its owl and semeai reading together); None
    (the nets' verdict stands) when it says 'unknown'."""
    status = answer[2]
    if status == "critical":
        return _resolve(mover_attacks, critical)
    return None if status == "unknown" else status == "alive"


def _resolve(mover_attacks: bool, critical: str) -> bool | None:
    return {"alive": True, "dead": False, "to move": not mover_attacks, "as read": None}[critical]


# The realistic readers measured: GNU Go's owl alone, and its dragon status (owl and semeai).
READERS = {"owl": owl_alive, "dragon_status": dragon_alive}


def ceiling(positions: list[Position], settings, owl: Owl, log=None) -> dict:
    """The trigger's figures (``reach``) with GNU Go's owl verdicts on every block of every
    triggered group: the positions they would mend and break, for each ``CRITICAL``."""
    from seog.classifiers.trigger import groups_to_read
    from seog.features.coords import index_to_gtp

    figures = reach(positions, settings)
    tally, named = Counter(), {"reached games": [], "not reached games": []}
    for reader, r in itertools.product(READERS, CRITICAL):
        named[f"{reader} mends ({r}) games"], named[f"{reader} breaks ({r}) games"] = [], []
    trigger_seconds = []
    for n, pos in enumerate(positions, 1):
        start = time.perf_counter()
        groups = groups_to_read(pos.topology, pos.statuses, settings)
        trigger_seconds.append(time.perf_counter() - start)
        inside = {b for g in groups for b in g.blocks}
        if pos.wrong:
            named["reached games" if pos.wrong <= inside else "not reached games"].append(pos.gid)
        if not groups:
            continue
        size = pos.topology.size
        vertex = {b: index_to_gtp(int(pos.topology.blocks[b].points[0]), size) for b in inside}
        codes = owl.answers(pos, sorted(set(vertex.values())))
        for b in inside:
            if vertex[b] not in codes:
                tally["blocks without an answer"] += 1
                continue
            kind = verdict_kind(codes[vertex[b]])
            tally[f"triggered blocks owl {kind}"] += 1
            tally[f"triggered blocks owl {kind}, teacher alive"] += pos.truth_alive[b]
            dragon = codes[vertex[b]][2]
            tally[f"triggered blocks dragon_status {dragon}"] += 1
            tally[f"triggered blocks dragon_status {dragon}, teacher alive"] += pos.truth_alive[b]
        for reader, r in itertools.product(READERS, CRITICAL):
            alive = {b: st.alive for b, st in enumerate(pos.statuses)}
            for b in inside:
                if vertex[b] in codes:
                    mover_attacks = pos.to_move != pos.topology.blocks[b].color
                    said = READERS[reader](codes[vertex[b]], mover_attacks, r)
                    alive[b] = alive[b] if said is None else said
            wrong_now = any(alive[b] != pos.truth_alive[b] for b in alive)
            if pos.wrong and not wrong_now:
                named[f"{reader} mends ({r}) games"].append(pos.gid)
            if wrong_now and not pos.wrong:
                named[f"{reader} breaks ({r}) games"].append(pos.gid)
        if log and n % 50 == 0:
            log(f"  {n} positions, {owl.asked} owl pairs asked, GNU Go {owl.seconds:.0f} s")
            owl.save()
    owl.save()
    p = max(figures["positions"], 1)
    out = {**figures,
           "share of positions triggered": round(figures["positions triggered"] / p, 4),
           "share of groups triggered": round(figures["groups triggered"] / max(figures["groups"], 1), 4),
           "groups triggered a position": round(figures["groups triggered"] / p, 3),
           "perfect reader mends (ceiling)": figures["reached"],
           **{f"{reader} {what} ({r})": len(named[f"{reader} {what} ({r}) games"])
              for reader, what, r in itertools.product(READERS, ("mends", "breaks"), CRITICAL)},
           **dict(tally),
           "trigger ms a position, median": milliseconds(trigger_seconds, 0.5, 3),
           "trigger ms a position, p90": milliseconds(trigger_seconds, 0.9, 3),
           "GNU Go seconds asked this run": round(owl.seconds, 1), "owl pairs asked this run": owl.asked,
           **named}
    return out


def life_pass(positions: list[Position], settings) -> dict:
    """The life-and-death pass (``classifiers.life``) run on every position as the scoring path
    would run it after the passes the model keeps: the wrong positions it mends and breaks, the
    blocks it turns, the positions it flags 'unread', its time."""
    from seog.classifiers.life import life_decided
    from seog.classifiers.vocabulary import Doubt

    named = {"life pass mends games": [], "life pass breaks games": []}
    tally, seconds = Counter(), []
    for pos in positions:
        before = dict(enumerate(pos.statuses))
        start = time.perf_counter()
        after = life_decided(pos.topology, before, settings)
        seconds.append(time.perf_counter() - start)
        wrong = any(after[b].alive != pos.truth_alive[b] for b in after)
        if pos.wrong and not wrong:
            named["life pass mends games"].append(pos.gid)
        if wrong and not pos.wrong:
            named["life pass breaks games"].append(pos.gid)
        tally["wrong after the life pass"] += wrong
        tally["blocks turned"] += sum(after[b].alive != before[b].alive for b in after)
        unread = any(st.doubt == Doubt.UNREAD for st in after.values())
        tally["positions flagged unread"] += unread
        tally["positions flagged unread, wrong"] += unread and wrong
    return {"positions": len(positions), "wrong": sum(bool(pos.wrong) for pos in positions),
            "life_nodes": settings.life_nodes, "life_position_nodes": settings.life_position_nodes,
            **dict(tally),
            "life pass mends": len(named["life pass mends games"]),
            "life pass breaks": len(named["life pass breaks games"]),
            "life pass ms a position, median": milliseconds(seconds, 0.5),
            "life pass ms a position, p90": milliseconds(seconds, 0.9),
            "life pass seconds": round(sum(seconds), 1), **named}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.trigger_ceiling", description=__doc__.splitlines()[0])
    held_out_arguments(p)
    p.add_argument("--limit", type=int, help="the first N counted positions of the side only")
    p.add_argument("--sweep", action="store_true", help="the reach of the settings grid, without GNU Go")
    p.add_argument("--owl-cache", help="a JSON file of GNU Go's owl answers, read and written "
                   "(default cache/owl-SIDE.json)")
    p.add_argument("--owl-timeout", type=float, default=OWL_TIMEOUT, help="seconds per owl command")
    p.add_argument("--reader", choices=["gnugo", "seog"], default="gnugo",
                   help="whose life-and-death reading reads the triggered groups: GNU Go's owl (default) "
                        "or seog's own (seog.reading.life)")
    p.add_argument("--life-pass", action="store_true",
                   help="measure the life-and-death pass (classifiers.life) as the scoring path runs it")
    p.add_argument("--life-nodes", type=int, help="its budget a search (default: PassSettings.life_nodes)")
    p.add_argument("--life-position-nodes", type=int,
                   help="its budget a position (default: PassSettings.life_position_nodes)")
    p.add_argument("--out", help="write the figures to this JSON file")
    args = p.parse_args(argv)

    from seog.classifiers import model_file
    from seog.classifiers.settings import DEFAULT
    from seog.datasets.recount import held_out_games, teacher_dead

    def log(message: str) -> None:
        print(message, file=sys.stderr)

    start = time.perf_counter()
    positions = read_positions(held_out_games(args.archives, args.side), model_file.load(args.model),
                               teacher_dead(args.planes), args.limit, log)
    log(f"{len(positions)} counted positions read in {time.perf_counter() - start:.0f} s")
    settings = {k: getattr(DEFAULT, k) for k in GRID}
    if args.sweep:
        figures = {"side": args.side, "positions": len(positions), **sweep(positions)}
    elif args.life_pass:
        life = replace(DEFAULT, **{k: v for k, v in (("life_nodes", args.life_nodes),
                                                      ("life_position_nodes", args.life_position_nodes))
                                   if v is not None})
        figures = {"side": args.side, "limit": args.limit, **life_pass(positions, life)}
    else:
        owl = (SeogOwl() if args.reader == "seog" else
               Owl(args.owl_cache or f"cache/owl-{args.side}.json", timeout=args.owl_timeout))
        try:
            figures = {"side": args.side, "limit": args.limit, "reader": args.reader, "settings": settings,
                       **ceiling(positions, DEFAULT, owl, log)}
        finally:
            owl.close()
    write_figures(figures, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
