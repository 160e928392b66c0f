"""A shot's animation for the pages, from the simulator's own trajectories.

A played game's strokes are the game core's (``onered.game.session``: ``plan_play``,
``plan_human``, ``plan_ai_turn``); the routers give the page :func:`shot_json` of the shot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onered.physics.types import EventKind, Segment, ShotResult
from onered.rules import Ball
from onered.table import Point

__all__ = ["shot_json"]

#: The events a page is sent: contacts (for its sounds and flashes), and the marks of a
#: flight (where a ball came down, the ball it passed over, where it left the table).
_SENT = frozenset(
    {
        EventKind.BALL_BALL,
        EventKind.CUSHION,
        EventKind.POCKET,
        EventKind.LAND,
        EventKind.OVER,
        EventKind.OFF_TABLE,
    }
)


def _r(x: float) -> float:
    return round(float(x), 6)


def _piece(s: Segment) -> list[float]:
    """One piece: 8 numbers on the bed, 11 in the air (the height's three after them)."""
    out = [_r(s.t0), _r(s.t1), _r(s.p0[0]), _r(s.p0[1]), _r(s.v0[0]), _r(s.v0[1])]
    out += [_r(s.a[0]), _r(s.a[1])]
    if s.airborne:
        out += [_r(s.z0), _r(s.vz), _r(s.az)]
    return out


def _cue(result: ShotResult) -> str | None:
    """The struck ball: the one moving from the strike (every other ball starts later)."""
    for ball, path in result.paths.items():
        if path and path[0].t0 == 0.0 and (path[0].v0 != (0.0, 0.0) or path[0].vz != 0.0):
            return ball
    return None


def shot_json(result: ShotResult, before: Mapping[Ball, Point]) -> dict[str, Any]:
    """The animation of a shot: each ball's path as the simulator computed it, piece by
    piece ``[t0, t1, x0, y0, vx, vy, ax, ay]`` (the centre at ``t0 <= t <= t1`` is
    ``p0 + v (t - t0) + a (t - t0)^2 / 2``), a piece in the air followed by ``z0, vz, az``
    (the height of the ball's lowest point above the slate is ``z0 + vz (t - t0) + az (t -
    t0)^2 / 2``); the balls before, their rest (``null``: potted or off the table), the
    struck ball (``cue``), the duration, the contacts (for the sounds and flashes of the
    page) and the marks of a flight (``land``, ``over``: the ball in the air first,
    ``off_table``)."""
    return {
        "duration": _r(result.duration),
        "cue": _cue(result),
        "before": {b.value: [_r(p[0]), _r(p[1])] for b, p in before.items()},
        "rest": {b: None if p is None else [_r(p[0]), _r(p[1])] for b, p in result.rest.items()},
        "paths": {ball: [_piece(s) for s in path] for ball, path in result.paths.items()},
        "events": [
            {"t": _r(e.t), "type": e.kind.value, "balls": list(e.balls)}
            for e in result.events
            if e.kind in _SENT
        ],
    }
