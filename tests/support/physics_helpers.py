"""Helpers for the physics tests: evaluate trajectories, energies and clearances, in three
dimensions (a ball in the air has a height: its lowest point above the slate)."""

from __future__ import annotations

import math
from typing import NamedTuple

from onered.physics import EventKind, Params, Segment, ShotResult, TableSpec
from onered.physics.audit import wall_distance


class State(NamedTuple):
    """A ball's state on a piece of path: centre (x, y), velocity, angular velocity, the
    height ``z`` of its lowest point above the slate and its vertical velocity ``vz``."""

    x: float
    y: float
    vx: float
    vy: float
    wx: float
    wy: float
    wz: float
    z: float = 0.0
    vz: float = 0.0


def state_at(seg: Segment, t: float) -> State:
    """Position, velocity, angular velocity, height and vertical velocity on ``seg`` at
    time ``t``."""
    s = t - seg.t0
    x = seg.p0[0] + seg.v0[0] * s + 0.5 * seg.a[0] * s * s
    y = seg.p0[1] + seg.v0[1] * s + 0.5 * seg.a[1] * s * s
    vx = seg.v0[0] + seg.a[0] * s
    vy = seg.v0[1] + seg.a[1] * s
    wx = seg.w0[0] + seg.dw[0] * s
    wy = seg.w0[1] + seg.dw[1] * s
    wz = seg.w0[2] + seg.dw[2] * s
    if seg.w0[2] * wz <= 0:
        wz = 0.0
    return State(x, y, vx, vy, wx, wy, wz, seg.height_at(t), seg.vz + seg.az * s)


def energy(state: State, params: Params) -> float:
    """Energy of one ball: kinetic (translation in three dimensions and rotation) and
    potential (``m g z``, zero on the slate)."""
    inertia = 0.4 * params.m * params.R**2
    v2 = state.vx**2 + state.vy**2 + state.vz**2
    w2 = state.wx**2 + state.wy**2 + state.wz**2
    return 0.5 * params.m * v2 + 0.5 * inertia * w2 + params.m * params.g * state.z


def segment_at(result: ShotResult, ball: str, t: float, after: bool = False) -> Segment | None:
    """The piece of ``ball``'s path covering ``t`` (the one starting at ``t`` if
    ``after``, else the one ending there)."""
    pieces = result.paths[ball]
    for seg in pieces if after else reversed(pieces):
        if (seg.t0 <= t < seg.t1) if after else (seg.t0 < t <= seg.t1):
            return seg
    for seg in pieces:
        if seg.t0 <= t <= seg.t1:
            return seg
    return None


def total_energy(result: ShotResult, t: float, params: Params, after: bool) -> float:
    """Energy of all balls in play at ``t`` (just before or just after it): a ball potted
    or off the table at ``t`` counts before it, not after (its energy leaves the table)."""
    left = {ball: out[0][1] for ball, out in leaving(result).items() if out}
    total = 0.0
    for ball in result.paths:
        if ball in left and (left[ball] < t or (after and left[ball] == t)):
            continue
        seg = segment_at(result, ball, t, after)
        if seg is not None:
            total += energy(state_at(seg, t), params)
    return total


def leaving(result: ShotResult) -> dict[str, list[tuple[EventKind, float]]]:
    """Each ball's ``pocket`` and ``off_table`` events (kind and time): how it left play."""
    out: dict[str, list[tuple[EventKind, float]]] = {ball: [] for ball in result.rest}
    for e in result.events:
        if e.kind in (EventKind.POCKET, EventKind.OFF_TABLE):
            out[e.balls[0]].append((e.kind, e.t))
    return out


def _segment_distance(
    start: tuple[float, float], end: tuple[float, float], x: float, y: float
) -> float:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    tx, ty = (x1 - x0) / length, (y1 - y0) / length
    s = max(0.0, min(length, (x - x0) * tx + (y - y0) * ty))
    return math.hypot(x - x0 - s * tx, y - y0 - s * ty)


def clearance(table: TableSpec, radius: float, x: float, y: float) -> float:
    """Gap between a ball on the bed at (x, y) and the nearest cushion, facing or knuckle
    (negative when it overlaps one)."""
    geo = table.geometry()
    gap = min(_segment_distance(c.start, c.end, x, y) for c in geo.cushions) - radius
    for pocket in geo.pockets:
        for facing in pocket.facings:
            gap = min(gap, _segment_distance(facing.start, facing.end, x, y) - radius)
        for knuckle in pocket.knuckles:
            d = math.hypot(x - knuckle.centre[0], y - knuckle.centre[1])
            gap = min(gap, d - knuckle.radius - radius)
    return gap


def clearance_3d(table: TableSpec, params: Params, x: float, y: float, z: float) -> float:
    """Gap between a ball whose lowest point is ``z`` above the slate, centre over (x, y),
    and the nearest cushion solid (negative when it overlaps one).

    On the slate (``z <= 0``) this is :func:`clearance`. In the air a cushion or jaw facing
    is a vertical face up to the nose height h = ``params.cushion_height`` with a flat top
    beyond its nose line (over the line's length): the gap is the distance to the face
    while the centre is at or below h, to the nose edge line while it is above h in front
    of the line, to the top behind the line (so a ball may pass over the cushion and the
    rail only with its lowest point above h); a knuckle is a vertical cylinder up to h."""
    radius, h = params.R, params.cushion_height
    if z <= 0:
        return clearance(table, radius, x, y)
    above = z + radius - h  # the centre's height above the nose
    geo = table.geometry()
    gap = math.inf
    for line in (*geo.cushions, *(f for p in geo.pockets for f in p.facings)):
        (x0, y0), (x1, y1) = line.start, line.end
        length = math.hypot(x1 - x0, y1 - y0)
        along = ((x - x0) * (x1 - x0) + (y - y0) * (y1 - y0)) / length
        if not -1e-9 <= along <= length + 1e-9:
            continue
        ahead = (x - x0) * line.normal[0] + (y - y0) * line.normal[1]
        gap = min(gap, wall_distance(ahead, above) - radius)
    for pocket in geo.pockets:
        for knuckle in pocket.knuckles:
            out = math.hypot(x - knuckle.centre[0], y - knuckle.centre[1]) - knuckle.radius
            distance = out if above <= 0 else math.hypot(max(out, 0.0), above)
            gap = min(gap, distance - radius)
    return gap


def over_a_pocket(table: TableSpec, x: float, y: float, margin: float = 0.0) -> bool:
    """Whether the centre (x, y) lies inside a pocket fall by more than ``margin``."""
    return any(
        math.dist((x, y), p.fall_centre) < p.fall_radius - margin for p in table.geometry().pockets
    )


def rel(a: float, b: float) -> float:
    """Relative difference of ``a`` from ``b``."""
    return abs(a - b) / abs(b)
