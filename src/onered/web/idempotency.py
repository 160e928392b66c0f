"""Exactly-once changes: the standard ``Idempotency-Key`` header on a game's changes (and
on starting a match's next game).

A page makes a key (a UUID) once for each tap or stroke it queues and sends it with every
try. The first request with a key for a game is run as usual and its successful answer is
kept in the store with the key (:meth:`Store.keep_answer`); a repeat — the answer was lost
on the way, the page was reloaded while sending — is answered with the kept status and body
and changes nothing. A key sent again with another request (another route or body; the
``after`` precondition aside, since a page re-bases it) is refused: 422
``idempotency_mismatch``. Requests without the header work as before. Only answers of a
change made (2xx) are kept: a refusal changed nothing and is judged afresh.

The key goes in with the change itself: :meth:`Store.edit` records it (as
:data:`~onered.web.store.ENTERED`) in the change's own transaction, and the answer is added
once sent (committed with the next group of changes; the client is not kept waiting for
it). A server stopped between the two answers a repeat with the game as it is now
(200, the change is in), never with a second stroke nor a "stale" refusal. Tries of one key
are run one at a time (a resend after a client's timeout waits for the first try and gets
its answer); that lock is the process's own. Processes sharing one database (the workers
of ``onered serve --workers``, servers on other hosts on one PostgreSQL) are kept apart by
the database, so a key may reach any of them, again and again, even while its first try
is still being made elsewhere: a change is written only if the game is still at the
revision it was prepared on (a try behind a change not yet committed waits for it:
PostgreSQL's row lock, SQLite's write lock), and its key is inserted in the same
transaction, at most once (``ON CONFLICT DO NOTHING``); so the later try is refused, finds
the key (committed with the first's change) and is answered here as a repeat. A match's
next game keeps its key with its answer only: a try racing its first on another worker
is refused by the match (its game already started, 409), never entered twice. Keys are
kept 24 hours (``store.KEEP_KEYS``; older ones are deleted as answers are kept).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import re
import weakref
from typing import Any

from anyio import to_thread
from fastapi import FastAPI, Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from onered.web import errors, workers
from onered.web.api_club import SEAT_HEADER
from onered.web.games import TOKEN_HEADER, Games
from onered.web.store import CLAIM, ENTERED, Answered, Claim, Store

HEADER = b"idempotency-key"
#: The routes that change a game, ``POST /api/games/{id}/...``, and a match's next game,
#: ``POST /api/matches/{id}/next`` (its keys kept under ``match:{id}``).
CHANGE = re.compile(r"^/api/(?:games/([^/]+)/.+|matches/([^/]+)/next)$")
#: The headers that say who asks (a game's secret, a seat's).
SECRETS = tuple(h.lower().encode() for h in (TOKEN_HEADER, SEAT_HEADER))
#: Longest key taken (a UUID is 36 characters).
MAX_KEY = 200
#: The changes whose key :meth:`Store.edit` stores with the change, where its unique
#: constraint refuses a second change of one key: run without looking the key up first (a
#: worker-thread round trip on every tap), looked up only when refused (a repeat whose change
#: is refused as stale, no longer legal, or for its key is answered as a repeat then).
KEYED_WITH_CHANGE = re.compile(r"^/api/games/[^/]+/(?:lines|mark|choice|undo|claim)$")


def fingerprint(path: str, body: bytes, secret: bytes = b"") -> str:
    """What a request asks, for comparing a repeat with the first try: its route, its JSON
    body without ``after`` (a precondition the page may move, not the change) and who asks
    (``secret``: its game or seat secret, so a kept answer is only given to its sender)."""
    try:
        data = json.loads(body) if body else None
    except ValueError:
        data = None
        canonical = body
    else:
        if isinstance(data, dict):
            data.pop("after", None)
        canonical = json.dumps(data, sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(b"\0".join((path.encode(), canonical, secret))).hexdigest()


class Idempotency:
    """ASGI middleware answering a repeated ``Idempotency-Key`` with the kept answer."""

    def __init__(self, app: ASGIApp, store: Store, games: Games) -> None:
        self.app = app
        self.store = store
        self.games = games
        self._locks: weakref.WeakValueDictionary[tuple[str, str], asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        match = CHANGE.match(scope["path"])
        headers = dict(scope["headers"])
        key = headers.get(HEADER, b"").decode("latin-1").strip()
        if match is None or not key:
            await self.app(scope, receive, send)
            return
        if len(key) > MAX_KEY:
            await _refuse(scope, send, "idempotency key longer than 200 characters", "invalid")
            return
        game_id = match.group(1) or f"match:{match.group(2)}"
        body = await _read(receive)
        secret = b"\0".join(headers.get(h, b"") for h in SECRETS)
        asked = fingerprint(scope["path"], body, secret)
        lock = self._locks.get((game_id, key))
        if lock is None:
            lock = self._locks[(game_id, key)] = asyncio.Lock()
        async with lock:
            if KEYED_WITH_CHANGE.match(scope["path"]):
                kept = None
            else:
                kept = await to_thread.run_sync(self.store.answered, game_id, key)
            if kept is not None:
                await self._repeat(scope, send, game_id, key, asked, kept)
                return
            token = CLAIM.set(Claim(game_id, key, asked))
            try:
                status, answered_with, answer = await _run(self.app, scope, body)
            finally:
                CLAIM.reset(token)
            if not 200 <= status < 300:  # refused: because another process took the key?
                kept = await to_thread.run_sync(self.store.answered, game_id, key)
                if kept is not None:
                    await self._repeat(scope, send, game_id, key, asked, kept)
                    return
            try:  # the change is stored (with its key): answered at once, its answer kept after
                await send(
                    {"type": "http.response.start", "status": status, "headers": answered_with}
                )
                await send({"type": "http.response.body", "body": answer})
            finally:
                if 200 <= status < 300:
                    await self._keep(game_id, key, Answered(asked, status, answer))

    async def _keep(self, game_id: str, key: str, answered: Answered) -> None:
        """Keep ``answered`` (before the key's lock is let go, as a repeat waiting on it
        must find it): with the group of changes being committed, waiting on the event loop
        (no worker thread), or, when none is, committed in a worker thread."""
        loop = asyncio.get_running_loop()
        kept: asyncio.Future[BaseException | None] = loop.create_future()

        def settle(error: BaseException | None) -> None:  # on the loop
            if not kept.done():
                kept.set_result(error)

        def settled(error: BaseException | None) -> None:  # in the committing thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(settle, error)

        if self.store.keep_answer_soon(game_id, key, answered, settled):
            await workers.run(self.store.commit_queued)
        error = await kept
        if error is not None:
            raise error

    async def _repeat(
        self, scope: Scope, send: Send, game_id: str, key: str, asked: str, kept: Answered
    ) -> None:
        """Answer a request whose key is kept: the kept answer, or the game as it is now
        when the change went in but its answer was lost with the server (``ENTERED``); the
        key with another request is refused. (The lock above is this process's: a key taken
        by another process on the same database is settled there, the later change refused
        and then answered here.)"""
        if kept.fingerprint != asked:
            await _refuse(
                scope,
                send,
                f"idempotency key {key!r} was sent before with another request",
                "idempotency_mismatch",
            )
        elif kept.status != ENTERED:
            await _send_json(send, kept.status, kept.body, replayed=True)
        else:
            now = await to_thread.run_sync(self.games.answer_now, game_id)
            await _send_json(send, 200, json.dumps(now).encode(), replayed=True)


async def _read(receive: Receive) -> bytes:
    """A request's whole body."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _run(app: ASGIApp, scope: Scope, body: bytes) -> tuple[int, list[Any], bytes]:
    """Run ``app`` on a request with ``body``; its status, headers and whole body."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    start: Message = {}
    parts: list[bytes] = []

    async def send(message: Message) -> None:
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body":
            parts.append(message.get("body", b""))

    await app(scope, receive, send)
    return int(start.get("status", 500)), list(start.get("headers", [])), b"".join(parts)


async def _send_json(send: Send, status: int, body: bytes, *, replayed: bool = False) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if replayed:
        headers.append((b"idempotent-replayed", b"true"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _refuse(scope: Scope, send: Send, message: str, code: str) -> None:
    """Answer with an :class:`errors.ApiError` of ``code`` in the request's language."""
    error = errors.ApiError(errors.STATUS.get(code, 422), message, code)
    response = errors.answer(Request(scope), error)
    await _send_json(send, response.status_code, bytes(response.body))


def install(app: FastAPI) -> None:
    """Answer repeated changes of ``app``'s games by their ``Idempotency-Key``."""
    app.add_middleware(Idempotency, store=app.state.store, games=app.state.games)
