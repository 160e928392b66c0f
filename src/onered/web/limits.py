"""What one anonymous client may ask of the server: bounded numbers, a rate per client and
a cap on imports judged at once.

- :data:`MAX_OFFSET` and :data:`MAX_VERSION` bound the integer query parameters, so a huge
  or negative number is refused by name (422) before it reaches the store (SQLite's
  integers are 64-bit: a larger one was a 500).
- :class:`RateLimiter` is a token bucket per client address, in memory: ``rate`` requests
  a minute, ``burst`` at once; the clock is injected so tests drive it without sleeping.
- :class:`Gate` lets ``most`` imports be judged at a time; one more is refused at once
  (``busy``) rather than queued, as each holds a file and its judged game in memory.
- :class:`Slots` lets one client hold ``streams_per_client`` live streams open at once; one
  more is refused (429 ``too_many_streams``): each holds a connection and a file descriptor.
- :class:`BodyTimeout` refuses a request body that stalls (408 ``body_timeout``); the
  header timeout, the connection cap and the backlog are the server's
  (``onered.web.serving``), set from the same :class:`Limits`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from onered.errors import OneredError
from onered.web import errors
from onered.web.errors import ApiError

#: Largest ``offset`` of a page of games (far beyond any club's games).
MAX_OFFSET = 1_000_000_000
#: Largest line number or revision a client may name (``since``, ``revision``).
MAX_VERSION = 1_000_000_000
#: Clients whose buckets are kept (the least recently seen are forgotten beyond it).
MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class Limits:
    """The server's limits for anonymous clients (``create_app(limits=...)``)."""

    #: games created per client per minute (``POST /api/games``, ``POST /api/matches``)
    creations_per_minute: float = 30.0
    #: imports per client per minute (``POST /api/import``)
    imports_per_minute: float = 10.0
    #: imports judged at once, over all clients
    concurrent_imports: int = 2
    #: seconds a refused client is told to wait when the server is busy
    busy_retry_after: int = 5
    #: live streams (``GET /api/games/{id}/events``) one client may hold open at once
    streams_per_client: int = 16
    #: seconds a connection may take to send a whole request head (``onered.web.serving``)
    header_timeout: float = 10.0
    #: seconds a request body may stall between two chunks before it is refused (408)
    body_timeout: float = 10.0
    #: connections served at once; one more request is answered 503 (uvicorn's
    #: ``limit_concurrency``, never above the open files allowed)
    max_connections: int = 4096
    #: connections waiting to be accepted (the listening socket's backlog)
    backlog: int = 2048
    #: seconds the server waits, once told to stop, for requests still running before it
    #: cancels them (uvicorn's ``timeout_graceful_shutdown``): live streams end at once,
    #: so this only bounds a stop under heavy load or with thousands of connections
    shutdown_timeout: int = 1

    def __post_init__(self) -> None:
        """Refuse a limit out of range, naming it (``onered serve`` names its flag)."""
        positive = ("creations_per_minute", "imports_per_minute", "header_timeout")
        for name in (*positive, "body_timeout"):
            if not getattr(self, name) > 0:
                raise LimitError(name, getattr(self, name), least=None)
        counts = ("concurrent_imports", "busy_retry_after", "streams_per_client")
        for name in (*counts, "shutdown_timeout", "max_connections", "backlog"):
            if getattr(self, name) < 1:
                raise LimitError(name, getattr(self, name), least=1)


class LimitError(OneredError, ValueError):
    """A limit out of range: ``name`` (a :class:`Limits` field, or the ``onered serve``
    flag that set it) must be positive (``least`` None) or at least ``least``."""

    default_code = "limit_positive"

    def __init__(self, name: str, value: object, *, least: int | None) -> None:
        bound = "positive" if least is None else f"at least {least}"
        super().__init__(
            f"{name}: must be {bound}, got {value}",
            code="limit_positive" if least is None else "limit_at_least",
            params={"name": name, "value": value, **({} if least is None else {"least": least})},
        )
        self.name = name
        self.value = value
        self.least = least

    def named(self, name: str) -> LimitError:
        """The same refusal naming ``name`` (the flag that set the limit)."""
        return LimitError(name, self.value, least=self.least)


class RateLimiter:
    """A token bucket per client: ``per_minute`` requests a minute on average, as many at
    once; thread-safe (routes run in worker threads)."""

    def __init__(self, per_minute: float, clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0:
            raise ValueError(f"per_minute: must be positive, got {per_minute}")
        self.rate = per_minute / 60.0
        self.burst = max(1.0, per_minute)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Take one token for ``client``: 0 when allowed, else the seconds until one is
        free (nothing taken)."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            wait = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate
            self._buckets[client] = (tokens - 1.0 if wait == 0.0 else tokens, now)
            while len(self._buckets) > MAX_CLIENTS:
                self._buckets.popitem(last=False)
        return wait

    def check(self, client: str, what: str) -> None:
        """Refuse ``client`` with 429 ``rate_limited`` when his bucket is empty."""
        wait = self.wait(client)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            raise RateLimitedError(what, seconds)


class RateLimitedError(ApiError):
    """Too many requests of one kind from one client: try again in ``retry_after`` s."""

    default_code = "rate_limited"

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(
            429,
            f"too many {what}: try again in {retry_after} s",
            "rate_limited",
            {"what": what, "seconds": retry_after},
        )
        self.retry_after = retry_after


class BusyError(ApiError):
    """The server is already doing as much of this as it may: try again later."""

    default_code = "busy"

    def __init__(self, what: str, retry_after: int) -> None:
        super().__init__(
            503,
            f"the server is busy with other {what}: try again in {retry_after} s",
            "busy",
            {"what": what, "seconds": retry_after},
        )
        self.retry_after = retry_after


class Gate:
    """At most ``most`` holders at once; one more is refused (:class:`BusyError`), not queued."""

    def __init__(self, most: int, what: str, retry_after: int) -> None:
        if most < 1:
            raise ValueError(f"most: must be at least 1, got {most}")
        self._free = threading.BoundedSemaphore(most)
        self.what = what
        self.retry_after = retry_after

    @contextmanager
    def hold(self) -> Iterator[None]:
        if not self._free.acquire(blocking=False):
            raise BusyError(self.what, self.retry_after)
        try:
            yield
        finally:
            self._free.release()


def client_of(host: str | None) -> str:
    """The key of a client's bucket: his address (``"unknown"`` without one)."""
    return host or "unknown"


class BodyTimeoutError(ApiError):
    """A request body stalled: no part of it came for ``seconds`` seconds."""

    default_code = "body_timeout"

    def __init__(self, seconds: float) -> None:
        super().__init__(
            408,
            f"the request body stalled: nothing came for {seconds:g} s",
            "body_timeout",
            {"seconds": int(seconds) if seconds == int(seconds) else seconds},
        )


class BodyTimeout:
    """ASGI middleware: a request body that stalls for ``seconds`` between two parts (or
    before the first) is answered 408 ``body_timeout`` and the connection closed; the app
    reading it sees its read fail, and whatever it answers then is dropped. Once the body is
    in, ``receive`` is left alone (a live stream waits on it for the client to leave)."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        if seconds <= 0:
            raise ValueError(f"seconds: must be positive, got {seconds}")
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body_in = False
        started = False
        refused = False

        async def timed_receive() -> Message:
            nonlocal body_in, refused
            if body_in:
                return await receive()
            try:  # asyncio.timeout, not wait_for: no task of its own for every read
                async with asyncio.timeout(self.seconds):
                    message = await receive()
            except TimeoutError:
                refused = True
                if not started:
                    response = errors.answer(Request(scope), BodyTimeoutError(self.seconds))
                    response.headers["connection"] = "close"
                    await response(scope, receive, send)
                raise BodyTimeoutError(self.seconds) from None
            body_in = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused:
                return  # the 408 is the answer
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, timed_receive, guarded_send)
        except Exception:
            if not refused:
                raise


class TooManyStreamsError(ApiError):
    """A client holds as many live streams open as he may (``most``): one must end first."""

    default_code = "too_many_streams"

    def __init__(self, most: int) -> None:
        super().__init__(
            429,
            f"too many live streams from one client: at most {most} at once; close one first",
            "too_many_streams",
            {"most": most},
        )


class Slots:
    """At most ``most`` live streams open per client at once; one more is refused
    (:class:`TooManyStreamsError`). Thread-safe; a client holding none is forgotten."""

    def __init__(self, most: int) -> None:
        if most < 1:
            raise ValueError(f"streams_per_client: must be at least 1, got {most}")
        self.most = most
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Take one of ``client``'s slots, or refuse him."""
        with self._lock:
            held = self._held.get(client, 0)
            if held >= self.most:
                raise TooManyStreamsError(self.most)
            self._held[client] = held + 1

    def give(self, client: str) -> None:
        """Give back a slot :meth:`take` took."""
        with self._lock:
            held = self._held.get(client, 0) - 1
            if held > 0:
                self._held[client] = held
            else:
                self._held.pop(client, None)

    def held(self, client: str) -> int:
        """The slots ``client`` holds."""
        with self._lock:
            return self._held.get(client, 0)
