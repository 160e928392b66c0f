"""Writes under load: many markers tapping at once against a real server.

``onered serve`` is started in a subprocess on 127.0.0.1 over a fresh data folder holding
``--markers`` marked games (made through the store before the server starts, so the rate
limit on new games plays no part). Each marker then taps its own game, one tap at a time
as the marking page's queue sends them: ``POST /api/games/{id}/mark`` with the game's
secret, the lines it saw (``after``) and a fresh ``Idempotency-Key`` per tap; as fast as
the server answers (the capacity: with 50 markers each waiting for its answer, the mean
latency is 50 / throughput, so p99 <= 100 ms needs well over 500 strokes/s), or at
``--rate`` taps a second each (``--rate 10``: 500 a second offered by 50 markers; a tap's
latency then counts from when it was due, as a queue on a slow server makes the marker
wait). The client is a small keep-alive HTTP/1.1 client on asyncio
streams (cheaper than a full client library, so that the server, not the client, is what
is measured).

Reported over ``--seconds`` after a warm-up: strokes stored per second, latency p50/p99/max,
the server's CPU (user + system, % of one core, from ``/proc``), the client's, and the
machine's load (``uptime``). Afterwards the stored games are read back: every acknowledged
stroke must be there, once (the run fails if not). Goal (issue 18): >= 500 strokes/s from
50 markers with p99 <= 100 ms.

    python benchmarks/web_writes.py [--markers 50] [--seconds 10] [--warmup 2] [--rate 0]
        [--database postgresql://user@host:port/name]

``--database``: the server keeps its games in that (empty) PostgreSQL database instead of
the data folder's SQLite file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bench_server import cpu_seconds, free_port, start_server

from onered.game.marking import Part
from onered.game.session import HUMAN, Session
from onered.rules import Match
from onered.web.db import Database
from onered.web.store import Mode, Store
from onered.web.view import summary_json

PLAYERS = ("Ivanov", "Petrov")
#: Taps that are legal in every position they come to in this order (no foul options).
TAPS: tuple[tuple[str, ...], ...] = (
    (Part.NO_SCORE.value,),
    (Part.POT_RED.value,),
    (Part.CANNON.value,),
    (Part.POT_RED.value,),
    (Part.NO_SCORE.value,),
)


@dataclass
class Marker:
    """One marker's game and what it saw answered."""

    game_id: str
    token: str
    lines: int
    acked: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def open_store(data: Path, database: str | None) -> Store:
    """The store the server will use: ``database`` (PostgreSQL), else ``data``'s file
    (closed by closing its ``db``)."""
    if database is None:
        return Store(data)
    db = Database(database)
    db.migrate()
    return Store(db)


def new_games(store: Store, n: int) -> list[tuple[str, str, int]]:
    """``n`` marked games to 100,000 points made in ``store``: each one's id, secret and
    number of lines (also the federation benchmark's)."""
    out = []
    for _ in range(n):
        session = Session.new(
            Match(target=100_000, players=PLAYERS), entrants=dict.fromkeys(PLAYERS, HUMAN)
        )
        game_id, token = store.create(
            Mode.MARK,
            session.texts(),
            {"entrants": dict.fromkeys(PLAYERS, HUMAN)},
            summary_json(session),
        )
        out.append((game_id, token, len(session)))
    return out


def make_games(data: Path, n: int, database: str | None = None) -> list[Marker]:
    """``n`` marked games to 100,000 points, stored in ``data`` (or ``database``)."""
    store = open_store(data, database)
    try:
        return [Marker(game_id, token, lines) for game_id, token, lines in new_games(store, n)]
    finally:
        store.db.close()


class Connection:
    """One keep-alive HTTP/1.1 connection: a request, its status and JSON body (also the
    federation benchmark's client)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def open(cls, port: int) -> Connection:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def post(self, path: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n{head}\r\n".encode()
            + body
        )
        await self.writer.drain()
        status_line = await self.reader.readline()
        if not status_line:  # the server closed the connection (a worker killed, say)
            raise ConnectionError("closed")
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        self.writer.close()


async def tap_until(
    marker: Marker, port: int, start: float, stop: float, rate: float = 0.0, offset: float = 0.0
) -> None:
    """Tap ``marker``'s game until ``stop``; latencies of the answers from ``start`` on. ``rate``:
    taps a second (the first ``offset`` seconds in), each sent when due or, if the answer
    to the one before comes later, as soon as it does (the page's queue); its latency is
    counted from when it was due, as the marker waits. 0: each tap as soon as answered."""
    conn = await Connection.open(port)
    path = f"/api/games/{marker.game_id}/mark"
    n = 0
    due = time.perf_counter() + offset
    try:
        while time.perf_counter() < stop:
            body = json.dumps({"parts": list(TAPS[n % len(TAPS)]), "after": marker.lines})
            headers = {"X-Game-Token": marker.token, "Idempotency-Key": str(uuid.uuid4())}
            if rate > 0:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                t0 = due
                due += 1 / rate
            else:
                t0 = time.perf_counter()
            status, answer = await conn.post(path, body.encode(), headers)
            t1 = time.perf_counter()
            if status != 200:
                marker.errors.append(f"{status} {answer[:200]!r}")
                if len(marker.errors) > 20:
                    return
                continue
            marker.lines = json.loads(answer)["game"]["state"]["version"]
            marker.acked += 1
            n += 1
            if t1 >= start:  # answered while measured
                marker.latencies.append(t1 - t0)
    finally:
        conn.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def check_stored(data: Path, markers: list[Marker], database: str | None = None) -> list[str]:
    """The stored games against what the markers were answered: each has its lines, once."""
    store = open_store(data, database)
    try:
        problems = []
        for m in markers:
            stored = store.lines(m.game_id)
            if len(stored) != m.lines:
                problems.append(f"{m.game_id}: {len(stored)} lines stored, {m.lines} answered")
        return problems
    finally:
        store.db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markers", type=int, default=50, help="markers tapping at once")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds measured")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before measuring")
    parser.add_argument(
        "--rate",
        type=float,
        default=0.0,
        help="taps a second per marker (default 0: each tap as soon as the last is answered)",
    )
    parser.add_argument(
        "--database", metavar="URL", default=None, help="serve from this PostgreSQL database"
    )
    args = parser.parse_args(argv)
    if args.markers < 1 or args.seconds <= 0 or args.warmup < 0 or args.rate < 0:
        parser.error(
            "--markers must be at least 1, --seconds positive, --warmup and --rate not negative"
        )
    with tempfile.TemporaryDirectory(prefix="onered-writes-") as tmp:
        data = Path(tmp)
        markers = make_games(data, args.markers, args.database)
        port = free_port()
        proc = start_server(data, port, database=args.database)
        try:
            now = time.perf_counter()
            start = now + args.warmup
            stop = start + args.seconds

            async def run() -> tuple[float, float, float]:
                spread = 1 / args.rate / len(markers) if args.rate else 0.0
                tasks = [
                    asyncio.create_task(tap_until(m, port, start, stop, args.rate, k * spread))
                    for k, m in enumerate(markers)
                ]
                await asyncio.sleep(max(0.0, start - time.perf_counter()))
                cpu0, own0, t0 = cpu_seconds(proc.pid), _own_cpu(), time.perf_counter()
                acked0 = sum(m.acked for m in markers)
                await asyncio.sleep(max(0.0, stop - time.perf_counter()))
                cpu1, own1, t1 = cpu_seconds(proc.pid), _own_cpu(), time.perf_counter()
                acked1 = sum(m.acked for m in markers)
                await asyncio.gather(*tasks)
                wall = t1 - t0
                return (acked1 - acked0) / wall, (cpu1 - cpu0) / wall, (own1 - own0) / wall

            rate, server_cpu, client_cpu = asyncio.run(run())
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        load = os.getloadavg()
        problems = check_stored(data, markers, args.database)
    latencies = [x for m in markers for x in m.latencies]
    errors = [e for m in markers for e in m.errors]
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)")
    pace = f"each {args.rate:g} taps/s" if args.rate else "each tapping as soon as answered"
    print(
        f"{args.markers} markers ({pace}), {args.seconds:g} s measured: {rate:.0f} strokes/s "
        "(goal >= 500)"
    )
    if latencies:
        print(
            f"latency p50 {percentile(latencies, 0.5) * 1000:.1f} ms, "
            f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms (goal <= 100), "
            f"max {max(latencies) * 1000:.1f} ms, mean "
            f"{statistics.fmean(latencies) * 1000:.1f} ms over {len(latencies)} strokes"
        )
    per_stroke = server_cpu / rate * 1000 if rate else float("nan")
    print(
        f"server CPU {server_cpu * 100:.0f} % of a core ({per_stroke:.2f} ms a stroke); "
        f"client CPU {client_cpu * 100:.0f} %"
    )
    print(f"refused taps: {len(errors)}" + (f" (first: {errors[0]})" if errors else ""))
    acked = sum(m.acked for m in markers)
    if problems:
        print(f"STORED GAMES DIFFER from the answers ({len(problems)}): {problems[:3]}")
        raise SystemExit(1)
    print(f"stored: every one of the {acked} acknowledged strokes, once")


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
