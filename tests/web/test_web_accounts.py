"""Accounts (issue 23, item 1): signing in and out, sessions in cookies, CSRF, roles, the
rate of sign-ins, the clubs' accounts; ``onered account`` on the command line."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher, Type, extract_parameters
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.cli import main as cli_main
from onered.web.accounts import (
    CSRF_COOKIE,
    HASHER,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Accounts,
    Role,
    accounts_of,
    token_hash,
)
from onered.web.db import Database
from web_support import P1, P2, Api, Reply

#: Hashing as cheap as Argon2id allows: the tests sign in many times (the cost is a
#: parameter; the server's own is checked in test_the_servers_hash_is_argon2id).
CHEAP = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
PASSWORD = "correct horse battery"
ADMIN = "admin@club.example"
MARKER = "marker@club.example"


class Clock:
    """Unix seconds the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Browser:
    """A client that keeps its cookies, as a browser does (the Api helper keeps none)."""

    api: Api
    cookies: dict[str, str] = field(default_factory=dict)
    scheme: str = "http"

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        data: dict[str, str] | None = None,
        csrf: bool | str = True,
        lang: str = "en",
    ) -> Reply:
        async def one() -> Reply:
            transport = httpx.ASGITransport(app=self.api.app)
            base = f"{self.scheme}://test"
            async with httpx.AsyncClient(transport=transport, base_url=base) as client:
                headers = {"Accept-Language": lang}
                if self.cookies:
                    headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
                if csrf is True and CSRF_COOKIE in self.cookies:
                    headers["X-CSRF-Token"] = self.cookies[CSRF_COOKIE]
                elif isinstance(csrf, str):
                    headers["X-CSRF-Token"] = csrf
                r = await client.request(method, path, json=json, data=data, headers=headers)
                for raw in r.headers.get_list("set-cookie"):
                    jar: SimpleCookie = SimpleCookie()
                    jar.load(raw)
                    for name, morsel in jar.items():
                        if morsel["max-age"] == "0" or not morsel.value:
                            self.cookies.pop(name, None)
                        else:
                            self.cookies[name] = morsel.value
                try:
                    body = r.json()
                except ValueError:
                    body = None
                return Reply(r.status_code, body, r.text, r.headers)

        return asyncio.run(one())

    def sign_in(self, email: str, password: str = PASSWORD) -> Reply:
        return self.request(
            "POST", "/api/account/signin", json={"email": email, "password": password}
        )


@dataclass
class Club:
    api: Api
    accounts: Accounts
    clock: Clock
    club_id: str


@pytest.fixture
def club(api: Api) -> Iterator[Club]:
    """The app with cheap hashing, a moved clock, a club with its admin and a marker."""
    db: Database = api.app.state.db
    clock = Clock()
    accounts = Accounts(db, clock=clock, hasher=CHEAP)
    api.app.state.accounts = accounts
    made = accounts.create_club("Central club")
    accounts.create_account(ADMIN, PASSWORD, Role.CLUB_ADMIN, made.id)
    accounts.create_account(MARKER, PASSWORD, Role.MARKER, made.id)
    return Club(api, accounts, clock, made.id)


def signed_in(club: Club, email: str = ADMIN) -> Browser:
    b = Browser(club.api)
    r = b.sign_in(email)
    assert r.status == 200, r.text
    return b


def test_signing_in_sets_an_httponly_lax_session_cookie_and_me_says_who(club: Club) -> None:
    b = Browser(club.api)
    r = b.sign_in(ADMIN.upper())  # the e-mail matches in any case
    assert r.status == 200, r.text
    assert r.body["account"]["email"] == ADMIN
    assert r.body["account"]["role"] == "club_admin"
    assert r.body["club"]["name"] == "Central club"
    cookies = r.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith(SESSION_COOKIE + "="))
    assert "HttpOnly" in session
    assert "samesite=lax" in session.lower()
    assert "Secure" not in session  # plain http (a loopback test)
    csrf = next(c for c in cookies if c.startswith(CSRF_COOKIE + "="))
    assert "HttpOnly" not in csrf  # the pages' scripts read it
    assert b.cookies[CSRF_COOKIE] == r.body["csrf_token"]
    me = b.request("GET", "/api/account/me")
    assert me.body["account"]["email"] == ADMIN
    assert Browser(club.api).request("GET", "/api/account/me").body["account"] is None


def test_over_https_the_cookies_are_secure(club: Club) -> None:
    b = Browser(club.api, scheme="https")
    r = b.sign_in(ADMIN)
    assert r.status == 200
    for cookie in r.headers.get_list("set-cookie"):
        assert "Secure" in cookie


def test_a_wrong_password_and_an_unknown_account_get_the_same_answer(club: Club) -> None:
    wrong = Browser(club.api).sign_in(ADMIN, "not the password")
    unknown = Browser(club.api).sign_in("nobody@club.example", PASSWORD)
    assert wrong.status == unknown.status == 401
    assert wrong.body == unknown.body
    assert wrong.body["code"] == "bad_credentials"
    assert "set-cookie" not in wrong.headers
    assert "set-cookie" not in unknown.headers
    ru = Browser(club.api).request(
        "POST", "/api/account/signin", json={"email": ADMIN, "password": "x" * 12}, lang="ru"
    )
    assert ru.body["message"] == "Неверная эл. почта или пароль."


def test_a_change_with_the_session_cookie_but_no_csrf_token_is_refused(club: Club) -> None:
    b = signed_in(club)
    body = {"name": P1, "club_id": club.club_id}
    for lang, words in (("en", "security code"), ("ru", "защитного кода")):
        r = b.request("POST", "/api/register", json=body, csrf=False, lang=lang)
        assert r.status == 403, r.text
        assert r.body["code"] == "csrf"
        assert words in r.body["message"]
    r = b.request("POST", "/api/register", json=body, csrf="0" * 64)
    assert (r.status, r.body["code"]) == (403, "csrf")
    # the token of another session is no better
    other = signed_in(club, MARKER)
    r = b.request("POST", "/api/register", json=body, csrf=other.cookies[CSRF_COOKIE])
    assert (r.status, r.body["code"]) == (403, "csrf")
    assert b.request("GET", "/api/register").body["total"] == 0
    r = b.request("POST", "/api/register", json=body)  # with the token
    assert r.status == 201, r.text
    # signing out is a change too
    assert b.request("POST", "/api/account/signout", csrf=False).status == 403


def test_a_form_sends_the_csrf_token_in_a_hidden_field(club: Club) -> None:
    b = signed_in(club)
    fields = {"name": P1, "club_id": club.club_id, "rating": "1500"}
    r = b.request("POST", "/register", data=fields, csrf=False)
    assert (r.status, r.body["code"]) == (403, "csrf")
    r = b.request("POST", "/register", data={**fields, "csrf_token": "nope"}, csrf=False)
    assert r.status == 403
    r = b.request(
        "POST", "/register", data={**fields, "csrf_token": b.cookies[CSRF_COOKIE]}, csrf=False
    )
    assert r.status == 303
    assert r.headers["location"] == "/register"
    found = b.request("GET", "/api/register").body["players"]
    assert [(p["name"], p["rating"]) for p in found] == [(P1, 1500.0)]


def test_another_sites_form_cannot_sign_anyone_in(club: Club) -> None:
    """Sign-in takes JSON only: a form or plain text (what another site's page may post
    without asking) is refused, so no page elsewhere signs a visitor into its account."""
    for kind, content in (
        ("application/x-www-form-urlencoded", f"email={ADMIN}&password={PASSWORD}"),
        ("text/plain", f'{{"email": "{ADMIN}", "password": "{PASSWORD}"}}'),
    ):
        r = club.api.post("/api/account/signin", content=content, headers={"Content-Type": kind})
        assert r.status == 422, kind
        assert "set-cookie" not in r.headers


def test_requests_without_the_cookie_are_unaffected(club: Club) -> None:
    """Casual play keeps its per-game secrets: no account, no CSRF token; a signed-in
    browser's game changes need none either (the cookie gives them no authority)."""
    api = club.api
    game, token = api.new_mark()
    assert api.mark(game, token, parts=["pot_red"]).status == 200
    b = signed_in(club)
    r = b.request("POST", "/api/games", json={"mode": "mark", "players": [P1, P2]}, csrf=False)
    assert r.status == 201, r.text
    r = b.request("POST", "/api/register", json={"name": P2, "club_id": club.club_id}, csrf=False)
    assert r.status == 403  # but what the session allows needs its token


def test_a_session_expires(club: Club) -> None:
    b = signed_in(club)
    club.clock.now += SESSION_SECONDS - 1
    assert b.request("GET", "/api/account/me").body["account"] is not None
    club.clock.now += 2
    assert b.request("GET", "/api/account/me").body["account"] is None
    r = b.request("POST", "/api/register", json={"name": P1, "club_id": club.club_id})
    assert (r.status, r.body["code"]) == (401, "signed_out")


def test_signing_out_ends_the_session_on_the_server(club: Club) -> None:
    b = signed_in(club)
    kept = dict(b.cookies)
    r = b.request("POST", "/api/account/signout")
    assert r.status == 204
    assert SESSION_COOKIE not in b.cookies
    with club.accounts.db.read() as c:
        rows = c.execute("SELECT id_hash FROM sessions").fetchall()
    assert token_hash(kept[SESSION_COOKIE]) not in {r[0] for r in rows}
    replay = Browser(club.api, cookies=kept)  # the old cookie, kept by a thief
    assert replay.request("GET", "/api/account/me").body["account"] is None
    r = replay.request("POST", "/api/register", json={"name": P1, "club_id": club.club_id})
    assert r.status == 401


def test_passwords_and_session_tokens_are_never_stored_or_logged_in_clear(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    b = Browser(club.api)
    b.sign_in(ADMIN, "a wrong password, logged?")
    b.sign_in(ADMIN)
    token = b.cookies[SESSION_COOKIE]
    dump = []
    with club.accounts.db.read() as c:
        for table in ("accounts", "sessions", "clubs"):
            dump += [str(v) for r in c.execute(f"SELECT * FROM {table}").fetchall() for v in r]
        hashes = [r[0] for r in c.execute("SELECT password_hash FROM accounts").fetchall()]
    text = " ".join(dump)
    for secret in (PASSWORD, "a wrong password", token):
        assert secret not in text
        assert secret not in caplog.text
    assert all(h.startswith("$argon2id$") for h in hashes)


def test_the_servers_hash_is_argon2id_with_the_librarys_cost() -> None:
    params = extract_parameters(HASHER.hash("a password of ours"))
    assert params.type is Type.ID
    assert (params.time_cost, params.memory_cost, params.parallelism) == (3, 65536, 4)


def test_sign_ins_are_rate_limited_per_account(club: Club) -> None:
    b = Browser(club.api)
    answers = [b.sign_in(MARKER, "wrong password!").status for _ in range(6)]
    assert answers[:5] == [401] * 5
    assert answers[5] == 429
    r = b.sign_in(MARKER)  # even the right password waits
    assert r.status == 429
    assert int(r.headers["retry-after"]) >= 1
    assert b.sign_in(ADMIN).status == 200  # another account is not held up


def test_roles_a_marker_may_not_keep_the_register_nor_the_clubs_accounts(club: Club) -> None:
    m = signed_in(club, MARKER)
    r = m.request("POST", "/api/register", json={"name": P1, "club_id": club.club_id})
    assert (r.status, r.body["code"]) == (403, "forbidden")
    r = m.request("GET", f"/api/clubs/{club.club_id}/accounts")
    assert r.status == 403
    r = m.request(
        "POST", "/api/clubs", json={"name": "X", "admin_email": "x@x.x", "admin_password": PASSWORD}
    )
    assert r.status == 403


def test_a_club_admin_adds_and_removes_markers_of_his_club_only(club: Club) -> None:
    a = signed_in(club)
    url = f"/api/clubs/{club.club_id}/accounts"
    r = a.request("POST", url, json={"email": "new@club.example", "password": PASSWORD})
    assert r.status == 201, r.text
    assert r.body["role"] == "marker"
    assert r.body["club_id"] == club.club_id
    new_id = r.body["id"]
    r = a.request("POST", url, json={"email": "NEW@club.example", "password": PASSWORD})
    assert (r.status, r.body["code"]) == (409, "email_taken")
    r = a.request("POST", url, json={"email": "short@club.example", "password": "short"})
    assert (r.status, r.body["code"]) == (422, "weak_password")
    r = a.request(
        "POST",
        url,
        json={"email": "f@club.example", "password": PASSWORD, "role": "federation_admin"},
    )
    assert (r.status, r.body["code"]) == (422, "bad_role")
    emails = [x["email"] for x in a.request("GET", url).body["accounts"]]
    assert sorted(emails) == sorted([ADMIN, MARKER, "new@club.example"])
    assert Browser(club.api).sign_in("new@club.example").status == 200
    # another club's admin sees and changes nothing here
    other = club.accounts.create_club("Riverside")
    club.accounts.create_account("river@club.example", PASSWORD, Role.CLUB_ADMIN, other.id)
    o = signed_in(club, "river@club.example")
    assert o.request("GET", url).status == 403
    assert o.request("DELETE", f"{url}/{new_id}").status == 403
    me_id = a.request("GET", "/api/account/me").body["account"]["id"]
    r = a.request("DELETE", f"{url}/{me_id}")
    assert (r.status, r.body["code"]) == (409, "remove_self")
    assert a.request("DELETE", f"{url}/{new_id}").status == 204
    assert Browser(club.api).sign_in("new@club.example").status == 401


def test_a_federation_admin_makes_a_club_with_its_admin(club: Club) -> None:
    club.accounts.create_account("chief@fed.example", PASSWORD, Role.FEDERATION_ADMIN, None)
    f = signed_in(club, "chief@fed.example")
    body = {"name": "North club", "admin_email": "north@club.example", "admin_password": PASSWORD}
    r = f.request("POST", "/api/clubs", json=body)
    assert r.status == 201, r.text
    assert r.body["admin"]["role"] == "club_admin"
    r = f.request(
        "POST", "/api/clubs", json={**body, "name": "north  CLUB", "admin_email": "n2@x.example"}
    )
    assert (r.status, r.body["code"]) == (409, "club_taken")
    r = f.request("POST", "/api/clubs", json={**body, "name": "South"})  # the e-mail is taken
    assert (r.status, r.body["code"]) == (409, "email_taken")
    names = [c["name"] for c in Browser(club.api).request("GET", "/api/clubs").body["clubs"]]
    assert names == ["Central club", "North club"]  # no club left without its admin


def test_changing_the_password_ends_the_other_sessions(club: Club) -> None:
    a, other = signed_in(club), signed_in(club)
    r = a.request(
        "POST",
        "/api/account/password",
        json={"password": PASSWORD, "new_password": "another long one"},
    )
    assert r.status == 200, r.text
    assert a.request("GET", "/api/account/me").body["account"]["email"] == ADMIN
    assert other.request("GET", "/api/account/me").body["account"] is None
    assert Browser(club.api).sign_in(ADMIN).status == 401
    assert Browser(club.api).sign_in(ADMIN, "another long one").status == 200


def test_the_pages_are_served(club: Club) -> None:
    for path in ("/signin", "/account", "/register"):
        r = club.api.get(path)
        assert r.status == 200
        assert "<main" in r.text
    assert 'href="/account"' in club.api.get("/").text  # the header's link


# --- onered account --------------------------------------------------------------------


def test_the_cli_makes_the_first_admin_with_the_password_from_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    secret = tmp_path / "pw"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    argv = ["account", "create", "--club", "Central club", "--admin", ADMIN]
    assert cli_main([*argv, "--data", str(data), "--password-file", str(secret)]) == 0
    assert "club_admin admin@club.example of club 'Central club': made" in capsys.readouterr().out
    # a marker, the password on standard input (not a terminal)
    monkeypatch.setattr("sys.stdin", _Stdin(PASSWORD + "\n"))
    argv = ["account", "create", "--club", "central CLUB", "--marker", MARKER, "--data", str(data)]
    assert cli_main(argv) == 0
    assert cli_main(["account", "list", "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "Central club" in out
    assert MARKER in out
    assert PASSWORD not in out
    db = Database.in_folder(data)
    accounts = Accounts(db)
    assert accounts.authenticate(ADMIN, PASSWORD).role is Role.CLUB_ADMIN
    db.close()
    # refusals: a marker of no such club, a short password
    monkeypatch.setattr("sys.stdin", _Stdin(PASSWORD + "\n"))
    argv = ["--lang", "en", "account", "create", "--club", "Nowhere", "--marker", "x@y.example"]
    assert cli_main([*argv, "--data", str(data)]) == 2
    assert "no such club" in capsys.readouterr().err.lower()


def test_the_cli_reads_no_password_from_its_arguments() -> None:
    from onered.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["account", "create", "--admin", ADMIN, "--password", "x"])


def test_the_app_made_without_a_hasher_of_its_own_uses_the_servers(api: Api) -> None:
    assert accounts_of(api.app).hasher is HASHER


class _Stdin:
    """Standard input that is not a terminal."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        return self.lines.pop(0) if self.lines else ""


# --- the CSRF check as a seam ---------------------------------------------------------------


def _request(method: str, header: str | None, field: str | None = None) -> Any:
    from starlette.requests import Request

    headers = [] if header is None else [(b"x-csrf-token", header.encode("latin-1"))]
    state = {} if field is None else {"csrf_token": field}
    return Request({"type": "http", "method": method, "headers": headers, "state": state})


@settings(max_examples=200)
@given(
    token=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=80),
    method=st.sampled_from(["POST", "PUT", "PATCH", "DELETE"]),
    in_form=st.booleans(),
)
def test_only_the_sessions_own_token_passes(token: str, method: str, in_form: bool) -> None:
    """Property: a change passes the check with the session's token (header or form field)
    and with nothing else; a read needs none."""
    from onered.web.accounts import Account, AccountError, Session, check_csrf, csrf_token

    real = csrf_token("the session's token")
    session = Session(Account("a", ADMIN, Role.MARKER, "c", 0.0), real, 1e12)
    sent = _request(method, None if in_form else token, token if in_form else None)
    if token == real:
        check_csrf(sent, session)
    else:
        with pytest.raises(AccountError) as caught:
            check_csrf(sent, session)
        assert caught.value.code == "csrf"
    check_csrf(_request("GET", None), session)
    check_csrf(_request(method, None if in_form else real, real if in_form else None), session)


def test_the_cli_says_when_the_web_extra_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from onered.cli import account

    monkeypatch.setattr(account, "NEEDS", ("onered_no_such_package",))
    assert cli_main(["account", "list", "--data", str(tmp_path / "data")]) == 2
    assert "pip install 'onered[web]'" in capsys.readouterr().err


def test_on_a_terminal_the_password_is_asked_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    from onered.cli.account import read_password
    from onered.web.accounts import AccountError

    answers = iter([PASSWORD, PASSWORD, PASSWORD, "another one"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert read_password(None, prompt=True) == PASSWORD
    with pytest.raises(AccountError) as caught:
        read_password(None, prompt=True)
    assert caught.value.code == "passwords_differ"
