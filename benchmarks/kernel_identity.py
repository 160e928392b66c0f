"""Bit-identity check of the physics kernel: runs a large, varied, seeded set of shots
through ``simulate_batch(..., paths=True)`` and records every output bit (events, rest
positions, durations, every path segment; floats as their hex), so a speed-up of the C
event loop can be proven to change no result.

    python benchmarks/kernel_identity.py record ref.pickle   # before a change
    python benchmarks/kernel_identity.py check ref.pickle    # after it: exit 1 on a difference

The set (about 24,000 shots): aimed and random 3-ball shots, 2-ball positions, elevated-cue
strokes (jumps, balls off the table), direct upward launches, Mathavan's and Han's cushion
models, the legacy parameters, balls touching each other and the cushions, positions near
the pockets. ``--dump FILE`` also writes the shots in a flat binary form for a standalone C
harness (per group: the 17 physical fields and the cushion model, then per shot: the ball
count, positions, cue index and launch).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import pickle
import random
import struct
import sys
from collections.abc import Mapping
from enum import Enum
from typing import Any

from onered.physics import (
    CushionModel,
    Launch,
    Params,
    PhysicsError,
    PhysicsInputError,
    Strike,
    TableSpec,
    check_position,
    simulate_batch,
    strike_to_launch,
)
from onered.physics.params import LEGACY_DEFAULTS

PHYS_NAMES = (
    "R", "m", "g", "mu_s", "mu_r", "mu_sp", "e_b", "e_c", "f_c", "cushion_height", "mu_b_a",
    "mu_b_b", "mu_b_c", "e_c_drop", "e_c_speed", "e_table", "rail_width",
)  # fmt: skip
NAMES = ("white", "yellow", "red")
Position = dict[str, tuple[float, float]]


def _frozen(value: Any) -> Any:
    """Every bit of a result as nested tuples of strings (floats by their hex)."""
    if isinstance(value, float):
        return value.hex()
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, Mapping):  # (before dataclasses: a lazy mapping may be both)
        return tuple((k, _frozen(v)) for k, v in value.items())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple((f.name, _frozen(getattr(value, f.name))) for f in dataclasses.fields(value))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _free_point(
    rng: random.Random, table: TableSpec, r: float, taken: Position
) -> tuple[float, float]:
    geo = table.geometry()
    while True:
        p = (rng.uniform(2 * r, table.width - 2 * r), rng.uniform(2 * r, table.length - 2 * r))
        if all(math.dist(p, q) > 2 * r for q in taken.values()) and all(
            math.dist(p, k.fall_centre) > k.fall_radius + 2 * r for k in geo.pockets
        ):
            return p


def _position(rng: random.Random, params: Params, table: TableSpec, style: str) -> Position:
    """A position of 2 or 3 balls: free, touching, on a cushion, or near a pocket."""
    r = params.R
    count = 2 if rng.random() < 0.25 else 3
    balls: Position = {}
    for name in NAMES[:count]:
        for _ in range(20):  # a special place that is allowed, else a free one
            balls[name] = _special(rng, table, r, balls, style)
            try:
                check_position(balls, params, table)
                break
            except PhysicsInputError:
                del balls[name]
        else:
            balls[name] = _free_point(rng, table, r, balls)
    return balls


def _special(
    rng: random.Random, table: TableSpec, r: float, balls: Position, style: str
) -> tuple[float, float]:
    """A candidate place of the style: touching a ball, on a cushion, near a pocket."""
    geo = table.geometry()
    if style == "touching" and balls and rng.random() < 0.7:
        bx, by = rng.choice(list(balls.values()))
        a = rng.uniform(0, 2 * math.pi)
        return (bx + 2 * r * math.cos(a), by + 2 * r * math.sin(a))
    if style == "cushion" and rng.random() < 0.6:
        line = rng.choice(geo.cushions)
        s = rng.uniform(0.05, 0.95)
        (x0, y0), (x1, y1) = line.start, line.end
        nx, ny = line.normal
        return (x0 + s * (x1 - x0) + r * nx, y0 + s * (y1 - y0) + r * ny)
    if style == "pocket" and rng.random() < 0.6:
        pocket = rng.choice(geo.pockets)
        cx, cy = pocket.fall_centre
        a = rng.uniform(0, 2 * math.pi)
        d = pocket.fall_radius + rng.uniform(0.0, 4 * r)
        return (cx + d * math.cos(a), cy + d * math.sin(a))
    return (rng.uniform(r, table.width - r), rng.uniform(r, table.length - r))


def _launches(rng: random.Random, balls: Position, params: Params, count: int) -> list[Launch]:
    out = []
    wx, wy = balls["white"]
    others = [b for b in balls if b != "white"]
    for _ in range(count):
        kind = rng.random()
        if kind < 0.5:
            tx, ty = balls[rng.choice(others)]
            aim = math.degrees(math.atan2(ty - wy, tx - wx)) + rng.uniform(-4.0, 4.0)
        else:
            aim = rng.uniform(0.0, 360.0)
        radius, phi = 0.78 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        elevation = 0.0
        e = rng.random()
        if e < 0.15:
            elevation = rng.uniform(1.0, 89.0)
        elif e < 0.3:
            elevation = rng.uniform(5.0, 40.0)
        speed = rng.uniform(0.2, 10.0) if elevation else rng.uniform(0.1, 7.0)
        strike = Strike(speed, aim, radius * math.cos(phi), radius * math.sin(phi), elevation)
        launch = strike_to_launch(strike, params)
        if rng.random() < 0.04:  # a launch straight into the air
            launch = Launch(launch.v, launch.w, rng.uniform(0.1, 3.0))
        out.append(launch)
    return out


def _groups() -> list[tuple[str, Params]]:
    return [
        ("mathavan", Params()),
        ("han", Params(cushion_model=CushionModel.HAN2005)),
        ("legacy", LEGACY_DEFAULTS),
    ]


def build_set(seed: int, positions: int) -> list[tuple[str, Params, Position, list[Launch]]]:
    """The seeded shot set: (group, params, position, launches) per batch."""
    rng = random.Random(seed)
    table = TableSpec()
    styles = ("free", "free", "touching", "cushion", "pocket")
    out = []
    for name, params in _groups():
        share = positions if name != "legacy" else positions // 4
        for k in range(share):
            balls = _position(rng, params, table, styles[k % len(styles)])
            out.append((name, params, balls, _launches(rng, balls, params, 10)))
    return out


def run(shots: list[tuple[str, Params, Position, list[Launch]]]) -> list[Any]:
    """Every bit of every result, batch by batch (or the error a batch raised)."""
    table = TableSpec()
    record: list[Any] = []
    for _, params, balls, launches in shots:
        try:
            results = simulate_batch(balls, "white", launches, params, table, paths=True)
        except (PhysicsError, PhysicsInputError) as exc:
            record.append(("error", type(exc).__name__, str(exc)))
            continue
        record.append(tuple(_frozen(r) for r in results))
    return record


def dump(shots: list[tuple[str, Params, Position, list[Launch]]], path: str) -> None:
    """The shots in flat binary form for a standalone C harness (see the module doc)."""
    with open(path, "wb") as f:
        f.write(struct.pack("i", len(shots)))
        for _, params, balls, launches in shots:
            ph = [float(getattr(params, k)) for k in PHYS_NAMES]
            ids = sorted(balls)
            pos = [c for b in ids for c in balls[b]]
            f.write(struct.pack(f"{len(ph)}di", *ph, params.cushion_model.code))
            f.write(struct.pack("ii", len(ids), len(launches)))
            f.write(struct.pack(f"{len(pos)}di", *pos, ids.index("white")))
            for launch in launches:
                f.write(struct.pack("6d", *launch.v, *launch.w, launch.vz))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("reference", help="pickle file of the reference outputs")
    parser.add_argument("--seed", type=int, default=20261205)
    parser.add_argument("--positions", type=int, default=1000, help="positions per model")
    parser.add_argument("--dump", help="also write the shots for a C harness here")
    args = parser.parse_args()
    shots = build_set(args.seed, args.positions)
    if args.dump:
        dump(shots, args.dump)
    record = run(shots)
    n = sum(len(s[3]) for s in shots)
    errors = sum(1 for r in record if r and r[0] == "error")
    digest = hashlib.sha256(pickle.dumps(record)).hexdigest()[:16]
    print(f"{n} shots in {len(shots)} batches ({errors} batches refused), digest {digest}")
    if args.mode == "record":
        with open(args.reference, "wb") as f:
            pickle.dump(record, f)
        return 0
    with open(args.reference, "rb") as f:
        reference = pickle.load(f)
    bad = [k for k, (a, b) in enumerate(zip(record, reference, strict=True)) if a != b]
    if bad:
        print(f"DIFFERENT: {len(bad)} batches, first {bad[:10]}")
        return 1
    print("identical")
    return 0


if __name__ == "__main__":
    sys.exit(main())
