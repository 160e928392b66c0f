"""The coach page in a real browser: drag a ball, take one off the table, ask for advice,
see the suggestions drawn and listed, in English and in Russian."""

from __future__ import annotations

import re
from typing import Any

import pytest
import test_web_browser as shared
from test_web_browser import (  # the web tests' browser helpers (one copy of them)
    Page,
)

from web_support import Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser, page = shared.server, shared.browser, shared.page
BORDER = 0.045 + 0.08  # cushion and rail drawn around the cloth (common.js TableView)
LENGTH, WIDTH = 3.569, 1.778


def to_screen(pg: Any, p: tuple[float, float]) -> tuple[float, float]:
    """Page coordinates of table point ``p`` (the table is drawn baulk end on the left)."""
    box = pg.locator("#table").bounding_box()
    scale = box["width"] / (LENGTH + 2 * BORDER)
    return box["x"] + (p[1] + BORDER) * scale, box["y"] + (p[0] + BORDER) * scale


def drag(pg: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    pg.mouse.move(*start)
    pg.mouse.down()
    for k in range(1, 6):
        pg.mouse.move(
            start[0] + (end[0] - start[0]) * k / 5, start[1] + (end[1] - start[1]) * k / 5
        )
    pg.mouse.up()


def test_drag_a_ball_ask_for_advice_and_see_it_drawn(page: Page) -> None:
    pg = page.open("/coach")
    canvas = pg.locator("#table")
    assert canvas.get_attribute("data-red") == "1.18,2.75"
    drag(pg, to_screen(pg, (1.18, 2.75)), to_screen(pg, (1.3, 2.95)))
    assert canvas.get_attribute("data-red") == "1.30,2.95"
    # the yellow dragged off the table goes to the tray
    box = canvas.bounding_box()
    drag(pg, to_screen(pg, (1.35, 1.2)), (box["x"] + 40, box["y"] + box["height"] + 60))
    assert canvas.get_attribute("data-balls") == "white red"
    assert pg.locator('#tray [data-ball="yellow"]').count() == 1
    before = canvas.screenshot()
    pg.click("#advise")
    pg.wait_for_selector('#table[data-drawn="5"]', timeout=60_000)
    assert pg.locator("#suggestions li").count() == 5
    first = page.text('#suggestions li[data-rank="1"]')
    assert "beats no. 2: " in first or "as good as no. 2, " in first  # equal: neither beats
    assert "%" in first
    assert canvas.screenshot() != before  # the paths are drawn over the table
    page.screenshot("coach")
    # one suggestion singled out
    pg.click('#suggestions li[data-rank="2"]')
    assert pg.locator('#suggestions li.selected[data-rank="2"]').count() == 1
    # a written position opened
    assert re.fullmatch(
        r"W0\.62,2\.05/R1\.\d{1,3},2\.\d{1,3} W 0:0 0 0/0/0 - - play 1 100 0:0 WY .*",
        pg.locator("#written").input_value(),
    )
    pg.fill("#written", 'W0.6,2.2/Y0.4,1.2/R1.5,3.0 W 10:4 6 0/0/0 - - play 1 100 0:0 WY ["A","B"]')
    pg.click("#use-written")
    pg.wait_for_selector('#table[data-red="1.50,3.00"][data-drawn="5"]', timeout=60_000)
    assert pg.locator("#score-white").input_value() == "10"
    # the words in Russian
    pg.select_option("#lang", "ru")
    pg.wait_for_selector(
        '#suggestions li[data-rank="1"] >> text=/лучше № 2|равноценен № 2/', timeout=60_000
    )


def test_a_bad_position_is_explained(page: Page) -> None:
    pg = page.open("/coach")
    box = pg.locator("#table").bounding_box()
    drag(pg, to_screen(pg, (1.18, 2.75)), (box["x"] + 40, box["y"] + box["height"] + 60))
    pg.click("#advise")
    pg.wait_for_selector("#error:not([hidden])")
    assert "balls.red: the red must be on the table" in page.text("#error")
    # the browser logs the refused request: expected here
    page.errors[:] = [e for e in page.errors if "status of 422" not in e]


def test_a_stroke_of_a_played_game_opens_in_the_coach(page: Page, server: Server) -> None:
    import httpx

    r = httpx.post(
        server.base + "/api/games",
        json={
            "mode": "play",
            "players": ["Ivanov", "Petrov"],
            "opponent": "ai",
            "strength": "beginner",
            "breaker": 1,
        },
    )
    game, token = r.json()["id"], r.json()["token"]
    r = httpx.post(
        f"{server.base}/api/games/{game}/ai", json={}, headers={"X-Game-Token": token}, timeout=60
    )
    assert r.status_code == 200
    pg = page.open(f"/games/{game}")
    pg.click('#log a.coach-link >> text="1"')
    pg.wait_for_selector('#table[data-drawn="5"]', timeout=60_000)
    assert "/coach?game=" in pg.url
    assert "before stroke 1" in page.text("#notice")
    assert pg.locator("#table").get_attribute("data-balls") == "red"  # the opening: in hand
    assert not pg.locator("#hand-note").is_hidden()
    assert "Played in the game" in page.text('#suggestions li[data-rank="played"]')


def test_the_pages_table_shows_the_pockets_where_the_words_name_them(page: Page) -> None:
    from onered.coach.words import View, pocket_place
    from onered.table import POCKET_NAMES, POCKET_POINTS

    pg = page.open("/coach")
    # each pocket's centre drawn by the pages' own TableView, as a fraction across and down
    drawn = pg.evaluate(
        """async (points) => {
          const { TableView, tableGeometry } = await import("/static/common.js");
          const canvas = document.createElement("canvas");
          canvas.style.width = "800px";
          document.body.append(canvas);
          const view = new TableView(canvas, await tableGeometry());
          const out = {};
          for (const [name, p] of Object.entries(points)) {
            const [x, y] = view.px(p);
            out[name] = [x / canvas.width, y / canvas.height];
          }
          canvas.remove();
          return out;
        }""",
        {name: list(POCKET_POINTS[name]) for name in POCKET_NAMES},
    )
    for name in POCKET_NAMES:
        across, down = drawn[name]
        row = "top" if down < 1 / 3 else "bottom" if down > 2 / 3 else "middle"
        column = "left" if across < 1 / 3 else "right" if across > 2 / 3 else "middle"
        assert pocket_place(name, View.LANDSCAPE) == f"{row}_{column}", name
