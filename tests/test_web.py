"""The web page end to end: the real server under uvicorn, driven by headless Chromium through Playwright.

Skips when Debian's chromium or the playwright package is absent (``.ci/run`` installs both).
Set SEOG_SCREENSHOTS=DIR to keep the screenshots; they go to pytest's tmp_path otherwise.
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import EXAMPLES

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
SEKI = EXAMPLES / "seki-and-dead-stones-9x9.sgf"
SELFPLAY_13 = EXAMPLES / "gnugo-selfplay-13x13.sgf"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """``seog serve`` on a free local port; yields its base URL."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "seog", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            if proc.poll() is not None:
                pytest.fail(f"seog serve exited: {proc.stdout.read().decode(errors='replace')}")
            try:
                with urllib.request.urlopen(url + "/v1/health", timeout=1):
                    break
            except OSError:
                time.sleep(0.25)
        else:
            pytest.fail("seog serve did not answer /v1/health within 30 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1200, "height": 950}, accept_downloads=True)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.goto(server + "/")
    yield pg
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def api_score(server, sgf_text, **extra) -> dict:
    body = json.dumps({"sgf": sgf_text, **extra}).encode()
    req = urllib.request.Request(server + "/v1/score", body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as response:
        return json.load(response)


def ready(pg):
    pg.wait_for_selector("body[data-state=ready]")


def screenshot_path(tmp_path, name) -> Path:
    folder = Path(os.environ.get("SEOG_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def test_upload_a_game_flip_a_block_and_see_the_score_change(page, server, tmp_path):
    page.set_input_files("#file", str(SELFPLAY_13))
    ready(page)
    text = SELFPLAY_13.read_text()
    expected = api_score(server, text)
    assert page.text_content("#result") == expected["result"]
    assert "recorded in the file: W+1.5" in page.text_content("#recorded")
    stones = page.locator("#board circle.stone")
    assert stones.count() == sum(len(b["stones"]) for b in expected["blocks"])
    assert page.locator("#board path.dead-mark").count() == len(expected["dead"])
    total = page.locator("#counts tr.total td").all_text_contents()
    assert total[1:] == [f"{expected['score']['black']:g}", f"{expected['score']['white']:g}"]

    # Flip the biggest block: the page sends it as an override and shows the new count.
    block = max(expected["blocks"], key=lambda b: len(b["stones"]))
    vertex = block["stones"][0]
    flipped = "dead" if block["status"] == "alive" else "alive"
    after = api_score(server, text, overrides={flipped: [vertex]})
    assert after["result"] != expected["result"]
    page.click(f'#board circle.stone[data-vertex="{vertex}"]')
    playwright.expect(page.locator("#result")).to_have_text(after["result"])
    ready(page)
    assert f"{vertex} {flipped}" in page.text_content("#overrides")
    state = "dead" if flipped == "dead" else "alive"
    assert "stone" in page.get_attribute(f'#board circle.stone[data-vertex="{vertex}"]', "class")
    assert state in page.get_attribute(f'#board circle.stone[data-vertex="{vertex}"]', "class")
    shot = screenshot_path(tmp_path, "web-flipped-13x13.png")
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    # Flipping it back is no override at all, and the first count returns.
    page.click(f'#board circle.stone[data-vertex="{vertex}"]')
    playwright.expect(page.locator("#result")).to_have_text(expected["result"])
    ready(page)
    assert page.text_content("#overrides") == ""


def test_pasted_game_is_scored_and_the_annotated_sgf_downloads(page, server, tmp_path):
    text = SEKI.read_text()
    page.fill("#sgf", text)
    page.click("#score")
    ready(page)
    # The two walls: if seog decided them dead, bring them back to life, which leaves the seki;
    # the lone stones inside the territories (B4, H3) are dead.
    for vertex, state in (("C9", "alive"), ("G9", "alive"), ("B4", "dead"), ("H3", "dead")):
        cls = page.get_attribute(f'#board circle.stone[data-vertex="{vertex}"]', "class")
        if state not in cls.split():
            page.click(f'#board circle.stone[data-vertex="{vertex}"]')
            page.wait_for_function(f"document.querySelector('#overrides').textContent.includes('{vertex}')")
            ready(page)
    assert "alive" in page.get_attribute('#board circle.stone[data-vertex="C9"]', "class")
    playwright.expect(page.locator("#result")).to_have_text("B+0.5")  # the count the record's comment gives
    with page.expect_download() as info:
        page.click("#download")
    saved = tmp_path / "scored.sgf"
    info.value.save_as(saved)
    assert info.value.suggested_filename == "pasted-scored.sgf"
    sgf_text = saved.read_text()
    result = page.text_content("#result")
    assert f"RE[{result}]" in sgf_text and "TB[" in sgf_text and "TW[" in sgf_text
    page.screenshot(path=str(screenshot_path(tmp_path, "web-seki-9x9.png")), full_page=True)


def test_example_picker_and_a_broken_sgf_shows_the_servers_reason(page, server):
    page.select_option("#example", "examples/gnugo-selfplay-9x9.sgf")
    ready(page)
    assert page.text_content("#result") == api_score(
        server, (EXAMPLES / "gnugo-selfplay-9x9.sgf").read_text())["result"]
    page.fill("#sgf", "(;GM[1]SZ[9];B[zz])")
    page.click("#score")
    page.wait_for_selector("body[data-state=error]")
    message = page.text_content("#error")
    assert message.startswith("Could not score this game:") and len(message) > 30


def test_a_corner_race_is_listed_with_its_reason(page, server):
    from conftest import shared_dir

    game = shared_dir("kgs-2017-q1") / "2017-02-28-24.sgf"  # the model calls a corner seki dead
    page.set_input_files("#file", str(game))
    ready(page)
    listed = page.locator("#uncertain li").all_text_contents()
    races = [b for b in api_score(server, game.read_text())["blocks"] if b["doubt"] == "race"]
    assert races and all(any(f"at {b['stones'][0]} counted {b['status']}, in a liberty race" in line
                             for line in listed) for b in races)


def test_a_game_said_not_counted_is_scored_as_an_estimate(page, server):
    """A record without RE cannot say its game was not counted: the box says it for the user,
    and the page asks for the count the API gives with ``finished: false``."""
    from conftest import RESIGNED_AT_226, setup_record

    text = setup_record(RESIGNED_AT_226)
    page.fill("#sgf", text)
    page.click("#score")
    ready(page)
    as_finished = page.text_content("#result")
    page.check("#unfinished")
    page.wait_for_function("document.querySelector('#notes').textContent.includes('not a finished position')")
    ready(page)
    assert page.text_content("#result") == api_score(server, text, finished=False)["result"] != as_finished


def test_tromp_taylor_shows_no_dead_stone_names_those_read_dead_and_refuses_a_flip_to_dead(page, tmp_path):
    """Issue #7: the count keeps every stone, so the board draws none dead, the note says which
    stones seog reads dead, and a click asking for a dead stone gets the server's reason and is
    taken back (the next click names only its own stone)."""
    from conftest import LEFT_IN_NOTE, STONES_LEFT_IN

    page.fill("#sgf", STONES_LEFT_IN)
    page.click("#score")
    ready(page)
    assert page.text_content("#result") == "W+7.5"
    assert page.locator("#board path.dead-mark").count() == 0
    assert page.locator("#notes li").all_text_contents() == [LEFT_IN_NOTE]
    for vertex in ("B7", "H6"):
        page.click(f'#board circle.stone[data-vertex="{vertex}"]')
        playwright.expect(page.locator("#error")).to_contain_text(f"override at {vertex}:")
        page.wait_for_selector("body[data-state=error]")
        message = page.text_content("#error")
        assert message.startswith(f"Could not score this game: dead-stone override at {vertex}: "
                                  "tromp-taylor rules count every stone"), message
    assert page.text_content("#overrides") == ""
    page.screenshot(path=str(screenshot_path(tmp_path, "web-tromp-taylor-9x9.png")), full_page=True)
    page.select_option("#rules", "chinese")  # the same stones, taken off as dead
    ready(page)
    assert sorted(page.locator("#board path.dead-mark").evaluate_all("es => es.map(e => e.dataset.vertex)")) \
        == ["B7", "H6"]
    assert page.locator("#notes li").count() == 0 and page.text_content("#error") == ""


@pytest.fixture
def offline(browser, server):
    """A browser page that reaches the local server alone: every other request is refused and listed."""
    context = browser.new_context(viewport={"width": 1200, "height": 950})
    refused = []

    def only_the_server(route):
        if route.request.url.startswith(server + "/"):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg, refused
    context.close()
    assert errors == [], f"JavaScript errors on the page: {errors}"


def test_the_swagger_docs_render_post_v1_score_with_no_network(offline, server):
    """/docs loaded Swagger UI from a CDN: a server where nothing outside can be reached showed a
    blank page. Its files come from the package, and the page asks nothing of the outside."""
    pg, refused = offline
    pg.goto(server + "/docs")
    operation = pg.locator(".opblock-post:has(.opblock-summary-path[data-path='/v1/score'])")
    playwright.expect(operation.locator(".opblock-summary-method")).to_have_text("POST", timeout=20_000)
    assert operation.is_visible()
    paths = pg.locator(".opblock-summary-path").evaluate_all("nodes => nodes.map(n => n.dataset.path)")
    assert {"/v1/score", "/v1/score/sgf", "/v1/health", "/v1/model"} <= set(paths)
    assert refused == []

