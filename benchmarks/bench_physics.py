"""Benchmark of the table simulation (onered.physics).

A fixed, seeded set of 3-ball shots: random positions on the table, ten strokes from each;
half aimed at an object ball (give or take 3 degrees), half in a random direction; launch
speeds 0.5-6 m/s; random tip offsets within 0.6 R. Prints, for aimed and random shots:

- shots per second on one core (CPU time of this process), through each entry point:
  ``simulate`` (one call a shot, full results with trajectories), ``simulate_batch`` (with
  and without trajectories) and ``simulate_compact`` (the lean form an AI player uses);
- events per shot;
- the time from a fresh process to the first simulated shot (interpreter start included,
  and from the first import).

The baseline is pooltool 0.3.3 as measured once on the development machine (3.2 ms a
random and 7.7 ms an aimed 3-ball shot, ~12 events; plus 50 s of numba compilation on
first use); ratios are against those figures.

Usage: ``python benchmarks/bench_physics.py [--positions N] [--seed S]``
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from onered.physics import (
    Launch,
    Params,
    Strike,
    TableSpec,
    simulate,
    simulate_batch,
    simulate_compact,
    strike_to_launch,
)
from onered.table import LENGTH, WIDTH

POOLTOOL_SECONDS = {"aimed": 7.7e-3, "random": 3.2e-3}
STROKES_PER_POSITION = 10

Position = dict[str, tuple[float, float]]


def _position(rng: random.Random, params: Params, table: TableSpec) -> Position:
    r = params.R
    geo = table.geometry()
    balls: Position = {}
    for name in ("white", "yellow", "red"):
        while True:
            p = (rng.uniform(2 * r, WIDTH - 2 * r), rng.uniform(2 * r, LENGTH - 2 * r))
            if all(math.dist(p, q) > 2 * r for q in balls.values()) and all(
                math.dist(p, k.fall_centre) > k.fall_radius + 2 * r for k in geo.pockets
            ):
                balls[name] = p
                break
    return balls


def _strokes(rng: random.Random, balls: Position, aimed: bool, params: Params) -> list[Launch]:
    launches = []
    wx, wy = balls["white"]
    for _ in range(STROKES_PER_POSITION):
        if aimed:
            tx, ty = balls[rng.choice(("yellow", "red"))]
            aim = math.degrees(math.atan2(ty - wy, tx - wx)) + rng.uniform(-3.0, 3.0)
        else:
            aim = rng.uniform(0.0, 360.0)
        radius, phi = 0.6 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        strike = Strike(rng.uniform(0.5, 6.0), aim, radius * math.cos(phi), radius * math.sin(phi))
        launches.append(strike_to_launch(strike, params))
    return launches


def _best_of(repeats: int, run: Callable[[], object]) -> float:
    """CPU seconds of the fastest of a few runs: CPU time, not wall time, so that other
    work on the machine does not count (the figure is per core)."""
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        run()
        times.append(time.process_time() - t0)
    return min(times)


def _fresh_process() -> tuple[float, float]:
    """(wall time of a whole fresh interpreter running one shot, time from the first
    import to the shot's result), the median of five runs."""
    script = (
        "import time; t = time.perf_counter()\n"
        "from onered.physics import Params, Strike, simulate, strike_to_launch\n"
        "simulate({'white': (0.889, 0.6), 'yellow': (1.2, 2.0), 'red': (0.889, 3.245)},"
        " 'white', strike_to_launch(Strike(3.0, 80.0, 0.2, 0.1), Params()))\n"
        "print(time.perf_counter() - t)\n"
    )
    walls, inner = [], []
    for _ in range(5):
        t0 = time.perf_counter()
        out = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, check=True
        )
        walls.append(time.perf_counter() - t0)
        inner.append(float(out.stdout))
    return statistics.median(walls), statistics.median(inner)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--positions", type=int, default=200, help="positions per kind (x10 strokes)"
    )
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()

    wall, inner = _fresh_process()
    print(
        f"fresh process to first shot: {wall * 1000:.0f} ms wall (interpreter included), "
        f"{inner * 1000:.0f} ms from the first import"
    )

    params, table = Params(), TableSpec()
    rng = random.Random(args.seed)
    print(
        f"{args.positions} positions x {STROKES_PER_POSITION} strokes per kind, seed {args.seed}, "
        f"best of {args.repeats}\n"
    )
    header = f"{'shots':7} {'entry point':34} {'shots/s':>9} {'us/shot':>8} {'vs pooltool':>12}"
    print(header)
    print("-" * len(header))
    for kind in ("aimed", "random"):
        work = []
        for _ in range(args.positions):
            balls = _position(rng, params, table)
            work.append((balls, _strokes(rng, balls, kind == "aimed", params)))
        n = sum(len(launches) for _, launches in work)

        def one_by_one(work: list[tuple[Position, list[Launch]]] = work) -> None:
            for balls, launches in work:
                for launch in launches:
                    simulate(balls, "white", launch)

        def batch(work: list[tuple[Position, list[Launch]]] = work, paths: bool = True) -> None:
            for balls, launches in work:
                simulate_batch(balls, "white", launches, paths=paths)

        def compact(work: list[tuple[Position, list[Launch]]] = work) -> None:
            for balls, launches in work:
                simulate_compact(balls, "white", launches)

        runs: list[tuple[str, Callable[[], object]]] = [
            ("simulate (full result)", one_by_one),
            ("simulate_batch (full result)", batch),
            ("simulate_batch(paths=False)", lambda: batch(paths=False)),
            ("simulate_compact", compact),
        ]
        for name, run in runs:
            seconds = _best_of(args.repeats, run) / n
            ratio = POOLTOOL_SECONDS[kind] / seconds
            print(f"{kind:7} {name:34} {1 / seconds:9.0f} {seconds * 1e6:8.1f} {ratio:11.0f}x")
        events = [
            len(s.events)
            for balls, launches in work
            for s in simulate_compact(balls, "white", launches).shots
        ]
        print(f"{kind:7} events per shot: mean {statistics.mean(events):.1f}, max {max(events)}\n")


if __name__ == "__main__":
    main()
