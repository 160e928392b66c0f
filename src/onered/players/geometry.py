"""Plane geometry the AI aims with: pocket targets, ghost balls, clear paths, the D.

All angles are radians unless a name says degrees; points are ``(x, y)`` in the table frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from onered.physics.geometry import TableSpec
from onered.table import BALL_RADIUS, BAULK_Y, D_CENTRE, D_RADIUS, LENGTH, WIDTH, Point

#: The cue ball is placed this far inside the D's edges (metres): strictly in the D, never
#: on the baulk line itself, so that every crossing of the line is an event of the shot.
D_MARGIN = 0.002


@dataclass(frozen=True, slots=True)
class PocketTarget:
    """Where a ball is sent to fall into a pocket: the middle of the mouth (between the jaw
    points), the unit ``axis`` pointing into the pocket, half the opening, and the largest
    angle between a ball's path and the axis at which it can still drop."""

    name: str
    aim: Point
    axis: Point
    half: float
    corner: bool
    max_angle: float
    #: Half-width lost to the jaws: a ball's centre must pass this far inside the opening.
    jaw_loss: float
    #: The cosine of :attr:`max_angle`.
    cos_max: float


def pocket_targets(table: TableSpec) -> tuple[PocketTarget, ...]:
    """The six pockets of ``table`` as aiming targets (order of ``table.POCKET_NAMES``)."""
    out = []
    for shape in table.geometry().pockets:
        (ax, ay), (bx, by) = shape.jaw_points
        corner = not shape.name.startswith("middle")
        max_angle = 62.0 if corner else 52.0
        out.append(
            PocketTarget(
                name=shape.name,
                aim=((ax + bx) / 2, (ay + by) / 2),
                axis=shape.axis,
                half=math.hypot(bx - ax, by - ay) / 2,
                corner=corner,
                max_angle=math.radians(max_angle),
                jaw_loss=0.018 if corner else 0.020,
                cos_max=math.cos(math.radians(max_angle)),
            )
        )
    return tuple(out)


def angle_of(dx: float, dy: float) -> float:
    """Direction of a vector, radians counter-clockwise from +x."""
    return math.atan2(dy, dx)


def ghost(obj: Point, target: Point) -> Point:
    """Where the cue ball's centre must be at contact to send ``obj`` towards ``target``."""
    dx, dy = target[0] - obj[0], target[1] - obj[1]
    d = math.hypot(dx, dy) or 1.0
    k = 2 * BALL_RADIUS / d
    return (obj[0] - dx * k, obj[1] - dy * k)


def segment_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``-``b``."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = p[0] - a[0], p[1] - a[1]
    denom = abx * abx + aby * aby
    t = 0.0 if denom == 0 else max(0.0, min(1.0, (apx * abx + apy * aby) / denom))
    return math.hypot(apx - t * abx, apy - t * aby)


_REACH2 = (2 * BALL_RADIUS) ** 2


def clear(a: Point, b: Point, blockers: tuple[Point, ...]) -> bool:
    """A ball can travel from ``a`` to ``b`` without touching a ball at any ``blockers``."""
    ax, ay = a
    abx, aby = b[0] - ax, b[1] - ay
    denom = abx * abx + aby * aby
    for qx, qy in blockers:
        apx, apy = qx - ax, qy - ay
        t = 0.0 if denom == 0 else (apx * abx + apy * aby) / denom
        t = 0.0 if t < 0 else 1.0 if t > 1 else t
        dx, dy = apx - t * abx, apy - t * aby
        if dx * dx + dy * dy < _REACH2:
            return False
    return True


def in_d_strictly(p: Point) -> bool:
    """``p`` lies in the D at least :data:`D_MARGIN` inside its edges."""
    dx, dy = p[0] - D_CENTRE[0], p[1] - D_CENTRE[1]
    return p[1] <= BAULK_Y - D_MARGIN and dx * dx + dy * dy <= (D_RADIUS - D_MARGIN) ** 2


def ray_into_d(origin: Point, direction: Point) -> float | None:
    """The smallest ``t > 0`` with ``origin + t * direction`` strictly in the D (the near
    edge along the ray), or ``None`` when the ray misses it. ``direction`` is a unit vector."""
    ox, oy = origin[0] - D_CENTRE[0], origin[1] - D_CENTRE[1]
    dx, dy = direction
    r = D_RADIUS - D_MARGIN
    b = ox * dx + oy * dy
    c = ox * ox + oy * oy - r * r
    disc = b * b - c
    if disc <= 0:
        return None
    root = math.sqrt(disc)
    t1, t2 = -b - root, -b + root
    # the half-plane y <= BAULK_Y - margin
    line = BAULK_Y - D_MARGIN
    if dy == 0:
        if origin[1] > line:
            return None
        lo, hi = t1, t2
    else:
        th = (line - origin[1]) / dy
        lo, hi = (max(t1, th), t2) if dy < 0 else (t1, min(t2, th))
    lo = max(lo, 1e-9)
    return lo if lo <= hi else None


#: How far into the D (m) a place on a line is put, past the line's entry: not on its edge.
INTO_D = 0.03


def places_on_lines(
    obj: Point, target: Point, lines: tuple[tuple[bool, float], ...]
) -> list[Point]:
    """Places in the D on lines through the ball at ``obj`` and the point ``target`` (a
    pocket's aim): each line ``(from_ghost, angle)`` leaves the ghost ball of the pot (or
    the ball itself) backwards, turned ``angle`` degrees from the ball-to-target direction,
    and gives the place :data:`INTO_D` past where it enters the D, when that is strictly
    inside. A straight pot is ``(True, 0.0)``; a natural in-off angle ``(False, 28.0)``."""
    dx, dy = target[0] - obj[0], target[1] - obj[1]
    d = math.hypot(dx, dy)
    if d < 1e-9:
        return []
    ux, uy = dx / d, dy / d
    g = ghost(obj, target)
    places: list[Point] = []
    for from_ghost, angle in lines:
        origin = g if from_ghost else obj
        a = math.radians(angle)
        back = (
            -(ux * math.cos(a) - uy * math.sin(a)),
            -(ux * math.sin(a) + uy * math.cos(a)),
        )
        t = ray_into_d(origin, back)
        if t is not None:
            t += INTO_D
            p = (origin[0] + t * back[0], origin[1] + t * back[1])
            if in_d_strictly(p):
                places.append(p)
    return places


def d_points(n_arc: int) -> tuple[Point, ...]:
    """Places in the D spread over it: ``n_arc`` points along the arc and three on the
    line (at the middle and near both corners), all strictly inside."""
    r = D_RADIUS - D_MARGIN
    y_line = BAULK_Y - D_MARGIN
    points: list[Point] = [
        (D_CENTRE[0], y_line),
        (D_CENTRE[0] - 0.8 * r, y_line),
        (D_CENTRE[0] + 0.8 * r, y_line),
    ]
    for k in range(n_arc):
        a = math.pi * (k + 0.5) / n_arc
        points.append((D_CENTRE[0] - r * math.cos(a), y_line - r * math.sin(a) * 0.98))
    return tuple(points)


def mirror(p: Point, cushion: str) -> Point:
    """``p`` mirrored in the line a ball's centre follows along ``cushion`` (one radius
    off the cushion face): aiming at the mirror image plays the ball off that cushion."""
    r = BALL_RADIUS
    x, y = p
    if cushion == "left":
        return (2 * r - x, y)
    if cushion == "right":
        return (2 * (WIDTH - r) - x, y)
    if cushion == "bottom":
        return (x, 2 * r - y)
    return (x, 2 * (LENGTH - r) - y)


CUSHIONS: tuple[str, ...] = ("left", "right", "top", "bottom")
