"""Helpers for the physics tests: evaluate trajectories, energies and clearances."""

from __future__ import annotations

import math

from onered.physics import Params, Segment, ShotResult, TableSpec

State = tuple[float, float, float, float, float, float, float]


def state_at(seg: Segment, t: float) -> State:
    """Position, velocity and angular velocity on ``seg`` at time ``t``."""
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
    return x, y, vx, vy, wx, wy, wz


def energy(state: State, params: Params) -> float:
    """Kinetic energy (translation and rotation) of one ball."""
    _, _, vx, vy, wx, wy, wz = state
    inertia = 0.4 * params.m * params.R**2
    return 0.5 * params.m * (vx * vx + vy * vy) + 0.5 * inertia * (wx * wx + wy * wy + wz * wz)


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
    """Energy of all balls on the table at ``t`` (just before or just after it)."""
    total = 0.0
    for ball in result.paths:
        seg = segment_at(result, ball, t, after)
        if seg is not None:
            total += energy(state_at(seg, t), params)
    return total


def _segment_distance(
    start: tuple[float, float], end: tuple[float, float], x: float, y: float
) -> float:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    tx, ty = (x1 - x0) / length, (y1 - y0) / length
    s = max(0.0, min(length, (x - x0) * tx + (y - y0) * ty))
    return math.hypot(x - x0 - s * tx, y - y0 - s * ty)


def clearance(table: TableSpec, radius: float, x: float, y: float) -> float:
    """Gap between a ball at (x, y) and the nearest cushion, facing or knuckle (negative
    when it overlaps one)."""
    geo = table.geometry()
    gap = min(_segment_distance(c.start, c.end, x, y) for c in geo.cushions) - radius
    for pocket in geo.pockets:
        for facing in pocket.facings:
            gap = min(gap, _segment_distance(facing.start, facing.end, x, y) - radius)
        for knuckle in pocket.knuckles:
            d = math.hypot(x - knuckle.centre[0], y - knuckle.centre[1])
            gap = min(gap, d - knuckle.radius - radius)
    return gap


def over_a_pocket(table: TableSpec, x: float, y: float, margin: float = 0.0) -> bool:
    """Whether the centre (x, y) lies inside a pocket fall by more than ``margin``."""
    return any(
        math.dist((x, y), p.fall_centre) < p.fall_radius - margin for p in table.geometry().pockets
    )


def rel(a: float, b: float) -> float:
    """Relative difference of ``a`` from ``b``."""
    return abs(a - b) / abs(b)
