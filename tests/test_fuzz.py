"""Fuzzing the three parsers a stranger can reach: SGF text, the REST API's JSON board and GTP
command lines. Every input must end in an answer or the parser's own error (``SgfError``, a
4xx input error, a ``? message`` reply), never another exception, and within a time bound.

The default run is a few seconds. ``SEOG_FUZZ=long`` runs over 100,000 inputs (minutes; see
docs/benchmarks.md, "Fuzzing"): ``SEOG_FUZZ=long python3 -m pytest -s tests/test_fuzz.py``.
"""

import io
import json
import os
import re
import signal
import sys
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from conftest import DATA, EXAMPLES, STONES_LEFT_IN
from seog.api import http, positions, schemas
from seog.features import sgf
from seog.features.board import Board, IllegalMove
from seog.features.coords import BLACK, WHITE
from seog.gtp.referee import GtpReferee, Referee
from seog.scoring.rules import check_suicides
from seog.scoring.score import score_game

LONG = os.environ.get("SEOG_FUZZ") == "long"
# Examples per test: (default, long). A GTP example is a conversation of 4 to 40 lines.
EXAMPLES_PER_TEST = {"sgf": (300, 70_000), "board": (25, 10_000), "gtp": (30, 4_000)}
LIMIT_S = {"sgf": 10.0, "board": 30.0, "gtp": 30.0}  # per input: far above the slowest seen (docs)


def fuzz_settings(name: str):
    return settings(max_examples=EXAMPLES_PER_TEST[name][LONG], deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate, Phase.shrink],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


class Hang(BaseException):
    """An input that took longer than its bound (a BaseException: no ``except Exception`` eats it)."""


STATS: dict = defaultdict(lambda: {"inputs": 0, "answered": 0, "seconds": 0.0, "slowest": 0.0, "which": ""})


@contextmanager
def bounded(name: str, what=""):
    """Run one input (``what``) under LIMIT_S[name] seconds (SIGALRM), counting it and its time."""
    def expire(signum, frame):
        raise Hang(f"one {name} input took more than {LIMIT_S[name]:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, LIMIT_S[name])
    start = time.perf_counter()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        took = time.perf_counter() - start
        stats = STATS[name]
        stats["inputs"] += 1
        stats["seconds"] += took
        if took > stats["slowest"]:
            stats["slowest"], stats["which"] = took, repr(what)[:80]


@pytest.fixture(scope="module", autouse=True)
def report_counts():
    """In the long run, one line per parser: inputs, time and the slowest input."""
    started = time.perf_counter()
    yield
    if LONG:
        for name, s in STATS.items():
            print(f"\nfuzz {name}: {s['inputs']} inputs ({s['answered']} answered, the others refused), "
                  f"{s['seconds']:.0f} s in the parser, slowest {s['slowest']:.2f} s: {s['which']}", file=sys.stderr)
        total = sum(s["inputs"] for s in STATS.values())
        print(f"fuzz: {total} inputs in {time.perf_counter() - started:.0f} s, no crash, no hang", file=sys.stderr)


# ---- SGF ----------------------------------------------------------------------------------

def seed_records() -> list[bytes]:
    """Real records (the shipped examples, a few of ../shared's when it is here) and small ones
    with what the loader treats specially: escapes, setup, variations, marks, Fox komi, encodings."""
    root = Path(__file__).resolve().parent.parent
    files = sorted(EXAMPLES.glob("*.sgf")) + sorted((root / "examples").glob("*.sgf"))
    files += sorted((DATA / "gnugo-regression-games").glob("*.sgf"))[:8] + sorted((DATA / "kgs-2017-q1").glob("*.sgf"))[:4]
    records = [path.read_bytes() for path in files]
    records += [
        STONES_LEFT_IN.encode(),
        b"(;GM[1]FF[4]SZ[9]KM[6.50]RU[Japanese]RE[W+R]C[a \\] b\\\\]PB[x];B[ee]BL[290.5]C[hi];W[cc]"
        b"(;B[gg];AB[aa];W[];B[]TB[ba]TW[ii])(;B[gc]C[or here]))",
        b"(;GM[1]SZ[19]HA[3]AB[dd][pp][dp]KM[375]AP[foxwq]CA[gb2312]PB[\xba\xc3];W[pd];B[tt];W[tt])",
        b"(;GM[1]SZ[9]AB[aa:ii];AE[ee];W[ee])",
        b"(;GM[1]SZ[9];B[ba];W[ii];B[ab];W[aa])",  # a suicide
        "(;GM[1]CA[UTF-8]SZ[13]PW[李昌镐]RU[Chinese];B[gg];W[];B[])".encode(),
        b"(;GM[1]SZ[5]AB[aa][ba]AW[ab][bb];B[cc])",
        b"(;SZ[2];B[aa];W[bb];B[ab])",
    ]
    return records


SEEDS = seed_records()
TOKENS = [b";", b"(", b")", b"[", b"]", b"\\", b"(;", b")(", b"[]", b"\n", b"\x00", b"\xff\xfe", b"\xef\xbb\xbf",
          b"B", b"W", b"AB", b"AW", b"AE", b"SZ", b"KM", b"HA", b"RU", b"RE", b"CA", b"GM", b"TB", b"TW",
          b"PL", b"C", b"FF", b"AP", b"MN", b"[aa]", b"[tt]", b"[zz]", b"[ss]", b"[aa:ii]", b"[ii:aa]",
          b"[-1]", b"[0]", b"[1]", b"[2]", b"[25]", b"[26]", b"[19:19]", b"[5:7]", b"[1e308]", b"[nan]",
          b"[6,5]", b"[375]", b"[foxwq]", b"[UTF-16]", b"[gb2312]", b"[Tromp-Taylor]", b"[nz]", b"[B+R]",
          b"[seog: x]", b"[\xe9]", b"[" + b"x" * 300 + b"]", b"9" * 40]


@st.composite
def mutated_record(draw) -> bytes:
    """A real record with a few edits: bytes changed, SGF tokens put in or taken out, slices
    repeated or cut."""
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.sampled_from([1, 1, 2, 3, 6]))):
        at = draw(st.integers(0, len(data)))
        edit = draw(st.sampled_from(["token", "byte", "delete", "repeat", "cut", "value"]))
        if edit == "token":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif edit == "byte":
            data[at:at + 1] = bytes([draw(st.integers(0, 255))])
        elif edit == "delete":
            del data[at:at + draw(st.integers(1, 8))]
        elif edit == "repeat":
            piece = data[at:at + draw(st.integers(1, 40))]
            data[at:at] = piece * draw(st.integers(1, 20))
        elif edit == "cut":
            del data[at:]
        else:  # a property value swapped for another
            start = data.find(b"[", at)
            end = data.find(b"]", start)
            if 0 <= start < end:
                data[start:end + 1] = draw(st.sampled_from([t for t in TOKENS if t.startswith(b"[") and t.endswith(b"]")]))
    return bytes(data)


@st.composite
def revalued_record(draw) -> bytes:
    """A real record, still well formed, with a few values changed: moves to other points (on
    the board, off it, passes), setup and marks, komi, size, rules, encodings."""
    data = draw(st.sampled_from(SEEDS))
    values = [t for t in TOKENS if t.startswith(b"[") and t.endswith(b"]")]
    point = st.tuples(st.sampled_from(b"abcdefghijklmnopqrstuvwxyz"), st.sampled_from(b"abcdefghijklmnopqrst"))
    rng = draw(st.randoms(use_true_random=False))  # where: anywhere in the file alike
    moves = [m.end() - 1 for m in re.finditer(rb"[;\s][BW]\[", data)]
    for _ in range(draw(st.integers(1, 3))):
        start = data.find(b"[", rng.choice(moves) if moves and rng.random() < 0.7 else rng.randrange(len(data)))
        end = data.find(b"]", start)
        if not 0 <= start < end:
            continue
        if draw(st.integers(0, 3)):
            new = b"[" + bytes(draw(point)) + b"]"
        else:
            new = draw(st.sampled_from(values))
        data = data[:start] + new + data[end + 1:]
    return data


SGF_INPUTS = st.one_of(
    mutated_record(),
    revalued_record(),
    revalued_record(),
    st.binary(max_size=400),
    st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join),
    st.lists(st.sampled_from(TOKENS), max_size=60).map(lambda parts: b"(;" + b"".join(parts) + b")"),
)


@fuzz_settings("sgf")
@given(data=SGF_INPUTS, as_text=st.booleans(), rules=st.sampled_from([None, "nz", "japanese"]),
       then=st.sampled_from(["load", "score", "copy"]))
def test_any_sgf_text_is_read_or_refused_with_an_sgf_error(data, as_text, rules, then):
    """What ``seog score``, ``annotate``, GTP ``loadsgf`` and ``POST /v1/score`` (``sgf``, as text)
    do with a file: load it, check its suicides, and score it or write the annotated copy."""
    text = data.decode("latin-1") if as_text else data
    with bounded("sgf", (then, data)):
        try:
            game = check_suicides(sgf.loads(text), rules)
        except sgf.SgfError as exc:
            assert str(exc)
            return
        assert 2 <= game.size <= 25 and game.board.grid.shape == (game.size, game.size)
        if then == "score":
            try:
                score = score_game(game, model=None)
            except positions.INPUT_ERRORS as exc:  # a block set up without liberties, say
                assert str(exc)
            else:
                assert score.result
        elif then == "copy":
            as_read = sgf.serialise(game.parsed.tree)
            try:
                copy = sgf.with_score(game, "B+0.5", {BLACK: {0}, WHITE: set()}, "seog: fuzz")
            except sgf.SgfError as exc:  # a copy that would not read back is refused
                assert "would not read back" in str(exc)
            else:
                assert sgf.loads(copy).result == "B+0.5"
            assert sgf.serialise(game.parsed.tree) == as_read  # the copy shares nodes it never changes
        STATS["sgf"]["answered"] += 1


# ---- the REST API's JSON board --------------------------------------------------------------

ROW_CHARACTERS = "XO.xo?#@ \t,bw0é\u3000"
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
VERTICES = ["A1", "E5", "J9", "T19", "Z25", "I5", "a1", "pass", "A0", "A26", "", " E5", "Ｅ５", "E" + "5" * 30]
RULES = ["japanese", "chinese", "aga", "nz", "tromp-taylor", "korean", "Chinese rules", "ing", "", " ", "x" * 40]


def played_rows(size: int, moves: int, rng) -> list[str]:
    """A position reached by random legal moves (captures included), as rows."""
    board = Board(size)
    color = BLACK
    for _ in range(moves):
        try:
            board.play(color, rng.randrange(size * size))
        except IllegalMove:
            continue
        color = -color
    return board.to_rows()


def valid_or_not(valid, invalid):
    """Mostly a value the API takes, now and then one it must refuse."""
    return st.one_of(valid, valid, valid, valid, valid, invalid)


@st.composite
def near_valid_board(draw) -> dict:
    """A board of a random size: a position of random legal moves, or stones thrown at random;
    sometimes a ragged row or a stray character; settings beside it, mostly ones the API takes."""
    size = draw(st.one_of(st.sampled_from(range(2, 26)), st.sampled_from(range(2, 26)), st.integers(0, 27)))
    rng = draw(st.randoms(use_true_random=False))  # one draw for the stones: far quicker than one a point
    if 2 <= size <= 25 and draw(st.integers(0, 3)):
        rows = played_rows(size, int(size * size * draw(st.sampled_from([0.2, 0.6, 1.0, 2.0]))), rng)
    else:
        density = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.95]))
        rows = ["".join(rng.choice("XO") if rng.random() < density else "." for _ in range(size))
                for _ in range(size)]
    if rows and not draw(st.integers(0, 7)):
        r = draw(st.integers(0, len(rows) - 1))
        rows[r] = draw(st.sampled_from([rows[r][:-1], rows[r] + ".", " ".join(rows[r]),
                                        rows[r][:1] + draw(st.sampled_from(ROW_CHARACTERS)) + rows[r][2:]]))
    stones = [f"{COLUMNS[c]}{size - r}" for r, row in enumerate(rows) for c, ch in enumerate(row[:25]) if ch in "XO"]
    vertices = st.sampled_from(stones) if stones else st.sampled_from(VERTICES)
    body: dict = {"board": rows}
    for key, values in (
        ("size", valid_or_not(st.just(size), st.one_of(st.integers(-2, 30), st.sampled_from([1.5, "9", True])))),
        ("rules", valid_or_not(st.sampled_from(RULES[:6]), st.sampled_from(RULES))),
        ("komi", valid_or_not(st.sampled_from([0, 0.5, 6.5, 7, 7.5, -3.5, 625]),
                              st.one_of(st.floats(), st.integers(-2000, 2000), st.sampled_from(["6.5", True])))),
        ("handicap", valid_or_not(st.integers(0, 9), st.one_of(st.integers(-1, 700), st.sampled_from([2.0, "2"])))),
        ("prisoners", valid_or_not(st.fixed_dictionaries({"black": st.integers(0, 50), "white": st.integers(0, 50)}),
                                   st.sampled_from([{}, {"black": -1}, {"black": 1, "red": 2}, [1, 2]]))),
        ("overrides", st.fixed_dictionaries({"dead": st.lists(valid_or_not(vertices, st.sampled_from(VERTICES)), max_size=3),
                                             "alive": st.lists(valid_or_not(vertices, st.sampled_from(VERTICES)), max_size=2)})),
        ("annotated_sgf", st.booleans()),
        ("use_markup", st.sampled_from([False, False, False, True])),
        ("svg", st.booleans()),
    ):
        if not draw(st.integers(0, 2)):
            body[key] = draw(values)
    return body


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                           lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                           max_leaves=20)
BOARD_INPUTS = st.one_of(
    near_valid_board(),
    near_valid_board(),
    near_valid_board(),
    st.fixed_dictionaries({"board": st.lists(st.text(ROW_CHARACTERS, max_size=27), max_size=27)}),
    st.fixed_dictionaries({"board": JSON_VALUES}),
    st.dictionaries(st.sampled_from(["board", "sgf", "size", "komi", "rules", "handicap", "overrides", "x"]),
                    JSON_VALUES, max_size=4),
)


@fuzz_settings("board")
@given(body=BOARD_INPUTS)
def test_any_json_board_is_scored_or_refused_with_a_4xx_error(body):
    """``POST /v1/score`` with a board, in process: the body's model (its ValidationError is the
    API's 422), then the position and the count (``positions.INPUT_ERRORS`` are its 400s)."""
    with bounded("board", body):
        try:
            request = schemas.ScoreRequest.model_validate(body)
        except ValidationError:
            return
        try:
            answer = http.score_request(request)
        except positions.INPUT_ERRORS as exc:
            assert str(exc)
            return
        json.dumps(answer, allow_nan=False)  # what the server sends must be JSON
        assert answer["result"] and len(answer["ownership"]) == len(request.board or ())
        STATS["board"]["answered"] += 1


# ---- GTP --------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sgf_files(tmp_path_factory) -> list[str]:
    """Paths for ``loadsgf``: a game, a broken file, a UTF-16 one, a folder, a missing file."""
    folder = tmp_path_factory.mktemp("fuzz-gtp")
    files = {"game.sgf": SEEDS[0], "broken.sgf": b"(;GM[1]SZ[9];B[ee", "u16.sgf": "(;SZ[9];B[ee])".encode("utf-16"),
             "suicide.sgf": b"(;GM[1]SZ[9];B[ba];W[ii];B[ab];W[aa])", "big.sgf": b"(;SZ[9]" + b"(;)" * 10_001 + b")"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return [str(folder / name) for name in files] + [str(folder), str(folder / "missing.sgf"), "/dev/null"]


GTP_NAMES = list(GtpReferee(Referee(model=None)).commands) + ["genmove", "PLAY", "Final_Score", "", "=", "?"]
GTP_WORDS = ["b", "w", "black", "white", "B", "x", "pass", "PASS", "resign", "A1", "T19", "J9", "E5", "I5", "Z25",
             "A0", "a26", "e5", "0", "1", "2", "7", "9", "19", "25", "26", "-1", "99999999999", "4", "10",
             "6.5", "-0", "1e9", "1e308", "nan", "inf", "6_5", "٣", "alive", "dead", "seki", "japanese",
             "chinese", "tromp-taylor", "new_zealand", "ing", "#", "\t", "\x00", "\x1b[2J", "é"]


@st.composite
def gtp_line(draw, files: list[str]) -> str:
    """A command from ``list_commands`` (or not) with random words; a move on the board in a
    third of the lines, so that positions build up and get scored; now and then any text."""
    kind = draw(st.integers(0, 11))
    if kind == 0:
        return draw(st.text(max_size=40))
    if kind >= 8:
        return f"play {draw(st.sampled_from('bw'))} {draw(st.sampled_from(COLUMNS))}{draw(st.integers(1, 19))}"
    words = [draw(st.sampled_from(GTP_NAMES))]
    if words[0] == "loadsgf":
        words.append(draw(st.sampled_from(files)))
    words += draw(st.lists(st.sampled_from(GTP_WORDS), max_size=4))
    if kind == 1:
        words.insert(0, str(draw(st.integers(0, 10**20))))
    return " ".join(words)


@pytest.fixture(scope="module")
def gtp_conversations(sgf_files):
    return st.lists(gtp_line(sgf_files), min_size=4, max_size=40)


def test_any_gtp_command_line_gets_one_framed_answer_or_failure(gtp_conversations):
    """Conversations of command lines on a fresh referee (so that sizes, moves and handicaps pile
    up): each line gets ``= ...`` or ``? message``, never ``internal error``, framed as GTP wants."""

    @fuzz_settings("gtp")
    @given(lines=gtp_conversations)
    def conversation(lines):
        gtp = GtpReferee(Referee(model=None), log=io.StringIO())
        for line in lines:
            with bounded("gtp", line):
                reply = gtp.handle(line)
            if reply is None:
                continue
            assert reply[0] in "=?" and reply.endswith("\n\n") and "\n\n" not in reply[:-2], (line, reply)
            assert "internal error" not in reply, (line, reply)
            STATS["gtp"]["answered"] += reply[0] == "="

    conversation()
