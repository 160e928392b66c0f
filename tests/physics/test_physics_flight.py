"""Balls in the air against their closed forms, jump strokes against the analysis of the
validation page, and energy across every impact of a flight (docs/physics-validation.md,
"Balls in the air"). Closed forms hold to rounding (1e-12 relative); energy never grows
by more than rounding."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from onered.physics import EventKind, Launch, Params, ShotResult, simulate, validation
from onered.physics.errors import PhysicsError
from onered.physics.validation import FLIGHT_START, OPEN_TABLE

P = Params()
R, G, E = P.R, P.g, P.e_table
TOL = 1e-12


def rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


def rolling_lob(vz: float, speed: float = 1.0) -> Launch:
    """A ball rolling along +x at ``speed`` and leaving the slate at ``vz``: it never
    slips at a landing, so its horizontal motion is untouched by the bounces."""
    return Launch((speed, 0.0), (0.0, speed / R, 0.0), vz)


def lob_flights(vz: float, speed: float = 1.0) -> list[validation.Flight]:
    result = simulate({"white": FLIGHT_START}, "white", rolling_lob(vz, speed), P, OPEN_TABLE)
    return validation.flights(result.paths["white"])


# ------------------------------------------------------------------ closed forms

VZ = [0.3, 1.0, 2.5]


@pytest.mark.parametrize("vz", VZ)
def test_apex_height_is_vz_squared_over_2g(vz: float) -> None:
    assert rel(lob_flights(vz)[0].apex, vz * vz / (2 * G)) < TOL


@pytest.mark.parametrize("vz", VZ)
def test_flight_time_is_2vz_over_g(vz: float) -> None:
    first = lob_flights(vz)[0]
    assert first.t0 == 0.0
    assert rel(first.t1, 2 * vz / G) < TOL


@pytest.mark.parametrize("vz", VZ)
def test_landing_point_is_the_horizontal_speed_times_the_flight_time(vz: float) -> None:
    first = lob_flights(vz, speed=1.5)[0]
    assert rel(first.end[0] - FLIGHT_START[0], 1.5 * 2 * vz / G) < TOL
    assert first.end[1] == FLIGHT_START[1]


@pytest.mark.parametrize("vz", VZ)
def test_each_bounce_rebounds_at_e_table_of_the_vertical_speed(vz: float) -> None:
    hops = lob_flights(vz)
    n = math.floor(math.log(validation.SETTLE_SPEED / vz) / math.log(E)) + 1
    assert len(hops) == n  # the last rebound faster than the settling speed is the n-th
    for k, hop in enumerate(hops):
        assert rel(hop.vz, vz * E**k) < TOL
        assert rel(hop.t1 - hop.t0, 2 * vz * E**k / G) < TOL
    # each landing is where the next hop starts, and the horizontal speed never changes
    for a, b in itertools.pairwise(hops):
        assert b.t0 == a.t1
        assert b.start == a.end
        assert b.v == a.v


def test_a_rebound_slower_than_the_settling_speed_stays_on_the_bed() -> None:
    slow = -0.99 * validation.SETTLE_SPEED / E
    result = simulate({"white": FLIGHT_START}, "white", Launch((0.5, 0.0), (0, 0, 0), slow))
    assert not [e for e in result.events if e.kind is EventKind.AIRBORNE]
    assert not any(seg.airborne for seg in result.paths["white"])


@pytest.mark.parametrize(
    ("v", "w", "vz"),
    [
        ((2.0, 0.0), (0.0, 0.0, 0.0), -0.5),  # a stun ball landing: friction stops the slip
        ((2.0, 0.0), (0.0, 0.0, 0.0), -0.2),  # a little: friction only slows the slip
        ((0.5, -1.0), (30.0, 10.0, 5.0), -1.0),  # spin across the travel
    ],
)
def test_a_bounce_follows_the_slate_bounce_closed_form(
    v: tuple[float, float], w: tuple[float, float, float], vz: float
) -> None:
    result = simulate({"white": FLIGHT_START}, "white", Launch(v, w, vz), P, OPEN_TABLE)
    first = result.paths["white"][0]
    v1, w1, vz1 = validation.slate_bounce(v, w, vz, P)
    assert first.t0 == 0.0
    assert first.airborne
    for got, want in zip((*first.v0, *first.w0, first.vz), (*v1, *w1, vz1), strict=True):
        assert abs(got - want) <= TOL * max(1.0, abs(want))


JUMPS = [(4.0, 45.0), (3.0, 30.0), (8.0, 15.0), (10.0, 60.0), (6.0, 75.0)]


@pytest.mark.parametrize(("speed", "elevation"), JUMPS)
def test_a_jump_strokes_flight_is_the_closed_form(speed: float, elevation: float) -> None:
    engine = validation.jump_flight(speed, elevation)
    closed = validation.jump_closed_form(speed, elevation)
    assert engine is not None
    assert closed is not None
    assert rel(engine.apex, closed.apex) < TOL
    assert rel(engine.t1, closed.t1) < TOL
    assert rel(engine.distance, closed.distance) < TOL
    assert abs(engine.angle - closed.angle) < 1e-9


def test_a_jump_strokes_launch_angle_is_below_the_cue_elevation() -> None:
    # 45 degrees: the slate returns half the vertical speed, friction takes 2/7 off the
    # horizontal: tan(angle) = 0.5 / (5/7) = 0.7
    flight = validation.jump_flight(4.0, 45.0)
    assert flight is not None
    assert flight.angle == pytest.approx(math.degrees(math.atan(0.7)), abs=1e-9)


@pytest.mark.parametrize(("speed", "distance"), [(5.0, 0.15), (8.0, 0.28), (8.0, 0.5)])
def test_minimum_elevation_to_jump_a_ball_is_the_closed_forms(
    speed: float, distance: float
) -> None:
    engine = validation.minimum_elevation(speed, distance, tolerance=1e-3)
    closed = validation.minimum_elevation(speed, distance, engine=False, tolerance=1e-3)
    assert engine is not None
    assert closed is not None
    assert engine == pytest.approx(closed, abs=2e-3)


def test_a_cleared_ball_gives_an_over_event_and_no_contact() -> None:
    result = validation.jump(8.0, 30.0, obstacle=0.28)
    kinds = [(e.kind, e.balls) for e in result.events if e.t < 0.3]
    assert (EventKind.OVER, ("white", "red")) in kinds
    assert not [e for e in result.events if e.kind is EventKind.BALL_BALL]


# ------------------------------------------------------------------ energy


def _never_gains(steps: list[validation.EnergyStep]) -> None:
    for step in steps:
        assert step.after <= step.before * (1 + 1e-12) + 1e-15, step


speeds = st.floats(-4.0, 4.0)
spins = st.floats(-150.0, 150.0)


@settings(max_examples=150)
@given(vx=speeds, vy=speeds, wx=spins, wy=spins, wz=spins, vz=st.floats(-6.0, -0.01))
def test_energy_never_increases_across_the_slates_bounce(
    vx: float, vy: float, wx: float, wy: float, wz: float, vz: float
) -> None:
    launch = Launch((vx, vy), (wx, wy, wz), vz)
    result = simulate({"white": (2.5, 2.5)}, "white", launch, P, OPEN_TABLE)
    steps = validation.energy_steps(result, P, launch_energy=validation.launch_energy(launch, P))
    assert steps[0].t == 0.0
    _never_gains(steps)


@settings(max_examples=100)
@given(vx=speeds, vy=speeds, wx=spins, wy=spins, wz=spins, vz=st.floats(0.06, 3.0))
def test_energy_never_increases_across_a_landing(
    vx: float, vy: float, wx: float, wy: float, wz: float, vz: float
) -> None:
    result = simulate(
        {"white": (2.5, 2.5)}, "white", Launch((vx, vy), (wx, wy, wz), vz), P, OPEN_TABLE
    )
    landings = validation.energy_steps(result, P, frozenset({EventKind.LAND}))
    assert landings
    _never_gains(landings)


def nose_hit(result: ShotResult) -> float | None:
    """The height of the ball's centre when it meets the top cushion in the air (``None``
    if it does not)."""
    for e in result.events:
        if e.kind is EventKind.CUSHION:
            seg = next(s for s in result.paths["white"] if s.t0 < e.t <= s.t1)
            return seg.height_at(e.t) + R if seg.airborne else None
    return None


def test_a_ball_lobbed_at_the_cushion_meets_its_nose_edge_in_the_air() -> None:
    launch, result = validation.nose_shot(3.0, 0.02)
    centre = nose_hit(result)
    assert centre is not None
    assert P.cushion_height < centre < P.cushion_height + R
    after = next(s for s in result.paths["white"] if s.t0 > 0)
    assert after.airborne
    assert after.vz > 0
    assert after.v0[1] < 0
    assert validation.energy_steps(result, P, launch_energy=validation.launch_energy(launch, P))


@settings(max_examples=60)
@given(
    speed=st.floats(0.5, 6.0),
    height=st.floats(P.cushion_height - R + 1e-3, P.cushion_height - 5e-3),
)
def test_energy_never_increases_across_the_cushions_nose_edge(speed: float, height: float) -> None:
    launch, result = validation.nose_shot(speed, height)
    assume(nose_hit(result) is not None)
    steps = validation.energy_steps(result, P, launch_energy=validation.launch_energy(launch, P))
    _never_gains(steps)


def airborne_contact(result: ShotResult) -> bool:
    """Whether the white meets the red while the white is in the air."""
    for e in result.events:
        if e.kind is EventKind.BALL_BALL:
            seg = [s for s in result.paths["white"] if s.t0 < e.t <= s.t1]
            return bool(seg) and seg[-1].airborne
    return False


def test_a_low_jump_meets_the_ball_ahead_in_the_air() -> None:
    result = validation.jump(4.0, 20.0, obstacle=0.15)
    assert airborne_contact(result)
    launch = validation.jump_launch(4.0, 20.0)
    assert validation.energy_steps(result, P, launch_energy=validation.launch_energy(launch, P))


@settings(max_examples=60)
@given(speed=st.floats(2.0, 8.0), elevation=st.floats(5.0, 40.0), distance=st.floats(0.06, 0.4))
def test_energy_never_increases_across_an_airborne_ball_ball_impact(
    speed: float, elevation: float, distance: float
) -> None:
    try:
        result = validation.jump(speed, elevation, obstacle=distance)
    except PhysicsError:  # a ball that comes down on top of another (reported to the lead)
        assume(False)
        return
    assume(airborne_contact(result))
    launch = validation.jump_launch(speed, elevation)
    steps = validation.energy_steps(result, P, launch_energy=validation.launch_energy(launch, P))
    _never_gains(steps)
