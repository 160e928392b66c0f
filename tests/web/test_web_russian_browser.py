"""Issue 18, item 9 in a real browser (Debian's chromium through Playwright): a Russian page
counts by the Russian plural rule («1 партия выиграна», «2 партии выиграны», «0 партий
выиграно»), names a person in the nominative («Победа в матче: Ivanov») and links the coach
from home. Screenshot: ``web-match-ru.png`` in ``$ONERED_SCREENSHOTS``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import Page, score
from test_web_matches_browser import POT, mark_keys, new_game, picture

from onered.texts import PLURAL_FORMS, Lang, plural_index
from web_support import P1, P2, Server

pytestmark = pytest.mark.browser
#: The browser pages' fixtures (a server of this module's own, the browser).
server, browser = shared.server, shared.browser


@pytest.fixture
def ru(browser: Any, server: Server) -> Iterator[Page]:
    p = Page(browser, server.base, locale="ru-RU")
    yield p
    p.close()


def test_the_browsers_plural_rule_is_the_texts_rule(browser: Any) -> None:
    """The pages pick a counted label's form with Intl.PluralRules; the server with
    texts.plural_index: both say the same form for every number (a blank page: no content
    policy in the way)."""
    context = browser.new_context()
    blank = context.new_page()
    numbers = [*range(250), 1001, 1011, 1021, 1111, 12345]
    for lang in Lang:
        said = blank.evaluate(
            "([lang, ns]) => ns.map((n) => new Intl.PluralRules(lang).select(n))",
            [lang.value, numbers],
        )
        for n, category in zip(numbers, said, strict=True):
            expected = PLURAL_FORMS[plural_index(n, lang)]
            # English has two forms: texts call the second "few" (its .few is its .many)
            assert category == expected or (lang is Lang.EN and category == "other"), n
    context.close()


def test_home_links_the_coach(ru: Page) -> None:
    pg = ru.open("/")
    link = pg.locator("#coach-link")
    assert link.inner_text() == "Открыть тренера"
    assert link.get_attribute("href") == "/coach"
    link.click()
    pg.wait_for_url("**/coach")


def match_page(p: Page, url: str) -> Any:
    p.page.goto(url)
    p.page.wait_for_selector("body[data-ready]")
    return p.page


def test_a_russian_match_counts_games_won_and_names_the_winner(ru: Page) -> None:
    pg = ru.open("/")
    form = "#match-form"
    pg.fill(f"{form} input[name=p1]", P1)
    pg.fill(f"{form} input[name=p2]", P2)
    pg.fill(f"{form} input[name=best_of]", "3")
    pg.fill(f"{form} input[name=target]", "10")
    pg.click(f"{form} button[type=submit]")
    pg.wait_for_url("**/matches/**")
    pg.wait_for_selector("body[data-ready]")
    url = pg.url
    assert ru.text("#format") == "Матч до 2 побед (из 3 партий), партии до 10 очков"
    assert ru.text('.side[data-player="0"] .sub') == "партий выиграно"  # 0

    # game 1: Ivanov pots the red four times (12 of 10)
    pg.click('tr[data-number="1"] a[href*="/mark/"]')
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    mark_keys(ru, "rrrr")
    assert score(ru, 0) == "12"
    assert "3 очка" in ru.text("#last")  # the last stroke's points, counted

    match_page(ru, url)
    assert ru.text('.side[data-player="0"] .wins') == "1"
    assert ru.text('.side[data-player="0"] .sub') == "партия выиграна"
    assert ru.text('.side[data-player="1"] .sub') == "партий выиграно"

    # game 2: Petrov breaks and scores 3; Ivanov wins it and the match
    pg.click("#next")
    pg.wait_for_url("**/mark/**")
    pg.wait_for_selector("body[data-ready]")
    mark_keys(ru, "rn")
    mark_keys(ru, "rrrr")
    page = match_page(ru, url)
    page.wait_for_selector("#winner:not([hidden])")
    assert ru.text("#winner") == f"Победа в матче: {P1}"
    assert ru.text('.side[data-player="0"] .wins') == "2"
    assert ru.text('.side[data-player="0"] .sub') == "партии выиграны"
    picture(ru, "match-ru")


def test_a_computer_is_named_in_the_pages_language_and_requests_say_it(
    browser: Any, server: Server
) -> None:
    """A game against the computer made on an English page: the player's page in Russian
    names it «Компьютер (профессионал)»; the page asks the server in its own language
    (Accept-Language), whatever the browser's."""
    game = new_game(server, [P1, "Computer (pro)"], [POT])
    assert game
    p = Page(browser, server.base, locale="en-GB")
    pg = p.open(f"/players/{P1}")
    assert p.text("tr[data-game] td a") == "Computer (pro)"
    asked: list[str] = []
    pg.on(
        "request",
        lambda r: (
            asked.append(r.headers.get("accept-language", "")) if "/api/players/" in r.url else None
        ),
    )
    pg.select_option("#lang", "ru")
    pg.wait_for_selector('tr[data-game] td a:text-is("Компьютер (профессионал)")')
    pg.reload()  # the page's language is remembered; its requests now say it
    pg.wait_for_selector("body[data-ready]")
    assert p.text("tr[data-game] td a") == "Компьютер (профессионал)"
    assert "ru" in asked
    p.close()


#: A voice that writes down what it is asked to say (body[data-said]): headless chromium
#: has no voices to listen to.
FAKE_VOICE = """
(() => {
  const said = [];
  Object.defineProperty(window, "SpeechSynthesisUtterance", {
    configurable: true, value: class { constructor(text) { this.text = text; } },
  });
  Object.defineProperty(window, "speechSynthesis", {
    configurable: true,
    value: {
      speak(u) { said.push(u.text); document.body.dataset.said = said.join(" | "); },
      cancel() {}, getVoices() { return []; },
    },
  });
  localStorage.setItem("onered.speech", "on");
})();
"""


def test_an_undo_is_said_aloud_in_the_pages_language(ru: Page, server: Server) -> None:
    made = httpx.post(
        server.base + "/api/games", json={"mode": "mark", "players": [P1, P2], "target": 60}
    ).json()
    ru.context.add_init_script(FAKE_VOICE)
    pg = ru.page
    pg.goto(f"{server.base}/mark/{made['id']}#token={made['token']}")
    pg.wait_for_selector("body[data-ready]")
    ru.press("r")
    assert "3" in (pg.get_attribute("body", "data-said") or "")
    ru.press("u")
    pg.wait_for_selector('body[data-said*="Удар отменён"]')
    assert score(ru, 0) == "0"
