"""The engine measured the way the validation page needs it, and what it is held to.

``docs/physics-validation.md`` compares onered's table with published measurements, with
published closed forms and with pooltool; ``docs/physics_validation.py`` draws its figures
and ``tests/physics/test_physics_validation.py`` (the flight's:
``tests/physics/test_physics_flight.py``) turns its numbers into tests. All three
measure the engine here, in one way, so that a figure, a table on the page and a test can
never disagree about what was measured. Standard library only; every function returns
plain numbers.

Three kinds of functions:

- **References**: :func:`mathavan_reference`, an implementation of the cushion model of
  Mathavan, Jackson & Parkin (2010) written from the paper's equations and its own
  explicit scheme, independent of the engine's C code (``cushion.c``), integrated finely
  enough to serve as the truth the engine's three steps a phase are held to.
- **Closed forms** (published, or derived here from the same impulse models): Alciatore's
  throw (TP A-14) with the engine's ball-ball friction fit and restitution, the 90-degree
  and 30-degree rules, slide and roll, screw-back, the slate's bounce, flights and the
  lowest elevation that jumps a ball.
- **Engine measurements**: small experiments with :func:`onered.physics.simulate` (a
  cushion rebound, a stun run, a cut, a screw shot, the offsets that pot, a jump stroke,
  a lob at a cushion's nose, the energy across each impact).

Conventions (those of Mathavan's paper): a cushion **incidence** ``alpha`` is the angle of
the ball's path **from the cushion line** (90 degrees: square on), a **rebound angle**
likewise (over 90: the ball comes back against its direction of travel). **Topspin**
``k``: ``R w = k v`` about the horizontal axis perpendicular to the travel, so 1 is
natural roll, 0 stun, -1 backspin as fast as the ball's speed. **Side** ``s``:
``R |w_z| = |s| v``; ``s > 0`` is **running side** (the ball's surface at the cushion
moves backwards along the cushion, so the cushion's friction drives the ball on and the
rebound runs wider, closer to the cushion line), ``s < 0`` is **check side**. A **cut
angle** is the angle between the cue ball's path and the line of centres at contact.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from onered import table as _table
from onered.physics.engine import simulate, simulate_compact
from onered.physics.errors import PhysicsError, PhysicsInputError
from onered.physics.geometry import LEGACY_TABLE, PocketShape, TableSpec
from onered.physics.params import (
    LEGACY_DEFAULTS,
    ROLLING_DECELERATION,
    SLIDING_DECELERATION,
    Params,
)
from onered.physics.types import EventKind, Launch, Segment, ShotResult, Vec2

Vec3 = tuple[float, float, float]

# ------------------------------------------------------------------ published numbers

#: Mathavan et al. 2010's model for a ball at 1 m/s, as quoted in the issue that asked for
#: this page: (incidence from the cushion line in degrees, topspin k) -> (rebound angle
#: from the cushion line in degrees, rebound speed / incident speed), e_e = 0.98,
#: mu_w = 0.14, mu_s = 0.212, h = 7R/5. :func:`mathavan_reference` reproduces them.
MATHAVAN_MODEL_VALUES: dict[tuple[float, float], tuple[float, float]] = {
    (15.0, 1.0): (15.9, 0.917),
    (30.0, 1.0): (34.0, 0.861),
    (45.0, 1.0): (52.7, 0.848),
    (60.0, 1.0): (68.8, 0.867),
    (75.0, 1.0): (80.0, 0.898),
    (45.0, 0.0): (56.2, 0.756),
    (45.0, -1.0): (54.9, 0.800),
}

#: The measured square-on rebounds of a rolling ball (Mathavan et al. 2010, Fig. 7a; the
#: same 31 shots as Mathavan et al. 2009, Fig. 9): (lowest incident speed, highest, lowest
#: rebound / incident speed ratio, highest) for the slow and the fast shots.
MEASURED_SQUARE_ON_BANDS: tuple[tuple[float, float, float, float], ...] = (
    (0.26, 2.3, 0.89, 0.95),
    (2.7, 3.4, 0.80, 0.84),
)

#: Mathavan et al. 2009 (Am. J. Phys. 77(9), p. 790): a sliding snooker ball slows at
#: 1.75-2.40 m/s^2, a rolling one at 0.124-0.126 m/s^2 (the engine's defaults are the
#: middles: :data:`onered.physics.params.SLIDING_DECELERATION`, ``ROLLING_DECELERATION``).
MEASURED_SLIDING_RANGE = (1.75, 2.40)
MEASURED_ROLLING_RANGE = (0.124, 0.126)
MEASURED_SLIDING = SLIDING_DECELERATION
MEASURED_ROLLING = ROLLING_DECELERATION

#: Alciatore's effective pocket sizes straight in (approach angle 0), as fractions of the
#: clean window p - 2R of the pocket each technical proof assumes (pool: ball radius
#: 1.125 in): TP 3.6 corner slow 2.668 in of 4.5875 - 2.25, TP 3.8 corner fast 2.348 of
#: 4.58125 - 2.25, TP 3.5 side slow 3.229 of 5.0625 - 2.25, TP 3.7 side fast 2.879 of the
#: same (``docs/data/alciatore-pockets.csv`` holds the curves).
ALCIATORE_STRAIGHT_IN: dict[str, float] = {
    "corner_slow": 2.668 / (4.5875 - 2.25),
    "corner_fast": 2.348 / (4.58125 - 2.25),
    "side_slow": 3.229 / (5.0625 - 2.25),
    "side_fast": 2.879 / (5.0625 - 2.25),
}
#: The mouth p (inches, point to point) each of Alciatore's curves assumes, and his ball's
#: radius: the curves are compared as s / (p - 2R).
ALCIATORE_MOUTH: dict[str, float] = {
    "corner_slow": 4.5875,
    "corner_fast": 4.58125,
    "side_slow": 5.0625,
    "side_fast": 5.0625,
}
ALCIATORE_BALL_RADIUS = 1.125


def ideal_rolling_deflection(cut: float) -> float:
    """The 30-degree rule's curve (Alciatore; perfectly elastic, frictionless balls): a
    rolling cue ball's final deflection from its line, in degrees, for a cut
    angle ``cut`` (degrees): ``atan(sin c cos c / (sin^2 c + 2/5))``; 33.7 at half-ball
    (30 degrees), between 27 and 34 from a quarter- to a three-quarter-ball hit."""
    c = math.radians(cut)
    return math.degrees(math.atan2(math.sin(c) * math.cos(c), math.sin(c) ** 2 + 0.4))


# ------------------------------------------------------------------ the cushion reference


class CushionState(NamedTuple):
    """A ball at a cushion in the contact frame: X horizontal towards the cushion, Y = Z x X
    along it, Z up. ``u``: the centre's velocity along X (> 0: approaching), ``v`` along
    Y; ``wx, wy, wz``: the angular velocity."""

    u: float
    v: float
    wx: float
    wy: float
    wz: float


@dataclass(frozen=True, slots=True)
class Rebound:
    """A ball's rebound off a cushion.

    ``angle``: its direction just after the impact, in degrees from the cushion line (over
    90: it came back against its direction of travel); ``speed_ratio``: its speed then
    over the incident speed. ``rolling_angle`` and ``rolling_speed_ratio``: the same once
    the cloth has made it roll again (``None`` if it met anything before, or would curve
    back into the cushion)."""

    angle: float
    speed_ratio: float
    rolling_angle: float | None
    rolling_speed_ratio: float | None


def incident_state(
    alpha: float, speed: float, topspin: float, side: float, radius: float
) -> CushionState:
    """The contact-frame state of a ball arriving at incidence ``alpha`` (degrees from the
    cushion line) at ``speed``, travelling along +Y, with ``topspin`` and ``side`` as in
    the module's conventions."""
    a = math.radians(alpha)
    u, v = speed * math.sin(a), speed * math.cos(a)
    # w = k (Z x v) / R; running side turns the surface at the cushion backwards (-Y)
    r = radius
    return CushionState(u, v, -topspin * v / r, topspin * u / r, -side * speed / r)


def restitution(params: Params, normal_speed: float) -> float:
    """The cushion's restitution at an incident normal speed (the centre's, towards the
    cushion) as :class:`Params` documents it: ``e_c`` up to ``e_c_speed``, then falling
    linearly over the next 0.2 m/s by the fraction ``e_c_drop`` of ``e_c``."""
    ramp = min(1.0, max(0.0, (normal_speed - params.e_c_speed) / 0.2))
    return params.e_c * (1 - params.e_c_drop * ramp)


def mathavan_impact(
    state: CushionState, params: Params, e: float | None = None, steps: int = 5000
) -> CushionState:
    """The state just after an impact by Mathavan, Jackson & Parkin (2010), "A theoretical
    analysis of billiard ball dynamics under cushion impacts", Proc. IMechE C 224(9),
    integrated by the paper's own explicit scheme.

    The ball touches the cushion at I, an angle theta above its equator (sin theta =
    (h - R)/R, h = ``params.cushion_height``), and the bed at C; it stays on the bed. The
    independent variable is the normal impulse P at I, in equal steps dp = m u0 / steps
    (about ``steps`` steps a phase). In each step the slip directions at I (in the tangent
    plane at I) and at C (on the cloth) are taken from the current state (the paper's slip
    angles phi and phi'), and the step's impulses are: dp along the normal at I (through
    the centre), Coulomb friction mu_w dp against the slip at I (mu_w = ``params.f_c``),
    the bed's normal impulse that keeps the centre's vertical speed zero (dp sin theta
    plus the vertical part of the friction at I), and friction mu_s times that against the
    slip at C (the paper's eqs. 12-17). A contact whose slip is exactly zero gets no
    friction in that step. Compression lasts until the centre's normal velocity reaches
    zero; restitution until the work of the normal force in it is e^2 times the work in
    compression (the paper's energetic coefficient e_e; ``e`` defaults to
    :func:`restitution` at the incident normal speed). The last step of each phase is cut
    where the phase ends (exactly: the state is linear within a step).

    The scheme converges at first order: at 45 degrees, rolling at 1 m/s, the rebound
    angle with 300 / 1,000 / 5,000 steps is within 0.010 / 0.003 / 0.0005 degrees, and
    the speed ratio within 6e-6 / 2e-6 / 3e-7, of 20,000 steps. Pure Python: 5,000 steps
    take about 20 ms.
    """
    if state.u <= 0:
        raise ValueError("the ball must approach the cushion (u > 0)")
    r, m = params.R, params.m
    k = r / (0.4 * m * r * r)  # R / I
    st = (params.cushion_height - r) / r
    ct = math.sqrt(1 - st * st)
    mu_w, mu_s = params.f_c, params.mu_s
    if e is None:
        e = restitution(params, state.u)
    dp = m * state.u / steps
    u, v, wx, wy, wz = state
    compressing = True
    work = 0.0  # the normal force's work in compression, then in restitution
    target = 0.0
    for _ in range(1000 * steps):
        # slip at I along e1 = Y and e2 = (-sin t, 0, cos t); at C along X and Y
        s1 = v + r * (wz * ct - wx * st)
        s2 = -st * u - r * wy
        sn = math.hypot(s1, s2)
        a1, a2 = (s1 / sn, s2 / sn) if sn > 0 else (0.0, 0.0)
        c1, c2 = u - r * wy, v + r * wx
        cn = math.hypot(c1, c2)
        b1, b2 = (c1 / cn, c2 / cn) if cn > 0 else (0.0, 0.0)
        fw = mu_w * dp  # friction impulse at I
        bed = dp * st + fw * a2 * ct  # the bed's normal impulse
        fs = mu_s * bed  # friction impulse at C
        du = (-ct * dp + fw * a2 * st - fs * b1) / m
        dv = (-fw * a1 - fs * b2) / m
        dwx = k * (fw * st * a1 - fs * b2)
        dwy = k * (fw * a2 + fs * b1)
        dwz = -k * fw * ct * a1
        f = 1.0
        if compressing:
            if u + du <= 0:
                f = u / -du
            work += ct * dp * f * (u + 0.5 * du * f)
        else:
            # work in restitution over a fraction f of the step: ct dp (-u f - du f^2 / 2)
            step_work = ct * dp * -(u + 0.5 * du)
            if work + step_work >= target:
                need = target - work
                qa, qb = -0.5 * du * ct * dp, -u * ct * dp
                if abs(qa) < 1e-300 * abs(qb) or qa == 0:
                    f = need / qb
                else:
                    f = (-qb + math.sqrt(max(0.0, qb * qb + 4 * qa * need))) / (2 * qa)
                    if not 0 <= f <= 1:
                        f = (-qb - math.sqrt(max(0.0, qb * qb + 4 * qa * need))) / (2 * qa)
                work = target
            else:
                work += step_work
        u, v = u + f * du, v + f * dv
        wx, wy, wz = wx + f * dwx, wy + f * dwy, wz + f * dwz
        if compressing and f < 1.0:
            compressing = False
            target = e * e * work
            work = 0.0
        elif not compressing and work >= target:
            return CushionState(u, v, wx, wy, wz)
    raise RuntimeError("the cushion never released the ball")  # pragma: no cover


def _angle_from_cushion(u: float, v: float) -> float:
    """Degrees from the cushion line of a velocity (u along X towards the cushion, v along
    the direction of travel)."""
    return math.degrees(math.atan2(-u, v))


def mathavan_reference(
    alpha: float,
    speed: float = 1.0,
    topspin: float = 1.0,
    side: float = 0.0,
    params: Params | None = None,
    steps: int = 5000,
    e: float | None = None,
) -> Rebound:
    """Mathavan et al.'s rebound (:func:`mathavan_impact`) of a ball arriving at
    incidence ``alpha`` at ``speed`` with ``topspin`` and ``side``; the rolling angle
    follows in closed form (the cloth ends the slide at v - 2/7 of the slip)."""
    params = Params() if params is None else params
    after = mathavan_impact(incident_state(alpha, speed, topspin, side, params.R), params, e, steps)
    u, v, wx, wy, _ = after
    ru, rv = u - 2 / 7 * (u - params.R * wy), v - 2 / 7 * (v + params.R * wx)
    rolling = ru < 0
    return Rebound(
        _angle_from_cushion(u, v),
        math.hypot(u, v) / speed,
        _angle_from_cushion(ru, rv) if rolling else None,
        math.hypot(ru, rv) / speed if rolling else None,
    )


# ------------------------------------------------------------------ engine: cushions

#: Where the cushion experiments hit the top cushion (x), far from the pockets.
_CUSHION_X = 0.6


def arrival_launch(
    speed: float, topspin: float, side: float, distance: float, params: Params
) -> tuple[float, float, float]:
    """The launch (speed, topspin, side) along a straight line that arrives after
    ``distance`` metres with ``speed``, ``topspin`` and ``side``: the cloth's closed forms
    run backwards (a sliding ball's slip keeps its direction; the vertical spin falls at
    ``5 mu_sp g / 2R`` rad/s^2 in every state). Raises ``ValueError`` if no launch
    arrives so (a ball with more than natural topspin gains speed while it slides)."""
    g, r = params.g, params.R
    if topspin == 1.0:
        a = -params.mu_r * g
        v0 = math.sqrt(speed * speed - 2 * a * distance)
        t = (speed - v0) / a
        k0 = 1.0
    else:
        sign = 1.0 if topspin < 1.0 else -1.0  # the slip's sign along the travel
        a = -sign * params.mu_s * g
        square = speed * speed - 2 * a * distance
        if square <= 0:
            raise ValueError("no launch arrives with this topspin")
        v0 = math.sqrt(square)
        t = (speed - v0) / a
        k0 = (topspin * speed - 2.5 * sign * params.mu_s * g * t) / v0
    rate = 2.5 * params.mu_sp * g / r
    side0 = math.copysign(abs(side) * speed + rate * r * t, side) / v0 if side else 0.0
    return v0, k0, side0


def cushion_rebound(
    alpha: float,
    speed: float = 1.0,
    topspin: float = 1.0,
    side: float = 0.0,
    params: Params | None = None,
    table: TableSpec | None = None,
    approach: float = 0.0,
) -> Rebound:
    """The engine's rebound off the top cushion of a ball arriving at incidence ``alpha``
    (degrees from the cushion line) at ``speed`` with ``topspin`` and ``side`` (module
    conventions), measured from its path just after the first impact and once it rolls.

    The ball starts ``approach`` metres before the contact, launched so that the cloth
    brings it there in the intended state (:func:`arrival_launch`); with 0 (the default)
    it starts touching the cushion, and the engine resolves the impact at once with the
    launch state exactly. Ratios are taken to the speed the ball actually had at contact.
    """
    params = Params() if params is None else params
    a = math.radians(alpha)
    cx, cy = _CUSHION_X, _table.LENGTH - params.R
    v0, k0, s0 = arrival_launch(speed, topspin, side, approach, params)
    dx, dy = math.cos(a), math.sin(a)
    r = params.R
    # travelling +x into the top cushion: running side spins anticlockwise seen from above
    launch = Launch((v0 * dx, v0 * dy), (-k0 * v0 * dy / r, k0 * v0 * dx / r, s0 * v0 / r))
    result = simulate(
        {"white": (cx - approach * dx, cy - approach * dy)}, "white", launch, params, table
    )
    hit = next(e for e in result.events if e.kind is EventKind.CUSHION)
    if hit.cushion != "top":
        raise RuntimeError(f"the ball met {hit.cushion} first")
    pieces = result.paths["white"]
    k = max(i for i, s in enumerate(pieces) if s.t0 == hit.t)
    before = [s for s in pieces if s.t1 == hit.t and s.t0 < hit.t]
    incident = math.hypot(*_velocity(before[-1], hit.t)) if before else speed
    after = pieces[k]
    vx, vy = after.v0
    later = [e for e in result.events if e.t > hit.t or (e.t == hit.t and e is not hit)]
    nxt = next((e for e in later if "white" in e.balls), None)
    rolling_angle = rolling_ratio = None
    if nxt is not None and nxt.kind is EventKind.SLIDE_ROLL and k + 1 < len(pieces):
        rx, ry = pieces[k + 1].v0
        if ry < 0:
            rolling_angle = _angle_from_cushion(ry, rx)
            rolling_ratio = math.hypot(rx, ry) / incident
    return Rebound(
        _angle_from_cushion(vy, vx), math.hypot(vx, vy) / incident, rolling_angle, rolling_ratio
    )


def _velocity(seg: Segment, t: float) -> Vec2:
    s = t - seg.t0
    return (seg.v0[0] + seg.a[0] * s, seg.v0[1] + seg.a[1] * s)


def _position(seg: Segment, t: float) -> Vec2:
    s = t - seg.t0
    return (
        seg.p0[0] + seg.v0[0] * s + 0.5 * seg.a[0] * s * s,
        seg.p0[1] + seg.v0[1] * s + 0.5 * seg.a[1] * s * s,
    )


# ------------------------------------------------------------------ slide and roll

#: An open table, 5 m square (the largest :class:`TableSpec` allows): the straight runs
#: cross it along its diagonal (a ball rolling from 1 m/s on the old cloth runs 5.1 m,
#: longer than the 12 ft bed), and the screw shots across it. The cloth's motion does not
#: depend on the table's size.
OPEN_TABLE = TableSpec(width=5.0, length=5.0, baulk_y=1.0)
_RUN_START = (0.5, 0.5)
_DIAGONAL = (math.sqrt(0.5), math.sqrt(0.5))


@dataclass(frozen=True, slots=True)
class SlideRoll:
    """A straight run from a launch with topspin ``k`` (0: stun) at ``v0``.

    ``time_to_roll``, ``distance_to_roll``, ``speed_at_roll``: when the ball stops
    sliding (0, 0, ``v0`` for a rolling launch); ``sliding_deceleration`` and
    ``rolling_deceleration`` (m/s^2): the slowing of its path in each state (``None``
    for a state it was never in); ``distance_to_rest`` and ``time_to_rest``."""

    time_to_roll: float
    distance_to_roll: float
    speed_at_roll: float
    sliding_deceleration: float | None
    rolling_deceleration: float | None
    distance_to_rest: float
    time_to_rest: float


def _straight_run(v0: float, topspin: float, params: Params) -> ShotResult:
    r, (dx, dy) = params.R, _DIAGONAL
    w = topspin * v0 / r
    launch = Launch((v0 * dx, v0 * dy), (-w * dy, w * dx, 0.0))
    return simulate({"white": _RUN_START}, "white", launch, params, OPEN_TABLE)


def _along(p: Vec2) -> float:
    """Distance from the start of the straight runs along their line."""
    return (p[0] - _RUN_START[0]) * _DIAGONAL[0] + (p[1] - _RUN_START[1]) * _DIAGONAL[1]


def slide_and_roll(v0: float, topspin: float = 0.0, params: Params | None = None) -> SlideRoll:
    """The engine's straight run of a ball launched at ``v0`` with ``topspin`` across the
    open table (:data:`OPEN_TABLE`); up to 1.2 m/s, so that it stops on the table."""
    params = Params() if params is None else params
    result = _straight_run(v0, topspin, params)
    if any(e.kind in (EventKind.CUSHION, EventKind.POCKET) for e in result.events):
        raise RuntimeError("the run met a cushion: launch it slower")
    pieces = result.paths["white"]
    sliding = rolling = None
    t_roll, d_roll, v_roll = 0.0, 0.0, v0
    for seg in pieces:
        if seg.t1 == seg.t0:
            continue
        v = math.hypot(*seg.v0)
        slip = math.hypot(seg.v0[0] - params.R * seg.w0[1], seg.v0[1] + params.R * seg.w0[0])
        deceleration = math.hypot(*seg.a)
        if slip > 1e-9 * max(v, 1.0):
            sliding = deceleration
        elif v > 0:
            if rolling is None:
                t_roll = seg.t0
                d_roll = _along(seg.p0)
                v_roll = v
            rolling = deceleration
    rest = result.rest["white"]
    assert rest is not None
    return SlideRoll(t_roll, d_roll, v_roll, sliding, rolling, _along(rest), result.duration)


def slide_and_roll_closed_form(
    v0: float,
    topspin: float = 0.0,
    params: Params | None = None,
    sliding: float | None = None,
    rolling: float | None = None,
) -> SlideRoll:
    """The straight run in closed form (Leckie & Greenspan's motion; the engine's model):
    the slip u0 = (1 - k) v0 falls at 7/2 of the sliding deceleration ``sliding``
    (default ``mu_s g``), so the slide lasts 2 |u0| / (7 a_s) and ends at v0 - 2/7 u0;
    the roll then slows at ``rolling`` (default ``mu_r g``). Passing the measured
    decelerations gives the run on the real cloth."""
    params = Params() if params is None else params
    a_s = params.mu_s * params.g if sliding is None else sliding
    a_r = params.mu_r * params.g if rolling is None else rolling
    u0 = (1 - topspin) * v0
    t_s = 2 * abs(u0) / (7 * a_s)
    sign = math.copysign(1.0, u0)
    d_s = v0 * t_s - 0.5 * sign * a_s * t_s * t_s
    v_r = v0 - 2 / 7 * u0
    return SlideRoll(
        t_s,
        d_s,
        v_r,
        a_s if u0 else None,
        a_r,
        d_s + v_r * v_r / (2 * a_r),
        t_s + v_r / a_r,
    )


def run_profile(
    v0: float, topspin: float, times: Sequence[float], params: Params | None = None
) -> list[tuple[float, float]]:
    """The engine's straight run sampled at ``times``: (distance from the start, speed)."""
    params = Params() if params is None else params
    pieces = _straight_run(v0, topspin, params).paths["white"]
    out = []
    for t in times:
        seg = next((s for s in pieces if s.t0 <= t <= s.t1), pieces[-1])
        t = min(t, seg.t1)
        out.append((_along(_position(seg, t)), math.hypot(*_velocity(seg, t))))
    return out


# ------------------------------------------------------------------ ball-ball: closed forms


def _cross(a: Vec3, b: Vec3) -> Vec3:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def ball_friction(params: Params, slip: float) -> float:
    """The engine's ball-ball friction at a sliding speed between the ball surfaces
    (Alciatore, TP A-14's fit): ``mu_b_a + mu_b_b exp(-mu_b_c slip)``."""
    return params.mu_b_a + params.mu_b_b * math.exp(-params.mu_b_c * slip)


def collide(v1: Vec3, w1: Vec3, n: Vec3, params: Params) -> tuple[Vec3, Vec3, Vec3, Vec3]:
    """A moving ball (velocity ``v1``, spin ``w1``) meeting a ball at rest along the line
    of centres ``n`` (unit, horizontal), by the impulse model of Alciatore's TP A-14 with
    restitution: a normal impulse (1 + e_b)/2 m v.n, friction at the contact against the
    slip ``(v1 - v1.n n) + R w1 x n`` with ``mu`` = :func:`ball_friction` of its speed,
    limited to stopping it (m |slip| / 7 for two equal balls). Returns both balls'
    velocities and spins just after (vertical velocities dropped: the bed takes them)."""
    m, r = params.m, params.R
    vn = v1[0] * n[0] + v1[1] * n[1] + v1[2] * n[2]
    jn = 0.5 * m * (1 + params.e_b) * max(vn, 0.0)
    rw = _cross(w1, n)
    slip = tuple(v1[i] - vn * n[i] + r * rw[i] for i in range(3))
    s = math.sqrt(sum(x * x for x in slip))
    jt = min(ball_friction(params, s) * jn, m * s / 7) if s > 0 else 0.0
    imp = tuple(-jn * n[i] - (jt * slip[i] / s if s > 0 else 0.0) for i in range(3))
    p: Vec3 = (imp[0], imp[1], imp[2])
    torque = _cross(n, p)  # R n x P over I = 2/5 m R^2
    k = 2.5 / (m * r)
    dw: Vec3 = (k * torque[0], k * torque[1], k * torque[2])
    cue_v: Vec3 = (v1[0] + p[0] / m, v1[1] + p[1] / m, 0.0)
    obj_v: Vec3 = (-p[0] / m, -p[1] / m, 0.0)
    cue_w: Vec3 = (w1[0] + dw[0], w1[1] + dw[1], w1[2] + dw[2])
    return cue_v, cue_w, obj_v, dw


def cut_state(cut: float, speed: float, topspin: float, radius: float) -> tuple[Vec3, Vec3, Vec3]:
    """A cue ball travelling +x at ``speed`` with ``topspin``, and the line of centres at
    ``cut`` degrees to its right (the object ball goes off to the right)."""
    c = math.radians(cut)
    w = (0.0, topspin * speed / radius, 0.0)
    return (speed, 0.0, 0.0), w, (math.cos(c), -math.sin(c), 0.0)


def throw_closed_form(
    cut: float, speed: float, topspin: float = 0.0, params: Params | None = None
) -> float:
    """Cut-induced throw in degrees (Alciatore, TP A-14, eq. for a stun or a rolling cue
    ball without side, with the restitution e_b): with the slip
    ``v_rel = sqrt((v sin c)^2 + (k v cos c)^2)``,
    ``tan(throw) = min(mu(v_rel), 2 v_rel / (7 (1 + e_b) v cos c)) v sin c / v_rel``.
    Positive: the object ball turns towards the cue ball's path."""
    params = Params() if params is None else params
    c = math.radians(cut)
    tangential = speed * math.sin(c)
    v_rel = math.hypot(tangential, topspin * speed * math.cos(c))
    if v_rel == 0:
        return 0.0
    limit = 2 * v_rel / (7 * (1 + params.e_b) * speed * math.cos(c))
    return math.degrees(math.atan(min(ball_friction(params, v_rel), limit) * tangential / v_rel))


def separation_angle_closed_form(
    cut: float, speed: float = 1.0, params: Params | None = None, friction: bool = True
) -> float:
    """The 90-degree rule with restitution: the angle between a stun cue ball's and the
    object ball's directions just after a cut (:func:`collide`). Without friction it is
    ``90 - atan((1 - e_b)/2 cot c)`` degrees; with it, throw turns both a little."""
    params = Params() if params is None else params
    if not friction:
        c = math.radians(cut)
        return 90.0 - math.degrees(math.atan((1 - params.e_b) / 2 / math.tan(c)))
    v1, w1, n = cut_state(cut, speed, 0.0, params.R)
    cue_v, _, obj_v, _ = collide(v1, w1, n, params)
    return _between(cue_v, obj_v)


def _between(a: Sequence[float], b: Sequence[float]) -> float:
    return abs(math.degrees(math.atan2(a[0] * b[1] - a[1] * b[0], a[0] * b[0] + a[1] * b[1])))


def rolling_deflection_closed_form(
    cut: float, speed: float = 1.0, params: Params | None = None
) -> float:
    """The 30-degree rule with the engine's restitution and friction: a rolling cue
    ball's final deflection from its line (degrees) once the cloth makes it roll again
    after the cut (:func:`collide`, then v - 2/7 of the slip)."""
    params = Params() if params is None else params
    v1, w1, n = cut_state(cut, speed, 1.0, params.R)
    cue_v, cue_w, _, _ = collide(v1, w1, n, params)
    r = params.R
    ux, uy = cue_v[0] - r * cue_w[1], cue_v[1] + r * cue_w[0]
    fx, fy = cue_v[0] - 2 / 7 * ux, cue_v[1] - 2 / 7 * uy
    return _between((1.0, 0.0), (fx, fy))


def screw_back_closed_form(speed: float, topspin: float, params: Params | None = None) -> float:
    """How far a cue ball comes back (metres, from its centre at contact; negative: it
    follows through) after a full-ball hit at ``speed`` with ``topspin`` (< 0: backspin),
    in closed form: the impulse of :func:`collide` (the cue ball keeps (1 - e_b)/2 of its
    speed; the friction of the vertical slip k v at the contact takes some backspin off),
    then the slide (the slip falls at 7/2 mu_s g; the ball ends at v - 2/7 of the slip)
    and the roll back at mu_r g."""
    params = Params() if params is None else params
    v1, w1, n = cut_state(0.0, speed, topspin, params.R)
    cue_v, cue_w, _, _ = collide(v1, w1, n, params)
    v, u = cue_v[0], cue_v[0] - params.R * cue_w[1]
    a_s, a_r = params.mu_s * params.g, params.mu_r * params.g
    t_s = 2 * abs(u) / (7 * a_s)
    x_s = v * t_s - 0.5 * math.copysign(a_s, u) * t_s * t_s
    v_r = v - 2 / 7 * u
    return -(x_s + math.copysign(v_r * v_r / (2 * a_r), v_r))


# ------------------------------------------------------------------ ball-ball: the engine

#: Where the cut experiments happen: the object ball, in the open.
_OBJECT = (0.889, 1.4)


@dataclass(frozen=True, slots=True)
class Cut:
    """A cut measured on the engine's paths: the ``throw`` (degrees, positive towards the
    cue ball's path), the ``separation`` between the balls' directions just after, the
    cue ball's final ``deflection`` from its line once it rolls again (``None`` if it met
    something first) and the object ball's speed over the cue ball's."""

    throw: float
    separation: float
    deflection: float | None
    object_speed_ratio: float


def cut_shot(cut: float, speed: float, topspin: float = 0.0, params: Params | None = None) -> Cut:
    """The engine's cut: a cue ball touching the object ball, moving up the table at
    ``speed`` with ``topspin``, the line of centres ``cut`` degrees to its right. The
    collision is resolved at once with the launch state exactly."""
    params = Params() if params is None else params
    r = params.R
    c = math.radians(cut)
    # travelling +y; the line of centres turned `cut` to the right (towards +x)
    nx, ny = math.sin(c), math.cos(c)
    cue = (_OBJECT[0] - 2 * r * nx, _OBJECT[1] - 2 * r * ny)
    launch = Launch((0.0, speed), (-topspin * speed / r, 0.0, 0.0))
    result = simulate({"red": _OBJECT, "white": cue}, "white", launch, params)
    hit = result.events[0]
    if hit.kind is not EventKind.BALL_BALL:
        raise RuntimeError("the cut missed")
    white = [s for s in result.paths["white"] if s.t0 == hit.t]
    red = [s for s in result.paths["red"] if s.t0 == hit.t]
    cue_v, obj_v = white[-1].v0, red[-1].v0
    # throw: from the line of centres towards the cue ball's path (+y), i.e. anticlockwise
    throw = math.degrees(math.atan2(nx * obj_v[1] - ny * obj_v[0], nx * obj_v[0] + ny * obj_v[1]))
    deflection = None
    later = [e for e in result.events[1:] if "white" in e.balls]
    if later and later[0].kind is EventKind.SLIDE_ROLL:
        seg = next(s for s in reversed(result.paths["white"]) if s.t0 == later[0].t)
        deflection = _between((0.0, 1.0), seg.v0)
    return Cut(throw, _between(cue_v, obj_v), deflection, math.hypot(*obj_v) / speed)


def screw_back(speed: float, topspin: float, params: Params | None = None) -> float:
    """The engine's screw-back: how far the cue ball comes back (metres, from its centre
    at contact; negative: it follows through) after a full-ball hit at ``speed`` with
    ``topspin`` (< 0: backspin). The cue ball starts touching the object ball, whose
    path runs straight into a middle pocket of :data:`OPEN_TABLE` so it never returns;
    the cue ball has 4.6 m behind it."""
    params = Params() if params is None else params
    r = params.R
    spec = OPEN_TABLE
    y = spec.length / 2
    red = (spec.width - 0.3, y)
    white = (red[0] - 2 * r, y)
    launch = Launch((speed, 0.0), (0.0, topspin * speed / r, 0.0))
    result = simulate({"red": red, "white": white}, "white", launch, params, spec)
    if result.rest["red"] is not None:
        raise RuntimeError("the object ball was not potted")
    if any(e.kind is EventKind.CUSHION and "white" in e.balls for e in result.events):
        raise RuntimeError("the cue ball reached a cushion: too much screw for the table")
    rest = result.rest["white"]
    if rest is None:
        raise RuntimeError("the cue ball was potted")
    return white[0] - rest[0]


# ------------------------------------------------------------------ pockets


@dataclass(frozen=True, slots=True)
class PocketWindow:
    """The offsets (metres, perpendicular to the path, from the line through the middle
    of the mouth; positive to the left of the travel) of the paths that pot: the
    contiguous run ``low..high`` through the best path. ``size`` is Alciatore's
    effective target size."""

    low: float
    high: float

    @property
    def size(self) -> float:
        return self.high - self.low


def pocket(name: str, table: TableSpec | None = None) -> PocketShape:
    """A pocket of the table by its name (``onered.table.POCKET_NAMES``)."""
    spec = TableSpec() if table is None else table
    return next(p for p in spec.geometry().pockets if p.name == name)


def mouth_width(name: str, table: TableSpec | None = None) -> float:
    """The distance between a pocket's jaw points (Alciatore's p, point to point)."""
    a, b = pocket(name, table).jaw_points
    return math.dist(a, b)


def pots(
    name: str,
    angle: float,
    offset: float,
    speed: float,
    params: Params | None = None,
    table: TableSpec | None = None,
    distance: float = 0.5,
) -> bool:
    """Whether a ball rolling at ``angle`` degrees from the pocket's axis, on the path
    ``offset`` metres from the middle of the mouth, pots into pocket ``name``. It starts
    ``distance`` metres before the mouth (along its path) and is launched rolling so that
    it would reach the mouth at ``speed``; a path that does not start on the table (it
    would come out of a cushion) does not pot."""
    params = Params() if params is None else params
    shape = pocket(name, table)
    (ax, ay), (bx, by) = shape.jaw_points
    mx, my = (ax + bx) / 2, (ay + by) / 2
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    dx, dy = shape.axis[0] * c - shape.axis[1] * s, shape.axis[0] * s + shape.axis[1] * c
    start = (mx - distance * dx - offset * dy, my - distance * dy + offset * dx)
    v0 = math.sqrt(speed * speed + 2 * params.mu_r * params.g * distance)
    launch = Launch((v0 * dx, v0 * dy), (-v0 * dy / params.R, v0 * dx / params.R, 0.0))
    try:
        shot = simulate_compact({"white": start}, "white", [launch], params, table).shots[0]
    except PhysicsInputError:  # the start is not on the table
        return False
    if shot.rest[0] is not None:
        return False
    return any(e[1] == _POCKET_CODE and _table.POCKET_NAMES[e[5]] == name for e in shot.events)


_POCKET_CODE = list(EventKind).index(EventKind.POCKET)


def pocket_window(
    name: str,
    angle: float,
    speed: float,
    params: Params | None = None,
    table: TableSpec | None = None,
    distance: float = 0.5,
    step: float = 0.002,
    tolerance: float = 1e-5,
) -> PocketWindow:
    """The offsets that pot (:func:`pots`) at ``angle`` and ``speed``: a coarse scan
    every ``step`` metres finds the run of potting paths through the middle of the mouth
    (or the longest run), then bisection places each edge within ``tolerance``. The scan
    reaches a ball's radius beyond each jaw point, and as far again as a path from
    ``distance`` away can come in at ``angle`` (paths that meet a cushion first)."""
    radius = (Params() if params is None else params).R
    reach = distance * math.sin(math.radians(abs(angle)))
    half = mouth_width(name, table) / 2 + radius + reach

    def ok(b: float) -> bool:
        return pots(name, angle, b, speed, params, table, distance)

    n = math.ceil(half / step)
    grid = [k * step for k in range(-n, n + 1)]
    hits = [ok(b) for b in grid]
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(grid):
        if hits[k]:
            j = k
            while j + 1 < len(grid) and hits[j + 1]:
                j += 1
            runs.append((k, j))
            k = j + 1
        else:
            k += 1
    if not runs:
        return PocketWindow(0.0, 0.0)
    middle = [r for r in runs if r[0] <= n <= r[1]]
    first, last = middle[0] if middle else max(runs, key=lambda r: r[1] - r[0])

    def edge(inside: float, outside: float) -> float:
        while abs(outside - inside) > tolerance:
            mid = 0.5 * (inside + outside)
            if ok(mid):
                inside = mid
            else:
                outside = mid
        return inside

    low = edge(grid[first], grid[first] - step) if first > 0 else grid[first]
    high = edge(grid[last], grid[last] + step) if last < len(grid) - 1 else grid[last]
    return PocketWindow(low, high)


def rail_run_pots(
    speed: float,
    params: Params | None = None,
    table: TableSpec | None = None,
    distance: float = 0.5,
) -> bool:
    """Whether a ball rolling frozen along the bottom cushion (its centre R from the nose)
    into the bottom-right corner pots: it starts ``distance`` metres before the pocket's
    jaw point on that cushion and reaches the jaw point at ``speed``. The path runs at
    45 degrees to the pocket's axis; the far jaw turns it in, or out."""
    params = Params() if params is None else params
    jaw = min(pocket("bottom_right", table).jaw_points, key=lambda p: p[1])
    v0 = math.sqrt(speed * speed + 2 * params.mu_r * params.g * distance)
    start = (jaw[0] - distance, params.R)
    launch = Launch((v0, 0.0), (0.0, v0 / params.R, 0.0))
    shot = simulate_compact({"white": start}, "white", [launch], params, table).shots[0]
    return shot.rest[0] is None and any(
        e[1] == _POCKET_CODE and _table.POCKET_NAMES[e[5]] == "bottom_right" for e in shot.events
    )


def clean_window(name: str, params: Params | None = None, table: TableSpec | None = None) -> float:
    """Half the window of a straight path into a pocket that clears both jaw points:
    p/2 - R (the ball touches nothing before the mouth line)."""
    r = (Params() if params is None else params).R
    return mouth_width(name, table) / 2 - r


def straight_pot_window(
    speed: float,
    params: Params | None = None,
    table: TableSpec | None = None,
    distance: float = 0.6,
) -> PocketWindow:
    """The straight pot into a corner along its 45-degree axis from ``distance`` metres
    (a rolling ball reaching the mouth at ``speed``): the offsets that still pot."""
    return pocket_window("bottom_left", 0.0, speed, params, table, distance)


def legacy() -> tuple[Params, TableSpec]:
    """The engine before the real table (``ENGINE_VERSION`` < 3): its parameters and
    pockets, for the page's "before" columns."""
    return LEGACY_DEFAULTS, LEGACY_TABLE


# ------------------------------------------------------------------ flight

#: A rebound off the slate no faster than this (m/s) settles: the ball stays on the bed (the
#: engine's threshold, ``kernel.c``; a hop of 0.13 mm).
SETTLE_SPEED = 0.05
#: Where the flight experiments start on :data:`OPEN_TABLE`: strokes go along +x, with
#: 4.5 m of bed before the far cushion.
FLIGHT_START: Vec2 = (0.5, 2.5)


@dataclass(frozen=True, slots=True)
class Flight:
    """One flight of a ball, from leaving the slate (time ``t0``, centre over ``start``)
    to coming down on it (``t1``, ``end``): ``vz`` is its vertical speed leaving the slate,
    ``apex`` the greatest height of its lowest point above the slate, ``v`` its horizontal
    velocity in the air (constant: no drag)."""

    t0: float
    t1: float
    start: Vec2
    end: Vec2
    vz: float
    apex: float
    v: Vec2

    @property
    def distance(self) -> float:
        """How far the centre travels horizontally in the flight (m)."""
        return math.dist(self.start, self.end)

    @property
    def angle(self) -> float:
        """The launch angle: the flight's initial direction above the horizontal (deg)."""
        return math.degrees(math.atan2(self.vz, math.hypot(*self.v)))


def slate_bounce(v: Vec2, w: Vec3, vz: float, params: Params) -> tuple[Vec2, Vec3, float]:
    """The slate's answer to a ball meeting it with horizontal velocity ``v``, spin ``w``
    and vertical velocity ``vz < 0``, in closed form (the model of ``engine.py``): the
    vertical speed comes back at ``e_table`` of itself (zero up to :data:`SETTLE_SPEED`:
    the ball stays on the bed); the cloth's friction ``mu_s`` times the normal impulse
    ``m (1 + e_table) |vz|`` acts at the contact point against its slip
    ``u = v + R z x w``, limited to stopping the slip (``2 m |u| / 7``), and turns the
    ball through the torque of the contact point, ``R`` below the centre."""
    e, r = params.e_table, params.R
    ux, uy = v[0] - r * w[1], v[1] + r * w[0]
    slip = math.hypot(ux, uy)
    push = (1 + e) * -vz  # the normal impulse over m
    change = min(params.mu_s * push, 2 * slip / 7) if slip > 0 else 0.0
    fx, fy = (-change * ux / slip, -change * uy / slip) if slip > 0 else (0.0, 0.0)
    k = 2.5 / r  # the torque of (fx, fy) at -R z, over I / m
    out = -e * vz
    return (
        (v[0] + fx, v[1] + fy),
        (w[0] + k * fy, w[1] - k * fx, w[2]),
        out if out > SETTLE_SPEED else 0.0,
    )


def flights_closed_form(
    v: Vec2, w: Vec3, vz: float, params: Params | None = None, start: Vec2 = FLIGHT_START
) -> list[Flight]:
    """Every flight of a ball launched from the slate at ``start`` with ``v``, ``w`` and
    ``vz`` (``vz < 0``: driven into the slate first, as by an elevated cue), on an open
    bed: projectiles (the lowest point at ``vz t - g t^2 / 2``, apex ``vz^2 / 2g``, time
    ``2 vz / g``, the centre moving uniformly), each landing a :func:`slate_bounce`, until
    a rebound settles. The spin is kept in the air."""
    params = Params() if params is None else params
    g = params.g
    if vz < 0:
        v, w, vz = slate_bounce(v, w, vz, params)
    out: list[Flight] = []
    t, p = 0.0, start
    while vz > 0:
        span = 2 * vz / g
        end = (p[0] + v[0] * span, p[1] + v[1] * span)
        out.append(Flight(t, t + span, p, end, vz, vz * vz / (2 * g), v))
        t, p = t + span, end
        v, w, vz = slate_bounce(v, w, -vz, params)
    return out


def flights(path: Sequence[Segment]) -> list[Flight]:
    """The engine's free flights on a ball's path: runs of airborne pieces that leave the
    slate (``z0 = 0``) and come down on it again, joined where an event left the motion
    unchanged (an ``over``, say); a run whose horizontal velocity changes in the air (a
    cushion, a ball) is no free flight and is left out."""
    out: list[Flight] = []
    runs: list[list[Segment]] = []
    for seg in path:
        if not seg.airborne or seg.t1 == seg.t0:
            runs.append([])
        elif seg.z0 == 0.0 or not runs or not runs[-1]:
            runs.append([seg])
        else:
            runs[-1].append(seg)
    for k, run in enumerate(runs):
        if not run or run[0].z0 != 0.0 or any(s.v0 != run[0].v0 for s in run):
            continue
        landed = k + 1 < len(runs) or run[-1] is not path[-1]
        if landed:
            out.append(_flight(run))
    return out


def _flight(pieces: Sequence[Segment]) -> Flight:
    first, last = pieces[0], pieces[-1]
    apex = max(
        s.z0 + s.vz * s.vz / (2 * -s.az) if 0 < s.vz < -s.az * (s.t1 - s.t0) else s.height_at(s.t1)
        for s in pieces
    )
    return Flight(
        first.t0, last.t1, first.p0, last.at(last.t1), first.vz, max(apex, first.z0), first.v0
    )


def jump_launch(speed: float, elevation: float) -> Launch:
    """A centre-ball stroke along +x at ``speed`` (m/s) with the cue ``elevation`` degrees
    above the bed (``onered.physics.cue.strike_to_launch``: the ball leaves along the cue,
    without spin, its vertical part down into the slate)."""
    a = math.radians(elevation)
    return Launch((speed * math.cos(a), 0.0), (0.0, 0.0, 0.0), -speed * math.sin(a))


def jump_closed_form(speed: float, elevation: float, params: Params | None = None) -> Flight | None:
    """The first flight of a centre-ball jump stroke (:func:`jump_launch`) in closed form:
    the slate returns ``e v sin(a)`` upwards, friction takes ``min(mu_s (1 + e) v sin(a),
    2/7 v cos(a))`` off the horizontal ``v cos(a)``; ``None`` if the ball never leaves
    the slate."""
    launch = jump_launch(speed, elevation)
    out = flights_closed_form(launch.v, launch.w, launch.vz, params)
    return out[0] if out else None


def jump(
    speed: float,
    elevation: float,
    params: Params | None = None,
    obstacle: float | None = None,
) -> ShotResult:
    """The engine's centre-ball jump stroke from :data:`FLIGHT_START` along +x on
    :data:`OPEN_TABLE`; with ``obstacle``, a red rests that many metres ahead (centre to
    centre) on the stroke's line."""
    balls = {"white": FLIGHT_START}
    if obstacle is not None:
        balls["red"] = (FLIGHT_START[0] + obstacle, FLIGHT_START[1])
    return simulate(balls, "white", jump_launch(speed, elevation), params, OPEN_TABLE)


def jump_flight(speed: float, elevation: float, params: Params | None = None) -> Flight | None:
    """The engine's first flight of a centre-ball jump stroke (``None``: it never flew)."""
    out = flights(jump(speed, elevation, params).paths["white"])
    return out[0] if out else None


def closest_approach(flight: Flight, distance: float) -> float:
    """How close (centre to centre, m) a ball in ``flight`` (along +x) comes to a ball
    resting on the slate ``distance`` ahead of where the flight starts, before it lands:
    the minimum of ``(x - d)^2 + z^2`` (both balls' centres, ``z`` the flight's lowest
    point) over the flight, a quartic in time whose stationary points are found by
    bisection on the sign changes of its derivative (2,000 intervals, then to the last
    bit)."""
    vh, vz, g = math.hypot(*flight.v), flight.vz, 2 * flight.vz / (flight.t1 - flight.t0)

    def gap(t: float) -> float:
        return (vh * t - distance) ** 2 + (vz * t - 0.5 * g * t * t) ** 2

    def slope(t: float) -> float:
        z = vz * t - 0.5 * g * t * t
        return 2 * (vh * t - distance) * vh + 2 * z * (vz - g * t)

    span = flight.t1 - flight.t0
    grid = [span * k / 2000 for k in range(2001)]
    best = min(gap(0.0), gap(span))
    for a, b in itertools.pairwise(grid):
        if slope(a) < 0 <= slope(b):
            for _ in range(200):
                mid = 0.5 * (a + b)
                if slope(mid) < 0:
                    a = mid
                else:
                    b = mid
                if b - a <= 1e-15 * span:
                    break
            best = min(best, gap(a), gap(b))
    return math.sqrt(best)


def clears_closed_form(
    speed: float, elevation: float, distance: float, params: Params | None = None
) -> bool:
    """Whether a centre-ball jump stroke (closed form) passes over a ball resting
    ``distance`` ahead (centre to centre) in its first flight without touching it, and
    comes down beyond it: the centres stay at least 2R apart in the flight
    (:func:`closest_approach`) and the landing is more than 2R past the obstacle."""
    params = Params() if params is None else params
    flight = jump_closed_form(speed, elevation, params)
    if flight is None or flight.distance <= distance + 2 * params.R:
        return False
    return closest_approach(flight, distance) >= 2 * params.R


def clears(speed: float, elevation: float, distance: float, params: Params | None = None) -> bool:
    """Whether the engine's jump stroke passes over a red ``distance`` ahead: an ``over``
    event (white above red) and no contact between them before the white first lands. A
    stroke the engine cannot finish (a ball coming down on top of the other bounces
    there without end: ``PhysicsError``) does not clear."""
    try:
        result = jump(speed, elevation, params, obstacle=distance)
    except PhysicsError:
        return False
    over = False
    for e in result.events:
        if e.kind is EventKind.OVER and e.balls == ("white", "red"):
            over = True
        elif e.kind is EventKind.BALL_BALL and set(e.balls) == {"white", "red"}:
            return False
        elif e.kind is EventKind.LAND and e.balls == ("white",):
            return over
    return False


def minimum_elevation(
    speed: float,
    distance: float,
    params: Params | None = None,
    engine: bool = True,
    tolerance: float = 1e-4,
) -> float | None:
    """The lowest cue elevation (degrees) at which a centre-ball stroke at ``speed``
    jumps a ball ``distance`` ahead (:func:`clears` on the engine, or
    :func:`clears_closed_form`): a scan every degree up to 80 finds the first that
    clears, bisection the edge within ``tolerance``. ``None`` if none does."""
    test = clears if engine else clears_closed_form

    def ok(a: float) -> bool:
        return test(speed, a, distance, params)

    low = 0.0
    for a in range(1, 81):
        if ok(float(a)):
            high = float(a)
            while high - low > tolerance:
                mid = 0.5 * (low + high)
                if ok(mid):
                    high = mid
                else:
                    low = mid
            return high
        low = float(a)
    return None


def minimum_speed(
    elevation: float,
    distance: float,
    params: Params | None = None,
    tolerance: float = 1e-4,
    top: float = 10.0,
) -> float | None:
    """The slowest centre-ball stroke (m/s, up to ``top``) at ``elevation`` that jumps a
    ball ``distance`` ahead in closed form (:func:`clears_closed_form`; clearing is
    monotonic in speed at a fixed elevation: the flight only stretches), or ``None``."""
    if not clears_closed_form(top, elevation, distance, params):
        return None
    low, high = 0.0, top
    while high - low > tolerance:
        mid = 0.5 * (low + high)
        if clears_closed_form(mid, elevation, distance, params):
            high = mid
        else:
            low = mid
    return high


# ------------------------------------------------------------------ flight: energy


def ball_energy(seg: Segment, t: float, params: Params) -> float:
    """A ball's mechanical energy on ``seg`` at ``t`` (J): translation (the vertical part
    included), rotation about every axis, and the height of its centre above where it
    stands on the slate (``m g z``)."""
    s = t - seg.t0
    vx, vy = seg.v0[0] + seg.a[0] * s, seg.v0[1] + seg.a[1] * s
    vz = seg.vz + seg.az * s
    wx, wy = seg.w0[0] + seg.dw[0] * s, seg.w0[1] + seg.dw[1] * s
    wz = seg.w0[2] + seg.dw[2] * s
    if seg.w0[2] * wz <= 0:
        wz = 0.0
    m = params.m
    spin = 0.2 * m * params.R**2 * (wx * wx + wy * wy + wz * wz)
    return 0.5 * m * (vx * vx + vy * vy + vz * vz) + spin + m * params.g * seg.height_at(t)


def _energy_side(path: Sequence[Segment], t: float, params: Params, after: bool) -> float:
    """A ball's energy just before (or just after) ``t``: from the last piece ending at
    ``t`` (or starting there); 0 for a ball at rest then."""
    if after:
        pieces = [s for s in path if s.t0 <= t < s.t1 or s.t0 == t]
    else:
        pieces = [s for s in path if s.t0 < t <= s.t1]
    return ball_energy(pieces[-1], t, params) if pieces else 0.0


@dataclass(frozen=True, slots=True)
class EnergyStep:
    """The table's energy (J) just before and just after the events at time ``t``, with
    the kinds of those events."""

    t: float
    kinds: tuple[EventKind, ...]
    before: float
    after: float


def energy_steps(
    result: ShotResult,
    params: Params | None = None,
    kinds: frozenset[EventKind] | None = None,
    launch_energy: float | None = None,
) -> list[EnergyStep]:
    """The energy of all balls across every instant with an event (of ``kinds``, default
    all): impulses act only at such instants, between them only the cloth's friction
    works. With ``launch_energy`` (the launch's), ``t = 0`` is always among them, with
    that energy before: the slate's answer to the cue is at ``t = 0``, with or without
    an event."""
    params = Params() if params is None else params
    times: dict[float, list[EventKind]] = {} if launch_energy is None else {0.0: []}
    for e in result.events:
        if kinds is None or e.kind in kinds:
            times.setdefault(e.t, []).append(e.kind)
    out = []
    for t, at in times.items():
        before = sum(_energy_side(p, t, params, False) for p in result.paths.values())
        if t == 0.0 and launch_energy is not None:
            before = launch_energy
        after = sum(_energy_side(p, t, params, True) for p in result.paths.values())
        out.append(EnergyStep(t, tuple(at), before, after))
    return out


def launch_energy(launch: Launch, params: Params | None = None) -> float:
    """The kinetic energy (J) a launch gives the ball (its vertical speed included)."""
    params = Params() if params is None else params
    (vx, vy), (wx, wy, wz), vz = launch.v, launch.w, launch.vz
    m = params.m
    spin = 0.2 * m * params.R**2 * (wx * wx + wy * wy + wz * wz)
    return 0.5 * m * (vx * vx + vy * vy + vz * vz) + spin


def nose_shot(
    speed: float, height: float, params: Params | None = None, start: float = 0.3
) -> tuple[Launch, ShotResult]:
    """A rolling ball lobbed at the top cushion from ``start`` metres before its nose line
    so that its lowest point is ``height`` metres above the slate when it arrives: between
    ``cushion_height - R`` and ``cushion_height`` it meets the nose edge in the air."""
    params = Params() if params is None else params
    r = params.R
    t = (start - r) / speed
    vz = (height + 0.5 * params.g * t * t) / t
    launch = Launch((0.0, speed), (-speed / r, 0.0, 0.0), vz)
    balls = {"white": (_CUSHION_X, _table.LENGTH - start)}
    return launch, simulate(balls, "white", launch, params)
