"""The two protocols against the work they wrap, side by side in one run.

- ``onered shot --batch`` (the in-process batch function, the single path line by line,
  and the command on a file in a subprocess, start-up included) against the in-process
  ``physics.simulate`` call and against pooltool 0.3.3 (``pooltool_baseline.py``, timed in
  the same run on the first ``--pooltool-shots`` of the same shots) on aimed 3-ball shots
  (balls anywhere, the cue ball aimed at an object ball within a few degrees, speed 0.5-6
  m/s, side and height within 0.4 R); target (issue 20): the command >= 150 x pooltool.
- ``onered referee`` (in-process and on a file) against ``rules.judge`` on the same game
  lines (the generated game of ``bench_referee.py``), in CPU time; target (issue 20):
  >= 100,000 lines/s in-process.

Each figure is the best of ``--repeats`` runs (the subprocesses too); the
load average is printed with the figures. The commands run with their bytecode cached
(as an installed package has it; ``cached_bytecode``).

    python benchmarks/bench_protocols.py [--shots N] [--strokes N] [--repeats R]
        [--pooltool-shots N | --no-pooltool]
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee import generate, to_json_lines
from pooltool_baseline import BaselineShot, PooltoolUnavailableError, pooltool_seconds

from onered import rules
from onered.cli.shot import batch
from onered.physics import Params, Strike, simulate, strike_to_launch
from onered.protocol.referee import run as referee_run
from onered.protocol.shot import play_line
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


def cpu_of(repeats: int, fn: Callable[[], object]) -> tuple[float, float]:
    """The least CPU time (seconds) of ``repeats`` calls of ``fn()``, and the least wall
    time: pooltool's baseline is CPU time, which other work on the machine inflates less."""
    cpu = wall = math.inf
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - t0)
    return cpu, wall


def command_cpu(
    args: list[str], path: Path, env: dict[str, str] | None = None
) -> tuple[float, float, int]:
    """CPU time (user + system) and wall time of ``onered ARGS FILE`` in a subprocess
    (interpreter start-up included; ``env``: its environment), and its status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "onered", *args, str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return cpu, wall, done.returncode


def cached_bytecode(tmp: Path) -> dict[str, str]:
    """An environment in which Python keeps the bytecode it compiles (under ``tmp``, not in
    the source tree), as an installed package has it: a development environment may set
    ``PYTHONDONTWRITEBYTECODE``, and then every run compiles onered's modules again."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    return env


def bench_shots(n: int, repeats: int, tmp: Path, pooltool_shots: int) -> None:
    shots = aimed_shots(n, seed=1)
    data = b"".join(json.dumps(s).encode() + b"\n" for s in shots)
    lines = data.splitlines()
    params = Params()
    prepared = [
        (s["balls"], s["cue_ball"], strike_to_launch(Strike(**s["strike"]), params)) for s in shots
    ]
    load_before = os.getloadavg()

    def engine() -> None:
        for balls, cue, launch in prepared:
            simulate(balls, cue, launch, params)

    def protocol() -> None:
        batch(io.BytesIO(data), io.BytesIO(), io.BytesIO())

    def single() -> None:
        for line in lines:
            play_line(line)

    t_engine = cpu_of(repeats, engine)
    t_batch = cpu_of(repeats, protocol)
    t_single = cpu_of(max(1, repeats // 2), single)
    path = tmp / "shots.jsonl"
    path.write_bytes(data)
    one = tmp / "one.jsonl"
    one.write_bytes(lines[0] + b"\n")
    env = cached_bytecode(tmp)
    command_cpu(["shot", "--batch"], one, env)  # (compiles the bytecode once)
    runs = [command_cpu(["shot", "--batch"], path, env) for _ in range(repeats)]
    cpu_cli, wall_cli, status = min(runs)
    start_up = min(command_cpu(["shot", "--batch"], one, env)[0] for _ in range(repeats))
    compiling = min(command_cpu(["shot", "--batch"], one)[0] for _ in range(repeats))
    events = sum(len(simulate(b, c, lau, params).events) for b, c, lau in prepared) / n
    pooltool_us = None
    if pooltool_shots > 0:
        subset = [
            BaselineShot({b: (p[0], p[1]) for b, p in balls.items()}, cue, launch)
            for balls, cue, launch in prepared[:pooltool_shots]
        ]
        try:
            base = pooltool_seconds(subset, repeats=repeats, params=params)
        except PooltoolUnavailableError as exc:
            print(f"pooltool unavailable: {exc}")
        else:
            pooltool_us = base.mean_seconds * 1e6
            print(
                f"pooltool {base.version}: {pooltool_us:,.0f} us CPU a shot "
                f"({base.mean_events:.1f} events, {len(subset) - len(base.failed)} shots); "
                f"load {base.load[0]:.2f}"
            )
    load_after = os.getloadavg()
    print(
        f"onered shot --batch: {n} aimed 3-ball shots, {events:.1f} events a shot on average "
        "(CPU time; wall time in brackets)"
    )
    cases = [
        ("physics.simulate (in-process, shots)", t_engine),
        ("batch function (in-process)", t_batch),
        ("line by line, play_line", t_single),
        (f"command on a file (exit {status})", (cpu_cli, wall_cli)),
    ]
    for label, (cpu, wall) in cases:
        us = cpu / n * 1e6
        versus = "" if pooltool_us is None else f" {pooltool_us / us:6.0f} x pooltool"
        print(
            f"  {label:<34} {n / cpu:>8,.0f} lines/s {us:6.1f} us ({wall / n * 1e6:6.1f}){versus}"
        )
    print(
        f"  the command on a one-line file (its start-up): {start_up:.3f} s CPU, "
        f"{start_up / n * 1e6:.1f} us a line of this file ({compiling:.3f} s when this "
        f"environment's Python compiles onered's modules again, as it does when "
        f"PYTHONDONTWRITEBYTECODE={os.environ.get('PYTHONDONTWRITEBYTECODE', '')!r} is set)"
    )
    if pooltool_us is not None:
        ratio = pooltool_us / (cpu_cli / n * 1e6)
        verdict = "met" if ratio >= 150 else "NOT met"
        print(f"  the command: {ratio:.0f} x pooltool (target >= 150: {verdict})")
    print(f"  load average (1, 5, 15 min): before {load_before}, after {load_after}")


def bench_referee(n: int, repeats: int, tmp: Path) -> None:
    match, items = generate(n, seed=7)
    text = to_json_lines(match, items)
    data = "".join(line + "\n" for line in text).encode()
    load_before = os.getloadavg()

    def judge() -> None:
        state = rules.start(match)
        for item in items:
            if isinstance(item, Option):
                state, _ = rules.choose(state, item)
            else:
                state, _ = rules.judge(state, item)

    def protocol() -> None:
        referee_run(io.BytesIO(data), io.BytesIO(), io.StringIO())

    t_judge = cpu_of(repeats, judge)
    t_proto = cpu_of(repeats, protocol)
    path = tmp / "game.jsonl"
    path.write_bytes(data)
    one = tmp / "match.jsonl"
    one.write_text(text[0] + "\n", encoding="utf-8")
    env = cached_bytecode(tmp)
    command_cpu(["referee"], one, env)  # (compiles the bytecode once)
    cpu_cli, wall_cli, status = min(command_cpu(["referee"], path, env) for _ in range(repeats))
    start_up, start_wall, _ = min(command_cpu(["referee"], one, env) for _ in range(repeats))
    load_after = os.getloadavg()
    count = len(items)
    print(
        f"onered referee: a generated game of {count} strokes and choices "
        "(CPU time; wall time in brackets)"
    )
    cases = [
        ("rules.judge (in-process, strokes)", t_judge),
        ("protocol run (in-process)", t_proto),
        (f"command on a file (exit {status})", (cpu_cli, wall_cli)),
        ("the command less its start-up", (cpu_cli - start_up, wall_cli - start_wall)),
    ]
    for label, (cpu, wall) in cases:
        us = cpu / count * 1e6
        print(
            f"  {label:<34} {count / cpu:>8,.0f} lines/s {us:6.1f} us ({wall / count * 1e6:6.1f})"
            f"   {cpu / t_judge[0]:4.2f} x rules.judge"
        )
    rate = count / t_proto[0]
    print(
        f"  start-up (a file of the match line): {start_up:.3f} s CPU; the protocol "
        f"in-process: {rate:,.0f} lines/s (target >= 100,000: "
        f"{'met' if rate >= 100_000 else 'NOT met'})"
    )
    print(f"  load average (1, 5, 15 min): before {load_before}, after {load_after}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=20_000)
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pooltool-shots", type=int, default=300, help="shots pooltool times")
    parser.add_argument("--no-pooltool", action="store_true", help="leave pooltool out")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        pooltool = 0 if args.no_pooltool else args.pooltool_shots
        bench_shots(args.shots, args.repeats, Path(tmp), pooltool)
        bench_referee(args.strokes, args.repeats, Path(tmp))


if __name__ == "__main__":
    main()
