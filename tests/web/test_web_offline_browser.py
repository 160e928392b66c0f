"""The offline shell in Debian's chromium (Playwright, headless; issue 18, item 2): the
marker's page, once a service worker controls it, is reloaded while the browser is offline
(``context.set_offline``) at random points: it opens — not the browser's own error page —
with the last score the server confirmed, marked so, and the taps waiting to be sent; back
online, the queue is sent and the stored game is the taps, each once, in order.

Chromium's offline emulation now and then lets a request that it reports failed (right after
a reload) reach the server: the page hears no answer, as when an answer is lost on the way
back, so the server may hold a tap the page still shows waiting; its Idempotency-Key keeps it
once when the queue is sent again. The page's score is therefore compared with the last one
the server confirmed to it, not with the server's of the moment.

The screenshots of the offline page at a phone's and a tablet's size are written to
``$ONERED_SCREENSHOTS`` (``ONERED_SCREENSHOTS=docs`` remakes ``docs/web-offline-phone.png``
and ``docs/web-offline-tablet.png``)."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
import pytest
import test_web_club_browser as club
from test_web_club_browser import TABLET, Tab, lines, new_mark

from web_support import Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = club.server, club.browser
PHONE = {"width": 390, "height": 844}
#: The marker's keys and what each enters: a cannon (the visit goes on) or no score.
KEYS = {"c": True, "n": False}
#: The offline note's first words and its count of waiting strokes, by the page's language.
WORDS = {
    "en-GB": ("Offline — last confirmed score", "{n} strokes wait to be sent"),
    "ru-RU": ("Нет связи — последний подтверждённый счёт", "ждут отправки"),
}


def score(server: Server, game: str) -> list[int]:
    view = httpx.get(f"{server.base}/api/games/{game}").json()
    result: list[int] = view["state"]["score"]
    return result


def page_score(tab: Tab) -> list[int]:
    return [int(tab.text(f'.player[data-player="{i}"] .player-score')) for i in (0, 1)]


def reload_offline(
    tab: Tab, server: Server, game: str, queued: int, locale: str, confirmed: list[int]
) -> None:
    """Reload while offline: the page opens from the worker with the last score the server
    confirmed to it (``confirmed``) and ``queued`` taps waiting."""
    pg = tab.page
    pg.reload()
    pg.wait_for_selector("body[data-ready]")
    assert pg.url.startswith(f"{server.base}/mark/{game}")
    pg.wait_for_selector('body[data-offline="1"]')
    pg.wait_for_selector(f'body[data-queued="{queued}"]')
    title, waiting = WORDS[locale]
    note = tab.text("#offline")
    assert note.startswith(title)
    if queued > 1:
        assert waiting.format(n=queued) in note
    assert page_score(tab) == confirmed
    assert pg.locator("#scoreboard.unconfirmed").count() == 1
    assert pg.locator("#outbox li.queued").count() == queued
    assert "null" not in tab.text("#outbox")


@pytest.mark.parametrize(("seed", "locale"), [(1, "en-GB"), (2, "ru-RU"), (3, "en-GB")])
def test_a_reload_while_offline_opens_the_page_with_its_queue_and_sends_it_once_back(
    browser: Any, server: Server, seed: int, locale: str
) -> None:
    rng = random.Random(seed)
    # no score first: the opponent's ball comes onto the table, so a cannon is possible
    online = ["n", "c"] + [rng.choice("cn") for _ in range(rng.randrange(0, 3))]
    away = [rng.choice("cn") for _ in range(rng.randrange(4, 7))]
    reloads = set(rng.sample(range(1, len(away)), 2)) | {len(away)}
    game, token = new_mark(server)
    tab = Tab(browser, server.base, locale=locale)
    pg = tab.open(f"/mark/{game}#token={token}")
    pg.wait_for_selector('html[data-shell="ready"]')  # a service worker controls the page
    for n, key in enumerate(online, start=2):
        pg.keyboard.press(key)
        tab.wait_version(n)
    confirmed = score(server, game)
    assert page_score(tab) == confirmed

    tab.context.set_offline(True)
    for n, key in enumerate(away, start=1):
        pg.keyboard.press(key)
        pg.wait_for_selector(f'body[data-queued="{n}"]')
        if n in reloads:
            reload_offline(tab, server, game, n, locale, confirmed)
    if seed == 1:  # the offline page as a marker sees it
        for name, size in (("web-offline-phone", PHONE), ("web-offline-tablet", TABLET)):
            pg.set_viewport_size(size)
            pg.wait_for_timeout(200)  # the table's canvas is drawn again on resize
            tab.picture(name)
        pg.set_viewport_size(TABLET)

    tab.context.set_offline(False)  # the page sends its queue by itself
    taps = online + away
    tab.wait_version(1 + len(taps), timeout=60_000)
    pg.wait_for_selector("#outbox", state="hidden", timeout=60_000)
    pg.wait_for_selector('body[data-offline="0"]')
    strokes = [e["in"] for e in lines(server, game)[1:]]
    assert [s.get("cannon", False) for s in strokes] == [KEYS[k] for k in taps]
    assert page_score(tab) == score(server, game)
    assert pg.locator("#scoreboard.unconfirmed").count() == 0
    tab.close(allow_failed_loads=True)


def test_a_game_never_opened_here_says_the_server_cannot_be_reached(
    browser: Any, server: Server
) -> None:
    """Offline, a game this device never opened has no last view: the page opens from the
    worker and says so, instead of the browser's own error page."""
    seen, _ = new_mark(server)
    other, _ = new_mark(server)
    tab = Tab(browser, server.base)
    pg = tab.open(f"/mark/{seen}")
    pg.wait_for_selector('html[data-shell="ready"]')
    tab.context.set_offline(True)
    pg.goto(f"{server.base}/mark/{other}")
    pg.wait_for_selector("#error:not([hidden])")
    assert pg.get_attribute("#error", "data-code") == "network"
    tab.context.set_offline(False)
    tab.close(allow_failed_loads=True)


def test_the_views_kept_on_a_device_are_bounded(browser: Any, server: Server) -> None:
    """Each game's page keeps its last confirmed view; only the latest 8 games' are kept,
    each with at most the 60 last lines of its log (the storage is the outbox's first)."""
    games = [new_mark(server) for _ in range(10)]
    long_game, long_token = games[-1]
    for k in range(70):  # 70 strokes: no score, then cannons and no scores in turn
        club.mark(server, long_game, long_token, parts=["cannon" if k % 2 else "no_score"])
    tab = Tab(browser, server.base)
    for game, token in games:
        tab.open(f"/mark/{game}#token={token}")
    stored = {
        item["name"]: item["value"]
        for origin in tab.context.storage_state()["origins"]
        if origin["origin"] == server.base
        for item in origin["localStorage"]
    }
    views = {k.removeprefix("onered.view."): v for k, v in stored.items() if "onered.view." in k}
    assert set(views) == {game for game, _ in games[-8:]}
    assert json.loads(stored["onered.views"]) == [game for game, _ in reversed(games[-8:])]
    kept = json.loads(views[long_game])["view"]
    assert len(kept["log"]) == 60
    assert kept["log_from"] == 71 - 60
    assert kept["state"]["version"] == 71
    # Offline, the long game opens from its 60 kept lines; back online its taps go in once.
    pg = tab.page
    pg.wait_for_selector('html[data-shell="ready"]')
    confirmed = score(server, long_game)
    tab.context.set_offline(True)
    for n, key in enumerate("nc", start=1):
        pg.keyboard.press(key)
        pg.wait_for_selector(f'body[data-queued="{n}"]')
    pg.reload()
    pg.wait_for_selector('body[data-offline="1"]')
    assert pg.locator("#log tbody tr").count() == 60
    assert tab.text("#log tbody tr td") == "70"  # the newest first
    assert page_score(tab) == confirmed
    tab.context.set_offline(False)
    tab.wait_version(73)
    strokes = [e["in"] for e in lines(server, long_game)[1:]]
    assert [s.get("cannon", False) for s in strokes[-2:]] == [False, True]
    assert len(strokes) == 72
    tab.close(allow_failed_loads=True)
