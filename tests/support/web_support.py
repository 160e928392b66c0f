"""Helpers for the web app's tests: the API in-process, and a real server in a subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from onered.game.marking import Hit, Mark, Part
from onered.game.session import Session, SessionError
from onered.rules import FoulCode, Match, Option

P1 = "Ivanov"
P2 = "Petrov"

#: A marker's taps of most kinds, for games marked at random.
TAPS: tuple[Mark, ...] = (
    Mark(parts=frozenset({Part.NO_SCORE})),
    Mark(parts=frozenset({Part.CANNON})),
    Mark(parts=frozenset({Part.POT_RED})),
    Mark(parts=frozenset({Part.IN_OFF_RED})),
    Mark(parts=frozenset({Part.POT_OPPONENT})),
    Mark(parts=frozenset({Part.MISS})),
    Mark(fouls=frozenset({FoulCode.PUSH}), first_hit=Hit.RED),
)


def random_tap(game: Session, rng: random.Random) -> None:
    """One step of marking at random: a foul's option chosen when one is owed, else one of
    :data:`TAPS` (skipped when the position forbids it)."""
    if game.state.choice_pending:
        game.choose(rng.choice((Option.AS_THEY_LIE, Option.FROM_D)))
        return
    with contextlib.suppress(SessionError):
        game.mark(rng.choice(TAPS))


def random_game(seed: int, strokes: int, target: int = 100_000) -> Session:
    """A marked game of ``strokes`` strokes (or fewer, when one wins), taps at random."""
    rng = random.Random(seed)
    game = Session.new(Match(target=target, players=(P1, P2)))
    while game.state.stroke_no < strokes and not game.over:
        random_tap(game, rng)
    return game
REPO = Path(__file__).resolve().parents[2]


@dataclass
class Reply:
    """An HTTP answer, read."""

    status: int
    body: Any
    text: str
    headers: Mapping[str, str]

    @property
    def error(self) -> str:
        return str(self.body.get("error", "")) if isinstance(self.body, dict) else ""


class Api:
    """The app in-process through httpx's ASGI transport, with a synchronous face: each call
    runs one request in its own event loop (the app's store lives outside any loop)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        content: str | bytes | None = None,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        async def one() -> Reply:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                h = dict(headers or {})
                if token is not None:
                    h["X-Game-Token"] = token
                r = await client.request(method, path, json=json, content=content, headers=h)
                try:
                    body = r.json()
                except ValueError:
                    body = None
                return Reply(r.status_code, body, r.text, dict(r.headers))

        return asyncio.run(one())

    def get(self, path: str, **kw: Any) -> Reply:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Reply:
        return self.request("POST", path, **kw)

    # --- shortcuts --------------------------------------------------------------------

    def new_mark(self, target: int = 100, **extra: Any) -> tuple[str, str]:
        r = self.post(
            "/api/games", json={"mode": "mark", "players": [P1, P2], "target": target, **extra}
        )
        assert r.status == 201, r.text
        return r.body["id"], r.body["token"]

    def new_match(self, **extra: Any) -> dict[str, Any]:
        """A best of 3 to 6 points between Ivanov and Petrov (``extra`` overrides): the
        answer of ``POST /api/matches``."""
        body = {"players": [P1, P2], "best_of": 3, "target": 6, **extra}
        r = self.post("/api/matches", json=body)
        assert r.status == 201, r.text
        made: dict[str, Any] = r.body
        return made

    def mark(self, game: str, token: str, **body: Any) -> Reply:
        return self.post(f"/api/games/{game}/mark", json=body, token=token)

    def game(self, game: str) -> dict[str, Any]:
        r = self.get(f"/api/games/{game}")
        assert r.status == 200, r.text
        body: dict[str, Any] = r.body
        return body


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``onered serve`` in a subprocess on a free loopback port."""

    def __init__(self, data: Path, *flags: str) -> None:
        self.data = data
        self.flags = flags  # more of onered serve's flags (limits, say)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[str] | None = None
        self.banner: list[str] = []

    def start(self) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "onered",
                "serve",
                "--port",
                str(self.port),
                "--data",
                str(self.data),
                *self.flags,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                raise RuntimeError(f"onered serve exited with {self.proc.returncode}: {out}")
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    if self.proc.stdout is not None:
                        self.banner = [self.proc.stdout.readline(), self.proc.stdout.readline()]
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("onered serve did not answer within 30 s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no flushing."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
            self.proc = None


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file, read from its header (raises if it is no PNG)."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError(f"{path} is not a PNG file")
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
