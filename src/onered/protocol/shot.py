"""The shot protocol (``shared/spec/shot-protocol.md``): one simulated stroke as JSON.

:func:`loads_shot` / :func:`parse_shot` read and check one shot input and return a
:class:`ShotInput` or raise :class:`ShotProtocolError` with a message naming the field and
what is wrong; :func:`simulate_shot` runs the physics engine; :func:`shot_output` turns the
result into the output object (events, rest, duration, outcome).

Decisions where the protocol page is silent:

- Ball names are those of the referee protocol, ``white``, ``yellow`` and ``red``; any other
  name is an error, because the ``outcome`` must be a valid referee stroke. The cue ball must
  be ``white`` or ``yellow`` (striking the red is not a stroke the referee can judge).
- ``null`` for an optional field (``strike``/``launch``, ``params``, ``seed``, ``side``,
  ``height``, ``elevation``) means the field is absent.
- Unknown fields are ignored at every level, as in the referee protocol, except inside
  ``params``: an unknown parameter is an error (a misspelt override silently ignored would
  simulate another table than the one asked for).
- ``side`` and ``height`` default to 0 like ``elevation``; ``aim`` is any finite angle.
- Parameter ranges, those of the engine's ``Params``: ``R``, ``m``, ``g``, ``mu_s``, ``mu_r``
  > 0 (without rolling resistance a ball never stops); ``mu_sp``, ``f_c`` >= 0; ``e_b``,
  ``e_c`` in [0, 1]. Checked here so that the error names the protocol's field.
- Overlap and surface checks use the shot's ball radius (``params.R`` when given): balls
  overlap when their centres are closer than 2R − 1e-6 m (touching balls are allowed), and a
  ball is on the surface when its centre is at least R − 1e-6 m from every cushion face.
- A ``launch`` is taken as is (finite numbers only), as the page says.
- ``seed`` is checked (an integer) but unused: the engine has no randomness yet.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from onered.bridge import outcome
from onered.physics.types import Event, Launch, ShotResult, Strike
from onered.protocol.json_fields import (
    ProtocolError,
    loads_object,
    number,
    point,
    show,
    type_name,
)
from onered.rules import Ball
from onered.table import BALL_RADIUS, EPS, distance, on_surface

if TYPE_CHECKING:
    from onered.physics import Params

Point = tuple[float, float]

#: Ball names of the referee protocol, and the two that can be a cue ball.
BALL_NAMES: tuple[str, ...] = tuple(ball.value for ball in Ball)
CUE_BALLS: tuple[str, ...] = (Ball.WHITE.value, Ball.YELLOW.value)
#: Launch speed of a strike (m/s): more than 0, at most this.
MAX_SPEED = 10.0
#: The tip must hit within this fraction of the radius from the ball's centre.
MAX_TIP_OFFSET = 0.8
#: Slack on the tip-offset and angle limits for decimal inputs such as (0.48, 0.64).
_LIMIT_SLACK = 1e-9


class ShotProtocolError(ProtocolError):
    """A shot input that breaks the shot protocol; the message names the field. (A
    :class:`~onered.protocol.json_fields.ProtocolError`, hence a ``ValueError``.)"""


def _positive(x: float) -> bool:
    return x > 0


def _unit(x: float) -> bool:
    return 0 <= x <= 1


def _non_negative(x: float) -> bool:
    return x >= 0


#: The overridable physical parameters: name -> (check, what the check requires).
PARAM_RULES: dict[str, tuple[Callable[[float], bool], str]] = {
    "R": (_positive, "> 0"),
    "m": (_positive, "> 0"),
    "g": (_positive, "> 0"),
    "mu_s": (_positive, "> 0"),
    "mu_r": (_positive, "> 0"),
    "mu_sp": (_non_negative, ">= 0"),
    "e_b": (_unit, "between 0 and 1"),
    "e_c": (_unit, "between 0 and 1"),
    "f_c": (_non_negative, ">= 0"),
}


@dataclass(frozen=True, slots=True)
class ShotInput:
    """A checked shot: ball positions, the cue ball, the cue action (a :class:`Strike`, or a
    :class:`Launch` taken as is), parameter overrides and the seed."""

    balls: Mapping[str, Point]
    cue_ball: str
    cue: Strike | Launch
    params: Mapping[str, float]
    seed: int | None = None


# --- reading JSON -------------------------------------------------------------------------


def loads_shot(text: str) -> ShotInput:
    """Parse and check one shot given as JSON text (NaN and Infinity are not JSON)."""
    try:
        obj = loads_object(text)
    except ProtocolError as exc:
        raise ShotProtocolError(str(exc)) from None
    return parse_shot(obj)


def _vector(value: object, where: str, n: int) -> tuple[float, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise ShotProtocolError(f"{where}: expected an array of {n} numbers, got {show(value)}")
    return tuple(number(x, f"{where}[{i}]") for i, x in enumerate(value))


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ShotProtocolError(f"{where}: expected an object, got {type_name(value)}")
    return value


# --- the fields ---------------------------------------------------------------------------


def _params(value: object) -> dict[str, float]:
    if value is None:
        return {}
    raw = _object(value, "params")
    out: dict[str, float] = {}
    for name, v in raw.items():
        rule = PARAM_RULES.get(name)
        if rule is None:
            known = ", ".join(PARAM_RULES)
            raise ShotProtocolError(f"params: unknown parameter {name!r} (known: {known})")
        check, requirement = rule
        x = number(v, f"params.{name}")
        if not check(x):
            raise ShotProtocolError(f"params.{name}: must be {requirement}, got {show(v)}")
        out[name] = x
    return out


def _balls(value: object, radius: float) -> dict[str, Point]:
    if value is None:
        raise ShotProtocolError("balls: required")
    raw = _object(value, "balls")
    balls: dict[str, Point] = {}
    for name, v in raw.items():
        if name not in BALL_NAMES:
            raise ShotProtocolError(
                f"balls: unknown ball {name!r} (balls are {', '.join(BALL_NAMES)})"
            )
        x, y = point(v, f"balls.{name}")
        if not on_surface((x, y), radius):
            raise ShotProtocolError(
                f"balls.{name}: {show(v)} is off the playing surface (the centre must lie "
                f"at least R = {radius:g} m inside every cushion face)"
            )
        balls[name] = (x, y)
    names = list(balls)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            d = distance(balls[a], balls[b])
            if d < 2 * radius - EPS:
                raise ShotProtocolError(
                    f"balls: {a} and {b} overlap (centres {d:.6g} m apart, "
                    f"less than 2R = {2 * radius:g} m)"
                )
    return balls


def _cue_ball(value: object, balls: Mapping[str, Point]) -> str:
    if value is None:
        raise ShotProtocolError("cue_ball: required")
    if not isinstance(value, str):
        raise ShotProtocolError(f"cue_ball: expected a string, got {type_name(value)}")
    name = value
    if name not in CUE_BALLS:
        raise ShotProtocolError(
            f"cue_ball: must be one of {', '.join(CUE_BALLS)}, got {show(value)}"
        )
    if name not in balls:
        raise ShotProtocolError(f"cue_ball: {name!r} is not on the table (not in balls)")
    return name


def _optional_number(raw: Mapping[str, Any], key: str, where: str) -> float:
    value = raw.get(key)
    return 0.0 if value is None else number(value, f"{where}.{key}")


def _strike(value: object) -> Strike:
    raw = _object(value, "strike")
    for key in ("speed", "aim"):
        if raw.get(key) is None:
            raise ShotProtocolError(f"strike.{key}: required")
    speed = number(raw["speed"], "strike.speed")
    if not 0 < speed <= MAX_SPEED:
        raise ShotProtocolError(
            f"strike.speed: must be > 0 and at most {MAX_SPEED:g}, got {show(raw['speed'])}"
        )
    aim = number(raw["aim"], "strike.aim")
    side = _optional_number(raw, "side", "strike")
    height = _optional_number(raw, "height", "strike")
    offset = math.hypot(side, height)
    if offset > MAX_TIP_OFFSET + _LIMIT_SLACK:
        raise ShotProtocolError(
            f"strike: tip offset sqrt(side^2 + height^2) must be at most {MAX_TIP_OFFSET:g} "
            f"(of R), got {offset:.6g} (side {side:g}, height {height:g})"
        )
    elevation = _optional_number(raw, "elevation", "strike")
    if not 0 <= elevation <= 90:
        raise ShotProtocolError(
            f"strike.elevation: must be between 0 and 90 degrees, got {show(raw['elevation'])}"
        )
    return Strike(speed=speed, aim=aim, side=side, height=height, elevation=elevation)


def _launch(value: object) -> Launch:
    raw = _object(value, "launch")
    for key in ("v", "w"):
        if raw.get(key) is None:
            raise ShotProtocolError(f"launch.{key}: required")
    wx, wy, wz = _vector(raw["w"], "launch.w", 3)
    return Launch(v=point(raw["v"], "launch.v"), w=(wx, wy, wz))


def _seed(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShotProtocolError(f"seed: must be an integer, got {show(value)}")
    return value


def parse_shot(obj: object) -> ShotInput:
    """Check one shot input (a decoded JSON value) against the shot protocol."""
    try:
        return _parse(obj)
    except ShotProtocolError:
        raise
    except ProtocolError as exc:  # from the shared readers of json_fields
        raise ShotProtocolError(str(exc)) from None


def _parse(obj: object) -> ShotInput:
    if not isinstance(obj, dict):
        raise ShotProtocolError(f"expected a JSON object, got {type_name(obj)}")
    raw: dict[str, Any] = obj
    params = _params(raw.get("params"))
    balls = _balls(raw.get("balls"), params.get("R", BALL_RADIUS))
    cue_ball = _cue_ball(raw.get("cue_ball"), balls)
    strike, launch = raw.get("strike"), raw.get("launch")
    if strike is not None and launch is not None:
        raise ShotProtocolError("strike, launch: give one of them, not both")
    if strike is not None:
        cue: Strike | Launch = _strike(strike)
    elif launch is not None:
        cue = _launch(launch)
    else:
        raise ShotProtocolError("strike, launch: one of them is required")
    return ShotInput(
        balls=balls, cue_ball=cue_ball, cue=cue, params=params, seed=_seed(raw.get("seed"))
    )


# --- simulation and output ----------------------------------------------------------------


def shot_params(shot: ShotInput) -> Params:
    """The engine's default parameters with the shot's overrides."""
    from onered.physics import Params

    overrides: dict[str, Any] = dict(shot.params)
    return replace(Params(), **overrides)


def simulate_shot(shot: ShotInput) -> ShotResult:
    """Run the physics engine on a checked shot; its refusals (and its rare failures)
    become protocol errors, so a batch goes on after them."""
    from onered.physics import PhysicsError, PhysicsInputError, simulate, strike_to_launch

    try:
        params = shot_params(shot)
        cue = shot.cue
        launch = strike_to_launch(cue, params) if isinstance(cue, Strike) else cue
        return simulate(shot.balls, shot.cue_ball, launch, params)
    except PhysicsInputError as exc:
        raise ShotProtocolError(f"simulation: {exc}") from None
    except PhysicsError as exc:  # the engine gave up (event limit): report it, keep going
        raise ShotProtocolError(f"simulation failed: {exc}") from None


def _finite(x: float, where: str) -> float:
    if not math.isfinite(x):
        raise ShotProtocolError(f"simulation produced a non-finite number in {where}: {x}")
    return float(x)


def _finite_point(p: Point, where: str) -> list[float]:
    return [_finite(p[0], f"{where}[0]"), _finite(p[1], f"{where}[1]")]


def event_json(event: Event, where: str = "event") -> dict[str, Any]:
    """One event as the shot protocol writes it: ``t``, ``type``, ``balls``, and
    ``cushion``/``pocket``/``direction`` when the event has them."""
    out: dict[str, Any] = {
        "t": _finite(event.t, f"{where}.t"),
        "type": event.kind.value,
        "balls": list(event.balls),
    }
    for key in ("cushion", "pocket", "direction"):
        value = getattr(event, key)
        if value is not None:
            out[key] = value
    return out


def shot_output(result: ShotResult, cue_ball: str) -> dict[str, Any]:
    """The shot protocol's output object for a simulated shot played with ``cue_ball``."""
    return {
        "events": [event_json(e, f"events[{i}]") for i, e in enumerate(result.events)],
        "rest": {
            ball: None if p is None else _finite_point(p, f"rest.{ball}")
            for ball, p in result.rest.items()
        },
        "duration": _finite(result.duration, "duration"),
        "outcome": outcome(result, cue_ball).to_json(),  # positions: the finite rest ones
    }


def dumps(obj: Mapping[str, Any]) -> str:
    """One output object as a line of strict JSON (no NaN or Infinity)."""
    return json.dumps(obj, allow_nan=False)
