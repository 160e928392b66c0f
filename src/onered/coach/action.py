"""A cue action as a player says it: thickness, side, screw or top, pace — as closed sets.

The numbers come from the stroke's nominal simulation: the **thickness** is the ball
fraction at the cue ball's first contact with an object ball, ``1 - sin(cut)``, where the
cut is the angle between the cue ball's velocity just before the contact and the line of
centres (full ball 1, half-ball 0.5 at a 30° cut, 0 a grazing contact); **side** is left or
right of the tip offset, *running* when it turns the same way as the cue ball's first change
of direction (off the object ball or a cushion) and *check* when against it; **screw/top**
is the tip height; **pace** the launch speed. Display words live in
:mod:`onered.coach.words`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

from onered.physics.types import EventKind, Segment, ShotResult, Strike, Vec2, position_at
from onered.rules import Ball
from onered.table import Point


class Thickness(Enum):
    """How much of the object ball the cue ball covers at contact (the ball fraction)."""

    FULL = "full"
    THREE_QUARTER = "three_quarter"
    HALF = "half"
    QUARTER = "quarter"
    FINE = "fine"


class Side(Enum):
    """Side of the tip offset (seen from behind the cue)."""

    NONE = "none"
    LEFT = "left"
    RIGHT = "right"


class Spin(Enum):
    """Tip height: below centre draws the cue ball back, above follows through."""

    DEEP_SCREW = "deep_screw"
    SCREW = "screw"
    CENTRE = "centre"
    TOP = "top"
    STRONG_TOP = "strong_top"


class Pace(Enum):
    """Launch speed, from a touch to a power stroke."""

    VERY_SOFT = "very_soft"
    SOFT = "soft"
    MEDIUM = "medium"
    FIRM = "firm"
    HARD = "hard"
    VERY_HARD = "very_hard"


#: Lower bounds of each thickness's ball fraction (halfway between the named fractions
#: 1, 3/4, 1/2, 1/4 and 1/8): nearer a named fraction than its neighbours.
THICKNESS_FROM: tuple[tuple[float, Thickness], ...] = (
    (0.875, Thickness.FULL),
    (0.625, Thickness.THREE_QUARTER),
    (0.375, Thickness.HALF),
    (0.1875, Thickness.QUARTER),
    (-1.0, Thickness.FINE),
)
#: Upper bounds of the tip height (fractions of R) of each spin.
SPIN_UNTIL: tuple[tuple[float, Spin], ...] = (
    (-0.4, Spin.DEEP_SCREW),
    (-0.12, Spin.SCREW),
    (0.12, Spin.CENTRE),
    (0.4, Spin.TOP),
    (math.inf, Spin.STRONG_TOP),
)
#: Upper bounds of the launch speed (m/s) of each pace.
PACE_UNTIL: tuple[tuple[float, Pace], ...] = (
    (0.6, Pace.VERY_SOFT),
    (1.0, Pace.SOFT),
    (1.8, Pace.MEDIUM),
    (2.8, Pace.FIRM),
    (4.2, Pace.HARD),
    (math.inf, Pace.VERY_HARD),
)
#: Side offsets smaller than this (fractions of R) are "no side".
SIDE_FROM = 0.1


@dataclass(frozen=True, slots=True)
class CueAction:
    """How to play a stroke: where to place the cue ball (from hand), the strike, and its
    description. ``object_ball`` is the ball the cue ball meets first (``None``: none);
    ``fraction`` and ``cut`` (degrees) describe that contact; ``cushion_first``: the cue
    ball reaches a cushion before any ball; ``running``: the side runs with the cue ball's
    first turn (``None`` without side or without a turn)."""

    placed: Point | None
    strike: Strike
    object_ball: Ball | None
    cut: float | None
    fraction: float | None
    thickness: Thickness | None
    side: Side
    running: bool | None
    spin: Spin
    pace: Pace
    cushion_first: bool


def fraction_of_cut(cut_degrees: float) -> float:
    """The ball fraction of a contact at ``cut_degrees`` between the cue ball's direction
    and the line of centres: ``1 - sin(cut)`` (the share of the object ball's width the cue
    ball covers, seen along its path)."""
    return 1.0 - math.sin(math.radians(min(90.0, max(0.0, abs(cut_degrees)))))


def thickness_of(fraction: float) -> Thickness:
    """The named thickness nearest a ball fraction."""
    for lower, thickness in THICKNESS_FROM:
        if fraction >= lower:
            return thickness
    return Thickness.FINE


def spin_of(height: float) -> Spin:
    """The spin word of a tip height (fractions of R, up positive)."""
    for upper, spin in SPIN_UNTIL:
        if height <= upper:
            return spin
    return Spin.STRONG_TOP


def pace_of(speed: float) -> Pace:
    """The pace word of a launch speed (m/s)."""
    for upper, pace in PACE_UNTIL:
        if speed < upper:
            return pace
    return Pace.VERY_HARD


def side_of(side: float) -> Side:
    """Left, right or no side of a tip offset (fractions of R, right positive)."""
    if abs(side) < SIDE_FROM:
        return Side.NONE
    return Side.RIGHT if side > 0 else Side.LEFT


def _velocity(path: tuple[Segment, ...], t: float, *, before: bool) -> Vec2 | None:
    """The ball's velocity just before (or just after) time ``t`` on its path."""
    for seg in path:
        inside = seg.t0 < t <= seg.t1 if before else seg.t0 <= t < seg.t1
        if inside:
            tau = t - seg.t0
            return (seg.v0[0] + seg.a[0] * tau, seg.v0[1] + seg.a[1] * tau)
    return None


def _angle(u: Vec2, v: Vec2) -> float:
    """The unsigned angle between two vectors, degrees."""
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu == 0 or nv == 0:
        return 0.0
    c = (u[0] * v[0] + u[1] * v[1]) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def describe(
    strike: Strike, placed: Point | None, before: dict[str, Point], result: ShotResult, cue: str
) -> CueAction:
    """The cue action of ``strike`` on ball ``cue`` (``before``: every ball's centre at the
    start, the cue ball at its placement), read from its simulation ``result``."""
    path = result.paths.get(cue, ())
    first_turn: tuple[Vec2, Vec2] | None = None
    object_ball: Ball | None = None
    cut: float | None = None
    cushion_first = False
    for event in result.events:
        if cue not in event.balls:
            continue
        if event.kind is EventKind.CUSHION:
            if object_ball is None and first_turn is None:
                cushion_first = True
        elif event.kind is EventKind.BALL_BALL:
            if object_ball is None:
                other = next(b for b in event.balls if b != cue)
                object_ball = Ball(other)
                v = _velocity(path, event.t, before=True)
                at_cue = position_at(path, event.t, before[cue])
                at_obj = position_at(result.paths.get(other, ()), event.t, before[other])
                centres = (at_obj[0] - at_cue[0], at_obj[1] - at_cue[1])
                if v is not None:
                    cut = _angle(v, centres)
        else:
            continue
        if first_turn is None:
            v0 = _velocity(path, event.t, before=True)
            v1 = _velocity(path, event.t, before=False)
            if v0 is not None and v1 is not None:
                first_turn = (v0, v1)
        if object_ball is not None and first_turn is not None:
            break
    side = side_of(strike.side)
    running: bool | None = None
    if side is not Side.NONE and first_turn is not None:
        (ax, ay), (bx, by) = first_turn
        turn = ax * by - ay * bx  # > 0: turned left (counter-clockwise seen from above)
        if abs(turn) > 1e-9 * math.hypot(ax, ay) * max(math.hypot(bx, by), 1e-9):
            running = (turn > 0) == (side is Side.LEFT)
    fraction = None if cut is None else fraction_of_cut(cut)
    return CueAction(
        placed=placed,
        strike=strike,
        object_ball=object_ball,
        cut=cut,
        fraction=fraction,
        thickness=None if fraction is None else thickness_of(fraction),
        side=side,
        running=running,
        spin=spin_of(strike.height),
        pace=pace_of(strike.speed),
        cushion_first=cushion_first,
    )
