"""Every front end's answer on every dev position, written once and compared later.

A refactoring must leave what seog answers unchanged. This writes, for each SGF and board of the
dev sets and the cases (three rule sets each), what the CLI's ``--json``, the REST API, the GTP
referee and ``seog annotate`` answer, one JSON line per position and front end; ``--against``
compares the run with an earlier file and prints every difference.

    python benchmarks/same_answers.py --out runs/answers-before.jsonl
    python benchmarks/same_answers.py --out runs/answers-after.jsonl --against runs/answers-before.jsonl
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
FOLDERS = ("kgs-2017-q1", "gnugo-regression-games", "ogs-score-estimator", "cases", "gnugo-score-tests")
RULES = ("japanese", "chinese", "tromp-taylor")


def inputs(limit: int | None):
    """(name, SGF bytes or None, board rows or None) for every dev position."""
    from seog.datasets.devsets import read_game_file, setup_sgf
    from seog.features.coords import BLACK

    for folder in FOLDERS:
        paths = sorted((DATA / folder).glob("*.sgf")) + sorted((DATA / folder).glob("*.game"))
        for path in paths[:limit]:
            if path.suffix == ".game":
                board, _, _ = read_game_file(path)
                rows = ["".join({1: "X", -1: "O", 0: "."}[int(v)] for v in row) for row in board.grid]
                yield f"{folder}/{path.name}", setup_sgf(board, BLACK), rows
            else:
                yield f"{folder}/{path.name}", path.read_bytes(), None


def cli_answer(data: bytes, rules: str) -> dict:
    from seog.features import sgf
    from seog.scoring.report import to_dict
    from seog.scoring.rules import check_suicides
    from seog.scoring.score import score_game

    game = check_suicides(sgf.loads(data), rules)
    return to_dict(score_game(game, rules=rules), game.recorded or None)


def gtp_answer(referee, data: bytes, rules: str, tmp: Path) -> dict:
    tmp.write_bytes(data)
    out = {}
    for key, command in (("clear_board", "clear_board"), ("rules", f"seog-rules {rules}"),
                         ("loadsgf", f"loadsgf {tmp}"), ("final_score", "final_score"),
                         ("dead", "final_status_list dead"), ("seki", "final_status_list seki"),
                         ("alive", "final_status_list alive")):
        out[key] = referee.handle(command)
    return out


def annotate_answer(data: bytes, rules: str) -> dict:
    from seog.datasets.annotate import Options, annotate_bytes
    from seog.scoring.score import DEFAULT

    row, copy = annotate_bytes("game.sgf", data, Options(rules=rules, model=DEFAULT))
    return {"row": [str(v) for v in dataclasses.astuple(row)], "copy": hashlib.sha256(copy or b"").hexdigest()}


def answers(limit: int | None):
    import tempfile

    from fastapi.testclient import TestClient

    from seog.api.http import create_app
    from seog.gtp.referee import GtpReferee

    client = TestClient(create_app(static_dir=None))
    referee = GtpReferee(log=open("/dev/null", "w"))  # noqa: SIM115 - lives as long as the run
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder) / "game.sgf"
        for name, data, rows in inputs(limit):
            for rules in RULES:
                record = {"name": name, "rules": rules}
                for end, make in (("cli", lambda: cli_answer(data, rules)),
                                  ("gtp", lambda: gtp_answer(referee, data, rules, tmp)),
                                  ("annotate", lambda: annotate_answer(data, rules))):
                    try:
                        record[end] = make()
                    except Exception as exc:  # noqa: BLE001 - an error is an answer too
                        record[end] = f"error {type(exc).__name__}: {exc}"
                body = {"sgf": data.decode("utf-8", "replace"), "rules": rules}
                if rows is not None:
                    body = {"board": rows, "rules": rules}
                reply = client.post("/v1/score", json=body)
                record["rest"] = [reply.status_code, reply.json()]
                yield record


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", required=True, help="where to write the answers (JSON lines)")
    parser.add_argument("--against", help="an earlier answers file to compare with")
    parser.add_argument("--limit", type=int, help="at most this many files per folder")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    n = 0
    with open(args.out, "w", encoding="utf-8") as out:
        for record in answers(args.limit):
            out.write(json.dumps(record, sort_keys=True) + "\n")
            n += 1
    print(f"{n} answers in {time.perf_counter() - start:.0f} s -> {args.out}")
    if not args.against:
        return 0
    before = {(r["name"], r["rules"]): r for r in map(json.loads, open(args.against, encoding="utf-8"))}
    after = {(r["name"], r["rules"]): r for r in map(json.loads, open(args.out, encoding="utf-8"))}
    differ = 0
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        for end in ("cli", "rest", "gtp", "annotate"):
            x, y = (a or {}).get(end), (b or {}).get(end)
            if x != y:
                differ += 1
                print(f"{key[0]} {key[1]} {end}: differs", file=sys.stderr)
                if isinstance(x, dict) and isinstance(y, dict):
                    for field in sorted(set(x) | set(y)):
                        if x.get(field) != y.get(field):
                            print(f"    {field}: {str(x.get(field))[:150]} -> {str(y.get(field))[:150]}",
                                  file=sys.stderr)
    print(f"{len(after)} positions x rules, {differ} answers differ from {args.against}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
