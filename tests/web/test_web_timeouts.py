"""Slow clients do not lock a club out (issue 18 item 5, the slowloris finding: 1,100 slow
connections locked everyone out). ``onered serve`` in a subprocess with short timeouts: 50
connections trickling a request's headers do not keep a normal client from an answer and
are closed after the header timeout; a body that stalls is answered 408 ``body_timeout``.
Outcomes only: the guards are generous, no time is measured."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from onered.cli import build_parser, main
from onered.cli import serve as serve_cli
from onered.web import serving
from onered.web.limits import Limits
from web_support import P1, P2, Server, free_port

SLOW = 50
#: Long enough for a loaded machine to answer, short enough for the fast tier.
HEADER_TIMEOUT = "2"
BODY_TIMEOUT = "2"
#: Nothing in these tests may wait longer than this for one thing.
GUARD = 60.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("timeouts") / "data"
    srv = Server(data, "--header-timeout", HEADER_TIMEOUT, "--body-timeout", BODY_TIMEOUT)
    srv.start()
    yield srv
    srv.stop()


def _connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=GUARD)


def _closed(sock: socket.socket) -> bytes | None:
    """What the server sent before closing ``sock`` (``None``: still open at the guard)."""
    sock.settimeout(GUARD)
    got = b""
    try:
        while chunk := sock.recv(4096):
            got += chunk
    except TimeoutError:
        return None
    except OSError:
        pass  # reset: closed too
    return got


def test_slow_headers_do_not_lock_out_a_normal_client(server: Server) -> None:
    slow = [_connect(server) for _ in range(SLOW)]
    try:
        for sock in slow:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        for _ in range(3):  # trickle a header line each round, as slowloris does
            for sock in slow:
                with contextlib.suppress(OSError):  # closed by the server already: good
                    sock.sendall(b"X-Slow: 1\r\n")
            answer = httpx.get(server.base + "/api/health", timeout=GUARD)
            assert answer.status_code == 200
            time.sleep(0.2)
        ends = [_closed(sock) for sock in slow]
    finally:
        for sock in slow:
            sock.close()
    assert all(end is not None for end in ends), "a slow connection was never closed"
    for end in ends:  # closed, with a 408 saying why (part of a request had come)
        assert end in (b"", None) or end.startswith(b"HTTP/1.1 408")
    assert httpx.get(server.base + "/api/health", timeout=GUARD).status_code == 200


def test_a_silent_connection_is_closed(server: Server) -> None:
    sock = _connect(server)
    with sock:
        assert _closed(sock) is not None


def test_a_keep_alive_connection_trickling_its_next_request_is_closed(server: Server) -> None:
    sock = _connect(server)
    with sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        sock.settimeout(GUARD)
        assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        sock.sendall(b"GET /api/health HTTP/1.1\r\n")  # the next request, never finished
        end = _closed(sock)  # (after what is left of the first answer, if anything)
    assert end is not None, "the connection was never closed"
    assert end.endswith(b"}") or b"HTTP/1.1 408" in end


def _post_stalled(
    server: Server, path: str, extra: bytes = b"", start: bytes = b"{}"
) -> tuple[int, dict[str, object]]:
    """POST a JSON body said to be of 100 bytes that stops after ``start``; the status and
    JSON body answered."""
    sock = _connect(server)
    with sock:
        sock.sendall(
            b"POST " + path.encode() + b" HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n" + extra + b"\r\n" + start
        )
        end = _closed(sock)
    assert end is not None, "a stalled body was never answered"
    head, _, body = end.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    headers = head.decode().lower()
    assert "connection: close" in headers
    assert "x-content-type-options: nosniff" in headers  # the security headers too
    return status, json.loads(body)


def test_a_stalled_body_is_answered_408(server: Server) -> None:
    status, body = _post_stalled(server, "/api/games")
    assert status == 408
    assert body["code"] == "body_timeout"
    assert body["params"] == {"seconds": int(BODY_TIMEOUT)}


def test_a_stalled_change_with_an_idempotency_key_changes_nothing(server: Server) -> None:
    made = httpx.post(
        server.base + "/api/games", json={"mode": "mark", "players": [P1, P2]}, timeout=GUARD
    )
    assert made.status_code == 201, made.text
    game, token = made.json()["id"], made.json()["token"]
    before = httpx.get(f"{server.base}/api/games/{game}", timeout=GUARD).json()["revision"]
    stroke = b'{"parts":["no_score"]}'  # a whole stroke: the part that came is not taken for it
    status, body = _post_stalled(
        server,
        f"/api/games/{game}/mark",
        f"X-Game-Token: {token}\r\nIdempotency-Key: k-stalled\r\n".encode(),
        stroke,
    )
    assert (status, body["code"]) == (408, "body_timeout")
    after = httpx.get(f"{server.base}/api/games/{game}", timeout=GUARD).json()["revision"]
    assert after == before
    sent = httpx.post(  # the same stroke sent whole is taken
        f"{server.base}/api/games/{game}/mark",
        content=stroke,
        headers={
            "X-Game-Token": token,
            "Idempotency-Key": "k-whole",
            "Content-Type": "application/json",
        },
        timeout=GUARD,
    )
    assert sent.status_code == 200, sent.text
    assert httpx.get(f"{server.base}/api/games/{game}", timeout=GUARD).json()["revision"] > before


def test_the_limits_flags_set_the_limits_and_name_a_bad_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = build_parser().parse_args(
        [
            "serve",
            "--header-timeout",
            "3.5",
            "--max-connections",
            "100",
            "--imports-per-minute",
            "2",
        ]
    )
    limits = serve_cli.limits_of(args)
    assert (limits.header_timeout, limits.max_connections, limits.imports_per_minute) == (
        3.5,
        100,
        2,
    )
    assert limits.body_timeout == Limits().body_timeout  # a flag not given: the default
    port = str(free_port())
    for flag in ("--header-timeout", "--body-timeout", "--backlog", "--concurrent-imports"):
        assert main(["serve", "--port", port, flag, "0"]) == 2
        err = capsys.readouterr().err
        assert f"onered serve: {flag}: must be" in err
        assert "Traceback" not in err
    assert main(["--lang", "ru", "serve", "--port", port, "--backlog", "0"]) == 2
    assert "onered serve: --backlog: нужно не меньше 1, а дано 0" in capsys.readouterr().err


def test_the_connection_cap_stays_below_the_open_files() -> None:
    assert serving.concurrency(Limits(max_connections=4096), 1024) == 1024 - serving.RESERVED_FILES
    assert serving.concurrency(Limits(max_connections=100), 1_000_000) == 100


def test_the_streams_cap_and_the_shutdown_bound_come_from_their_flags() -> None:
    args = build_parser().parse_args(
        ["serve", "--streams-per-client", "4", "--shutdown-timeout", "2"]
    )
    limits = serve_cli.limits_of(args)
    assert (limits.streams_per_client, limits.shutdown_timeout) == (4, 2)
    config = serving.config(object(), "127.0.0.1", free_port(), limits)
    assert config.timeout_graceful_shutdown == 2
