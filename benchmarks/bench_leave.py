"""The leave model's batch form against its scalar form, on the positions the search values.

The search values every simulated candidate's leave (``Searcher.stroke_value`` ->
``leave_for`` -> ``LeaveModel.value``), about 2,000 a decision. This times
``LeaveModel.values`` on ``--rows`` such positions in one call against as many ``value()``
calls (CPU time of this process, the best of ``--repeats``), and reports microseconds a
row, the ratio and the load average. Target (issue 21, the search's speed): the batch
>= 10x faster a row at 2,000 rows.

The positions: those the ``--level`` player's search valued while deciding in seeded games
against itself (``value`` recorded as it was called), the first ``--rows`` with the cue ball
on the table ("on table") and ``--rows`` drawn evenly from all it valued until then ("as
met": mostly from hand, as the first strokes of a game are). Without ``values`` (an older
tree) only the scalar side is timed.

    python benchmarks/bench_leave.py [--rows N] [--repeats R] [--level ai:pro] [--seed S]
                                     [--out FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from onered.game import Game, PhysicsSimulator
from onered.players import GameSettings, make_player, play_game
from onered.players.leave import LeaveModel
from onered.table import Point

#: One call of ``value``: the cue ball (None: in hand), the object balls, the flags.
Call = tuple[Point | None, list[tuple[Point, bool]], bool, bool]


def record_calls(level: str, count: int, seed: int) -> tuple[list[Call], list[Call]]:
    """``count`` calls of ``LeaveModel.value`` made by ``level`` players deciding in seeded
    games against each other (drawn evenly from all made until the first ``count`` with
    the cue ball on the table), and those ``count`` with the cue ball on the table."""
    calls: list[Call] = []
    on_table: list[Call] = []
    original = LeaveModel.value

    def recording(
        self: LeaveModel,
        cue: Point | None,
        objects: Iterable[tuple[Point, bool]],
        *,
        hazards: bool = True,
        cannons: bool = True,
    ) -> float:
        objs = list(objects)
        if len(on_table) < count:
            calls.append((cue, objs, hazards, cannons))
        if cue is not None and len(on_table) < count:
            on_table.append((cue, objs, hazards, cannons))
        return original(self, cue, objs, hazards=hazards, cannons=cannons)

    LeaveModel.value = recording  # type: ignore[method-assign]
    try:
        number = 0
        while len(on_table) < count:
            rng = random.Random(seed * 1_000_003 + number)
            names = ("A", "B")
            players = {n: make_player(level, rng.getrandbits(32)) for n in names}

            def stop(game: Game, entry: object) -> None:
                if len(on_table) >= count:
                    raise _EnoughError

            with contextlib.suppress(_EnoughError):
                play_game(
                    players, GameSettings(target=50, names=names), PhysicsSimulator(), on_entry=stop
                )
            number += 1
    finally:
        LeaveModel.value = original  # type: ignore[method-assign]
    return random.Random(seed).sample(calls, count), on_table


class _EnoughError(Exception):
    """Enough positions recorded: the game is left there."""


def as_arrays(
    calls: list[Call],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``LeaveModel.values``' arguments for ``calls``."""
    n = len(calls)
    k = max((len(c[1]) for c in calls), default=0)
    cues = np.full((n, 2), np.nan)
    objects = np.full((n, k, 2), np.nan)
    reds = np.zeros((n, k), dtype=bool)
    for i, (cue, balls, _, _) in enumerate(calls):
        if cue is not None:
            cues[i] = cue
        for j, (p, red) in enumerate(balls):
            objects[i, j] = p
            reds[i, j] = red
    hazards = np.array([c[2] for c in calls], dtype=bool)
    cannons = np.array([c[3] for c in calls], dtype=bool)
    return cues, objects, reds, hazards, cannons


def best_cpu(run: Callable[[], object], repeats: int) -> float:
    """The least CPU time (seconds) of ``repeats`` runs of ``run``."""
    best = math.inf
    for _ in range(repeats):
        t0 = time.process_time()
        run()
        best = min(best, time.process_time() - t0)
    return best


def measure(model: LeaveModel, calls: list[Call], repeats: int) -> dict[str, Any]:
    """Microseconds a row of ``value`` one call a row and of ``values`` on all at once."""
    n = len(calls)

    def scalar() -> list[float]:
        return [model.value(c, o, hazards=h, cannons=k) for c, o, h, k in calls]

    out: dict[str, Any] = {
        "rows": n,
        "from_hand": sum(c[0] is None for c in calls),
        "value_us_per_row": round(best_cpu(scalar, repeats) / n * 1e6, 3),
    }
    if hasattr(model, "values"):
        args = as_arrays(calls)
        got = model.values(*args)
        out["max_abs_difference"] = float(np.max(np.abs(got - np.array(scalar()))))
        out["values_us_per_row"] = round(
            best_cpu(lambda: model.values(*args), repeats) / n * 1e6, 3
        )
        out["ratio"] = round(out["value_us_per_row"] / out["values_us_per_row"], 2)
        out["target_10x"] = "met" if out["ratio"] >= 10 else "NOT met"
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--level", default="ai:pro")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeats < 1:
        print("bench_leave: --rows and --repeats must be positive", file=sys.stderr)
        return 2
    as_met, on_table = record_calls(args.level, args.rows, args.seed)
    model = make_player(args.level, 0).searcher.leave  # type: ignore[attr-defined]
    report = {
        "level": args.level,
        "on_table": measure(model, on_table, args.repeats),
        "as_met": measure(model, as_met, args.repeats),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    text = json.dumps(report, indent=2)
    print(text)
    if args.out is not None:
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
