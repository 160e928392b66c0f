"""Accounts: clubs, the people who sign in (a federation's admins, a club's admin and its
markers), their passwords and their sessions; the checks other routes use.

- Passwords are hashed with argon2-cffi's Argon2id (:data:`HASHER`: the library's
  defaults, RFC 9106's second recommended profile: 64 MiB, 3 passes, 4 lanes); the clear
  password is never stored nor logged. A sign-in with an unknown e-mail still verifies a
  hash, and both failures are the one answer ``bad_credentials``.
- A session is a random token (32 bytes) in an HttpOnly, SameSite=Lax cookie
  (:data:`SESSION_COOKIE`; Secure when the request came over https); the server keeps
  only its SHA-256, with an expiry (:data:`SESSION_SECONDS`). Signing out deletes it.
- CSRF: every state-changing request (not GET/HEAD/OPTIONS) whose authority comes from the
  session cookie must carry the session's CSRF token: the ``X-CSRF-Token`` header (the
  pages' scripts read it from the :data:`CSRF_COOKIE`, which scripts may read) or a form's
  hidden field ``csrf_token`` (:class:`CsrfFormField` takes it out of the body). The token
  is an HMAC of the session token, compared in constant time. A request without the
  session cookie (the per-game secrets of casual play) is not concerned.
- :func:`current_account` and :func:`require` are what routes use (FastAPI dependencies or
  plain calls with the request).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from onered.web.db import ConstraintError, Database
from onered.web.errors import ApiError
from onered.web.limits import RateLimiter, client_of

#: The session's cookie (HttpOnly: scripts never see it).
SESSION_COOKIE = "onered_session"
#: The session's CSRF token, in a cookie the pages' scripts read to send it back as a header.
CSRF_COOKIE = "onered_csrf"
#: The header a page's script sends the CSRF token in.
CSRF_HEADER = "X-CSRF-Token"
#: The hidden field a form sends the CSRF token in.
CSRF_FIELD = "csrf_token"
#: How long a session lasts from the sign-in (a club's day and then some), in seconds.
SESSION_SECONDS = 12 * 3600
#: Sign-ins allowed a minute, per client address and per account (a token bucket each).
SIGNINS_PER_MINUTE_PER_CLIENT = 20.0
SIGNINS_PER_MINUTE_PER_ACCOUNT = 5.0
#: Shortest and longest password accepted (the longest bounds the hashing's work).
MIN_PASSWORD = 10
MAX_PASSWORD = 1024
#: Longest e-mail address (RFC 5321's path limit).
MAX_EMAIL = 254
#: Longest club name.
MAX_CLUB = 80
#: Methods that change nothing (no CSRF token needed).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

#: Argon2id with argon2-cffi's defaults (time_cost 3, memory 64 MiB, parallelism 4).
HASHER = PasswordHasher()


class Role(Enum):
    """What an account may do. Each role may do what the ones below it may; a club's roles
    only in their own club."""

    FEDERATION_ADMIN = "federation_admin"
    CLUB_ADMIN = "club_admin"
    MARKER = "marker"

    @property
    def rank(self) -> int:
        """Higher is more (marker 1, club admin 2, federation admin 3)."""
        return {Role.MARKER: 1, Role.CLUB_ADMIN: 2, Role.FEDERATION_ADMIN: 3}[self]


@dataclass(frozen=True, slots=True)
class Club:
    """A club: its ``id`` (text), ``name`` and when it was made (Unix seconds)."""

    id: str
    name: str
    created: float

    def json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "created": self.created}


@dataclass(frozen=True, slots=True)
class Account:
    """Someone who signs in: ``email`` (as written; matched casefolded), ``role``, the
    ``club_id`` (``None`` for a federation admin)."""

    id: str
    email: str
    role: Role
    club_id: str | None
    created: float

    def may(self, role: Role, club_id: str | None = None) -> bool:
        """Whether this account may act as ``role`` (in club ``club_id`` when given): a
        federation admin everywhere, a club's accounts in their club, each role what the
        lower roles may."""
        if self.role is Role.FEDERATION_ADMIN:
            return True
        if self.role.rank < role.rank:
            return False
        return club_id is None or club_id == self.club_id

    def json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "email": self.email,
            "role": self.role.value,
            "club_id": self.club_id,
            "created": self.created,
        }


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in session: its ``account``, its ``csrf_token`` and when it ``expires``."""

    account: Account
    csrf_token: str
    expires: float


class AccountError(ApiError):
    """A refusal about accounts: ``code`` says which (``bad_credentials``, ``signed_out``,
    ``forbidden``, ``csrf``, ``email_taken`` ...)."""

    default_code = "account"


def signed_out() -> AccountError:
    return AccountError(401, "sign in first", "signed_out")


def forbidden(role: Role, club_id: str | None) -> AccountError:
    where = f" of club {club_id}" if club_id else ""
    return AccountError(
        403,
        f"this needs a {role.value} account{where}",
        "forbidden",
        {"role": role.value, **({"club": club_id} if club_id else {})},
    )


def bad_credentials() -> AccountError:
    return AccountError(401, "the e-mail or the password is wrong", "bad_credentials")


def csrf_refused() -> AccountError:
    return AccountError(
        403,
        f"a change made with the session cookie needs its CSRF token ({CSRF_HEADER} header "
        f"or the form's {CSRF_FIELD} field)",
        "csrf",
    )


def club_taken(name: str) -> AccountError:
    return AccountError(409, f"club {name!r} exists already", "club_taken", {"name": name})


def email_taken(email: str) -> AccountError:
    return AccountError(
        409, f"{email}: an account with this e-mail exists", "email_taken", {"email": email}
    )


def no_club(club_id: str) -> AccountError:
    return AccountError(404, f"club {club_id!r}: no such club", "no_club", {"id": club_id})


def no_account(account_id: str) -> AccountError:
    return AccountError(
        404, f"account {account_id!r}: no such account", "no_account", {"id": account_id}
    )


def email_key(raw: object, where: str = "email") -> tuple[str, str]:
    """An e-mail address as written (trimmed) and its key (casefolded), or the refusal."""
    text = raw.strip() if isinstance(raw, str) else ""
    local, at, domain = text.rpartition("@")
    if (
        not at
        or not local
        or not domain
        or len(text) > MAX_EMAIL
        or any(c.isspace() or ord(c) < 32 for c in text)
    ):
        raise AccountError(422, f"{where}: not an e-mail address", "bad_email", {"where": where})
    return text, text.casefold()


def club_name(raw: object, where: str = "club") -> tuple[str, str]:
    """A club's name (white space made single) and its key (casefolded), or the refusal."""
    text = " ".join(raw.split()) if isinstance(raw, str) else ""
    if not text or len(text) > MAX_CLUB or any(ord(c) < 32 for c in text):
        raise AccountError(
            422,
            f"{where}: a club's name is 1 to {MAX_CLUB} characters",
            "bad_club_name",
            {"where": where, "max": MAX_CLUB},
        )
    return text, text.casefold()


def check_password(raw: object, where: str = "password") -> str:
    """A password long enough (:data:`MIN_PASSWORD`) and not absurdly long."""
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise AccountError(
            422,
            f"{where}: a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            "weak_password",
            {"where": where, "min": MIN_PASSWORD, "max": MAX_PASSWORD},
        )
    return raw


def hash_password(password: str, hasher: PasswordHasher = HASHER) -> str:
    """The Argon2id hash of ``password`` (salted; the encoded string keeps its cost)."""
    return hasher.hash(password)


def verify_password(stored: str, password: str, hasher: PasswordHasher = HASHER) -> bool:
    """Whether ``password`` is the one ``stored`` was made from."""
    try:
        return hasher.verify(stored, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def token_hash(token: str) -> str:
    """The stored form of a session token (SHA-256: the token is random, 256 bits)."""
    return hashlib.sha256(token.encode()).hexdigest()


def csrf_token(session_token: str) -> str:
    """A session's CSRF token: an HMAC of the session token (not stored; never the token)."""
    return hmac.new(session_token.encode(), b"onered csrf", hashlib.sha256).hexdigest()


def new_id() -> str:
    """A random text id (the migrations use no auto-increment: both databases agree)."""
    return secrets.token_hex(8)


def _account(r: Any) -> Account:
    """An account from a row read by name (either database's row)."""
    return Account(
        id=str(r["id"]),
        email=str(r["email"]),
        role=Role(r["role"]),
        club_id=None if r["club_id"] is None else str(r["club_id"]),
        created=float(r["created"]),
    )


_ACCOUNT_COLUMNS = "id, email, role, club_id, created"


class Accounts:
    """The accounts, clubs and sessions kept in ``db`` (migrations ``0010_accounts``);
    ``clock`` gives Unix seconds (tests move it), ``hasher`` the Argon2id parameters."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], float] = time.time,
        hasher: PasswordHasher = HASHER,
        session_seconds: float = SESSION_SECONDS,
        limiter_clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.db = db
        self.clock = clock
        self.hasher = hasher
        self.session_seconds = session_seconds
        self.per_client = RateLimiter(SIGNINS_PER_MINUTE_PER_CLIENT, limiter_clock)
        self.per_account = RateLimiter(SIGNINS_PER_MINUTE_PER_ACCOUNT, limiter_clock)
        # verified for an unknown e-mail, so that it costs what a wrong password costs
        self._dummy: str | None = None

    # --- clubs --------------------------------------------------------------------------

    def create_club(self, name: str) -> Club:
        """A new club called ``name`` (refused when another has that name, casefolded)."""
        text, key = club_name(name)
        club = Club(new_id(), text, self.clock())
        with self.db.write() as c:
            if c.execute("SELECT 1 FROM clubs WHERE name_key = ?", (key,)).fetchone():
                raise club_taken(text)
            try:
                c.execute(
                    "INSERT INTO clubs (id, name, name_key, created) VALUES (?, ?, ?, ?)",
                    (club.id, club.name, key, club.created),
                )
            except ConstraintError as exc:  # made by another process in between
                raise club_taken(text) from exc
        return club

    def clubs(self) -> list[Club]:
        """Every club, by name."""
        with self.db.read() as c:
            rows = c.execute("SELECT id, name, created FROM clubs ORDER BY name_key").fetchall()
        return [Club(str(r["id"]), str(r["name"]), float(r["created"])) for r in rows]

    def club(self, club_id: str) -> Club:
        """Club ``club_id`` (404 ``no_club`` when there is none)."""
        with self.db.read() as c:
            r = c.execute("SELECT id, name, created FROM clubs WHERE id = ?", (club_id,)).fetchone()
        if r is None:
            raise no_club(club_id)
        return Club(str(r["id"]), str(r["name"]), float(r["created"]))

    def club_named(self, name: str) -> Club | None:
        """The club called ``name`` (casefolded), if any."""
        _, key = club_name(name)
        with self.db.read() as c:
            r = c.execute(
                "SELECT id, name, created FROM clubs WHERE name_key = ?", (key,)
            ).fetchone()
        return None if r is None else Club(str(r["id"]), str(r["name"]), float(r["created"]))

    def remove_club(self, club_id: str) -> None:
        """Delete a club that has no accounts, no players in the register and nothing else
        naming it (a tournament): 409 ``club_in_use`` otherwise."""
        in_use = AccountError(
            409, f"club {club_id!r} still has accounts or players", "club_in_use", {"id": club_id}
        )
        with self.db.write() as c:
            for table in ("accounts", "register_players"):
                if c.execute(f"SELECT 1 FROM {table} WHERE club_id = ?", (club_id,)).fetchone():
                    raise in_use
            try:
                if c.execute("DELETE FROM clubs WHERE id = ?", (club_id,)).rowcount == 0:
                    raise no_club(club_id)
            except ConstraintError as exc:  # another table's row names the club
                raise in_use from exc

    # --- accounts -----------------------------------------------------------------------

    def create_account(self, email: str, password: str, role: Role, club_id: str | None) -> Account:
        """A new account (its password hashed). A club's roles need a club; a federation
        admin has none."""
        text, key = email_key(email)
        check_password(password)
        if (role is Role.FEDERATION_ADMIN) != (club_id is None):
            raise AccountError(
                422,
                "a federation admin belongs to no club; a club's admin or marker to one",
                "bad_role",
                {"role": role.value},
            )
        hashed = hash_password(password, self.hasher)  # before the transaction: ~0.1 s
        account = Account(new_id(), text, role, club_id, self.clock())
        with self.db.write() as c:
            if (
                club_id is not None
                and not c.execute("SELECT 1 FROM clubs WHERE id = ?", (club_id,)).fetchone()
            ):
                raise no_club(club_id)
            if c.execute("SELECT 1 FROM accounts WHERE email_key = ?", (key,)).fetchone():
                raise email_taken(text)
            try:
                c.execute(
                    "INSERT INTO accounts (id, email, email_key, password_hash, role, club_id,"
                    " created) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (account.id, text, key, hashed, role.value, club_id, account.created),
                )
            except ConstraintError as exc:  # made by another process in between
                raise email_taken(text) from exc
        return account

    def account(self, account_id: str) -> Account:
        with self.db.read() as c:
            r = c.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE id = ?", (account_id,)
            ).fetchone()
        if r is None:
            raise no_account(account_id)
        return _account(r)

    def by_email(self, email: str) -> Account | None:
        """The account of ``email`` (any case), if any."""
        with self.db.read() as c:
            r = c.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE email_key = ?",
                (email.strip().casefold(),),
            ).fetchone()
        return None if r is None else _account(r)

    def everyone(self) -> list[Account]:
        """Every account, by e-mail."""
        with self.db.read() as c:
            rows = c.execute(f"SELECT {_ACCOUNT_COLUMNS} FROM accounts ORDER BY email_key")
            return [_account(r) for r in rows.fetchall()]

    def members(self, club_id: str) -> list[Account]:
        """The accounts of club ``club_id`` (its admins first, then markers, by e-mail)."""
        with self.db.read() as c:
            rows = c.execute(
                f"SELECT {_ACCOUNT_COLUMNS} FROM accounts WHERE club_id = ?"
                " ORDER BY role, email_key",
                (club_id,),
            ).fetchall()
        return [_account(r) for r in rows]

    def count(self) -> int:
        """How many accounts there are (the first-run check)."""
        with self.db.read() as c:
            return int(c.execute("SELECT COUNT(*) FROM accounts").fetchone()[0])

    def remove_account(self, account_id: str) -> None:
        """Delete an account and its sessions."""
        with self.db.write() as c:
            c.execute("DELETE FROM sessions WHERE account_id = ?", (account_id,))
            if c.execute("DELETE FROM accounts WHERE id = ?", (account_id,)).rowcount == 0:
                raise no_account(account_id)

    def set_password(self, account_id: str, password: str) -> None:
        """A new password for an account; its sessions end (sign in again)."""
        check_password(password)
        hashed = hash_password(password, self.hasher)
        with self.db.write() as c:
            n = c.execute(
                "UPDATE accounts SET password_hash = ? WHERE id = ?", (hashed, account_id)
            ).rowcount
            if n == 0:
                raise no_account(account_id)
            c.execute("DELETE FROM sessions WHERE account_id = ?", (account_id,))

    # --- signing in ---------------------------------------------------------------------

    def authenticate(self, email: object, password: object, client: str = "unknown") -> Account:
        """The account whose e-mail and password these are. Refused with 429 when the
        client or the account tried too often, and otherwise with the one answer
        ``bad_credentials`` for an unknown e-mail and a wrong password alike (a hash is
        verified in both cases, so the time tells nothing either)."""
        key = email.strip().casefold() if isinstance(email, str) else ""
        self.per_client.check(client_of(client), "sign-ins")
        self.per_account.check(key[:MAX_EMAIL], "sign-ins")
        if not isinstance(password, str) or len(password) > MAX_PASSWORD:
            password = ""
        if self._dummy is None:  # at the first sign-in of any kind: none is slower for it
            self._dummy = hash_password(secrets.token_hex(16), self.hasher)
        with self.db.read() as c:
            r = c.execute(
                f"SELECT {_ACCOUNT_COLUMNS}, password_hash FROM accounts WHERE email_key = ?",
                (key,),
            ).fetchone()
        if r is None:
            verify_password(self._dummy, password, self.hasher)
            raise bad_credentials()
        stored = str(r["password_hash"])
        if not verify_password(stored, password, self.hasher):
            raise bad_credentials()
        if self.hasher.check_needs_rehash(stored):  # the cost was raised since
            with self.db.write() as c:
                c.execute(
                    "UPDATE accounts SET password_hash = ? WHERE id = ?",
                    (hash_password(password, self.hasher), r["id"]),
                )
        return _account(r)

    def start_session(self, account: Account) -> tuple[str, Session]:
        """A new session for ``account``: its token (for the cookie; only its hash is
        kept) and the session. Expired sessions are swept on the way."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        expires = now + self.session_seconds
        with self.db.write() as c:
            c.execute("DELETE FROM sessions WHERE expires <= ?", (now,))
            c.execute(
                "INSERT INTO sessions (id_hash, account_id, created, expires) VALUES (?, ?, ?, ?)",
                (token_hash(token), account.id, now, expires),
            )
        return token, Session(account, csrf_token(token), expires)

    def session(self, token: str) -> Session | None:
        """The live session of ``token`` (``None`` when unknown, ended or expired)."""
        if not token or len(token) > 200:
            return None
        with self.db.read() as c:
            r = c.execute(
                "SELECT a.id, a.email, a.role, a.club_id, a.created, s.expires"
                " FROM sessions s JOIN accounts a ON a.id = s.account_id WHERE s.id_hash = ?",
                (token_hash(token),),
            ).fetchone()
        if r is None or float(r["expires"]) <= self.clock():
            return None
        return Session(_account(r), csrf_token(token), float(r["expires"]))

    def end_session(self, token: str) -> None:
        """Sign out: the session is deleted on the server (its cookie is worth nothing)."""
        with self.db.write() as c:
            c.execute("DELETE FROM sessions WHERE id_hash = ?", (token_hash(token),))


# --- the app's accounts ---------------------------------------------------------------------

_LOCK = threading.Lock()


def database_of(app: FastAPI) -> Database:
    """The app's one database (``app.state.db``, made and migrated by ``create_app``)."""
    db: Database = app.state.db
    return db


def accounts_of(app: FastAPI) -> Accounts:
    """The app's :class:`Accounts` (``app.state.accounts``, made on first use)."""
    found = getattr(app.state, "accounts", None)
    if found is None:
        with _LOCK:
            found = getattr(app.state, "accounts", None)
            if found is None:
                found = Accounts(database_of(app))
                app.state.accounts = found
    return found


def session_of(request: Request) -> Session | None:
    """The request's live session (``None`` without the cookie or with a dead one);
    read once per request."""
    if "onered_session" in request.scope.setdefault("state", {}):
        return request.scope["state"]["onered_session"]  # type: ignore[no-any-return]
    token = request.cookies.get(SESSION_COOKIE)
    session = accounts_of(request.app).session(token) if token else None
    request.scope["state"]["onered_session"] = session
    return session


def check_csrf(request: Request, session: Session) -> None:
    """Refuse (403 ``csrf``) a state-changing request of ``session`` without its token."""
    if request.method in SAFE_METHODS:
        return
    sent = request.headers.get(CSRF_HEADER) or request.scope.get("state", {}).get(CSRF_FIELD)
    if not isinstance(sent, str) or not hmac.compare_digest(
        sent.encode(), session.csrf_token.encode()
    ):
        raise csrf_refused()


def current_account(request: Request) -> Account | None:
    """The signed-in account of the request, or ``None``. A state-changing request that
    carries the session cookie is refused (403 ``csrf``) without the session's CSRF token,
    so a route acting on this account's authority is never forged from another site."""
    session = session_of(request)
    if session is None:
        return None
    check_csrf(request, session)
    return session.account


def require(request: Request, role: Role, club: str | None = None) -> Account:
    """The signed-in account, which may act as ``role`` (in club ``club`` when given):
    401 ``signed_out`` without one, 403 ``forbidden`` when it may not, 403 ``csrf`` for a
    change without the CSRF token."""
    account = current_account(request)
    if account is None:
        raise signed_out()
    if not account.may(role, club):
        raise forbidden(role, club)
    return account


#: A route's parameter: the signed-in account or ``None``.
CurrentAccount = Annotated[Account | None, Depends(current_account)]


def set_session_cookies(
    request: Request, response: Response, token: str, session: Session, now: float
) -> None:
    """Put the session's cookies on ``response``: they last as long as the session (the
    server's expiry is the one that counts); Secure when the request came over https."""
    secure = request.url.scheme == "https"
    age = max(1, int(session.expires - now))
    for name, value, http_only in (
        (SESSION_COOKIE, token, True),
        (CSRF_COOKIE, session.csrf_token, False),
    ):
        response.set_cookie(
            name, value, max_age=age, httponly=http_only, samesite="lax", secure=secure, path="/"
        )


def clear_session_cookies(request: Request, response: Response) -> None:
    secure = request.url.scheme == "https"
    for name, http_only in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(name, path="/", secure=secure, httponly=http_only, samesite="lax")


class CsrfFormField:
    """ASGI middleware: a form (``application/x-www-form-urlencoded``) sent with the
    session cookie has its ``csrf_token`` field read here and put in the request's state
    for :func:`check_csrf`; the body is handed on unchanged. (A form's body cannot be read
    by a dependency before the route reads it.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] in SAFE_METHODS
            or not _is_form(scope)
            or SESSION_COOKIE.encode() not in _header(scope, b"cookie")
        ):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunks.append(message.get("body", b""))
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        fields = urllib.parse.parse_qs(body.decode("latin-1"), max_num_fields=100)
        token = fields.get(CSRF_FIELD, [None])[0]
        if token is not None:
            scope.setdefault("state", {})[CSRF_FIELD] = token
        await self.app(scope, _replay([{"type": "http.request", "body": body}], receive), send)


def _header(scope: Scope, name: bytes) -> bytes:
    return b";".join(v for k, v in scope.get("headers", []) if k.lower() == name)


def _is_form(scope: Scope) -> bool:
    return _header(scope, b"content-type").split(b";")[0].strip().lower() == (
        b"application/x-www-form-urlencoded"
    )


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    queue = list(messages)

    async def receive() -> Message:
        if queue:
            return queue.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive
