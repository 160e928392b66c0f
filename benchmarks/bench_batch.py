"""The table at its speed limit: the batch entry against the C loop it wraps and pooltool.

On one seeded set of aimed 3-ball shots (``bench_physics.py``'s: balls anywhere, the cue
ball aimed at an object ball within 3 degrees, 0.5-6 m/s, tip within 0.6 R), all in one run:

- **the C loop alone**: ``kernel_loop.c`` (no Python), built here by gcc with the
  extension's flags against this tree's kernel, on the same shots;
- **the batch entry** ``onered.physics.batch.simulate_many`` (one call for every shot, from
  launches and from strikes), ``simulate_compact`` (one call a position) and ``simulate``
  (one call a shot, full results): CPU microseconds a shot, the best of ``--repeats``;
- **pooltool 0.3.3** on the first ``--pooltool-shots`` of the same shots, in its own virtual
  environment (``pooltool_baseline.py``), and each entry's ratio to it;
- **two threads**: ``simulate_many(threads=2)`` (the shots split over two threads of its
  pool) against ``threads=1`` (wall clock), next to a plain CPU loop (SHA-256 of a buffer,
  which releases the GIL) on two threads against one: what the machine gives two threads
  at this moment.

Targets (issue 20): the batch <= 4 us a shot and within 1.5x of the C loop; ``simulate``
<= 15 us; the batch >= 600x pooltool in-process; two threads >= 1.8x one. Each is printed
with "met" or "NOT met" and the load average.

    python benchmarks/bench_batch.py [--positions N] [--repeats R] [--pooltool-shots N]
                                     [--no-pooltool] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_physics import _position, _strokes
from pooltool_baseline import BaselineShot, PooltoolUnavailableError, pooltool_seconds

from onered.physics import Launch, Params, TableSpec, simulate, simulate_compact
from onered.physics._engine import PHYS_FIELDS
from onered.physics.batch import simulate_many
from onered.physics.engine import _geometry_numbers

IDS = ("red", "white", "yellow")
PHYSICS = Path(__file__).resolve().parents[1] / "src" / "onered" / "physics"

Work = list[tuple[dict[str, tuple[float, float]], list[Launch]]]


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _best(fn: Callable[[], object], repeats: int) -> float:
    """The fewest CPU seconds of ``repeats`` calls."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _c_loop(work: Work, params: Params, table: TableSpec, repeats: int) -> dict[str, float]:
    """The C loop alone on the same shots (kernel_loop.c, built here)."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "kernel_loop"
        command = [
            "gcc", "-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99", f"-I{PHYSICS}",
            str(Path(__file__).resolve().parent / "kernel_loop.c"),
            str(PHYSICS / "kernel.c"), str(PHYSICS / "cushion.c"), "-o", str(exe), "-lm",
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True, text=True)
        phys = [float(getattr(params, name)) for name in PHYS_FIELDS]
        geo = list(_geometry_numbers(table))
        shots = [
            [*(c for b in IDS for c in balls[b]), float(IDS.index("white")), *x.v, *x.w, x.vz]
            for balls, launches in work
            for x in launches
        ]
        data = Path(tmp) / "shots.bin"
        with data.open("wb") as f:
            f.write(struct.pack("6i", len(phys), len(geo), len(shots), 3,
                                params.cushion_model.code, repeats))  # fmt: skip
            f.write(struct.pack(f"{len(phys)}d", *phys))
            f.write(struct.pack(f"{len(geo)}d", *geo))
            for row in shots:
                f.write(struct.pack(f"{len(row)}d", *row))
        out = subprocess.run([str(exe), str(data)], check=True, capture_output=True, text=True)
        result: dict[str, float] = json.loads(out.stdout)
        return result


def _arrays(work: Work) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    positions = np.array([[balls[b] for b in IDS] for balls, _ in work])
    launches = np.array([[*x.v, *x.w, x.vz] for _, ls in work for x in ls])
    at = np.repeat(np.arange(len(work), dtype=np.int32), [len(ls) for _, ls in work])
    return positions, launches, at


def _threads(positions: np.ndarray, launches: np.ndarray, at: np.ndarray) -> dict[str, float]:
    """Wall seconds of the batch on one thread and on two (``simulate_many(threads=2)``:
    the shots split over two threads of its pool); the same for a plain CPU loop (SHA-256
    releases the GIL) on one thread and two, all in this run, taking turns."""

    def batch(threads: int) -> float:
        t0 = time.perf_counter()
        simulate_many(positions, "white", launches=launches, at=at, threads=threads)
        return time.perf_counter() - t0

    buffer = os.urandom(1 << 23)

    def plain(lo: int, hi: int) -> None:
        for _ in range(lo, hi):
            hashlib.sha256(buffer).digest()

    def wall(parts: list[tuple[int, int]]) -> float:
        threads = [threading.Thread(target=plain, args=p) for p in parts]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return time.perf_counter() - t0

    runs: dict[str, Callable[[], float]] = {
        "batch_one_thread_s": lambda: batch(1),
        "batch_two_threads_s": lambda: batch(2),
        "plain_one_thread_s": lambda: wall([(0, 24)]),
        "plain_two_threads_s": lambda: wall([(0, 12), (12, 24)]),
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(7):  # the four take turns, so that a change of load meets them all
        for name, run in runs.items():
            best[name] = min(best[name], run())
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pooltool-shots", type=int, default=200)
    parser.add_argument("--no-pooltool", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    params, table = Params(), TableSpec()
    rng = random.Random(args.seed)
    work: Work = []
    for _ in range(args.positions):
        balls = _position(rng, params, table)
        work.append((balls, _strokes(rng, balls, True, params)))
    shots = sum(len(ls) for _, ls in work)
    positions, launches, at = _arrays(work)
    strikes_rng = np.random.default_rng(args.seed)
    strikes = np.column_stack(
        [
            strikes_rng.uniform(0.5, 6.0, shots),
            np.degrees(np.arctan2(launches[:, 1], launches[:, 0])),
            np.zeros(shots),
            strikes_rng.uniform(-0.5, 0.5, shots),
            np.zeros(shots),
        ]
    )
    print(f"{shots} aimed 3-ball shots from {len(work)} positions; load {_load()}")
    loop = _c_loop(work, params, table, args.repeats)
    figures: dict[str, float] = {"c_loop_us": loop["us_per_shot"]}
    figures["batch_us"] = (
        _best(lambda: simulate_many(positions, "white", launches=launches, at=at), args.repeats)
        / shots
        * 1e6
    )
    figures["batch_strikes_us"] = (
        _best(lambda: simulate_many(positions, "white", strikes=strikes, at=at), args.repeats)
        / shots
        * 1e6
    )
    figures["compact_us"] = (
        _best(
            lambda: [simulate_compact(b, "white", ls, params, table) for b, ls in work],
            args.repeats,
        )
        / shots
        * 1e6
    )
    figures["simulate_us"] = (
        _best(
            lambda: [simulate(b, "white", x, params, table) for b, ls in work for x in ls],
            args.repeats,
        )
        / shots
        * 1e6
    )
    print(f"events a shot: {loop['events_per_shot']:.2f}; load {_load()}")
    pooltool_us = None
    if not args.no_pooltool:
        first = [BaselineShot(b, "white", x) for b, ls in work for x in ls][: args.pooltool_shots]
        try:
            base = pooltool_seconds(first, repeats=3, params=params, table=table)
        except PooltoolUnavailableError as error:
            print(f"pooltool unavailable: {error}")
        else:
            pooltool_us = base.mean_seconds * 1e6
            figures["pooltool_us"] = pooltool_us
            print(
                f"pooltool {base.version}: {pooltool_us:,.0f} us a shot "
                f"({base.mean_events:.1f} events, {len(first)} shots); load {base.load}"
            )
    threads = _threads(positions, launches, at)
    figures.update(threads)
    rows = [
        ("C loop alone", figures["c_loop_us"]),
        ("simulate_many (launches)", figures["batch_us"]),
        ("simulate_many (strikes)", figures["batch_strikes_us"]),
        ("simulate_compact", figures["compact_us"]),
        ("simulate", figures["simulate_us"]),
    ]
    print(f"{'entry':<26} {'us/shot':>9} {'vs C loop':>10} {'vs pooltool':>12}")
    for name, us in rows:
        ratio = f"{pooltool_us / us:,.0f}x" if pooltool_us else "-"
        print(f"{name:<26} {us:9.2f} {us / figures['c_loop_us']:9.2f}x {ratio:>12}")
    scale = threads["batch_one_thread_s"] / threads["batch_two_threads_s"]
    plain = threads["plain_one_thread_s"] / threads["plain_two_threads_s"]
    print(f"two threads: the batch {scale:.2f}x one thread; a plain CPU loop {plain:.2f}x")

    def verdict(ok: bool) -> str:
        return "met" if ok else "NOT met"

    checks = [
        ("batch <= 4 us a shot", figures["batch_us"] <= 4.0),
        ("batch within 1.5x of the C loop", figures["batch_us"] <= 1.5 * figures["c_loop_us"]),
        ("simulate <= 15 us", figures["simulate_us"] <= 15.0),
        ("two threads >= 1.8x one", scale >= 1.8),
    ]
    if pooltool_us:
        checks.append(("batch >= 600x pooltool", pooltool_us / figures["batch_us"] >= 600))
    for name, ok in checks:
        print(f"  {name}: {verdict(ok)}")
    print(f"load {_load()}")
    if args.out:
        args.out.write_text(json.dumps({**figures, "load": _load()}, indent=2) + "\n")


if __name__ == "__main__":
    main()
