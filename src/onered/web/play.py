"""A shot's animation for the pages, from the simulator's own trajectories.

A played game's strokes are the game core's (``onered.game.session``: ``plan_play``,
``plan_human``, ``plan_ai_turn``); the routers give the page :func:`shot_json` of the shot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onered.physics.types import ShotResult
from onered.rules import Ball
from onered.table import Point

__all__ = ["shot_json"]


def _r(x: float) -> float:
    return round(float(x), 6)


def shot_json(result: ShotResult, before: Mapping[Ball, Point]) -> dict[str, Any]:
    """The animation of a shot: each ball's path as the simulator computed it, piece by
    piece ``[t0, t1, x0, y0, vx, vy, ax, ay]`` (the centre at ``t0 <= t <= t1`` is
    ``p0 + v (t - t0) + a (t - t0)^2 / 2``), the balls before, their rest (``null``:
    potted), the duration and the contacts (for the sounds and flashes of the page)."""
    paths = {
        ball: [
            [
                _r(s.t0),
                _r(s.t1),
                _r(s.p0[0]),
                _r(s.p0[1]),
                _r(s.v0[0]),
                _r(s.v0[1]),
                _r(s.a[0]),
                _r(s.a[1]),
            ]
            for s in segments
        ]
        for ball, segments in result.paths.items()
    }
    return {
        "duration": _r(result.duration),
        "before": {b.value: [_r(p[0]), _r(p[1])] for b, p in before.items()},
        "rest": {b: None if p is None else [_r(p[0]), _r(p[1])] for b, p in result.rest.items()},
        "paths": paths,
        "events": [
            {"t": _r(e.t), "type": e.kind.value, "balls": list(e.balls)}
            for e in result.events
            if e.kind.value in ("ball_ball", "cushion", "pocket")
        ],
    }
