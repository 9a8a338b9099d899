"""The REST API, called over HTTP on a real uvicorn server listening on a loopback port."""

import http.client
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from conftest import LEFT_IN_NOTE, RESIGNED_AT_226, STONES_LEFT_IN, TWO_WALLS
from seog.api.errors import MAX_DRAIN
from seog.api.http import create_app
from seog.cli import main as cli_main
from seog.features import coords, sgf
from seog.features.board import Board

# TWO_WALLS (conftest): Japanese, komi 6.5: Black 22 territory + 1 dead = 23, White 30 + 6.5 ->
# W+13.5. Chinese, komi 7.5: Black 14 stones + 22 = 36, White 15 + 30 + 7.5 -> W+16.5.


def sgf_text(rows, *, komi=6.5, rules="Japanese", result="W+13.5", last="") -> str:
    """A game record whose final position is ``rows`` (as setup stones), then two passes."""
    grid = Board.from_rows(rows).grid
    size = len(rows)
    stones = {c: "".join(f"[{coords.index_to_sgf(i, size)}]" for i in (grid.ravel() == c).nonzero()[0])
              for c in (coords.BLACK, coords.WHITE)}
    return (f"(;GM[1]FF[4]SZ[{size}]KM[{komi}]RU[{rules}]RE[{result}]PB[Black]PW[White]"
            f"AB{stones[coords.BLACK]}AW{stones[coords.WHITE]};B[];W[]{last})")


@contextmanager
def serving(app):
    """Run ``app`` under uvicorn in a thread on a free 127.0.0.1 port; yield its base URL."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def api():
    with serving(create_app()) as url, httpx.Client(base_url=url, timeout=30) as client:
        yield client


def post(api, **body):
    return api.post("/v1/score", json=body)


# ---- answers -----------------------------------------------------------------------------

def test_health_says_ok_with_the_version(api):
    r = api.get("/v1/health")
    assert r.status_code == 200 and r.json()["status"] == "ok" and r.json()["version"]


def test_model_names_the_model_in_use_or_says_it_is_the_heuristic(api):
    from seog.scoring.score import default_model

    info = api.get("/v1/model").json()
    assert info["trained"] == (default_model() is not None)
    if default_model() is None:
        assert info["name"] == "heuristic" and "no trained model" in info["description"]


def test_a_model_that_cannot_be_loaded_stops_the_start_not_each_count(monkeypatch):
    from fastapi.testclient import TestClient

    from seog.classifiers import model_file
    from seog.scoring import score

    def damaged():
        raise model_file.ModelFileError("default.npz: not a seog model file")

    monkeypatch.setattr(score, "_default_loaded", False)
    monkeypatch.setattr(model_file, "load_default", damaged)
    with pytest.raises(model_file.ModelFileError, match="not a seog model"), TestClient(create_app(static_dir=None)):
        pass


def test_model_info_of_a_trained_cascade_reports_its_layout_and_card():
    import numpy as np

    from seog.api.http import model_info
    from seog.classifiers.mlp import Net
    from seog.classifiers.model_file import Model
    from seog.features.scaling import Scaler

    net = Net([np.zeros((4, 3)), np.zeros((1, 4))], [np.zeros(4), np.zeros(1)])
    model = Model([net], ["liberties", "size", "eyes"], Scaler.fit(np.array([[0.0, 0, 0], [1, 1, 1]])),
                  meta={"version": 1, "training": {"games": 500, "nets": [{"test_rms": 0.12}]}})
    info = model_info(model)
    assert info["trained"] and info["version"] == "format 1"
    assert "1 MLPs (3x4x1)" in info["description"]
    assert info["card"]["training"]["nets"][0]["test_rms"] == 0.12


def test_two_walls_board_counts_the_dead_stone_in_atari_under_japanese_rules(api):
    r = post(api, size=9, board=TWO_WALLS, rules="japanese", komi=6.5)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["result"] == "W+13.5"
    assert body["score"] == {"black": 23.0, "white": 36.5}
    assert body["dead"] == ["C7"]
    assert body["breakdown"]["black"] == {"territory": 22, "prisoners": 0, "dead_stones": 1}
    assert len(body["ownership"]) == 9 and body["ownership"][0] == "B.B..W.W."


def test_two_walls_board_under_area_rules_counts_stones(api):
    body = post(api, board=TWO_WALLS, rules="chinese", komi=7.5).json()
    assert body["result"] == "W+16.5"
    assert body["breakdown"]["black"]["stones"] == 14 and body["breakdown"]["white"]["stones"] == 15


def test_prisoners_and_handicap_of_a_json_board_are_counted(api):
    body = post(api, board=TWO_WALLS, rules="japanese", komi=6.5,
                prisoners={"black": 10, "white": 2}).json()
    assert body["score"] == {"black": 33.0, "white": 38.5} and body["result"] == "W+5.5"
    aga = post(api, board=TWO_WALLS, rules="aga", komi=0.5, handicap=3).json()
    assert aga["handicap"] == 3 and aga["breakdown"]["white"]["handicap"] == 2


def test_the_board_of_a_resigned_game_said_unfinished_is_read_as_its_record_is(api):
    """A board has no RE: the last board of a resigned game, its borders closed, is read as a
    finished one, and the eye-shape rules then kill groups that were still fighting. Posted with
    ``finished: false`` it is read as the record with its RE is: the reader alone, the count an
    estimate, the answer saying why."""
    from seog.classifiers.vocabulary import EYE_SHAPE_PASSES
    from seog.scoring.request import SAID_UNFINISHED

    said = post(api, board=RESIGNED_AT_226, rules="japanese", komi=0.5, handicap=3, finished=False).json()
    record = post(api, sgf=sgf_text(RESIGNED_AT_226, komi=0.5, result="B+Resign").replace("KM[", "HA[3]KM[")).json()
    assert said["finished"] is False and said["unfinished"] == SAID_UNFINISHED
    assert said["notes"][0].startswith(f"not a finished position ({SAID_UNFINISHED})")
    assert not {b["source"] for b in said["blocks"]} & {s.value for s in EYE_SHAPE_PASSES}
    assert record["unfinished"] == "RE[B+Resign]"
    assert (said["result"], said["dead"]) == (record["result"], record["dead"])
    alone = post(api, board=RESIGNED_AT_226, rules="japanese", komi=0.5, handicap=3).json()
    assert alone["finished"] is True  # nothing on the board itself says the game was not counted


def test_an_sgf_without_re_said_unfinished_is_read_as_its_resigned_record_is(api):
    """An SGF without RE cannot say its game was not counted either (a game in progress): with
    ``finished: false``, in the JSON body or the upload's form, it is read as the record with a
    resignation RE is; a record whose RE says so keeps its own reason."""
    from seog.scoring.request import SAID_UNFINISHED

    bare = sgf_text(RESIGNED_AT_226, komi=0.5, result="").replace("RE[]", "").replace("KM[", "HA[3]KM[")
    resigned = bare.replace("KM[", "RE[B+Resign]KM[", 1)
    record = post(api, sgf=resigned).json()
    said = post(api, sgf=bare, finished=False).json()
    upload = api.post("/v1/score/sgf", files={"file": ("g.sgf", bare.encode())}, data={"finished": "false"}).json()
    assert record["unfinished"] == "RE[B+Resign]"
    for answer in (said, upload):
        assert answer["finished"] is False and answer["unfinished"] == SAID_UNFINISHED
        assert (answer["result"], answer["dead"]) == (record["result"], record["dead"])
    assert post(api, sgf=bare).json()["finished"] is True  # two passes, no RE, closed borders
    assert post(api, sgf=resigned, finished=False).json()["unfinished"] == "RE[B+Resign]"
    assert post(api, sgf=bare, finished=True).json()["finished"] is True


@pytest.mark.parametrize("rules, handicap, komi, result", [
    ("aga", 3, 0.5, "W+11.5"),  # 45 + 0.5 + 2 compensation against 36; the even-game 7.5 made it W+18.5
    ("japanese", 2, 0.5, "W+7.5"),  # 30 + 0.5 against 23
    ("chinese", 1, 0.5, "W+9.5"),  # handicap 1: an even game without komi, no compensation
    ("japanese", 0, 6.5, "W+13.5"),  # no handicap: the rules' even-game komi
    ("chinese", 0, 7.5, "W+16.5"),
])
def test_a_board_without_komi_gets_half_a_point_with_a_handicap_else_the_rules_komi(api, rules, handicap, komi,
                                                                                   result):
    body = post(api, board=TWO_WALLS, rules=rules, **({"handicap": handicap} if handicap else {})).json()
    assert (body["komi"], body["handicap"], body["result"]) == (komi, handicap, result)
    assert body["breakdown"]["white"]["komi"] == komi


def test_override_dead_kills_the_whole_white_wall(api):
    body = post(api, board=TWO_WALLS, rules="japanese", komi=6.5, overrides={"dead": ["E5"]}).json()
    assert body["result"] == "B+76.5"
    assert len(body["dead"]) == 16 and "E9" in body["dead"] and "J8" in body["dead"]
    wall = next(b for b in body["blocks"] if "E5" in b["stones"])
    assert wall["status"] == "dead" and wall["source"] == "override"


def test_override_alive_on_the_stone_in_atari_leaves_no_black_territory_but_the_eyes(api):
    body = post(api, board=TWO_WALLS, rules="japanese", komi=6.5, overrides={"alive": ["c7"]}).json()
    assert body["dead"] == [] and body["territory"]["black"] == ["A9", "C9"]
    assert body["result"] == "W+34.5"


def test_sgf_answer_is_the_same_object_as_seog_score_json(api, tmp_path, capsys):
    text = sgf_text(TWO_WALLS)
    path = tmp_path / "two-walls.sgf"
    path.write_text(text)
    assert cli_main(["score", "--json", str(path)]) == 0
    from_cli = json.loads(capsys.readouterr().out)
    body = post(api, sgf=text).json()
    assert body.pop("seog_version") and body.pop("model")
    assert body == from_cli
    assert body["recorded_result"] == "W+13.5" and body["result"] == "W+13.5" and body["agrees_with_recorded"]


def test_rules_and_komi_in_the_request_override_the_sgf(api):
    body = post(api, sgf=sgf_text(TWO_WALLS), rules="chinese", komi=7.5).json()
    assert body["rules"] == "chinese" and body["komi"] == 7.5 and body["result"] == "W+16.5"


def test_use_markup_counts_with_the_players_marks(api):
    # The players marked the whole white wall dead (every white stone inside TB).
    grid = Board.from_rows(TWO_WALLS).grid
    tb = "".join(f"[{coords.index_to_sgf(i, 9)}]" for i in (grid.ravel() != coords.BLACK).nonzero()[0])
    text = sgf_text(TWO_WALLS, last=f"TB{tb}")
    assert post(api, sgf=text).json()["result"] == "W+13.5"
    marked = post(api, sgf=text, use_markup=True).json()
    assert marked["result"] == "B+76.5"
    assert {b["source"] for b in marked["blocks"]} == {"markup"}


def test_annotated_sgf_carries_marks_result_and_reads_back_the_same_dead_stones(api):
    body = post(api, sgf=sgf_text(TWO_WALLS, result="B+R"), annotated_sgf=True).json()
    game = sgf.loads(body["annotated_sgf"])
    assert game.result == "B+R"  # a resignation stays the game's result; the count is in the comment
    assert "seog: W+13.5 under japanese rules" in body["annotated_sgf"]
    assert [tuple(map(int, rc)) for rc in zip(*game.marked_dead().nonzero())] == [(2, 2)]  # C7
    assert coords.gtp_to_index("C7", 9) in game.territory[coords.BLACK]
    assert coords.gtp_to_index("A1", 9) in game.territory[coords.BLACK]
    assert coords.gtp_to_index("J1", 9) in game.territory[coords.WHITE]
    assert b"Recorded result: B+R" in body["annotated_sgf"].encode()



@pytest.mark.parametrize("rules, dead", [("tromp-taylor", []), ("chinese", ["B7", "H6"])])
def test_every_part_of_the_answer_calls_dead_only_what_the_count_takes_off(api, rules, dead):
    """Issue #7: under Tromp-Taylor the count keeps B7 and H6, so do ``dead``, the blocks' status
    and the copy's marks; a note and ``read_status`` keep seog's reading."""
    body = post(api, sgf=STONES_LEFT_IN, rules=rules, annotated_sgf=True).json()
    assert body["result"] == "W+7.5" and body["dead"] == dead
    assert sorted(v for b in body["blocks"] if b["status"] == "dead" for v in b["stones"]) == dead
    assert sorted(v for b in body["blocks"] if b["read_status"] == "dead" for v in b["stones"]) == ["B7", "H6"]
    assert body["notes"] == ([LEFT_IN_NOTE] if rules == "tromp-taylor" else [])
    copy = sgf.loads(body["annotated_sgf"])
    assert sorted(coords.index_to_gtp(int(i), 9) for i in copy.marked_dead().ravel().nonzero()[0]) == dead


def test_a_dead_override_under_tromp_taylor_is_a_400_naming_the_rules(api):
    words = ("dead-stone override at D5: tromp-taylor rules count every stone on the board "
             "as it stands, so no stone can be counted dead")
    r = post(api, sgf=STONES_LEFT_IN, overrides={"dead": ["D5"]})
    assert r.status_code == 400 and r.json()["detail"].startswith(words), r.text
    upload = api.post("/v1/score/sgf", files={"file": ("g.sgf", STONES_LEFT_IN.encode())},
                      data={"overrides": '{"dead": ["D5"]}'})
    assert upload.status_code == 400 and upload.json()["detail"].startswith(words)
    board = post(api, board=TWO_WALLS, rules="tromp-taylor", overrides={"dead": ["E5", "C7"]})
    assert board.status_code == 400 and "override at C7, E5: tromp-taylor" in board.json()["detail"]
    assert post(api, sgf=STONES_LEFT_IN, rules="chinese", overrides={"dead": ["D5"]}).status_code == 200
    alive = post(api, sgf=STONES_LEFT_IN, overrides={"alive": ["B7"]}).json()  # the players' reading
    assert alive["result"] == "W+7.5" and "(H6) counts as it stands" in alive["notes"][0]


def test_fox_komi_and_rules_seog_does_not_know_are_read_and_named_in_notes(api):
    text = sgf_text(TWO_WALLS, komi=375, rules="Chinese", result="W+16.5").replace("FF[4]", "FF[4]AP[foxwq]")
    body = post(api, sgf=text).json()
    assert body["komi"] == 7.5 and body["result"] == "W+16.5"
    assert body["notes"] == ["KM[375] read as komi 7.5 (Fox writes komi in hundredths of a stone, "
                             "2 points each: 3.75 stones)"]
    ing = post(api, sgf=sgf_text(TWO_WALLS, komi=7.5, rules="Ing"), annotated_sgf=True).json()
    assert ing["rules"] == "chinese" and ing["result"] == "W+16.5"
    assert ing["notes"] == ["RU[Ing] counted by area under chinese rules, the nearest seog knows"]
    odd = post(api, sgf=sgf_text(TWO_WALLS, rules="Moon"), annotated_sgf=True).json()
    assert odd["rules"] == "japanese" and odd["notes"][0].startswith("RU[Moon] names rules seog does not know")
    assert sgf.loads(odd["annotated_sgf"]).rules == "japanese"  # the copy names the rules it was counted by
    assert post(api, sgf=text, komi=6.5).json()["notes"] == []  # the caller's komi: nothing to say
    assert post(api, board=TWO_WALLS).json()["notes"] == []


def test_multipart_upload_with_rules_field(api):
    files = {"file": ("two-walls.sgf", sgf_text(TWO_WALLS).encode(), "application/x-go-sgf")}
    r = api.post("/v1/score/sgf", files=files, data={"rules": "chinese", "komi": "7.5"})
    assert r.status_code == 200, r.text
    assert r.json()["result"] == "W+16.5" and r.json()["recorded_result"] == "W+13.5"
    assert r.json()["agrees_with_recorded"] is False


def test_an_upload_that_sets_a_point_both_black_and_white_is_a_400_naming_it(api):
    """Issue #7: A9 was scored as White's, the setup read last."""
    files = {"file": ("twice.sgf", b"(;GM[1]FF[4]SZ[9]AB[aa]AW[aa])", "application/x-go-sgf")}
    r = api.post("/v1/score/sgf", files=files)
    assert r.status_code == 400, r.text
    assert r.json() == {"detail": "node 0: AB and AW both set A9; a node may set a point only once"}


GNUGO_19 = Path(__file__).resolve().parent.parent / "examples" / "gnugo-selfplay-19.sgf"


def test_an_upload_takes_the_same_overrides_as_the_json_body(api):
    """GNU Go's self-play game: seog calls the three white stones at G11 dead (W+5.5, as recorded);
    the players' word that they live changes the count alike through either endpoint."""
    game = GNUGO_19.read_bytes()
    plain = api.post("/v1/score/sgf", files={"file": ("g.sgf", game)}).json()
    assert plain["result"] == "W+5.5" and "G11" in plain["dead"]
    alive = {"alive": ["G11"]}
    upload = api.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"overrides": json.dumps(alive)})
    assert upload.status_code == 200, upload.text
    body = post(api, sgf=game.decode(), overrides=alive).json()
    assert upload.json()["result"] == body["result"] != "W+5.5"
    assert upload.json()["score"] == body["score"] and not {"G11", "G10", "H10"} & set(upload.json()["dead"])
    block = next(b for b in upload.json()["blocks"] if "G11" in b["stones"])
    assert block["status"] == "alive" and block["source"] == "override"
    none = api.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"overrides": "null"})
    assert none.status_code == 200 and none.json()["result"] == plain["result"]  # as "overrides": null


@pytest.mark.parametrize("overrides, status, words", [
    ("D4", 422, "overrides: Invalid JSON"),
    ('["G11"]', 422, "overrides: Input should be an object"),
    ('{"alive": ["G11"], "live": ["A1"]}', 422, "overrides.live: Extra inputs are not permitted"),
    (json.dumps({"dead": ["G11" * 3]}), 422, "overrides.dead.0: String should have at most 8 characters"),
    (json.dumps({"dead": ["A1"] * 626}), 422, "overrides.dead: List should have at most 625 items"),
    ('{"dead": ["A1"]}', 400, "override at A1: no stone there"),
    ('{"dead": ["Z9"]}', 400, "vertex 'Z9' is off a 19x19 board"),
    ('{"dead": ["G11"], "alive": ["G10"]}', 400, "overrides at G11 and G10 disagree"),
])
def test_a_bad_override_in_an_upload_gets_the_json_bodys_answer(api, overrides, status, words):
    game = GNUGO_19.read_bytes()
    r = api.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"overrides": overrides})
    assert r.status_code == status and words in r.json()["detail"], r.text
    try:
        same = json.loads(overrides)
    except ValueError:
        return  # no JSON to send as a body
    if isinstance(same, dict):
        r = post(api, sgf=game.decode(), overrides=same)
        assert r.status_code == status and words in r.json()["detail"], r.text


def test_a_big_answer_is_compressed_for_a_client_that_accepts_gzip(api):
    plain = api.post("/v1/score", json={"sgf": sgf_text(TWO_WALLS), "svg": True}, headers={"accept-encoding": "identity"})
    packed = api.post("/v1/score", json={"sgf": sgf_text(TWO_WALLS), "svg": True}, headers={"accept-encoding": "gzip"})
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert packed.json() == plain.json()  # httpx decodes it
    assert int(packed.headers["content-length"]) < int(plain.headers["content-length"]) / 2


def test_a_copy_seog_wrote_is_compared_with_the_players_result_not_seogs(api):
    """The copy's RE is seog's count; the players' result lives on in seog's comment, and it is
    what the answer calls recorded."""
    copy = post(api, sgf=sgf_text(TWO_WALLS), rules="chinese", komi=7.5, annotated_sgf=True).json()["annotated_sgf"]
    assert sgf.loads(copy).result == "W+16.5"
    body = post(api, sgf=copy, rules="chinese", komi=7.5).json()
    assert body["recorded_result"] == "W+13.5" and body["agrees_with_recorded"] is False
    resigned = post(api, sgf=sgf_text(TWO_WALLS).replace("RE[W+13.5]", "RE[B+R]")).json()
    assert resigned["recorded_result"] == "B+R" and resigned["agrees_with_recorded"] is None


def test_openapi_docs_are_served(api):
    assert api.get("/docs").status_code == 200
    schema = api.get("/openapi.json").json()
    assert {"/v1/score", "/v1/score/sgf", "/v1/health", "/v1/model"} <= set(schema["paths"])
    models = schema["components"]["schemas"]
    assert [set(e) & {"board", "sgf"} for e in models["ScoreRequest"]["examples"]] == [{"board"}, {"sgf"}]
    for example in models["ScoreRequest"]["examples"]:  # each example scores
        assert post(api, **example).status_code == 200
    assert models["Block"]["properties"]["status"]["enum"] == ["alive", "dead"]
    assert "benson" in models["Block"]["properties"]["source"]["description"]


# ---- bad input: 4xx naming the problem --------------------------------------------------------

@pytest.mark.parametrize("body, status, words", [
    ({"sgf": "(;GM[1]SZ[9];B[dd"}, 400, "SGF"),
    ({"sgf": "(;GM[1]SZ[9];B[dd];W[dd])"}, 400, "move 2"),
    ({"sgf": "(;GM[1]SZ[30])"}, 400, "board size 30 is not supported"),
    ({"sgf": "(;GM[1]FF[4]SZ[9]AB[aa]AW[aa])"}, 400, "node 0: AB and AW both set A9"),
    ({"sgf": "(;GM[1]SZ[26])"}, 400, "board size 26"),
    ({"board": [".X...", "XOX..", ".X...", ".....", "....."]}, 400, "no liberties"),
    ({"board": TWO_WALLS, "rules": "french"}, 400, "unknown rules 'french'"),
    ({"board": TWO_WALLS, "komi": "lots"}, 422, "komi"),
    ({"board": TWO_WALLS, "prisoners": {"black": -1}}, 422, "prisoners.black"),
    ({"board": "X.O"}, 422, "board"),
    ({"board": [".....", "....", ".....", ".....", "....."]}, 400, "row 2 has 4 points"),
    ({"board": [".....", "..Z..", ".....", ".....", "....."]}, 400, "unknown board character 'Z'"),
    ({"board": [".", "."]}, 400, "row 1 has 1 points"),
    ({"board": ["."]}, 400, "board size 1"),
    ({"size": 26, "board": TWO_WALLS}, 422, "size"),
    ({"size": 7, "board": TWO_WALLS}, 400, "9 rows but size is 7"),
    ({"board": ["." * 26] * 26}, 422, "board"),
    ({}, 422, "either 'sgf'"),
    ({"sgf": "(;SZ[9])", "board": TWO_WALLS}, 422, "either 'sgf'"),
    ({"board": TWO_WALLS, "komi_": 6.5}, 422, "komi_"),
    ({"board": TWO_WALLS, "": 1}, 422, "'': extra inputs are not permitted"),
    ({"board": TWO_WALLS, "overrides": {"dead": ["Z99"]}}, 400, "vertex 'Z99' is off a 9x9 board"),
    ({"board": TWO_WALLS, "overrides": {"alive": ["I5"]}}, 400, "bad GTP vertex 'I5'"),
    ({"board": TWO_WALLS, "overrides": {"dead": ["pass"]}}, 400, "is a pass"),
    ({"board": TWO_WALLS, "overrides": {"dead": ["A1"]}}, 400, "A1: no stone there"),
    ({"board": TWO_WALLS, "overrides": {"dead": ["E5"], "alive": ["E6"]}}, 400, "same block"),
    ({"board": TWO_WALLS, "use_markup": True}, 400, "use_markup needs SGF"),
    ({"board": TWO_WALLS, "annotated_sgf": True}, 400, "annotated_sgf needs SGF"),
    ({"sgf": sgf_text(TWO_WALLS), "use_markup": True}, 400, "no TB/TW"),
    ({"sgf": ""}, 400, "not a readable SGF file"),
    # outside the patterns the schema gives, though Python would read them:
    ({"board": ["X.", ".\u00a0O"]}, 400, "row 2: unknown board character '\\xa0'"),
    ({"board": ["X.", ".."], "rules": "\u212aorean"}, 400, "unknown rules"),  # KELVIN SIGN lower-cases to 'k'
    ({"board": ["X.", ".."], "overrides": {"dead": ["A2\u3000"]}}, 400, "bad GTP vertex"),
])
def test_bad_input_is_a_4xx_naming_the_problem(api, body, status, words):
    r = post(api, **body)
    assert r.status_code == status, r.text
    assert words.lower() in r.json()["detail"].lower()


JSON = {"content-type": "application/json"}


def test_invalid_json_is_422_naming_what_and_where(api):
    r = api.post("/v1/score", content=b'{"board": [', headers=JSON)
    assert r.status_code == 422 and r.json()["detail"] == "body: not JSON: Expecting value at line 1 column 12"
    r = api.post("/v1/score", content=b'{"board": [".X",\n  "O.",, ]}', headers=JSON)
    assert r.json() == {"detail": "body: not JSON: Expecting value at line 2 column 8",
                        "errors": [{"loc": ["body"], "msg": "not JSON: Expecting value at line 2 column 8",
                                    "type": "json_invalid"}]}
    r = api.post("/v1/score", content=b"", headers=JSON)
    assert r.status_code == 422 and r.json()["detail"] == "body: empty; send a JSON object with 'sgf' or 'board'"


@pytest.mark.parametrize("body, detail", [
    (b'{"board": ["\xff\xfe"]}', "the body is not UTF-8 (byte 0xff at offset 12): send the JSON in UTF-8"),
    (b"[" * 5000 + b"]" * 5000, "the JSON body is nested too deep to read (a request is a few levels deep)"),
])
def test_a_body_json_cannot_read_is_400_saying_why(api, body, detail):
    """Both got FastAPI's 'There was an error parsing the body'."""
    r = api.post("/v1/score", content=body, headers=JSON)
    assert r.status_code == 400 and r.json() == {"detail": detail}


@pytest.mark.parametrize("path, kwargs, detail", [
    ("/v1/score/sgf", {"content": b"(;GM[1]SZ[9];B[ee])", "headers": {"content-type": "application/x-go-sgf"}},
     "POST /v1/score/sgf takes a multipart/form-data upload with the SGF in a 'file' field (curl -F "
     "file=@game.sgf), not application/x-go-sgf; to send SGF text, POST {\"sgf\": \"...\"} to /v1/score as "
     "application/json"),
    ("/v1/score/sgf", {"data": {"rules": "chinese"}}, "not application/x-www-form-urlencoded;"),
    ("/v1/score/sgf", {"json": {"sgf": "(;SZ[9])"}}, "not application/json;"),
    ("/v1/score", {"files": {"file": ("g.sgf", b"(;GM[1]SZ[9];B[ee])")}},
     "POST /v1/score takes a JSON object (content-type: application/json), not multipart/form-data; to upload "
     "an SGF file, POST it to /v1/score/sgf as multipart/form-data"),
    ("/v1/score", {"content": b'{"sgf": "(;SZ[9])"}'}, "not a body without a content type;"),
    ("/v1/score", {"content": b'{"sgf": "(;SZ[9])"}', "headers": {"content-type": "text/plain"}}, "not text/plain;"),
])
def test_a_body_of_the_wrong_content_type_is_415_naming_the_one_the_endpoint_takes(api, path, kwargs, detail):
    """Raw SGF to /v1/score/sgf got 'file: Field required', multipart to /v1/score 'body: Input
    should be a valid dictionary'."""
    r = api.post(path, **kwargs)
    assert r.status_code == 415 and detail in r.json()["detail"] and list(r.json()) == ["detail"]


@pytest.mark.parametrize("extra, detail", [
    ({"handicap": 3}, "body: 'handicap' comes from the SGF; send it only with 'board'"),
    ({"size": 9, "handicap": 3}, "body: 'size' and 'handicap' come from the SGF; send them only with 'board'"),
    ({"size": 9, "handicap": 3, "prisoners": {}},
     "body: 'size', 'handicap' and 'prisoners' come from the SGF; send them only with 'board'"),
])
def test_board_only_fields_sent_with_sgf_are_named_in_a_sentence(api, extra, detail):
    r = post(api, sgf="(;GM[1]SZ[9];B[ee])", **extra)
    assert r.status_code == 422 and r.json()["detail"] == detail


@pytest.mark.parametrize("field, value, detail", [
    ("size", True, "size: should be an integer, not true"),  # was read as 1: 'greater than or equal to 2'
    ("handicap", True, "handicap: should be an integer, not true"),
    ("handicap", "2", 'handicap: should be an integer, not "2"'),
    ("handicap", 2.5, "handicap: should be an integer, not 2.5"),
    ("komi", False, "komi: should be a number, not false"),
    ("komi", "6.5", 'komi: should be a number, not "6.5"'),
    ("prisoners", {"black": True}, "prisoners.black: should be an integer, not true"),
])
def test_a_bool_or_a_string_is_not_a_number(api, field, value, detail):
    r = post(api, board=TWO_WALLS, **{field: value})
    assert r.status_code == 422 and r.json()["detail"] == detail


@pytest.mark.parametrize("rules, counted", [("Japanese Rules", "japanese"), (" tt\t", "tromp-taylor"),
                                             ("new_zealand", "nz"), ("", "japanese")])
def test_rules_names_are_taken_in_any_case_as_aliases_and_with_blanks(api, rules, counted):
    assert post(api, board=TWO_WALLS, rules=rules).json()["rules"] == counted


def test_whole_numbers_are_komi_too(api):
    assert post(api, board=TWO_WALLS, komi=7, size=9, handicap=0, prisoners={"black": 1}).json()["komi"] == 7.0


def test_a_number_without_a_fraction_is_an_integer_as_json_schema_reads_it(api):
    """9.0 is an integer to JSON Schema, so the schema admits it, and the server takes it."""
    r = post(api, board=TWO_WALLS, size=9.0, handicap=1.0, prisoners={"black": 2.0, "white": 0.0})
    assert r.status_code == 200, r.text
    assert (r.json()["size"], r.json()["handicap"], r.json()["prisoners"]) == (9, 1, {"black": 2, "white": 0})


@pytest.mark.parametrize("field, value, detail", [
    ("svg", "true", 'svg: should be true or false, not "true"'),
    ("annotated_sgf", 1, "annotated_sgf: should be true or false, not 1"),
    ("use_markup", None, "use_markup: should be true or false, not null"),
    ("finished", "no", 'finished: should be true or false, not "no"'),
])
def test_a_flag_is_true_or_false_and_nothing_else(api, field, value, detail):
    """pydantic alone reads "yes" and 1 as true; the schema says a boolean."""
    r = post(api, sgf=sgf_text(TWO_WALLS), **{field: value})
    assert r.status_code == 422 and r.json()["detail"] == detail


def test_json_of_another_json_media_type_is_taken(api):
    r = api.post("/v1/score", content=json.dumps({"board": TWO_WALLS}).encode(),
                 headers={"content-type": "application/vnd.seog+json; charset=utf-8"})
    assert r.status_code == 200 and r.json()["result"] == "W+13.5"


def test_broken_upload_and_empty_upload_are_400(api):
    r = api.post("/v1/score/sgf", files={"file": ("x.sgf", b"(;GM[1]SZ[9];B[zz])")})
    assert r.status_code == 400 and "B[zz] is off the 9x9 board" in r.json()["detail"]
    r = api.post("/v1/score/sgf", files={"file": ("x.sgf", b"  ")})
    assert r.status_code == 400 and "empty" in r.json()["detail"]
    r = api.post("/v1/score/sgf", files={"rules": (None, "chinese")})  # multipart without the file
    assert r.status_code == 422 and r.json()["detail"] == "file: Field required"


def test_body_over_the_limit_is_413_with_the_limit_named(api):
    big = sgf_text(TWO_WALLS, last="C[" + "x" * (1 << 20) + "]")
    r = post(api, sgf=big)
    assert r.status_code == 413 and "limit is 1048576 bytes" in r.json()["detail"]
    r = api.post("/v1/score/sgf", files={"file": ("big.sgf", big.encode())})
    assert r.status_code == 413


def test_chunked_body_over_the_limit_is_413_too(api):
    def chunks():
        yield b'{"sgf": "'
        for _ in range(300):
            yield b"x" * 4096
        yield b'"}'
    r = api.post("/v1/score", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "limit is" in r.json()["detail"]


@pytest.mark.parametrize("mib", [2, 20])
@pytest.mark.parametrize("chunked", [False, True], ids=["declared", "chunked"])
def test_a_client_that_sends_the_whole_body_before_reading_gets_the_413(api, mib, chunked):
    """Python's urllib sends all of the body, then reads: answered before its body is read, it
    meets a connection closed on unread bytes (broken pipe, or reset), not the 413."""
    body = b'{"sgf": "' + b"x" * (mib << 20) + b'"}'
    data = (body[i:i + 65536] for i in range(0, len(body), 65536)) if chunked else body
    request = urllib.request.Request(f"{api.base_url}/v1/score", data=data, method="POST",
                                     headers={"content-type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=60)
    assert refused.value.code == 413
    assert json.loads(refused.value.read()) == {"detail": "request body too large: the limit is 1048576 bytes"}


@pytest.mark.parametrize("head", ["Content-Length: 2097152\r\nExpect: 100-continue", f"Content-Length: {MAX_DRAIN + 1}"],
                         ids=["waits-for-100-continue", "over-what-is-read-and-dropped"])
def test_a_body_not_worth_reading_is_refused_before_it_is_sent(api, head):
    """A client waiting for '100 Continue', or a body over 64 MiB: the 413 comes without a byte of it."""
    with socket.create_connection((api.base_url.host, api.base_url.port), timeout=10) as conn:
        conn.sendall(f"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{head}\r\n\r\n"
                     .encode())
        answer = http.client.HTTPResponse(conn)
        answer.begin()
        assert answer.status == 413 and json.loads(answer.read())["detail"].endswith("the limit is 1048576 bytes")


def test_the_connection_of_a_413_serves_the_next_request(api):
    """The refused body is read to its end, so the connection stays open for the next request."""
    conn = http.client.HTTPConnection(api.base_url.host, api.base_url.port, timeout=30)
    conn.request("POST", "/v1/score", body=b"x" * (3 << 20), headers=JSON)
    refused = conn.getresponse()
    assert refused.status == 413 and not refused.will_close
    refused.read()
    sock = conn.sock
    conn.request("POST", "/v1/score", body=json.dumps({"board": TWO_WALLS}).encode(), headers=JSON)
    answer = conn.getresponse()
    assert answer.status == 200 and json.loads(answer.read())["result"] == "W+13.5" and conn.sock is sock
    conn.close()


# ---- the app's other parts ----------------------------------------------------------------------

def test_unexpected_error_is_a_json_500_not_a_traceback():
    app = create_app(static_dir=None)

    @app.get("/v1/boom")
    def boom():
        raise RuntimeError("the scorer fell over")

    with serving(app) as url:
        r = httpx.get(url + "/v1/boom", timeout=10)
    assert r.status_code == 500
    assert "RuntimeError: the scorer fell over" in r.json()["detail"]


def test_web_page_is_mounted_at_root_when_index_html_exists(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>seog board</title>")
    with serving(create_app(static_dir=tmp_path)) as url:
        page = httpx.get(url + "/", timeout=10)
        health = httpx.get(url + "/v1/health", timeout=10)
    assert page.status_code == 200 and "seog board" in page.text
    assert health.json()["status"] == "ok"


def test_without_index_html_root_is_404_but_the_api_answers(tmp_path):
    with serving(create_app(static_dir=tmp_path)) as url:
        assert httpx.get(url + "/", timeout=10).status_code == 404
        assert httpx.get(url + "/v1/health", timeout=10).status_code == 200


@pytest.mark.parametrize("workers", [1, 2])
def test_seog_serve_command_starts_uvicorn_and_answers(workers):
    """The command as a server runs it, with one worker process or two: it answers, scores, and
    serves the shipped model."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "seog", "serve", "--port", str(port), "--log-level", "warning",
                             "--workers", str(workers)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline, answer = time.monotonic() + 60, None
        while answer is None and time.monotonic() < deadline and proc.poll() is None:
            try:
                answer = httpx.get(url + "/v1/health", timeout=2)
            except httpx.TransportError:
                time.sleep(0.1)
        assert answer is not None and answer.json()["status"] == "ok", proc.stderr.read1() if proc.poll() else ""
        bodies = [httpx.post(url + "/v1/score", json={"size": 9, "board": TWO_WALLS, "rules": "japanese",
                                                      "komi": 6.5}, timeout=30).json() for _ in range(6)]
        assert [(b["result"], b["dead"]) for b in bodies] == [("W+13.5", ["C7"])] * 6
        assert httpx.get(url + "/v1/model", timeout=10).json()["trained"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_socket_workers_share_accepts_tcp_connections_that_asyncio_sets_nodelay_on():
    """uvicorn's own shared socket is protocol 0, so asyncio left Nagle on and every kept-alive
    answer from two workers waited ~40 ms for a delayed ACK; asyncio sets TCP_NODELAY on an
    accepted connection whose protocol is TCP, which ``TcpConfig``'s socket gives."""
    import asyncio.base_events

    from seog.api.workers import TcpConfig

    listener = TcpConfig("seog.api.http:app", host="127.0.0.1", port=0, workers=2).bind_socket()
    listener.listen()
    with listener, socket.create_connection(listener.getsockname()[:2]):
        conn, _ = listener.accept()
        with conn:
            assert conn.proto == socket.IPPROTO_TCP
            asyncio.base_events._set_nodelay(conn)  # what asyncio does for each connection it accepts
            assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)


def test_serve_refuses_a_bad_port(capsys):
    assert cli_main(["serve", "--port", "70000"]) == 1
    assert "--port 70000" in capsys.readouterr().err


def test_serving_imports_neither_datasets_nor_torch_nor_sklearn():
    import subprocess
    import sys
    code = ("import sys, seog.api.http as h; h.create_app(); "
            "import seog.scoring.annotated, seog.scoring.svg; "
            "bad = [m for m in sys.modules if m.startswith(('seog.datasets', 'torch', 'sklearn'))]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# ---- limits and deployment, on real requests through TestClient ----------------------------------

@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient
    with TestClient(create_app(static_dir=None)) as c:
        yield c


def test_an_sgf_of_more_nodes_than_any_game_is_a_400_naming_count_and_limit(client):
    variations = "(;SZ[19]" + "(;)" * 20_000 + ")"
    r = client.post("/v1/score", json={"sgf": variations})
    assert r.status_code == 400 and "has 20001 nodes; at most 10000" in r.json()["detail"]
    r = client.post("/v1/score/sgf", files={"file": ("v.sgf", variations.encode())})
    assert r.status_code == 400 and "at most 10000" in r.json()["detail"]


def test_health_answers_at_once_while_more_counts_than_threads_are_queued(monkeypatch):
    """45 counts that never end (more than the default 40-thread pool): only the limiter's
    threads run them, and /v1/health (GET and HEAD) still answers from the event loop."""
    from fastapi.testclient import TestClient

    from seog.api import http
    release, lock, running = threading.Event(), threading.Lock(), [0, 0]

    def stuck(position, *args):
        with lock:
            running[0] += 1
            running[1] = max(running[1], running[0])
        release.wait(30)
        with lock:
            running[0] -= 1
        return real(position, *args)

    real = http.score_answer
    monkeypatch.setattr(http, "score_answer", stuck)
    app = create_app(static_dir=None, score_threads=2)
    with TestClient(app) as c:
        body = {"board": TWO_WALLS, "rules": "japanese"}
        counts = [threading.Thread(target=c.post, args=("/v1/score",), kwargs={"json": body}) for _ in range(45)]
        for t in counts:
            t.start()
        deadline = time.monotonic() + 20
        while running[0] < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.3)
        answers = []
        probe = threading.Thread(target=lambda: answers.extend([c.get("/v1/health"), c.head("/v1/health")]))
        probe.start()
        probe.join(5)
        answered = not probe.is_alive()
        release.set()
        for t in counts + [probe]:
            t.join(30)
    assert answered, "/v1/health waited behind the counts"
    assert [r.status_code for r in answers] == [200, 200] and answers[0].json()["status"] == "ok"
    assert running[1] == 2  # never more counts at once than the limiter's threads


def test_upload_refuses_unknown_form_fields_and_a_second_file(client):
    game = sgf_text(TWO_WALLS).encode()
    r = client.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"use-markup": "true"})
    assert r.status_code == 422 and "use-markup: Extra inputs are not permitted" in r.json()["detail"]
    r = client.post("/v1/score/sgf", files=[("file", ("a.sgf", game)), ("file", ("b.sgf", game))])
    assert r.status_code == 422 and "file: given 2 times" in r.json()["detail"]
    r = client.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"rules": "chinese", "svg": "true"})
    assert r.status_code == 200 and r.json()["rules"] == "chinese" and r.json()["svg"].startswith("<svg")


@pytest.mark.parametrize("body, status, words", [
    ({"board": ["X.", ".."], "prisoners": {"black": 10**30}}, 422, "prisoners.black: Input should be less than"),
    ({"board": ["X.", ".."], "prisoners": {"white": int("9" * 300)}}, 422, "prisoners.white"),
    ({"board": ["X.", ".."], "handicap": 4, "rules": "chinese"}, 400, "handicap 4 is more stones than a 2x2"),
    ({"sgf": "(;SZ[9])", "rules": "x" * 100_000}, 422, "rules: String should have at most 32"),
    ({"board": ["X.", ".."], "overrides": {"dead": ["A1" * 100_000]}}, 422, "overrides.dead.0"),
    ({"board": ["X.", ".."], "rules": "y" * 32}, 400, "unknown rules '" + "y" * 32 + "'"),
    ({"sgf": "(;SZ[9]KM[" + "k" * 100_000 + "])"}, 400, "KM: komi '" + "k" * 40 + "...'"),
])
def test_numbers_are_bounded_and_errors_quote_little_of_the_input(client, body, status, words):
    r = client.post("/v1/score", json=body)
    assert r.status_code == status, r.text
    assert words in r.json()["detail"] and len(r.content) < 1000


def test_a_body_of_many_unknown_keys_is_one_short_error_not_one_each(client):
    """1 MiB of unknown keys made 88,000 errors: an 11 MB answer built in 0.7 s on the event loop."""
    keys = {f"k{i}": 0 for i in range(88_000)}
    r = client.post("/v1/score", json={"board": TWO_WALLS, **keys})
    assert r.status_code == 422 and len(r.content) < 1000
    assert r.json()["detail"].startswith("body: 88000 unknown fields ('k0', 'k1', 'k2', ...); known: sgf, size")
    r = client.post("/v1/score", json={"board": TWO_WALLS, "prisoners": {f"p{i}": 1 for i in range(21)}})
    assert r.status_code == 422 and r.json()["detail"].startswith("prisoners: 21 unknown fields ('p0',")
    few = client.post("/v1/score", json={"board": TWO_WALLS, "komi_": 6.5, "rule": "japanese"}).json()
    assert few["detail"] == "komi_: Extra inputs are not permitted; rule: Extra inputs are not permitted"


def test_a_422_lists_at_most_20_errors_and_counts_the_rest(client):
    r = client.post("/v1/score", json={"board": TWO_WALLS, "overrides": {"dead": ["A1" * 5] * 600}})
    assert r.status_code == 422 and len(r.json()["errors"]) == 20
    assert r.json()["errors"][19]["loc"] == ["body", "overrides", "dead", "19"]
    assert r.json()["detail"].endswith("String should have at most 8 characters; and 580 more errors")


def test_a_record_of_chess_is_refused_not_scored_as_go(client):
    """GM[3] (chess) was scored B+63."""
    for r in (client.post("/v1/score", json={"sgf": "(;GM[3]FF[4]SZ[8];B[ee])"}),
              client.post("/v1/score/sgf", files={"file": ("chess.sgf", b"(;GM[3]FF[4]SZ[8];B[ee])")})):
        assert r.status_code == 400 and r.json() == {
            "detail": "GM[3]: the record is not of a game of Go (GM[1]); seog scores only Go"}


def test_an_upload_labelled_utf8_in_latin1_keeps_its_names_and_says_how_it_was_read(client):
    game = b"(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[M\xfcller]KM[6.5];B[ee];W[];B[])"
    r = client.post("/v1/score/sgf", files={"file": ("g.sgf", game)}, data={"annotated_sgf": "true"})
    assert r.status_code == 200
    assert r.json()["notes"] == ["CA[UTF-8] says UTF-8 but the file is not UTF-8; its text was read as Latin-1"]
    assert "PB[Müller]" in r.json()["annotated_sgf"] and "\ufffd" not in r.json()["annotated_sgf"]


def test_a_handicap_that_leaves_room_for_a_move_is_counted(client):
    r = client.post("/v1/score", json={"board": ["X.", ".."], "handicap": 3, "rules": "chinese"})
    assert r.status_code == 200 and r.json()["handicap"] == 3


def test_unknown_rules_quote_at_most_40_characters():
    from seog.scoring.rules import UnknownRules, get_rules
    with pytest.raises(UnknownRules, match="unknown rules '" + "z" * 40 + r"\.\.\.' \(known"):
        get_rules("z" * 1000)


def test_wrong_methods_under_v1_are_json_405_with_allow_even_with_the_web_page_mounted(tmp_path):
    from fastapi.testclient import TestClient
    (tmp_path / "index.html").write_text("<!doctype html><title>seog board</title>")
    with TestClient(create_app(static_dir=tmp_path)) as c:
        assert c.head("/v1/health").status_code == 200
        r = c.get("/v1/score")
        assert r.status_code == 405 and r.headers["allow"] == "POST" and "use POST" in r.json()["detail"]
        r = c.options("/v1/score/sgf")
        assert r.status_code == 405 and r.headers["allow"] == "POST"
        r = c.delete("/v1/health")
        assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"
        r = c.get("/v1/nothing")
        assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
        assert "seog board" in c.get("/").text


def test_without_the_web_page_wrong_methods_are_405_too(client):
    r = client.get("/v1/score")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert client.get("/v1/nothing").status_code == 404


def test_cors_origins_answer_the_preflight_and_mark_answers_for_that_origin_only():
    from fastapi.testclient import TestClient
    preflight = {"access-control-request-method": "POST", "access-control-request-headers": "content-type"}
    with TestClient(create_app(static_dir=None, cors_origins=["https://go.example.org"])) as c:
        r = c.options("/v1/score", headers={"origin": "https://go.example.org", **preflight})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://go.example.org"
        assert "POST" in r.headers["access-control-allow-methods"]
        r = c.post("/v1/score", json={"board": TWO_WALLS}, headers={"origin": "https://go.example.org"})
        assert r.status_code == 200 and r.headers["access-control-allow-origin"] == "https://go.example.org"
        r = c.options("/v1/score", headers={"origin": "https://evil.example", **preflight})
        assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
    with TestClient(create_app(static_dir=None)) as c:  # no origins given: no CORS
        r = c.options("/v1/score", headers={"origin": "https://go.example.org", **preflight})
        assert "access-control-allow-origin" not in r.headers


BLAS_IN_A_FRESH_SERVER = """
import threading
from fastapi.testclient import TestClient
from threadpoolctl import ThreadpoolController
from seog.api.http import create_app
libs = ThreadpoolController().select(user_api="blas").lib_controllers
counts = lambda: [lib.get_num_threads() for lib in libs]
# OpenBLAS ignores a count set from another thread once the main thread has set one, and the test
# client starts the app in a thread of its own: two threads, as a busy machine's default would be
worker = threading.Thread(target=lambda: [lib.set_num_threads(2) for lib in libs])
worker.start()
worker.join()
print(counts())
with TestClient(create_app(static_dir=None)) as c:
    print(counts())
    print(c.post("/v1/score", json={"board": [".XO......"] * 9}).status_code)
    print(counts())
"""


def test_the_server_puts_blas_on_one_thread_for_good_as_it_counts_in_several():
    # a fresh process: a count the main thread of this one has set would hide the server's
    out = subprocess.run([sys.executable, "-c", BLAS_IN_A_FRESH_SERVER], capture_output=True, text=True,
                         timeout=120, check=True).stdout.split("\n")
    libs = len(json.loads(out[0]))
    assert libs >= 1 and out[:4] == [str([2] * libs), str([1] * libs), "200", str([1] * libs)]


def test_serve_passes_the_deployment_options_to_uvicorn(monkeypatch):
    import os

    import uvicorn
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: calls.append((app, kwargs)))
    monkeypatch.setenv("SEOG_CORS_ORIGINS", "")
    assert cli_main(["serve", "--port", "18501", "--root-path", "/seog", "--cors-origin", "https://a.example",
                     "--cors-origin", "https://b.example", "--forwarded-allow-ips", "10.0.0.1,10.0.0.2",
                     "--timeout-graceful-shutdown", "20", "--limit-concurrency", "200"]) == 0
    app, kwargs = calls[0]
    assert app == "seog.api.http:app" and kwargs["port"] == 18501
    assert {k: kwargs[k] for k in ("root_path", "forwarded_allow_ips", "timeout_graceful_shutdown",
                                   "limit_concurrency")} == {
        "root_path": "/seog", "forwarded_allow_ips": "10.0.0.1,10.0.0.2", "timeout_graceful_shutdown": 20,
        "limit_concurrency": 200}
    assert os.environ["SEOG_CORS_ORIGINS"] == "https://a.example,https://b.example"
    from seog.api import http
    assert http._origins_from_env() == ["https://a.example", "https://b.example"]
    calls.clear()
    assert cli_main(["serve"]) == 0
    assert calls[0][1]["root_path"] == "" and "forwarded_allow_ips" not in calls[0][1]
    assert calls[0][1]["timeout_graceful_shutdown"] is None and calls[0][1]["limit_concurrency"] is None


def test_a_compressed_body_is_a_415_naming_the_encoding(client):
    import gzip
    body = gzip.compress(json.dumps({"board": TWO_WALLS}).encode())
    r = client.post("/v1/score", content=body,
                    headers={"content-type": "application/json", "content-encoding": "gzip"})
    assert r.status_code == 415 and "Content-Encoding gzip is not accepted" in r.json()["detail"]


def test_the_answer_names_the_seog_version_and_the_model(client):
    answer = client.post("/v1/score", json={"board": TWO_WALLS}).json()
    assert answer["seog_version"] == client.get("/v1/health").json()["version"]
    assert answer["model"] == client.get("/v1/model").json()["name"]


def test_a_value_error_from_a_bug_is_a_500_not_the_callers_fault(monkeypatch):
    from fastapi.testclient import TestClient

    from seog.api import http

    def broken(*args, **kwargs):
        raise ValueError("operands could not be broadcast together")

    monkeypatch.setattr(http, "score_answer", broken)
    with TestClient(create_app(static_dir=None), raise_server_exceptions=False) as c:
        r = c.post("/v1/score", json={"board": TWO_WALLS})
        assert r.status_code == 500 and "ValueError: operands" in r.json()["detail"]
        r = c.post("/v1/score", json={"board": ["."]})  # seog's own input errors stay 400
        assert r.status_code == 400 and "board size 1" in r.json()["detail"]
