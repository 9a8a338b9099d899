"""A ``Score`` as the JSON object that ``seog score --json`` prints and the REST API returns."""

from __future__ import annotations

from functools import cache

import numpy as np

from seog.features.coords import BLACK, COLOR_NAMES, WHITE, index_to_gtp
from seog.scoring.count import Score
from seog.scoring.result import FitOutcome, parse_result, same_result

SETTLED_BY_RECORD = "recorded result"


@cache
def _names(size: int) -> tuple[str, ...]:
    """Every point's GTP name, by grid index: a lookup is faster than formatting."""
    return tuple(index_to_gtp(i, size) for i in range(size * size))


def vertices(indices, size: int) -> list[str]:
    """GTP names of grid indices, in board order (top row first, left to right)."""
    names = _names(size)
    return [names[i] for i in np.sort(np.asarray(indices, dtype=np.int64)).tolist()]


def to_dict(score: Score, recorded_result: str | None = None) -> dict:
    """The JSON contract: size, rules, komi, result, score, dead, seki, territory, dame, blocks, ..."""
    size = score.size
    out = {
        "size": size,
        "rules": score.rules.name,
        "komi": score.komi,
        "handicap": score.handicap,
        "result": score.result,
        "score": {"black": score.black, "white": score.white},
        "dead": vertices(score.dead, size),
        "seki": vertices(score.seki, size),
        "territory": {COLOR_NAMES[c]: vertices(score.territory[c], size) for c in (BLACK, WHITE)},
        "dame": vertices(score.dame, size),
        "prisoners": {COLOR_NAMES[c]: int(score.prisoners.get(c, 0)) for c in (BLACK, WHITE)},
        "breakdown": {COLOR_NAMES[c]: score.breakdown.get(c, {}) for c in (BLACK, WHITE)},
        "ownership": ["".join({1: "B", -1: "W", 0: "."}[int(v)] for v in row) for row in score.ownership],
        "uncertain": score.in_doubt,
        "finished": score.finished,
        "unfinished": score.unfinished or None,
        "notes": list(score.notes),
        "blocks": [
            {
                "stones": vertices(b.points, size),
                "color": COLOR_NAMES[b.color],
                "status": b.status,
                "read_status": read.status,
                "source": b.source,
                "p_alive": None if b.p_alive is None else round(float(b.p_alive), 4),
                "uncertain": bool(b.uncertain),
                "doubt": b.doubt or None,
            }
            for b, read in zip(score.blocks, score.read, strict=True)  # as counted, as read
        ],
    }
    if score.record_fit is not None:
        out.update(fit_fields(score))
    if recorded_result is not None:
        out["recorded_result"] = recorded_result
        # whether the count gives the recorded result (None when that was not a count: B+R, Void)
        out["agrees_with_recorded"] = (same_result(recorded_result, score.result)
                                       if parse_result(recorded_result).counted else None)
        out["record_gap"] = score.record_gap
    return out


def fit_fields(score: Score) -> dict:
    """What the counted result given with the position did (``scoring.fit``): ``record_fit``, the
    outcome; ``settled_by``, "recorded result" when it turned blocks; ``turned``, those blocks as the
    blind reading had them. Only where a counted result was given and used."""
    fit = score.record_fit
    return {
        "record_fit": str(fit),
        "settled_by": SETTLED_BY_RECORD if fit is FitOutcome.SETTLED else None,
        "turned": [{"stones": vertices(b.points, score.size), "color": COLOR_NAMES[b.color],
                    "blind_status": b.status,
                    "p_alive": None if b.p_alive is None else round(float(b.p_alive), 4)}
                   for b in score.turned],
    }
