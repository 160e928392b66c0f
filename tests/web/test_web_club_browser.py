"""The club's pages in Debian's chromium (Playwright, headless): a marked game entered by
physical keys on a Russian layout; strokes entered while the server cannot be reached arrive
once it is back (and one refused as stale is shown, not dropped); a played game on two
devices (two browser contexts); the club's TV board following a marked game; the spoken
marker's words (``speechSynthesis`` stubbed in the page). The screenshots of the board and of
the tablet marker's page are written to ``$ONERED_SCREENSHOTS`` (``ONERED_SCREENSHOTS=docs``
remakes ``docs/web-board.png`` and ``docs/web-marker-tablet.png``)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import SHOTS, Page, click_table

from web_support import P1, P2, Server, png_size

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = shared.server, shared.browser
TABLET = {"width": 1180, "height": 820}
TV = {"width": 1280, "height": 720}

#: The Russian (ЙЦУКЕН) letters on the keys the marker uses.
RU = {"KeyC": "с", "KeyN": "т", "KeyR": "к", "KeyP": "з", "KeyM": "ь", "KeyU": "г", "KeyB": "и"}
VK = {"KeyC": 67, "KeyN": 78, "KeyR": 82, "KeyP": 80, "KeyM": 77, "KeyU": 85, "KeyB": 66}

#: A stand-in for the browser's speech: what the page says is kept on <html data-said>.
SPEECH_STUB = """
(() => {
  const said = [];
  const Utterance = class { constructor(text) { this.text = text; } };
  const define = (name, value) =>
    Object.defineProperty(window, name, { value, configurable: true });
  define("SpeechSynthesisUtterance", Utterance);
  const synth = {
    speak(u) {
      said.push({ text: u.text, lang: u.lang, voice: u.voice ? u.voice.name : null });
      document.documentElement.dataset.said = JSON.stringify(said);
    },
    cancel() {},
    getVoices() {
      return [{ name: "Milena", lang: "ru-RU" }, { name: "Daniel", lang: "en-GB" }];
    },
  };
  define("speechSynthesis", synth);
  localStorage.setItem("onered.speech", "on");
})();
"""


class Tab(Page):
    """The browser pages' :class:`Page` at a tablet's or a TV's size, optionally with the
    speech stand-in."""

    def __init__(
        self,
        browser: Any,
        base: str,
        *,
        locale: str = "en-GB",
        viewport: dict[str, int] | None = None,
        speech: bool = False,
        routed: bool = False,
    ) -> None:
        super().__init__(browser, base, locale=locale, routed=routed)
        self.page.set_viewport_size(viewport or TABLET)
        if speech:
            self.context.add_init_script(SPEECH_STUB)

    def wait_version(self, version: int, timeout: float = 30_000) -> None:
        self.page.wait_for_selector(f'body[data-version="{version}"]', timeout=timeout)

    def said(self) -> list[str]:
        raw = self.page.get_attribute("html", "data-said") or "[]"
        return [x["text"] for x in json.loads(raw)]

    def picture(self, name: str) -> None:
        """A screenshot of the viewport, ``<name>.png``, checked to be a real picture."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / f"{name}.png"
        self.page.screenshot(path=str(path))
        width, _ = png_size(path)
        assert width == self.page.viewport_size["width"]
        assert path.stat().st_size > 20_000, "the picture is (nearly) blank"

    def close(self, allow_failed_loads: bool = False) -> None:
        if allow_failed_loads:
            self.errors = [e for e in self.errors if "Failed to load resource" not in e]
        super().close()


def new_mark(server: Server, target: int = 100) -> tuple[str, str]:
    made = httpx.post(
        server.base + "/api/games", json={"players": [P1, P2], "target": target}
    ).json()
    return made["id"], made["token"]


def mark(server: Server, game: str, token: str, **body: Any) -> dict[str, Any]:
    r = httpx.post(
        f"{server.base}/api/games/{game}/mark", json=body, headers={"X-Game-Token": token}
    )
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def lines(server: Server, game: str) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = httpx.get(f"{server.base}/api/games/{game}").json()["log"]
    return log


def russian_key(tab: Tab, code: str) -> None:
    """Press the key at ``code``'s position as a Russian layout sends it: the physical code
    (KeyC) with the Russian letter (с) as its key, through the browser's input pipeline."""
    cdp = tab.context.new_cdp_session(tab.page)
    letter = RU[code]
    common = {"code": code, "key": letter, "windowsVirtualKeyCode": VK[code]}
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": letter, **common})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **common})
    cdp.detach()


def test_a_marked_game_entered_by_key_position_on_a_russian_layout(
    browser: Any, server: Server
) -> None:
    game, token = new_mark(server)
    tab = Tab(browser, server.base, locale="ru-RU")
    pg = tab.open(f"/mark/{game}#token={token}")
    assert pg.get_attribute("html", "lang") == "ru"
    # The labels show the key: the Latin letter and the Russian one on the same key.
    assert tab.text('button[data-part="cannon"] kbd') == "C · С"
    # At the opening the cannon is impossible (Petrov's yellow is off the table): the key
    # says why and enters nothing.
    assert pg.get_attribute('button[data-part="cannon"]', "aria-disabled") == "true"
    assert pg.get_attribute('button[data-part="cannon"]', "title") == "Жёлтый не на столе"
    russian_key(tab, "KeyC")
    pg.wait_for_selector("#reason:not([hidden])")
    assert tab.text("#reason") == "Жёлтый не на столе"
    assert tab.version() == 1
    # No score for Ivanov, then Petrov: three cannons and a pot of the red.
    version = 1
    for code in ["KeyN", "KeyC", "KeyC", "KeyC", "KeyR"]:
        russian_key(tab, code)
        version += 1
        tab.wait_version(version)
    assert tab.text('.player[data-player="1"] .player-score') == "9"
    # Undo by its key (Г on the Russian layout) takes the pot back.
    russian_key(tab, "KeyU")
    tab.wait_version(version - 1)
    assert tab.text('.player[data-player="1"] .player-score') == "6"
    strokes = [e["in"] for e in lines(server, game)[1:]]
    assert [s.get("cannon", False) for s in strokes] == [False, True, True, True]
    # The log numbers the strokes (newest first) and shows their points.
    first_row = pg.locator("#log tbody tr").first
    assert first_row.locator("td").nth(0).inner_text() == "4"
    assert first_row.locator("td.pts").inner_text() == "+2"
    tab.close()


def test_strokes_entered_while_the_server_is_down_arrive_when_it_is_back(
    browser: Any, server: Server
) -> None:
    game, token = new_mark(server)
    tab = Tab(browser, server.base, routed=True)
    pg = tab.page
    # The page's timers stand still unless the test moves them: the outbox's retry timer
    # sends only when the test says so. (Left running, under load it fired between the
    # server's return and the click on "Send now", sent the queue itself and took the button
    # away: the click then waited in vain.) Each way of sending is seen on its own.
    pg.clock.install(time=CLOCK_START)
    pg.clock.pause_at(CLOCK_START + 3600)  # ahead of the clock, which runs until then
    # The server "goes away" for the taps only, by a switch: one route for the whole test,
    # set before the page opens, so the browser's interception is never turned on or off
    # while the page is sending.
    down = [True]
    pg.route("**/api/games/*/mark", lambda route: route.abort() if down[0] else route.continue_())
    tab.open(f"/mark/{game}#token={token}")
    for queued, key in enumerate(["n", "c", "c"], start=1):
        pg.keyboard.press(key)
        wait_queued(tab, queued)  # a marker's pace: one by one
    pg.wait_for_selector("#outbox [data-offline]")
    assert pg.locator("#outbox li.queued").count() == 3
    assert "Waiting to be sent: 3" in tab.text("#outbox h2")
    assert "null" not in tab.text("#outbox")
    assert tab.version() == 1
    # A reload keeps the queue (the server is still unreachable: its first try fails).
    pg.reload()
    pg.wait_for_selector("body[data-ready]")
    wait_queued(tab, 3)
    pg.wait_for_selector("#outbox [data-offline]")
    assert tab.version() == 1
    # Back: the retry timer sends the queue, in order.
    down[0] = False
    pg.clock.run_for(RETRY_MAX_MS)
    tab.wait_version(4)
    pg.wait_for_selector("#outbox", state="hidden")
    strokes = [e["in"] for e in lines(server, game)[1:]]
    assert [s.get("cannon", False) for s in strokes] == [False, True, True]
    assert tab.text('.player[data-player="1"] .player-score') == "4"

    # Offline again; meanwhile the game changes on another device: the queued stroke is
    # refused as stale and shown, not dropped; "Send again" enters it at the new position.
    down[0] = True
    pg.keyboard.press("c")
    pg.wait_for_selector("#outbox [data-offline]")
    mark(server, game, token, parts=["cannon"])
    down[0] = False
    pg.click('#outbox [data-act="send-now"]')  # at once: the retry timer stands still
    pg.wait_for_selector('#outbox li[data-state="stale"]')
    assert "changed on another device" in tab.text("#outbox li")
    tab.wait_version(5)  # read again once refused: the other device's stroke is shown
    pg.click('#outbox [data-act="resend"]')
    tab.wait_version(6)
    pg.wait_for_selector("#outbox", state="hidden")
    assert tab.text('.player[data-player="1"] .player-score') == "8"
    tab.close(allow_failed_loads=True)


#: Where the page's clock starts when a test holds it (any fixed time will do).
CLOCK_START = 1_780_000_000.0
#: The outbox's longest pause before a retry (common.js RETRY_MS).
RETRY_MAX_MS = 30_000


def wait_queued(tab: Tab, queued: int) -> None:
    """Wait until the marker's outbox holds ``queued`` changes; on a time-out, say what the
    page holds instead: its queue, the game's version (a tap the server got leaves the
    queue) and its script errors."""
    try:
        tab.page.wait_for_selector(f'body[data-queued="{queued}"]')
    except Exception as e:
        held = tab.page.get_attribute("body", "data-queued")
        raise AssertionError(
            f"queued {held}, not {queued}; version {tab.version()}; page errors: {tab.errors}"
        ) from e


def strike(tab: Tab, server: Server, game: str) -> None:
    """The player to play strikes (placing his ball in the D first when in hand)."""
    pg = tab.page
    state = httpx.get(f"{server.base}/api/games/{game}").json()["state"]
    if state["options"]:
        pg.click('#choice [data-option="as_they_lie"]')
        tab.wait_version(state["version"] + 1)
        state = httpx.get(f"{server.base}/api/games/{game}").json()["state"]
    if state["from_d"]:
        click_table(pg, 0.95, 0.62)
    pg.wait_for_selector("#strike:not([disabled])")
    pg.click("#strike")
    if pg.locator("#strike-anyway:not([hidden])").count():
        pg.click("#strike-anyway")
    tab.wait_version(state["version"] + 1, timeout=60_000)


def test_a_two_device_game_played_by_two_browser_contexts(browser: Any, server: Server) -> None:
    made = httpx.post(
        server.base + "/api/games", json={"mode": "play", "players": ["Ann", "Bob"], "target": 20}
    ).json()
    game = made["id"]
    ann = Tab(browser, server.base)
    pa = ann.open(f"/play/{game}#token={made['token']}")
    pa.click('#invite-buttons [data-seat="0"]')
    pa.wait_for_selector("#invite-share:not([hidden])")
    pa.wait_for_selector("#invite-qr svg")  # the other seat's link as a QR code
    link = pa.input_value("#invite-link")
    assert "#seat=" in link
    pa.wait_for_selector('body[data-seat="0"]')  # drawn once the club's state is read again
    bob = Tab(browser, server.base)
    pb = bob.page
    pb.goto(link)
    pb.wait_for_selector('body[data-ready][data-seat="1"]')
    assert "#seat" not in pb.url  # the secret is kept, not left in the address bar
    assert bob.text("#you-are") == "You play: Bob"
    # Bob cannot strike on Ann's turn.
    assert pb.locator("#strike").is_disabled()
    assert "Your opponent's stroke: Ann" in bob.text("#status")
    # Ann strikes; Bob's device animates it and follows.
    strike(ann, server, game)
    pb.wait_for_selector('body[data-animated="1"]', timeout=30_000)
    bob.wait_version(ann.version(), timeout=30_000)
    # Strokes alternate devices by turn until each has struck.
    struck = {"Ann"}
    for _ in range(8):
        state = httpx.get(f"{server.base}/api/games/{game}").json()["state"]
        if state["winner"]:
            break
        tab, other = (ann, bob) if state["to_play"] == "Ann" else (bob, ann)
        assert other.page.locator("#strike").is_disabled()
        strike(tab, server, game)
        other.wait_version(tab.version(), timeout=30_000)
        struck.add(state["to_play"])
        if struck == {"Ann", "Bob"}:
            break
    assert struck == {"Ann", "Bob"}
    strikers = {e["out"]["striker"] for e in lines(server, game)[1:]}
    assert strikers == {"Ann", "Bob"}
    # A seat's stroke out of turn is refused by the server as well, by its code.
    r = httpx.post(
        f"{server.base}/api/games/{game}/seat/play",
        json={"strike": {"speed": 1.0, "aim": 90.0}},
        headers={"X-Seat-Token": link.split("#seat=")[1]},
    )
    state = httpx.get(f"{server.base}/api/games/{game}").json()["state"]
    if state["to_play"] == "Ann":
        assert r.status_code == 409
        assert r.json()["code"] == "not_your_turn"
    ann.close()
    bob.close()


def test_the_club_board_follows_a_marked_game_and_calls_it_aloud(
    browser: Any, server: Server
) -> None:
    game, token = new_mark(server, target=300)
    tv = Tab(browser, server.base, viewport=TV, speech=True)
    pg = tv.open(f"/board/{game}")
    assert tv.text('.board-player[data-player="0"] .board-name') == P1
    assert tv.text('.board-player[data-player="1"] .board-score') == "0"
    pg.wait_for_selector('body[data-follow="events"]')  # pushed by the server, not polled
    assert tv.text("#live") == "● live"
    mark(server, game, token, parts=["no_score"])
    tv.wait_version(2)
    assert tv.said()[-1] == "No score. Petrov to play"
    for _ in range(40):
        mark(server, game, token, parts=["cannon"])
    tv.wait_version(42)
    assert tv.text('.board-player[data-player="1"] .board-score') == "80"
    assert tv.text(".board-player.at-table .board-break") == "80"
    pg.wait_for_selector('.board-calls [data-call="baulk_line_required"]')
    tv.picture("web-board")
    said = tv.said()
    assert "2. Petrov leads 2–0" in said
    assert said[-1] == "2. Baulk line must be crossed. Petrov leads 80–0"
    mark(server, game, token, parts=["cannon"], crossed_baulk=True)
    mark(server, game, token, parts=["pot_red", "cannon"])
    mark(server, game, token, parts=["miss"])
    tv.wait_version(45)
    assert tv.said()[-1] == "Foul, 2 away. Petrov leads 87–2"
    assert pg.locator(".board-last tbody tr").count() == 6
    first = pg.locator(".board-last tbody tr").first
    assert first.locator("td").nth(0).inner_text() == "44"
    assert first.locator("td").nth(3).inner_text() == "−2"
    assert tv.text("#status") == f"{P1} chooses"
    # In Russian, with the Russian voice.
    pg.select_option("#lang", "ru")
    pg.wait_for_selector('html[lang="ru"] body[data-ready]')
    mark(server, game, token, parts=["no_score"])
    tv.wait_version(46)
    last = json.loads(pg.get_attribute("html", "data-said") or "[]")[-1]
    assert last == {"text": f"Без очков. Играет {P2}", "lang": "ru-RU", "voice": "Milena"}
    tv.close()


def test_the_tablet_markers_page_says_every_call_aloud(browser: Any, server: Server) -> None:
    game, token = new_mark(server, target=100)
    tab = Tab(browser, server.base, viewport=TABLET, speech=True)
    pg = tab.open(f"/mark/{game}#token={token}")
    assert pg.locator("#speech").is_checked()
    pg.keyboard.press("n")
    tab.wait_version(2)
    for n in range(3):
        pg.keyboard.press("c")
        tab.wait_version(3 + n)
    assert tab.said() == [
        "No score. Petrov to play",
        "2. Petrov leads 2–0",
        "2. Petrov leads 4–0",
        "2. Petrov leads 6–0",
    ]
    pg.keyboard.press("m")  # a miss: a foul
    tab.wait_version(6)
    assert tab.said()[-1] == "Foul, 2 away. Petrov leads 6–2"
    pg.click('#choice [data-option="from_d"]')
    tab.wait_version(7)
    assert tab.said()[-1] == "Ivanov plays from hand"
    # The log: the foul option on its own row, with no stroke number of its own.
    rows = pg.locator("#log tbody tr")
    assert rows.nth(0).get_attribute("data-kind") == "choice"
    assert rows.nth(0).locator("td").nth(0).inner_text() == "↳"
    assert rows.nth(1).locator("td").nth(0).inner_text() == "5"
    # Ivanov goes in-off the red with a double hit: a foul, his white off the table. Petrov
    # plays as the balls lie: a cannon (and a pot of the white) cannot happen; tapped, the
    # pad says why.
    pg.keyboard.press("Shift+KeyI")
    pg.keyboard.press("Shift+Digit2")
    pg.keyboard.press("Enter")
    tab.wait_version(8)
    assert tab.said()[-1] == "Foul, 2 away. Petrov leads 8–2"
    pg.click('#choice [data-option="as_they_lie"]')
    tab.wait_version(9)
    cannon = pg.locator('button[data-part="cannon"]')
    assert cannon.get_attribute("aria-disabled") == "true"
    assert cannon.get_attribute("title") == "The white is not on the table"
    cannon.click(force=True)  # aria-disabled: playwright would wait; a finger does not
    assert tab.text("#reason") == "The white is not on the table"
    assert tab.version() == 9
    tab.picture("web-marker-tablet")
    tab.close()


def test_from_hand_a_straight_aim_at_a_ball_in_baulk_is_warned_of_and_taken_back(
    browser: Any, server: Server
) -> None:
    made = httpx.post(
        server.base + "/api/games", json={"mode": "play", "players": ["Ann", "Bob"], "target": 20}
    ).json()
    game, token = made["id"], made["token"]
    headers = {"X-Game-Token": token}
    # Ann rolls her white gently down into baulk, touching nothing (a miss); Bob plays the
    # balls as they lie, from hand, with the white in baulk.
    soft = {"speed": 0.4, "aim": -90.0, "side": 0.0, "height": 0.0, "elevation": 0.0}
    r = httpx.post(
        f"{server.base}/api/games/{game}/play",
        json={"strike": soft, "placed": [0.95, 0.62]},
        headers=headers,
    )
    assert r.status_code == 200, r.text
    r = httpx.post(
        f"{server.base}/api/games/{game}/choice", json={"option": "as_they_lie"}, headers=headers
    )
    assert r.status_code == 200, r.text
    state = r.json()["game"]["state"]
    assert state["possible"]["in_baulk"] == ["white"]
    white = state["table"]["white"]
    tab = Tab(browser, server.base)
    pg = tab.open(f"/play/{game}#token={token}")
    version = tab.version()
    click_table(pg, 0.889 + 0.2, 0.70)  # Bob's yellow in the D, beside the white's line
    pg.wait_for_selector("#strike:not([disabled])")
    # Aim straight at the white: the page warns before the strike.
    box = pg.locator("#table").bounding_box()
    border = 0.045 + 0.08
    scale = box["width"] / (3.569 + 2 * border)
    pg.mouse.move(box["x"] + (0.70 + border) * scale, box["y"] + (1.089 + border) * scale)
    pg.mouse.down()
    pg.mouse.move(
        box["x"] + (white[1] + border) * scale, box["y"] + (white[0] + border) * scale, steps=4
    )
    pg.mouse.up()
    pg.wait_for_selector("#baulk-warn:not([hidden])")
    assert "The white is in baulk" in tab.text("#baulk-warn-text")
    pg.click("#strike")  # the first press only confirms the warning
    pg.wait_for_selector("#strike-anyway:not([hidden])")
    assert tab.version() == version
    pg.click("#strike-anyway")
    tab.wait_version(version + 1, timeout=60_000)
    # At one screen, Take back takes the last stroke (Bob's) back at once.
    pg.wait_for_selector("#takeback:not([hidden]):not([disabled])")
    pg.click("#takeback")
    tab.wait_version(version, timeout=30_000)
    assert lines(server, game)[-1]["in"]["type"] == "choice"
    tab.close()


def test_a_refused_queued_stroke_is_shown_in_the_pages_language_until_discarded(
    browser: Any, server: Server
) -> None:
    game, token = new_mark(server)
    tab = Tab(browser, server.base, locale="ru-RU", routed=True)
    pg = tab.page
    refusal = {
        "error": "impossible now: The yellow is not on the table",
        "code": "impossible",
        "params": {"reason": "not_on_table", "ball": "yellow"},
    }
    # The server "refuses" the taps by a switch: one route for the whole test, set before the
    # page opens (as in the test above: interception is never turned on or off while the
    # page may be sending).
    refusing = [True]
    pg.route(
        "**/api/games/*/mark",
        lambda route: (
            route.fulfill(status=422, content_type="application/json", body=json.dumps(refusal))
            if refusing[0]
            else route.continue_()
        ),
    )
    tab.open(f"/mark/{game}#token={token}")
    pg.keyboard.press("n")
    wait_queued(tab, 1)  # the tap is taken (else the key was not: a different failure)
    pg.wait_for_selector('#outbox li[data-state="rejected"]')
    assert "Такого удара быть не может: Жёлтый не на столе" in tab.text("#outbox li .detail")
    assert tab.version() == 1
    refusing[0] = False
    pg.click('#outbox [data-act="discard"]')
    pg.wait_for_selector("#outbox", state="hidden")
    assert len(lines(server, game)) == 1  # nothing was entered
    tab.close(allow_failed_loads=True)
