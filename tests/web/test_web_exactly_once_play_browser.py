"""Exactly-once on the play page (issue 18 item 1's leftovers), in Debian's chromium: a
take-back that reaches the server but whose answer is lost (``route.fetch()`` then
``route.abort()``) is sent again with the same ``Idempotency-Key`` and answered with the
first answer — one stroke taken back, not two, and no error left on the page."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import test_web_club_browser as club
from test_web_club_browser import Tab, lines

from web_support import Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = club.server, club.browser
SOFT = {"speed": 0.4, "aim": -90.0, "side": 0.0, "height": 0.0, "elevation": 0.0}


def _new_game(server: Server) -> tuple[str, str]:
    """A game at one screen: Ann's miss, Bob's choice to play the balls as they lie."""
    made = httpx.post(
        server.base + "/api/games", json={"mode": "play", "players": ["Ann", "Bob"], "target": 20}
    ).json()
    game, token = made["id"], made["token"]
    for path, body in (
        ("play", {"strike": SOFT, "placed": [0.95, 0.62]}),
        ("choice", {"option": "as_they_lie"}),
    ):
        r = httpx.post(
            f"{server.base}/api/games/{game}/{path}", json=body, headers={"X-Game-Token": token}
        )
        assert r.status_code == 200, r.text
    return game, token


def test_a_take_back_whose_answer_is_lost_is_made_once(browser: Any, server: Server) -> None:
    twin, twin_token = _new_game(server)  # taken back once, plainly: what to expect
    r = httpx.post(
        f"{server.base}/api/games/{twin}/takeback", json={}, headers={"X-Game-Token": twin_token}
    )
    assert r.status_code == 200, r.text
    expected = [x["in"] for x in lines(server, twin)]
    game, token = _new_game(server)
    tab = Tab(browser, server.base, routed=True)
    pg = tab.open(f"/play/{game}#token={token}")
    version = tab.version()
    keys: list[str] = []

    def lose_the_first_answer(route: Any) -> None:
        keys.append(route.request.headers.get("idempotency-key", ""))
        if len(keys) == 1:
            route.fetch()  # the server takes it back ...
            route.abort()  # ... and its answer is lost
        else:
            route.continue_()

    pg.route("**/api/games/*/takeback", lose_the_first_answer)
    pg.wait_for_selector("#takeback:not([hidden]):not([disabled])")
    pg.click("#takeback")
    pg.wait_for_function(
        f"() => document.body.dataset.version && document.body.dataset.version !== '{version}'",
        timeout=60_000,
    )
    assert len(keys) == 2, keys
    assert keys[0]
    assert keys[0] == keys[1]  # one key for the change, sent with each try
    assert [x["in"] for x in lines(server, game)] == expected  # taken back once, not twice
    assert (
        int(tab.version())
        == httpx.get(f"{server.base}/api/games/{game}").json()["state"]["version"]
    )
    assert not tab.text("#error").strip()  # the lost answer left no error behind
    tab.close(allow_failed_loads=True)
