"""The games behind the routes: each game's current session, kept; views; changes; secrets.

A game's :class:`~onered.game.session.Session` (its lines judged, its current state) is
kept in a bounded LRU cache per game id and store revision: a request reads the game's row
(one indexed row), and replays the game's lines only when the cache does not hold that
revision (a restart, another process's change, an evicted game). A change judges only the
new lines from the current state and stores them in one transaction; a view sends only what
changed since the revision the client has. So no request does work proportional to the
game's length (but the first read of a game, and the full view with its visits).

The routers reach the app's one :class:`Games` through :data:`GamesDep`; changing routes
check the secret with :data:`AuthorizedId`.
"""

from __future__ import annotations

import hmac
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import Depends, Header, Request
from fastapi.concurrency import run_in_threadpool

from onered.game.record import RecordError, dumps
from onered.game.session import Ruled, Session, SessionError
from onered.protocol.json_fields import ProtocolError, loads_object
from onered.web.errors import ApiError, not_found
from onered.web.figures import Fold
from onered.web.notify import Hub
from onered.web.store import GameRow, Mode, Store, hash_token
from onered.web.view import chart_json, game_json, log_page_json, summary_json

TOKEN_HEADER = "X-Game-Token"
#: Sessions kept in memory (the most recently used games), and the most lines they may hold
#: together (a long game takes its room: the least recently used are dropped first). Room
#: for every table of a federation's evening: with several workers each worker serves
#: views of most games, and a game not kept is replayed from its first line (with 64, 200
#: games marked at once made every view of a stroke a replay).
CACHE_SIZE = 1024
CACHE_LINES = 400_000
#: Games whose secret's hash is kept once shown (a change's check then reads nothing).
SECRETS_KEPT = 4096

T = TypeVar("T")


class Outcome(Protocol):
    """What :class:`Games` tells of a change that ends or un-ends a game."""

    def reopening(self, game_id: str) -> None:
        """Before a change that un-ends the game is stored (raising refuses it)."""

    def changed(self, row: GameRow) -> None:
        """After a change that ended or un-ended the game was stored."""


def list_item(row: GameRow) -> dict[str, Any]:
    """A game in the list of games; its ``entrants`` so that the list names a computer
    player from its level in the page's language."""
    entrants = row.settings.get("entrants")
    return {
        "id": row.id,
        "mode": row.mode.value,
        "created": row.created,
        "updated": row.updated,
        **dict(row.summary),
        "entrants": entrants if isinstance(entrants, dict) else {},
    }


def urls(game_id: str, mode: Mode) -> dict[str, str]:
    """The pages of a game."""
    out = {"watch": f"/watch/{game_id}", "record": f"/games/{game_id}"}
    if mode is Mode.PLAY:
        out["play"] = f"/play/{game_id}"
    else:
        out["mark"] = f"/mark/{game_id}"
    return out


class Games:
    """The game operations behind the routes: load (cached), show, change."""

    def __init__(self, store: Store, cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        self.cache_size = cache_size
        #: Each game's revision, session and its number of lines when kept (a kept session
        #: is changed only once taken out: :meth:`change`), and their lines together.
        self._cache: OrderedDict[str, tuple[int, Session, int]] = OrderedDict()
        self._lines = 0
        #: Held while a session is changed or read for a view (changes are quick: the slow
        #: part of a played stroke, the simulation, is done before, outside it).
        self.lock = threading.RLock()
        #: A lock per game being changed: its changes are made one at a time, each stored
        #: before the next is prepared (changes of different games are stored together).
        self._changing: weakref.WeakValueDictionary[str, threading.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._changing_lock = threading.Lock()
        #: The hashes of the secrets shown lately, by game (:meth:`secret_known`).
        self._secrets: OrderedDict[str, str] = OrderedDict()
        self._secrets_lock = threading.Lock()
        #: Told of every change stored here (and every deletion): the live streams wait on it.
        self.hub = Hub(store)
        #: The players' figures of each session kept, folded line by line (onered.web.figures).
        self._folds: weakref.WeakKeyDictionary[Session, Fold] = weakref.WeakKeyDictionary()
        #: Told of a change that ends or un-ends a game (``onered.web.match_results``: a
        #: decided match's result handed to tournaments and ratings), if set.
        self.outcome: Outcome | None = None

    def row(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise not_found(game_id)
        return row

    def keep(self, game_id: str, revision: int, session: Session) -> None:
        """Keep a game's session at ``revision`` (the least recently used ones make room)."""
        with self.lock:
            self._take(game_id)
            self._cache[game_id] = (revision, session, len(session))
            self._lines += len(session)
            while len(self._cache) > 1 and (
                len(self._cache) > self.cache_size or self._lines > CACHE_LINES
            ):
                _, (_, _, dropped) = self._cache.popitem(last=False)
                self._lines -= dropped

    def revision(self, game_id: str) -> int | None:
        """The revision of a game whose session this process holds (``None``: not held)."""
        hit = self._cache.get(game_id)
        return None if hit is None else hit[0]

    def forget(self, game_id: str) -> None:
        """Drop a game's cached session (it is read again on next use)."""
        with self.lock:
            self._take(game_id)

    def _take(self, game_id: str) -> None:
        """Drop a game's cached session, if held (under :attr:`lock`)."""
        hit = self._cache.pop(game_id, None)
        if hit is not None:
            self._lines -= hit[2]

    def secret_known(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is the secret of ``game_id`` as shown before (compared in
        constant time; reads nothing: ``False`` only means "not known here")."""
        with self._secrets_lock:
            known = self._secrets.get(game_id)
        return known is not None and hmac.compare_digest(known, hash_token(token))

    def secret_shown(self, game_id: str, token: str) -> None:
        """``token`` was checked as ``game_id``'s secret: keep its hash (the least recently
        shown make room). A game deleted meanwhile by another process is still found gone
        by the change itself."""
        with self._secrets_lock:
            self._secrets[game_id] = hash_token(token)
            self._secrets.move_to_end(game_id)
            while len(self._secrets) > SECRETS_KEPT:
                self._secrets.popitem(last=False)

    def deleted(self, game_id: str) -> None:
        """The game was deleted: its session is dropped and its live streams end."""
        with self._secrets_lock:
            self._secrets.pop(game_id, None)
        self.forget(game_id)
        self.hub.changed(game_id, None)

    def _cached(self, game_id: str, revision: int) -> Session | None:
        hit = self._cache.get(game_id)
        if hit is None or hit[0] != revision:
            return None
        self._cache.move_to_end(game_id)
        return hit[1]

    def _read(self, game_id: str, lines: Sequence[str]) -> Session:
        try:
            return Session.from_lines(lines)
        except RecordError as exc:  # pragma: no cover - only judged lines are stored
            raise ApiError(500, f"game {game_id!r} cannot be replayed: {exc}", "broken") from None

    def replay(self, game_id: str) -> tuple[GameRow, Session]:
        """The game's row and current session: the one kept, when it is at the game's
        revision or one change behind (caught up: :meth:`_caught_up`), else read whole. The
        session is shared: read it, change it only through :meth:`change`."""
        with self.lock:
            hit = self._cache.get(game_id)
            if hit is not None:
                found = self.store.tail(game_id, len(hit[1]), hit[0])
                if found is None:
                    raise not_found(game_id)
                row, start, tail = found
                if row.revision == hit[0]:
                    self._cache.move_to_end(game_id)
                    return row, hit[1]
                caught = self._caught_up(game_id, row, start, tail)
                if caught is not None:
                    return row, caught
            snap = self.store.snapshot(game_id)
            if snap is None:
                raise not_found(game_id)
            row, lines = snap
            session = self._read(game_id, lines)
            self.keep(game_id, row.revision, session)
            return row, session

    def _caught_up(
        self, game_id: str, row: GameRow, start: int, tail: Sequence[str]
    ) -> Session | None:
        """The kept session of a game changed once since it was kept (by another process:
        another worker's marker, say) brought up to ``row``: its lines from ``start`` (the
        first the change touched) undone, and ``tail`` (the stored lines from there)
        judged, not the whole game; ``None`` when the session kept is not one change
        behind (under :attr:`lock`)."""
        hit = self._cache.get(game_id)
        if hit is None or hit[0] != row.revision - 1 or not 1 <= start <= len(hit[1]):
            return None
        session = hit[1]
        self._take(game_id)
        if start < len(session):  # lines replaced: their figures are counted again
            self._folds.pop(session, None)
        try:
            while len(session) > start:
                session.undo()
            for text in tail:
                session.append(loads_object(text))
        except (SessionError, ProtocolError):  # pragma: no cover - stored lines are judged
            return None
        self.keep(game_id, row.revision, session)
        return session

    def view(self, row: GameRow, game: Session, since: int) -> dict[str, Any]:
        with self.lock:
            return game_json(row, game, since)

    def view_since(self, game_id: str, since: int | None, revision: int | None) -> dict[str, Any]:
        """The game as the pages get it; with the client's ``since`` (lines it has) and
        ``revision``, only what changed since."""
        with self.lock:
            row, game = self.replay(game_id)
            return game_json(row, game, start_line(row, len(game), since, revision))

    def log_page(self, game_id: str, before: int | None, limit: int) -> dict[str, Any]:
        """A page of the game's log: ``limit`` lines before line ``before`` (the end)."""
        with self.lock:
            row, game = self.replay(game_id)
            return log_page_json(row, game, len(game) if before is None else before, limit)

    def chart(self, game_id: str) -> dict[str, Any]:
        """The record page's progression and top breaks."""
        with self.lock:
            row, game = self.replay(game_id)
            return chart_json(row, game)

    def figures(self, session: Session, common: int | None = None) -> dict[str, Any]:
        """The players' figures in ``session`` (for the player's pages, kept with the game):
        folded on from those of its first ``common`` lines (``None``: of every line counted
        before, none replaced) when this session's were counted before (a change costs what
        it changed), else counted from its first line."""
        with self.lock:
            fold = self._folds.get(session)
            if fold is not None:
                fold.update(session, len(session) if common is None else common)
                return fold.to_json()
        # counted outside the lock (a long import's new session is nobody else's yet)
        made = Fold(session)
        with self.lock:
            self._folds[session] = made
        return made.to_json()

    def answer_now(self, game_id: str) -> dict[str, Any]:
        """A change's answer for the game as it is now (its last verdict, the whole game):
        what a repeated change gets when its first answer was lost with the server."""
        return change_answer(self.view_since(game_id, None, None))

    def changing(self, game_id: str) -> threading.Lock:
        """The lock held while ``game_id`` is changed, until the change is stored."""
        with self._changing_lock:
            lock = self._changing.get(game_id)
            if lock is None:
                lock = self._changing[game_id] = threading.Lock()
            return lock

    def change(
        self,
        game_id: str,
        after: int | None,
        act: Callable[[Session], T],
    ) -> tuple[GameRow, Session, int, T]:
        """Change a game: ``act`` changes its session (undo, append ...), the lines are
        stored to match in one transaction. ``after``: the number of lines the client saw
        (another number is a conflict). Returns the new row, the session, the first line
        changed and what ``act`` returned. The session is changed under :attr:`lock`, which
        is let go before the change is committed (with the other changes of the moment:
        ``onered.web.commits``); the game's own lock keeps its changes in order."""
        with self.changing(game_id):
            try:
                with self.store.edit(game_id, after) as edit, self.lock:
                    session = self._cached(game_id, edit.revision)
                    if session is None or len(session) != edit.count:
                        session = self._read(game_id, edit.lines)
                    self._take(game_id)  # changed below; kept again once stored
                    session.reset_low_water()
                    was_over = session.over
                    result = act(session)
                    if was_over and not session.over and self.outcome is not None:
                        self.outcome.reopening(game_id)  # may refuse: nothing is stored
                    # the lines the change kept are still stored; the rest is replaced
                    common = session.low_water
                    while edit.count > common:
                        edit.pop()
                    for entry in session.entries[common:]:
                        edit.push(dumps(entry.line))
                    edit.set_summary(summary_json(session))
                    edit.set_figures(self.figures(session, common))
                    changed = edit.changed_from
                    revision = edit.revision + 1
            except KeyError:
                raise not_found(game_id) from None
            self.keep(game_id, revision, session)
            self.hub.changed(game_id, revision)  # its live streams send the change
            row = edit.row or self.row(game_id)
            if was_over != session.over and self.outcome is not None:
                self.outcome.changed(row)
            return row, session, changed, result

    def changed_view(
        self,
        game_id: str,
        after: int | None,
        lines: Sequence[Mapping[str, Any] | Ruled],
        *,
        pop: int = 0,
    ) -> dict[str, Any]:
        """Drop ``pop`` lines, judge and append ``lines`` (a line the game loop judged
        already, a :class:`Ruled`, is kept as judged); the answer with the verdict of the
        last line and the view of what changed."""

        def act(session: Session) -> None:
            for _ in range(pop):
                session.undo()
            for obj in lines:
                if isinstance(obj, Ruled):
                    session.keep(obj)
                else:
                    session.append(obj)

        return self.answer(*self.change(game_id, after, act)[:3])

    def answer(self, row: GameRow, session: Session, changed: int) -> dict[str, Any]:
        """A change's answer: the last verdict and the game from the first line changed."""
        with self.lock:
            return change_answer(game_json(row, session, changed))


def change_answer(view: dict[str, Any]) -> dict[str, Any]:
    """A change's answer (its one shape): the verdict of the last line, and the game's view."""
    return {"verdict": view["last"], "game": view}


def start_line(row: GameRow, lines: int, since: int | None, revision: int | None) -> int:
    """The first line a client needs: from ``since``; with its ``revision``, nothing when it
    is current, from the last change's first line when it is one change behind, else all."""
    start = 0 if since is None else since
    if revision is not None and since is not None:
        if revision == row.revision:
            start = lines
        elif revision == row.revision - 1:
            start = min(since, row.changed_from)
        else:
            start = 0
    return start


def games_of(request: Request) -> Games:
    """The app's games."""
    found: Games = request.app.state.games
    return found


async def _games(request: Request) -> Games:
    """:func:`games_of` as a route's dependency: an ``async`` one, looked up on the event
    loop (a plain function would cost a worker thread's round trip on every request)."""
    return games_of(request)


#: The app's games, as a route's parameter.
GamesDep = Annotated[Games, Depends(_games)]


def check_secret(store: Store, game_id: str, token: str | None, doing: str = "changing") -> None:
    """Refuse a request on ``game_id`` that does not show the game's secret (404 for no such
    game, 401 without a secret, 403 with a wrong one); ``doing`` names what it needs it for."""
    if store.game(game_id) is None:
        raise not_found(game_id)
    if not token:
        raise ApiError(
            401,
            f"{TOKEN_HEADER}: missing; {doing} a game needs the secret given to its creator",
            "no_token",
        )
    if not store.check_token(game_id, token):
        raise ApiError(
            403, f"{TOKEN_HEADER}: this is not the secret of game {game_id!r}", "bad_token"
        )


async def _authorize(
    request: Request, game_id: str, x_game_token: Annotated[str | None, Header()] = None
) -> str:
    """The game id, once the request has shown the game's secret: checked against the store
    in a worker thread the first time, then from the hash kept (no thread, no read: a
    marker's every tap shows the same secret)."""
    games: Games = request.app.state.games
    if x_game_token and games.secret_known(game_id, x_game_token):
        return game_id
    await run_in_threadpool(check_secret, request.app.state.store, game_id, x_game_token)
    if x_game_token:
        games.secret_shown(game_id, x_game_token)
    return game_id


#: A game id in a changing route: the request must carry the game's secret.
AuthorizedId = Annotated[str, Depends(_authorize)]
