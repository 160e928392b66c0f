"""Referee throughput: verdicts per second for a long generated game.

Three figures: ``rules.judge`` alone (in-process), the protocol layer in-process (JSON parse,
judge, JSON verdict), and the ``onered referee`` command on a file. The baseline, run in the
same process, is a bare ``json.loads`` + ``json.dumps`` round trip of the same lines: the
protocol figure is reported as a ratio to it. Target (issue 2): >= 50,000 strokes/s in-process
on one core.

    python benchmarks/bench_referee.py [--strokes N] [--seed S]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from onered import rules
from onered.protocol.referee import run as run_protocol
from onered.rules import BOTH, Ball, FoulCode, Match, Option, Stroke

PLACED = (0.95, 0.70)


def generate(n: int, seed: int) -> tuple[Match, list[Stroke | Option]]:
    """A valid game of ``n`` strokes (and foul choices), mixing every kind of stroke."""
    rng = random.Random(seed)
    match = Match(target=10**9, players=("Ivanov", "Petrov"))
    state = rules.start(match)
    lines: list[Stroke | Option] = []
    while len(lines) < n:
        me = state.player_ball(state.to_play)
        other = state.player_ball(1 - state.to_play)
        from_hand = me not in state.table
        both_on = other in state.table
        placed = PLACED if from_hand else None
        roll = rng.random()
        if roll < 0.30 and both_on:
            stroke = Stroke(placed=placed, first_hit=rng.choice((Ball.RED, other)), cannon=True)
        elif roll < 0.45:
            stroke = Stroke(placed=placed, first_hit=Ball.RED, potted=(me,))
        elif roll < 0.60:
            stroke = Stroke(placed=placed, first_hit=Ball.RED, potted=(Ball.RED,))
        elif roll < 0.66 and both_on:
            stroke = Stroke(placed=placed, first_hit=BOTH, cannon=True, potted=(Ball.RED, me))
        elif roll < 0.72 and both_on:
            stroke = Stroke(placed=placed, first_hit=other, potted=(other,))
        elif roll < 0.80 and both_on and state.break_ % 100 >= 80:
            stroke = Stroke(placed=placed, first_hit=Ball.RED, cannon=True, crossed_baulk=True)
        elif roll < 0.90:
            stroke = Stroke(placed=placed, first_hit=Ball.RED)
        elif roll < 0.95:
            stroke = Stroke(placed=placed, first_hit=None)
        else:
            stroke = Stroke(placed=placed, first_hit=Ball.RED, fouls=frozenset({FoulCode.PUSH}))
        state, verdict = rules.judge(state, stroke)
        lines.append(stroke)
        if verdict.options:
            option = rng.choice((Option.AS_THEY_LIE, Option.FROM_D))
            state, _ = rules.choose(state, option)
            lines.append(option)
    return match, lines


def to_json_lines(match: Match, lines: list[Stroke | Option]) -> list[str]:
    """The game as referee-protocol JSON Lines."""
    out = [json.dumps({"type": "match", "target": match.target, "players": list(match.players)})]
    for item in lines:
        if isinstance(item, Option):
            out.append(json.dumps({"type": "choice", "option": item.value}))
            continue
        obj: dict[str, object] = {"type": "stroke"}
        if item.placed is not None:
            obj["placed"] = list(item.placed)
        if item.first_hit is not None:
            obj["first_hit"] = item.first_hit.value
        if item.cannon:
            obj["cannon"] = True
        if item.potted:
            obj["potted"] = [b.value for b in item.potted]
        if item.fouls:
            obj["fouls"] = [f.value for f in item.fouls]
        if item.crossed_baulk:
            obj["crossed_baulk"] = True
        out.append(json.dumps(obj))
    return out


def best_of(repeats: int, fn: object) -> float:
    """The fastest of ``repeats`` timings of ``fn()`` (seconds)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    match, lines = generate(args.strokes, args.seed)
    n = len(lines)

    def judge_all() -> None:
        state = rules.start(match)
        for item in lines:
            if isinstance(item, Option):
                state, _ = rules.choose(state, item)
            else:
                state, _ = rules.judge(state, item)

    text = to_json_lines(match, lines)

    def protocol_all() -> None:
        run_protocol(text, io.StringIO(), io.StringIO())

    def baseline() -> None:
        for line in text:
            json.dumps(json.loads(line))

    t_judge = best_of(args.repeats, judge_all)
    t_proto = best_of(args.repeats, protocol_all)
    t_base = best_of(args.repeats, baseline)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "onered", "referee", str(path)],
            stdout=subprocess.DEVNULL,
            check=False,
        )
        t_cli = time.perf_counter() - t0
    print(f"strokes in the generated game: {n} (seed {args.seed})")
    print(f"in-process rules.judge:   {n / t_judge:12,.0f} strokes/s  (target >= 50,000)")
    print(f"in-process protocol:      {n / t_proto:12,.0f} lines/s")
    print(f"baseline json round trip: {n / t_base:12,.0f} lines/s")
    print(f"protocol / baseline time: {t_proto / t_base:12.2f} x")
    print(f"CLI on a file:            {n / t_cli:12,.0f} lines/s  (exit {done.returncode})")


if __name__ == "__main__":
    main()
