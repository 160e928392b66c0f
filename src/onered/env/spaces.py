"""The environments' action and observation: one flat ``Box`` each, with named components.

**Action** (``float32``, 8 components, each in [-1, 1]; :data:`ACTION_NAMES`). Each
component is scaled linearly onto its physical range, ``low + (a + 1) / 2 * (high - low)``
(:data:`PHYSICAL_LOW`, :data:`PHYSICAL_HIGH`; :func:`encode_action` is the inverse):

====  ===========  =========================  ============================================
 #    name         physical range             meaning
====  ===========  =========================  ============================================
 0    aim          [-180, 180] degrees        counter-clockwise from +x (across the table)
 1    speed        [0.05, 10] m/s             the cue ball's launch speed
 2    side         [-0.8, 0.8] R              tip offset right (+) / left (-)
 3    height       [-0.8, 0.8] R              tip offset up (+, top) / down (-, screw)
 4    elevation    [0, 90] degrees            the cue's elevation
 5    place_x      [0.597, 1.181] m           where to place the cue ball in hand: the
 6    place_y      [0.445, 0.737] m           D's bounding box (used only from hand)
 7    option       [-1, 1]                    after the opponent's foul: > 0 plays from the
                                              D, otherwise as the balls lie (2.12.3)
====  ===========  =========================  ============================================

The speed, tip and elevation limits are the physics' own (:mod:`onered.physics.cue`).
An action outside [-1, 1] is clipped (``clip=False`` raises instead), and a tip offset
beyond 0.8 R is scaled back onto that circle, as the players'
:func:`~onered.players.strength.clamp_strike` does; a non-finite component is always an
error naming it. The placement is projected onto the D (its nearest point) and, when a
ball stands there, moved to the nearest free point of a fixed 5 mm grid of the D
(:func:`place_in_d`).

**Observation** (``float32``, 29 components; :data:`OBS_NAMES`), from the observing
player's side ("me": his cue ball and score first, whichever colour he plays):

* 0-8: ``(x, y, on_table)`` of my cue ball, the opponent's cue ball and the red (metres;
  ``0, 0, 0`` for a ball off the table, i.e. in hand);
* 9-11: my score, the opponent's score, the target;
* 12-15: the current break (of the player to play), the consecutive cannon and hazard
  strokes and the red run counter (2.7-2.9);
* 16-19: flags: I am to play, my ball is in hand, a foul option is pending (for the
  player to play), the baulk-line window is open (the break owes a crossing, 2.13);
* 20-26: the red's spot, one-hot: billiards, pyramid, centre, baulk middle, D right,
  D left, none (the red does not stand on a spot);
* 27: my ball is the white; 28: the strokes played so far as a fraction of the stroke cap.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
from gymnasium import spaces

from onered.errors import OneredError
from onered.game.loop import placement_problem
from onered.game.model import Action
from onered.physics.cue import (
    MAX_ELEVATION,
    MAX_SPEED,
    MAX_TIP_OFFSET,
    MIN_ELEVATION,
    MIN_SPEED,
)
from onered.physics.types import Strike
from onered.players.strength import clamp_strike
from onered.rules import Ball, GameState, Option, Spot
from onered.table import BALL_DIAMETER, BAULK_Y, D_CENTRE, D_RADIUS, EPS, Point

ACTION_NAMES: tuple[str, ...] = (
    "aim",
    "speed",
    "side",
    "height",
    "elevation",
    "place_x",
    "place_y",
    "option",
)
PHYSICAL_LOW = np.array(
    [
        -180.0,
        MIN_SPEED,
        -MAX_TIP_OFFSET,
        -MAX_TIP_OFFSET,
        MIN_ELEVATION,
        D_CENTRE[0] - D_RADIUS,
        BAULK_Y - D_RADIUS,
        -1.0,
    ],
    dtype=np.float64,
)
PHYSICAL_HIGH = np.array(
    [
        180.0,
        MAX_SPEED,
        MAX_TIP_OFFSET,
        MAX_TIP_OFFSET,
        MAX_ELEVATION,
        D_CENTRE[0] + D_RADIUS,
        BAULK_Y,
        1.0,
    ],
    dtype=np.float64,
)

#: The red's spots in the order of the observation's one-hot (then "none").
RED_SPOTS: tuple[Spot, ...] = (
    Spot.BILLIARDS,
    Spot.PYRAMID,
    Spot.CENTRE,
    Spot.BAULK_MIDDLE,
    Spot.D_RIGHT,
    Spot.D_LEFT,
)
OBS_NAMES: tuple[str, ...] = (
    "my_x",
    "my_y",
    "my_on_table",
    "their_x",
    "their_y",
    "their_on_table",
    "red_x",
    "red_y",
    "red_on_table",
    "my_score",
    "their_score",
    "target",
    "break",
    "cannons",
    "hazards",
    "red_run",
    "my_turn",
    "in_hand",
    "option_pending",
    "baulk_window",
    *(f"red_spot_{spot.value}" for spot in RED_SPOTS),
    "red_spot_none",
    "my_ball_white",
    "strokes_used",
)
#: Most points one stroke can add to a score (cannon 2, pot red 3, pot the other cue ball
#: 2, in-off 3): a score never exceeds the target by more than this.
MAX_STROKE_POINTS = 10
_SPOT_INDEX = {spot: 20 + k for k, spot in enumerate(RED_SPOTS)}
_NO_SPOT = 20 + len(RED_SPOTS)


def action_space() -> spaces.Box:
    """The action space: 8 components in [-1, 1] (see the module's table)."""
    return spaces.Box(-1.0, 1.0, shape=(len(ACTION_NAMES),), dtype=np.float32)


def observation_space(target: int) -> spaces.Box:
    """The observation space for a game to ``target`` points (the scores' and break's
    bounds depend on it)."""
    from onered.physics.geometry import TableSpec  # the bed's size, for the positions

    spec = TableSpec()
    points = float(target + MAX_STROKE_POINTS)
    high = np.ones(len(OBS_NAMES), dtype=np.float32)
    high[[0, 3, 6]] = spec.width
    high[[1, 4, 7]] = spec.length
    high[[9, 10, 12]] = points
    high[11] = float(target)
    high[[13, 14, 15]] = 100.0  # the referee's limits are 75 cannons, 15 hazards
    return spaces.Box(np.zeros(len(OBS_NAMES), dtype=np.float32), high, dtype=np.float32)


class ActionError(OneredError, ValueError):
    """An action the environment cannot read: wrong shape, a non-finite component, or
    (with ``clip=False``) a component outside the action space."""

    default_code = "env_action"


@dataclass(frozen=True, slots=True)
class Decision:
    """What one action means for the player to play: the foul option (used only when one
    is pending), the strike, and the place in the D requested for a ball in hand."""

    option: Option
    strike: Strike
    place: Point


def read_action(action: object, *, clip: bool = True) -> Decision:
    """The decision an action vector asks for (see the module's table).

    Raises :class:`ActionError` naming the component for a non-finite value, for a value
    outside [-1, 1] when ``clip`` is false, or for a vector of the wrong shape.
    """
    if isinstance(action, np.ndarray) and action.shape == _SHAPE and action.dtype.kind == "f":
        items = action.tolist()  # the common case: the space's own float array
    else:
        try:
            values = np.asarray(action, dtype=np.float64)
        except (TypeError, ValueError):
            raise ActionError(
                f"action: expected {len(ACTION_NAMES)} numbers, got {action!r}"
            ) from None
        if values.shape != _SHAPE:
            raise ActionError(
                f"action: expected shape ({len(ACTION_NAMES)},) "
                f"({', '.join(ACTION_NAMES)}), got shape {values.shape}"
            )
        items = values.tolist()
    for k, v in enumerate(items):
        if -1.0 <= v <= 1.0:
            continue
        if not math.isfinite(v):
            raise ActionError(f"action[{k}] ({ACTION_NAMES[k]}) must be finite, got {v}")
        if not clip:
            raise ActionError(f"action[{k}] ({ACTION_NAMES[k]}) = {v} is outside [-1, 1]")
        items[k] = 1.0 if v > 1.0 else -1.0
    # lo + (a + 1) * half for each component, written out (a generator over zip costs a
    # tenth of reading an action)
    a0, a1, a2, a3, a4, a5, a6, a7 = items
    l0, l1, l2, l3, l4, l5, l6, l7 = _LOW
    h0, h1, h2, h3, h4, h5, h6, h7 = _HALF
    strike = clamp_strike(
        Strike(
            l1 + (a1 + 1.0) * h1,
            l0 + (a0 + 1.0) * h0,
            l2 + (a2 + 1.0) * h2,
            l3 + (a3 + 1.0) * h3,
            l4 + (a4 + 1.0) * h4,
        )
    )
    place = (l5 + (a5 + 1.0) * h5, l6 + (a6 + 1.0) * h6)
    option = Option.FROM_D if l7 + (a7 + 1.0) * h7 > 0 else Option.AS_THEY_LIE
    return Decision(option, strike, place)


def encode_action(
    strike: Strike, place: Point = D_CENTRE, option: Option = Option.AS_THEY_LIE
) -> np.ndarray:
    """The action vector asking for ``strike`` (and, from hand, ``place``; after a foul,
    ``option``): the inverse of :func:`read_action` up to float32 rounding."""
    physical = (
        strike.aim,
        strike.speed,
        strike.side,
        strike.height,
        strike.elevation,
        place[0],
        place[1],
        1.0 if option is Option.FROM_D else -1.0,
    )
    out = [(v - lo) / half - 1.0 for v, lo, half in zip(physical, _LOW, _HALF, strict=True)]
    return np.clip(np.array(out, dtype=np.float32), -1.0, 1.0)


_SHAPE = (len(ACTION_NAMES),)
_LOW: tuple[float, ...] = tuple(float(v) for v in PHYSICAL_LOW)
_HALF: tuple[float, ...] = tuple(
    (float(h) - float(lo)) / 2 for lo, h in zip(PHYSICAL_LOW, PHYSICAL_HIGH, strict=True)
)
#: Spacing of the fallback grid of places in the D, and how far inside its edges it stays.
GRID_STEP = 0.005
_INSET = 1e-9


def project_into_d(p: Point) -> Point:
    """The point of the D (the semicircle behind the baulk line, edges included) nearest
    to ``p``."""
    x, y = p
    y = min(y, BAULK_Y)
    dx, dy = x - D_CENTRE[0], y - D_CENTRE[1]
    r = math.hypot(dx, dy)
    limit = D_RADIUS * (1 - _INSET)
    if r > limit:
        x, y = D_CENTRE[0] + dx * limit / r, D_CENTRE[1] + dy * limit / r
    return (x, y)


@cache
def _grid() -> np.ndarray:
    """The fallback places: a square grid of :data:`GRID_STEP` inside the D, shape (n, 2)."""
    cx, cy = D_CENTRE
    n = int(D_RADIUS / GRID_STEP)
    i, j = np.meshgrid(np.arange(-n, n + 1), np.arange(0, n + 1), indexing="ij")
    points = np.stack([cx + i.ravel() * GRID_STEP, cy - j.ravel() * GRID_STEP], axis=1)
    inside = np.hypot(points[:, 0] - cx, points[:, 1] - cy) <= D_RADIUS * (1 - _INSET)
    return points[inside]


def place_in_d(balls: Mapping[Ball, Point], ball: Ball, wanted: Point) -> Point:
    """Where ``ball`` (in hand) is placed when the action asks for ``wanted``: its
    projection onto the D, or, when that touches a ball on the table, the nearest free
    point of the grid (ties: the grid's order). The game's own
    :func:`~onered.game.placement_problem` judges "free"."""
    p = project_into_d(wanted)
    if placement_problem(balls, ball, p) is None:
        return p
    grid = _grid()
    free = np.ones(len(grid), dtype=bool)
    for q in balls.values():
        free &= np.hypot(grid[:, 0] - q[0], grid[:, 1] - q[1]) > BALL_DIAMETER + 2 * EPS
    if not free.any():  # two balls cannot cover the D
        raise RuntimeError(f"no free place in the D for the {ball.value}")
    candidates = grid[free]
    k = int(np.argmin((candidates[:, 0] - p[0]) ** 2 + (candidates[:, 1] - p[1]) ** 2))
    return (float(candidates[k, 0]), float(candidates[k, 1]))


def to_action(decision: Decision, balls: Mapping[Ball, Point], state: GameState) -> Action:
    """The game's :class:`~onered.game.Action` for ``decision`` in the position after the
    option (if any) was taken: with a placement exactly when the striker's ball is in
    hand."""
    me = state.match.balls[state.to_play]
    if me in balls:
        return Action(decision.strike)
    return Action(decision.strike, place_in_d(balls, me, decision.place))


def observe(
    state: GameState, balls: Mapping[Ball, Point], me: int, strokes_used: float
) -> np.ndarray:
    """The observation of player ``me`` (0 or 1, the referee's index) of the game in
    ``state`` with ``balls`` on the table; ``strokes_used`` in [0, 1]."""
    # one conversion of the Python numbers to float32 (each rounded as an item set would)
    return np.array(observation_values(state, balls, me, strokes_used), dtype=np.float32)


def observation_values(
    state: GameState, balls: Mapping[Ball, Point], me: int, strokes_used: float
) -> list[float]:
    """:func:`observe`'s components as Python numbers (the vector form converts all its
    tables' at once)."""
    mine, theirs = state.match.balls[me], state.match.balls[1 - me]
    values: list[float] = []
    for ball in (mine, theirs, Ball.RED):
        at = balls.get(ball)
        values += _ABSENT if at is None else (at[0], at[1], 1.0)
    score = state.score
    counters = state.counters
    b = state.break_
    red = state.red_spot
    values += (
        score[me],
        score[1 - me],
        state.match.target,
        b,
        counters.cannons,
        counters.hazards,
        counters.red_run,
        state.to_play == me,
        mine not in balls,
        state.choice_pending,
        b % 100 >= 80 and state.baulk_met < b // 100,  # baulk_window(state)
    )
    values += _ONE_HOT[_NO_SPOT if red is None else _SPOT_INDEX[red]]
    values += (mine is Ball.WHITE, strokes_used)
    return values


#: A ball off the table in the observation; the red's spot one-hot, by index (20-26).
_ABSENT = (0.0, 0.0, 0.0)
_ONE_HOT: dict[int, tuple[float, ...]] = {
    j: tuple(1.0 if k == j else 0.0 for k in range(20, 27)) for j in range(20, 27)
}


def baulk_window(state: GameState) -> bool:
    """The break owes a crossing of the baulk line before its next hundred (2.13): it
    stands at 80 or more past a hundred whose crossing has not been made."""
    b = state.break_
    return b % 100 >= 80 and state.baulk_met < b // 100
