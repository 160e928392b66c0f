"""The coach against a dense search: is its first suggestion as good as the best stroke there is?

Issue target: on positions kept outside the repository, the coach's first suggestion is
worth no less than the best stroke an independent dense search finds, within 0.3 points;
advice within 2 s at the strongest level.

The positions are drawn at run time from ``--seed`` (never stored): three balls at random,
the opening and random object balls out of baulk with the cue ball in hand, random balls
at 14-15 consecutive hazards or 74-75 cannons, and breaks of 80-99 with the baulk-line
crossing owed. The dense search shares nothing with the AI's candidate generation
(``Searcher``): a grid over aim (the full circle, finer across each object ball; cushion
first strokes included) x speed x side x height, from every one of 19 places spread over
the D when in hand; each stroke simulated in batches (``simulate_many``, the cue at the
least elevation, ``Clearance.minimum``), read by the bridge (``batch_strokes``), judged
by the referee (``rules.judge``), the table settled as the game loop settles it, and
valued by the search's own value (``Searcher.stroke_value``). Stage 1 plays every grid
stroke without noise; stage 2 plays the best distinct ones under the level's noise
(``Noise.apply``, ``Clearance.lift``) with ``--samples`` draws, the same draws for every
stroke; stage 3 refines the best few locally. The winner and the coach's first suggestion
(``onered.coach.advise``) are then valued afresh on a second, independent set of draws
(the same for both), so the search's winner does not profit from the draws it was picked
by: their mean values are the strokes' worth, and the gap is the paired difference.

    python benchmarks/bench_coach_dense.py --positions 12 --level master --samples 300 \\
        --seed 20261205 --out dense.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import numpy as np
from bench_strength import NO_TARGET, random_balls

from onered import bridge, rules
from onered.coach import advise
from onered.game import Game, PhysicsSimulator, Position
from onered.game.loop import BALL_ORDER, placement_problem, settle
from onered.physics.batch import simulate_many
from onered.physics.types import Strike
from onered.players import STRENGTHS
from onered.players.search import Searcher
from onered.rules import Ball, Match
from onered.rules.model import Counters
from onered.rules.position import check
from onered.table import BALL_DIAMETER, BALL_RADIUS, BAULK_Y, D_CENTRE, D_RADIUS, LENGTH, WIDTH

#: The grid of cue actions tried at every aim: speeds (m/s), side and tip height (R).
SPEEDS = (0.5, 0.9, 1.4, 2.0, 2.8, 3.8, 5.2, 7.0)
SIDES = (-0.5, -0.25, 0.0, 0.25, 0.5)
HEIGHTS = (-0.6, -0.3, 0.0, 0.3, 0.6)
#: Aim steps (degrees): over the full circle, and across each object ball (from the ball's
#: left edge to its right, as seen from the cue ball, with a margin), on the table and
#: from each place in the D.
AIM_STEP, FINE_STEP = 0.25, 0.05
HAND_AIM_STEP, HAND_FINE_STEP = 0.5, 0.1
#: Stage 2: the distinct strokes of stage 1 played under noise, half by their noiseless
#: value, half by the mean of their aim neighbours (a stroke whose window is wide).
FINALISTS = 60
#: Stage 3: rounds of local refinement, each around the best so many strokes found yet,
#: one step each way of each variable; the second round's steps are half the first's.
REFINED = (10, 5)
#: The strokes simulated in one engine call (the event logs of strokes from hand are kept).
CHUNK = 20_000
#: The coach is as good as the search when its first suggestion is worth at most this
#: much less (points of the search's value).
TOLERANCE = 0.3


class Kind(Enum):
    """What a held-out position is like."""

    RANDOM = "random"  # three balls at random, the break at 0
    OPENING = "opening"  # the red on its spot, the cue ball in hand
    HAND = "hand"  # the cue ball in hand, the red and the other ball out of baulk at random
    HAZARDS = "hazards"  # three balls at random after 14 or 15 consecutive hazards
    CANNONS = "cannons"  # three balls at random after 74 or 75 consecutive cannons
    BAULK = "baulk"  # three balls at random, a break of 80-99: the crossing is owed


#: The kinds of the positions in turn (12 positions: 5 random, 2 from hand, 3 near a
#: limit, 2 with the crossing owed; a short run meets every kind early).
ORDER = (
    Kind.RANDOM,
    Kind.OPENING,
    Kind.HAZARDS,
    Kind.BAULK,
    Kind.RANDOM,
    Kind.HAND,
    Kind.CANNONS,
    Kind.RANDOM,
    Kind.BAULK,
    Kind.RANDOM,
    Kind.HAZARDS,
    Kind.RANDOM,
)


@dataclass(frozen=True, slots=True)
class Held:
    """A held-out position and its kind."""

    kind: Kind
    position: Position


@dataclass(frozen=True, slots=True)
class Graded:
    """A stroke and its value (noiseless in stage 1, the mean under noise after)."""

    value: float
    place: int
    strike: Strike


def held_position(kind: Kind, rng: random.Random, simulator: PhysicsSimulator) -> Position:
    """A position of ``kind`` drawn from ``rng`` (player A, the white, to play)."""
    match = Match(target=NO_TARGET, players=("A", "B"))
    if kind is Kind.OPENING:
        return Game(match, simulator).position
    start = replace(rules.start(match), stroke_no=rng.randrange(2, 60))
    if kind is Kind.HAND:
        while True:
            red, yellow = (
                (rng.uniform(0.08, WIDTH - 0.08), rng.uniform(BAULK_Y + 0.05, LENGTH - 0.08))
                for _ in range(2)
            )
            if math.dist(red, yellow) > 2 * BALL_DIAMETER:
                break
        balls = {Ball.RED: red, Ball.YELLOW: yellow}
        state = replace(start, table=dict(balls), red_spot=None)
    else:
        balls = random_balls(rng)
        state = replace(start, table=dict(balls), red_spot=None)
        if kind is Kind.HAZARDS:
            hazards = rng.choice((14, 15))
            brk = 2 * hazards + rng.randrange(0, 20)
            state = replace(state, counters=Counters(hazards=hazards), break_=brk)
        elif kind is Kind.CANNONS:
            cannons = rng.choice((74, 75))
            brk = 2 * cannons + rng.randrange(0, 30)
            state = replace(state, counters=Counters(cannons=cannons), break_=brk, baulk_met=0)
        elif kind is Kind.BAULK:
            state = replace(state, break_=rng.randrange(80, 100))
        state = replace(state, score=(state.break_ + rng.randrange(0, 60), rng.randrange(0, 200)))
    check(state)
    return Game.resume(state, balls, simulator).position


def held_positions(count: int, seed: int, simulator: PhysicsSimulator) -> list[Held]:
    """``count`` positions drawn from ``seed``, their kinds in :data:`ORDER`'s turn."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        kind = ORDER[n % len(ORDER)]
        out.append(Held(kind, held_position(kind, rng, simulator)))
    return out


def d_places() -> list[tuple[float, float]]:
    """19 places spread over the D: 9, 6 and 3 on arcs at 0.92, 0.6 and 0.28 of its radius
    (from one end of the baulk line to the other) and one by its centre; a millimetre
    inside the baulk line."""
    cx, cy = D_CENTRE
    out = [(cx, cy - 0.001)]
    for frac, n in ((0.92, 9), (0.6, 6), (0.28, 3)):
        r = frac * D_RADIUS
        for j in range(n):
            t = math.pi * j / (n - 1)
            out.append((cx + r * math.cos(t), cy - 0.001 - r * math.sin(t)))
    return out


def grid_aims(
    cue: tuple[float, float], objects: Sequence[tuple[float, float]], step: float, fine: float
) -> list[float]:
    """Aims (degrees, sorted) over the full circle at ``step``, and at ``fine`` across each
    object ball (its half-width seen from ``cue`` and a tenth more each side)."""
    aims = {round(k * step, 6) for k in range(round(360 / step))}
    for obj in objects:
        dx, dy = obj[0] - cue[0], obj[1] - cue[1]
        d = math.hypot(dx, dy)
        centre = math.degrees(math.atan2(dy, dx)) % 360
        half = math.degrees(math.asin(min(1.0, 2 * BALL_RADIUS / d))) * 1.1
        n = int(half / fine)
        aims.update(round((centre + j * fine) % 360, 6) for j in range(-n, n + 1))
    return sorted(aims)


def distinct(ranked: Sequence[Graded], count: int, taken: Sequence[Graded] = ()) -> list[Graded]:
    """The first ``count`` strokes of ``ranked`` unlike each other and ``taken`` (not the
    same place with aims within 0.3 degrees, speeds within 30 %, side within 0.3 and height
    within 0.45: neighbours on the grid count as one)."""
    out: list[Graded] = []
    chosen = list(taken)
    for g in ranked:
        if len(out) >= count:
            break
        s = g.strike
        if any(
            c.place == g.place
            and abs((c.strike.aim - s.aim + 180) % 360 - 180) < 0.3
            and abs(c.strike.speed - s.speed) < 0.3 * s.speed
            and abs(c.strike.side - s.side) < 0.3
            and abs(c.strike.height - s.height) < 0.45
            for c in chosen
        ):
            continue
        out.append(g)
        chosen.append(g)
    return out


def spread(xs: Sequence[float]) -> dict[str, float]:
    """Mean, 95th percentile and largest of ``xs``."""
    ordered = sorted(xs)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"mean": statistics.fmean(xs), "p95": p95, "max": ordered[-1]}


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` sample by sample and its standard error."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    sd = statistics.stdev(d) if len(d) > 1 else 0.0
    return statistics.fmean(d), sd / math.sqrt(len(d))


class Table:
    """One held-out position: its strokes played as the game loop plays them and valued by
    the search's value function for ``level``."""

    def __init__(self, position: Position, searcher: Searcher) -> None:
        self.position = position
        self.searcher = searcher
        self.me = position.cue_ball
        self.hand = position.in_hand
        others = {b: p for b, p in position.balls.items() if b is not self.me}
        self.objects = list(others.values())
        if self.hand:
            self.places: list[tuple[float, float] | None] = [
                p for p in d_places() if placement_problem(others, self.me, p) is None
            ]
        else:
            self.places = [None]
        self._clear = [searcher.clearance(position, p) for p in self.places]
        self._opp = searcher._opp_from_d()

    def add_place(self, placed: tuple[float, float] | None) -> int:
        """Place ``placed`` (the coach's, from hand) added to the places: its index."""
        self.places.append(placed)
        self._clear.append(self.searcher.clearance(self.position, placed))
        return len(self.places) - 1

    def names(self, place: int) -> dict[str, tuple[float, float]]:
        """The balls' centres by name before a stroke from place ``place``."""
        balls = dict(self.position.balls)
        placed = self.places[place]
        if placed is not None:
            balls[self.me] = placed
        return {b.value: balls[b] for b in BALL_ORDER if b in balls}

    def least(self, place: int, strike: Strike) -> Strike:
        """``strike`` with the cue at the least elevation from place ``place``."""
        e = self._clear[place].minimum(strike.aim, strike.side, strike.height)
        return Strike(strike.speed, strike.aim, strike.side, strike.height, e)

    def values(self, place: int, strikes: Sequence[Strike], *, full: bool) -> list[float]:
        """The value of each of ``strikes`` played from place ``place`` (as given: the
        caller sets the elevation). ``full``: a stroke from hand whose cue ball met a
        cushion is read from its whole shot, as the game loop reads it (the place of the
        contact, in baulk or not, is on the path)."""
        names = self.names(place)
        ids = tuple(names)
        ci = ids.index(self.me.value)
        placed = self.places[place]
        state, s = self.position.state, self.position.state.to_play
        out: list[float] = []
        for lo in range(0, len(strikes), CHUNK):
            part = strikes[lo : lo + CHUNK]
            n = len(part)
            shots = simulate_many(
                np.array([list(names.values())]),
                ci,
                strikes=np.array(
                    [(x.speed, x.aim, x.side, x.height, x.elevation) for x in part]
                ).reshape(-1, 5),
                ball_ids=ids,
                params=self.searcher.params,
                table=self.searcher.table,
                events=self.hand,
            )
            strokes = bridge.batch_strokes(
                shots,
                placed=[placed] * n if self.hand else None,
                before=[names] * n if self.hand else None,
            )
            got = shots.ball_ids  # the engine's order
            cushions = shots.cushions[:, got.index(self.me.value)].tolist()
            fates, rests = shots.fate.tolist(), shots.rest.tolist()
            for k, stroke in enumerate(strokes):
                if full and self.hand and cushions[k]:
                    stroke = bridge.stroke(shots.result(k), self.me.value, names, placed=placed)
                after, verdict = rules.judge(state, stroke)
                rest: dict[Ball, tuple[float, float] | None] = {
                    Ball(b): None if fate else (xy[0], xy[1])
                    for b, fate, xy in zip(got, fates[k], rests[k], strict=True)
                }
                table = settle(rest, after, verdict.placements)
                after = replace(after, table=dict(table))
                out.append(self.searcher.stroke_value(s, after, verdict, self._opp))
        return out

    def worth(
        self, strokes: Sequence[tuple[int, Strike]], draws: Sequence[int]
    ) -> list[list[float]]:
        """Each ``(place, strike)``'s values under the level's noise, one per draw (the
        draw's seed: the same delivery errors for every stroke), the cue lifted to the
        least elevation the place allows."""
        noise = self.searcher.strength.noise
        by_place: dict[int, list[int]] = {}
        for n, (place, _) in enumerate(strokes):
            by_place.setdefault(place, []).append(n)
        out: list[list[float]] = [[] for _ in strokes]
        for place, members in by_place.items():
            lift = self._clear[place].lift
            played = [
                lift(noise.apply(strokes[n][1], random.Random(seed)))
                for n in members
                for seed in draws
            ]
            values = self.values(place, played, full=True)
            m = len(draws)
            for j, n in enumerate(members):
                out[n] = values[j * m : (j + 1) * m]
        return out


def scan(table: Table, step: float, fine: float) -> tuple[list[Graded], list[Graded], int]:
    """Stage 1: every grid stroke from every place, noiseless. Returns the strokes ranked by
    value, ranked by the mean with their aim neighbours, and how many were played."""
    actions = [(v, sd, h) for v in SPEEDS for sd in SIDES for h in HEIGHTS]
    raw: list[Graded] = []
    smooth: list[Graded] = []
    played = 0
    for place, placed in enumerate(table.places):
        cue = placed if placed is not None else table.position.balls[table.me]
        aims = grid_aims(cue, table.objects, step, fine)
        strikes = [table.least(place, Strike(v, a, sd, h)) for a in aims for v, sd, h in actions]
        values = np.array(table.values(place, strikes, full=False)).reshape(len(aims), len(actions))
        played += len(strikes)
        near = (np.roll(values, 1, axis=0) + values + np.roll(values, -1, axis=0)) / 3
        for grid, into in ((values, raw), (near, smooth)):
            flat = np.argsort(-grid, axis=None)[: 4 * FINALISTS]
            for k in flat.tolist():
                i, j = divmod(k, len(actions))
                into.append(Graded(float(grid[i, j]), place, strikes[k]))
    raw.sort(key=lambda g: -g.value)
    smooth.sort(key=lambda g: -g.value)
    return raw, smooth, played


def variants(s: Strike, scale: float = 1.0) -> list[Strike]:
    """One step each way (times ``scale``) of aim (two sizes: 0.03 and 0.1 degrees), speed
    (x 0.85 and x 1.18: half the grid's ratio), side (0.125) and height (0.15) around
    ``s``."""
    out = [replace(s, aim=s.aim + d * scale) for d in (-0.1, -0.03, 0.03, 0.1)]
    out += [replace(s, speed=min(10.0, s.speed * f**scale)) for f in (0.85, 1.18)]
    out += [replace(s, side=max(-0.55, min(0.55, s.side + d * scale))) for d in (-0.125, 0.125)]
    out += [replace(s, height=max(-0.6, min(0.6, s.height + d * scale))) for d in (-0.15, 0.15)]
    return out


def dense_best(
    table: Table, draws: Sequence[int], step: float, fine: float
) -> tuple[Graded, dict[str, Any]]:
    """Stages 1-3: the best stroke the dense search finds and what it took."""
    t0 = time.process_time()
    raw, smooth, played = scan(table, step, fine)
    finalists = distinct(raw, FINALISTS // 2)
    finalists += distinct(smooth, FINALISTS - len(finalists), finalists)
    worth = table.worth([(g.place, g.strike) for g in finalists], draws)
    graded = sorted(
        (
            Graded(statistics.fmean(w), g.place, g.strike)
            for g, w in zip(finalists, worth, strict=True)
        ),
        key=lambda g: -g.value,
    )
    tried = 0
    for n, top in enumerate(REFINED):
        around = [
            (g.place, table.least(g.place, v))
            for g in graded[:top]
            for v in variants(g.strike, 0.5**n)
        ]
        tried += len(around)
        graded += [
            Graded(statistics.fmean(w), place, s)
            for (place, s), w in zip(around, table.worth(around, draws), strict=True)
        ]
        graded.sort(key=lambda g: -g.value)
    best = graded[0]
    info = {
        "grid_strokes": played,
        "finalists": len(finalists),
        "refined": tried,
        "stage1_best": raw[0].value,
        "cpu_seconds": time.process_time() - t0,
    }
    return best, info


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    """``fn()``, the CPU time of this process (every thread) and the wall time it took."""
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def strike_json(placed: tuple[float, float] | None, s: Strike) -> dict[str, Any]:
    return {
        "placed": None if placed is None else [round(placed[0], 4), round(placed[1], 4)],
        "speed": round(s.speed, 3),
        "aim": round(s.aim, 3),
        "side": round(s.side, 3),
        "height": round(s.height, 3),
        "elevation": round(s.elevation, 2),
    }


def one_position(
    n: int, held: Held, level: str, samples: int, seed: int, args: argparse.Namespace
) -> dict[str, Any]:
    """The dense search's best and the coach's first suggestion at ``held``, their worth on
    fresh draws, and the advice's time."""
    simulator = PhysicsSimulator()
    searcher = Searcher(STRENGTHS[level], simulator.params, simulator.table)
    table = Table(held.position, searcher)
    rng = random.Random(seed * 1_000_003 + n)
    pick = [rng.getrandbits(48) for _ in range(samples)]
    judge = [rng.getrandbits(48) for _ in range(samples)]
    hand = held.position.in_hand
    step, fine = (args.hand_aim_step, args.hand_fine_step) if hand else (args.aim_step, args.fine)
    best, info = dense_best(table, pick, step, fine)
    advice, cpu, wall = timed(lambda: advise(held.position, level, seed=rng.getrandbits(32)))
    first = advice.suggestions[0].action
    coach_place = table.add_place(first.placed)
    dense_w, coach_w = table.worth([(best.place, best.strike), (coach_place, first.strike)], judge)
    gap, se = paired(dense_w, coach_w)
    return {
        "kind": held.kind.value,
        "state": repr(held.position.state),
        "dense": {
            "worth": statistics.fmean(dense_w),
            "worth_on_picking_draws": best.value,
            "stroke": strike_json(table.places[best.place], best.strike),
            **info,
        },
        "coach": {
            "worth": statistics.fmean(coach_w),
            "stated_value": advice.suggestions[0].odds.value,
            "stroke": strike_json(first.placed, first.strike),
            "advice_cpu_seconds": cpu,
            "advice_wall_seconds": wall,
        },
        "gap": gap,
        "gap_se": se,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--level", default="master", choices=list(STRENGTHS))
    parser.add_argument("--samples", type=int, default=300, help="noise draws a stroke")
    parser.add_argument("--seed", type=int, default=90417, help="draws the positions")
    parser.add_argument("--aim-step", type=float, default=AIM_STEP)
    parser.add_argument("--fine", type=float, default=FINE_STEP)
    parser.add_argument("--hand-aim-step", type=float, default=HAND_AIM_STEP)
    parser.add_argument("--hand-fine-step", type=float, default=HAND_FINE_STEP)
    parser.add_argument("--out", help="write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.positions < 1:
        parser.error(f"--positions: expected at least 1, got {args.positions}")
    if args.samples < 2:
        parser.error(f"--samples: expected at least 2 (a standard error), got {args.samples}")
    for name in ("aim_step", "fine", "hand_aim_step", "hand_fine_step"):
        if not 0.001 <= getattr(args, name) <= 10:
            parser.error(f"--{name.replace('_', '-')}: expected 0.001..10 degrees")
    simulator = PhysicsSimulator()
    held = held_positions(args.positions, args.seed, simulator)
    load = os.getloadavg()
    print(
        f"{args.positions} positions (seed {args.seed}), level {args.level}, "
        f"{args.samples} draws; grid {len(SPEEDS)} speeds x {len(SIDES)} sides x "
        f"{len(HEIGHTS)} heights, aims {args.aim_step} deg (+{args.fine} across each ball), "
        f"from hand {len(d_places())} places, {args.hand_aim_step} deg "
        f"(+{args.hand_fine_step}); load {' '.join(f'{x:.2f}' for x in load)}"
    )
    print(f"{'#':>2} {'kind':8} {'dense':>8} {'coach':>8} {'gap':>7} {'se':>6} {'advice s':>9}")
    rows = []
    for n, h in enumerate(held):
        row = one_position(n, h, args.level, args.samples, args.seed, args)
        rows.append(row)
        print(
            f"{n:2} {row['kind']:8} {row['dense']['worth']:8.2f} {row['coach']['worth']:8.2f} "
            f"{row['gap']:7.2f} {row['gap_se']:6.2f} {row['coach']['advice_wall_seconds']:9.2f}",
            flush=True,
        )
    gaps = [r["gap"] for r in rows]
    report: dict[str, Any] = {
        "level": args.level,
        "positions": args.positions,
        "samples": args.samples,
        "seed": args.seed,
        "grid": {
            "speeds": SPEEDS,
            "sides": SIDES,
            "heights": HEIGHTS,
            "aim_step": args.aim_step,
            "fine_step": args.fine,
            "hand_aim_step": args.hand_aim_step,
            "hand_fine_step": args.hand_fine_step,
            "hand_places": len(d_places()),
            "finalists": FINALISTS,
            "refined": REFINED,
        },
        "load_before": load,
        "load_after": os.getloadavg(),
        "rows": rows,
        "summary": {
            "mean_gap": statistics.fmean(gaps),
            "worst_gap": max(gaps),
            "within_tolerance": sum(g <= TOLERANCE for g in gaps) / len(gaps),
            "tolerance": TOLERANCE,
            "advice_wall_seconds": spread([r["coach"]["advice_wall_seconds"] for r in rows]),
            "advice_cpu_seconds": spread([r["coach"]["advice_cpu_seconds"] for r in rows]),
            "dense_cpu_seconds": spread([r["dense"]["cpu_seconds"] for r in rows]),
        },
    }
    s = report["summary"]
    print(
        f"mean gap {s['mean_gap']:.2f}, worst {s['worst_gap']:.2f}, within {TOLERANCE}: "
        f"{100 * s['within_tolerance']:.0f} %; advice wall s mean "
        f"{s['advice_wall_seconds']['mean']:.2f} p95 {s['advice_wall_seconds']['p95']:.2f} "
        f"max {s['advice_wall_seconds']['max']:.2f}, CPU s mean "
        f"{s['advice_cpu_seconds']['mean']:.2f} p95 {s['advice_cpu_seconds']['p95']:.2f} "
        f"max {s['advice_cpu_seconds']['max']:.2f}; load after "
        f"{' '.join(f'{x:.2f}' for x in report['load_after'])}"
    )
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
