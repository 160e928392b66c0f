"""Web server time per request on a long game: a stroke, and a live update.

A marked game of ``--strokes`` strokes (10,000 by default) is generated through the referee
(random marker taps of every kind, foul options taken) and stored. Then, in-process through
the ASGI app (no network):

- **stroke**: ``POST /api/games/{id}/mark`` (judge one line from the kept state, store it);
- **undo**: ``POST /api/games/{id}/undo`` (re-judged from the nearest checkpoint);
- **live update**: what the event stream computes for a change (the view since the line
  before, as ``GET /api/games/{id}/events`` sends it), and a poll that finds nothing new;
- **baseline**: what every request did before: replay the whole game through the referee
  and build the view (``Session.from_lines`` + ``game_json``), measured in the same run;
- **health during an import**: ``GET /api/health`` while ``POST /api/import`` judges a file
  of ``--import-lines`` lines (100,000, the limit, by default) in a worker thread, against
  the same check with nothing else running (the tests only check that it is answered).

Goals (issue 9): a stroke <= 50 ms and a live update <= 10 ms of server time on 10,000
strokes. Report with the machine's load (``uptime``): timings are medians.

The other parts of the web's benchmark, each its own module beside this one and run from
here in turn (``--part``; each also runs alone with its own options):

- ``streams`` (``web_streams.py``): 250 and 1,000 open live streams against a real server:
  the health check's median, the fan-out of one change, shutdown with the streams open;
- ``writes`` (``web_writes.py``): 50 markers tapping at once against a real server, paced
  at 10 taps a second each (500 a second offered: the goal's case), then each tapping as soon
  as answered (the capacity): strokes per second, p50/p99 latency, the server's CPU, every
  acknowledged stroke kept once;
- ``pages`` (``web_pages.py``): a 10,000-stroke game's view and a 1,000-game player's page
  (time and bytes), a 100,000-line import's first view.

    python benchmarks/bench_web.py [--part long|streams|writes|pages|all] [--strokes N]
                                   [--repeat R] [--seed S] [--import-lines L]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from marked_games import generate

from onered.game import record
from onered.game.session import Session
from onered.web.api_live import event
from onered.web.app import create_app
from onered.web.games import Games
from onered.web.store import Mode
from onered.web.view import game_json, summary_json


def median_ms(run: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


async def health_during_import(
    app: Any, lines: int, repeat: int
) -> tuple[float, list[float], float]:
    """The health check's median time alone (ms), its times while an import of ``lines``
    lines runs (ms), and the import's time (s)."""
    head = {"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]}
    stroke = json.dumps({"type": "stroke", "first_hit": "red"}) + "\n"
    body = (json.dumps(head) + "\n" + stroke * (lines - 1)).encode()
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://bench") as c:
        alone = []
        for _ in range(repeat):
            t = time.perf_counter()
            await c.get("/api/health")
            alone.append(time.perf_counter() - t)
        t_import = time.perf_counter()
        upload = asyncio.create_task(c.post("/api/import", content=body, timeout=600))
        during = []
        while not upload.done():
            t = time.perf_counter()
            await c.get("/api/health")
            during.append((time.perf_counter() - t) * 1000)
            await asyncio.sleep(0.05)
        r = await upload
        took = time.perf_counter() - t_import
        assert r.status_code == 201, r.text
    return statistics.median(alone) * 1000, during, took


#: The parts run by ``--part all``, in this order.
PARTS = ("long", "streams", "writes", "pages")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=(*PARTS, "all"), default="all")
    parser.add_argument("--strokes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--import-lines", type=int, default=record.MAX_LINES)
    args = parser.parse_args()
    for part in PARTS if args.part == "all" else (args.part,):
        print(f"\n== {part} (uptime: {uptime()})", flush=True)
        if part == "long":
            long_game(args)
        elif part == "streams":
            import web_streams

            web_streams.main([])
        elif part == "writes":
            import web_writes

            web_writes.main(["--rate", "10"])  # the goal: 500 taps a second offered
            web_writes.main([])  # the capacity: each marker taps as soon as answered
        else:
            import web_pages

            web_pages.main(["--strokes", str(args.strokes), "--seed", str(args.seed)])


def uptime() -> str:
    """The machine's load averages and cores, as ``uptime`` reports them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} cores"


def long_game(args: argparse.Namespace) -> None:
    """A stroke, an undo and a live update on a long game, against replaying it whole."""
    t0 = time.perf_counter()
    game = generate(args.strokes, args.seed)
    made = time.perf_counter() - t0
    print(f"game: {game.state.stroke_no} strokes, {len(game)} lines, made in {made:.1f} s")

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "data")
        games: Games = app.state.games
        game_id, token = games.store.create(
            Mode.MARK, game.texts(), {"entrants": {}}, summary_json(game)
        )
        lines = games.store.lines(game_id)

        def baseline() -> None:
            replayed = Session.from_lines(lines)
            game_json(games.row(game_id), replayed, len(replayed))

        base = median_ms(baseline, max(3, args.repeat // 5))
        games.replay(game_id)  # the first read fills the cache, as the first request would

        async def strokes() -> tuple[float, float, float, float]:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as c:
                stroke_times, live_times, idle_times = [], [], []
                for k in range(args.repeat):
                    view = games.view_since(game_id, None, None)
                    after = view["state"]["version"]
                    revision = view["revision"]
                    body: dict[str, Any] = {"parts": ["no_score"], "after": after}
                    if view["state"]["options"]:
                        body = {"option": "as_they_lie", "after": after}
                        path = f"/api/games/{game_id}/choice"
                    else:
                        path = f"/api/games/{game_id}/mark"
                    t = time.perf_counter()
                    r = await c.post(path, json=body, headers={"X-Game-Token": token})
                    stroke_times.append(time.perf_counter() - t)
                    assert r.status_code == 200, r.text
                    t = time.perf_counter()
                    event(games.view_since(game_id, after, revision))
                    live_times.append(time.perf_counter() - t)
                    t = time.perf_counter()
                    await c.get(f"/api/games/{game_id}?since={after + 1}&revision={revision + 1}")
                    idle_times.append(time.perf_counter() - t)
                    del k
                undo_times = []
                for _ in range(args.repeat):
                    after = games.view_since(game_id, None, None)["state"]["version"]
                    t = time.perf_counter()
                    r = await c.post(
                        f"/api/games/{game_id}/undo",
                        json={"after": after},
                        headers={"X-Game-Token": token},
                    )
                    undo_times.append(time.perf_counter() - t)
                    assert r.status_code == 200, r.text
            return (
                statistics.median(stroke_times) * 1000,
                statistics.median(live_times) * 1000,
                statistics.median(idle_times) * 1000,
                statistics.median(undo_times) * 1000,
            )

        stroke, live, idle, undo = asyncio.run(strokes())
        alone, during, took = asyncio.run(health_during_import(app, args.import_lines, 10))
        app.state.store.close()

    load = os.getloadavg()
    print(f"load average: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} ({os.cpu_count()} cores)")
    print(f"baseline, replay the whole game + view: {base:8.1f} ms")
    print(
        f"stroke (POST mark, judged + stored):    {stroke:8.1f} ms  goal <= 50 ms  "
        f"({base / stroke:.0f}x faster than the baseline)"
    )
    print(
        f"live update (event of one change):      {live:8.2f} ms  goal <= 10 ms  "
        f"({base / live:.0f}x)"
    )
    print(f"poll finding nothing new (GET):         {idle:8.2f} ms  ({base / idle:.0f}x)")
    print(f"undo (re-judged from a checkpoint):     {undo:8.1f} ms  ({base / undo:.0f}x)")
    if during:
        median = statistics.median(during)
        print(
            f"health during a {args.import_lines:,}-line import ({took:.1f} s): median "
            f"{median:.1f} ms, worst {max(during):.1f} ms over {len(during)} checks; alone "
            f"{alone:.2f} ms ({median / alone:.0f}x)"
        )
    else:
        print(f"health during an import: the import ({took:.2f} s) ended before a check")


if __name__ == "__main__":
    main()
