"""What can happen in the next stroke, and why not: the referee's knowledge for an interface.

A marker's pad should not offer a cannon when the opponent's ball is off the table, and a
player from hand should hear, before he strikes, that he is aiming straight at a ball in
baulk. Both are questions about the position that only the rules answer, so they are
answered here, from a :class:`GameState`, with a closed set of :class:`Reason`\\ s the
interface turns into words.

:func:`possible` says which parts of a stroke the referee would accept now (the same checks
as the referee's "invalid stroke" errors: a ball that is not on the table cannot be hit,
potted or cannoned, a player's own ball is never potted — it goes in-off). :func:`aim_warning`
reads a straight aim from hand (2.6.6, decision 7 of ``docs/rules.md``: a ball in baulk may
not be struck directly): it follows the cue ball's centre line to the first ball or cushion it
reaches.
Standard library only, like the rest of ``onered.rules``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from onered.rules.model import IN_OFF_OF, POT_OF, Ball, GameState, ScoreKind
from onered.table import BALL_RADIUS, LENGTH, WIDTH, Point, in_baulk


class Reason(Enum):
    """Why a part of a stroke cannot happen now, or why an aim is warned of."""

    __hash__ = object.__hash__

    GAME_OVER = "game_over"  # the game has been won: no more strokes
    NOT_ON_TABLE = "not_on_table"  # the ball is off the table (in hand, or not yet spotted)
    OWN_BALL = "own_ball"  # the striker's own ball: it is not potted, it goes in-off
    NO_OBJECT_BALL = "no_object_ball"  # a cannon needs both object balls on the table
    BALL_IN_BAULK = "ball_in_baulk"  # from hand, aimed straight at a ball in baulk (2.6.6)


@dataclass(frozen=True, slots=True)
class Why:
    """A reason, with the ball it is about (``None`` when it is about no one ball)."""

    reason: Reason
    ball: Ball | None = None


@dataclass(frozen=True, slots=True)
class Possible:
    """For the player to play: ``stroke`` is why no stroke can be entered (``None``: one
    can); ``scores`` and ``first_hit`` map each scoring part and each ball to why it
    cannot happen in this stroke (``None``: it can). ``striker`` is ``None`` once the game
    is over."""

    striker: int | None
    stroke: Why | None
    scores: Mapping[ScoreKind, Why | None]
    first_hit: Mapping[Ball, Why | None]


#: The object balls of each cue ball (2.2.2), in the order a cannon names them.
_OBJECTS: Mapping[Ball, tuple[Ball, Ball]] = {
    Ball.WHITE: (Ball.YELLOW, Ball.RED),
    Ball.YELLOW: (Ball.WHITE, Ball.RED),
}


def possible(state: GameState) -> Possible:
    """What the player to play can do in the next stroke, with the reason for what not."""
    if state.winner is not None:
        over = Why(Reason.GAME_OVER)
        return Possible(
            striker=None,
            stroke=over,
            scores=dict.fromkeys(ScoreKind, over),
            first_hit=dict.fromkeys(Ball, over),
        )
    me = state.match.balls[state.to_play]
    table = state.table

    def ball_why(ball: Ball) -> Why | None:
        if ball is me:
            return Why(Reason.OWN_BALL, ball)
        return None if ball in table else Why(Reason.NOT_ON_TABLE, ball)

    first_hit = {b: ball_why(b) for b in Ball}
    scores: dict[ScoreKind, Why | None] = {}
    missing = [b for b in _OBJECTS[me] if b not in table]
    scores[ScoreKind.CANNON] = Why(Reason.NOT_ON_TABLE, missing[0]) if missing else None
    for ball in Ball:
        scores[POT_OF[ball]] = ball_why(ball)
        scores[IN_OFF_OF[ball]] = ball_why(ball)
    return Possible(striker=state.to_play, stroke=None, scores=scores, first_hit=first_hit)


def _ball_along(start: Point, u: tuple[float, float], centre: Point) -> float | None:
    """How far the cue ball's centre travels along ``u`` from ``start`` before it touches
    a ball at ``centre`` (``None``: it passes by, or the ball is behind)."""
    wx, wy = start[0] - centre[0], start[1] - centre[1]
    b = wx * u[0] + wy * u[1]
    c = wx * wx + wy * wy - 4 * BALL_RADIUS * BALL_RADIUS
    disc = b * b - c
    if disc < 0:
        return None
    s = -b - math.sqrt(disc)
    return s if s > 0 else None


def _cushion_along(start: Point, u: tuple[float, float]) -> float:
    """How far the cue ball's centre travels along ``u`` before it meets a cushion (the
    cushion lines a radius inside the bed; pockets' jaws are cushion too, decision 7)."""
    far = math.inf
    for k, hi in ((0, WIDTH - BALL_RADIUS), (1, LENGTH - BALL_RADIUS)):
        if u[k] > 1e-12:
            far = min(far, (hi - start[k]) / u[k])
        elif u[k] < -1e-12:
            far = min(far, (BALL_RADIUS - start[k]) / u[k])
    return max(0.0, far)


def first_ball_ahead(
    state: GameState, cue: Point, aim: float, *, cue_ball: Ball | None = None
) -> Ball | None:
    """The ball the cue ball at ``cue`` reaches first when struck straight along ``aim``
    (degrees counter-clockwise from +x, the shot protocol's), before any cushion; ``None``
    when a cushion comes first. ``cue_ball``: the ball struck (default: the player to
    play's); balls at unknown places are not seen."""
    me = cue_ball if cue_ball is not None else state.match.balls[state.to_play]
    rad = math.radians(aim)
    u = (math.cos(rad), math.sin(rad))
    best, hit = _cushion_along(cue, u), None
    for ball, at in state.table.items():
        if ball is me or at is None:
            continue
        s = _ball_along(cue, u, at)
        if s is not None and s < best:
            best, hit = s, ball
    return hit


def aim_warning(state: GameState, cue: Point, aim: float) -> Why | None:
    """A warning for a stroke from hand struck straight along ``aim`` from ``cue``: the
    first thing it reaches is a ball in baulk (by its centre, decision 1), which 2.6.6
    forbids to strike directly (decision 7; ``onered.bridge`` judges the shot played).
    ``None`` when the player is not in hand or the line is fair."""
    if state.winner is not None or state.match.balls[state.to_play] in state.table:
        return None
    ball = first_ball_ahead(state, cue, aim)
    if ball is None:
        return None
    at = state.table[ball]
    if at is not None and in_baulk(at):
        return Why(Reason.BALL_IN_BAULK, ball)
    return None


def balls_in_baulk(state: GameState) -> tuple[Ball, ...]:
    """The balls on the table whose centre is in baulk (decision 1), in the order of
    :class:`Ball`: the ones a player from hand may not strike directly."""
    table = state.table
    return tuple(b for b in Ball if (at := table.get(b)) is not None and in_baulk(at))
