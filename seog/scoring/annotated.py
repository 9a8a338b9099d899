"""A scored game as SGF: KGS-style territory marks, the computed RE and a comment naming the
blocks to check. Used by the REST API (annotated SGF download) and batch annotation alike."""

from __future__ import annotations

import dataclasses

from seog.features import sgf
from seog.features.coords import BLACK, COLOR_NAMES, WHITE
from seog.features.sgf import Game
from seog.scoring.count import Score
from seog.scoring.report import vertices
from seog.scoring.result import decided_otherwise, parse_result
from seog.scoring.rules import rules_from_sgf, sgf_rules_note


def territory_marks(score: Score) -> dict[int, set[int]]:
    """KGS-style marks as grid indices: each side's territory plus the points of the opponent's
    dead stones (so that a stone inside the other colour's marks reads back as dead)."""
    marks = {color: {int(i) for i in score.territory[color]} for color in (BLACK, WHITE)}
    for block in score.blocks:
        if not block.alive:
            marks[-block.color].update(int(i) for i in block.points)
    return marks


def comment(score: Score, recorded: str = "", note: str = "") -> str:
    """The text left in the last node: how the game was counted and which blocks need a look."""
    sources: dict[str, int] = {}
    for b in score.blocks:
        sources[b.source] = sources.get(b.source, 0) + 1
    decided = ", ".join(f"{n} by {s}" for s, n in sorted(sources.items())) or "no stones"
    parts = [f"{sgf.SEOG_COMMENT} {score.result} under {score.rules.name} rules, komi {score.komi:g}"
             + (f", handicap {score.handicap}" if score.handicap else "") + "."]
    if recorded:
        parts.append(f"Recorded result: {recorded}.")
    parts.append(f"Block statuses: {decided}.")
    if note:
        parts.append(note)
    parts.extend(f"Note: {n}." for n in score.notes)
    uncertain = score.uncertain_blocks
    if uncertain:
        names = []
        for b in uncertain:
            stones = vertices(b.points, score.size)
            why = f", {b.why_uncertain}" if b.why_uncertain else ""
            names.append(f"{stones[0]} ({COLOR_NAMES[b.color]}, {len(stones)} stone"
                         f"{'s' if len(stones) != 1 else ''}, {b.status}{why})")
        parts.append(f"Uncertain blocks, check these: {'; '.join(names)}.")
    else:
        parts.append("Uncertain blocks: none.")
    return " ".join(parts)


def annotated_sgf(game: Game, score: Score, note: str = "") -> bytes:
    """The game's record (UTF-8) with TB/TW, the computed RE (``copy_result``) and the comment;
    RU and KM are set to the rules and komi used, so that the copy, counted with its own marks,
    gives the same RE. Everything else the record holds (comments, times, variations) stays;
    see ``sgf.with_score``."""
    same = rules_from_sgf(game.rules).name == score.rules.name and not sgf_rules_note(game.rules)
    rules = game.rules if same else score.rules.name
    if rules != game.rules or game.komi != score.komi:
        game = dataclasses.replace(game, rules=rules, komi=score.komi)
    return sgf.with_score(game, copy_result(game, score), territory_marks(score), comment(score, game.recorded, note))


def copy_result(game: Game, score: Score) -> str:
    """The RE a copy carries: the count, unless the game was decided otherwise (resignation,
    time, forfeit, void) or its position is not finished and the record counts no result: then
    what the record says, or nothing. The count of a game not played out is in the marks and
    the comment, and never passes for the game's result."""
    if decided_otherwise(game.result) or (not score.finished and not parse_result(game.result).counted):
        return game.result
    return score.result
