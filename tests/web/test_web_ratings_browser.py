"""The ratings' page in Debian's chromium (Playwright, headless): matches marked to their end
through the API show up in the ranking and in a player's history and chart, a handicap is
proposed from the form, and the page speaks Russian. Its screenshot is written to
``$ONERED_SCREENSHOTS`` (``screenshot-ratings.png``; docs/web-ratings.png is one)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import Page

from web_support import Server

pytestmark = pytest.mark.browser
server, browser = shared.server, shared.browser

#: The matches, in order: (winner, loser), each best of one to 6 points.
RESULTS = [
    ("Ann", "Bob"),
    ("Ann", "Cid"),
    ("Bob", "Cid"),
    ("Ann", "Dan"),
    ("Cid", "Dan"),
    ("Ann", "Bob"),
    ("Bob", "Dan"),
    ("Dan", "Ann"),
    ("Ann", "Cid"),
]


def play_match(base: str, winner: str, loser: str) -> None:
    made = httpx.post(
        base + "/api/matches",
        json={"players": [winner, loser], "best_of": 1, "target": 6, "breaker": 0},
    )
    assert made.status_code == 201, made.text
    game = made.json()["game"]
    for _ in range(2):  # the breaker pots the red twice: 6 points, the match
        r = httpx.post(
            base + f"/api/games/{game['id']}/mark",
            json={"parts": ["pot_red"]},
            headers={"X-Game-Token": game["token"]},
        )
        assert r.status_code == 200, r.text


def test_the_ranking_a_players_history_and_a_proposal(browser: Any, server: Server) -> None:
    for winner, loser in RESULTS:
        play_match(server.base, winner, loser)
    page = Page(browser, server.base)
    pg = page.open("/ratings/Ann")
    rows = pg.locator("#ranking tbody tr")
    assert rows.count() == 4
    assert pg.locator("#ranking tbody tr").first.get_attribute("data-player") == "Ann"
    assert pg.locator("#player-name").inner_text() == "Ann"
    assert pg.locator("#history tbody tr").count() == 2 * 6  # overall and at 6: her 6 matches
    assert pg.locator("svg.rating-chart polyline").count() == 1
    assert pg.locator(".rating-targets a").count() == 2  # all targets, games to 6
    pg.fill("#hc-a", "Ann")
    pg.fill("#hc-b", "Dan")
    pg.fill("#hc-target", "100")
    pg.click("#handicap-form button")
    pg.wait_for_selector("#handicap-out:has-text('starts each game with')")
    proposal = pg.locator("#handicap-out").inner_text()
    assert "Dan starts each game with" in proposal
    page.screenshot("ratings")
    pg.select_option("#lang", "ru")
    pg.wait_for_selector("#ranking-panel h1:has-text('Рейтинги')")
    assert "фора игроку Dan" in pg.locator("#handicap-out").inner_text()
    page.close()
