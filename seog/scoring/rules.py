"""Rule sets: how a final position becomes points, and how RU strings map onto them.

| rules | counts | handicap compensation to White | dead stones removed | superko | suicide | bent four in the corner |
|---|---|---|---|---|---|---|
| japanese, korean | territory + prisoners + dead stones; no territory in seki, nor on the points a group must fill once the dame are filled (``count.protective_points``) | none | yes | none: a cycle is no result | no | dead (japanese); as read (korean) |
| chinese | area (stones + territory) | one point per handicap stone | yes | positional | no | as read |
| aga | area | handicap - 1 | yes | situational | no | as read |
| nz | area | none | yes | situational | yes | as read |
| tromp-taylor | area | none | no: every stone on the board counts | positional | yes | as read |

Superko is for refereeing moves, not for the count: *positional* forbids a move that
recreates any earlier position of the game, *situational* one that recreates an earlier position
with the same player to move. *Suicide*: a move that leaves its own block without a liberty takes
that block off (the opponent's prisoners). A single stone's suicide leaves the board as it was:
positional superko forbids it, situational superko only when that position, with the opponent to
move, has occurred before (after a pass, say). *Bent four in the corner*: dead without play by
the Japanese ruling; the Korean rules weigh the ko threats, which a final position does not
show, and area rules play it out, so there the count takes it as read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from seog import clip


@dataclass(frozen=True)
class Rules:
    """One rule set. ``area``: count stones plus territory (else territory plus prisoners);
    ``handicap_bonus``: 'none', 'per-stone' or 'per-stone-minus-one';
    ``remove_dead``: dead stones are taken off before counting; ``seki_territory``: empty
    points enclosed by a group in seki count as territory (when False, protective points do not
    count either: both follow from the Japanese rule that the game ends with the dame filled);
    ``superko``: 'none', 'positional' or 'situational'; ``suicide``: a move may take off its own
    block (the module's table); ``bent_four_dead``: a group whose only eye space is the bent four
    in the corner is dead without play (the Japanese ruling, ``scoring.rulings``)."""

    name: str
    area: bool
    handicap_bonus: str = "none"
    remove_dead: bool = True
    seki_territory: bool = True
    default_komi: float = 7.5
    superko: str = "none"
    suicide: bool = False
    bent_four_dead: bool = False

    def komi_for(self, handicap: int = 0) -> float:
        """The komi when none is given: the rules' even-game komi, or HANDICAP_KOMI with a handicap
        (1 included: an even game that Black starts without komi), as handicap games are played."""
        return HANDICAP_KOMI if handicap >= 1 else self.default_komi

    def handicap_compensation(self, handicap: int) -> int:
        if handicap < 2 or self.handicap_bonus == "none":
            return 0
        return handicap if self.handicap_bonus == "per-stone" else handicap - 1


HANDICAP_KOMI = 0.5  # the komi of handicap (and no-komi) games: the half point only breaks a tie

RULES = {
    "japanese": Rules("japanese", area=False, seki_territory=False, default_komi=6.5, bent_four_dead=True),
    "korean": Rules("korean", area=False, seki_territory=False, default_komi=6.5),
    "chinese": Rules("chinese", area=True, handicap_bonus="per-stone", superko="positional"),
    "aga": Rules("aga", area=True, handicap_bonus="per-stone-minus-one", superko="situational"),
    "nz": Rules("nz", area=True, default_komi=7.0, superko="situational", suicide=True),
    "tromp-taylor": Rules("tromp-taylor", area=True, remove_dead=False, superko="positional", suicide=True),
}

ALIASES = {
    "jp": "japanese", "japan": "japanese", "japanese": "japanese",
    "ko": "korean", "korea": "korean", "korean": "korean",
    "cn": "chinese", "china": "chinese", "chinese": "chinese",
    "aga": "aga", "american": "aga", "bga": "aga",
    "nz": "nz", "new zealand": "nz", "new-zealand": "nz", "newzealand": "nz",
    "tromp-taylor": "tromp-taylor", "tromp taylor": "tromp-taylor", "tt": "tromp-taylor",
    "trompTaylor".lower(): "tromp-taylor",
}
SGF_NEAREST = {"ing": "chinese", "goe": "chinese", "ing goe": "chinese"}  # RU values: Ing counts area

DEFAULT_RULES = "japanese"


class UnknownRules(ValueError):
    """A rules name seog does not know."""


class DeadNotCounted(ValueError):
    """A caller's dead-stone decision under rules that count every stone as it stands
    (Tromp-Taylor): it could change nothing in the count, so it is refused rather than ignored."""


_KOMI = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
MAX_KOMI = 625  # points on the largest board (25x25): a komi beyond it is a typo


def parse_komi(text: str) -> float:
    """A komi given as text (``--komi``, GTP ``komi``): plain ASCII digits (``float`` would also
    take '6_5' as 65, 'nan' and other scripts' digits), at most the largest board's points;
    -0 is 0. Raises ValueError naming what is wrong."""
    if not _KOMI.fullmatch(text.strip()):
        raise ValueError(f"komi {clip(text)!r} is not a number")
    value = float(text)
    if not abs(value) <= MAX_KOMI:
        raise ValueError(f"komi {clip(text)!r} is more points than the largest board ({MAX_KOMI}) holds")
    return value + 0.0


def get_rules(name: str | None) -> Rules:
    """The rule set for a name or an SGF RU value (case-insensitive, a trailing "rules" ignored:
    'Chinese rules'); '' or None gives Japanese."""
    key = _key(name or DEFAULT_RULES)
    if key not in ALIASES:
        known = ", ".join(RULES)
        raise UnknownRules(f"unknown rules {clip(name)!r} (known: {known})")
    return RULES[ALIASES[key]]


def _key(name: str) -> str:
    key = name.strip().lower().replace("_", "-")
    for tail in (" rules", " rule"):
        key = key.removesuffix(tail)
    return key


def sgf_rules(ru: str) -> Rules | None:
    """The rule set an SGF RU value names: seog's names and aliases, or the nearest for a rule set
    seog lacks (Ing counts area, as chinese); None for a value seog does not know."""
    key = _key(ru or DEFAULT_RULES)
    name = ALIASES.get(key) or SGF_NEAREST.get(key)
    return RULES[name] if name else None


_KATAGO_SUICIDE = re.compile(r"sui([01])")  # in KataGo's RU: koPOSITIONALscoreAREAtaxNONEsui1button0


def record_allows_suicide(ru: str, given: Rules | str | None = None) -> tuple[bool, str]:
    """Was suicide legal in a game with this RU, and by what rules? Its RU says (KataGo's
    ``sui1``/``sui0`` too); where it names no rules seog knows, the rules ``given`` by the caller
    do (Japanese by default)."""
    if katago := _KATAGO_SUICIDE.search(ru or ""):
        return katago.group(1) == "1", f"RU[{clip(ru)}]"
    rules = sgf_rules(ru) if ru else None
    if rules is not None:
        return rules.suicide, f"RU[{clip(ru)}]"
    rules = get_rules(given) if isinstance(given, str) or given is None else given
    return rules.suicide, f"{rules.name} rules"


def check_suicides(game, given: Rules | str | None = None):
    """The loaded SGF ``game`` itself, if its suicides (``Game.suicides``) were legal under its
    rules (``record_allows_suicide``); raises ``SgfError`` naming the first one otherwise."""
    if not game.suicides:
        return game
    allowed, by = record_allows_suicide(game.rules, given)
    if not allowed:
        from seog.features.sgf import SgfError  # down the layers; this module is otherwise plain data

        number = game.suicides[0]
        raise SgfError(f"{game.move_name(number, *game.moves[number - 1])} is illegal: it is suicide, "
                       f"which {by} forbid{'s' if by.startswith('RU') else ''}")
    return game


def rules_from_sgf(ru: str) -> Rules:
    """``sgf_rules``, falling back to Japanese (``sgf_rules_note`` says so)."""
    return sgf_rules(ru) or RULES[DEFAULT_RULES]


def sgf_rules_note(ru: str) -> str | None:
    """What to tell the user when an RU value is not one of seog's rule sets: None when it is."""
    if not ru:
        return None
    rules = sgf_rules(ru)
    if rules is None:
        return f"RU[{clip(ru)}] names rules seog does not know; counted under {DEFAULT_RULES} rules"
    if _key(ru) in SGF_NEAREST:
        return f"RU[{clip(ru)}] counted by area under {rules.name} rules, the nearest seog knows"
    return None
