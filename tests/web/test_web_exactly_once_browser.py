"""Exactly-once taps in Debian's chromium (Playwright, headless): the marker's taps reach the
server but their answers are lost at random points (``route.fetch()`` then ``route.abort()``)
and the page is reloaded at a random point; at the end the stored game is the taps, each
once, in order (issue 18, item 1)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
import test_web_club_browser as club
from playwright.sync_api import Error as PlaywrightError
from test_web_club_browser import Tab, lines, new_mark

from web_support import Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = club.server, club.browser
#: The marker's keys and what each enters: a cannon (the visit goes on) or no score.
KEYS = {"c": True, "n": False}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_lost_answers_and_a_reload_leave_the_taps_each_once_in_order(
    browser: Any, server: Server, seed: int
) -> None:
    rng = random.Random(seed)
    # no score first: the opponent's ball comes onto the table, so a cannon is possible
    taps = ["n"] + [rng.choice("cn") for _ in range(7)]
    reload_after = rng.randrange(1, len(taps))
    game, token = new_mark(server)
    tab = Tab(browser, server.base, routed=True)
    pg = tab.open(f"/mark/{game}#token={token}")
    lost: list[str] = []

    def lose_some(route: Any) -> None:
        """Let the request reach the server; drop the first answer, then about every other
        one (each change at most once, so the retry timer stays at its first step). Under
        load the page sends several taps in one request, so a coin alone could lose none."""
        key = route.request.headers.get("idempotency-key", "")
        assert key, "a change is sent without its Idempotency-Key"
        try:
            if key not in lost and (not lost or rng.random() < 0.5):
                lost.append(key)
                route.fetch()
                route.abort()
            else:
                route.continue_()
        except PlaywrightError:  # the page went away (the reload) while it was sent
            pass

    pg.route("**/api/games/*/mark", lose_some)
    for n, key in enumerate(taps, start=1):
        pg.keyboard.press(key)
        if n == 1:  # a cannon is judged possible once the first visit is over
            tab.wait_version(2, timeout=30_000)
        pg.wait_for_timeout(rng.randrange(0, 400))
        if n == reload_after:
            pg.reload()
            pg.wait_for_selector("body[data-ready]")
    tab.wait_version(1 + len(taps), timeout=60_000)
    pg.wait_for_selector("#outbox", state="hidden", timeout=60_000)
    assert lost, "no answer was lost: the test proved nothing"
    strokes = [e["in"] for e in lines(server, game)[1:]]
    assert [s.get("cannon", False) for s in strokes] == [KEYS[k] for k in taps]
    assert pg.locator('#outbox li[data-state="stale"]').count() == 0
    view = httpx.get(f"{server.base}/api/games/{game}").json()
    assert view["state"]["version"] == 1 + len(taps)
    tab.close(allow_failed_loads=True)
