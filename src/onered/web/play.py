"""Play mode for the pages: the animation of a shot, and the played game's helpers the
feature routers use, over the game core (``onered.game.session``: a played game's lines are
its game record; the session plays a stroke through the game loop).

:func:`play` and :func:`choose` give the line of a stroke or a foul option without keeping it
(the caller stores it); :func:`shot_json` gives the animation of a shot from the simulator's
own trajectories.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from onered.game import Action, PhysicsSimulator
from onered.game.session import HUMAN, Session, SessionError, ai_entrant, ai_level
from onered.physics.types import ShotResult
from onered.players.strength import Level
from onered.rules import Ball, Match, Option
from onered.table import Point

__all__ = [
    "HUMAN",
    "PlayError",
    "Played",
    "Strength",
    "ai_entrant",
    "ai_strength",
    "choose",
    "entrants",
    "match_line",
    "play",
    "playable",
    "shot_json",
]

#: A stroke or choice that cannot be played (the session's error: ``code`` names why).
PlayError = SessionError
#: The AI player's strengths: the levels ``onered.players`` defines (one definition).
Strength = Level
#: The level of a computer entrant, ``None`` for a person.
ai_strength = ai_level


@dataclass(frozen=True, slots=True)
class Played:
    """A stroke played: the line to store and the shot to animate."""

    line: dict[str, Any]
    shot: dict[str, Any]


def match_line(match: Match, entrants: Mapping[str, str]) -> dict[str, Any]:
    """The first line of a new played game: the game record's header on the default table."""
    return dict(Session.new(match, simulator=PhysicsSimulator(), entrants=entrants).first.line)


def entrants(game: Session) -> dict[str, str]:
    """Who plays: player name -> ``"human"`` or ``"ai:<strength>"``."""
    return game.entrants


def playable(game: Session) -> bool:
    """The game can go on on the simulated table."""
    return game.playable


def play(game: Session, action: Action) -> Played:
    """The line and animation of the stroke of the player to play (not kept: the caller
    stores the line); :class:`PlayError` for an action the game refuses."""
    planned = game.plan_play(action)
    return Played(
        line=dict(planned.line), shot=shot_json(planned.stroke.result, planned.stroke.before)
    )


def choose(game: Session, option: Option) -> dict[str, Any]:
    """The line of the incoming player's foul option (not kept)."""
    return dict(game.plan_choice(option))


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
