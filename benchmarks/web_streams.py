"""Live streams under load: many idle TV boards open against a real server.

``onered serve`` is started in a subprocess on 127.0.0.1 over a fresh data folder, with the
open-files soft limit most machines give a login (``--server-nofile``, 1024; 0 keeps this
process's), to see whether the server raises it itself. ``--games`` marked games are made,
then ``N`` server-sent event streams (``GET /api/games/{id}/events``, as a TV board opens
them) are opened to them, spread over many loopback addresses (127.1.x.y: one club device
each holds a few, well under the streams-per-client cap). A stream counts as accepted once
its first event (the whole game) came. With the streams open and idle:

- **idle CPU**: the server's CPU (user + system, % of one core, from ``/proc``) over
  ``--idle`` seconds with nothing happening;
- **health**: ``GET /api/health`` answered ``--health`` times one after the other (a
  keep-alive connection, a short pause between): median and p95;
- **fan-out**: one stroke marked on the first game: time until every stream of that game
  has its event;
- **shutdown**: SIGTERM with the streams open: time until the server has exited.

Goals (issue 18): 1,000 open streams leave the health check's median under 20 ms; the
server stops within 2 s with streams open. Report with the machine's load (``uptime``).

    python benchmarks/web_streams.py [--streams 250,1000] [--games 4] [--health 200]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_server import cpu_seconds, free_port, start_server

PLAYERS = ("Ivanov", "Petrov")
#: Streams opened from one loopback address (a club device; under the per-client cap).
PER_ADDRESS = 8
#: Streams opened at once while opening them.
OPENING_BATCH = 50
#: Seconds a stream may take to send its first event before it counts as refused.
OPEN_TIMEOUT = 15.0
#: Seconds the server may take to stop before it is killed (and reported as not stopping).
STOP_TIMEOUT = 60.0


@dataclass
class Stream:
    """One open event stream and what came on it."""

    game: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    events: int = 0
    last_event: float = 0.0
    ended: float = 0.0
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    async def follow(self) -> None:
        """Count the ``game`` events as they come (a marker split across reads is kept)."""
        carry = b""
        while True:
            try:
                data = await self.reader.read(65536)
            except OSError:
                data = b""
            if not data:
                self.ended = time.perf_counter()
                return
            chunk = carry + data
            found = chunk.count(b"event: game")
            if found:
                self.events += found
                self.last_event = time.perf_counter()
            carry = chunk[-16:]

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.writer.close()


@dataclass(frozen=True)
class Result:
    """One run's numbers (``None``: not measured)."""

    streams: int
    accepted: int
    idle_cpu: float
    health_p50: float
    health_p95: float
    health_failed: int
    fan_out: float | None
    shutdown: float | None
    ended: float | None
    load: str


def raise_own_files() -> None:
    """This process's open-files soft limit up to the hard one (it holds every stream)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def read_answer(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP/1.1 answer with a ``Content-Length``: its status and body."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = await reader.readexactly(length) if length else b""
    return status, body


async def request(
    port: int, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    """One request on a connection of its own."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(_head(port, method, path, body, headers or {}, close=True) + body)
        await writer.drain()
        return await read_answer(reader)
    finally:
        writer.close()


def _head(
    port: int, method: str, path: str, body: bytes, headers: dict[str, str], close: bool
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    if body:
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if close:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def make_games(port: int, n: int) -> list[tuple[str, str]]:
    """``n`` marked games made through the API: their ids and secrets."""
    body = json.dumps({"mode": "mark", "players": list(PLAYERS), "target": 100}).encode()
    made = []
    for _ in range(n):
        status, answer = asyncio.run(request(port, "POST", "/api/games", body))
        if status != 201:
            raise RuntimeError(f"POST /api/games: {status} {answer[:200]!r}")
        game = json.loads(answer)
        made.append((game["id"], game["token"]))
    return made


def address(k: int) -> str:
    """The ``k``-th client's loopback address (127.1.x.y)."""
    return f"127.1.{k // 250}.{k % 250 + 1}"


async def open_stream(port: int, game_id: str, game: int, source: str) -> Stream | None:
    """A stream of ``game_id`` from ``source``, once its first event came; ``None`` when
    the server refuses it (an error answer, a closed connection, no event in time)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), OPEN_TIMEOUT
        )
    except (OSError, TimeoutError):
        return None
    head = _head(port, "GET", f"/api/games/{game_id}/events", b"", {}, close=False)
    stream = Stream(game, reader, writer)
    try:
        writer.write(head)
        await writer.drain()
        buffer = b""
        async with asyncio.timeout(OPEN_TIMEOUT):
            while b"event: game" not in buffer:
                data = await reader.read(65536)
                if not data:
                    raise ConnectionError("closed")
                buffer += data
                if buffer.startswith(b"HTTP/1.1 ") and not buffer.startswith(b"HTTP/1.1 200"):
                    raise ConnectionError(buffer[:12].decode("latin-1"))
    except (OSError, TimeoutError, ConnectionError):
        writer.close()
        return None
    stream.events = 1
    stream.task = asyncio.create_task(stream.follow())
    return stream


async def health(port: int, times: int, pause: float) -> tuple[list[float], int]:
    """``GET /api/health`` ``times`` times on a keep-alive connection: milliseconds each,
    and how many failed (a new connection is opened after a failure)."""
    took: list[float] = []
    failed = 0
    conn: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    for _ in range(times):
        t0 = time.perf_counter()
        try:
            if conn is None:
                conn = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 30)
            reader, writer = conn
            writer.write(_head(port, "GET", "/api/health", b"", {}, close=False))
            await writer.drain()
            status, _ = await asyncio.wait_for(read_answer(reader), 30)
            if status != 200:
                raise ConnectionError(str(status))
            took.append((time.perf_counter() - t0) * 1000)
        except (OSError, TimeoutError, ConnectionError, asyncio.IncompleteReadError):
            failed += 1
            if conn is not None:
                conn[1].close()
            conn = None
        await asyncio.sleep(pause)
    if conn is not None:
        conn[1].close()
    return took, failed


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def run_one(
    n: int, games: int, times: int, idle: float, nofile: int, keep_log: Path | None = None
) -> Result:
    """One server, ``n`` streams over ``games`` games: the numbers of the module docstring
    (the server's output is copied to ``keep_log``, if given)."""
    with tempfile.TemporaryDirectory(prefix="onered-streams-") as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        proc = start_server(Path(tmp) / "data", port, nofile=nofile, log=log)
        try:
            made = make_games(port, games)

            async def measure() -> Result:
                streams: list[Stream] = []
                for start in range(0, n, OPENING_BATCH):
                    batch = range(start, min(n, start + OPENING_BATCH))
                    opened = await asyncio.gather(
                        *(
                            open_stream(
                                port, made[i % games][0], i % games, address(i // PER_ADDRESS)
                            )
                            for i in batch
                        )
                    )
                    streams += [s for s in opened if s is not None]
                await asyncio.sleep(1.0)  # settle
                cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
                await asyncio.sleep(idle)
                idle_cpu = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t0) * 100
                took, failed = await health(port, times, 0.02)
                game0 = [s for s in streams if s.game == 0]
                body = json.dumps({"parts": ["pot_red"]}).encode()
                sent = time.perf_counter()
                status, _ = await request(
                    port,
                    "POST",
                    f"/api/games/{made[0][0]}/mark",
                    body,
                    {"X-Game-Token": made[0][1]},
                )
                fan_out: float | None = None
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(30):
                        while status == 200 and game0 and any(s.events < 2 for s in game0):
                            await asyncio.sleep(0.005)
                        if status == 200 and game0:
                            fan_out = (max(s.last_event for s in game0) - sent) * 1000
                ordered = sorted(took) or [float("nan")]
                result = Result(
                    streams=n,
                    accepted=len(streams),
                    idle_cpu=idle_cpu,
                    health_p50=statistics.median(ordered),
                    health_p95=ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))],
                    health_failed=failed,
                    fan_out=fan_out if game0 else None,
                    shutdown=None,
                    ended=None,
                    load=load(),
                )
                t_term = time.perf_counter()
                proc.send_signal(signal.SIGTERM)
                stopped = await asyncio.to_thread(_wait, proc, STOP_TIMEOUT)
                shutdown = time.perf_counter() - t_term if stopped else None
                await asyncio.sleep(0.1)
                ends = [s.ended for s in streams if s.ended]
                ended = max(ends) - t_term if streams and len(ends) == len(streams) else None
                for s in streams:
                    s.close()
                return Result(**{**result.__dict__, "shutdown": shutdown, "ended": ended})

            return asyncio.run(measure())
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if keep_log is not None:
                keep_log.write_bytes(log.read_bytes())


def _wait(proc: subprocess.Popen[bytes], timeout: float) -> bool:
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return False
    return True


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", default="250,1000", help="numbers of open streams")
    parser.add_argument("--games", type=int, default=4, help="games the streams follow")
    parser.add_argument("--health", type=int, default=200, help="health checks timed")
    parser.add_argument("--idle", type=float, default=5.0, help="seconds of idle CPU measured")
    parser.add_argument(
        "--server-nofile",
        type=int,
        default=1024,
        help="the server's open-files soft limit at start (0: this process's)",
    )
    parser.add_argument("--server-log", type=Path, help="keep the server's output here")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.streams.split(",") if x.strip()]
    raise_own_files()
    print(
        f"load (uptime): {load()}; server's open-files soft limit at start: "
        f"{args.server_nofile or 'inherited'}"
    )
    print(
        f"{'streams':>8} {'accepted':>9} {'idle CPU %':>10} {'health p50':>11} {'p95':>9}"
        f" {'failed':>6} {'fan-out':>9} {'SIGTERM->exit':>13} {'streams ended':>13}  load"
    )
    for n in counts:
        r = run_one(n, args.games, args.health, args.idle, args.server_nofile, args.server_log)
        fan = "-" if r.fan_out is None else f"{r.fan_out:.0f} ms"
        stop = f">{STOP_TIMEOUT:.0f} s" if r.shutdown is None else f"{r.shutdown:.2f} s"
        ended = "-" if r.ended is None else f"{r.ended:.2f} s"
        print(
            f"{r.streams:>8} {r.accepted:>9} {r.idle_cpu:>10.1f} {r.health_p50:>8.1f} ms"
            f" {r.health_p95:>6.1f} ms {r.health_failed:>6} {fan:>9} {stop:>13} {ended:>13}"
            f"  {r.load}",
            flush=True,
        )


if __name__ == "__main__":
    main()
