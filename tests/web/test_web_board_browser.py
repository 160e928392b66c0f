"""The club's TV board following a match (issue 18 item 7) and coming back to live updates
after an outage, in Debian's chromium (Playwright, headless), at a TV's size (1920×1080).
Screenshots ``web-board-match*.png`` in ``$ONERED_SCREENSHOTS`` (``ONERED_SCREENSHOTS=docs``
remakes the pictures in ``docs/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_club_browser import Tab, mark

from web_support import P1, P2, Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = shared.server, shared.browser
TV = {"width": 1920, "height": 1080}


def new_match(server: Server) -> dict[str, Any]:
    """A best of 3 to 6 points, Petrov given 3, Ivanov breaking the first game."""
    body = {
        "players": [P1, P2],
        "best_of": 3,
        "target": 6,
        "handicap": [0, 3],
        "breaker": 0,
        "breaker_ball": "yellow",
    }
    r = httpx.post(server.base + "/api/matches", json=body)
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def side(tv: Tab, n: int, part: str) -> str:
    return tv.text(f'.board-player[data-player="{n}"] {part}')


def test_one_board_follows_a_best_of_three_from_game_to_game(browser: Any, server: Server) -> None:
    made = new_match(server)
    first = made["game"]
    tv = Tab(browser, server.base, viewport=TV, speech=True)
    loads: list[str] = []
    pg = tv.open(f"/board/{first['id']}")
    pg.on("load", lambda _: loads.append(pg.url))
    # the match's order: Ivanov left, Petrov right (given 3), no games won yet
    assert side(tv, 0, ".board-name") == P1
    assert side(tv, 1, ".board-name") == P2
    assert side(tv, 0, ".board-wins") == "0"
    assert side(tv, 1, ".board-score") == "3"
    assert side(tv, 1, ".board-handicap") == "handicap +3"
    assert pg.locator('.board-player[data-player="0"] .board-handicap').count() == 0
    assert "Game 1 of the match" in tv.text("#target")
    pg.wait_for_selector('body[data-follow="events"]')
    mark(server, first["id"], first["token"], parts=["pot_red"])
    tv.wait_version(2)
    tv.picture("web-board-match-game1")
    mark(server, first["id"], first["token"], parts=["pot_red"])  # Ivanov 6: game 1 his
    pg.wait_for_selector('.board-player[data-player="0"] .board-wins:text-is("1")')
    assert tv.text("#status") == f"Winner: {P1} · waiting for the next game"
    # the marker starts game 2 (Petrov breaks); the board moves to it by itself
    r = httpx.post(
        f"{server.base}/api/matches/{made['id']}/next",
        json={"after": 1},
        headers={"X-Game-Token": made["token"]},
    )
    assert r.status_code == 200, r.text
    second = r.json()["game"]
    pg.wait_for_selector('body[data-match-game="2"]')
    assert pg.url.endswith(f"/board/{second['id']}")
    assert side(tv, 0, ".board-name") == P1  # still left, though Petrov breaks now
    assert side(tv, 1, ".board-name") == P2
    assert side(tv, 0, ".board-score") == "0"
    assert side(tv, 1, ".board-score") == "3"
    assert pg.locator('.board-player[data-player="1"].at-table').count() == 1
    assert side(tv, 0, ".board-wins") == "1"
    assert side(tv, 1, ".board-wins") == "0"
    assert "Game 2 of the match" in tv.text("#target")
    assert tv.said()[-1] == f"Game 2 of the match. {P2} to play"  # the room hears it move on
    pg.wait_for_selector('body[data-follow="events"]')
    mark(server, second["id"], second["token"], parts=["pot_red"])  # Petrov 6: his game
    pg.wait_for_selector('.board-player[data-player="1"] .board-wins:text-is("1")')
    assert side(tv, 1, ".board-score") == "6"
    first_row = pg.locator(".board-last tbody tr").first.locator("td")
    assert first_row.nth(4).inner_text() == "0 : 6"  # the score in the sides' order
    tv.picture("web-board-match")
    assert loads == []  # one page, never reloaded
    pg.select_option("#lang", "ru")  # the same in Russian, counted by the Russian rules
    pg.wait_for_selector('html[lang="ru"] body[data-ready]')
    assert side(tv, 1, ".board-match") == "1 партия выиграна · фора +3"
    assert "Партия матча № 2" in tv.text("#target")
    pg.select_option("#lang", "en")
    pg.wait_for_selector('html[lang="en"] body[data-ready]')
    # a board opened for the match shows its latest game
    again = Tab(browser, server.base, viewport=TV)
    pg2 = again.open(f"/board/match/{made['id']}")
    pg2.wait_for_selector(f'body[data-game="{second["id"]}"]')
    assert again.text('.board-player[data-player="1"] .board-wins') == "1"
    again.close()
    tv.close()


def test_the_board_returns_to_live_updates_after_an_outage(browser: Any, server: Server) -> None:
    made = new_match(server)
    game = made["game"]
    tv = Tab(browser, server.base, viewport=TV, routed=True)
    # the stream answered 503 (a proxy while the server restarts): EventSource gives up on it
    tv.page.route("**/events*", lambda route: route.fulfill(status=503, body="down"))
    pg = tv.open(f"/board/{game['id']}")
    pg.wait_for_selector('body[data-follow="polling"]')
    mark(server, game["id"], game["token"], parts=["no_score"])
    tv.wait_version(2)  # polled meanwhile
    tv.page.unroute("**/events*")
    pg.wait_for_selector('body[data-follow="events"]', timeout=60_000)  # retried by itself
    mark(server, game["id"], game["token"], parts=["no_score"])
    tv.wait_version(3)
    tv.close(allow_failed_loads=True)


@pytest.mark.parametrize(
    ("device", "viewport"),
    [("phone", {"width": 390, "height": 844}), ("tablet", {"width": 1180, "height": 820})],
)
def test_a_match_board_on_a_phone_and_a_tablet_shows_the_match_without_overflow(
    browser: Any, server: Server, device: str, viewport: dict[str, int]
) -> None:
    """A player following the match's board on a phone, or the club's tablet: the games won
    and the handicap shown, the score moving live, nothing wider than the screen."""
    made = new_match(server)
    game = made["game"]
    tab = Tab(browser, server.base, viewport=viewport)
    pg = tab.open(f"/board/match/{made['id']}")
    pg.wait_for_selector('body[data-follow="events"]')
    assert side(tab, 1, ".board-handicap") == "handicap +3"
    assert side(tab, 0, ".board-wins") == "0"
    mark(server, game["id"], game["token"], parts=["pot_red"])
    tab.wait_version(2)
    assert side(tab, 0, ".board-score") == "3"
    width = pg.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the board is {width} px wide on a {device}"
    tab.picture(f"web-board-{device}")
    tab.close()


def test_the_room_shows_every_table_in_play(browser: Any, server: Server) -> None:
    made = new_match(server)
    game = made["game"]
    other = httpx.post(
        server.base + "/api/games", json={"players": ["Smith", "Jones"], "target": 100}
    ).json()
    mark(server, other["id"], other["token"], parts=["pot_red"])
    tv = Tab(browser, server.base, viewport=TV)
    pg = tv.open("/board/room")
    table = f'.room-table[data-game="{other["id"]}"]'
    pg.wait_for_selector(table)
    assert tv.text(f'{table} .room-row[data-player="0"] .score') == "3"
    assert tv.text(f"{table} .room-row.at-table .name") == "Smith"
    match_table = f'.room-table[data-game="{game["id"]}"]'
    assert tv.text(f'{match_table} .room-row[data-player="1"] .score') == "3"  # the handicap
    assert "Game 1 of the match" in tv.text(f"{match_table} .room-foot")
    mark(server, game["id"], game["token"], parts=["pot_red"])  # seen at the next look
    pg.wait_for_selector(f'{match_table} .room-row[data-player="0"] .score:text-is("3")')
    tv.picture("web-board-room")
    pg.click(table)
    pg.wait_for_url(f"**/board/{other['id']}")
    pg.wait_for_selector("body[data-ready]")
    tv.close()


def test_the_board_comes_back_live_after_the_server_was_down(browser: Any, tmp_path: Path) -> None:
    """The finding: after an outage of ~5 s the board polled for good. Now the server stops
    (a TV open does not hold it), the board falls back to polling, and once the server is back
    on the same port it returns to the pushed stream by itself."""
    own = Server(tmp_path / "data")
    own.start()
    try:
        made = new_match(own)
        game = made["game"]
        tv = Tab(browser, own.base, viewport=TV)
        pg = tv.open(f"/board/{game['id']}")
        pg.wait_for_selector('body[data-follow="events"]')
        own.stop()
        pg.wait_for_selector('body[data-follow="polling"]', timeout=60_000)
        pg.wait_for_selector("#live.off")
        own.start()
        pg.wait_for_selector('body[data-follow="events"]', timeout=90_000)
        mark(own, game["id"], game["token"], parts=["no_score"])
        tv.wait_version(2)
        assert tv.text("#live") == "● live"
        tv.close(allow_failed_loads=True)
    finally:
        own.stop()
