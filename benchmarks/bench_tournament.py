"""A tournament from the draw to the final, every match marked through the API stroke by
stroke (issue 23's target: 64 players in under a minute of server time).

The requests are those of an organiser and the markers: the tournament made, the players
entered (rated, so seeded), drawn; each round the tables given, each ready fixture's match
started (``POST /api/tournaments/{id}/fixtures/{key}/match``), each game marked tap by tap
(``POST /api/games/{id}/mark`` with the lines seen: pots, cannons, nothing scored, drawn
from a seeded mix as a marker taps them) and the match's next game started while it is
undecided; the results come into the tournament by themselves (``onered.web.match_results``),
and the tournament's page is read after each round. The ready fixtures' matches are played
side by side, one a table (``--tables``), their taps interleaved as in a club.

The server's time: by default ``onered serve`` runs in its own process on 127.0.0.1 and
its CPU time (user + system, ``/proc``) over the run is the number; with ``--in-process``
the app runs here behind an ASGI wrapper that times each request (one at a time, so the
process's CPU during a request is the app's) and sums them.

    python benchmarks/bench_tournament.py [--players 64] [--best-of 3] [--target 100]
        [--tables 8] [--format knockout] [--seed 1] [--workers 1]
        [--database postgresql://… | --postgres] [--in-process]

``--postgres`` starts a PostgreSQL cluster in a temporary folder for the run (Debian's
``postgresql``, as ``bench_federation``) and reports its CPU too; ``--workers N`` serves with
N worker processes (their CPU summed), the results then coming in from whichever worker
stored a match's deciding stroke.

Reported: matches, strokes and requests; the server's CPU seconds (total and a stroke); the
whole run's wall time; the machine's load (``uptime``) before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from bench_federation import (
    Cluster,
    cluster,
    cpu_between,
    cpu_of,
    postgres_pids,
    start_server,
    stop_server,
    workers_of,
)
from bench_server import free_port
from starlette.types import ASGIApp, Receive, Scope, Send

from onered.web.app import create_app
from onered.web.limits import Limits

#: What a marker taps, with its weight: about 1.35 points a stroke on average.
TAPS = ((("pot_red",), 35), (("cannon",), 15), (("no_score",), 50))


class Timed:
    """ASGI middleware summing each request's wall and CPU time (the app's own), and the
    time any request was being served."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.wall = 0.0
        self.cpu = 0.0
        self.requests = 0
        #: Requests in flight, since when one has been, and the time one was (their union:
        #: the tables' matches overlap, so the sum of their walls counts some time twice).
        self.active = 0
        self.since = 0.0
        self.busy = 0.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        wall, cpu = time.perf_counter(), time.process_time()
        if self.active == 0:
            self.since = wall
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            now = time.perf_counter()
            self.wall += now - wall
            self.cpu += time.process_time() - cpu
            self.requests += 1
            self.active -= 1
            if self.active == 0:
                self.busy += now - self.since


class Run:
    """One tournament played through the API."""

    def __init__(self, client: httpx.AsyncClient, rng: random.Random, side_by_side: int) -> None:
        self.client = client
        self.rng = rng
        self.seed = rng.random()
        #: Matches played at once (the tables' taps interleave, as in a club).
        self.side_by_side = side_by_side
        self.gate = asyncio.Semaphore(side_by_side)
        self.requests = 0
        self.strokes = 0
        self.refused = 0

    async def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"X-Game-Token": token} if token else {}
        self.requests += 1
        r = await self.client.post(path, json=body, headers=headers)
        if r.status_code >= 400:
            raise RuntimeError(f"POST {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def get(self, path: str) -> Any:
        self.requests += 1
        r = await self.client.get(path)
        if r.status_code >= 400:
            raise RuntimeError(f"GET {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    @staticmethod
    def tap(rng: random.Random) -> list[str]:
        taps = [list(t) for t, _ in TAPS]
        return rng.choices(taps, weights=[w for _, w in TAPS])[0]

    async def game(self, game: str, token: str, rng: random.Random) -> None:
        """Mark a game to its end, tap by tap, each with the lines seen (``after``)."""
        lines: int | None = None  # the first tap: the game as it is (its match line)
        while True:
            parts = self.tap(rng)
            self.requests += 1
            r = await self.client.post(
                f"/api/games/{game}/mark",
                json={"parts": parts, "after": lines},
                headers={"X-Game-Token": token},
            )
            if r.status_code == 422 and r.json().get("code") == "impossible":
                # the pad offers no cannon while the opponent's ball is in hand: tapped
                # nothing scored instead (the refused tap counted as a request all the same)
                self.refused += 1
                continue
            if r.status_code != 200:
                raise RuntimeError(f"mark {game}: {r.status_code} {r.text[:300]}")
            self.strokes += 1
            view = r.json()["game"]
            lines = view["log_start"] + len(view["log"])
            if view["state"]["winner"]:
                return

    async def match(self, tid: str, token: str, key: str) -> None:
        async with self.gate:
            await self._match(tid, token, key)

    async def _match(self, tid: str, token: str, key: str) -> None:
        # the match's own draw of taps: the same run whatever order the tables' taps interleave
        rng = random.Random(f"{self.seed}:{key}")
        made = await self.post(f"/api/tournaments/{tid}/fixtures/{key}/match", {}, token)
        match_id, match_token = made["id"], made["token"]
        game, game_token = made["game"]["id"], made["game"]["token"]
        while True:
            await self.game(game, game_token, rng)
            m = await self.get(f"/api/matches/{match_id}")
            if m["over"]:
                return
            nxt = await self.post(
                f"/api/matches/{match_id}/next", {"after": len(m["games"])}, match_token
            )
            game, game_token = nxt["game"]["id"], nxt["game"]["token"]

    async def tournament(self, args: argparse.Namespace) -> dict[str, Any]:
        body: dict[str, Any] = {
            "name": "Benchmark cup",
            "format": args.format,
            "best_of": args.best_of,
            "target": args.target,
            "tables": list(range(1, args.tables + 1)),
            "seed": args.seed,
        }
        if args.format == "groups_then_knockout":
            body |= {"groups": max(1, args.players // 4), "advance": 2}
        made = await self.post("/api/tournaments", body)
        tid, token = made["id"], made["token"]
        players = [
            {"name": f"Player {i:03d}", "rating": 1500 + self.rng.randrange(600)}
            for i in range(1, args.players + 1)
        ]
        await self.post(f"/api/tournaments/{tid}/players", {"players": players}, token)
        await self.post(f"/api/tournaments/{tid}/draw", {}, token)
        rounds = 0
        while True:
            t = (await self.post(f"/api/tournaments/{tid}/tables", {}, token))["tournament"]
            if t["status"] == "over":
                return {"tournament": t, "rounds": rounds}
            ready = [f for f in t["fixtures"] if f["state"] == "ready"]
            if not ready:
                raise RuntimeError(f"nothing ready and not over: {json.dumps(t)[:300]}")
            await asyncio.gather(*(self.match(tid, token, f["key"]) for f in ready))
            await self.get(f"/api/tournaments/{tid}")
            rounds += 1


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


async def served(args: argparse.Namespace, folder: Path) -> None:
    """The run against ``onered serve`` (``--workers``) in processes of its own: the server's
    CPU from /proc (its processes'), and PostgreSQL's beside it when it serves from one."""
    with contextlib.ExitStack() as stack:
        url = args.database
        pg: Cluster | None = None
        if args.postgres:
            pg = stack.enter_context(cluster())
            url = pg.new_database()
        port = free_port()
        server = start_server(
            url or str(folder / "data"), port, args.workers, folder / "data", folder / "log"
        )
        stack.callback(stop_server, server)
        pids = [server.pid, *workers_of(server.pid)]
        db_pids = postgres_pids(pg) if pg is not None else []
        base = f"http://127.0.0.1:{port}"
        limits = httpx.Limits(max_connections=args.tables + 2)
        async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60.0) as client:
            load_before = uptime()
            cpu0, db0, started = cpu_of(pids), cpu_of(db_pids), time.perf_counter()
            run = Run(client, random.Random(args.seed), args.tables)
            done = await run.tournament(args)
            whole = time.perf_counter() - started
            cpu, db_cpu = cpu_between(cpu0, cpu_of(pids)), cpu_between(db0, cpu_of(db_pids))
        what = f"onered serve's {len(pids)} process(es), CPU from /proc"
        report(args, run, done, cpu, whole, load_before, what)
        if pg is not None:
            print(f"PostgreSQL's own CPU meanwhile: {db_cpu:.1f} s")


async def in_process(args: argparse.Namespace, folder: Path) -> None:
    """The run in this process, one request at a time, each timed (:class:`Timed`)."""
    app = create_app(
        folder / "data",
        Limits(creations_per_minute=1_000_000),
        **({"database": args.database} if args.database else {}),
    )
    timed = Timed(app)
    transport = httpx.ASGITransport(app=timed)
    load_before = uptime()
    started = time.perf_counter()
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
        run = Run(client, random.Random(args.seed), 1)
        done = await run.tournament(args)
    whole = time.perf_counter() - started
    report(args, run, done, timed.cpu, whole, load_before, "the requests' CPU, summed")
    print(f"the requests' wall time, summed: {timed.wall:.1f} s")
    app.state.store.close()


def report(
    args: argparse.Namespace,
    run: Run,
    done: dict[str, Any],
    cpu: float,
    whole: float,
    load_before: str,
    what: str,
) -> None:
    t = done["tournament"]
    played = sum(1 for f in t["fixtures"] if f["result"] and not f["result"]["walkover"])
    print(
        f"{args.players} players, {args.format}, best of {args.best_of} to {args.target}, "
        f"{run.side_by_side} tables: {played} matches marked, {run.strokes} strokes "
        f"({run.refused} taps refused), {run.requests} requests, {done['rounds']} rounds; "
        f"winner {t['winner']['name']}"
    )
    print(
        f"server time ({what}): {cpu:.1f} s CPU, {1000 * cpu / max(run.strokes, 1):.2f} ms "
        f"a stroke; the whole run {whole:.1f} s of wall time"
    )
    print(f"load before: {load_before}")
    print(f"load after:  {uptime()}")


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="onered-bench-tournament-") as folder:
        if args.in_process:
            await in_process(args, Path(folder))
        else:
            await served(args, Path(folder))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--best-of", type=int, default=3)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument(
        "--format",
        default="knockout",
        choices=["knockout", "round_robin", "groups_then_knockout"],
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", default=None, help="postgresql://… (default: SQLite)")
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="serve from a PostgreSQL cluster started in a temporary folder for the run",
    )
    parser.add_argument("--workers", type=int, default=1, help="onered serve --workers N")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="the app in this process, one request at a time, each request's CPU summed",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
