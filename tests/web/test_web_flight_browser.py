"""A jump stroke on the play page in a real browser (chromium, as tests/web/test_web_browser.py):
the last stroke's paths stay drawn, the cue ball's flights dashed over their shadow and its
roll on the bed not; the side view of the cue ball's last stroke opens, shows its height and
says it in words, in English and in Russian. The picture is saved as ``web-play-jump.png``
(into ``$ONERED_SCREENSHOTS``: ``ONERED_SCREENSHOTS=docs`` remakes ``docs/web-play-jump.png``)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import (  # the web tests' browser helpers (one copy of them)
    SHOTS,
    Page,
    click_table,
)

from web_support import Server, png_size

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = shared.server, shared.browser


def new_game(server: Server) -> tuple[str, str]:
    """A played game between two people at one screen: its id and secret."""
    body = {"mode": "play", "players": ["Ann", "Bob"], "target": 30}
    made = httpx.post(server.base + "/api/games", json=body).json()
    return made["id"], made["token"]


def slide(pg: Any, selector: str, value: float, step: float) -> None:
    """Set a range input by keyboard, as a person would: Home, then steps up to ``value``."""
    pg.focus(selector)
    pg.keyboard.press("Home")
    low = float(pg.locator(selector).input_value())
    for _ in range(round((value - low) / step)):
        pg.keyboard.press("ArrowRight")


@pytest.mark.parametrize(
    ("locale", "summary", "said"),
    [
        ("en-GB", "Side view of the cue ball's last stroke", "Highest: "),
        ("ru-RU", "Вид сбоку: биток в последнем ударе", "Выше всего: "),
    ],
)
def test_a_jump_is_drawn_dashed_and_seen_from_the_side(
    browser: Any,
    server: Server,
    locale: str,
    summary: str,
    said: str,
) -> None:
    page = Page(browser, server.base, locale=locale)
    pg = page.page
    game, token = new_game(server)
    pg.goto(f"{server.base}/play/{game}#token={token}")
    pg.wait_for_selector("body[data-ready]")
    assert pg.locator("#side-panel").is_hidden()  # no stroke yet
    click_table(pg, 0.95, 0.62)  # the white in the D, aimed at the red
    slide(pg, "#elevation", 45, 1)
    slide(pg, "#speed", 4.0, 0.05)
    assert pg.locator("#elev-out").inner_text() == "45°"
    pg.click("#strike")
    pg.wait_for_selector('body[data-busy="false"]:not([data-version="1"])', timeout=60_000)
    table = pg.locator("#table")
    assert int(table.get_attribute("data-air-pieces") or 0) > 0  # drawn dashed
    assert int(table.get_attribute("data-ground-pieces") or 0) > 0  # drawn solid
    assert pg.locator("#side-panel").is_visible()
    assert pg.locator("#side-details summary").inner_text() == summary
    if pg.locator("#side-details").get_attribute("open") is None:
        pg.click("#side-details summary")
    chart = pg.locator("#side-view svg.side-chart")
    chart.wait_for()
    assert chart.get_attribute("role") == "img"
    assert chart.get_attribute("aria-label")
    assert float(chart.get_attribute("data-highest") or 0) > 0.01  # it left the slate
    assert pg.locator("#side-view .side-path").count() == 1
    assert pg.locator("#side-view .cushion-height").count() == 1
    assert pg.locator("#side-summary").inner_text().startswith(said)
    # the path can be hidden, and stays hidden on the next visit
    pg.click("#showpath")
    assert table.get_attribute("data-air-pieces") == "0"
    pg.click("#showpath")
    assert int(table.get_attribute("data-air-pieces") or 0) > 0
    if locale == "en-GB":
        SHOTS.mkdir(parents=True, exist_ok=True)
        path = SHOTS / "web-play-jump.png"
        pg.locator("main").screenshot(path=str(path))
        width, _ = png_size(path)
        assert width > 600
        assert path.stat().st_size > 20_000, "the picture is (nearly) blank"
    page.close()
