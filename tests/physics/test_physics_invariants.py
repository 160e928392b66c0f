"""Invariants over random positions and strokes, level and elevated (the cue up to
vertical, hard strokes into cushions): energy never increases, balls never overlap each
other or a cushion in three dimensions, a ball that leaves play is potted or off the table
(never both, said once), events are time-ordered, and the same input gives the same
output."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from onered.physics import (
    EventKind,
    Params,
    ShotResult,
    Strike,
    TableSpec,
    check_position,
    simulate,
    strike_to_launch,
)
from onered.physics.types import position_at
from onered.table import BAULK_Y, LENGTH, WIDTH
from physics_helpers import (
    clearance,
    clearance_3d,
    energy,
    leaving,
    over_a_pocket,
    segment_at,
    state_at,
    total_energy,
)

P = Params()
R = P.R
SPEC = TableSpec()
GAP = 1e-9  # allowed overlap (m): rounding of event times is ~1e-14 m
#: The cushions' inward normals by the direction (degrees) a stroke into them is aimed.
INTO = {"bottom": 270.0, "top": 90.0, "left": 180.0, "right": 0.0}


@st.composite
def positions(draw: st.DrawFn) -> dict[str, tuple[float, float]]:
    """Three balls anywhere on the table, often in awkward places: touching each other,
    against a cushion, on the baulk line."""
    balls: dict[str, tuple[float, float]] = {}
    for name in ("white", "yellow", "red"):
        how = draw(st.sampled_from(["free", "free", "cushion", "touch", "baulk"]))
        x = draw(st.floats(R, WIDTH - R))
        y = draw(st.floats(R, LENGTH - R))
        if how == "cushion":
            side = draw(st.sampled_from(["bottom", "top", "left", "right"]))
            x, y = {
                "bottom": (x, R),
                "top": (x, LENGTH - R),
                "left": (R, y),
                "right": (WIDTH - R, y),
            }[side]
        elif how == "touch" and balls:
            other = balls[draw(st.sampled_from(sorted(balls)))]
            angle = draw(st.floats(0, 2 * math.pi))
            x, y = other[0] + 2 * R * math.cos(angle), other[1] + 2 * R * math.sin(angle)
        elif how == "baulk":
            y = BAULK_Y
        assume(clearance(SPEC, R, x, y) >= -1e-7 and not over_a_pocket(SPEC, x, y))
        assume(all(math.dist((x, y), q) >= 2 * R - 1e-7 for q in balls.values()))
        assume(R - 1e-7 <= x <= WIDTH - R + 1e-7 and R - 1e-7 <= y <= LENGTH - R + 1e-7)
        balls[name] = (x, y)
    return balls


#: The cue's elevation (degrees): level, the old samples, the ends of its range, anywhere.
ELEVATIONS = st.one_of(
    st.just(0.0),
    st.sampled_from([5.0, 20.0, 45.0, 60.0, 75.0, 89.0, 90.0]),
    st.floats(0, 90),
)


@st.composite
def strokes(draw: st.DrawFn, balls: dict[str, tuple[float, float]]) -> Strike:
    """Aimed at an object ball (give or take a few degrees), anywhere, or hard into a
    cushion (within 30 degrees of square on); the cue anywhere from level to vertical."""
    wx, wy = balls["white"]
    how = draw(st.sampled_from(["ball", "ball", "anywhere", "anywhere", "cushion"]))
    speed = draw(st.floats(0.05, 10.0))
    if how == "ball":
        tx, ty = balls[draw(st.sampled_from(["yellow", "red"]))]
        aim = math.degrees(math.atan2(ty - wy, tx - wx)) + draw(st.floats(-4, 4))
    elif how == "cushion":
        aim = INTO[draw(st.sampled_from(sorted(INTO)))] + draw(st.floats(-30, 30))
        speed = draw(st.floats(4.0, 10.0))
    else:
        aim = draw(st.floats(0, 360))
    r = draw(st.floats(0, 0.8))
    phi = draw(st.floats(0, 2 * math.pi))
    return Strike(
        speed=speed,
        aim=aim,
        side=r * math.cos(phi),
        height=r * math.sin(phi),
        elevation=draw(ELEVATIONS),
    )


@st.composite
def shots(draw: st.DrawFn) -> tuple[dict[str, tuple[float, float]], Strike]:
    balls = draw(positions())
    return balls, draw(strokes(balls))


#: A ball placed 6e-9 m into the top cushion (inside the input tolerance).
INTO_THE_CUSHION = (
    {
        "white": (1.0, 3.5427499999999994),
        "yellow": (1.0, 1.0),
        "red": (1.0524999999999995, 3.542750006258487),
    },
    Strike(speed=1.0, aim=0.0),
)


def _where(
    result: ShotResult, start: dict[str, tuple[float, float]], ball: str, t: float
) -> tuple[float, float, float] | None:
    """The ball's centre (x, y) and height at t (standing still between its pieces)."""
    seg = segment_at(result, ball, t)
    if seg is not None:
        s = state_at(seg, t)
        return s.x, s.y, s.z
    x, y = position_at(result.paths[ball], t, start[ball])
    return x, y, 0.0


#: The engine takes a ball whose slip is under this (m/s) as rolling (kernel.c's EPS_U).
ROLLING_SLIP = 1e-10


def _snap(result: ShotResult, t: float) -> float:
    """The energy (J) the engine may add at t by taking balls slipping slower than
    ROLLING_SLIP as rolling: their spin changes by up to ROLLING_SLIP / R, so their energy by
    up to 0.4 m |v| ROLLING_SLIP each (tiny contacts on a rolling ball meet it)."""
    speeds = 0.0
    for ball in result.paths:
        seg = segment_at(result, ball, t, after=True)
        if seg is not None:
            s = state_at(seg, t)
            speeds += math.hypot(s.vx, s.vy)
    return 0.4 * P.m * ROLLING_SLIP * speeds + 1e-15


def _check(balls: dict[str, tuple[float, float]], result: ShotResult) -> None:
    times = [e.t for e in result.events]
    assert times == sorted(times)
    assert all(t >= 0 for t in times)
    assert result.duration == (times[-1] if times else 0.0)
    # a ball out of play is potted or off the table: one such event, said once
    gone: dict[str, float] = {}
    for ball, left in leaving(result).items():
        assert len(left) == (result.rest[ball] is None), (ball, left)
        if left:
            gone[ball] = left[0][1]
            assert result.paths[ball][-1].t1 == left[0][1]
    # inputs may overlap a cushion or each other by up to 1e-6 m (the input tolerance): a
    # ball may stay that far in, never further
    slack = {b: GAP + max(0.0, -clearance(SPEC, R, *q)) for b, q in balls.items()}
    overlap = {
        (a, b): GAP + max(0.0, 2 * R - math.dist(balls[a], balls[b]))
        for a in balls
        for b in balls
        if a < b
    }
    # sample every event time (just before and after) and a grid: every ball in play,
    # moving or not; after its pocket or off_table event a ball is out of play
    grid = [result.duration * k / 150 for k in range(151)]
    for t in sorted({*times, *grid}):
        live = {}
        for ball in balls:
            if ball not in gone or t <= gone[ball]:
                where = _where(result, balls, ball, t)
                if where is not None:
                    live[ball] = where
        for ball, (x, y, z) in live.items():
            assert z >= -GAP, (ball, t)
            assert clearance_3d(SPEC, P, x, y, z) > -slack[ball], (ball, t)
            # on the bed the centre never goes into a pocket's fall circle (a ball falls as
            # it reaches it); in the air a ball may pass over it, or come down into it
            if z == 0 and t != gone.get(ball):
                assert not over_a_pocket(SPEC, x, y, margin=GAP), (ball, t)
        names = sorted(live)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                (xa, ya, za), (xb, yb, zb) = live[a], live[b]
                distance = math.dist((xa, ya, za), (xb, yb, zb))
                assert distance > 2 * R - overlap[a, b], (a, b, t)
    # energy (kinetic in three dimensions and m g z): never up at an event, never up along
    # a piece of path (constant in the air, up to rounding)
    for t in times:
        before = total_energy(result, t, P, after=False)
        after = total_energy(result, t, P, after=True)
        assert after <= before * (1 + 1e-12) + _snap(result, t), t
    for pieces in result.paths.values():
        for seg in pieces:
            e0 = energy(state_at(seg, seg.t0), P)
            e_mid = energy(state_at(seg, (seg.t0 + seg.t1) / 2), P)
            e1 = energy(state_at(seg, seg.t1), P)
            assert e1 <= e_mid * (1 + 1e-12) + 1e-15
            assert e_mid <= e0 * (1 + 1e-12) + 1e-15
            if seg.airborne:
                assert math.isclose(e1, e0, rel_tol=1e-9), seg
    # the rest positions are a legal start for the next stroke
    on_table = {b: r for b, r in result.rest.items() if r is not None}
    if on_table:
        check_position(on_table, P, SPEC)


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(shots())
def test_invariants_hold_for_any_stroke(
    shot: tuple[dict[str, tuple[float, float]], Strike],
) -> None:
    balls, strike = shot
    note(f"balls={balls!r}, strike={strike!r}")
    result = simulate(balls, "white", strike_to_launch(strike, P))
    _check(balls, result)
    # deterministic: the same input, the same output to the last bit
    assert simulate(balls, "white", strike_to_launch(strike, P)) == result


#: Inputs that once broke an invariant (found by the stress runs of the test above).
REGRESSIONS = [
    # a ball with top spin pushing a touching ball: ever faster tiny collisions
    (
        {"white": (1.0, 1.0), "yellow": (0.978152291081275, 1.0477381149083482),
         "red": (1.0384136656158756, 1.0357860349012251)},
        Strike(1.0, 114.5915590261647, 0.2701511529340699, 0.42073549240394825),
    ),
    # pushing a ball that rests against a cushion
    (
        {"white": (0.15465739927063332, 2.0), "yellow": (R, 2.8078486512470646), "red": (R, 0.737)},
        Strike(5.78125, 96.60972347975661, elevation=20.0),
    ),
    # denormal spin on a ball rolling along the baulk line: endless crossings at one instant
    (
        {"white": (1.0, 0.737), "yellow": (1.0, 1.0), "red": (1.0, 2.0)},
        Strike(0.25, 0.0, 1.20221253647836e-308, 1.872335090988361e-308),
    ),
    # a ball against a cushion, pressed into it by its own swerve, then into the pocket
    (
        {"white": (R, 0.5625), "yellow": (1.0, 1.0), "red": (1.0, 0.5)},
        Strike(5.0, 270.6875, -0.18309744434394723, 0.5318661258951496),
    ),
]  # fmt: skip


def test_regressions_keep_their_invariants() -> None:
    for balls, strike in [*REGRESSIONS, INTO_THE_CUSHION]:
        result = simulate(balls, "white", strike_to_launch(strike, P))
        _check(balls, result)
        assert len(result.events) < 100


def test_a_push_into_a_touching_ball_ends_with_both_rolling_on_together() -> None:
    balls, strike = REGRESSIONS[0]
    result = simulate(balls, "white", strike_to_launch(strike, P))
    pushes = [
        e for e in result.events if e.kind is EventKind.BALL_BALL and e.balls == ("white", "red")
    ]
    assert 1 <= len(pushes) <= 5
    assert result.rest["white"] is not None
    assert result.rest["red"] is not None
    assert math.dist(result.rest["white"], result.rest["red"]) > 2 * R - GAP
