"""Stress test of the table simulation: many random shots in awkward positions, each checked
exactly for overlapping balls and balls going into a wall, in three dimensions
(onered.physics.audit), and for balls leaving play said once.

Positions: 2 or 3 balls, free or placed in contact: touching another ball at 2R (as
exactly as floating point allows) or at 2R +- 1e-12..1e-7, frozen against a cushion, a jaw
facing or a knuckle (at contact distance, or +- a hair). Strokes, half of them each way:
a level launch (speeds up to 10 m/s, often slow ones, aimed at a ball or anywhere, heavy
random spin up to the engine's limit), or a cue stroke through ``strike_to_launch`` over
the strike's whole range (speeds up to 10 m/s, tip offsets to 0.8 R, the cue's elevation
from level to vertical, often steep), aimed at a ball, anywhere, or hard (4-10 m/s) into
the nearest cushion within 30 degrees of square on. e_b and e_c drawn from [0, 1] (often
exactly 0 or 1); either cushion model.

Each shot is checked at every event and between events (exact minimum distances over the
quadratic pieces of the paths, heights included: balls in the air, cushions as faces up to
the nose height with their nose edges and tops), and its rest positions must be accepted
back as input by ``onered.physics.check_position``. A shot fails when two balls overlap by
more than 1e-9 m beyond their start, a ball goes more than 1e-9 m into a wall beyond its
start, the engine's validation refuses a point of the path on the bed or a rest position,
a ball out of play (rest ``None``) is not potted or off the table exactly once (one
``pocket`` or one ``off_table`` event, never both; none for a ball still on the table),
or the shot does not end. Failing inputs are written as JSON lines (``--failures``), one a
shot, in the form of ``tests/physics/data/stress_regressions.jsonl`` (``vz``: the launch's
vertical velocity, 0 when absent).

Usage: ``python benchmarks/stress_physics.py [--shots N] [--seed S] [--jobs J]``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from onered.physics import (
    CushionModel,
    EventKind,
    Launch,
    Params,
    PhysicsError,
    PhysicsInputError,
    ShotResult,
    Strike,
    TableSpec,
    check_position,
    simulate,
    strike_to_launch,
)
from onered.physics.audit import audit_shot
from onered.physics.cue import MAX_ELEVATION, MAX_TIP_OFFSET
from onered.physics.engine import MAX_SPEED, MAX_SPIN_SPEED
from onered.physics.geometry import LEGACY_TABLE

TOLERANCE = 1e-9  # m: allowed overlap of balls, or of a ball and a wall
CHUNK = 1000
NAMES = ("white", "yellow", "red")
TABLE = TableSpec()
GEO = TABLE.geometry()
_DEFAULT = Params()
R = _DEFAULT.R

#: {"balls": {...}, "v": [..], "w": [..], "vz": .., "e_b": .., "e_c": .., "model": ..,
#: "table": ..}; a shot without "model" and "table" was found on an engine before
#: ENGINE_VERSION 3: Han's cushions on the legacy table; one without "vz" has a level launch.
Shot = dict[str, Any]


def _hair(rng: random.Random) -> float:
    """0 (exact contact) or +- 1e-12..1e-7 (m)."""
    if rng.random() < 0.4:
        return 0.0
    return rng.choice((-1.0, 1.0)) * 10 ** rng.uniform(-12, -7)


def _spot(rng: random.Random, balls: dict[str, tuple[float, float]]) -> tuple[float, float]:
    """Where the next ball goes: free, touching a ball, frozen on a cushion or in a jaw."""
    how = rng.choice(("free", "touch", "touch", "cushion", "jaw", "knuckle"))
    if how == "touch" and balls:
        ox, oy = balls[rng.choice(sorted(balls))]
        angle = rng.uniform(0, 2 * math.pi)
        d = 2 * R + _hair(rng)
        return ox + d * math.cos(angle), oy + d * math.sin(angle)
    if how == "cushion":
        line = rng.choice(GEO.cushions)
        (x0, y0), (x1, y1) = line.start, line.end
        s = rng.random()
        d = R + _hair(rng)
        return x0 + s * (x1 - x0) + d * line.normal[0], y0 + s * (y1 - y0) + d * line.normal[1]
    if how == "jaw":
        facing = rng.choice(rng.choice(GEO.pockets).facings)
        (x0, y0), (x1, y1) = facing.start, facing.end
        s = rng.random()
        d = R + _hair(rng)
        return x0 + s * (x1 - x0) + d * facing.normal[0], y0 + s * (y1 - y0) + d * facing.normal[1]
    if how == "knuckle":
        k = rng.choice(rng.choice(GEO.pockets).knuckles)
        a0 = math.atan2(k.start[1] - k.centre[1], k.start[0] - k.centre[0])
        a1 = math.atan2(k.end[1] - k.centre[1], k.end[0] - k.centre[0])
        if a1 - a0 > math.pi:
            a1 -= 2 * math.pi
        elif a0 - a1 > math.pi:
            a1 += 2 * math.pi
        angle = a0 + rng.random() * (a1 - a0)
        d = k.radius + R + _hair(rng)
        return k.centre[0] + d * math.cos(angle), k.centre[1] + d * math.sin(angle)
    return rng.uniform(R, TABLE.width - R), rng.uniform(R, TABLE.length - R)


def _position(rng: random.Random, params: Params) -> dict[str, tuple[float, float]]:
    """2 or 3 balls that ``check_position`` accepts."""
    count = rng.choice((2, 3))
    while True:
        balls: dict[str, tuple[float, float]] = {}
        for name in NAMES[:count]:
            for _ in range(50):
                spot = _spot(rng, balls)
                try:
                    check_position({**balls, name: spot}, params, TABLE)
                except PhysicsInputError:
                    continue
                balls[name] = spot
                break
        if len(balls) == count:
            return balls


def _unit(rng: random.Random, n: int) -> list[float]:
    while True:
        v = [rng.gauss(0, 1) for _ in range(n)]
        norm = math.sqrt(sum(x * x for x in v))
        if norm > 1e-6:
            return [x / norm for x in v]


def _shot(rng: random.Random) -> Shot:
    """One random stroke from a random awkward position, with either cushion model: a
    level launch or a cue stroke (the cue's elevation anywhere in its range)."""
    e_b = rng.choice((0.0, 1.0, rng.random(), rng.random()))
    e_c = rng.choice((0.0, 1.0, rng.random(), rng.random()))
    model = rng.choice(tuple(CushionModel)).value
    params = _params({"e_b": e_b, "e_c": e_c, "model": model})
    balls = _position(rng, params)
    shot: Shot = {"balls": balls, "e_b": e_b, "e_c": e_c, "model": model, "table": "default"}
    if rng.random() < 0.5:
        launch = strike_to_launch(_stroke(rng, balls), params)
        return {**shot, "v": list(launch.v), "w": list(launch.w), "vz": launch.vz}
    speed = MAX_SPEED * rng.choice((rng.random(), rng.random() ** 3, rng.random() ** 8))
    if rng.random() < 0.6:
        cx, cy = balls["white"]
        tx, ty = balls[rng.choice(sorted(set(balls) - {"white"}))]
        aim = math.atan2(ty - cy, tx - cx) + rng.choice((0.0, rng.gauss(0, 0.3)))
        v = [speed * math.cos(aim), speed * math.sin(aim)]
    else:
        v = [speed * x for x in _unit(rng, 2)]
    spin = MAX_SPIN_SPEED / R * rng.choice((0.0, rng.random(), rng.random() ** 2, 1.0))
    w = [spin * x for x in _unit(rng, 3)]
    if speed == 0 and spin == 0:
        v = [0.1, 0.0]
    return {**shot, "v": v, "w": w}


def _stroke(rng: random.Random, balls: dict[str, tuple[float, float]]) -> Strike:
    """A cue stroke within the strike's limits: aimed at a ball, anywhere, or hard into the
    nearest cushion; the cue level, steep (60-90 degrees), vertical or anywhere between."""
    cx, cy = balls["white"]
    speed = MAX_SPEED * rng.choice((rng.random(), rng.random() ** 2, 1.0))
    how = rng.choice(("ball", "anywhere", "cushion"))
    if how == "ball":
        tx, ty = balls[rng.choice(sorted(set(balls) - {"white"}))]
        aim = math.degrees(math.atan2(ty - cy, tx - cx)) + rng.choice((0.0, rng.gauss(0, 3)))
    elif how == "cushion":
        line = min(
            GEO.cushions,
            key=lambda c: (cx - c.start[0]) * c.normal[0] + (cy - c.start[1]) * c.normal[1],
        )
        aim = math.degrees(math.atan2(-line.normal[1], -line.normal[0])) + rng.uniform(-30, 30)
        speed = rng.uniform(4.0, MAX_SPEED)
    else:
        aim = rng.uniform(0, 360)
    offset = MAX_TIP_OFFSET * rng.choice((0.0, rng.random(), math.sqrt(rng.random()), 1.0))
    phi = rng.uniform(0, 2 * math.pi)
    elevation = rng.choice(
        (0.0, rng.uniform(0, MAX_ELEVATION), rng.uniform(60, MAX_ELEVATION), MAX_ELEVATION)
    )
    return Strike(max(speed, 1e-3), aim, offset * math.cos(phi), offset * math.sin(phi), elevation)


def _params(shot: Shot) -> Params:
    """The shot's parameters: the defaults with its restitutions and cushion model (Han's
    with a constant restitution for a shot found before the models)."""
    model = shot.get("model")
    return dataclasses.replace(
        _DEFAULT,
        e_b=shot["e_b"],
        e_c=shot["e_c"],
        cushion_model=CushionModel.HAN2005 if model is None else model,
        e_c_drop=_DEFAULT.e_c_drop if model is not None else 0.0,
    )


def table_of(shot: Shot) -> TableSpec:
    """The table a shot is played on: the default, or the legacy table for a shot found
    before ENGINE_VERSION 3."""
    return TABLE if shot.get("table") == "default" else LEGACY_TABLE


def shots(seed: int, start: int, count: int) -> Iterator[Shot]:
    """Shots start .. start + count - 1 of the stream for ``seed`` (each chunk of the
    stream has its own generator, so any range is reproducible on its own)."""
    for chunk in range(start // CHUNK, (start + count - 1) // CHUNK + 1):
        rng = random.Random(f"{seed}:{chunk}")
        for k in range(chunk * CHUNK, (chunk + 1) * CHUNK):
            shot = _shot(rng)
            if start <= k < start + count:
                yield shot


@dataclass
class Tally:
    """What a run of shots found."""

    shots: int = 0
    events: int = 0
    pieces: int = 0
    overlap: float = -math.inf
    excursion: float = -math.inf
    failures: list[tuple[Shot, str]] = field(default_factory=list)
    #: events by kind (their values), over all shots
    kinds: Counter[str] = field(default_factory=Counter)
    #: shots with a cue stroke off the level, shots with a ball in the air
    elevated: int = 0
    flights: int = 0
    #: balls potted, balls off the table
    potted: int = 0
    off: int = 0

    def add(self, other: Tally) -> None:
        self.shots += other.shots
        self.events += other.events
        self.pieces += other.pieces
        self.overlap = max(self.overlap, other.overlap)
        self.excursion = max(self.excursion, other.excursion)
        self.failures += other.failures
        self.kinds += other.kinds
        self.elevated += other.elevated
        self.flights += other.flights
        self.potted += other.potted
        self.off += other.off


def check_shot(shot: Shot, tally: Tally) -> None:
    """Simulate one shot and audit it, adding to ``tally``."""
    params, table = _params(shot), table_of(shot)
    balls = {k: tuple(v) for k, v in shot["balls"].items()}
    launch = Launch(tuple(shot["v"]), tuple(shot["w"]), shot.get("vz", 0.0))  # type: ignore[arg-type]
    tally.shots += 1
    tally.elevated += launch.vz != 0
    try:
        result = simulate(balls, "white", launch, params, table)  # type: ignore[arg-type]
    except PhysicsError as exc:
        tally.failures.append((shot, f"engine: {exc}"))
        return
    audit = audit_shot(result, balls, params, table)  # type: ignore[arg-type]
    tally.events += len(result.events)
    tally.pieces += audit.pieces
    tally.overlap = max(tally.overlap, audit.overlap)
    tally.excursion = max(tally.excursion, audit.excursion)
    why = []
    if audit.overlap > TOLERANCE:
        why.append(f"balls overlap by {audit.overlap:.3g} m")
    if audit.excursion > TOLERANCE:
        why.append(f"a ball goes {audit.excursion:.3g} m into a wall")
    why += audit.problems
    why += _out_of_play(result, tally)
    if math.isinf(result.duration):
        why.append("the shot never ends")
    if why:
        tally.failures.append((shot, "; ".join(why)))


def _out_of_play(result: ShotResult, tally: Tally) -> list[str]:
    """Count the shot's events, flights, potted and off-table balls; say what is wrong
    with how balls left play: a ball with rest ``None`` has exactly one ``pocket`` or one
    ``off_table`` event, a ball on the table none."""
    kinds = Counter(e.kind.value for e in result.events)
    tally.kinds += kinds
    tally.flights += kinds[EventKind.AIRBORNE.value] > 0
    left: Counter[str] = Counter(
        e.balls[0] for e in result.events if e.kind in (EventKind.POCKET, EventKind.OFF_TABLE)
    )
    tally.potted += kinds[EventKind.POCKET.value]
    tally.off += kinds[EventKind.OFF_TABLE.value]
    return [
        f"{ball} {'left play' if rest is None else 'on the table'} with {left[ball]} "
        "pocket/off_table events"
        for ball, rest in result.rest.items()
        if left[ball] != (rest is None)
    ]


def run(job: tuple[int, int, int]) -> Tally:
    """Check shots start .. start + count - 1 of the stream for seed."""
    seed, start, count = job
    tally = Tally()
    for shot in shots(seed, start, count):
        check_shot(shot, tally)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=20261204)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--failures", help="write failing shots here (JSON lines)")
    args = parser.parse_args()

    work = [(args.seed, k, min(CHUNK, args.shots - k)) for k in range(0, args.shots, CHUNK)]
    total = Tally()
    t0 = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for done, tally in enumerate(pool.imap_unordered(run, work), 1):
            total.add(tally)
            for shot, why in tally.failures:
                print(f"FAIL {why}: {json.dumps(shot)}", file=sys.stderr)
            if done % 100 == 0:
                rate = total.shots / (time.perf_counter() - t0)
                print(f"  {total.shots} shots, {len(total.failures)} failures, "
                      f"{rate:.0f} shots/s", file=sys.stderr)  # fmt: skip
    seconds = time.perf_counter() - t0
    print(f"shots:              {total.shots} (seed {args.seed}, {args.jobs} jobs)")
    print(f"events:             {total.events} ({total.pieces} path pieces)")
    print(f"worst overlap:      {total.overlap:.3g} m (beyond the start; <= 0: none)")
    print(f"worst off-table:    {total.excursion:.3g} m into a wall (beyond the start)")
    print(f"elevated strokes:   {total.elevated}; shots with a ball in the air: {total.flights}")
    print(f"out of play:        {total.potted} balls potted, {total.off} off the table "
          "(each said once)")  # fmt: skip
    print("events by kind:     " + ", ".join(f"{k} {n}" for k, n in sorted(total.kinds.items())))
    print(f"failures:           {len(total.failures)}")
    print(f"time:               {seconds:.1f} s, {total.shots / seconds:.0f} shots/s")
    if args.failures:
        with open(args.failures, "w", encoding="utf-8") as out:
            for shot, why in total.failures:
                out.write(json.dumps({**shot, "why": why}) + "\n")
    sys.exit(1 if total.failures else 0)


if __name__ == "__main__":
    main()
