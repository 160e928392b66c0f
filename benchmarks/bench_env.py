"""Environment steps per second on one core: onered/SnookerOneRed-v0 against the random
opponent (goal: >= 5,000 steps/s), against each AI level, the vector form and the
two-agent form.

A step is one decision of the agent (a random action, uniform in the box, seeded) and
the opponent's visit that follows: about two strokes, each simulated, read by the bridge
and judged by the referee. The baseline, measured in the same run, is the game loop
itself: ``onered.game.Game.play`` strokes per second with the same random player's
strokes (records included). Every figure is given in wall-clock time and in the
process's CPU time: other processes share the machine, and CPU time is what one core
dedicated to the run would give; the load average is printed with them.

    python benchmarks/bench_env.py [--seconds S] [--ai-seconds S] [--tables N] [--out F]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import gymnasium as gym
import numpy as np

import onered.env
from onered.env import ENV_ID, RandomPlayer
from onered.game import Game, PhysicsSimulator
from onered.players import STRENGTHS
from onered.rules import Match, Option

GOAL = 5000.0


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


def vector_rate(tables: int, seconds: float, seed: int) -> Rate:
    """Table-steps/s of the vector form (random opponent)."""
    envs = gym.make_vec(ENV_ID, num_envs=tables, vectorization_mode="vector_entry_point")
    envs.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def work() -> int:
        envs.step(rng.uniform(-1, 1, size=(tables, 8)).astype(np.float32))
        return tables

    return timed(f"vector form, {tables} tables, random opponent", "steps", seconds, work)


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
    parser.add_argument("--tables", type=int, default=16, help="tables of the vector form")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    onered.env.register()

    load_before = load()
    print(f"load average (1, 5, 15 min) before: {load_before}; cores: {os.cpu_count()}")
    baseline = game_loop_rate(args.seconds, args.seed)
    random_env = env_rate("env vs random", "random", args.seconds, args.seed, 200)
    rates = [baseline, random_env]
    rates.append(vector_rate(args.tables, args.seconds, args.seed))
    rates.append(aec_rate(args.seconds, args.seed))
    for level in STRENGTHS:
        rates.append(env_rate(f"env vs ai:{level}", level, args.ai_seconds, args.seed, 1))
    load_after = load()

    print(
        f"{'run':44} {'unit':>8} {'count':>8} {'/s wall':>10} {'/s cpu':>10} {'strokes/step':>13}"
    )
    for r in rates:
        per_step = f"{r.strokes / r.count:.2f}" if r.strokes else ""
        print(
            f"{r.name:44} {r.unit:>8} {r.count:>8} {r.per_wall:>10.1f} {r.per_cpu:>10.1f} "
            f"{per_step:>13}"
        )
    ratio = random_env.per_cpu / baseline.per_cpu
    print(
        f"env steps per game-loop stroke (cpu): {ratio:.3f} "
        f"(a step is {random_env.strokes / random_env.count:.2f} strokes)"
    )
    vec = rates[2]
    print(f"vector form / single env (cpu): {vec.per_cpu / random_env.per_cpu:.3f}")
    met = random_env.per_cpu >= GOAL
    print(
        f"goal >= {GOAL:,.0f} steps/s vs random on one core: "
        f"{'met' if met else 'NOT met'} ({random_env.per_cpu:,.0f}/s cpu, "
        f"{random_env.per_wall:,.0f}/s wall)"
    )
    print(f"load average after: {load_after}")
    if args.out is not None:
        data = {
            "load_before": load_before,
            "load_after": load_after,
            "rates": [{**asdict(r), "per_wall": r.per_wall, "per_cpu": r.per_cpu} for r in rates],
            "goal_met_cpu": met,
        }
        args.out.write_text(json.dumps(data, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
