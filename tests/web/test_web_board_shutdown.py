"""A TV board left open does not keep ``onered serve`` from stopping (issue 18, the board's
finding: with a TV open the server ignored SIGTERM for over 60 s): told to stop, the server
ends its live streams and exits."""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import httpx

from web_support import P1, P2, Server


def test_sigterm_stops_the_server_with_a_live_stream_open(tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    server.start()
    assert server.proc is not None
    game = httpx.post(server.base + "/api/games", json={"players": [P1, P2]}).json()["id"]
    opened = threading.Event()
    ended = threading.Event()

    def tv() -> None:
        try:
            with httpx.stream("GET", f"{server.base}/api/games/{game}/events", timeout=None) as r:
                for chunk in r.iter_text():
                    if "event: game" in chunk:
                        opened.set()
        except httpx.HTTPError:
            pass
        ended.set()

    thread = threading.Thread(target=tv, daemon=True)
    thread.start()
    assert opened.wait(timeout=30), "the stream sent no first event"
    proc = server.proc
    proc.terminate()
    try:
        code = proc.wait(timeout=30)  # before: still waiting for the stream after 60 s
    except subprocess.TimeoutExpired:
        server.kill()
        raise AssertionError("the server did not stop with a live stream open") from None
    server.proc = None
    assert code in (0, -15)  # uvicorn ends by the signal it was sent, once shut down
    assert ended.wait(timeout=10)  # the stream ended (the browser would reconnect later)
