"""A long game's pages in a real browser: the record page shows the latest page of the log
and loads earlier strokes when asked, down to the first; the spectators' page shows the
latest strokes; the export is still the whole game."""

from __future__ import annotations

import math

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import (  # the web tests' browser helpers (one copy of them)
    Page,
)

from onered.web.view import LOG_PAGE
from web_support import Server, random_game

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser, page = shared.server, shared.browser, shared.page


def test_a_long_games_record_shows_the_latest_strokes_and_loads_earlier_ones(
    page: Page, server: Server
) -> None:
    game = random_game(21, 2 * LOG_PAGE + 50)
    lines = len(game)
    r = httpx.post(server.base + "/api/import", content=game.export_protocol(), timeout=60)
    assert r.status_code == 201, r.text
    game_id = r.json()["id"]
    last_stroke = game.state.stroke_no

    pg = page.open(f"/games/{game_id}")
    rows = pg.locator("#log tbody tr")
    assert rows.count() == LOG_PAGE  # the latest page only
    assert page.text("#log tbody tr:last-child td:first-child") == str(last_stroke)
    assert pg.locator("#chart svg path[data-player]").count() == 2
    earlier = pg.locator("#earlier")
    assert earlier.is_visible()
    page.screenshot("record-long")

    pages = 0
    while earlier.is_visible():
        before = rows.count()
        earlier.click()
        pg.wait_for_function(  # the rows grow once the page is in
            "n => document.querySelectorAll('#log tbody tr').length > n", arg=before
        )
        pages += 1
    assert pages == math.ceil((lines - LOG_PAGE) / LOG_PAGE)  # the lines before, a page each
    assert rows.count() == lines - 1  # every line but the match line
    assert page.text("#log tbody tr:first-child td:first-child") == "1"
    assert page.text("#log tbody tr:last-child td:first-child") == str(last_stroke)

    exported = httpx.get(server.base + f"/api/games/{game_id}/export.jsonl").text
    assert len(exported.splitlines()) == lines

    watch = page.open(f"/watch/{game_id}")
    assert watch.locator("#log tbody tr").count() == 40
    assert page.text("#log tbody tr:first-child td:first-child") in (str(last_stroke), "↳")
