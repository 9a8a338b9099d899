"""A model's counts against the recorded results of the held-out games: how often a referee's
count would be far off.

Every counted game (RE a number) of a held-out side of the training archives is scored as
``seog score`` scores it (its own rules, komi, handicap and prisoners); the count is compared with
the players' result. A count off by more than ``FAR`` points, and one that names the other
winner, is what a referee cannot take back, whatever the cause (a misread group, or a result the
players agreed otherwise). ``--dead gnugo`` counts GNU Go's dead stones with the same scorer, as
a peer on the same games; ``--dead teacher`` counts KataGo's (the held-out truth, from the planes
caches), which tells a misread from a result the players agreed otherwise. With ``--planes``,
the model's or GNU Go's dead stones are also set against KataGo's, position by position, and the
positions they get wrong named; ``--games`` reads only the games named.

    python -m seog.datasets.recount ../shared/data/kgs-6d-more.tar.xz ../shared/data/kgs-6d-train.tar.xz \\
        --side hash [--model PATH] [--dead gnugo | --dead teacher] [--planes CACHE ...] [--games ID ...] \\
        [--out runs/recount-hash.json]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator

from seog.classifiers.model_file import DEFAULT_MODEL as SHIPPED_MODEL
from seog.scoring.count import FAR_FROM_RECORD

FAR = int(FAR_FROM_RECORD)  # points: a count further than this from the record is a referee's error to report


def held_out_games(archives: list[str], side: str, only: set[str] | None = None) -> Iterator[tuple[str, bytes]]:
    """(game id, SGF bytes) of every game of ``side`` in the archives (those named in ``only``,
    when given), each game once (the first archive that holds it)."""
    from seog.datasets import archive
    from seog.datasets.split import game_id, split_of

    seen = set()
    for source in archives:
        for entry in archive.read(source):
            gid = game_id(entry.name)
            if gid in seen or split_of(entry.name) != side or entry.data is None or (only and gid not in only):
                continue
            seen.add(gid)
            yield gid, entry.data


def recount(games, model, dead_by=None, log=None, truth=None) -> dict:
    """Figures and the far-off games for ``games`` ((id, SGF bytes) pairs); ``dead_by(game, data,
    id)`` gives the dead stones to count with instead of the model's (a bool mask), or None.
    ``truth``, a ``dead_by`` of the teacher's: the model's flags against its wrong positions too,
    or, with ``dead_by``, the positions where those dead stones are not the teacher's."""
    from seog.features import sgf
    from seog.scoring.request import from_game
    from seog.scoring.result import format_result, parse_result
    from seog.scoring.rules import rules_from_sgf
    from seog.scoring.score import score as score_request
    from seog.scoring.score import score_position

    counted = exact = far = flipped = flagged_far = 0
    far_games = []
    flags = {"positions": 0, "flagged": 0, "by the record alone": 0, "wrong": 0, "wrong flagged": 0,
             "wrong flagged by the record alone": 0, "wrong, our count = record": 0,
             "wrong, the teacher's count = record": 0, "wrong_games": []}
    against = {"positions": 0, "wrong": 0, "wrong_games": []}
    start = time.perf_counter()
    for n, (gid, data) in enumerate(games, 1):
        try:
            game = sgf.loads(data)
        except ValueError:
            continue
        record = parse_result(game.result)
        if not record.counted:
            continue
        if dead_by is None:
            score = score_request(from_game(game, ignore_result=True), model)  # blind: the count is what is measured
        else:
            try:
                dead = dead_by(game, data, gid)
            except ValueError as exc:
                print(f"skipped {gid}: {exc}", file=sys.stderr)
                continue
            score = score_position(game.board, rules=rules_from_sgf(game.rules), komi=game.komi,
                                   handicap=game.handicap, prisoners=game.board.prisoners, dead=dead,
                                   dead_agreed=False)
        counted += 1
        if truth is not None and dead_by is not None:  # another engine's dead stones against the teacher's
            wrong = _reads_otherwise(game, dead, truth(game, data, gid))
            against["positions"] += 1
            against["wrong"] += wrong
            if wrong:
                against["wrong_games"].append(gid)
        elif truth is not None:
            dead_truth = truth(game, data, gid)
            if _tally_flags(flags, score, game, dead_truth):
                flags["wrong_games"].append(gid)
                by_teacher = score_position(game.board, rules=rules_from_sgf(game.rules), komi=game.komi,
                                            handicap=game.handicap, prisoners=game.board.prisoners,
                                            dead=dead_truth, dead_agreed=False)
                flags["wrong, our count = record"] += score.margin == record.margin
                flags["wrong, the teacher's count = record"] += by_teacher.margin == record.margin
        diff = score.margin - record.margin
        exact += diff == 0
        if abs(diff) > FAR:
            far += 1
            wrong_winner = (score.margin > 0) != (record.margin > 0) or (score.margin == 0) != (record.margin == 0)
            flipped += wrong_winner
            flagged = score.in_doubt if dead_by is None else False
            flagged_far += flagged
            far_games.append({"game": gid, "recorded": game.result, "counted": format_result(score.margin),
                              "winner_flipped": bool(wrong_winner), "flagged": flagged})
        if log and n % 200 == 0:
            log(f"  {n} games read, {counted} counted, {time.perf_counter() - start:.0f} s")
    out = {"counted_games": counted, "count_equals_record": round(exact / max(counted, 1), 4),
           f"off_by_more_than_{FAR}": far, "of_them_winner_flipped": flipped, "of_them_flagged": flagged_far,
           "far_games": far_games}
    if flags["positions"]:
        flags["flagged share"] = round(flags["flagged"] / flags["positions"], 4)
        flags["wrong flagged share"] = round(flags["wrong flagged"] / max(flags["wrong"], 1), 4)
        out["flags against the teacher"] = flags
    if against["positions"]:
        out["against the teacher"] = against
    return out


def _tally_flags(flags: dict, score, game, dead_truth) -> bool:
    """One position into ``flags``: flagged (``Score.in_doubt``), and wrong when a stone is read
    otherwise than the teacher reads it; returns whether it is wrong."""
    wrong = score_reads_otherwise(game, score, dead_truth)
    by_record = score.far_from_record and not score.uncertain_blocks
    flags["positions"] += 1
    flags["flagged"] += score.in_doubt
    flags["by the record alone"] += by_record
    flags["wrong"] += wrong
    flags["wrong flagged"] += wrong and score.in_doubt
    flags["wrong flagged by the record alone"] += wrong and by_record
    return wrong


def score_reads_otherwise(game, score, dead_truth) -> bool:
    """Does ``score`` read a stone of ``game``'s board otherwise than ``dead_truth``? (Its reading,
    which Tromp-Taylor's count leaves on the board.)"""
    import numpy as np

    read = np.zeros(game.board.grid.shape, dtype=bool)
    read.flat[score.read_dead] = True
    return _reads_otherwise(game, read, dead_truth)


def _reads_otherwise(game, dead, dead_truth) -> bool:
    """Does a stone of ``game``'s board stand dead in one mask and alive in the other?"""
    import numpy as np

    return bool((np.asarray(dead) != dead_truth)[game.board.grid != 0].any())


def gnugo_dead(level: int = 10, timeout: float = 300):
    """A ``dead_by`` that asks GNU Go (``final_status_list dead``, area rules for an area-rules
    game) for each game's dead stones."""
    from seog.datasets.labels import GtpTeacher
    from seog.scoring.rules import rules_from_sgf

    teacher = GtpTeacher(level=level, timeout=timeout)

    def dead_by(game, data: bytes, gid: str):
        mask, _ = teacher.dead(data, game.board.size, area=rules_from_sgf(game.rules).area, game=gid)
        return mask

    return dead_by


def teacher_dead(planes: list[str]):
    """A ``dead_by`` that takes the teacher's dead stones from planes caches: the stones of every
    block whose mean ownership is the opponent's (``labels.teacher_alive``)."""
    import numpy as np

    from seog.classifiers import planes_cache
    from seog.datasets.labels import teacher_alive
    from seog.datasets.split import game_id
    from seog.features.topology import analyze

    data = planes_cache.load(planes)
    row_of = {game_id(str(name)): i for i, name in enumerate(data["names"])}

    def dead_by(game, data_: bytes, gid: str):
        if gid not in row_of:
            raise ValueError("not in the planes caches")
        n = game.board.size
        topology = analyze(game.board.grid)
        alive = teacher_alive(topology, data["ownership"][row_of[gid], :n, :n].astype(np.float32))
        mask = np.zeros(n * n, dtype=bool)
        for block in topology.blocks:
            if not alive[block.id]:
                mask[block.points] = True
        return mask.reshape(n, n)

    return dead_by


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m seog.datasets.recount", description=__doc__.splitlines()[0])
    p.add_argument("archives", nargs="+", help="the training archives (a game two hold is read from the first)")
    p.add_argument("--side", choices=["hash", "year"], default="hash")
    p.add_argument("--model", default=str(SHIPPED_MODEL))
    p.add_argument("--dead", choices=["model", "gnugo", "teacher"], default="model",
                   help="whose dead stones to count (default: the model's)")
    p.add_argument("--planes", nargs="+", help="planes caches holding the teacher's ownership: the dead stones "
                   "of --dead teacher; with the model's, its flags against the teacher's wrong positions; "
                   "with GNU Go's, the positions where its dead stones are not the teacher's")
    p.add_argument("--games", nargs="+", help="only these games of the side (ids as the figures name them)")
    p.add_argument("--out", help="write the figures to this JSON file")
    args = p.parse_args(argv)
    from seog.classifiers import model_file

    model = model_file.load(args.model)
    dead_by = {"model": lambda: None, "gnugo": gnugo_dead, "teacher": lambda: teacher_dead(args.planes)}[args.dead]()
    figures = {"dead stones": args.model if dead_by is None else args.dead, "side": args.side,
               **recount(held_out_games(args.archives, args.side, set(args.games or ())), model, dead_by,
                         log=lambda m: print(m, file=sys.stderr),
                         truth=teacher_dead(args.planes) if args.planes and args.dead != "teacher" else None)}
    from seog.datasets.heldout import write_figures

    write_figures(figures, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
