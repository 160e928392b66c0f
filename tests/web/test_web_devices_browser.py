"""The pages on the devices a club uses (issue 18 item 6), in Debian's chromium (Playwright,
headless): every page with real data (a marked game, a match, a player, a played game, the
coach) in English and Russian has no axe-core finding of impact serious or critical, none
is wider than a 360 px phone, the marker's page shows its fouls, "record stroke" and Undo
without scrolling on a tablet on its side (1180×820, 1024×768), Enter and Space press the
focused control only, and the cue ball goes into the D by keyboard.

axe-core is the copy the ``axe-playwright-python`` package ships (MPL-2.0 axe.min.js, the
``test`` extra): nothing is downloaded at test time. Screenshots ``web-mark-phone``,
``web-mark-tablet``, ``web-mark-tv``, ``web-home-phone`` and ``web-play-d`` go to
``$ONERED_SCREENSHOTS`` (``ONERED_SCREENSHOTS=docs`` remakes the pictures in ``docs/``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_club_browser import Tab, lines, mark

from web_support import P1, P2, Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = shared.server, shared.browser
axe_package = pytest.importorskip("axe_playwright_python")
AXE_JS = Path(axe_package.__file__).parent / "axe.min.js"
#: axe-core's findings that fail a page: the two worst of its four impacts.
SERIOUS = ("serious", "critical")
AXE_RUN = (
    "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
    ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' '))})))"
)
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
TABLETS = [{"width": 1180, "height": 820}, {"width": 1024, "height": 768}]
TV = {"width": 1920, "height": 1080}
LOCALES = ["en-GB", "ru-RU"]


def club_night(server: Server) -> dict[str, str]:
    """Every page's address, with data behind it: a marked game of five strokes (its
    secret in the link), a match, Ivanov's player page, a game against the computer where
    the human plays from the D, the room, the coach."""
    game, token = shared_game(server)
    match = httpx.post(
        server.base + "/api/matches",
        json={"players": [P1, P2], "best_of": 3, "target": 6, "handicap": [0, 2]},
    ).json()
    played = new_played_game(server)
    return {
        "home": "/",
        "mark": f"/mark/{game}#token={token}",
        "play": f"/play/{played['id']}#token={played['token']}",
        "watch": f"/watch/{game}",
        "game": f"/games/{game}",
        "board": f"/board/{game}",
        "board-match": f"/board/match/{match['id']}",
        "room": "/board/room",
        "match": f"/matches/{match['id']}",
        "player": f"/players/{P1}",
        "coach": "/coach",
    }


def shared_game(server: Server) -> tuple[str, str]:
    """A marked game of five strokes (Petrov's break of 10 after Ivanov's opening)."""
    made = httpx.post(server.base + "/api/games", json={"players": [P1, P2], "target": 100}).json()
    for parts in (["no_score"], ["cannon"], ["pot_red"], ["in_off_red"], ["cannon"]):
        mark(server, made["id"], made["token"], parts=parts)
    return made["id"], made["token"]


def new_played_game(server: Server) -> dict[str, Any]:
    """A game against the computer in which the human (Ann) breaks: from the D."""
    body = {
        "mode": "play",
        "players": ["Ann", "Bob"],
        "target": 30,
        "opponent": "ai",
        "strength": "beginner",
        "breaker": 0,
    }
    made: dict[str, Any] = httpx.post(server.base + "/api/games", json=body).json()
    return made


@pytest.fixture(scope="module")
def pages(server: Server) -> dict[str, str]:
    return club_night(server)


def serious(pg: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical findings on the page as it is now."""
    pg.evaluate(AXE_JS.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = pg.evaluate(AXE_RUN)
    return [v for v in found if v["impact"] in SERIOUS]


def width(pg: Any) -> int:
    """How wide the page is drawn (wider than the window: it scrolls sideways)."""
    return int(pg.evaluate("document.documentElement.scrollWidth"))


@pytest.mark.parametrize("locale", LOCALES)
def test_every_page_fits_a_phone_and_has_no_serious_axe_finding(
    browser: Any, server: Server, pages: dict[str, str], locale: str
) -> None:
    wide: dict[str, int] = {}
    findings: dict[str, list[dict[str, Any]]] = {}
    for name, path in pages.items():
        # axe is put into the page by the test: the page's own content policy allows no
        # script but its own, so this context alone bypasses it
        context = browser.new_context(viewport=NARROW, locale=locale, bypass_csp=True)
        pg = context.new_page()
        errors: list[str] = []
        pg.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        pg.goto(server.base + path)
        pg.wait_for_selector("body[data-ready]")
        pg.wait_for_load_state("networkidle")
        if name == "mark":  # the secret's link for another device, shown
            pg.click("#secret-box summary")
        if width(pg) > NARROW["width"]:
            wide[name] = width(pg)
        small = serious(pg)
        pg.set_viewport_size({"width": 1280, "height": 900})
        large = serious(pg)
        if small or large:
            findings[name] = small + large
        context.close()
        assert errors == [], name
    assert wide == {}, f"wider than {NARROW['width']} px"
    assert findings == {}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("size", TABLETS, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_marker_needs_no_scrolling_on_a_tablet(
    browser: Any, server: Server, pages: dict[str, str], size: dict[str, int], locale: str
) -> None:
    tab = Tab(browser, server.base, locale=locale, viewport=size)
    pg = tab.open(pages["mark"])
    for control in ("#enter", "#clear", "#claim", "#undo", "#fouls", "#pad", "#scoreboard"):
        box = pg.locator(control).bounding_box()
        assert box is not None, control
        assert box["y"] >= 0, control
        assert box["y"] + box["height"] <= size["height"], control
        assert box["x"] >= 0, control
        assert box["x"] + box["width"] <= size["width"], control
    last_foul = pg.locator("#fouls button").last.bounding_box()
    assert last_foul["y"] + last_foul["height"] <= size["height"]
    assert pg.evaluate("document.documentElement.scrollHeight") <= size["height"]
    assert width(pg) <= size["width"]
    if size["width"] == 1180 and locale == "en-GB":
        tab.picture("web-mark-tablet")
    tab.close()


def test_pictures_at_phone_and_tv_sizes(
    browser: Any, server: Server, pages: dict[str, str]
) -> None:
    phone = Tab(browser, server.base, viewport=PHONE)
    phone.open(pages["mark"])
    assert width(phone.page) <= PHONE["width"]
    phone.picture("web-mark-phone")
    phone.open("/")
    phone.page.wait_for_selector("#games tbody tr")
    assert width(phone.page) <= PHONE["width"]
    phone.picture("web-home-phone")
    phone.close()
    tv = Tab(browser, server.base, viewport=TV)
    tv.open(pages["mark"])
    for control in ("#enter", "#undo", "#fouls"):
        box = tv.page.locator(control).bounding_box()
        assert box["y"] + box["height"] <= TV["height"], control
    tv.picture("web-mark-tv")
    tv.close()


def stored(server: Server, game: str) -> list[dict[str, Any]]:
    """The game's stroke lines as the server keeps them (``in``) with their verdicts."""
    return [x for x in lines(server, game) if x["in"].get("type") == "stroke"]


@pytest.mark.parametrize(
    ("locale", "empty"),
    [
        ("en-GB", "Nothing is marked: tap what the stroke did, or a foul."),
        ("ru-RU", "Ничего не отмечено: нажмите, что дал удар, или штраф."),
    ],
)
def test_enter_and_space_press_the_focused_control_only(
    browser: Any, server: Server, locale: str, empty: str
) -> None:
    game, token = shared_game(server)
    tab = Tab(browser, server.base, locale=locale, viewport=TABLETS[0])
    pg = tab.open(f"/mark/{game}#token={token}")
    tab.wait_version(6)
    # Enter on the focused Undo: the last stroke undone, and no stroke recorded with it
    pg.focus("#undo")
    pg.keyboard.press("Enter")
    tab.wait_version(5)  # a line fewer
    pg.wait_for_selector("#outbox", state="hidden")
    strokes = stored(server, game)
    assert [bool(x["in"].get("cannon")) for x in strokes] == [False, True, False, False]
    # Enter, then Space, on a focused flag: it flips, nothing is sent
    pg.focus('[data-flag="crossed"]')
    pg.keyboard.press("Enter")
    pg.wait_for_selector('[data-flag="crossed"].on')
    pg.keyboard.press("Space")
    pg.wait_for_selector('[data-flag="crossed"]:not(.on)')
    # Enter on a focused part: that one tap, once
    pg.focus('[data-part="cannon"]')
    pg.keyboard.press("Enter")
    tab.wait_version(6)
    pg.wait_for_selector("#outbox", state="hidden")
    strokes = stored(server, game)
    assert len(strokes) == 5
    assert strokes[-1]["in"]["cannon"] is True
    # the page's own Enter with nothing marked queues nothing and says why, in its language
    pg.locator("#scoreboard").click()
    pg.keyboard.press("Enter")
    pg.wait_for_selector("#reason:not([hidden])")
    assert tab.text("#reason") == empty
    assert pg.locator("#outbox").is_hidden()
    assert len(stored(server, game)) == 5
    tab.close()


def test_an_empty_stroke_is_refused_in_the_page_language(server: Server) -> None:
    game, token = shared_game(server)
    for lang, words in (("ru", "Ничего не отмечено"), ("en", "Nothing is marked")):
        r = httpx.post(
            f"{server.base}/api/games/{game}/mark",
            json={"parts": []},
            headers={"X-Game-Token": token, "Accept-Language": lang},
        )
        assert r.status_code == 422
        body = r.json()
        assert body["code"] == "mark_empty"
        assert body["message"].startswith(words)
        assert "parts" not in body["message"]


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-GB", "Cue ball in the D: 16.6 cm behind the baulk line, 3 cm up from the centre line"),
        ("ru-RU", "Биток в секторе: на 16,6 см за линией дома, на 3 см выше средней линии"),
    ],
)
def test_the_cue_ball_is_placed_in_the_d_by_keyboard(
    browser: Any, server: Server, locale: str, said: str
) -> None:
    made = new_played_game(server)
    tab = Tab(browser, server.base, locale=locale, viewport={"width": 1280, "height": 900})
    pg = tab.open(f"/play/{made['id']}#token={made['token']}")
    pg.wait_for_selector('body[data-turn="human"]')
    geo = httpx.get(server.base + "/api/table").json()
    assert tab.text("#hint").startswith(pg.get_attribute("#table", "aria-label") or "-")
    pg.focus("#table")
    for key in ("ArrowUp", "ArrowUp", "ArrowUp", "ArrowLeft", "ArrowLeft"):
        pg.keyboard.press(key)
    # from the middle of the D: 3 cm up the screen (across the table), 2 cm left (away
    # from the baulk line)
    x = geo["d"]["centre"][0] - 0.03
    y = geo["baulk_y"] - geo["d"]["radius"] / 2 - 0.02
    assert float(pg.get_attribute("#d-place", "data-x") or "nan") == pytest.approx(x, abs=1e-4)
    assert float(pg.get_attribute("#d-place", "data-y") or "nan") == pytest.approx(y, abs=1e-4)
    assert tab.text("#d-place") == said
    assert pg.get_attribute("#d-place", "role") == "status"
    # the ball never leaves the D however far it is pushed
    for _ in range(40):
        pg.keyboard.press("ArrowRight", delay=0)
    far = [float(pg.get_attribute("#d-place", f"data-{c}") or "nan") for c in "xy"]
    assert far[1] <= geo["baulk_y"] + 1e-9
    centre = geo["d"]["centre"]
    assert math.hypot(far[0] - centre[0], far[1] - centre[1]) <= geo["d"]["radius"]
    for _ in range(40):
        pg.keyboard.press("ArrowLeft", delay=0)
    left = [float(pg.get_attribute("#d-place", f"data-{c}") or "nan") for c in "xy"]
    for _ in range(4):  # back to 2 cm from where it began, away from the baulk line
        pg.keyboard.press("ArrowRight")
    if locale == "en-GB":
        tab.picture("web-play-d")
    pg.keyboard.press("Enter")  # put it there
    pg.wait_for_selector("#d-place", state="hidden")
    assert pg.locator("#move").is_visible()
    pg.keyboard.press("Space")  # strike
    tab.wait_version(2)
    first = stored(server, made["id"])[0]
    assert first["out"]["striker"] == "Ann"
    assert first["in"]["placed"][0] == pytest.approx(left[0], abs=1e-3)
    assert first["in"]["placed"][1] == pytest.approx(left[1] + 0.04, abs=1e-3)
    tab.close(allow_failed_loads=True)


def test_long_names_wrap_on_a_phone(browser: Any, server: Server) -> None:
    """Names as long as the form takes (40 letters, no space) make no page wider than a
    360 px phone: they wrap."""
    long = ("Константинопольский-Переяславский", "Verylongplayernamewithoutspaces12345678")
    made = httpx.post(server.base + "/api/games", json={"players": list(long), "target": 100})
    game = made.json()
    for parts in (["no_score"], ["cannon"]):
        mark(server, game["id"], game["token"], parts=parts)
    match = httpx.post(
        server.base + "/api/matches", json={"players": list(long), "best_of": 3, "target": 6}
    ).json()
    paths = [
        f"/mark/{game['id']}#token={game['token']}",
        f"/watch/{game['id']}",
        f"/games/{game['id']}",
        f"/board/{game['id']}",
        f"/matches/{match['id']}",
        f"/board/match/{match['id']}",
        f"/players/{long[1]}",
        "/",
    ]
    tab = Tab(browser, server.base, locale="ru-RU", viewport=NARROW)
    wide = {}
    for path in paths:
        tab.open(path)
        tab.page.wait_for_load_state("networkidle")
        if width(tab.page) > NARROW["width"]:
            wide[path] = width(tab.page)
    assert wide == {}
    tab.close()
