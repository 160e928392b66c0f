"""Changes of games told to the live streams that follow them: one signal per change.

A :class:`Hub` knows, for every game some stream follows, the game's latest revision.
:meth:`Hub.changed` (called by ``onered.web.games`` once a change of this process is
stored, and for a deleted game) raises it and wakes every stream of that game at once:
the streams of a game on one event loop wait on one shared future, so a change costs one
wake-up per loop, whatever the number of streams, and an idle stream costs nothing (no
timer but its keep-alive, no thread). Changes made by another process sharing the data
folder are found by the hub's one watcher thread, which reads the revisions of all the
followed games in one query every :data:`STORE_TICK` seconds (only while some game is
followed).

:meth:`Hub.end` (the server is stopping: :func:`end_streams`) wakes every stream for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from onered.web.store import Store

#: Seconds between the watcher's reads of the store (changes by another process).
STORE_TICK = 1.0

T = TypeVar("T")
_log = logging.getLogger(__name__)
#: The hubs of this process, so that :func:`end_streams` reaches every one.
_HUBS: weakref.WeakSet[Hub] = weakref.WeakSet()


def end_streams() -> None:
    """End every live stream of this process (the server is stopping): each is woken at
    once and returns, so the graceful shutdown need not wait for open TVs."""
    for hub in list(_HUBS):
        hub.end()


class _Followed:
    """A followed game: its latest known revision (``None``: deleted), the number of
    streams following it, the future each event loop's streams wait on, and what those
    streams compute once for all (:meth:`Follow.once`) at the current revision."""

    __slots__ = ("revision", "shared", "streams", "waiting")

    def __init__(self, revision: int) -> None:
        self.revision: int | None = revision
        self.streams = 0
        self.waiting: dict[asyncio.AbstractEventLoop, asyncio.Future[None]] = {}
        self.shared: dict[Hashable, asyncio.Future[Any]] = {}


class Follow:
    """One stream's hold on a game (:meth:`Hub.follow`)."""

    def __init__(self, hub: Hub, game_id: str, entry: _Followed) -> None:
        self.hub = hub
        self.game_id = game_id
        self._entry = entry

    @property
    def revision(self) -> int | None:
        """The game's latest known revision (``None``: it was deleted)."""
        return self._entry.revision

    @property
    def ending(self) -> bool:
        """The server is stopping: the stream should end."""
        return self.hub.ending

    async def wait(self, seen: int | None, timeout: float) -> None:
        """Return when the game's revision is not ``seen`` any more (at once if it is not),
        the server is stopping, or after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        entry = self._entry
        with self.hub._lock:
            if self.hub.ending or entry.revision != seen:
                return
            future = entry.waiting.get(loop)
            if future is None:
                future = entry.waiting[loop] = loop.create_future()
        # asyncio.wait leaves the shared future alone on a timeout or a cancel
        await asyncio.wait((future,), timeout=max(0.0, timeout))

    async def once(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        """``compute()``'s result, computed once for all the streams of the game that ask
        with the same ``key`` at the same time (on this event loop)."""
        full = (asyncio.get_running_loop(), key)
        shared = self._entry.shared
        future = shared.get(full)
        if future is None:
            future = shared[full] = asyncio.ensure_future(compute())
            future.add_done_callback(lambda _: shared.pop(full, None))
        result: T = await asyncio.shield(future)
        return result

    def close(self) -> None:
        """The stream ended: the game is followed by one stream fewer."""
        self.hub._unfollow(self.game_id, self._entry)


class Hub:
    """Where the changes of a store's games are told to the streams that follow them."""

    def __init__(self, store: Store, tick: float = STORE_TICK) -> None:
        self.store = store
        self.tick = tick
        self.ending = False
        self._lock = threading.Lock()
        self._games: dict[str, _Followed] = {}
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        _HUBS.add(self)

    def follow(self, game_id: str, revision: int) -> Follow:
        """A stream follows ``game_id``, last read at ``revision``; :meth:`Follow.close` it
        when the stream ends. Starts the watcher of other processes' changes if needed."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None:
                entry = self._games[game_id] = _Followed(revision)
            elif entry.revision is not None and revision > entry.revision:
                entry.revision = revision
            entry.streams += 1
            if self._watcher is None and not self._stop.is_set():
                self._watcher = threading.Thread(
                    target=self._watch, name="onered-live-watcher", daemon=True
                )
                self._watcher.start()
        return Follow(self, game_id, entry)

    @contextmanager
    def following(self, game_id: str, revision: int) -> Iterator[Follow]:
        """:meth:`follow` for the length of a block."""
        held = self.follow(game_id, revision)
        try:
            yield held
        finally:
            held.close()

    def followed(self) -> dict[str, int]:
        """The followed games and the number of streams following each."""
        with self._lock:
            return {game_id: entry.streams for game_id, entry in self._games.items()}

    def changed(self, game_id: str, revision: int | None) -> None:
        """Game ``game_id`` is now at ``revision`` (``None``: deleted): when that is news,
        every stream following it is woken. Thread-safe; a game no stream follows costs a
        dictionary look-up."""
        with self._lock:
            entry = self._games.get(game_id)
            if entry is None or entry.revision is None:
                return
            if revision is not None and revision <= entry.revision:
                return
            entry.revision = revision
            entry.shared = {}
            waiting, entry.waiting = entry.waiting, {}
        _wake(waiting.items())

    def end(self) -> None:
        """The server is stopping: every stream is woken and ends; new ones end at once."""
        with self._lock:
            self.ending = True
            waiting = [pair for entry in self._games.values() for pair in entry.waiting.items()]
            for entry in self._games.values():
                entry.waiting = {}
        _wake(waiting)

    def close(self) -> None:
        """Stop the watcher (the store is closing)."""
        self._stop.set()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=5.0)

    def _unfollow(self, game_id: str, entry: _Followed) -> None:
        with self._lock:
            entry.streams -= 1
            if entry.streams <= 0 and self._games.get(game_id) is entry:
                del self._games[game_id]

    def _watch(self) -> None:
        """The watcher: every :attr:`tick` seconds, one read of the followed games'
        revisions; a game changed by another process (or deleted) wakes its streams. Ends
        when no game is followed any more (the next stream starts it again)."""
        while not self._stop.wait(self.tick):
            with self._lock:
                if not self._games:
                    self._watcher = None
                    return
                ids = [g for g, e in self._games.items() if e.revision is not None]
            try:
                found = self.store.revisions(ids) if ids else {}
            except Exception:  # the store closed under us (the app stopping): no more news
                _log.warning("live streams: the store cannot be read", exc_info=True)
                break
            for game_id in ids:
                self.changed(game_id, found.get(game_id))
        with self._lock:
            self._watcher = None


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _wake(waiting: Iterable[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]) -> None:
    """Resolve each loop's future on its loop (from any thread)."""
    for loop, future in waiting:
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits there any more
            loop.call_soon_threadsafe(_resolve, future)
