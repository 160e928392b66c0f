"""Changes of games told to the live streams that follow them: one signal per change.

A :class:`Hub` knows, for every game some stream follows, the game's latest revision.
:meth:`Hub.changed` (called by ``onered.web.games`` once a change of this process is
stored, and for a deleted game) raises it and wakes every stream of that game at once:
the streams of a game on one event loop wait on one shared future, so a change costs one
wake-up per loop, whatever the number of streams, and an idle stream costs nothing (no
timer but its keep-alive, no thread).

Changes made by another process (another worker of ``onered serve --workers``, another
host) are found by one thread of the hub's, only while some game is followed:

- on PostgreSQL, a :class:`Listener`: one ``LISTEN`` connection per process. Every change
  of a game's revision, and every deletion, sends a notification from the change's own
  transaction (a trigger on ``games``, :data:`TRIGGER_SQL`, installed by the first
  listener), so it is sent only once the change is committed, and a change rolled back
  sends none. The listener wakes the streams of the game named, without reading the
  database. After a lost connection it connects again and reads the followed games'
  revisions once (what it may have missed meanwhile);
- on SQLite, a watcher reading the revisions of all the followed games in one query every
  :data:`STORE_TICK` seconds.

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

#: Seconds between the watcher's reads of the store (changes by another process, SQLite).
STORE_TICK = 1.0
#: The PostgreSQL channel of the games' changes; a notification's payload is
#: ``"<game id> <revision>"``, or the game's id alone when it was deleted.
CHANNEL = "onered_games"
#: The trigger that sends :data:`CHANNEL`'s notifications from every change's transaction
#: (``games.revision`` raised, a game deleted), whichever process or tool made it. Versioned
#: by its name: a later onered with another payload installs its own beside it.
TRIGGER = "onered_games_notify_v1"
TRIGGER_SQL = (
    f"CREATE OR REPLACE FUNCTION {TRIGGER}() RETURNS trigger LANGUAGE plpgsql AS $$\n"
    "BEGIN\n"
    "  IF TG_OP = 'DELETE' THEN\n"
    f"    PERFORM pg_notify('{CHANNEL}', OLD.id);\n"
    "    RETURN OLD;\n"
    "  END IF;\n"
    "  IF NEW.revision IS DISTINCT FROM OLD.revision THEN\n"
    f"    PERFORM pg_notify('{CHANNEL}', NEW.id || ' ' || NEW.revision);\n"
    "  END IF;\n"
    "  RETURN NEW;\n"
    "END $$",
    f"CREATE OR REPLACE TRIGGER {TRIGGER} AFTER UPDATE OF revision OR DELETE ON games"
    f" FOR EACH ROW EXECUTE FUNCTION {TRIGGER}()",
)
#: Seconds between a listener's checks that it is still wanted (no game followed: it ends),
#: and its first and longest waits before connecting again after a lost connection.
LISTEN_TICK = 1.0
RECONNECT_FIRST = 0.2
RECONNECT_MOST = 5.0

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

    def __init__(
        self, store: Store, tick: float = STORE_TICK, listen_url: str | None = None
    ) -> None:
        """``listen_url``: the PostgreSQL database to listen on for other processes'
        changes (by default the store's own when it is on PostgreSQL; else the watcher
        reads the store every ``tick`` seconds)."""
        self.store = store
        self.tick = tick
        self.listen_url = listen_url if listen_url is not None else postgres_url(store)
        self.ending = False
        self._lock = threading.Lock()
        self._games: dict[str, _Followed] = {}
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        #: The listener's connections made so far (for tests and the report).
        self.connections = 0
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
                if self.listen_url:
                    target, name = Listener(self, self.listen_url).run, "onered-live-listener"
                else:
                    target, name = self._watch, "onered-live-watcher"
                self._watcher = threading.Thread(target=target, name=name, daemon=True)
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
        """Stop the watcher or listener (the store is closing)."""
        self._stop.set()
        watcher = self._watcher
        if watcher is not None and watcher is not threading.current_thread():
            watcher.join(timeout=5.0)

    def _unfollow(self, game_id: str, entry: _Followed) -> None:
        with self._lock:
            entry.streams -= 1
            if entry.streams <= 0 and self._games.get(game_id) is entry:
                del self._games[game_id]

    def resync(self) -> bool:
        """Read the followed games' revisions once and tell what changed (a listener that
        was not listening may have missed it). False when the store cannot be read."""
        with self._lock:
            ids = [g for g, e in self._games.items() if e.revision is not None]
        try:
            found = self.store.revisions(ids) if ids else {}
        except Exception:  # the store closed under us (the app stopping): no more news
            _log.warning("live streams: the store cannot be read", exc_info=True)
            return False
        for game_id in ids:
            self.changed(game_id, found.get(game_id))
        return True

    def _idle(self) -> bool:
        """No game is followed any more: the watcher or listener ends (under the lock,
        so that a new stream starts another)."""
        with self._lock:
            if self._games and not self._stop.is_set():
                return False
            self._watcher = None
            return True

    def _watch(self) -> None:
        """The watcher (SQLite): every :attr:`tick` seconds, one read of the followed
        games' revisions; a game changed by another process (or deleted) wakes its streams.
        Ends when no game is followed any more (the next stream starts it again)."""
        while not self._stop.wait(self.tick):
            if self._idle():
                return
            if not self.resync():
                break
        with self._lock:
            self._watcher = None


def postgres_url(store: object) -> str | None:
    """The URL of ``store``'s database when it is PostgreSQL (its ``db``, an
    ``onered.web.db.Database``), else ``None``."""
    database = getattr(store, "db", None)
    dialect = getattr(database, "dialect", None)
    if getattr(dialect, "value", None) != "postgresql":
        return None
    url = getattr(database, "url", None)
    return str(url) if url else None


def parse(payload: str) -> tuple[str, int | None] | None:
    """A notification's game and revision (``None``: deleted); ``None`` for a payload that
    is not one of :data:`TRIGGER_SQL`'s."""
    game_id, _, revision = payload.partition(" ")
    if not game_id:
        return None
    if not revision:
        return game_id, None
    return (game_id, int(revision)) if revision.isdigit() else None


def install_trigger(conn: Any) -> bool:
    """Install :data:`TRIGGER_SQL` on the database of the psycopg connection ``conn``
    (autocommit) unless it is there; whether it was installed now. Several processes
    starting at once take turns (an advisory lock), so one installs it."""

    def present() -> bool:
        found = conn.execute("SELECT 1 FROM pg_trigger WHERE tgname = %s", (TRIGGER,))
        return found.fetchone() is not None

    if present():
        return False
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (TRIGGER,))
        if present():
            return False
        for statement in TRIGGER_SQL:
            conn.execute(statement)
    return True


class Listener:
    """A process's one ``LISTEN`` connection to PostgreSQL (see the module docstring): run
    in the hub's thread while some game is followed; connects again after a lost
    connection, waiting :data:`RECONNECT_FIRST` seconds, doubled up to
    :data:`RECONNECT_MOST`; each time, once listening, reads the followed games' revisions
    (:meth:`Hub.resync`)."""

    def __init__(self, hub: Hub, url: str) -> None:
        self.hub = hub
        self.url = url
        self.warned = False  # that the trigger could not be installed

    def run(self) -> None:
        """Listen until no game is followed or the hub closes."""
        pause = RECONNECT_FIRST
        while not self.hub._idle():  # (which, when true, lets another thread start)
            made = self.hub.connections
            try:
                self._listen()
            except Exception:  # the server went away, a network fault: connect again
                _log.warning(
                    "live streams: lost the PostgreSQL listener; connecting again in %.1f s",
                    pause,
                    exc_info=True,
                )
            else:
                return  # ended: nothing followed
            self.hub._stop.wait(pause)
            # waits grow while connecting fails, and start again once it succeeded
            pause = RECONNECT_FIRST if self.hub.connections > made else pause
            pause = min(RECONNECT_MOST, pause * 2)

    def _listen(self) -> None:
        """One connection: install the trigger if needed, listen, catch up, then wake the
        streams of each game notified; returns once no game is followed."""
        import psycopg

        with psycopg.connect(self.url, autocommit=True, application_name="onered-live") as conn:
            try:
                install_trigger(conn)
            except psycopg.errors.InsufficientPrivilege:  # the database's owner must, once
                if not self.warned:
                    self.warned = True
                    _log.warning(
                        "live streams: not allowed to install the trigger %s on games; until"
                        " its owner does (onered.web.notify.TRIGGER_SQL), other processes'"
                        " changes reach this one's streams only when they reconnect",
                        TRIGGER,
                    )
            conn.execute(f"LISTEN {CHANNEL}")
            self.hub.connections += 1
            if not self.hub.resync():  # what changed before we listened
                raise RuntimeError("the store cannot be read")
            while True:
                for note in conn.notifies(timeout=LISTEN_TICK):
                    found = parse(note.payload)
                    if found is not None:
                        self.hub.changed(*found)
                if self.hub._idle():
                    return


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _wake(waiting: Iterable[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]]) -> None:
    """Resolve each loop's future on its loop (from any thread)."""
    for loop, future in waiting:
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits there any more
            loop.call_soon_threadsafe(_resolve, future)
