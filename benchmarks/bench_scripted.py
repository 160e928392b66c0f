"""The scripted opponent (``opponent="scripted"``): its speed in the environment and its
strength against the random player and the AI's novice.

Speed: steps per CPU-second of ``onered/SnookerOneRed-v0`` with random actions of the agent
against ``random``, ``scripted`` and ``ai:novice`` (a step is the agent's stroke and the
opponent's visit). Strength: whole games to ``--target`` between two built-in players on
the environments' lean game (every stroke read and judged as in the game loop), the first
stroke alternating; per pairing the wins (95 % Wilson interval), games cut by the stroke
cap, and each player's points per visit (the points of his own strokes, fouls' penalties
not counted) and fouls per visit.

    python benchmarks/bench_scripted.py [--seconds 10] [--games 100] [--target 100]
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass

import numpy as np

from onered.env import SnookerOneRedEnv
from onered.env.core import Config, Frame
from onered.env.opponents import make_opponent
from onered.study.intervals import wilson as interval


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins / n`` (``onered.study.intervals``)."""
    return interval(wins, n) or (0.0, 1.0)


def speed(opponent: str, seconds: float) -> tuple[float, int]:
    """Steps per CPU-second with random actions against ``opponent``, and the steps."""
    env = SnookerOneRedEnv(opponent=opponent)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
        steps += 1
        if terminated or truncated:
            env.reset()
    return steps / (time.process_time() - start), steps


@dataclass
class Tally:
    wins: int = 0
    points: int = 0
    fouls: int = 0
    visits: int = 0


def match(first: str, second: str, games: int, target: int, seed: int) -> dict[str, Tally]:
    """``games`` games of ``first`` against ``second`` (each a built-in opponent name),
    ``first`` starting the even games."""
    tallies = {"a": Tally(), "b": Tally()}
    kinds = {"a": first, "b": second}
    frame = Frame(Config(target=target))
    for g in range(games):
        players = {name: make_opponent(kind, seed + 2 * g + k) for k, (name, kind) in
                   enumerate(kinds.items())}  # fmt: skip
        order = ("a", "b") if g % 2 == 0 else ("b", "a")
        frame.start(order, None)
        striker_before: str | None = None
        while not frame.done:
            name = frame.to_play()
            game = frame.game
            if game.state.choice_pending:
                game.choose(players[name].choose(game.option_positions()))
            if name != striker_before:
                tallies[name].visits += 1
            striker_before = name
            verdict = game.play(players[name].decide(game.position))
            frame.strokes += 1
            if verdict.foul is not None:
                tallies[name].fouls += 1
                striker_before = None
            else:
                tallies[name].points += verdict.points
            if verdict.visit_over:
                striker_before = None
        winner = game.state.winner
        if winner is not None:
            tallies[frame.names[winner]].wins += 1
    return tallies


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--pairs", default="scripted:random,scripted:novice")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()}")
    for opponent in ("random", "scripted", "novice"):
        if args.seconds > 0:
            rate, steps = speed(opponent, args.seconds)
            print(f"env vs {opponent:>8}: {rate:8.1f} steps per CPU-second ({steps} steps)")
    for pair in args.pairs.split(","):
        if not pair:
            continue
        first, second = pair.split(":")
        start = time.process_time()
        tallies = match(first, second, args.games, args.target, args.seed)
        cpu = time.process_time() - start
        a, b = tallies["a"], tallies["b"]
        low, high = wilson(a.wins, args.games)
        cut = args.games - a.wins - b.wins
        print(
            f"{first} vs {second}: {first} won {a.wins}/{args.games} "
            f"({low:.0%}-{high:.0%}), {second} {b.wins}, cut by the cap {cut}; "
            f"points/visit {first} {a.points / max(1, a.visits):.2f}, "
            f"{second} {b.points / max(1, b.visits):.2f}; fouls/visit {first} "
            f"{a.fouls / max(1, a.visits):.2f}, {second} {b.fouls / max(1, b.visits):.2f} "
            f"({cpu:.0f} CPU-s)",
            flush=True,
        )
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
