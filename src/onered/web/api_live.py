"""Live views pushed: a game's changes as server-sent events.

``GET /api/games/{id}/events?since=N&revision=R`` answers ``text/event-stream``: one
``game`` event per change of the game, whose data is the view of what changed since what the
client has (as ``GET /api/games/{id}?since=N&revision=R`` answers it) and whose ``id`` is
``"<revision>:<lines>"``. A browser's ``EventSource`` sends the last id back when it
reconnects (``Last-Event-ID``), so it is sent what it missed, and nothing twice. Without a
revision the first event is the whole game. ``max`` (events) and ``timeout`` (seconds) end
the stream (tests, and clients that prefer to reconnect).

``GET /board/match/{id}`` is the club's TV board for a whole match (``templates/board.html``,
``static/board.js``): it shows the match's latest game and moves on to each next game by
itself (the match, ``GET /api/matches/{id}``, lists its games). ``GET /board/room`` is the
room's screen: every table in play (``GET /api/room``: the games not over, changed in the last
``within`` seconds, the most recently changed first, each with its score and its board's link).

Nothing polls per stream: a stream waits on the game's :class:`~onered.web.notify.Hub`,
which a change of this process wakes once for all the game's streams (another process's
change is heard by the hub's one PostgreSQL listener, or found by its one watcher within
``notify.STORE_TICK`` on SQLite); the streams that
need the same view share one computation of it. An idle stream sends a keep-alive comment
every :data:`KEEPALIVE` seconds; a client that leaves is noticed by Starlette (it listens
for the disconnect). A client may hold ``Limits.streams_per_client`` streams open at once
(one more: 429 ``too_many_streams``). :func:`end_streams` (``onered serve`` calls it when told
to stop) wakes and ends every stream at once, so a TV left open does not keep the server
from stopping; the browser reconnects later.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, StreamingResponse
from starlette.types import Receive, Scope, Send

from onered.web import errors
from onered.web.api_matches import match_store
from onered.web.errors import ApiError
from onered.web.games import Games, GamesDep
from onered.web.limits import Limits, Slots, TooManyStreamsError, client_of
from onered.web.notify import Follow
from onered.web.notify import end_streams as end_streams
from onered.web.pages import page
from onered.web.store import GameRow, Store

#: Seconds between keep-alive comments (proxies close quiet connections).
KEEPALIVE = 15.0
#: What a browser waits before reconnecting, milliseconds.
RETRY_MS = 1000
#: The room's screen: at most this many tables; a game untouched for longer than
#: :data:`ROOM_WITHIN` seconds (by default) is not in play any more.
ROOM_MAX = 48
ROOM_WITHIN = 6 * 3600.0

router = APIRouter()


def install(app: FastAPI, limits: Limits) -> None:
    """The live routes on ``app``, each client held to ``limits.streams_per_client``."""
    app.state.stream_slots = Slots(limits.streams_per_client)
    app.include_router(router)


def _last_event(value: str | None) -> tuple[int, int] | None:
    """``(revision, lines)`` from a ``Last-Event-ID`` header ``"R:N"``."""
    if not value:
        return None
    head, _, tail = value.partition(":")
    if not (head.isdigit() and tail.isdigit()):
        return None
    return int(head), int(tail)


def event(view: dict[str, object]) -> str:
    """One ``game`` event of the stream."""
    state = view["state"]
    lines = state["version"] if isinstance(state, dict) else 0
    data = json.dumps(view, ensure_ascii=False, separators=(",", ":"))
    return f"id: {view['revision']}:{lines}\nevent: game\ndata: {data}\n\n"


class LiveStream(StreamingResponse):
    """A game's event stream. Sent, it takes one of the client's slots (or answers 429
    ``too_many_streams``) and follows the game on its hub; both are given back when it
    ends, however it ends (the client leaving included)."""

    def __init__(
        self,
        games: Games,
        game_id: str,
        known: int,
        since: int | None,
        revision: int | None,
        most: int | None,
        timeout: float | None,
    ) -> None:
        self.games = games
        self.game_id = game_id
        self.known = known
        self.since = since
        self.revision = revision
        self.most = most
        self.timeout = timeout
        self._follow: Follow | None = None
        super().__init__(
            self._events(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        slots: Slots = request.app.state.stream_slots
        client = client_of(request.client.host if request.client else None)
        try:
            slots.take(client)
        except TooManyStreamsError as exc:
            await errors.answer(request, exc)(scope, receive, send)
            return
        try:
            with self.games.hub.following(self.game_id, self.known) as follow:
                self._follow = follow
                await super().__call__(scope, receive, send)
        finally:
            slots.give(client)

    async def _events(self) -> AsyncIterator[str]:
        follow = self._follow
        if follow is None:  # pragma: no cover - only sent through __call__
            return
        yield f"retry: {RETRY_MS}\n\n"
        game_id, since, revision = self.game_id, self.since, self.revision
        start = quiet = time.monotonic()
        sent = 0
        while not follow.ending:
            known = follow.revision
            if known is None:
                return  # deleted
            if known != revision:
                view_since = partial(self.games.view_since, game_id, since, revision)
                try:
                    view = await follow.once(
                        (since, revision), partial(run_in_threadpool, view_since)
                    )
                except ApiError:
                    return  # deleted meanwhile
                yield event(view)
                revision = int(view["revision"])
                since = int(view["state"]["version"])
                self.games.hub.changed(game_id, revision)  # news, if the hub was behind
                sent += 1
                quiet = time.monotonic()
                if self.most is not None and sent >= self.most:
                    return
                continue
            now = time.monotonic()
            if self.timeout is not None and now - start >= self.timeout:
                return
            if now - quiet >= KEEPALIVE:
                yield ": keep-alive\n\n"
                quiet = now
            wait = KEEPALIVE - (now - quiet)
            if self.timeout is not None:
                wait = min(wait, self.timeout - (now - start))
            await follow.wait(revision, wait)


@router.get("/api/games/{game_id}/events")
def game_events(
    request: Request,
    game_id: str,
    games: GamesDep,
    since: Annotated[int | None, Query(ge=0)] = None,
    revision: Annotated[int | None, Query(ge=0)] = None,
    max: Annotated[int | None, Query(ge=1, le=1_000_000)] = None,
    timeout: Annotated[float | None, Query(gt=0, le=86_400)] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """The game's changes, pushed (see the module docstring)."""
    row = games.row(game_id)  # 404 before the stream starts
    resumed = _last_event(last_event_id)
    if resumed is not None:
        revision, since = resumed
    if revision is None:
        since = None
    return LiveStream(games, game_id, row.revision, since, revision, max, timeout)


@router.get("/board/match/{match_id}", include_in_schema=False)
def match_board_page(request: Request, match_id: str) -> HTMLResponse:
    """The club's TV board following a match from game to game (404 for no such match)."""
    if match_store(request).match(match_id) is None:
        raise ApiError(404, f"match {match_id!r}: no such match", "no_match", {"id": match_id})
    return page("board")


def table_json(row: GameRow) -> dict[str, Any]:
    """A table of the room: the game's players (and who they are: ``entrants``), score,
    target, who plays, its match."""
    summary = row.summary
    match = row.settings.get("match")
    entrants = row.settings.get("entrants")
    return {
        "id": row.id,
        "mode": row.mode.value,
        "players": summary.get("players"),
        "score": summary.get("score"),
        "target": summary.get("target"),
        "strokes": summary.get("strokes"),
        "to_play": summary.get("next"),
        "updated": row.updated,
        "match": dict(match) if isinstance(match, dict) else None,
        "entrants": dict(entrants) if isinstance(entrants, dict) else {},
        "urls": {"board": f"/board/{row.id}"},
    }


@router.get("/api/room")
def room(
    request: Request,
    within: Annotated[float, Query(gt=0, le=30 * 86_400)] = ROOM_WITHIN,
) -> dict[str, Any]:
    """Every table in play: the games not over, changed in the last ``within`` seconds."""
    store: Store = request.app.state.store
    rows, _ = store.search(finished=False, limit=ROOM_MAX)
    now = time.time()
    return {"tables": [table_json(r) for r in rows if now - r.updated <= within], "now": now}


@router.get("/board/room", include_in_schema=False)
def room_page() -> HTMLResponse:
    """The room's screen: every table in play, each linking to its board."""
    return page("room")
