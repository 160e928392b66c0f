"""The web app: a FastAPI application over the game store, with its static front end.

``create_app(data_dir)`` assembles the application (``onered serve`` runs it with uvicorn):
the store, the middleware, the error handlers and the routers — ``pages`` (the HTML pages),
``api_games`` (reading, creating, importing), ``api_play`` (changing a game), and the
routers of the other features. Routes hold no rules: the game core (``onered.game``) does.

Reading is open to everyone; changing a game needs its secret, the token returned once when
the game is created, sent in the ``X-Game-Token`` header. Every change is judged by the
referee before it is stored, and stored (committed to disk) before the response is sent.
Errors are ``{"error": text, "message": ..., "code": ..., "params": {...}}``, every error of
the root ``onered.errors.OneredError`` answered by one handler (``onered.web.errors``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from onered import __version__
from onered.web import (
    api_accounts,
    api_club,
    api_find,
    api_games,
    api_grammar,
    api_live,
    api_matches,
    api_play,
    api_players,
    api_ratings,
    api_register,
    api_tournaments,
    coach,
    errors,
    idempotency,
    offline,
    openapi,
    pages,
)
from onered.web.accounts import CsrfFormField
from onered.web.api_games import MAX_IMPORT_BYTES, table_json
from onered.web.db import Database
from onered.web.errors import ApiError
from onered.web.games import TOKEN_HEADER, Games
from onered.web.limits import (
    BodyTimeout,
    Gate,
    Limits,
    RateLimitedError,
    RateLimiter,
    client_of,
)
from onered.web.pages import STATIC_DIR
from onered.web.store import Store

__all__ = [
    "MAX_IMPORT_BYTES",
    "STATIC_DIR",
    "TOKEN_HEADER",
    "ApiError",
    "Limits",
    "create_app",
    "table_json",
]

#: Largest request body accepted but for an import (``api_games.MAX_IMPORT_BYTES``).
MAX_BODY_BYTES = 256 * 1024
#: Sent with every answer: the pages load only their own files, and are not framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class SecurityHeaders:
    """The outermost middleware of ours: :data:`SECURITY_HEADERS` on every answer, the
    ones other middleware makes itself (411, 413, a kept repeat) and a server's fault (500)
    included. A fault is answered here by the app's own handler for it, so the answer
    passes through the headers; it is raised again for the server's log (Starlette's last
    middleware sees the answer already sent and sends no second one)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                have = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in self.headers if k not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        try:
            await self.app(scope, receive, send_with_headers)
        except Exception as exc:
            handler = scope["app"].exception_handlers.get(Exception) if "app" in scope else None
            if started or handler is None:
                raise
            response = await handler(Request(scope, receive), exc)
            await response(scope, receive, send_with_headers)
            raise


def _body_refusal(request: Request) -> Response | None:
    """The refusal of a body larger than the route accepts, before it is read (411, 413)."""
    length = request.headers.get("content-length")
    is_import = request.url.path == "/api/import"
    limit = MAX_IMPORT_BYTES if is_import else MAX_BODY_BYTES
    if length is None and not is_import and "transfer-encoding" in request.headers:
        return ApiError(
            411,
            f"Content-Length: required (a body of at most {limit} bytes)",
            "length_required",
            {"max": limit},
        ).response()
    if length is not None and (not length.isdigit() or int(length) > limit):
        return ApiError(
            413,
            f"the request body is too large (at most {limit} bytes)",
            "too_large",
            {"max": limit},
        ).response()
    return None


#: The routes that make a game, each with its rate limiter's name in ``app.state``.
RATED = {
    ("POST", "/api/games"): ("creation_limiter", "games created"),
    ("POST", "/api/matches"): ("creation_limiter", "games created"),
    ("POST", "/api/import"): ("import_limiter", "imports"),
}


def _rate_refusal(request: Request) -> Response | None:
    """The refusal of a client who makes games faster than :class:`Limits` allows (429)."""
    rated = RATED.get((request.method, request.url.path))
    if rated is not None:
        limiter: RateLimiter = getattr(request.app.state, rated[0])
        try:
            limiter.check(client_of(request.client.host if request.client else None), rated[1])
        except RateLimitedError as exc:
            return errors.answer(request, exc)
    return None


class Guards:
    """ASGI middleware refusing a request before the app reads it: games made faster than
    the limits allow (:func:`_rate_refusal`), then a body larger than the route accepts
    (:func:`_body_refusal`). A plain ASGI middleware: Starlette's function middleware
    (``app.middleware("http")``) runs the app in a task of its own and streams its answer
    back through a queue, about 0.3 ms of CPU on every request each (with the two it
    replaces, 50 markers tapping got 420-440 strokes a second, 560-610 without)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            request = Request(scope, receive)
            refusal = _rate_refusal(request)
            if refusal is None:
                refusal = _body_refusal(request)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def create_app(
    data_dir: Path | str,
    limits: Limits | None = None,
    clock: Callable[[], float] = time.monotonic,
    database: str | None = None,
) -> FastAPI:
    """The application, with its store in ``data_dir`` (created if missing) and the
    ``limits`` for anonymous clients (``Limits()``'s by default; ``clock`` times them).
    ``database``: a PostgreSQL URL to keep everything in instead of the data folder's
    SQLite file (``onered.web.db``); migrated up to date either way, before serving."""
    db = Database(database) if database else Database.in_folder(Path(data_dir))
    try:
        db.migrate()
    except BaseException:
        db.close()
        raise
    store = Store(db)
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        db.close()

    app = FastAPI(
        title="onered",
        version=__version__,
        description="Snooker-1-Red: play in a browser, mark real matches.",
        docs_url=None,  # the interactive docs load scripts from elsewhere: not offered
        openapi_url="/api/openapi.json",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.db = db  # the one database of every table (onered.web.db)
    app.state.store = store
    app.state.games = Games(store)
    app.state.creation_limiter = RateLimiter(limits.creations_per_minute, clock)
    app.state.import_limiter = RateLimiter(limits.imports_per_minute, clock)
    app.state.import_gate = Gate(limits.concurrent_imports, "imports", limits.busy_retry_after)
    errors.install(app)
    idempotency.install(app)  # a repeated Idempotency-Key gets the kept answer
    app.add_middleware(CsrfFormField)  # a form's csrf_token (onered.web.accounts)
    app.add_middleware(Guards)  # games made per client (onered.web.limits), bodies' sizes
    app.add_middleware(BodyTimeout, seconds=limits.body_timeout)  # a stalled body: 408
    app.add_middleware(SecurityHeaders)  # added last: around every other middleware
    # changing a game (onered.web.api_play) first: a request tries the routes in order, and
    # a marker's tap is the most frequent request (no path of another router overlaps these)
    app.include_router(api_play.router)
    app.include_router(pages.router)  # the HTML pages (onered.web.pages)
    app.include_router(offline.router)  # the service worker, the pages' shells (web.offline)
    app.include_router(api_games.router)  # reading, creating, importing (onered.web.api_games)
    api_live.install(app, limits)  # changes pushed, streams capped (onered.web.api_live)
    app.include_router(coach.router)  # the coach page and /api/advise (onered.web.coach)
    api_club.install(app)  # the TV board, seats, take-back, aim check (onered.web.api_club)
    app.include_router(api_matches.router)  # matches, best of N (onered.web.api_matches)
    app.include_router(api_find.router)  # search, my games, delete (onered.web.api_find)
    app.include_router(api_players.router)  # a player's page (onered.web.api_players)
    app.include_router(api_grammar.router)  # players' descriptions (onered.web.api_grammar)
    app.include_router(api_accounts.router)  # signing in, clubs (onered.web.api_accounts)
    app.include_router(api_register.router)  # the player register (onered.web.api_register)
    app.include_router(api_ratings.router)  # ratings, handicaps (onered.web.api_ratings)
    api_tournaments.install(app)  # tournaments, their pages, QR codes (web.api_tournaments)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    openapi.install(app)  # every answer in the schema, errors too (onered.web.openapi)
    return app
