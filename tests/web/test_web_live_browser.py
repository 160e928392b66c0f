"""The spectators' page follows a game through the server's event stream (live.js): a
stroke marked elsewhere appears without the page asking for it."""

from __future__ import annotations

import httpx
import pytest
from test_web_browser import Page, browser, page, server  # noqa: F401 - the same fixtures

from web_support import P1, P2, Server

pytestmark = pytest.mark.browser


def test_the_watch_page_is_pushed_each_stroke(page: Page, server: Server) -> None:  # noqa: F811
    made = httpx.post(
        server.base + "/api/games", json={"mode": "mark", "players": [P1, P2], "target": 50}
    ).json()
    game, token = made["id"], made["token"]
    pg = page.open(f"/watch/{game}")
    assert pg.get_attribute("body", "data-live") == "events"
    assert page.version() == 1
    for k, parts in enumerate((["pot_red"], ["pot_red"]), start=2):
        r = httpx.post(
            f"{server.base}/api/games/{game}/mark",
            json={"parts": parts, "after": k - 1},
            headers={"X-Game-Token": token},
        )
        assert r.status_code == 200, r.text
        pg.wait_for_selector(f"body[data-version='{k}']", timeout=5000)
    assert "6" in pg.inner_text("#scoreboard")
