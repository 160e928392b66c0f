"""The leave's batch form (``LeaveModel.values``) against its scalar form (``value``).

The search values thousands of positions a decision through ``values``; the coach and the
placement from hand through ``value``. Both must say the same of every position: cue ball on
the table or in hand, one or two object balls, red or not, the limits' flags, balls near the
pockets, on the cushions, in baulk, touching or in each other's way.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.physics.geometry import TableSpec
from onered.physics.params import Params
from onered.players.geometry import pocket_targets
from onered.players.leave import LeaveModel
from onered.players.strength import LEVELS, Level
from onered.table import BALL_RADIUS, BAULK_Y, EPS, LENGTH, WIDTH, Point, Spot

Ball = tuple[Point, bool]
Row = tuple[Point | None, list[Ball], bool, bool]


@functools.cache
def model(level: Level) -> LeaveModel:
    strength = LEVELS[level]
    return LeaveModel(strength.noise, strength.continuation, Params(), TableSpec())


def _on_table(x: float, y: float) -> Point:
    r = BALL_RADIUS
    return (min(max(x, r), WIDTH - r), min(max(y, r), LENGTH - r))


_AIMS = [p.aim for p in pocket_targets(TableSpec())]
_coord = st.floats(0.0, 1.0)
#: anywhere on the bed
_anywhere = st.builds(lambda u, v: _on_table(u * WIDTH, v * LENGTH), _coord, _coord)
#: by a pocket's mouth
_by_pocket = st.builds(
    lambda k, dx, dy: _on_table(_AIMS[k][0] + dx, _AIMS[k][1] + dy),
    st.integers(0, len(_AIMS) - 1),
    st.floats(-0.1, 0.1),
    st.floats(-0.1, 0.1),
)
#: on a cushion (touching it or nearly)
_cushion = st.one_of(
    st.builds(lambda s, v: _on_table(s * WIDTH, v * LENGTH), st.sampled_from([0.0, 1.0]), _coord),
    st.builds(lambda u, s: _on_table(u * WIDTH, s * LENGTH), _coord, st.sampled_from([0.0, 1.0])),
)
#: in baulk, on the baulk line or a hair from it (the line counts as baulk, within EPS)
_baulk = st.one_of(
    st.builds(lambda u, v: _on_table(u * WIDTH, v * BAULK_Y), _coord, _coord),
    st.builds(
        lambda u, e: _on_table(u * WIDTH, BAULK_Y + e),
        _coord,
        st.sampled_from([-EPS, 0.0, EPS / 2, EPS, 2 * EPS, 0.01, 0.03]),
    ),
)
#: the spots
_spot = st.sampled_from([s.point for s in Spot])
_place = st.one_of(_anywhere, _by_pocket, _cushion, _baulk, _spot)


@st.composite
def positions(draw: st.DrawFn) -> Row:
    """A position: the balls anywhere the game puts them, often near each other (cannons,
    kisses, blocked paths)."""
    cue = None if draw(st.integers(0, 4)) == 0 else draw(_place)
    balls: list[Ball] = []
    for _ in range(draw(st.integers(1, 2))):
        if cue is not None and draw(st.booleans()):
            # near the cue ball, or in line with it: in the way or touching
            a = draw(st.floats(0.0, 2 * math.pi))
            d = draw(st.floats(0.0, 0.4))
            p = _on_table(cue[0] + d * math.cos(a), cue[1] + d * math.sin(a))
        elif balls and draw(st.booleans()):
            a = draw(st.floats(0.0, 2 * math.pi))
            d = draw(st.floats(0.0, 0.15))
            p = _on_table(balls[0][0][0] + d * math.cos(a), balls[0][0][1] + d * math.sin(a))
        else:
            p = draw(_place)
        balls.append(((float(p[0]), float(p[1])), draw(st.booleans())))
    return (cue, balls, draw(st.booleans()), draw(st.booleans()))


def arrays(
    rows: list[Row], k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``values``' arguments for ``rows``, ``k`` object balls a row (NaN: none)."""
    n = len(rows)
    cues = np.full((n, 2), np.nan)
    objects = np.full((n, k, 2), np.nan)
    reds = np.zeros((n, k), dtype=bool)
    for i, (cue, balls, _, _) in enumerate(rows):
        if cue is not None:
            cues[i] = cue
        for j, (p, red) in enumerate(balls):
            objects[i, j] = p
            reds[i, j] = red
    hazards = np.array([r[2] for r in rows], dtype=bool)
    cannons = np.array([r[3] for r in rows], dtype=bool)
    return cues, objects, reds, hazards, cannons


def scalar(m: LeaveModel, row: Row) -> float:
    cue, balls, hazards, cannons = row
    fresh = [((p[0], p[1]), red) for p, red in balls]  # distinct points, as on a table
    return m.value(cue, fresh, hazards=hazards, cannons=cannons)


@settings(max_examples=400)
@given(
    level=st.sampled_from(list(Level)),
    rows=st.lists(positions(), min_size=1, max_size=12),
    extra=st.integers(0, 1),
)
def test_values_equal_value_for_every_row(level: Level, rows: list[Row], extra: int) -> None:
    m = model(level)
    k = max(len(r[1]) for r in rows) + extra  # a column of no ball at all, sometimes
    got = m.values(*arrays(rows, k))
    want = [scalar(m, r) for r in rows]
    assert got.shape == (len(rows),)
    for g, w, row in zip(got.tolist(), want, rows, strict=True):
        assert abs(g - w) <= 1e-9, row


def test_values_of_an_example_break() -> None:
    """A red by the top pocket with the cue ball behind it, the other white in the way of
    one stroke; the same red from hand; an empty table; the limits spent."""
    m = model(Level.PRO)
    red: Ball = ((0.30, 3.30), True)
    white: Ball = ((0.60, 2.70), False)
    rows: list[Row] = [
        ((0.50, 2.90), [red, white], True, True),
        ((0.50, 2.90), [red, white], False, True),
        ((0.50, 2.90), [red, white], False, False),
        (None, [red, white], True, True),
        ((0.50, 2.90), [], True, True),
        ((0.75, 2.45), [red, white], True, True),  # the white between the cue ball and red
    ]
    got = m.values(*arrays(rows, 2))
    want = [scalar(m, r) for r in rows]
    assert got.tolist() == pytest.approx(want, abs=1e-9)
    assert got[0] > got[1] > got[2] == 0.0
    assert got[3] > 0.0
    assert got[4] == 0.0


def test_an_empty_batch_has_no_values() -> None:
    m = model(Level.AMATEUR)
    assert m.values(
        np.zeros((0, 2)),
        np.zeros((0, 2, 2)),
        np.zeros((0, 2), bool),
        np.zeros(0, bool),
        np.zeros(0, bool),
    ).shape == (0,)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        ((np.zeros((3, 3)), np.zeros((3, 2, 2)), np.zeros((3, 2), bool)), "cues"),
        ((np.zeros((3, 2)), np.zeros((2, 2, 2)), np.zeros((3, 2), bool)), "objects"),
        ((np.zeros((3, 2)), np.zeros((3, 2, 2)), np.zeros((3, 2))), "reds"),
        ((np.zeros((3, 2)), np.zeros((3, 2, 2)), np.zeros((3, 1), bool)), "reds"),
    ],
)
def test_a_bad_batch_is_named(args: tuple[np.ndarray, ...], name: str) -> None:
    m = model(Level.AMATEUR)
    with pytest.raises(ValueError, match=f"^{name}:"):
        m.values(*args, np.ones(3, bool), np.ones(3, bool))
    with pytest.raises(ValueError, match=r"^hazards:"):
        m.values(
            np.zeros((3, 2)),
            np.zeros((3, 2, 2)),
            np.zeros((3, 2), bool),
            [1, 1, 1],
            np.ones(3, bool),
        )
