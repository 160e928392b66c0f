"""Environment steps per second: onered/SnookerOneRed-v0 against the random opponent
(target, issue 20: >= 10,000 steps per CPU-second), against each AI level, the two-agent
form, and the vector form of 64 tables (target: >= 20,000 steps/s wall-clock on the
machine's two cores) on one thread, with its rounds' kernel calls split over two threads,
and with its tables shared out over two worker processes.

A step is one decision of the agent (a random action, uniform in the box, seeded) and
the opponent's visit that follows: about two strokes, each simulated, read by the bridge
and judged by the referee. The baseline, measured in the same run, is the game loop
itself: ``onered.game.Game.play`` strokes per second with the same random player's
strokes (records included). Every figure is given in wall-clock time and in the
process's CPU time: other processes share the machine, and CPU time is what one core
dedicated to the run would give; the load average is printed with them. The vector
form's two-core target is wall-clock, so the run also times a plain CPU loop (SHA-256 of
a buffer, which releases the GIL) on one and on two threads: what two cores gave in this
run, to read the vector figures against (under load it is well below 2).

    python benchmarks/bench_env.py [--seconds S] [--ai-seconds S] [--tables N] [--out F]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import gymnasium as gym
import numpy as np

import onered.env
from onered.env import ENV_ID, RandomPlayer, SnookerOneRedVectorEnv
from onered.game import Game, PhysicsSimulator
from onered.players import STRENGTHS
from onered.rules import Match, Option

#: Targets of issue 20: single environment, steps per CPU-second against the random
#: opponent; vector form (64 tables), steps per wall-clock second on two cores.
GOAL = 10_000.0
VECTOR_GOAL = 20_000.0


@dataclass(frozen=True)
class Rate:
    """Work done in a timed run: ``count`` units in ``wall`` and ``cpu`` seconds."""

    name: str
    unit: str
    count: int
    wall: float
    cpu: float
    strokes: int = 0

    @property
    def per_wall(self) -> float:
        return self.count / self.wall

    @property
    def per_cpu(self) -> float:
        return self.count / self.cpu


def timed(name: str, unit: str, seconds: float, work: Callable[[], int]) -> Rate:
    """Call ``work`` (which does some units and returns how many) until ``seconds`` of
    wall-clock time have passed."""
    count = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        count += work()
    return Rate(name, unit, count, time.perf_counter() - wall0, time.process_time() - cpu0)


def game_loop_rate(seconds: float, seed: int) -> Rate:
    """The baseline: strokes/s of ``Game.play`` with the random player's strokes."""
    player, sim = RandomPlayer(seed), PhysicsSimulator()
    game = Game(Match(100, ("a", "b")), sim)

    def work() -> int:
        nonlocal game
        for _ in range(100):
            if game.over:
                game = Game(Match(100, ("a", "b")), sim)
            if game.state.choice_pending:
                game.choose(Option.AS_THEY_LIE)
            game.play(player.decide(game.position))
        return 100

    return timed("game loop (Game.play, random strokes)", "strokes", seconds, work)


def env_rate(name: str, opponent: str, seconds: float, seed: int, batch: int) -> Rate:
    """Steps/s of ``gym.make(ENV_ID, opponent=...)`` with random actions."""
    env = gym.make(ENV_ID, opponent=opponent)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    strokes = 0

    def work() -> int:
        nonlocal strokes
        for action in rng.uniform(-1, 1, size=(batch, 8)).astype(np.float32):
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                strokes += env.unwrapped.frame.strokes  # type: ignore[attr-defined]
                env.reset()
        return batch

    rate = timed(name, "steps", seconds, work)
    strokes += env.unwrapped.frame.strokes  # type: ignore[attr-defined]
    return Rate(rate.name, rate.unit, rate.count, rate.wall, rate.cpu, strokes)


def vector_rate(tables: int, seconds: float, seed: int, threads: int, workers: int) -> Rate:
    """Table-steps/s of the vector form (random opponent); with workers, the CPU time is
    the workers' (the parent only hands out actions)."""
    envs = SnookerOneRedVectorEnv(tables, threads=threads, workers=workers)
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def work() -> int:
        envs.step(rng.uniform(-1, 1, size=(tables, 8)).astype(np.float32))
        return tables

    pool = envs._workers
    cpu0 = pool.cpu() if pool is not None else 0.0
    name = f"vector form, {tables} tables, {threads} thread(s), {workers} process(es)"
    rate = timed(name, "steps", seconds, work)
    if pool is not None:
        rate = Rate(rate.name, rate.unit, rate.count, rate.wall, pool.cpu() - cpu0)
    envs.close()
    return rate


def cpu_loop(threads: int, seconds: float) -> float:
    """MB/s of SHA-256 over a 1 MB buffer on ``threads`` threads (hashlib releases the
    GIL): what the machine's cores give right now."""
    data = os.urandom(1 << 20)
    counts = [0] * threads
    stop = time.perf_counter() + seconds

    def loop(k: int) -> None:
        while time.perf_counter() < stop:
            hashlib.sha256(data).digest()
            counts[k] += 1

    workers = [threading.Thread(target=loop, args=(k,)) for k in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


def aec_rate(seconds: float, seed: int) -> Rate:
    """Steps/s of the two-agent AEC form with random actions (a step is one stroke)."""
    env = onered.env.SnookerOneRedAEC()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def work() -> int:
        for action in rng.uniform(-1, 1, size=(200, 8)).astype(np.float32):
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.reset()
            env.step(action)
        return 200

    return timed("two-agent AEC form (a step is one stroke)", "steps", seconds, work)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per random-opponent run")
    parser.add_argument("--ai-seconds", type=float, default=20.0, help="per AI level")
    parser.add_argument("--tables", type=int, default=64, help="tables of the vector form")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    onered.env.register()

    load_before = load()
    print(f"load average (1, 5, 15 min) before: {load_before}; cores: {os.cpu_count()}")
    baseline = game_loop_rate(args.seconds, args.seed)
    random_env = env_rate("env vs random", "random", args.seconds, args.seed, 200)
    load_single = load()
    rates = [baseline, random_env]
    vectors = [
        vector_rate(args.tables, args.seconds, args.seed, threads, workers)
        for threads, workers in ((1, 1), (2, 1), (1, 2))
    ]
    loop_1 = cpu_loop(1, min(args.seconds, 3.0))
    loop_2 = cpu_loop(2, min(args.seconds, 3.0))
    load_vector = load()
    rates += vectors
    rates.append(aec_rate(args.seconds, args.seed))
    for level in STRENGTHS:
        if args.ai_seconds > 0:
            rates.append(env_rate(f"env vs ai:{level}", level, args.ai_seconds, args.seed, 1))
    load_after = load()

    print(
        f"{'run':58} {'unit':>6} {'count':>8} {'/s wall':>10} {'/s cpu':>10} {'strokes/step':>13}"
    )
    for r in rates:
        per_step = f"{r.strokes / r.count:.2f}" if r.strokes else ""
        print(
            f"{r.name:58} {r.unit:>6} {r.count:>8} {r.per_wall:>10.1f} {r.per_cpu:>10.1f} "
            f"{per_step:>13}"
        )
    ratio = random_env.per_cpu / baseline.per_cpu
    print(
        f"env steps per game-loop stroke (cpu): {ratio:.3f} "
        f"(a step is {random_env.strokes / random_env.count:.2f} strokes)"
    )
    best = max(vectors, key=lambda r: r.per_wall)
    print(
        f"vector form (1 thread) / single env (cpu): {vectors[0].per_cpu / random_env.per_cpu:.3f}"
    )
    print(
        f"plain CPU loop, 2 threads / 1 thread: {loop_2 / loop_1:.2f} "
        f"(what two cores gave in this run; load {load_vector})"
    )
    met = random_env.per_cpu >= GOAL
    print(
        f"target single env >= {GOAL:,.0f} steps per CPU-second vs random: "
        f"{'met' if met else 'NOT met'} ({random_env.per_cpu:,.0f}/s cpu, "
        f"{random_env.per_wall:,.0f}/s wall; load {load_single})"
    )
    vector_met = best.per_wall >= VECTOR_GOAL
    print(
        f"target vector form, {args.tables} tables >= {VECTOR_GOAL:,.0f} steps/s wall on two "
        f"cores: {'met' if vector_met else 'NOT met'} (best {best.per_wall:,.0f}/s wall: "
        f"{best.name}; its CPU rate {best.per_cpu:,.0f}/s; load {load_vector})"
    )
    print(f"load average after: {load_after}")
    if args.out is not None:
        data = {
            "load_before": load_before,
            "load_after": load_after,
            "rates": [{**asdict(r), "per_wall": r.per_wall, "per_cpu": r.per_cpu} for r in rates],
            "goal_met_cpu": met,
            "vector_goal_met_wall": vector_met,
            "cpu_loop_2_over_1": loop_2 / loop_1,
            "load_single": load_single,
            "load_vector": load_vector,
        }
        args.out.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
