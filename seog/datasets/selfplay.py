"""GNU Go self-play games on small boards, played to two passes and labelled by a teacher.

The 19x19 archives carry no 9x9 or 13x13 games, so these are made here: GNU Go plays itself
(``--never-resign``) at a varied level and random seed, after 0-2 random opening moves, until
two passes in a row. With ``--wild P`` each move is, with probability P, a random legal point
instead of GNU Go's choice: stones thrown into the other side's area, which die or live there,
give the harder endings that careful self-play rarely reaches. A second GNU Go at a higher level is the teacher: it replays the moves,
names the dead stones (``final_status_list dead``) and its count (``final_score``). A game is
kept only when our scorer, fed the teacher's dead stones, prints the teacher's count; it is
written as an SGF with RE and KGS-style TB/TW marks, so that every reader of marked games
(``seog select``, ``seog evaluate``, the feature cache) takes it as it is.

    nice -n 10 python -m seog.datasets.selfplay --size 9 --games 300 --out cache/selfplay
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from sgfmill import sgf as sgfmill_sgf

from seog.datasets.labels import EngineError, EngineRefused, GtpEngine, check, gnugo_command, mask_from_gtp
from seog.features import coords, sgf
from seog.features.coords import BLACK, WHITE

KOMI = {"japanese": 6.5, "chinese": 7.5}


def random_opening(size: int, n: int, rng: random.Random) -> list[str]:
    """``n`` distinct GTP vertices away from the first two lines, for variety in the opening."""
    inner = [coords.rc_to_gtp(r, c, size) for r in range(2, size - 2) for c in range(2, size - 2)]
    return rng.sample(inner, n)


def play(player: GtpEngine, size: int, komi: float, level: int, seed: int, opening: list[str],
         max_moves: int, wild: float = 0.0, rng: random.Random | None = None) -> list[tuple[str, str]] | None:
    """Moves (colour letter, GTP vertex or 'pass') of one self-play game; None if it never ends.
    A move is a random legal point with probability ``wild`` (drawn from ``rng``)."""
    for cmd in (f"boardsize {size}", "clear_board", f"komi {komi}", f"level {level}",
                f"set_random_seed {seed}"):
        player.send(cmd)
    moves, passes = [], 0
    for i in range(max_moves):
        color = "b" if i % 2 == 0 else "w"
        if i < len(opening):
            player.send(f"play {color} {opening[i]}")
            vertex = opening[i]
        else:
            vertex = (wild and rng.random() < wild and _random_move(player, color, size, rng)) \
                or player.send(f"genmove {color}").lower()
        moves.append((color, vertex))
        passes = passes + 1 if vertex == "pass" else 0
        if passes == 2:
            return moves
    return None


def _random_move(player: GtpEngine, color: str, size: int, rng: random.Random, tries: int = 8) -> str | None:
    """Play a random point the engine accepts (empty, no suicide, no ko); None if none of
    ``tries`` draws is legal."""
    for _ in range(tries):
        vertex = coords.rc_to_gtp(rng.randrange(size), rng.randrange(size), size).lower()
        try:
            player.send(f"play {color} {vertex}")
        except EngineRefused:
            continue
        return vertex
    return None


def record(size: int, komi: float, rules: str, moves: list[tuple[str, str]], props: dict) -> bytes:
    """An SGF record of a move list."""
    game = sgfmill_sgf.Sgf_game(size=size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("RU", rules.capitalize())
    for key, value in props.items():
        root.set(key, value)
    node = root
    for color, vertex in moves:
        node = node.new_child()
        point = coords.from_gtp(vertex, size)
        node.set_move(color, None if point is None else _rc(point, size))
    return game.serialise()


def _rc(point: int, size: int) -> tuple[int, int]:
    row, col = coords.from_flat(point, size)
    return size - 1 - row, col


def teacher_answer(teacher: GtpEngine, size: int, komi: float, moves) -> tuple[list[str], str]:
    """The teacher's dead stones (GTP vertices) and final score after replaying ``moves``."""
    for cmd in (f"boardsize {size}", "clear_board", f"komi {komi}"):
        teacher.send(cmd)
    for color, vertex in moves:
        teacher.send(f"play {color} {vertex}")
    dead = teacher.send("final_status_list dead").split()
    return dead, teacher.send("final_score")


def generate(out: Path, size: int, games: int, seed: int = 1, levels=(1, 3, 5, 7, 9),
             teacher_level: int = 10, start: int = 0, log=print, wild: float = 0.0) -> dict:
    """Play ``games`` games of ``size``; write kept ones as SGF and one JSON line per game to
    ``out/index.jsonl``. Returns counts by outcome."""
    out.mkdir(parents=True, exist_ok=True)
    folder = out / f"{size}x{size}"
    folder.mkdir(exist_ok=True)
    rng = random.Random(seed * 1000 + size)
    player = GtpEngine(gnugo_command(level=levels[0], extra=["--never-resign"]), "gnugo-player")
    teachers: dict[str, GtpEngine] = {}
    counts = {"kept": 0}
    try:
        with open(out / "index.jsonl", "a", encoding="utf-8") as index:
            for n in range(start, start + games):
                rules = "japanese" if n % 2 == 0 else "chinese"
                komi = KOMI[rules]
                level = rng.choice(levels)
                game_seed = rng.randrange(1, 2**31)
                opening = random_opening(size, rng.choice((0, 1, 2)), rng)
                name = f"sp{size}-{seed}-{n:04d}"
                entry = {"name": name, "size": size, "rules": rules, "komi": komi, "level": level,
                         "seed": game_seed, "opening": opening, "wild": wild}
                t0 = time.perf_counter()
                try:
                    moves = play(player, size, komi, level, game_seed, opening, max_moves=3 * size * size,
                                 wild=wild, rng=random.Random(game_seed))
                    entry["play_seconds"] = round(time.perf_counter() - t0, 2)
                    if moves is None:
                        entry["outcome"] = "no two passes"
                    else:
                        if rules not in teachers:
                            teachers[rules] = GtpEngine(gnugo_command(teacher_level, rules == "chinese"),
                                                        f"gnugo-teacher-{rules}")
                        dead, final = teacher_answer(teachers[rules], size, komi, moves)
                        entry.update(moves=len(moves), teacher_dead=dead, teacher_score=final)
                        entry["outcome"] = _keep(folder / f"{name}.sgf", size, komi, rules, moves, dead,
                                                 final, level, game_seed, teacher_level, entry)
                except EngineError as exc:
                    entry["outcome"] = f"engine error: {exc}"
                    player.close()
                    player = GtpEngine(gnugo_command(level=levels[0], extra=["--never-resign"]))
                    for t in teachers.values():
                        t.close()
                    teachers.clear()
                entry["seconds"] = round(time.perf_counter() - t0, 2)
                counts[entry["outcome"]] = counts.get(entry["outcome"], 0) + 1
                index.write(json.dumps(entry) + "\n")
                index.flush()
                log(f"{name}: {entry['outcome']} ({entry['seconds']} s)")
    finally:
        player.close()
        for t in teachers.values():
            t.close()
    return counts


def _keep(path: Path, size, komi, rules, moves, dead, final, level, game_seed, teacher_level,
          entry) -> str:
    props = {"PB": f"GNU Go level {level}", "PW": f"GNU Go level {level}", "GN": path.stem,
             "RE": final, "GC": f"self-play seed {game_seed}; teacher GNU Go level {teacher_level}"}
    data = record(size, komi, rules, moves, props)
    game = sgf.loads(data)
    mask = mask_from_gtp(dead, size)
    result = check(game, mask)
    entry["ours"] = result.ours
    if not result.consistent:
        return "inconsistent"
    from seog.scoring.score import score_position
    score = score_position(game.board, rules=rules, komi=komi, handicap=0,
                           prisoners=game.board.prisoners, dead=mask, dead_agreed=False)
    territory = {c: {int(i) for i in score.territory[c]} for c in (BLACK, WHITE)}
    marked = sgf.with_score(game, final, territory, comment="dead stones: GNU Go teacher")
    if not (sgf.loads(marked).marked_dead() == mask).all():
        return "marks do not carry the dead stones"  # e.g. a dead stone in a seki region
    path.write_bytes(marked)
    return "kept"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.selfplay", description=__doc__.split("\n\n")[0])
    p.add_argument("--size", type=int, required=True, help="board size (9 or 13, say)")
    p.add_argument("--games", type=int, default=100, help="games to play")
    p.add_argument("--out", default="cache/selfplay", help="output folder")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (names the games)")
    p.add_argument("--start", type=int, default=0, help="first game number (to extend a run)")
    p.add_argument("--levels", default="1,3,5,7,9", help="player levels to draw from")
    p.add_argument("--teacher-level", type=int, default=10)
    p.add_argument("--wild", type=float, default=0.0,
                   help="probability that a move is a random legal point (default 0)")
    args = p.parse_args(argv)
    t0 = time.time()
    counts = generate(Path(args.out), args.size, args.games, args.seed,
                      tuple(int(x) for x in args.levels.split(",")), args.teacher_level, args.start,
                      wild=args.wild)
    print(json.dumps({"size": args.size, "counts": counts, "seconds": round(time.time() - t0, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
