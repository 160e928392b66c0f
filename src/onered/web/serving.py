"""How ``onered serve`` faces slow or many clients: a header timeout in uvicorn's HTTP/1.1
protocol, the open-files limit raised, and uvicorn's own settings from :class:`Limits`.

uvicorn has no header timeout: a client that opens a connection and trickles a request's
headers a byte at a time holds the connection (and a file descriptor) for ever, and about a
thousand such clients locked everyone out (issue 18, slowloris). :func:`protocol` is
uvicorn's h11 protocol with a deadline per request: a connection that has not sent a whole
request head within ``header_timeout`` seconds of its first byte (or of the connection, or
of the previous answer) is closed, with a 408 when part of a request came. The same deadline
covers the rest of a body after the app has answered without reading it. A body that stalls
while the app reads it is the body timeout's (``onered.web.limits.BodyTimeout``: 408).

Needs the ``web`` extra (uvicorn, h11); imported by ``onered serve`` only.
"""

from __future__ import annotations

import asyncio
import gc
import resource
from typing import Any, cast

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from onered.web.limits import Limits

#: Sent to a client whose request head did not come in time (then the connection is closed).
TIMEOUT_ANSWER = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"connection: close\r\ncontent-length: 29\r\n\r\nrequest headers took too long"
)
#: File descriptors kept free of clients (the database, its journal, logs, the engine's).
RESERVED_FILES = 64


class Coalescing:
    """A connection's transport whose writes of one turn of the event loop go out as one
    (``socket.send``): uvicorn writes an answer's head and its body apart, two system calls
    (each waking the client) where one does; on loopback a send costs about 0.1 ms of the
    server's CPU. What is written is sent at the next turn of the loop, and before the
    connection is closed; the rest is the transport's own."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not data:
            return
        if not self._pending:
            self._loop.call_soon(self._flush)
        self._pending.append(data)

    def _flush(self) -> None:
        if self._pending:
            data = b"".join(self._pending)
            self._pending.clear()
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HeaderTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol closing a connection that does not send a whole request head
    within ``header_timeout`` seconds (subclassed per server by :func:`protocol`), its
    writes sent together (:class:`Coalescing`)."""

    header_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.transport = cast(asyncio.Transport, Coalescing(transport, self.loop))
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        super().connection_lost(exc)

    def _waiting(self) -> bool:
        """Whether the connection waits on the client with no app reading: for a request
        head, or for the rest of a body the app answered without reading."""
        if self.transport is None or self.transport.is_closing():
            return False
        state = self.conn.their_state
        answered = self.cycle is None or self.cycle.response_complete
        return state is h11.IDLE or (state is h11.SEND_BODY and answered)

    def _watch(self) -> None:
        """Start the deadline when the connection begins to wait on the client (trickled
        bytes do not move it), stop it once the request head is in."""
        if not self._waiting():
            self._cancel()
        elif self._deadline is None:
            self._deadline = self.loop.call_later(self.header_timeout, self._expire)

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _expire(self) -> None:
        self._deadline = None
        if not self._waiting():
            return
        if self.conn.their_state is h11.IDLE and self.conn.trailing_data[0]:
            self.transport.write(TIMEOUT_ANSWER)  # part of a request came: say why
        self.transport.close()


def protocol(header_timeout: float) -> type[HeaderTimeoutProtocol]:
    """The HTTP protocol class for uvicorn with this header timeout (seconds)."""
    if header_timeout <= 0:
        raise ValueError(f"header_timeout: must be positive, got {header_timeout}")
    return type("Protocol", (HeaderTimeoutProtocol,), {"header_timeout": header_timeout})


def raise_open_files() -> int:
    """Raise the soft limit of open files to the hard one (each client holds one: the
    default 1,024 refused clients from about a thousand connections); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # not allowed here: keep the soft one
            return soft
        return target
    return soft


#: The garbage collector's thresholds for the server (Python's are 700, 10, 10): a young
#: collection once 10,000 more containers are alive than freed, not 700.
GC_THRESHOLDS = (10_000, 10, 10)


def steady_gc() -> None:
    """Tune the garbage collector for a long-running server, once the app is built: what
    exists then (modules, the app, the store) is frozen out of the collections
    (``gc.freeze``), and young collections come less often (:data:`GC_THRESHOLDS`). With
    Python's defaults 50 markers tapping (7,000 taps in 11 s) cost 1,600 young collections
    and 13 full ones, 1.5 s of the server's time, the full ones pausing every request up to
    78 ms (the p99 doubled); memory is still freed as before (by reference counts, and
    cycles by the collector, only later)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def concurrency(limits: Limits, open_files: int) -> int:
    """uvicorn's ``limit_concurrency``: :attr:`Limits.max_connections`, but never more than
    the open files allow (beyond it a new client gets 503 rather than a refused connect)."""
    return max(1, min(limits.max_connections, open_files - RESERVED_FILES))


def config(app: Any, host: str, port: int, limits: Limits) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` with :class:`Limits`' header timeout, connection
    cap, backlog and shutdown bound (the open-files limit raised first)."""
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        http=protocol(limits.header_timeout),
        limit_concurrency=concurrency(limits, raise_open_files()),
        backlog=limits.backlog,
        timeout_graceful_shutdown=limits.shutdown_timeout,
    )
