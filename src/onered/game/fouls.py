"""Fouls the referee protocol leaves to its caller, read from a simulated shot.

Of the caller's foul codes, only one can happen on a simulated table: a wrong stroke from
hand (2.6, 2.11(6), ``bad_from_hand``) — the placement outside the D the referee derives
itself, but whether the ball was played out of baulk it cannot know. The others (a double
hit, a push, a jump, feet off the floor, touching a ball) are things a player's body does,
which the simulation does not model.

The reading (2.6.3–2.6.6 of the original, RULES.md decision 7): from hand, before the cue
ball touches a ball in baulk, comes back across the baulk line into baulk, or comes to rest
in baulk, it must have touched a ball out of baulk or a cushion at a point out of baulk.
Cushions in baulk may be used on the way out. So a ball in baulk may not be played
directly (2.6.6), but may be played off a cushion out of baulk (2.6.4). Decision 7 also
says "the first ball contacted has its centre out of baulk", which would forbid that; the
original allows it ("directly" in 2.6.6, "before it touches a ball in baulk" in 2.6.4), and
where RULES.md and the original disagree the original wins. A cue ball that falls
into a pocket without touching anything is a miss (and, with every object ball in baulk,
``in_off_from_hand``), which the referee derives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from onered.physics.types import EventKind, Segment, ShotResult
from onered.table import Point, in_baulk


def position_at(path: Sequence[Segment], t: float, default: Point) -> Point:
    """A ball's centre at time ``t``: the trajectory piece covering ``t`` (the last one
    that starts at or before it), or ``default`` when the path is empty."""
    current: Segment | None = None
    for seg in path:
        if seg.t0 <= t:
            current = seg
        else:
            break
    if current is None:
        return default
    tau = min(t, current.t1) - current.t0
    return (
        current.p0[0] + current.v0[0] * tau + 0.5 * current.a[0] * tau * tau,
        current.p0[1] + current.v0[1] * tau + 0.5 * current.a[1] * tau * tau,
    )


def bad_from_hand(result: ShotResult, cue: str, before: Mapping[str, Point]) -> bool:
    """The stroke from hand was not played out of baulk (see the module docstring).
    ``before`` holds every ball's centre before the stroke, the cue ball's placement
    included; ``result`` must carry the cue ball's path (cushion contacts are located
    on it)."""
    path = result.paths.get(cue, ())
    start = before[cue]
    played_out = False
    for event in result.events:
        if cue not in event.balls:
            continue
        kind = event.kind
        if kind is EventKind.BALL_BALL:
            other = event.balls[0] if event.balls[1] == cue else event.balls[1]
            return not played_out and in_baulk(before[other])
        if kind is EventKind.CUSHION:
            played_out = played_out or not in_baulk(position_at(path, event.t, start))
        elif kind is EventKind.BAULK_LINE:
            if event.direction == "in" and not played_out:
                return True
        elif kind is EventKind.POCKET:
            return False
    rest = result.rest.get(cue)
    return not played_out and rest is not None and in_baulk(rest)
