"""The pages in a real browser: Playwright driving Debian's chromium, headless.

The browser is the system's ``/usr/bin/chromium`` (``make test`` installs Debian's package
when it is missing); Playwright never downloads one. The server is ``onered serve`` on a
free loopback port with a temporary data folder. Each test saves a screenshot of the page it
drove (into ``$ONERED_SCREENSHOTS``, default ``out/screenshots``) and checks the picture.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_support import P1, P2, REPO, Server, png_size

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 900}
SHOTS = Path(os.environ.get("ONERED_SCREENSHOTS", REPO / "out" / "screenshots"))

sync_api = pytest.importorskip("playwright.sync_api")

#: Every test here drives chromium: left out of ``make check`` (``-m "not browser"``).
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web") / "data")
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        message = f"{CHROMIUM} not found: install Debian's chromium (make test does)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Page:
    """A browser page that fails the test on any script error."""

    def __init__(
        self, browser: Any, base: str, locale: str = "en-GB", *, routed: bool = False
    ) -> None:
        # ``routed``: the test intercepts the page's requests (``page.route``). Playwright
        # does not see the requests of a page its service worker controls, and the worker
        # takes control at some moment after the first load: a test that routes blocks the
        # worker, or its routes would hold only until then (a CI run failed so).
        self.context = browser.new_context(
            viewport=VIEWPORT, locale=locale, service_workers="block" if routed else "allow"
        )
        self.page = self.context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def open(self, path: str) -> Any:
        self.page.goto(self.base + path)
        self.page.wait_for_selector("body[data-ready]")
        return self.page

    def version(self) -> int:
        return int(self.page.get_attribute("body", "data-version") or 0)

    def press(self, key: str) -> None:
        """Press a key on the marker's page and wait for the game to change."""
        before = self.version()
        self.page.keyboard.press(key)
        # Selectors, not script: the pages' content policy forbids evaluating strings.
        self.page.wait_for_selector(f'body:not([data-version="{before}"])')

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).first.inner_text())

    def screenshot(self, name: str) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"screenshot-{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        width, height = png_size(path)
        assert width == VIEWPORT["width"]
        assert height >= 400
        assert path.stat().st_size > 20_000, "the picture is (nearly) blank"
        print(f"screenshot of the {name} page: {path} ({width}x{height})")
        return path

    def close(self) -> None:
        self.context.close()
        assert self.errors == []


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Page]:
    p = Page(browser, server.base)
    yield p
    p.close()


def score(p: Page, player: int) -> str:
    return p.text(f'.player[data-player="{player}"] .player-score')


def test_mark_a_75_cannon_run_see_the_calls_and_the_foul_undo_and_switch_language(
    page: Page, browser: Any, server: Server
) -> None:
    pg = page.open("/")
    pg.fill("#mark-form input[name=p1]", P1)
    pg.fill("#mark-form input[name=p2]", P2)
    pg.fill("#mark-form input[name=target]", "1000")
    pg.click("#mark-form button[type=submit]")
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    game = pg.url.rsplit("/", 1)[-1].split("#")[0]

    page.press("n")  # Ivanov's opening scores nothing
    assert "Petrov to play" in page.text("#notes")
    for _ in range(40):
        page.press("c")
    assert score(page, 1) == "80"
    assert page.text('[data-call="baulk_line_required"]') == "Baulk line must be crossed"
    page.page.keyboard.press("b")  # the next stroke crosses the baulk line
    page.press("c")
    assert page.text('[data-call="baulk_line_crossed"]') == "Baulk line crossed"
    for _ in range(29):
        page.press("c")
    assert page.text('[data-call="seventy_cannons"]') == "Seventy cannons!"
    for _ in range(5):
        page.press("c")
    assert score(page, 1) == "150"
    page.press("c")  # the 76th cannon in a row
    assert page.text('[data-call="foul"]') == "Foul"
    assert "more than 75 consecutive cannons" in page.text("#log tbody tr")
    assert score(page, 0) == "2"
    assert page.page.locator("#choice").is_visible()
    assert page.text('#choice [data-option="from_d"]') == "play from the D"

    # A spectator elsewhere sees it, and cannot change anything.
    spectator = Page(browser, server.base)
    watch = spectator.open(f"/watch/{game}")
    watch.wait_for_selector('[data-call="foul"]')
    assert score(spectator, 1) == "150"
    assert watch.locator("#pad").count() == 0
    spectator.screenshot("watch")
    page.screenshot("mark")

    page.press("u")  # undo the foul
    assert page.page.locator('[data-call="foul"]').count() == 0
    assert score(page, 0) == "0"
    assert score(page, 1) == "150"
    watch.wait_for_selector('[data-call="foul"]', state="detached")
    spectator.close()

    page.page.select_option("#lang", "ru")
    page.page.wait_for_selector('html[lang="ru"] body[data-ready]')
    assert page.text('button[data-part="cannon"]').startswith("Карамболь")
    assert page.text("header .page-title") == "Протокол матча"
    assert "карамболь" in page.text("#log tbody tr")
    page.press("c")
    assert page.text('[data-call="foul"]') == "Штраф"
    assert "более семидесяти пяти карамболей подряд" in page.text("#log tbody tr")


def test_the_home_page_offers_the_servers_levels_in_the_pages_language(page: Page) -> None:
    """The levels are the server's grammar's (``/api/player-spec``), its default chosen,
    each named in the page's language, renamed when the language changes."""
    grammar = httpx.get(page.base + "/api/player-spec").json()
    pg = page.open("/")
    strength = pg.locator("#play-form select[name=strength] option")
    assert strength.evaluate_all("os => os.map(o => o.value)") == grammar["levels"]
    assert pg.input_value("#play-form select[name=strength]") == grammar["default_level"]
    english = strength.all_inner_texts()
    assert english == ["novice", "beginner", "amateur", "club player", "pro", "master"]
    pg.select_option("#lang", "ru")
    pg.wait_for_selector('html[lang="ru"] body[data-ready]')
    russian = strength.all_inner_texts()
    assert russian[0] == "впервые у стола"
    assert russian[-1] == "мастер"
    assert strength.evaluate_all("os => os.map(o => o.value)") == grammar["levels"]


def test_claim_a_foul_and_choose_the_option(page: Page, server: Server) -> None:
    made = httpx.post(server.base + "/api/games", json={"players": [P1, P2]}).json()
    pg = page.open(f"/mark/{made['id']}#token={made['token']}")
    assert "#token" not in pg.url  # the secret is kept, not left in the address bar
    page.press("n")
    page.press("r")  # Petrov pots the red from hand
    assert score(page, 1) == "3"
    pg.keyboard.press("a")  # claim a foul on that stroke …
    assert pg.locator("#claim-hint").is_visible()
    before = page.version()
    pg.click('#fouls [data-foul="push"]')  # … a push stroke
    pg.wait_for_selector('[data-call="foul"]')
    assert page.version() == before  # the stroke was judged again, not added
    assert score(page, 1) == "0"
    assert score(page, 0) == "2"
    pg.click('#choice [data-option="from_d"]')
    pg.wait_for_selector("#choice", state="hidden")
    notes = page.text("#notes")
    assert "Red on the billiards spot" in notes
    assert "Yellow on the centre spot" in notes


def test_a_read_only_visitor_cannot_mark(page: Page, server: Server) -> None:
    made = httpx.post(server.base + "/api/games", json={"players": [P1, P2]}).json()
    pg = page.open(f"/mark/{made['id']}")
    assert pg.locator("#readonly").is_visible()
    assert not pg.locator("#pad-panel").is_visible()
    pg.fill("#token-form input[name=token]", "wrong-secret")
    pg.click("#token-form button")
    pg.wait_for_selector("#error:not([hidden])")
    assert "not the game's secret" in page.text("#error")
    page.errors.clear()  # the refused secret was logged by the browser as a 403
    pg.fill("#token-form input[name=token]", made["token"])
    pg.click("#token-form button")
    pg.wait_for_selector("#pad-panel:not([hidden])")
    page.errors.clear()


def click_table(pg: Any, x: float, y: float) -> None:
    """Click the table canvas at table point (x, y) (metres, the frame of docs/table.md)."""
    box = pg.locator("#table").bounding_box()
    border = 0.045 + 0.08
    scale = box["width"] / (3.569 + 2 * border)
    pg.mouse.click(box["x"] + (y + border) * scale, box["y"] + (x + border) * scale)


def test_play_a_stroke_against_the_computer_and_see_the_verdict(page: Page) -> None:
    pg = page.open("/")
    pg.fill("#play-form input[name=p1]", "Ann")
    pg.select_option("#play-form select[name=opponent]", "ai")
    pg.select_option("#play-form select[name=strength]", "beginner")
    pg.fill("#play-form input[name=target]", "30")
    pg.click("#play-form button[type=submit]")
    pg.wait_for_url("**/play/**")
    pg.wait_for_selector("body[data-ready]")
    assert page.text("#status") == "Your stroke, Ann"
    # The tip pad keeps within the engine's strike limits, served with the table.
    limits = httpx.get(page.base + "/api/table").json()["strike_limits"]
    assert float(pg.locator("#speed").get_attribute("max") or "inf") <= limits["max_speed"]
    assert float(pg.locator("#elevation").get_attribute("max") or "inf") <= limits["max_elevation"]
    box = pg.locator("#tip").bounding_box()
    assert box is not None
    pg.mouse.click(box["x"] + box["width"] - 2, box["y"] + 2)  # the pad's top right corner
    side, height = (float(v) for v in page.text("#tip-out").removesuffix(" R").split(", "))
    assert side > 0
    assert height > 0
    assert math.hypot(side, height) <= limits["max_tip_offset"]
    pg.dblclick("#tip")  # back to the centre
    assert page.text("#tip-out") == "+0.00, +0.00 R"
    assert pg.locator("#strike").is_disabled()  # the ball is in hand: place it first
    click_table(pg, 0.95, 0.62)
    assert pg.locator("#strike").is_enabled()
    pg.click("#strike")
    # The stroke is animated and judged; then, once Ann's visit is over, the computer plays
    # until it is Ann's turn again.
    pg.wait_for_selector(
        'body[data-busy="false"]:not([data-turn="ai"]):not([data-version="1"])',
        timeout=120_000,
    )
    assert page.text("#last").startswith("Stroke ")
    assert page.text("#last .what")
    assert "Computer (beginner)" in page.text("#scoreboard")
    game = httpx.get(page.base + f"/api/games/{pg.url.rsplit('/', 1)[-1]}").json()
    strokes = [e["out"] for e in game["log"][1:]]
    assert strokes[0]["striker"] == "Ann"
    if strokes[0]["points"] > 0 and not strokes[0]["visit_over"]:
        assert len(strokes) == 1  # Ann scored and plays on
    else:
        assert strokes[-1]["striker"] == "Computer (beginner)"
        assert page.text("#last").startswith(f"Stroke {strokes[-1]['stroke']} · Computer")
    if pg.locator("#choice").is_visible():
        pg.click('#choice [data-option="from_d"]')
        pg.wait_for_selector('body[data-busy="false"]')
    if page.text("#hint").startswith("Place the cue ball"):
        click_table(pg, 0.95, 0.62)
    page.screenshot("play")


def test_import_a_game_and_read_its_record(page: Page) -> None:
    pg = page.open("/")
    pg.set_input_files(
        "#import-form input[type=file]", str(REPO / "examples" / "century-break.jsonl")
    )
    pg.click("#import-form button[type=submit]")
    pg.wait_for_url("**/games/**")
    pg.wait_for_selector("body[data-ready]")
    assert page.text('.player[data-player="0"] .player-score') == "151"
    assert "Winner: Ivanov" in page.text("#scoreboard")
    assert pg.locator("#chart svg path[data-player]").count() == 2
    best = page.text("#breaks tr:nth-child(2)")
    assert "Ivanov" in best
    assert "140" in best
    assert pg.locator("#log tbody tr").count() == 66  # 65 strokes and one foul option
    href = pg.get_attribute("#export-jsonl", "href")
    exported = httpx.get(page.base + str(href)).text
    original = (REPO / "examples" / "century-break.jsonl").read_text(encoding="utf-8")
    assert exported.splitlines()[0].startswith('{"type": "match"')
    assert len(exported.splitlines()) == len([x for x in original.splitlines() if x.strip()])
    page.screenshot("record")
    page.open("/")
    page.page.wait_for_selector("#games tbody tr")
    page.screenshot("home")


def new_game_against_the_computer(server: Server) -> tuple[str, str, str]:
    """A played game in which the computer breaks: its id, secret and the computer's name."""
    body = {
        "mode": "play",
        "players": ["Ann", "Bob"],
        "target": 30,
        "opponent": "ai",
        "strength": "beginner",
        "breaker": 1,
    }
    made = httpx.post(server.base + "/api/games", json=body).json()
    return made["id"], made["token"], made["game"]["state"]["to_play"]


@pytest.mark.parametrize(
    ("locale", "shown"), [("ru-RU", "Компьютер (новичок)"), ("en-GB", "Computer (beginner)")]
)
def test_the_record_and_the_list_name_the_computer_from_its_level(
    browser: Any, server: Server, locale: str, shown: str
) -> None:
    game, token, computer = new_game_against_the_computer(server)
    assert computer == "Bob"  # the name it was stored under
    turn = httpx.post(
        f"{server.base}/api/games/{game}/ai",
        json={"after": 1},
        headers={"X-Game-Token": token},
        timeout=120,
    )
    assert turn.status_code == 200, turn.text
    page = Page(browser, server.base, locale=locale)
    pg = page.open(f"/games/{game}")
    assert shown in page.text("#legend")
    assert "Bob" not in page.text("#legend")
    assert page.text("#log tbody tr td:nth-child(2)") == shown  # the computer broke
    pg = page.open("/")
    pg.wait_for_selector(f'tr[data-game="{game}"]')
    listed = page.text(f'tr[data-game="{game}"] td')
    assert sorted(listed.split(" — ")) == sorted(["Ann", shown])
    page.close()


def only_failed_loads(errors: list[str]) -> bool:
    """The browser's own console lines for a request that failed (what the test caused)."""
    return all("Failed to load resource" in e or "net::ERR_FAILED" in e for e in errors)


@pytest.mark.parametrize(
    ("locale", "failure", "said", "stopped"),
    [
        ("en-GB", "server", "The server failed. Please try again.", "No stroke was played"),
        ("ru-RU", "network", "Нет связи с сервером.", "Ход не сделан"),
    ],
)
def test_a_failed_computer_turn_is_shown_and_can_be_retried(
    browser: Any, server: Server, locale: str, failure: str, said: str, stopped: str
) -> None:
    game, token, computer = new_game_against_the_computer(server)
    page = Page(browser, server.base, locale=locale, routed=True)
    pg = page.page

    def fail(route: Any) -> None:
        if failure == "network":
            route.abort()
        else:
            route.fulfill(
                status=500,
                content_type="application/json",
                body='{"error": "internal error: RuntimeError: boom", "code": "server"}',
            )

    pg.route("**/api/games/*/ai", fail)
    pg.goto(f"{server.base}/play/{game}#token={token}")
    pg.wait_for_selector("body[data-ready]")
    # The computer's turn fails: the page says so in its language, never "thinking" for ever.
    pg.wait_for_selector("#retry:not([hidden])", timeout=30_000)
    assert said in page.text("#error")
    assert stopped in page.text("#status")
    # the computer is named from its level in the page's language, not as it was created
    shown = {"en-GB": "Computer (beginner)", "ru-RU": "Компьютер (новичок)"}[locale]
    assert computer == "Bob"
    assert shown in page.text("#status")
    assert page.version() == 1
    if failure == "server":
        assert "(internal error: RuntimeError: boom)" in page.text("#error")
    assert only_failed_loads(page.errors), page.errors
    page.errors.clear()
    if failure == "network":
        page.close()
        return
    # Once the server answers again, "Try again" lets the computer play on.
    pg.unroute("**/api/games/*/ai")
    pg.click("#retry")
    pg.wait_for_selector('body:not([data-version="1"])[data-busy="false"]', timeout=120_000)
    assert pg.locator("#retry").is_hidden()
    assert pg.locator("#error").is_hidden()
    page.close()
