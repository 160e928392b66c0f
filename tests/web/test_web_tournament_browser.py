"""A tournament's pages in Debian's chromium (Playwright, headless), in English and Russian:
made on the list page, players entered, drawn and tables given by the organiser's buttons;
a match started from its fixture (the marker's QR code shown), marked to its end through the
API, its result on the bracket; a walkover clicked; a result typed in from paper; the club's
screen at a TV's size; the score sheets and the bracket printed to PDF (print CSS).
Screenshots at a phone's, a tablet's and a TV's size go to ``$ONERED_SCREENSHOTS``
(``ONERED_SCREENSHOTS=docs`` remakes the ``web-tournament-*.png`` pictures in docs); the
PDF beside them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import SHOTS, Page

from web_support import png_size

pytestmark = pytest.mark.browser
server, browser = shared.server, shared.browser

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1180, "height": 820}
TV = {"width": 1920, "height": 1080}
PLAYERS = {
    "en": ["Ivanov, 1900", "Petrov, 1850", "Sidorov, 1800", "Kozlov", "Smirnov, 1700", "Popov"],
    "ru": ["Иванов, 1900", "Петров, 1850", "Сидоров, 1800", "Козлов", "Смирнов, 1700", "Попов"],
}
#: Words of each language the pages must show.
WORDS = {
    "en": ("Bracket", "Quarter-finals", "Final", "Table 1"),
    "ru": ("Сетка", "Четвертьфиналы", "Финал", "Стол 1"),
}


def shot(page: Any, name: str, size: dict[str, int]) -> Path:
    """A full-page screenshot at ``size``, checked not blank."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size(size)
    page.wait_for_timeout(300)
    path = SHOTS / f"web-tournament-{name}.png"
    page.screenshot(path=str(path), full_page=True)
    width, height = png_size(path)
    assert width == size["width"]
    assert height >= size["height"] - 1
    assert path.stat().st_size > 15_000, "the picture is (nearly) blank"
    return path


def mark_to_the_end(base: str, game: str, token: str) -> None:
    for _ in range(100):
        r = httpx.post(
            f"{base}/api/games/{game}/mark",
            json={"parts": ["pot_red"]},
            headers={"X-Game-Token": token},
        )
        assert r.status_code == 200, r.text
        if r.json()["game"]["state"]["winner"]:
            return
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_run_a_tournament_in_the_browser_and_see_it_on_the_screen_and_paper(
    browser: Any, server: Any, lang: str
) -> None:
    locale = "ru-RU" if lang == "ru" else "en-GB"
    p = Page(browser, server.base, locale=locale)
    try:
        pg = p.open("/tournaments")
        pg.fill("#t-name", "Кубок клуба" if lang == "ru" else "Club cup")
        pg.fill("#t-best-of", "1")
        pg.fill("#t-target", "9")
        pg.click("#new button[type=submit]")
        pg.wait_for_url("**/tournaments/t*")
        pg.wait_for_selector("body[data-ready]")
        tid = pg.url.rstrip("/").split("/")[-1]
        pg.fill("#players-text", "\n".join(PLAYERS[lang]))
        pg.click("#players-form button[type=submit]")
        pg.wait_for_selector("#players li:nth-child(6)")
        pg.click("#draw")
        pg.wait_for_selector("#running:not([hidden])")
        pg.click("#assign")
        pg.wait_for_selector("#now-panel:not([hidden])")
        for word in WORDS[lang]:
            assert word in pg.inner_text("main"), word
        # the top seeds have byes; the first ready fixture's match is started here
        ready = pg.locator('#fixtures tr[data-state="ready"]')
        key = ready.first.get_attribute("data-key")
        ready.first.locator('button[data-act="start"]').click()
        pg.wait_for_selector("#started:not([hidden]) #marker-qr svg")
        # its marker marks it to the end (on his phone: here through the API)
        view = httpx.get(f"{server.base}/api/tournaments/{tid}").json()
        match_id = next(f for f in view["fixtures"] if f["key"] == key)["match"]["id"]
        match = httpx.get(f"{server.base}/api/matches/{match_id}").json()
        game = match["games"][0]["id"]
        game_token = pg.evaluate(f"() => localStorage.getItem('onered.token.{game}')")
        mark_to_the_end(server.base, game, game_token)
        pg.wait_for_selector(f'#fixtures tr[data-key="{key}"][data-state="done"]', timeout=20_000)
        # a walkover clicked on the other ready fixture
        other = pg.locator('#fixtures tr[data-state="ready"]').first
        other_key = other.get_attribute("data-key")
        other.locator('button[data-act="walkover-a"]').click()
        pg.wait_for_selector(f'#fixtures tr[data-key="{other_key}"][data-state="done"]')
        assert ("w/o" if lang == "en" else "н/я") in pg.inner_text("#bracket")
        pg.click("#assign")  # the next round's fixtures go to the tables freed
        pg.wait_for_selector('#now tr[data-key^="K-R2"]')
        # a semi-final played on paper: its result typed in (games won, the first's first)
        pg.once("dialog", lambda dialog: dialog.accept("0:1"))
        pg.locator('#fixtures tr[data-key="K-R2-2"] button[data-act="result"]').click()
        pg.wait_for_selector('#fixtures tr[data-key="K-R2-2"][data-state="done"]')
        assert "0 : 1" in pg.inner_text('#fixtures tr[data-key="K-R2-2"]')
        shot(pg, f"page-tablet-{lang}", TABLET)
        shot(pg, f"page-phone-{lang}", PHONE)
        # the club's screen
        pg.set_viewport_size(TV)
        pg.goto(f"{server.base}/tournaments/{tid}/screen")
        pg.wait_for_selector("body[data-ready]")
        pg.wait_for_selector(".screen-part .bracket")
        assert pg.locator(".screen-table img.qr").count() >= 1
        shot(pg, f"screen-tv-{lang}", TV)
        # the paper: score sheets with their QR codes, then the bracket
        pg.goto(f"{server.base}/tournaments/{tid}/print")
        pg.wait_for_selector("body[data-ready]")
        assert pg.locator(".score-sheet").count() >= 1
        shot(pg, f"print-{lang}", TABLET)
        pdf = SHOTS / f"web-tournament-print-{lang}.pdf"
        pg.emulate_media(media="print")
        pg.pdf(path=str(pdf), format="A4", print_background=True)
        assert pdf.read_bytes().startswith(b"%PDF")
        pages = pdf.read_bytes().count(b"/Type /Page\n") + pdf.read_bytes().count(b"/Type /Page/")
        assert pages == 0 or pages >= 2  # a sheet a page, the bracket on its own
    finally:
        p.close()
