"""The two protocols against the work they wrap, side by side in one run.

- ``onered shot --batch`` (the in-process batch function, and the command on a file in a
  subprocess, start-up included) against the in-process ``physics.simulate`` call on the
  same aimed 3-ball shots (balls anywhere, the cue ball aimed at an object ball within a few
  degrees, speed 0.5-6 m/s, side and height within 0.4 R); targets: >= 10,000 lines/s.
- ``onered referee`` (in-process and on a file) against ``rules.judge`` on the same game
  lines (the generated game of ``bench_referee.py``); target: >= 40,000 lines/s.

Each figure is the best of ``--repeats`` runs (the subprocess runs once).

    python benchmarks/bench_protocols.py [--shots N] [--strokes N] [--repeats R]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import generate, to_json_lines

from onered import rules
from onered.cli.shot import batch
from onered.physics import Params, Strike, simulate, strike_to_launch
from onered.protocol.referee import run as referee_run
from onered.rules import Option
from onered.table import LENGTH, WIDTH


def aimed_shots(n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` shot-protocol inputs: three balls, the cue ball aimed at an object ball."""
    rng = random.Random(seed)
    shots = []
    while len(shots) < n:
        balls: dict[str, list[float]] = {}
        for name in ("white", "yellow", "red"):
            while True:
                p = [
                    round(rng.uniform(0.1, WIDTH - 0.1), 4),
                    round(rng.uniform(0.1, LENGTH - 0.1), 4),
                ]
                if all(math.dist(p, q) > 0.06 for q in balls.values()):
                    balls[name] = p
                    break
        cue = rng.choice(("white", "yellow"))
        target = balls[rng.choice([b for b in balls if b != cue])]
        aim = math.degrees(math.atan2(target[1] - balls[cue][1], target[0] - balls[cue][0]))
        strike = {
            "speed": round(rng.uniform(0.5, 6.0), 3),
            "aim": round(aim + rng.uniform(-3.0, 3.0), 3),
            "side": round(rng.uniform(-0.4, 0.4), 3),
            "height": round(rng.uniform(-0.4, 0.4), 3),
        }
        shots.append({"balls": balls, "cue_ball": cue, "strike": strike})
    return shots


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    """The fastest of ``repeats`` timings of ``fn()`` (seconds)."""
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def command_seconds(args: list[str], path: Path) -> tuple[float, int]:
    """Wall time of ``onered ARGS FILE`` (interpreter start-up included) and its status."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "onered", *args, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - t0, done.returncode


def row(label: str, count: int, seconds: float, unit: str, base: float | None = None) -> str:
    rate = count / seconds
    ratio = "" if base is None else f"   {seconds / base:5.2f} x the time of the baseline"
    return f"  {label:<34} {rate:>10,.0f} {unit}/s  ({seconds / count * 1e6:6.1f} us){ratio}"


def bench_shots(n: int, repeats: int, tmp: Path) -> None:
    shots = aimed_shots(n, seed=1)
    data = b"".join(json.dumps(s).encode() + b"\n" for s in shots)
    params = Params()
    prepared = [
        (s["balls"], s["cue_ball"], strike_to_launch(Strike(**s["strike"]), params)) for s in shots
    ]

    def engine() -> None:
        for balls, cue, launch in prepared:
            simulate(balls, cue, launch, params)

    def protocol() -> None:
        batch(io.BytesIO(data), io.BytesIO(), io.BytesIO())

    t_engine = best_of(repeats, engine)
    t_batch = best_of(repeats, protocol)
    path = tmp / "shots.jsonl"
    path.write_bytes(data)
    t_cli, status = command_seconds(["shot", "--batch"], path)
    events = sum(len(simulate(b, c, lau, params).events) for b, c, lau in prepared) / n
    print(f"onered shot --batch: {n} aimed 3-ball shots, {events:.1f} events a shot on average")
    print(row("physics.simulate (in-process)", n, t_engine, "shots"))
    print(row("batch function (in-process)", n, t_batch, "lines", t_engine))
    print(row(f"command on a file (exit {status})", n, t_cli, "lines", t_engine))


def bench_referee(n: int, repeats: int, tmp: Path) -> None:
    match, items = generate(n, seed=7)
    text = to_json_lines(match, items)
    data = "".join(line + "\n" for line in text).encode()

    def judge() -> None:
        state = rules.start(match)
        for item in items:
            if isinstance(item, Option):
                state, _ = rules.choose(state, item)
            else:
                state, _ = rules.judge(state, item)

    def protocol() -> None:
        referee_run(io.BytesIO(data), io.BytesIO(), io.StringIO())

    t_judge = best_of(repeats, judge)
    t_proto = best_of(repeats, protocol)
    path = tmp / "game.jsonl"
    path.write_bytes(data)
    t_cli, status = command_seconds(["referee"], path)
    count = len(items)
    print(f"onered referee: a generated game of {count} strokes and choices")
    print(row("rules.judge (in-process)", count, t_judge, "strokes"))
    print(row("protocol run (in-process)", count, t_proto, "lines", t_judge))
    print(row(f"command on a file (exit {status})", count, t_cli, "lines", t_judge))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=20_000)
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench_shots(args.shots, args.repeats, Path(tmp))
        bench_referee(args.strokes, args.repeats, Path(tmp))


if __name__ == "__main__":
    main()
