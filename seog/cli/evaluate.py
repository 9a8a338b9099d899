"""``seog evaluate FOLDER``: seog's dead stones against a labelled set, optionally beside GNU Go's."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

from seog.cli import positive_int, seconds

PLOTS = "plots"  # pyproject's extra that draws the PNG: matplotlib, without torch


def register(sub) -> None:
    p = sub.add_parser("evaluate", help="measure accuracy on a labelled set (optionally against GNU Go)",
                       description="Block and stone accuracy, positions with every block right, results "
                                   "reproduced exactly (with the players' own marks as the ceiling), time per "
                                   "position and uncertainty flags, on a folder of marked SGF games or OGS "
                                   ".game boards.")
    p.add_argument("folder", nargs="+", help="folder(s) of labelled positions (or single SGF files)")
    p.add_argument("--engine", choices=["gnugo"], help="also run this engine on the same positions")
    p.add_argument("--level", type=int, default=10, help="the engine's level (default 10)")
    p.add_argument("--engine-cache", help="JSON cache of the engine's answers (default "
                   "$XDG_CACHE_HOME/seog/gnugo-answers.json or ~/.cache/seog/gnugo-answers.json; '' for none)")
    p.add_argument("--engine-timeout", type=seconds, metavar="SECONDS",
                   help="longest wait for one engine answer (default 300); an engine that hangs or dies is "
                        "restarted, and dropped after 3 positions in a row")
    p.add_argument("--model", help="a model file (default: the shipped model)")
    p.add_argument("--no-model", action="store_true", help="static pass and heuristic only")
    p.add_argument("--csv", help="write one line per position here; a summary JSON goes beside it, and a PNG "
                                 f"where matplotlib is installed (pip install 'seog[{PLOTS}]')")
    p.add_argument("--limit", type=positive_int, metavar="N", help="only the first N positions of each folder")
    p.add_argument("--quiet", action="store_true", help="no progress bar, no list of wrong positions")
    p.set_defaults(run=run)


def load_model(args):
    """The model ``--model`` names, None for ``--no-model``, else 'default' (the shipped one)."""
    if args.no_model:
        return None
    if args.model:
        from seog.classifiers import model_file
        return model_file.load(args.model)
    return "default"


def run(args: argparse.Namespace) -> int:
    from seog.datasets import evaluate as ev

    if args.csv:
        from seog.datasets.archive import check_output_file
        from seog.folders import cannot_write
        check_output_file("--csv", args.csv, args.folder)
        try:  # created before the run, so that a path it cannot write fails before the work, not after
            Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise cannot_write("--csv", args.csv, exc) from None
    model = load_model(args)
    engine = None
    if args.engine == "gnugo":
        from seog.datasets.labels import gnugo_available
        if not gnugo_available():
            raise ValueError("--engine gnugo: /usr/games/gnugo is not installed")
        from seog.datasets.labels import TEACHER_TIMEOUT
        cache = ev.default_engine_cache() if args.engine_cache is None else args.engine_cache
        engine = ev.EngineScorer("gnugo", args.level, Path(cache) if cache else None,
                                 args.engine_timeout or TEACHER_TIMEOUT)
        if engine.note:
            print(engine.note, file=sys.stderr)
    try:
        rows, skipped = run_folders(args, model, engine)
    finally:
        if engine:
            engine.close()
    if not rows:
        raise ValueError(f"no labelled positions found in {', '.join(args.folder)}{why_none(skipped)}")

    scorers = list(rows[0].outcomes)
    print(report(rows, scorers))
    for s in skipped:
        print(f"skipped {s.name}: {s.reason}")
    if engine and engine.unanswered:
        print(f"left out of every column: {len(engine.unanswered)} position(s) {engine.name} gave no answer "
              "for (skipped above), so that both scorers cover the same positions")
    if not args.quiet:
        for s in scorers:
            wrong = [r for r in rows if not r.outcomes[s].all_right]
            if wrong:
                print(f"\n{s}: {len(wrong)} position(s) with a wrong block (point:stones truth)")
                for r in wrong:
                    o = r.outcomes[s]
                    flag = " [flagged]" if o.flagged else ""
                    res = f" result {o.result} vs RE {r.recorded}" if o.result_ok is False else ""
                    print(f"  {r.name}: {' '.join(o.wrong)}{res}{flag}")
    if args.csv:
        out = Path(args.csv)
        ev.write_csv(rows, out)
        summaries = {s: ev.summary(rows, s) for s in scorers}
        summaries["by_size"] = {str(k): {s: _brief(ev.summary(v, s)) for s in scorers}
                                for k, v in ev.by_size(rows).items()}
        summaries["skipped"] = [{"name": s.name, "reason": s.reason} for s in skipped]
        out.with_suffix(".summary.json").write_text(json.dumps(summaries, indent=1))
        written = [out, out.with_suffix(".summary.json")]
        if importlib.util.find_spec("matplotlib") is None:  # a server's install: the figures without the picture
            print(f"seog evaluate: no {out.with_suffix('.png')}: the PNG needs matplotlib, which this install "
                  f"lacks: pip install 'seog[{PLOTS}]'", file=sys.stderr)
        else:
            ev.plot(rows, out.with_suffix(".png"), title=", ".join(Path(f).name for f in args.folder))
            written.append(out.with_suffix(".png"))
        print(f"\nwrote {', '.join(map(str, written))}")
    return 0


def run_folders(args, model, engine) -> tuple[list, list]:
    """Every folder's positions, evaluated as they are read under a progress bar: (rows, what was
    skipped and why)."""
    from tqdm import tqdm

    from seog.datasets import devsets
    from seog.datasets import evaluate as ev

    rows, skipped = [], []
    for folder in args.folder:
        boards, games = devsets.files(folder)
        if boards and games:
            print(f"{folder}: reading {len(boards)} OGS .game board(s) and {len(games)} SGF file(s)",
                  file=sys.stderr)
        bar = tqdm(total=len(boards) + len(games), desc=Path(folder).name, disable=args.quiet, leave=False)
        for item in devsets.items(folder, args.limit):
            done = ev.evaluate_one(item, model, engine) if isinstance(item, devsets.Position) else item
            (rows if isinstance(done, ev.Row) else skipped).append(done)
            bar.update()
        bar.close()
    return rows, skipped


def why_none(skipped) -> str:
    """Why no position was labelled: how many files were skipped, by their commonest reasons."""
    if not skipped:
        return " (no .sgf or .game files)"
    counts = Counter(s.reason for s in skipped).most_common()
    shown = "; ".join(f"{n} {reason}" for reason, n in counts[:3])
    more = f"; {sum(n for _, n in counts[3:])} for other reasons" if len(counts) > 3 else ""
    return f": {len(skipped)} file(s) skipped ({shown}{more})"


def _brief(s: dict) -> dict:
    return {k: v for k, v in s.items() if k != "wrong_positions"}


def _pct(v) -> str:
    return "-" if v is None else f"{100 * v:.2f}%"


def report(rows, scorers) -> str:
    """A plain table: one column per scorer, overall and per board size."""
    from seog.datasets import evaluate as ev

    lines = []
    groups = [("all", rows)] + ([(f"{k}x{k}", v) for k, v in ev.by_size(rows).items()]
                                if len(ev.by_size(rows)) > 1 else [])
    for label, group in groups:
        sums = {s: ev.summary(group, s) for s in scorers}
        first = sums[scorers[0]]
        lines.append(f"{label}: {first['positions']} positions, {first['blocks']} blocks, "
                     f"{first['with_result']} with a counted result")
        table = [("block accuracy", "block_accuracy", _pct), ("stone accuracy", "stone_accuracy", _pct),
                 ("positions all right", "positions_all_right", _pct),
                 ("results exact", "results_exact", _pct),
                 ("median s/position", "median_seconds", lambda v: f"{v:.5f}"),
                 ("flagged (all)", "flagged", _pct), ("flagged (wrong)", "wrong_flagged", _pct),
                 ("flagged or not RE (all)", "to_check", _pct), ("flagged or not RE (wrong)", "wrong_to_check", _pct)]
        lines.append(f"  {'':26}" + "".join(f"{s:>12}" for s in scorers))
        for title, key, fmt in table:
            if not any(key in sums[s] for s in scorers):
                continue
            lines.append(f"  {title:26}" + "".join(f"{fmt(sums[s].get(key)) if key in sums[s] else '':>12}"
                                                    for s in scorers))
        if first["ceiling"] is not None:
            lines.append(f"  {'ceiling (marks)':26}{_pct(first['ceiling']):>12}")
        if len(scorers) > 1:
            a, b = sums[scorers[0]]["median_seconds"], sums[scorers[1]]["median_seconds"]
            if a > 0:
                lines.append(f"  {scorers[1]} / {scorers[0]} median time: {b / a:.0f}x")
    return "\n".join(lines)
