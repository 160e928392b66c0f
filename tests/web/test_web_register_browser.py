"""Issue 23, item 1 in a real browser (Debian's chromium through Playwright): a club's admin
signs in, adds a player to the register and signs out, in Russian and in English; a wrong
password is told in the page's language. Screenshots ``register-ru.png`` and
``register-en.png`` in ``$ONERED_SCREENSHOTS``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import test_web_browser as shared
from test_web_browser import Page

from onered.cli import main as cli_main
from web_support import Server

pytestmark = pytest.mark.browser
browser = shared.browser

ADMIN = "admin@club.example"
ADMIN2 = "second.admin@club.example"
PASSWORD = "correct horse battery"

#: The words each language shows (checked on the page).
WORDS = {
    "ru": {
        "signin": "Вход",
        "bad": "Неверная эл. почта или пароль.",
        "added": "Игрок {name} внесён в реестр.",
        "total": "1 игрок",
        "signout": "Выйти",
    },
    "en": {
        "signin": "Sign in",
        "bad": "The e-mail or the password is wrong.",
        "added": "{name} is in the register.",
        "total": "1 player",
        "signout": "Sign out",
    },
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``onered serve`` on a data folder whose club's admin ``onered account`` made."""
    folder = tmp_path_factory.mktemp("accounts")
    secret = folder / "pw"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    data = folder / "data"
    argv = ["account", "create", "--club", "Central club", "--admin", ADMIN, "--data", str(data)]
    assert cli_main([*argv, "--password-file", str(secret)]) == 0
    # a second admin for the account page's test: 5 sign-ins a minute per account
    argv = ["account", "create", "--club", "Central club", "--admin", ADMIN2, "--data", str(data)]
    assert cli_main([*argv, "--password-file", str(secret)]) == 0
    s = Server(data)
    s.start()
    yield s
    s.stop()


def sign_in(p: Page, password: str) -> Any:
    pg = p.open("/signin")
    pg.fill("#email", ADMIN)
    pg.fill("#password", password)
    pg.click("#signin")
    return pg


@pytest.mark.parametrize(
    ("locale", "lang", "name"), [("ru-RU", "ru", "Иванов Пётр"), ("en-GB", "en", "Ivanov")]
)
def test_an_admin_signs_in_and_adds_a_player(
    browser: Any, server: Server, locale: str, lang: str, name: str
) -> None:
    words = WORDS[lang]
    p = Page(browser, server.base, locale=locale)
    try:
        pg = p.open("/register")
        assert pg.locator("#add-panel").is_hidden()  # signed out: the register is read only
        pg = sign_in(p, "not the password")
        pg.wait_for_selector("#error:not([hidden])")
        assert p.text("#error").startswith(words["bad"])
        assert p.text("h1") == words["signin"]
        # the browser logs the refused request (401) itself: expected here, and only that
        assert [e for e in p.errors if "status of 401" not in e] == []
        p.errors.clear()

        pg.fill("#password", PASSWORD)
        pg.click("#signin")
        pg.wait_for_url("**/account")
        pg.wait_for_selector("body[data-ready]")
        assert ADMIN in p.text("#who")
        assert p.text("#club-name") == "Central club"

        pg = p.open("/register")
        pg.wait_for_selector("#add-panel:not([hidden])")
        loads = pg.get_attribute("body", "data-loads")
        pg.fill("#add-name", name)
        pg.fill("#add-rating", "1500")
        pg.click("#add")
        pg.wait_for_selector(f'body:not([data-loads="{loads}"])')
        assert p.text("#notice") == words["added"].format(name=name)
        loads = pg.get_attribute("body", "data-loads")
        pg.fill("#q", name.split()[0].upper())  # found by a part of the name, any case
        pg.wait_for_selector(f'body:not([data-loads="{loads}"])')
        assert p.text("#total") == words["total"]
        row = pg.locator("#players tbody tr").first
        assert name in row.inner_text()
        assert "1500" in row.inner_text()
        p.screenshot(f"register-{lang}")

        pg = p.open("/account")
        assert p.text("#signout") == words["signout"]
        pg.click("#signout")
        pg.wait_for_url("**/signin")
        pg = p.open("/register")
        assert pg.locator("#add-panel").is_hidden()
    finally:
        p.close()
    # the player stays, for everyone to read
    found = httpx.get(f"{server.base}/api/register", params={"q": name}).json()
    assert [x["name"] for x in found["players"]] == [name]


def test_an_admin_adds_a_marker_on_the_account_page(browser: Any, server: Server) -> None:
    p = Page(browser, server.base, locale="en-GB")
    try:
        pg = p.open("/account")  # signed out: sent to sign in, and back here after
        pg.wait_for_url("**/signin?next=/account")
        pg.wait_for_selector("body[data-ready]")
        pg.fill("#email", ADMIN2)
        pg.fill("#password", PASSWORD)
        pg.click("#signin")
        pg.wait_for_url("**/account")
        pg.wait_for_selector("#members tbody tr")
        form = "#member-form"
        pg.fill(f"{form} input[name=email]", "marker@club.example")
        pg.fill(f"{form} input[name=password]", "a marker's password")
        pg.click(f"{form} button[type=submit]")
        pg.wait_for_selector('#members tr:has-text("marker@club.example")')
        assert "marker" in p.text('#members tr:has-text("marker@club.example")')
        p.screenshot("account-en")
    finally:
        p.close()
