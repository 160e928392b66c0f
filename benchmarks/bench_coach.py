"""The coach: how long advice for a position takes, per level.

Collects ``--positions`` positions met in a seeded game (``--game`` players, default an
amateur against an amateur), then for each level asks a fresh coach for the best
``--count`` strokes of each position (``--samples`` noise samples per stroke) and reports
the time of one piece of advice: CPU time of the calling thread (one core) and wall time —
mean, 95th percentile and largest. As a baseline measured in the same run, the same
positions are decided by the strongest AI player's search (``Searcher.decide``), and the
ratio advice/decision is printed. Issue target: advice within 2 s at the strongest level.

    python benchmarks/bench_coach.py [--positions N] [--samples S] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any

from onered.coach import Coach, level_strength
from onered.game import Game, PhysicsSimulator, Position
from onered.players import STRENGTHS, make_player
from onered.players.search import Searcher
from onered.rules import Match


def positions(count: int, players: tuple[str, str], seed: int) -> list[Position]:
    """The first ``count`` positions (not after a foul) of seeded games between ``players``."""
    out: list[Position] = []
    game_no = 0
    while len(out) < count:
        game = Game(Match(100, ("A", "B")), PhysicsSimulator())
        ai = [make_player(p, seed + 2 * game_no + k) for k, p in enumerate(players)]
        while not game.over and len(out) < count:
            if game.state.choice_pending:
                game.choose(ai[game.state.to_play].choose(game.option_positions()))
                continue
            out.append(game.position)
            game.play(ai[game.state.to_play].decide(game.position))
        game_no += 1
    return out


def timed(fn: Any) -> tuple[float, float]:
    """CPU time of this thread and wall time of ``fn()``."""
    c0, w0 = time.thread_time(), time.perf_counter()
    fn()
    return time.thread_time() - c0, time.perf_counter() - w0


def summary(xs: list[float]) -> dict[str, float]:
    ordered = sorted(xs)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"mean": statistics.fmean(xs), "p95": p95, "max": ordered[-1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--count", type=int, default=5)
    parser.add_argument("--game", default="ai:amateur,ai:amateur")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    p1, _, p2 = args.game.partition(",")
    found = positions(args.positions, (p1, p2 or p1), args.seed)
    strongest = list(STRENGTHS)[-1]
    searcher = Searcher(STRENGTHS[strongest], PhysicsSimulator().params, PhysicsSimulator().table)
    rng = random.Random(args.seed)
    base = [timed(lambda p=p: searcher.decide(p, rng)) for p in found]
    report: dict[str, Any] = {
        "positions": len(found),
        "samples": args.samples,
        "load": os.getloadavg(),
        "baseline": {"what": f"decision of ai:{strongest}", "cpu": summary([c for c, _ in base])},
        "levels": {},
    }
    print(
        f"{len(found)} positions, {args.samples} samples per stroke, load "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    print(
        f"baseline: ai:{strongest} decision, CPU s mean {report['baseline']['cpu']['mean']:.3f}"
        f" p95 {report['baseline']['cpu']['p95']:.3f}"
    )
    print(
        f"{'level':10} {'CPU mean':>9} {'CPU p95':>8} {'CPU max':>8} {'wall mean':>10}"
        f" {'wall p95':>9} {'÷ decision':>11}"
    )
    for level in STRENGTHS:
        coach = Coach(level_strength(level))
        times = [
            timed(lambda p=p, c=coach: c.advise(p, count=args.count, samples=args.samples))
            for p in found
        ]
        cpu = summary([c for c, _ in times])
        wall = summary([w for _, w in times])
        ratio = cpu["mean"] / report["baseline"]["cpu"]["mean"]
        report["levels"][level] = {"cpu": cpu, "wall": wall, "ratio_to_decision": ratio}
        print(
            f"{level:10} {cpu['mean']:9.3f} {cpu['p95']:8.3f} {cpu['max']:8.3f} "
            f"{wall['mean']:10.3f} {wall['p95']:9.3f} {ratio:11.2f}"
        )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
