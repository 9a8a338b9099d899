"""Score seog and GNU Go against the players' marks corrected by KataGo's deep reads.

Where a read (``tools/katago_read.py``, kept in ``docs/katago-read-kgs-2017-q1.txt``) gives a
block the other verdict from the marks with |ownership| >= ``--margin``, that block's truth is
KataGo's; elsewhere the marks stand (positions never read are ones both scorers got right, or
were read and found to agree). Reads the per-position CSV of ``seog evaluate --engine gnugo``.

    python tools/katago_corrected.py cache/eval-s11/kgs-2017-q1.csv docs/katago-read-kgs-2017-q1.txt
"""

from __future__ import annotations

import argparse
import csv
import re
import sys

from seog.features import coords

POSITION = re.compile(r"^(\S+) \(\d+ s\): (.*)$")
BLOCK = re.compile(r"([A-Z]\d+) \(\d+ stones\): marks (\w+), seog \w+, KataGo (\w+) \(([+-][\d.]+)\)")


def flipped(lines, margin: float, size: int = 19) -> dict[str, set[str]]:
    """Position name -> the GTP vertices (a block's first point) where KataGo overrules the
    marks; the last read of a position counts. The reads of the other dev sets, under their own
    header at the end of the file, are left out."""
    out: dict[str, set[str]] = {}
    for line in lines:
        if line.startswith("# Fourteenth session, other dev sets"):
            break
        if m := POSITION.match(line.strip()):
            out[m.group(1)] = {v for v, marks, katago, mean in BLOCK.findall(m.group(2))
                               if marks != katago and abs(float(mean)) >= margin}
    return out


def wrong_blocks(row: dict, who: str) -> set[str]:
    """The GTP vertices of the blocks ``who`` got wrong by the marks (the CSV names them in SGF)."""
    size = int(row["size"])
    return {coords.index_to_gtp(coords.sgf_to_index(item.split(":")[0], size), size)
            for item in row[f"{who}_wrong"].split()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", help="seog evaluate --engine gnugo --csv output")
    p.add_argument("reads", help="KataGo's reads (tools/katago_read.py output)")
    p.add_argument("--margin", type=float, default=0.5, help="the |ownership| that overrules the marks")
    args = p.parse_args()
    rows = list(csv.DictReader(open(args.csv, encoding="utf-8")))
    with open(args.reads, encoding="utf-8") as fh:
        truth = flipped(fh, args.margin)
    blocks = sum(int(r["seog_blocks"]) for r in rows)
    for who in ("seog", "gnugo"):
        bad = [r for r in rows if wrong_blocks(r, who) != truth.get(r["name"], set())]
        off = sum(len(wrong_blocks(r, who) ^ truth.get(r["name"], set())) for r in rows)
        flagged = sum(r[f"{who}_flagged"] == "True" for r in bad)
        print(f"{who}: positions all right {len(rows) - len(bad)} of {len(rows)} "
              f"({1 - len(bad) / len(rows):.2%}), blocks {blocks - off} of {blocks} ({1 - off / blocks:.2%}); "
              f"wrong: {' '.join(r['name'] for r in bad) or '-'} ({flagged} flagged)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
