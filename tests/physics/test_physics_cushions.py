"""Ball-cushion collisions (Han 2005): rebound angles with and without side, names,
and the degenerate contacts (a ball resting against or running along a cushion)."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest

from onered.physics import EventKind, Launch, Params, ShotResult, simulate
from onered.table import LENGTH, WIDTH
from physics_helpers import rel

P = Params()
R = P.R
WALLS = (EventKind.CUSHION, EventKind.POCKET)


def _towards_top(theta: float, side: float = 0.0, v: float = 1.5) -> ShotResult:
    """A rolling ball meeting the top cushion at ``theta`` degrees from the normal,
    moving right, with vertical spin ``side`` (rad/s; positive = running side here)."""
    vx, vy = v * math.sin(math.radians(theta)), v * math.cos(math.radians(theta))
    return simulate(
        {"white": (0.5, LENGTH - R - 0.3)}, "white", Launch((vx, vy), (-vy / R, vx / R, side))
    )


def _rebound(result: ShotResult) -> tuple[float, float]:
    """Rebound angle from the normal just after the first cushion, and once rolling."""
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    pieces = result.paths["white"]
    k = next(i for i, s in enumerate(pieces) if s.t0 == hit.t)
    after, rolling = pieces[k], pieces[k + 1]
    return (
        math.degrees(math.atan2(after.v0[0], -after.v0[1])),
        math.degrees(math.atan2(rolling.v0[0], -rolling.v0[1])),
    )


def test_square_hit_without_side_comes_straight_back_slower() -> None:
    result = _towards_top(0.0)
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    assert hit.cushion == "top"
    assert hit.balls == ("white",)
    after = next(s for s in result.paths["white"] if s.t0 == hit.t)
    assert abs(after.v0[0]) < 1e-12
    assert -1.5 * P.e_c < after.v0[1] < 0


def test_flat_cushion_without_friction_returns_e_c_of_the_normal_speed() -> None:
    params = replace(P, cushion_height=R, f_c=0.0)  # contact at the equator, no friction
    v, y0 = 1.2, LENGTH - R - 0.2
    result = simulate({"white": (0.5, y0)}, "white", Launch((0.0, v), (-v / R, 0, 0)), params)
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    a = params.mu_r * params.g
    v_hit = math.sqrt(v * v - 2 * a * 0.2)
    assert rel(hit.t, (v - v_hit) / a) < 1e-9
    after = next(s for s in result.paths["white"] if s.t0 == hit.t)
    assert rel(-after.v0[1], params.e_c * v_hit) < 1e-9


@pytest.mark.parametrize("side", [40.0, -40.0])
def test_square_hit_with_side_comes_off_to_that_side(side: float) -> None:
    just_after, rolling = _rebound(_towards_top(0.0, side))
    assert math.copysign(1, just_after) == math.copysign(1, side)
    assert abs(rolling) > abs(just_after) > 5.0
    mirror, _ = _rebound(_towards_top(0.0, -side))
    assert mirror == pytest.approx(-just_after, abs=1e-12)


@pytest.mark.parametrize("theta", [15.0, 30.0, 45.0, 60.0])
def test_a_rolling_ball_comes_off_wider_than_it_came_in(theta: float) -> None:
    _, rolling = _rebound(_towards_top(theta))
    assert rolling > theta


def test_rebound_angle_grows_with_the_angle_of_incidence() -> None:
    angles = [_rebound(_towards_top(theta)) for theta in (10.0, 20.0, 30.0, 40.0, 50.0)]
    assert all(a[0] < b[0] and a[1] < b[1] for a, b in itertools.pairwise(angles))


@pytest.mark.parametrize("theta", [15.0, 30.0])
def test_running_side_widens_and_check_side_narrows_the_rebound(theta: float) -> None:
    plain = _rebound(_towards_top(theta))
    running = _rebound(_towards_top(theta, 50.0))
    check = _rebound(_towards_top(theta, -50.0))
    for k in (0, 1):
        assert running[k] > plain[k] > check[k]


def test_mirrored_shots_give_mirrored_rebounds() -> None:
    v, w = (0.8, 1.1), (-30.0, 10.0, 25.0)
    right = simulate({"white": (0.6, 2.0)}, "white", Launch(v, w))
    left = simulate(
        {"white": (WIDTH - 0.6, 2.0)}, "white", Launch((-v[0], v[1]), (w[0], -w[1], -w[2]))
    )
    assert [e.kind for e in right.events] == [e.kind for e in left.events]
    names = {
        "right_upper": "left_upper",
        "right_lower": "left_lower",
        "top": "top",
        "bottom": "bottom",
    }
    for a, b in zip(right.events, left.events, strict=True):
        assert a.t == pytest.approx(b.t, rel=1e-9)
        if a.kind is EventKind.CUSHION:
            assert names.get(a.cushion, a.cushion) == b.cushion
    (xa, ya), (xb, yb) = right.rest["white"], left.rest["white"]
    assert xa == pytest.approx(WIDTH - xb, abs=1e-9)
    assert ya == pytest.approx(yb, abs=1e-9)


@pytest.mark.parametrize(
    ("start", "aim", "name"),
    [
        ((0.889, 0.5), -90.0, "bottom"),
        ((0.889, 3.0), 90.0, "top"),
        ((0.5, 0.9), 180.0, "left_lower"),
        ((0.5, 2.7), 180.0, "left_upper"),
        ((1.3, 0.9), 0.0, "right_lower"),
        ((1.3, 2.7), 0.0, "right_upper"),
    ],
)
def test_each_cushion_is_named(start: tuple[float, float], aim: float, name: str) -> None:
    v = (math.cos(math.radians(aim)), math.sin(math.radians(aim)))
    result = simulate({"white": start}, "white", Launch(v, (0, 0, 0)))
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    assert (hit.cushion, hit.pocket) == (name, None)


def test_ball_running_along_a_cushion_never_touches_it_again() -> None:
    v = 0.4
    result = simulate({"white": (0.4, R)}, "white", Launch((v, 0.0), (0, v / R, 0)))
    assert all(e.kind is not EventKind.CUSHION for e in result.events)
    assert result.rest["white"][1] == R


def test_ball_running_along_a_cushion_drops_in_the_corner() -> None:
    # it touches only the corner pocket's jaw (its knuckle turns the ball in), then drops
    v = 0.7
    result = simulate({"white": (0.4, R)}, "white", Launch((v, 0.0), (0, v / R, 0)))
    contacts = [(e.kind, e.cushion, e.pocket) for e in result.events if e.kind in WALLS]
    assert contacts[-1] == (EventKind.POCKET, None, "bottom_right")
    assert set(contacts[:-1]) <= {(EventKind.CUSHION, "jaw", "bottom_right")}
    assert result.rest["white"] is None


def test_ball_resting_against_a_cushion_knocked_along_it_does_not_bounce() -> None:
    balls = {"white": (0.3, R), "red": (0.3 + 2 * R + 0.2, R)}
    result = simulate(balls, "white", Launch((0.4, 0.0), (0, 0.4 / R, 0)))
    assert [e.kind for e in result.events if e.balls == ("red",)].count(EventKind.CUSHION) == 0
    assert result.rest["red"][1] == pytest.approx(R, abs=1e-12)
    assert result.rest["red"][0] > 0.3 + 2 * R + 0.2


def test_ball_resting_against_a_cushion_knocked_into_it_bounces_at_once() -> None:
    balls = {"white": (0.889, 0.5), "red": (0.889, R)}
    result = simulate(balls, "white", Launch((0.0, -1.5), (1.5 / R, 0, 0)))
    first = result.events[0]
    assert first.kind is EventKind.BALL_BALL
    red_cushion = next(
        e for e in result.events if e.kind is EventKind.CUSHION and e.balls == ("red",)
    )
    assert red_cushion.t == first.t
    assert red_cushion.cushion == "bottom"


def test_higher_cushion_restitution_returns_faster() -> None:
    speeds = []
    for e_c in (0.6, 0.75, 0.9):
        params = replace(P, e_c=e_c)
        result = simulate(
            {"white": (0.5, 3.0)}, "white", Launch((0.0, 1.0), (-1.0 / R, 0, 0)), params
        )
        hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
        speeds.append(-next(s for s in result.paths["white"] if s.t0 == hit.t).v0[1])
    assert speeds[0] < speeds[1] < speeds[2] < 1.0
