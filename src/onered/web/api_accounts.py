"""Signing in and out, one's account, clubs and their markers (``onered.web.accounts``).

* ``POST /api/account/signin`` ``{email, password}``: the session's cookies and
  ``{account, club, csrf_token}``; 401 ``bad_credentials`` for an unknown e-mail and a
  wrong password alike; 429 when the client or the account tried too often.
* ``POST /api/account/signout``: the session deleted on the server, the cookies cleared.
* ``GET /api/account/me``: ``{account, club, csrf_token}`` (``account`` null when signed out).
* ``POST /api/account/password`` ``{password, new_password}``: every session of the
  account ends; a new one is started for this browser.
* ``GET /api/clubs``: the clubs; ``POST /api/clubs`` ``{name, admin_email,
  admin_password}`` (a federation admin): a club and its first admin.
* ``GET /api/clubs/{club}/accounts`` (the club's admin): its admins and markers;
  ``POST /api/clubs/{club}/accounts`` ``{email, password, role}`` (``marker`` by default,
  or ``club_admin``); ``DELETE /api/clubs/{club}/accounts/{id}``.
* ``GET /signin``, ``GET /account``: the pages.

The first account is made on the command line (``onered account create``), never by a
page: see docs/accounts.md.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import Field

from onered.web.accounts import (
    SESSION_COOKIE,
    Account,
    AccountError,
    Accounts,
    Role,
    accounts_of,
    clear_session_cookies,
    current_account,
    require,
    session_of,
    set_session_cookies,
)
from onered.web.models import Body
from onered.web.pages import page

router = APIRouter()
Id = Annotated[str, PathParam(min_length=1, max_length=64)]


class SignIn(Body):
    email: str = Field(max_length=1000)
    password: str = Field(max_length=10_000)


class NewPassword(Body):
    password: str = Field(max_length=10_000)
    new_password: str = Field(max_length=10_000)


class NewClub(Body):
    name: str = Field(max_length=1000)
    admin_email: str = Field(max_length=1000)
    admin_password: str = Field(max_length=10_000)


class NewMember(Body):
    email: str = Field(max_length=1000)
    password: str = Field(max_length=10_000)
    role: Role = Role.MARKER


def _me(accounts: Accounts, account: Account | None, csrf: str | None) -> dict[str, object]:
    club = None
    if account is not None and account.club_id is not None:
        club = accounts.club(account.club_id).json()
    return {
        "account": None if account is None else account.json(),
        "club": club,
        "csrf_token": csrf,
    }


@router.post("/api/account/signin")
def sign_in(request: Request, body: SignIn) -> JSONResponse:
    accounts = accounts_of(request.app)
    client = request.client.host if request.client else None
    account = accounts.authenticate(body.email, body.password, client or "unknown")
    token, session = accounts.start_session(account)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        accounts.end_session(old)  # a new sign-in in this browser ends the one before
    response = JSONResponse(_me(accounts, account, session.csrf_token))
    set_session_cookies(request, response, token, session, accounts.clock())
    return response


@router.post("/api/account/signout", status_code=204)
def sign_out(request: Request) -> Response:
    accounts = accounts_of(request.app)
    response = Response(status_code=204)
    token = request.cookies.get(SESSION_COOKIE)
    if token and current_account(request) is not None:  # the CSRF token checked
        accounts.end_session(token)
    clear_session_cookies(request, response)
    return response


@router.get("/api/account/me")
def me(request: Request) -> dict[str, object]:
    session = session_of(request)
    accounts = accounts_of(request.app)
    if session is None:
        return _me(accounts, None, None)
    return _me(accounts, session.account, session.csrf_token)


@router.post("/api/account/password")
def change_password(request: Request, body: NewPassword) -> JSONResponse:
    account = require(request, Role.MARKER)
    accounts = accounts_of(request.app)
    client = request.client.host if request.client else None
    accounts.authenticate(account.email, body.password, client or "unknown")
    accounts.set_password(account.id, body.new_password)  # ends every session
    token, session = accounts.start_session(account)
    response = JSONResponse(_me(accounts, account, session.csrf_token))
    set_session_cookies(request, response, token, session, accounts.clock())
    return response


@router.get("/api/clubs")
def clubs(request: Request) -> dict[str, object]:
    return {"clubs": [c.json() for c in accounts_of(request.app).clubs()]}


@router.post("/api/clubs", status_code=201)
def new_club(request: Request, body: NewClub) -> dict[str, object]:
    require(request, Role.FEDERATION_ADMIN)
    accounts = accounts_of(request.app)
    club = accounts.create_club(body.name)
    try:
        admin = accounts.create_account(
            body.admin_email, body.admin_password, Role.CLUB_ADMIN, club.id
        )
    except AccountError:
        accounts.remove_club(club.id)  # no club without its admin
        raise
    return {"club": club.json(), "admin": admin.json()}


@router.get("/api/clubs/{club_id}")
def club(request: Request, club_id: Id) -> dict[str, object]:
    return accounts_of(request.app).club(club_id).json()


@router.get("/api/clubs/{club_id}/accounts")
def members(request: Request, club_id: Id) -> dict[str, object]:
    require(request, Role.CLUB_ADMIN, club_id)
    accounts = accounts_of(request.app)
    accounts.club(club_id)  # 404 for no such club
    return {"accounts": [a.json() for a in accounts.members(club_id)]}


@router.post("/api/clubs/{club_id}/accounts", status_code=201)
def new_member(request: Request, club_id: Id, body: NewMember) -> dict[str, object]:
    require(request, Role.CLUB_ADMIN, club_id)
    if body.role is Role.FEDERATION_ADMIN:
        raise AccountError(
            422, "a club adds its admins and markers only", "bad_role", {"role": body.role.value}
        )
    made = accounts_of(request.app).create_account(body.email, body.password, body.role, club_id)
    return made.json()


@router.delete("/api/clubs/{club_id}/accounts/{account_id}", status_code=204)
def remove_member(request: Request, club_id: Id, account_id: Id) -> Response:
    me_ = require(request, Role.CLUB_ADMIN, club_id)
    accounts = accounts_of(request.app)
    target = accounts.account(account_id)
    if target.club_id != club_id:
        raise AccountError(
            404, f"account {account_id!r}: not of this club", "no_account", {"id": account_id}
        )
    if target.id == me_.id:
        raise AccountError(409, "an admin cannot remove his own account", "remove_self")
    accounts.remove_account(account_id)
    return Response(status_code=204)


@router.get("/signin", include_in_schema=False)
def signin_page() -> HTMLResponse:
    return page("signin")


@router.get("/account", include_in_schema=False)
def account_page() -> HTMLResponse:
    return page("account")
