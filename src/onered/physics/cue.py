"""The cue strike: from a cue action (aim, tip offset, elevation, launch speed) to the cue
ball's launch state.

Instantaneous point model (Alciatore, TP A-30; pooltool's ``instantaneous_point``): the
tip pushes the ball with an impulse J along the cue at the contact point
``Q = R (a e_r + b e_u - sqrt(1 - a^2 - b^2) e_c)``, where ``e_c`` points along the cue
(down by the elevation), ``e_r`` to the right of it (horizontal) and ``e_u = e_r x e_c``
"up" as seen along the cue, and (a, b) = (side, height) are the tip offsets in units of R.
The ball gets ``v = J / m`` along ``e_c`` and ``w = Q x J / I = (5 v / 2R)(a e_u - b e_r)``:
top/back spin about the horizontal axis from the height, vertical-axis spin from the side
(right-hand side gives w_z > 0, counter-clockwise seen from above, which makes the ball
rebound to the right off a cushion it meets square on). The vertical part of ``v`` (down
into the cloth, for an elevated cue) is the launch's ``vz``: the engine lets the slate
answer it (restitution ``e_table`` and the cloth's friction), so a steep, hard stroke
jumps (Alciatore, TP A-? on jump shots; ``docs/physics-validation.md``). The
ball leaves at a small angle to the cue when struck off-centre (squirt, TP A-31):
``tan(alpha) = (5/2) a sqrt(1 - a^2) / (1 + m / m_end + (5/2)(1 - a^2))``, to the side
opposite the tip offset.

The shot protocol's ``speed`` is the ball's launch speed ``v``; :func:`cue_speed` gives the
cue speed that produces it (an elastic tip: ``v = 2 V / (1 + m/M + (5/2)(a^2 + b^2))``).
"""

from __future__ import annotations

import math

from onered.physics._engine import launch_of
from onered.physics.errors import PhysicsInputError
from onered.physics.params import Params
from onered.physics.types import Launch, Strike

# The limits of a strike, defined here once for every layer: the engine checks them, the
# shot protocol, the players, the environments and the web app use them, and the front end
# receives them from the server (:func:`strike_limits`).

#: Launch speeds (m/s) the engine accepts: (0, MAX_SPEED].
MAX_SPEED = 10.0
#: The slowest stroke a player or a front end offers (m/s); the engine accepts any positive
#: speed, but slower strokes barely move the ball.
MIN_SPEED = 0.05
#: The tip must touch the ball within this fraction of its radius from the centre.
MAX_TIP_OFFSET = 0.8
#: The cue's elevation (degrees): level with the cloth up to vertical.
MIN_ELEVATION = 0.0
MAX_ELEVATION = 90.0


def strike_limits() -> dict[str, float]:
    """The strike limits as a JSON-ready mapping, for a front end (the web app's table)."""
    return {
        "min_speed": MIN_SPEED,
        "max_speed": MAX_SPEED,
        "max_tip_offset": MAX_TIP_OFFSET,
        "min_elevation": MIN_ELEVATION,
        "max_elevation": MAX_ELEVATION,
    }


def within_limits(speed: float, aim: float, side: float, height: float, elevation: float) -> bool:
    """The strike can be played: every number finite, the speed in (0, MAX_SPEED], the tip
    within MAX_TIP_OFFSET of the centre, the elevation in [MIN_ELEVATION, MAX_ELEVATION].
    The cheap test for callers that play many strikes (environments, the shot protocol's
    batch); ``strike_to_launch`` says what is wrong with one that is not."""
    try:
        return (
            0 < speed <= MAX_SPEED
            and math.isfinite(aim)
            and math.hypot(side, height) <= MAX_TIP_OFFSET + 1e-12
            and MIN_ELEVATION <= elevation <= MAX_ELEVATION
        )
    except TypeError:
        return False


def _check_strike(strike: Strike) -> None:
    for name in ("speed", "aim", "side", "height", "elevation"):
        value = getattr(strike, name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PhysicsInputError(f"strike.{name} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise PhysicsInputError(f"strike.{name} must be finite, got {value!r}")
    if not 0 < strike.speed <= MAX_SPEED:
        raise PhysicsInputError(
            f"strike.speed must lie in (0, {MAX_SPEED}] m/s, got {strike.speed!r}",
            code="strike_speed",
            params={"max": MAX_SPEED, "got": strike.speed},
        )
    offset = math.hypot(strike.side, strike.height)
    if offset > MAX_TIP_OFFSET + 1e-12:
        raise PhysicsInputError(
            f"strike tip offset (side {strike.side!r}, height {strike.height!r}) lies "
            f"{offset:.4g} R from the centre; it must be within {MAX_TIP_OFFSET} R",
            code="strike_tip",
            params={"max": MAX_TIP_OFFSET, "got": f"{offset:.3g}"},
        )
    if not MIN_ELEVATION <= strike.elevation <= MAX_ELEVATION:
        raise PhysicsInputError(
            f"strike.elevation must lie in [{MIN_ELEVATION:g}, {MAX_ELEVATION:g}] degrees, "
            f"got {strike.elevation!r}",
            code="strike_elevation",
            params={"min": MIN_ELEVATION, "max": MAX_ELEVATION, "got": strike.elevation},
        )


def squirt_angle(side: float, params: Params) -> float:
    """Angle (radians) between the cue and the ball's launch direction for a tip offset
    ``side`` (units of R); positive (to the left) for right-hand side."""
    if params.cue_end_mass == 0 or side == 0:
        return 0.0
    rest = 1 - side * side
    num = 2.5 * side * math.sqrt(rest)
    den = 1 + params.m / params.cue_end_mass + 2.5 * rest
    return math.atan2(num, den)


def strike_to_launch(strike: Strike, params: Params) -> Launch:
    """The cue ball's velocity and angular velocity just after the strike.

    With ``phi`` the aim and ``theta`` the elevation, the tip ``a`` (side) and ``b``
    (height) off the centre in units of R: the spin is ``5 v / (2R) (a e_u - b e_r)``
    (``e_r`` to the right of the aim, ``e_u`` along the cue's up direction), the ball
    leaves at ``v cos(theta)`` along ``phi`` turned by :func:`squirt_angle`, and is driven
    into the slate at ``v sin(theta)``. The arithmetic is done by the C engine
    (``_engine.launch_of``), the one place it lives, so that a batch of strikes
    (``onered.physics.batch``) gives the same launches bit for bit.

    Raises :class:`PhysicsInputError` for a speed outside (0, 10] m/s, a tip offset beyond
    0.8 R, an elevation outside [0, 90] degrees, or a non-finite number.
    """
    _check_strike(strike)
    vx, vy, wx, wy, wz, vz = launch_of(
        strike.speed,
        strike.aim,
        strike.side,
        strike.height,
        strike.elevation,
        params.R,
        params.m,
        params.cue_end_mass,
    )
    return Launch((vx, vy), (wx, wy, wz), vz)


def cue_speed(strike: Strike, params: Params) -> float:
    """The cue speed (m/s) that launches the ball at ``strike.speed`` (elastic tip, cue of
    mass ``params.cue_mass``)."""
    _check_strike(strike)
    a, b = strike.side, strike.height
    return strike.speed * (1 + params.m / params.cue_mass + 2.5 * (a * a + b * b)) / 2
