"""What a game's page and a player's page cost: time and bytes (issue 18 item 8).

In-process through the ASGI app (httpx, no network), each timing the median of ``--repeat``:

- **game view**: ``GET /api/games/{id}`` of a marked game of ``--strokes`` strokes (10,000),
  its session already read (as after the first request); its size in bytes; and the record
  page's other asks where the server has them (an older page of the log, the chart);
- **player page**: ``GET /api/players/{name}`` of a player with ``--games`` games (1,000), the
  games of about ``--game-strokes`` strokes each; the first request (which, on a store
  without kept figures, counts them) and then the median;
- **import**: ``POST /api/import`` of ``--import-lines`` protocol lines (100,000: about
  3.7 MB), the size of its answer (which carries the first view) and of the game's view.

Goals (issue 18): the game view <= 50 ms on 10,000 strokes, the player page <= 100 ms with
1,000 games. Report with the machine's load (``uptime``).

    python benchmarks/web_pages.py [--strokes N] [--games G] [--repeat R] [--import-lines L]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from marked_games import generate, tapped

from onered.game import record
from onered.game.session import Session
from onered.web.app import create_app
from onered.web.games import Games
from onered.web.store import Mode
from onered.web.view import summary_json

PLAYER = "Ivanov"


def opponents_games(count: int, strokes: int, seed: int) -> list[Session]:
    """``count`` different games of about ``strokes`` strokes between PLAYER and others."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        players = (PLAYER, f"Opponent {k}") if k % 2 else (f"Opponent {k}", PLAYER)
        out.append(tapped(players, strokes, rng, target=100))
    return out


def store_game(games: Games, game: Session) -> str:
    """Store a game as the app stores a new one (with its figures where the app keeps them)."""
    extra = [games.figures(game)] if hasattr(games, "figures") else []
    game_id, _ = games.store.create(
        Mode.MARK, game.texts(), {"entrants": {}}, summary_json(game), *extra
    )
    return game_id


async def timed(c: httpx.AsyncClient, path: str, repeat: int) -> tuple[float, float, int, int]:
    """The first time, the median of ``repeat`` more (ms), the answer's size (bytes) and
    status."""
    t = time.perf_counter()
    r = await c.get(path)
    first = (time.perf_counter() - t) * 1000
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = await c.get(path)
        times.append(time.perf_counter() - t)
    return first, statistics.median(times) * 1000, len(r.content), r.status_code


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--strokes", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=1_000)
    parser.add_argument("--game-strokes", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--import-lines", type=int, default=record.MAX_LINES)
    args = parser.parse_args(argv)

    load = os.getloadavg()
    print(
        f"load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} cores)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "data")
        games: Games = app.state.games
        long_game = generate(args.strokes, args.seed)
        long_id = store_game(games, long_game)
        games.replay(long_id)  # the first read fills the cache, as the first request would
        kinds = opponents_games(25, args.game_strokes, args.seed)
        t0 = time.perf_counter()
        for k in range(args.games):
            store_game(games, kinds[k % len(kinds)])
        print(
            f"made: a game of {long_game.state.stroke_no} strokes ({len(long_game)} lines); "
            f"{args.games} games of {PLAYER}'s (stored in {time.perf_counter() - t0:.1f} s)"
        )

        async def run() -> None:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", timeout=600
            ) as c:
                _, view_ms, view_bytes, _ = await timed(c, f"/api/games/{long_id}", args.repeat)
                print(
                    f"game view, {long_game.state.stroke_no:,} strokes:   "
                    f"{view_ms:8.1f} ms  {view_bytes:>12,} bytes  (goal <= 50 ms)"
                )
                view = (await c.get(f"/api/games/{long_id}")).json()
                start = view.get("log_start")
                if start is not None:
                    _, ms, size, status = await timed(
                        c, f"/api/games/{long_id}/log?before={start}", args.repeat
                    )
                    print(f"  an older page of the log:    {ms:8.1f} ms  {size:>12,} bytes")
                    _, ms, size, status = await timed(c, f"/api/games/{long_id}/chart", args.repeat)
                    if status == 200:
                        print(f"  the record page's chart:     {ms:8.1f} ms  {size:>12,} bytes")
                first, ms, size, status = await timed(
                    c, f"/api/players/{PLAYER}", max(3, args.repeat // 3)
                )
                assert status == 200, status
                print(
                    f"player page, {args.games:,} games:      {ms:8.1f} ms  {size:>12,} bytes  "
                    f"(goal <= 100 ms; first request {first:.0f} ms)"
                )
                head = {"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]}
                stroke = json.dumps({"type": "stroke", "first_hit": "red"}) + "\n"
                body = (json.dumps(head) + "\n" + stroke * (args.import_lines - 1)).encode()
                t = time.perf_counter()
                r = await c.post("/api/import", content=body)
                took = time.perf_counter() - t
                assert r.status_code == 201, r.text[:500]
                game_id = r.json()["id"]
                _, ms, size, _ = await timed(c, f"/api/games/{game_id}", args.repeat)
                print(
                    f"import of {len(body) / 1e6:.1f} MB ({args.import_lines:,} lines, "
                    f"{took:.1f} s): answer {len(r.content):,} bytes; then its view "
                    f"{size:,} bytes in {ms:.1f} ms"
                )

        asyncio.run(run())
        app.state.store.close()
    load = os.getloadavg()
    print(f"load average at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
