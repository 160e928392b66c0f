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

Several worker processes (``onered serve --workers N``, :func:`supervise`) serve one port.
The parent binds one listening socket per worker on it (``SO_REUSEPORT``: the kernel spreads
new connections evenly over them, by a hash of each connection's addresses), then forks
the workers, worker k serving socket k. (On one shared socket an event loop woken for a
new connection accepts every one waiting: the first worker awake took them all, 500 viewers
opened at once all on one worker.) The parent keeps its copy of every socket, so a worker's
socket outlives the worker: connections the kernel queued on it while it was being
replaced wait there for its successor, none is refused. Each worker is a whole server (its
app, its event loop, its store's connections); the parent only watches: it starts a worker
again when one dies, and tells them all to stop (``SIGTERM``, each stopping gracefully)
when it is told to (``SIGTERM``, ``SIGINT``).

Needs the ``web`` extra (uvicorn, h11); imported by ``onered serve`` only.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import os
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any, cast

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from onered.errors import OneredError
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


#: The most worker processes ``onered serve --workers`` starts.
MAX_WORKERS = 64
#: A worker that dies within this many seconds of its start died young: it is started again
#: after :data:`RESTART_PAUSE` seconds, and after :data:`YOUNG_DEATHS` such deaths in a row
#: the server gives up (a fault that kills every worker would otherwise spin).
YOUNG = 5.0
RESTART_PAUSE = 1.0
YOUNG_DEATHS = 5
#: Seconds the workers get to stop, beyond the graceful shutdown's own bound, before the
#: parent kills them.
STOP_MARGIN = 5.0
_PR_SET_PDEATHSIG = 1


class WorkerError(OneredError, RuntimeError):
    """``onered serve --workers`` cannot run (no ``fork`` on this system, say)."""

    default_code = "workers"


@dataclass(frozen=True)
class WorkerExit:
    """How a worker ended: its ``pid`` and exit ``code``, or the ``signal`` that killed it."""

    pid: int
    code: int | None
    signal: int | None

    def describe(self) -> str:
        """For the log: "exited with 3", "killed by SIGKILL"."""
        if self.signal is not None:
            return f"killed by {signal.Signals(self.signal).name}"
        return f"exited with {self.code}"


def _exit_of(pid: int, status: int) -> WorkerExit:
    if os.WIFSIGNALED(status):
        return WorkerExit(pid, None, os.WTERMSIG(status))
    return WorkerExit(pid, os.waitstatus_to_exitcode(status), None)


def _die_with_parent() -> None:
    """In a worker: be sent SIGTERM when the parent dies (Linux's ``PR_SET_PDEATHSIG``), so a
    parent killed with SIGKILL leaves no workers behind; elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class Supervisor:
    """The parent of ``onered serve --workers N`` (see the module docstring): forks
    ``workers`` processes, the k-th running ``work(k, ready)``, which calls ``ready()`` once
    its app is built and returns the process's exit code once its server has stopped (a
    worker started in place of a dead one gets its ``k``); ``announce()`` is called once
    the first worker is ready."""

    def __init__(
        self,
        workers: int,
        work: Callable[[int, Callable[[], None]], int],
        *,
        stop_timeout: float,
        announce: Callable[[], None] = lambda: None,
        log: Callable[[str], None] = lambda text: print(f"onered: {text}", file=sys.stderr),
    ) -> None:
        if not hasattr(os, "fork"):
            raise WorkerError("--workers: several workers need a system with fork (POSIX)")
        if not 1 <= workers <= MAX_WORKERS:
            raise WorkerError(f"--workers: from 1 to {MAX_WORKERS}, got {workers}")
        self.workers = workers
        self.work = work
        self.stop_timeout = stop_timeout
        self.announce = announce
        self.log = log
        #: The running workers: pid -> its number and when it was started (monotonic s).
        self.running: dict[int, tuple[int, float]] = {}
        self.stopping = False
        #: Workers started again after they died (for the log and tests).
        self.restarts = 0

    def run(self) -> int:
        """Start the workers (the first alone: it prepares the database, e.g. its
        migrations, before the others open it), watch them until told to stop; 0 then, or
        the first worker's code when it could not start (its error said by itself)."""
        handled = (signal.SIGTERM, signal.SIGINT, signal.SIGALRM)
        before = {sig: signal.getsignal(sig) for sig in handled}
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        signal.signal(signal.SIGALRM, self._kill_all)
        try:
            first = self._start(0, wait_ready=True)
            if first is not None:
                return first
            self.announce()  # the first worker is ready: the server is up
            for slot in range(1, self.workers):
                if self.stopping:
                    break
                self._start(slot)
            return self._watch()
        finally:
            signal.alarm(0)
            for sig, handler in before.items():
                signal.signal(sig, handler)

    def _start(self, slot: int, wait_ready: bool = False) -> int | None:
        """Fork worker ``slot``; with ``wait_ready``, wait until it has built its app
        (``None``) or died first (its exit code, 1 if it was killed)."""
        read_end, write_end = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # the worker
            os.close(read_end)
            self._worker(slot, write_end)
        os.close(write_end)
        self.running[pid] = (slot, time.monotonic())
        try:
            if not wait_ready:
                return None
            while True:
                try:
                    said = os.read(read_end, 1)
                    break
                except InterruptedError:  # pragma: no cover - retried by Python itself
                    continue
            if said:
                return None
            _, status = os.waitpid(pid, 0)
            del self.running[pid]
            ended = _exit_of(pid, status)
            return ended.code if ended.code else 1
        finally:
            os.close(read_end)

    def _worker(self, slot: int, ready_fd: int) -> None:
        """In the forked worker: its own signals, then ``work``; never returns."""
        code = 1
        try:
            signal.alarm(0)
            for sig in (signal.SIGTERM, signal.SIGALRM):
                signal.signal(sig, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            _die_with_parent()

            def ready() -> None:
                with contextlib.suppress(OSError):
                    os.write(ready_fd, b"1")
                    os.close(ready_fd)

            code = self.work(slot, ready)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
                sys.stderr.flush()
            os._exit(code)

    def _watch(self) -> int:
        """Wait for workers to end; start another for each that dies until told to stop."""
        young = 0
        while self.running:
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:  # pragma: no cover - none left
                break
            was = self.running.pop(pid, None)
            if was is None or self.stopping:
                continue
            slot, started = was
            ended = _exit_of(pid, status)
            young = young + 1 if time.monotonic() - started < YOUNG else 0
            if young >= YOUNG_DEATHS:
                self.log(f"worker {pid} {ended.describe()}; {young} died young: giving up")
                self._stop(signal.SIGTERM, None)
                continue
            self.log(f"worker {pid} {ended.describe()}; starting another")
            if young:
                time.sleep(RESTART_PAUSE)
            if not self.stopping:
                self.restarts += 1
                self._start(slot)
        return 1 if young >= YOUNG_DEATHS else 0

    def _stop(self, sig: int, frame: FrameType | None) -> None:
        """Told to stop: every worker is told (SIGTERM) once; those still running after
        their graceful shutdown's bound are killed (:meth:`_kill_all`, by an alarm)."""
        if self.stopping:
            return
        self.stopping = True
        for pid in list(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        signal.alarm(max(1, int(self.stop_timeout + STOP_MARGIN + 0.999)))

    def _kill_all(self, sig: int, frame: FrameType | None) -> None:
        for pid in list(self.running):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def supervise(
    workers: int,
    work: Callable[[int, Callable[[], None]], int],
    stop_timeout: float,
    announce: Callable[[], None] = lambda: None,
) -> int:
    """Run ``work`` in ``workers`` processes (:class:`Supervisor`) until told to stop."""
    return Supervisor(workers, work, stop_timeout=stop_timeout, announce=announce).run()
