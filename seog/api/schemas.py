"""The REST API's JSON contract as pydantic models: what a client may send, and what it gets back.

``ScoreResponse`` mirrors ``seog.scoring.report.to_dict`` field for field, so that the answer of
``POST /v1/score`` is the same object as ``seog score --json`` and any drift fails validation.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    model_validator,
)

from seog import clip
from seog.features.coords import MAX_SIZE, MIN_SIZE
from seog.scoring.rules import ALIASES

MAX_PRISONERS = 100_000  # far more than any game takes; a huge count made a nonsense result or a 500
MAX_RULES_LENGTH = 32  # the longest name of a rule set, with room for 'rules' and spaces
MAX_VERTEX_LENGTH = 8  # an override's GTP vertex: 'Q16', or with blanks around it
Number = Annotated[float, Strict()]  # a JSON number: not true (read as 1) nor "6.5"; integers are taken


def _whole(value):
    """A number without a fraction as the integer it is (JSON Schema's reading: 9.0 is 9); true and
    "9" are left to be refused."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# JSON integers within bounds: 9 or 9.0, not 9.5, true nor "9" (the bounds go before the validator,
# or pydantic writes them into the schema as "ge" and "le", which JSON Schema does not know)
Size = Annotated[StrictInt, Field(ge=MIN_SIZE, le=MAX_SIZE), BeforeValidator(_whole)]
Handicap = Annotated[StrictInt, Field(ge=0, le=MAX_SIZE * MAX_SIZE), BeforeValidator(_whole)]
Captured = Annotated[StrictInt, Field(ge=0, le=MAX_PRISONERS), BeforeValidator(_whole)]


def _any_case(name: str) -> str:
    """A regular expression for a rules name in any ASCII case, '-' or '_' alike: 'n[Zz]' for 'nz'."""
    return "".join(f"[{c.upper()}{c}]" if c.isalpha() else "[-_]" if c == "-" else c for c in name)


# The patterns the OpenAPI document states and the server holds input to (``positions``): character
# classes, literals and ^...$ only, which read alike in ECMA-262 (JSON Schema's), Python and Rust.
SPACE = r"[ \t]"  # the blanks a row, a vertex or a rules name may carry around what it says
POINTS = "XxBOoW.+-"  # Board.from_rows: X/x/B black, O/o/W white, ./+/- empty
ROW_CHARACTERS = frozenset(POINTS + " \t")
ROW_PATTERN = f"^{SPACE}*(?:[{POINTS}]{SPACE}*){{{MIN_SIZE},{MAX_SIZE}}}$"
VERTEX_PATTERN = f"^{SPACE}*[A-HJ-Za-hj-z][0-9]+{SPACE}*$"  # GTP columns: no I
RULES_PATTERN = (f"^(?:{SPACE}*(?:{'|'.join(_any_case(name) for name in sorted(ALIASES))})"
                 f"(?: [Rr][Uu][Ll][Ee][Ss]?)?{SPACE}*)?$")  # rules.get_rules: a trailing ' rule(s)' goes
RULES_FIELD = ("japanese, korean, chinese, aga, nz or tromp-taylor, in any case, or an alias (jp, ko, cn, "
               "american, bga, new zealand, tt, ...), a trailing ' rules' taken; empty: the SGF's RU "
               "(japanese for a board)")
Vertex = Annotated[str, Field(max_length=MAX_VERTEX_LENGTH, json_schema_extra={"pattern": VERTEX_PATTERN})]
Row = Annotated[str, Field(json_schema_extra={"pattern": ROW_PATTERN})]
RulesName = Annotated[str, Field(max_length=MAX_RULES_LENGTH, json_schema_extra={"pattern": RULES_PATTERN})]


MAX_UNKNOWN_FIELDS = 20  # past this many, one error for all: pydantic's one each made 88,000 of a 1 MiB body


class _Strict(BaseModel):
    """Request models refuse unknown fields, so that a misspelt option is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="before")
    @classmethod
    def _few_unknown_fields(cls, data):
        """Refuse an object of more than MAX_UNKNOWN_FIELDS unknown keys with one error naming a few:
        listing each (as pydantic does for a misspelt option or two) would hold the event loop
        and answer megabytes for a 1 MiB body of them."""
        if isinstance(data, dict) and len(data) > MAX_UNKNOWN_FIELDS:
            unknown = [key for key in data if key not in cls.model_fields]
            if len(unknown) > MAX_UNKNOWN_FIELDS:
                named = ", ".join(repr(clip(str(key))) for key in unknown[:3])
                raise ValueError(f"{len(unknown)} unknown fields ({named}, ...); known: {', '.join(cls.model_fields)}")
        return data


class Prisoners(_Strict):
    """Stones each side has captured during the game (the count under territory rules)."""

    black: Captured = 0
    white: Captured = 0


class Overrides(_Strict):
    """The caller's own dead-stone decisions, as GTP vertices; each applies to the whole block."""

    dead: list[Vertex] = Field(default_factory=list, max_length=MAX_SIZE * MAX_SIZE)
    alive: list[Vertex] = Field(default_factory=list, max_length=MAX_SIZE * MAX_SIZE)


SGF_ONLY = ("use_markup", "annotated_sgf")  # with a board: 400, naming it
RESULT_PATTERN = f"^{SPACE}*(?:[BbWw][+][0-9]{{1,4}}(?:[.][0-9]{{1,2}})?|0){SPACE}*$"  # a count: B+3.5, W+12, 0
RESULT_FIELD = ("the game's counted result under the rules and komi it is counted by (B+3.5, W+12, 0 for a "
                "draw; board only: an SGF's is its RE), which settles the groups in doubt that, turned, make the "
                "count equal it; the answer's settled_by and turned say so")
IGNORE_RESULT_FIELD = ("read blind: leave the SGF's counted RE (or the board's result) out of deciding the dead "
                       "stones; the answer is then what seog reads alone")
FINISHED_FIELD = ("false for a game that did not end with a count (a resignation, a time loss, a game in progress) "
                  "where the input cannot say so (a board has no RE, nor has an SGF without one): the count is "
                  "then an estimate of the board as it stands and the eye-shape rules do not run; an SGF whose RE "
                  "says so keeps its own reason. Absent or true: finished unless the SGF's RE or the borders, "
                  "still open, say otherwise")
BOARD_ONLY = ("size", "handicap", "prisoners", "result")  # with SGF text: 422, naming them (``_one_position``)
EXAMPLES = [
    {"board": [".X.O.", ".X.O.", ".X.O.", ".X.O.", ".X.O."], "rules": "japanese", "komi": 0.5},
    {"sgf": "(;GM[1]SZ[9]KM[6.5]RU[Japanese];B[ee];W[gc];B[];W[])", "annotated_sgf": True},
]


def _one_position_schema(schema: dict) -> None:
    """``ScoreRequest``'s schema states what ``_one_position`` holds a body to: ``sgf`` text or
    ``board`` rows, exactly one (null is absent), and the fields that go only with one of them."""
    schema["oneOf"] = [
        {"title": "SGF text", "required": ["sgf"],
         "properties": {"sgf": {"type": "string"}, **{k: {"type": "null"} for k in ("board", *BOARD_ONLY)}}},
        {"title": "board rows", "required": ["board"],
         "properties": {"board": {"type": "array"}, "sgf": {"type": "null"},
                        **{k: {"const": False} for k in SGF_ONLY}}},
    ]
    schema["examples"] = EXAMPLES


class ScoreRequest(_Strict):
    """Either ``sgf`` (a finished game) or ``board`` (rows top to bottom, ``X``/``O``/``.``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_one_position_schema)

    sgf: Annotated[str, Field(json_schema_extra={"minLength": 1})] | None = Field(
        None, description="SGF text of a finished game")
    size: Size | None = Field(None, description="board size; must match the rows")
    board: Annotated[list[Row], Field(max_length=MAX_SIZE, json_schema_extra={"minItems": MIN_SIZE})] | None = Field(
        None, description=f"rows top to bottom, as many as each row has points ({MIN_SIZE} to {MAX_SIZE}): "
                          "X (or x, B) black, O (or o, W) white, . (or +, -) empty, spaces or tabs between them")
    rules: RulesName | None = Field(None, description=RULES_FIELD)
    komi: Number | None = Field(None, ge=-1000, le=1000, allow_inf_nan=False,
                               description="White's komi, over the SGF's KM. Default: the SGF's KM (0 without "
                                           "one); for a board, 0.5 with a handicap (1 or more), else the rules' "
                                           "even-game komi: 6.5 japanese and korean, 7 nz, 7.5 chinese, aga and "
                                           "tromp-taylor")
    handicap: Handicap | None = Field(None, description="handicap stones, at most the board's points less one "
                                                        "(board only; an SGF's come from HA)")
    prisoners: Prisoners | None = Field(None, description="board only; an SGF's are counted from its moves")
    finished: StrictBool | None = Field(
        None, description=FINISHED_FIELD)
    use_markup: StrictBool = Field(False, description="count with the SGF's TB/TW dead stones instead of deciding "
                                                      "(SGF only)")
    result: Annotated[str, Field(max_length=MAX_RULES_LENGTH, json_schema_extra={"pattern": RESULT_PATTERN})
                      ] | None = Field(None, description=RESULT_FIELD, examples=["B+3.5"])
    ignore_result: StrictBool = Field(False, description=IGNORE_RESULT_FIELD)
    overrides: Overrides | None = None
    annotated_sgf: StrictBool = Field(False, description="also return the game as SGF with TB/TW, RE and a comment "
                                                         "(SGF only)")
    svg: StrictBool = Field(False, description="also return the scored board as an SVG picture")

    @model_validator(mode="after")
    def _one_position(self) -> ScoreRequest:
        if (self.sgf is None) == (self.board is None):
            raise ValueError("give either 'sgf' (SGF text) or 'board' (a list of rows), not both or neither")
        if self.sgf is not None:
            extra = [k for k in BOARD_ONLY if getattr(self, k) is not None]
            if extra:
                raise ValueError(f"{_listed(extra)} {'comes' if len(extra) == 1 else 'come'} from the SGF; "
                                 f"send {'it' if len(extra) == 1 else 'them'} only with 'board'")
        return self


def _listed(names: list[str]) -> str:
    """'size', 'size' and 'handicap', 'size', 'handicap' and 'prisoners'."""
    quoted = [f"'{name}'" for name in names]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


SOURCES = ("benson, atari, capturers-dead, model (the cascade), refiner, reading, big-eye, eyespace, seki, eyes, "
           "life (a life-and-death search proved it), heuristic (no model), markup (the SGF's TB/TW), override (the caller's), record (turned to make the "
           "count equal the recorded result), bent-four (dead by the Japanese ruling on bent four in the corner)")


class Block(BaseModel):
    """One block of stones and the verdict on it."""

    stones: list[str] = Field(description="its stones, as GTP vertices")
    color: Literal["black", "white"]
    status: Literal["alive", "dead"] = Field(description="what the count uses: 'dead' stones are taken off")
    read_status: Literal["alive", "dead"] = Field(
        description="what seog reads (or the marks, or the caller), whatever the rules: the same as status, except "
                    "under rules that count every stone as it stands (tromp-taylor), where a block read dead is "
                    "counted alive (status 'alive', read_status 'dead'): the players should have captured it")
    source: str = Field(description=f"what decided it: {SOURCES} (docs/json.md)")
    p_alive: float | None = Field(description="the model's probability that the block is alive (null where a "
                                              "rule settled it alone: benson, atari, markup)")
    uncertain: bool = Field(description="the verdict is in doubt: ask the players to confirm")
    doubt: Literal["model", "race", "rule", "parted", "record", "unread"] | None = Field(
        None, description="why it is in doubt: 'model' (its probability is near 0.5), 'race' (a liberty race "
                          "with one neighbouring group that its capturer may not win: seki, or a capture the "
                          "other way), 'rule' (a rule after the nets turned a verdict the reader was sure of), "
                          "'parted' (the cascade and the reader disagree on it), 'record' (the recorded result "
                          "turned a verdict the nets were sure of) or 'unread' (a life-and-death search, cut "
                          "short by its budget, reads it otherwise)")


class Turned(BaseModel):
    """A block the recorded result turned, as the blind reading had it."""

    stones: list[str]
    color: Literal["black", "white"]
    blind_status: Literal["alive", "dead"] = Field(description="what the blind reading said")
    p_alive: float | None = Field(description="the nets' probability that the block is alive")


class Points(BaseModel):
    black: float
    white: float


class Vertices(BaseModel):
    black: list[str]
    white: list[str]


class Counts(BaseModel):
    black: int
    white: int


class ScoreResponse(BaseModel):
    """The scored position: the same object as ``seog score --json``, plus the seog version and
    model name, and the annotated SGF and SVG if asked."""

    size: int
    rules: Literal["japanese", "korean", "chinese", "aga", "nz", "tromp-taylor"] = Field(
        description="the rules counted by")
    komi: float
    handicap: int
    result: str = Field(description="as SGF's RE: 'B+3.5', 'W+0.5', '0' for a draw", examples=["B+3.5"])
    score: Points = Field(description="each side's points, White's with komi and handicap compensation")
    dead: list[str] = Field(description="the dead stones the count takes off, as GTP vertices (none under "
                                        "tromp-taylor: see notes and each block's read_status)")
    seki: list[str] = Field(description="the stones in seki")
    territory: Vertices = Field(description="each side's territory points")
    dame: list[str] = Field(description="empty or dead-stone points that count for nobody")
    prisoners: Counts = Field(description="stones each side captured during the game (as given)")
    breakdown: dict[str, dict[str, int | float]] = Field(
        description="per side ('black', 'white'): the items of its count (territory; stones under area rules, "
                    "prisoners and dead_stones under territory rules; White's komi, and handicap under area rules)")
    ownership: list[str] = Field(description="one string per row, top first: B, W or . for each point")
    uncertain: bool = Field(description="some block is uncertain, or the count is more than 10 points from the "
                                        "record's counted result: ask the players to confirm")
    finished: bool = Field(True, description="a finished position; when false the count is an estimate of the "
                                             "board as it stands, decided without the eye-shape rules")
    unfinished: str | None = Field(None, description="why the position is not finished: the record's RE "
                                                     "(e.g. 'RE[B+R]'), 'open borders', a record with one "
                                                     "colour's stones only that no count or two passes end, or "
                                                     "'finished: false in the request' (a board); null when it is",
                                   examples=["RE[W+Resign]"])
    notes: list[str] = Field([], description="how the input was read where it was not plain (Fox komi, CA[UTF-8] "
                                             "on text that is not UTF-8, unknown RU, a game decided otherwise "
                                             "than by a count), under tromp-taylor the stones read as dead "
                                             "that count as they stand, and open borders: a position not "
                                             "finished, counted as it stands")
    blocks: list[Block]
    recorded_result: str | None = Field(None, description="the players' result (RE; in a copy seog wrote, the "
                                                          "result it kept from the players)")
    agrees_with_recorded: bool | None = Field(None, description="the count gives the recorded result (null "
                                                                "when that was no count: resignation, time, Void)")
    record_gap: float | None = Field(None, description="Black's margin as counted less the recorded one (null when "
                                                       "the record holds no count, or the rules or komi counted by "
                                                       "are not the record's); more than 10 either way makes the "
                                                       "position uncertain")
    record_fit: Literal["agrees", "settled", "no fit", "ambiguous"] | None = Field(
        None, description="what the counted result given (the SGF's RE, or the board's result) did, when one was "
                          "given and not ignored: 'agrees' (the blind count gives it), 'settled' (turning the "
                          "blocks in 'turned' gives it), 'no fit' or 'ambiguous' (no turn in reach, or two about "
                          "as good: the blind reading stands and the position is uncertain)")
    settled_by: Literal["recorded result"] | None = Field(
        None, description="'recorded result' when the recorded result turned blocks (record_fit 'settled')")
    turned: list[Turned] | None = Field(None, description="the blocks the recorded result turned, as read blind")
    seog_version: str | None = Field(None, description="the seog that scored (API answers only)")
    model: str | None = Field(None, description="the model that decided the unsettled blocks (API answers only)")
    annotated_sgf: str | None = None
    svg: str | None = None


class Health(BaseModel):
    status: str
    version: str


class ModelInfo(BaseModel):
    """Which model decides the unsettled blocks, and the figures from its card (empty without one)."""

    name: str
    version: str | None
    trained: bool
    description: str
    card: dict = Field(default_factory=dict)


class Error(BaseModel):
    """Every error answer: ``detail`` is one sentence naming the problem."""

    detail: str
    errors: list | None = None
