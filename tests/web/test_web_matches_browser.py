"""Issue 10, items 3 and 7 in a real browser (Debian's chromium through Playwright): a marked
match from the home page to its winner, a player's page with its plots, and the home page's
search, my games and delete. Screenshots: ``web-match.png``, ``web-player.png`` in
``$ONERED_SCREENSHOTS`` (``ONERED_SCREENSHOTS=docs`` remakes the pictures in ``docs/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import SHOTS, Page, score

from web_support import P1, P2, Server, png_size

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser, a page).
server, browser, page = shared.server, shared.browser, shared.page


def picture(p: Page, name: str) -> Path:
    """A full-page screenshot ``web-<name>.png``, checked to be a real picture."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"web-{name}.png"
    p.page.screenshot(path=str(path), full_page=True)
    width, height = png_size(path)
    assert width == 1280
    assert height >= 400
    assert path.stat().st_size > 20_000, "the picture is (nearly) blank"
    return path


def mark_keys(p: Page, keys: str) -> None:
    for key in keys:
        p.press(key)


def test_a_marked_best_of_three_with_a_handicap_to_the_winner(page: Page) -> None:
    pg = page.open("/")
    form = "#match-form"
    pg.fill(f"{form} input[name=p1]", P1)
    pg.fill(f"{form} input[name=p2]", P2)
    pg.fill(f"{form} input[name=best_of]", "3")
    pg.fill(f"{form} input[name=target]", "10")
    pg.fill(f"{form} input[name=h1]", "3")
    assert page.text("#match-h1") == f"{P2}'s handicap (points)"
    pg.click(f"{form} button[type=submit]")
    pg.wait_for_url("**/matches/**")
    pg.wait_for_selector("body[data-ready]")
    match_url = pg.url
    assert page.text("#format") == "Best of 3 (first to 2 games), games to 10 points"
    assert page.text("#handicap") == f"Handicap: {P2} +3"
    assert page.text('.side[data-player="0"] .wins') == "0"

    # game 1: Ivanov breaks; Petrov starts on 3; Ivanov pots the red four times (12)
    pg.click('tr[data-number="1"] a:has-text("Marker\'s page")')
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    assert score(page, 0) == "0"
    assert score(page, 1) == "3"  # the handicap in the opening score
    mark_keys(page, "rrrr")
    assert score(page, 0) == "12"
    assert page.text("#match-link") == "The match: game 1"

    pg.click("#match-link")
    pg.wait_for_url(match_url)
    pg.wait_for_selector("body[data-ready]")
    assert page.text('.side[data-player="0"] .wins') == "1"
    assert page.text('tr[data-number="1"] td.winner-cell') == P1
    # game 2: Petrov breaks (the break alternates), again given 3
    pg.click("#next")
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    assert page.text('.player[data-player="0"] .player-name') == P2
    assert score(page, 0) == "3"
    mark_keys(page, "rn")  # Petrov 6, then nothing: Ivanov's visit
    mark_keys(page, "rrrr")  # Ivanov 12: the game and the match
    assert score(page, 1) == "12"

    pg.goto(match_url)
    pg.wait_for_selector("body[data-ready]")
    pg.wait_for_selector("#winner:not([hidden])")
    assert page.text("#winner") == f"Match winner: {P1}"
    assert page.text('.side[data-player="0"] .wins') == "2"
    assert page.text('.side[data-player="1"] .wins') == "0"
    assert pg.locator("#games tbody tr").count() == 2
    assert page.text('tr[data-number="2"] .score') == "12 : 6"
    assert pg.locator("#next").is_hidden()
    clock = page.text("#clock")
    assert clock.count(":") >= 1
    picture(page, "match")


def new_game(server: Server, players: list[str], taps: list[dict[str, Any]]) -> str:
    made = httpx.post(
        server.base + "/api/games", json={"mode": "mark", "players": players, "target": 60}
    ).json()
    for tap in taps:
        r = httpx.post(
            f"{server.base}/api/games/{made['id']}/mark",
            json=tap,
            headers={"X-Game-Token": made["token"]},
        )
        assert r.status_code == 200, r.text
    return str(made["id"])


POT = {"parts": ["pot_red"]}
CANNON = {"parts": ["cannon"]}
NOTHING = {"parts": ["no_score"]}
MISS = {"parts": [], "fouls": ["push"]}


def test_a_players_page_plots_his_games(page: Page, server: Server) -> None:
    me, other = "Smirnov", "Kuznetsov"
    # five games of Smirnov's: won, lost, won, unfinished, won (a break is at most 15 pots
    # in a row, 2.9: cannons between them)
    plans = [
        [POT, NOTHING, POT, NOTHING, *[POT, CANNON] * 11, POT],
        [POT, POT, NOTHING, POT, NOTHING, MISS, *[POT, CANNON] * 11],
        [NOTHING, *[POT] * 3, NOTHING, *[POT, POT, CANNON] * 7, POT, POT],
        [POT, MISS, POT, CANNON, POT, NOTHING, POT, POT, NOTHING],
        [*[POT] * 7, NOTHING, CANNON, NOTHING, *[POT, CANNON] * 8],
    ]
    games = [new_game(server, [me, other], plan) for plan in plans]
    pg = page.open(f"/players/{me}")
    assert page.text("#name") == me
    assert page.text("#summary").startswith("Games 5 · won 3 ·")
    assert pg.locator("figure.game-chart svg").count() == 3
    assert pg.locator("figure.game-chart").nth(0).locator("circle").count() == 5
    assert pg.locator("#games tbody tr").count() == 5
    assert pg.locator("#games tbody tr").first.get_attribute("data-game") == games[-1]
    assert page.text("#breaks a.break") == "62"
    picture(page, "player")
    pg.click(f'#games tbody tr[data-game="{games[0]}"] a:has-text("{other}")')
    pg.wait_for_url(f"**/players/{other}")
    pg.wait_for_selector("body[data-ready]")
    assert page.text("#name") == other


def test_home_search_my_games_and_delete(page: Page, server: Server) -> None:
    pg = page.open("/")
    pg.fill("#mark-form input[name=p1]", "Orlov")
    pg.fill("#mark-form input[name=p2]", "Belov")
    pg.click("#mark-form button[type=submit]")
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    mine = pg.url.rsplit("/", 1)[-1].split("#")[0]
    page.open("/")
    pg.fill("#find-form input[name=player]", "orl")
    pg.click("#find-form button[type=submit]")
    pg.wait_for_selector('#page:text-is("1–1 of 1")')  # the search's answer, not the list's
    assert pg.locator("#games tbody tr").count() == 1
    assert pg.locator(f'#games tr[data-game="{mine}"]').count() == 1
    pg.click("#find-form button[type=reset]")
    pg.click("#tab-mine")
    pg.wait_for_selector("#mine-hint:not([hidden])")
    pg.wait_for_selector('#page:text-is("1–1 of 1")')  # only the game this browser made
    assert pg.locator(f'#games tr[data-game="{mine}"]').count() == 1
    pg.once("dialog", lambda d: d.accept())
    pg.click(f'#games tr[data-game="{mine}"] button.delete')
    pg.wait_for_selector(f'#games tr[data-game="{mine}"]', state="detached")
    assert page.text("#games") == "No games found."
    assert httpx.get(f"{server.base}/api/games/{mine}").status_code == 404
