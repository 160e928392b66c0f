"""``onered serve``: the web app — play in a browser, mark real matches, keep the records.

Needs the ``web`` extra (``pip install 'onered[web]'``: FastAPI and uvicorn); without it the
command says so and exits 2. Games are kept in an SQLite database in the data folder
(``--data``, default ``./onered-data``), or with ``--database postgresql://...`` in a
PostgreSQL database (``onered.web.db``; the schema is migrated up to date at start).
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import uvicorn

    from onered.web.limits import Limits

HELP = "serve the web app: play in a browser, mark real matches, game records"

#: Defaults: loopback only, and a data folder in the current directory.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA = "onered-data"
#: The packages of the ``web`` extra.
WEB_PACKAGES = ("fastapi", "uvicorn")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered serve``."""
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=DEFAULT_DATA,
        help=f"folder of the games database (default ./{DEFAULT_DATA}, created if missing)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="worker processes serving the same games on one port (default 1; docs/web.md)",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="keep everything in this PostgreSQL database (postgresql://user:password@host"
        ":port/name) instead of the data folder's SQLite file",
    )
    _limit_flags(parser)


#: The flags of the limits for anonymous clients: flag, ``Limits`` field, type, help.
LIMIT_FLAGS = (
    ("--header-timeout", "header_timeout", float, "seconds to send a request's headers"),
    ("--body-timeout", "body_timeout", float, "seconds a request body may stall (then 408)"),
    ("--max-connections", "max_connections", int, "connections served at once (then 503)"),
    ("--backlog", "backlog", int, "connections waiting to be accepted"),
    ("--creations-per-minute", "creations_per_minute", float, "games made per client a minute"),
    ("--imports-per-minute", "imports_per_minute", float, "imports per client a minute"),
    ("--concurrent-imports", "concurrent_imports", int, "imports judged at once (then 503)"),
    ("--streams-per-client", "streams_per_client", int, "live streams per client (then 429)"),
    ("--shutdown-timeout", "shutdown_timeout", int, "seconds running requests get at a stop"),
)


def _limit_flags(parser: argparse.ArgumentParser) -> None:
    """The flags of :data:`LIMIT_FLAGS`; one not given keeps ``Limits()``'s value (not
    read here: ``onered``'s other commands must not import the web extra to build this)."""
    group = parser.add_argument_group(
        "limits for anonymous clients (defaults: onered.web.limits.Limits, docs/web.md)"
    )
    for flag, field, kind, text in LIMIT_FLAGS:
        group.add_argument(flag, dest=field, type=kind, default=None, metavar="N", help=text)


def limits_of(args: argparse.Namespace) -> Limits:
    """The ``Limits`` the flags ask for (``Limits()``'s where a flag is not given); a
    ``LimitError`` naming the flag when one is out of range."""
    from onered.web.limits import LimitError, Limits

    given = {field: getattr(args, field, None) for _, field, _, _ in LIMIT_FLAGS}
    try:
        return Limits(**{k: v for k, v in given.items() if v is not None})
    except LimitError as exc:
        flag = next((f for f, name, _, _ in LIMIT_FLAGS if name == exc.name), exc.name)
        raise exc.named(flag) from None


def missing_packages() -> list[str]:
    """The packages of the ``web`` extra that are not installed."""
    return [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 when the extra is missing, the port cannot be listened on
    (taken, say: one line naming it, no traceback) or the data folder is unusable."""
    missing = missing_packages()
    if missing:
        print(
            f"onered serve: the web app needs the 'web' extra ({', '.join(missing)} not "
            "installed); install it with:  pip install 'onered[web]'",
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print(f"onered serve: --port: {args.port} is not a port (1-65535)", file=sys.stderr)
        return 2
    from onered.web.serving import MAX_WORKERS

    if not 1 <= getattr(args, "workers", 1) <= MAX_WORKERS:
        print(
            f"onered serve: --workers: from 1 to {MAX_WORKERS}, got {args.workers}",
            file=sys.stderr,
        )
        return 2
    try:
        socks = listen_workers(args.host, args.port, getattr(args, "workers", 1))
    except OSError as exc:
        print(f"onered serve: {_bind_problem(exc, args.host, args.port)}", file=sys.stderr)
        return 2
    try:
        return _serve(args, socks)
    finally:
        for sock in socks:
            sock.close()


def _serve(args: argparse.Namespace, socks: list[socket.socket]) -> int:
    """Build the app on the data folder and serve it on the bound sockets (one a worker)."""
    from onered.cli import error_line
    from onered.texts import Lang
    from onered.web import serving
    from onered.web.app import create_app
    from onered.web.db import DatabaseError, hide_password
    from onered.web.limits import LimitError

    try:
        limits = limits_of(args)
    except LimitError as exc:
        print(error_line("serve", exc, Lang(args.lang)), file=sys.stderr)
        return 2
    data = Path(args.data).expanduser().resolve()
    database = args.database
    if database is not None and not database.startswith(("postgresql://", "postgres://")):
        print(
            "onered serve: --database: expected a URL postgresql://user@host:port/name",
            file=sys.stderr,
        )
        return 2
    host = f"[{args.host}]" if ":" in args.host else args.host

    def announce() -> None:
        # Announced only once the port is ours: a user never opens someone else's server.
        print(f"onered: open http://{host}:{args.port}/ in a browser (Ctrl+C stops)", flush=True)
        kept = hide_password(database) if database else data
        print(f"onered: games are kept in {kept}", flush=True)

    def work(slot: int, ready: Callable[[], None]) -> int:
        """Worker ``slot``'s server on its socket: its app built, then served until told
        to stop."""
        try:
            app = create_app(data, limits, database=database)
        except DatabaseError as exc:
            where = "--database" if database else "--data"
            print(error_line("serve", exc, Lang(args.lang), where=where), file=sys.stderr)
            return 2
        ready()
        config = serving.config(app, args.host, args.port, limits)  # timeouts, caps, files
        serving.steady_gc()  # the collector tuned for a long-running server
        _server(config).run(sockets=[socks[slot]])
        return 0

    workers = getattr(args, "workers", 1)
    if workers == 1:
        return work(0, announce)
    try:  # several processes on the port (onered.web.serving.Supervisor)
        return serving.supervise(workers, work, limits.shutdown_timeout, announce)
    except serving.WorkerError as exc:
        print(f"onered serve: {exc}", file=sys.stderr)
        return 2


def _server(config: uvicorn.Config) -> uvicorn.Server:
    """uvicorn's server that, told to stop (SIGTERM, Ctrl+C), first ends the live streams
    (``onered.web.api_live.end_streams``): an open TV board would otherwise keep the graceful
    shutdown waiting for ever."""
    import uvicorn

    from onered.web.api_live import end_streams

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            end_streams()
            super().handle_exit(sig, frame)

    return Server(config)


def listen(host: str, port: int, *, reuse_port: bool = False) -> socket.socket:
    """A listening socket on ``host``:``port`` (IPv6 when the host has a colon), bound
    before anything is announced; ``OSError`` when the port is taken or the host unknown.
    ``reuse_port``: ``SO_REUSEPORT``, so that more sockets may listen on the port."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)  # an unknown host: gaierror
    sock = socket.create_server((host, port), family=family, reuse_port=reuse_port)
    # proto TCP, not 0: asyncio sets TCP_NODELAY only on such sockets' connections; without
    # it an answer written in two parts waits for the client's delayed ACK (40 ms a request
    # on a kept-alive connection)
    return socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP, fileno=sock.detach())


def listen_workers(host: str, port: int, workers: int) -> list[socket.socket]:
    """The listening sockets of ``workers`` workers on ``host``:``port``: one plain socket
    for one worker; else one ``SO_REUSEPORT`` socket each (``onered.web.serving``), after
    checking with a plain one that the port is free (``SO_REUSEPORT`` alone would share it
    with another server of the same user's already listening there)."""
    if workers <= 1:
        return [listen(host, port)]
    listen(host, port).close()
    socks: list[socket.socket] = []
    try:
        for _ in range(workers):
            socks.append(listen(host, port, reuse_port=True))
    except OSError:
        for sock in socks:
            sock.close()
        raise
    return socks


def _bind_problem(exc: OSError, host: str, port: int) -> str:
    """One line on why the server cannot listen, naming the port (or host)."""
    reason = os.strerror(exc.errno) if exc.errno and exc.errno > 0 else exc.strerror
    if exc.errno == errno.EADDRINUSE:
        return f"--port: port {port} on {host} is in use (another server?); choose another port"
    if exc.errno == errno.EACCES:
        return f"--port: not allowed to listen on port {port} (ports below 1024 need root)"
    if isinstance(exc, socket.gaierror) or exc.errno == errno.EADDRNOTAVAIL:
        return f"--host: cannot listen on {host!r} ({reason})"
    return f"cannot listen on {host}:{port}: {reason or exc}"
