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

Changes made by this process are seen within :data:`TICK` seconds (an in-memory check);
changes by another process sharing the data folder within :data:`STORE_TICK` (one indexed
row read). Each event costs only what changed (``onered.web.games``). A stream ends within
:data:`TICK` once :func:`end_streams` is called (``onered serve`` calls it when told to stop,
so a TV left open does not keep the server from stopping; the browser reconnects later).
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, StreamingResponse

from onered.web.api_matches import match_store
from onered.web.errors import ApiError
from onered.web.games import Games, GamesDep
from onered.web.pages import page
from onered.web.store import GameRow, Store

#: Seconds between checks of the process's own changes, and of the store.
TICK = 0.1
STORE_TICK = 1.0
#: Seconds between keep-alive comments (proxies close quiet connections).
KEEPALIVE = 15.0
#: What a browser waits before reconnecting, milliseconds.
RETRY_MS = 1000
#: The room's screen: at most this many tables; a game untouched for longer than
#: :data:`ROOM_WITHIN` seconds (by default) is not in play any more.
ROOM_MAX = 48
ROOM_WITHIN = 6 * 3600.0

router = APIRouter()

#: Set when the server is stopping: every stream ends (see :func:`end_streams`).
_ENDING = threading.Event()


def end_streams() -> None:
    """End every live stream of this process (the server is stopping): each returns within
    :data:`TICK` seconds, so the server's graceful shutdown need not wait for open TVs."""
    _ENDING.set()


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


async def _stream(
    request: Request,
    games: Games,
    game_id: str,
    since: int | None,
    revision: int | None,
    most: int | None,
    timeout: float | None,
) -> AsyncIterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    start = time.monotonic()
    quiet = checked = start
    sent = 0
    while True:
        now = time.monotonic()
        known = games.revision(game_id)
        if known is None or now - checked >= STORE_TICK:
            row = await run_in_threadpool(games.store.game, game_id)
            if row is None:
                return  # deleted
            known = row.revision
            checked = now
        if known != revision:
            view = await run_in_threadpool(games.view_since, game_id, since, revision)
            yield event(view)
            revision = int(view["revision"])
            since = int(view["state"]["version"])
            sent += 1
            quiet = time.monotonic()
            if most is not None and sent >= most:
                return
        elif now - quiet >= KEEPALIVE:
            yield ": keep-alive\n\n"
            quiet = now
        if timeout is not None and now - start >= timeout:
            return
        if _ENDING.is_set() or await request.is_disconnected():
            return
        await asyncio.sleep(TICK)


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
    games.row(game_id)  # 404 before the stream starts
    resumed = _last_event(last_event_id)
    if resumed is not None:
        revision, since = resumed
    if revision is None:
        since = None
    return StreamingResponse(
        _stream(request, games, game_id, since, revision, max, timeout),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


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
