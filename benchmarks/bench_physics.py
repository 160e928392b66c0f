"""Benchmark of the table simulation (onered.physics).

A fixed, seeded set of 3-ball shots: random positions on the table, ten strokes from each;
half aimed at an object ball (give or take 3 degrees), half in a random direction; launch
speeds 0.5-6 m/s; random tip offsets within 0.6 R. Prints, for aimed and random shots:

- shots per second on one core (CPU time of this process, the fastest of a few runs, the
  tables taking turns), through each entry point: ``simulate`` (one call a shot, full
  results with trajectories), ``simulate_batch`` (with and without trajectories) and
  ``simulate_compact`` (the lean form an AI player uses), on three tables in the same
  run: "today" (the defaults before the cushion models: Han's cushions, the old cloth),
  Han's cushions on the measured cloth, and the defaults (Mathavan's cushions), with the
  ratio of each to "today" (the cushion models' cost limit: 1.15);
- events and cushion impacts per shot;
- the time from a fresh process to the first simulated shot (interpreter start included,
  and from the first import);
- a shot with no airborne phase against the engine before the flight (issue 19: at most
  10 % dearer): level aimed 3-ball shots through ``simulate_compact`` and ``simulate`` on
  this source tree and on commit ``--before`` (001d973), both built here by gcc with the
  same flags into temporary trees (``git archive`` for the commit, a copy of this
  package's source for now) and timed in alternating subprocesses in the same run; the
  results must be identical, the ratio is now / before, with the load average.

The baseline is pooltool 0.3.3 measured in the same run (``pooltool_baseline.py``: its own
virtual environment, made once; the CPU time of ``pt.simulate`` on the first
``--pooltool-shots`` of the same aimed and random shots, best of ``--repeats``, numba's
warm-up untimed and reported apart); its row and the "vs pooltool" column give each entry
point against it. ``--no-pooltool`` falls back to the figures stored from one earlier
measurement (3.2 ms a random and 7.7 ms an aimed 3-ball shot), saying so.

Usage: ``python benchmarks/bench_physics.py [--positions N] [--seed S] [--before COMMIT]
[--pooltool-shots N | --no-pooltool]`` (``--before ''`` skips the comparison)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import onered
from onered.physics import (
    EVENT_KINDS,
    CushionModel,
    EventKind,
    Launch,
    Params,
    Strike,
    TableSpec,
    simulate,
    simulate_batch,
    simulate_compact,
    strike_to_launch,
)
from onered.physics.params import LEGACY_DEFAULTS
from onered.table import LENGTH, WIDTH

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pooltool_baseline import BaselineShot, PooltoolUnavailableError, pooltool_seconds

_CUSHION = EVENT_KINDS.index(EventKind.CUSHION)

#: pooltool 0.3.3 per shot as measured once on the development machine: the baseline only
#: with ``--no-pooltool`` (otherwise it is measured in the same run).
STORED_POOLTOOL_SECONDS = {"aimed": 7.7e-3, "random": 3.2e-3}
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


def _tables() -> dict[str, Params]:
    """The tables compared in one run: the engine's defaults before the cushion models
    ("today": Han's cushions, the old cloth), Han's cushions on the measured cloth, and the
    defaults (Mathavan's cushions on the measured cloth)."""
    return {
        "today": LEGACY_DEFAULTS,
        "han2005": replace(Params(), cushion_model=CushionModel.HAN2005),
        "new": Params(),
    }


#: Times one tree's engine on level shots (run with PYTHONPATH set to that tree's src):
#: reads {"work": [[balls, [[v, w], ...]], ...], "passes": n} on stdin, prints the best CPU
#: seconds of n passes through each entry point and a digest of the compact results.
_LEVEL_CHILD = """
import hashlib, json, sys, time
from onered.physics import Launch, simulate, simulate_compact
job = json.load(sys.stdin)
work = [({k: tuple(p) for k, p in balls.items()},
         [Launch(tuple(v), tuple(w)) for v, w in launches]) for balls, launches in job["work"]]
def compact():
    return [simulate_compact(balls, "white", launches) for balls, launches in work]
def full():
    for balls, launches in work:
        for launch in launches:
            simulate(balls, "white", launch)
best = {}
for name, run in (("simulate_compact", compact), ("simulate", full)):
    for _ in range(job["passes"]):
        t0 = time.process_time()
        run()
        best[name] = min(best.get(name, 1e9), time.process_time() - t0)
digest = hashlib.sha256(repr([(s.duration, s.rest, s.events) for b in compact()
                              for s in b.shots]).encode()).hexdigest()
print(json.dumps({"seconds": best, "digest": digest}))
"""


def _build_tree(src: Path, into: Path) -> Path:
    """Compile the engine of the source tree ``src`` (holding ``onered``) in place with
    gcc and the setup's strict IEEE flags; return ``src``."""
    physics = src / "onered" / "physics"
    target = physics / f"_engine{sysconfig.get_config_var('EXT_SUFFIX')}"
    command = [
        "gcc", "-shared", "-fPIC", "-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99",
        f"-I{sysconfig.get_paths()['include']}",
        *(str(physics / name) for name in ("_engine.c", "kernel.c", "cushion.c")),
        "-o", str(target), "-lm",
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, text=True, cwd=into)
    return src


def _trees(commit: str, into: Path) -> tuple[Path, Path]:
    """(this package's source, the source at ``commit``), each copied under ``into`` and
    built the same way. Raises ``RuntimeError`` saying why when that is impossible."""
    repo = Path(onered.__file__).resolve().parents[2]
    now, before = into / "now" / "src", into / "before"
    try:
        shutil.copytree(
            repo / "src" / "onered", now / "onered",
            ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.pyd"),
        )  # fmt: skip
        before.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", commit, "src"], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        return _build_tree(now, into), _build_tree(before / "src", into)
    except (OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", None) or ""
        if isinstance(detail, bytes):
            detail = detail.decode(errors="replace")
        raise RuntimeError(f"{exc} {detail.strip()[:300]}") from exc


def _level_work(rng: random.Random, positions: int, params: Params) -> list[object]:
    """Level aimed 3-ball shots as plain numbers: [[balls, [[v, w], ...]], ...]."""
    work: list[object] = []
    for _ in range(positions):
        balls = _position(rng, params, TableSpec())
        launches = _strokes(rng, balls, True, params)
        work.append([balls, [[list(x.v), list(x.w)] for x in launches]])
    return work


def _against_before(commit: str, positions: int, seed: int, rounds: int) -> None:
    """Print the cost of level aimed shots now against the engine of ``commit``: the best
    CPU time of each, the two trees' subprocesses taking turns ``rounds`` times."""
    work = _level_work(random.Random(seed), positions, Params())
    job = json.dumps({"work": work, "passes": 3})
    n = STROKES_PER_POSITION * positions
    print(f"level aimed shots against the engine of {commit} (the same {n} shots, built alike)")
    with tempfile.TemporaryDirectory(prefix="bench-physics-") as tmp:
        try:
            trees = dict(zip(("now", "before"), _trees(commit, Path(tmp)), strict=True))
        except RuntimeError as exc:
            print(f"  not measured: cannot build the trees ({exc})\n")
            return
        best: dict[str, dict[str, float]] = {"now": {}, "before": {}}
        digests: dict[str, str] = {}
        load = [os.getloadavg()[0]]
        for _ in range(rounds):
            for label, src in trees.items():
                env = {**os.environ, "PYTHONPATH": str(src)}
                out = subprocess.run(
                    [sys.executable, "-c", _LEVEL_CHILD],
                    input=job, capture_output=True, text=True, check=True, env=env,
                )  # fmt: skip
                got = json.loads(out.stdout)
                digests[label] = got["digest"]
                for name, seconds in got["seconds"].items():
                    best[label][name] = min(best[label].get(name, math.inf), seconds)
        load.append(os.getloadavg()[0])
    same = "identical" if digests["now"] == digests["before"] else "DIFFERENT"
    for name in ("simulate_compact", "simulate"):
        now, before = best["now"][name], best["before"][name]
        print(
            f"  {name:17} before {before / n * 1e6:7.2f} us/shot, now {now / n * 1e6:7.2f} "
            f"us/shot: {now / before:.3f}x (limit 1.10)"
        )
    print(f"  results {same}; load average {load[0]:.2f} -> {load[1]:.2f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--positions", type=int, default=200, help="positions per kind (x10 strokes)"
    )
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--before", default="001d973", help="commit to compare level shots with ('' skips)"
    )
    parser.add_argument(
        "--pooltool-shots", type=int, default=200,
        help="shots per kind timed on pooltool 0.3.3 in the same run (the first ones)",
    )  # fmt: skip
    parser.add_argument(
        "--no-pooltool", action="store_true",
        help="do not run pooltool; compare with its stored figures instead",
    )  # fmt: skip
    args = parser.parse_args()

    if args.before:
        _against_before(args.before, 5 * args.positions, args.seed, max(args.repeats, 5))

    wall, inner = _fresh_process()
    print(
        f"fresh process to first shot: {wall * 1000:.0f} ms wall (interpreter included), "
        f"{inner * 1000:.0f} ms from the first import"
    )

    tables = _tables()
    table = TableSpec()
    rng = random.Random(args.seed)
    print(
        f"{args.positions} positions x {STROKES_PER_POSITION} strokes per kind, seed {args.seed}, "
        f"best of {args.repeats}; the same launches on every table\n"
        "today: Han's cushions and the old cloth (the defaults before ENGINE_VERSION 3); "
        "han2005: Han's cushions on the measured cloth; new: the defaults (Mathavan 2010)\n"
    )
    header = (
        f"{'shots':7} {'entry point':30} {'table':8} {'shots/s':>9} {'us/shot':>8} "
        f"{'vs today':>9} {'vs pooltool':>12}"
    )
    works: dict[str, list[tuple[Position, list[Launch]]]] = {}
    for kind in ("aimed", "random"):
        works[kind] = []
        for _ in range(args.positions):
            balls = _position(rng, tables["new"], table)
            works[kind].append((balls, _strokes(rng, balls, kind == "aimed", tables["new"])))
    baseline = _pooltool(works, args.pooltool_shots, args.repeats, args.no_pooltool)
    pooltool_row = "pooltool 0.3.3 " + ("(STORED figure)" if args.no_pooltool else "(this run)")
    print(header)
    print("-" * len(header))
    for kind, work in works.items():
        n = sum(len(launches) for _, launches in work)
        pooltool = baseline[kind]
        print(
            f"{kind:7} {pooltool_row:30} {'':8} {1 / pooltool:9.0f} "
            f"{pooltool * 1e6:8.0f} {'':>9} {1:11.0f}x"
        )

        def one_by_one(params: Params, work: list[tuple[Position, list[Launch]]] = work) -> None:
            for balls, launches in work:
                for launch in launches:
                    simulate(balls, "white", launch, params)

        def batch(
            params: Params, work: list[tuple[Position, list[Launch]]] = work, paths: bool = True
        ) -> None:
            for balls, launches in work:
                simulate_batch(balls, "white", launches, params, paths=paths)

        def compact(params: Params, work: list[tuple[Position, list[Launch]]] = work) -> None:
            for balls, launches in work:
                simulate_compact(balls, "white", launches, params)

        runs: list[tuple[str, Callable[[Params], object]]] = [
            ("simulate (full result)", one_by_one),
            ("simulate_batch (full result)", batch),
            ("simulate_batch(paths=False)", lambda p: batch(p, paths=False)),
            ("simulate_compact", compact),
        ]
        for name, run in runs:
            seconds = _interleaved(args.repeats, run, tables)
            for label, s in seconds.items():
                per = s / n
                ratio = pooltool / per
                print(
                    f"{kind:7} {name:30} {label:8} {1 / per:9.0f} {per * 1e6:8.2f} "
                    f"{s / seconds['today']:8.3f}x {ratio:11.0f}x"
                )
        for label, params in tables.items():
            shots = [
                s for balls, launches in work
                for s in simulate_compact(balls, "white", launches, params).shots
            ]
            events = [len(s.events) for s in shots]
            cushions = [sum(1 for e in s.events if e[1] == _CUSHION) for s in shots]
            print(
                f"{kind:7} {label:8} events per shot: mean {statistics.mean(events):.2f}, "
                f"max {max(events)}; cushion impacts per shot {statistics.mean(cushions):.2f}"
            )
        print()


def _pooltool(
    works: dict[str, list[tuple[Position, list[Launch]]]], shots: int, repeats: int, stored: bool
) -> dict[str, float]:
    """pooltool 0.3.3's seconds per shot for each kind: measured in this run on the first
    ``shots`` of each kind's shots (printing its figures and load), or, when ``stored``, the
    stored figures with a note. Exits with the reason when pooltool cannot be run."""
    if stored:
        print(
            "pooltool 0.3.3: NOT measured in this run (--no-pooltool); the ratios are against "
            "its stored figures (7.7 ms an aimed, 3.2 ms a random shot, one earlier run)\n"
        )
        return dict(STORED_POOLTOOL_SECONDS)
    out = {}
    for kind, work in works.items():
        subset = [BaselineShot(b, "white", launch) for b, launches in work for launch in launches]
        try:
            got = pooltool_seconds(subset[:shots], repeats=repeats)
        except PooltoolUnavailableError as exc:
            sys.exit(f"pooltool 0.3.3 cannot be measured: {exc}\n(--no-pooltool: stored figures)")
        out[kind] = got.mean_seconds
        failed = f", {len(got.failed)} raised in pooltool (left out)" if got.failed else ""
        print(
            f"pooltool {got.version}, {kind} shots, measured in this run: "
            f"{got.mean_seconds * 1e3:.2f} ms/shot ({got.mean_seconds * 1e6:.0f} us), "
            f"{got.mean_events:.1f} events/shot, on {len(subset[:shots])} of the shots, best of "
            f"{got.repeats}{failed}; warm-up {got.warmup_seconds:.1f} s untimed "
            f"({got.warmup_shots} shots, numba); load average {got.load[0]:.2f} -> "
            f"{got.load[1]:.2f}"
        )
    print()
    return out


def _interleaved(
    repeats: int, run: Callable[[Params], object], tables: dict[str, Params]
) -> dict[str, float]:
    """CPU seconds of the fastest of ``repeats`` runs on each table, the tables taking
    turns so that a change of load on the machine falls on all of them alike."""
    best = dict.fromkeys(tables, math.inf)
    for _ in range(repeats):
        for label, params in tables.items():
            t0 = time.process_time()
            run(params)
            best[label] = min(best[label], time.process_time() - t0)
    return best


if __name__ == "__main__":
    main()
