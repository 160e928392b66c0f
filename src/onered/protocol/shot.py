"""The shot protocol (``docs/shot-protocol.md``): one simulated stroke as JSON.

:func:`loads_shot` / :func:`parse_shot` read and check one shot input and return a
:class:`ShotInput` or raise :class:`ShotProtocolError` with a message naming the field and
what is wrong; :func:`simulate_shot` runs the physics engine; :func:`shot_output` turns the
result into the output object (events, rest, duration, outcome).
:func:`strike_from_json` and :func:`launch_from_json` are the one readers of a strike's and
a launch's JSON form (``Strike.to_json`` and ``Launch.to_json`` write them) for every
interface, each in its caller's error family.

Decisions where the protocol page is silent (``docs/shot-protocol.md`` has them all):

- Ball names are those of the referee protocol, ``white``, ``yellow`` and ``red``; any other
  name is an error, because the ``outcome`` must be a valid referee stroke. The cue ball must
  be ``white`` or ``yellow`` (striking the red is not a stroke the referee can judge).
- ``null`` for an optional field (``strike``/``launch``, ``params``, ``table``, ``seed``,
  ``side``, ``height``, ``elevation``) means the field is absent.
- Unknown fields are ignored at every level, as in the referee protocol, except inside
  ``params`` and ``table``: an unknown name there is an error (a misspelt override silently
  ignored would simulate another table than the one asked for).
- ``side`` and ``height`` default to 0 like ``elevation``; ``aim`` is any finite angle.
- ``params`` may set every field of the engine's ``Params`` (``cushion_model`` by its name,
  ``"mathavan2010"`` or ``"han2005"``), ``table`` the pocket fields of its ``TableSpec``;
  their physical ranges live there (``PARAM_RANGES``, ``TABLE_RANGES``) and their errors,
  ``params.<name>: ...`` and ``table.<name>: ...``, are this protocol's.
- "On the table" is the engine's :func:`onered.physics.check_position` with the shot's
  parameters and table: a ball may stand wherever the engine can leave one, hanging over a
  pocket's jaws included, and balls may touch but not overlap (1e-6 m of slack). So every
  rest position this protocol writes is a valid input.
- A ``launch`` is taken as is (finite numbers only), as the page says.
- ``seed`` is checked (an integer) but unused: the engine has no randomness yet.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from onered.bridge import outcome
from onered.physics import (
    Params,
    PhysicsError,
    PhysicsInputError,
    TableSpec,
    check_position,
    simulate,
    simulate_batch,
    strike_to_launch,
)
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.params import NAMED_PARAMS, params_with
from onered.physics.types import Event, Launch, ShotResult, Strike
from onered.protocol.json_fields import (
    ErrorType,
    ProtocolError,
    dumps_line,
    json_object,
    loads_object,
    number,
    point,
    show,
    type_name,
)
from onered.protocol.json_fields import field as json_field
from onered.rules import Ball

Point = tuple[float, float]

#: Ball names of the referee protocol, and the two that can be a cue ball.
BALL_NAMES: tuple[str, ...] = tuple(ball.value for ball in Ball)
CUE_BALLS: tuple[str, ...] = (Ball.WHITE.value, Ball.YELLOW.value)
#: Slack on the tip-offset and angle limits for decimal inputs such as (0.48, 0.64).
_LIMIT_SLACK = 1e-9
#: What ``params`` may set: every field of the engine's ``Params``.
PARAM_NAMES: tuple[str, ...] = tuple(f.name for f in fields(Params))
#: What ``table`` may set: the pockets of the engine's ``TableSpec`` (the playing area and
#: the baulk line are those of the rules, which the referee and the outcome rely on).
TABLE_NAMES: tuple[str, ...] = tuple(
    f.name for f in fields(TableSpec) if f.name.startswith(("corner_", "middle_"))
)
DEFAULT_PARAMS = Params()
DEFAULT_TABLE = TableSpec()
_NO_OVERRIDES: Mapping[str, float] = MappingProxyType({})


class ShotProtocolError(ProtocolError):
    """A shot input that breaks the shot protocol; the message names the field. (A
    :class:`~onered.protocol.json_fields.ProtocolError`, hence a ``ValueError``.)"""

    default_code = "shot_protocol"


@dataclass(frozen=True, slots=True)
class ShotInput:
    """A checked shot: ball positions, the cue ball, the cue action (a :class:`Strike`, or a
    :class:`Launch` taken as is), the ``params`` and ``table`` overrides as given, the seed,
    and the engine's parameters and table with the overrides applied."""

    balls: Mapping[str, Point]
    cue_ball: str
    cue: Strike | Launch
    params: Mapping[str, float | str]
    seed: int | None = None
    table: Mapping[str, float] = field(default_factory=lambda: _NO_OVERRIDES)
    physics: Params = DEFAULT_PARAMS
    spec: TableSpec = DEFAULT_TABLE


# --- reading JSON -------------------------------------------------------------------------


def loads_shot(text: str | bytes) -> ShotInput:
    """Parse and check one shot given as JSON text or UTF-8 bytes (NaN and Infinity are not
    JSON)."""
    try:
        obj = loads_object(text)
    except ProtocolError as exc:
        raise ShotProtocolError(str(exc)) from None
    return parse_shot(obj)


def _vector(
    value: object, where: str, n: int, *, error: ErrorType = ShotProtocolError
) -> tuple[float, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise error(f"{where}: expected an array of {n} numbers, got {show(value)}")
    return tuple(number(x, f"{where}[{i}]", error=error) for i, x in enumerate(value))


def _object(value: object, where: str) -> dict[str, Any]:
    return json_object(value, where, error=ShotProtocolError)


# --- the fields ---------------------------------------------------------------------------


def _overrides(value: object, where: str, known: tuple[str, ...]) -> dict[str, float | str]:
    if value is None:
        return {}
    raw = _object(value, where)
    out: dict[str, float | str] = {}
    for name, v in raw.items():
        if name not in known:
            raise ShotProtocolError(
                f"{where}: unknown parameter {name!r} (known: {', '.join(known)})"
            )
        if name in NAMED_PARAMS:
            if not isinstance(v, str):
                raise ShotProtocolError(f"{where}.{name}: expected a name, got {show(v)}")
            out[name] = v  # the engine checks the name (PhysicsInputError names the choices)
        else:
            out[name] = number(v, f"{where}.{name}")
    return out


def _numbers(overrides: dict[str, float | str]) -> dict[str, float]:
    """Overrides that are all numbers (the table's: it names nothing)."""
    return {k: v for k, v in overrides.items() if not isinstance(v, str)}


@lru_cache(maxsize=256)
def _engine_params(overrides: tuple[tuple[str, float | str], ...]) -> Params:
    """``Params`` with the overrides, checked (against the ranges of ``Params``) once per
    distinct set of overrides."""
    try:
        return params_with(dict(overrides))
    except PhysicsInputError as exc:
        raise ShotProtocolError(str(exc)) from None


@lru_cache(maxsize=256)
def _engine_table(overrides: tuple[tuple[str, float], ...]) -> TableSpec:
    """``TableSpec`` with the overrides, checked once per distinct set of overrides."""
    try:
        return TableSpec(**dict(overrides))
    except PhysicsInputError as exc:
        raise ShotProtocolError(str(exc)) from None


@lru_cache(maxsize=256)
def _check_fit(radius: float, spec: TableSpec) -> None:
    """The ball must fit the table's pockets (checked once per radius and table)."""
    try:
        spec.check_ball_radius(radius)
    except PhysicsInputError as exc:
        raise ShotProtocolError(f"{exc} (params.R = {radius:g} m)") from None


_BALL_REF = re.compile(r"balls\['(\w+)'\]")


def _position_error(exc: PhysicsInputError) -> ShotProtocolError:
    """The engine's refusal of a position, with the ball named as the protocol's field:
    ``balls['red'] at (x, y) is off the table`` becomes ``balls.red: at (x, y) is off the
    table``."""
    message = str(exc)
    first = _BALL_REF.match(message)
    if first is None:
        return ShotProtocolError(f"balls: {message}")
    rest = _BALL_REF.sub(r"balls.\1", message[first.end() :].lstrip())
    return ShotProtocolError(f"balls.{first.group(1)}: {rest}")


def _balls(value: object, params: Params, spec: TableSpec) -> dict[str, Point]:
    if value is None:
        raise ShotProtocolError("balls: required")
    raw = _object(value, "balls")
    balls: dict[str, Point] = {}
    for name, v in raw.items():
        if name not in BALL_NAMES:
            raise ShotProtocolError(
                f"balls: unknown ball {name!r} (balls are {', '.join(BALL_NAMES)})"
            )
        balls[name] = point(v, f"balls.{name}")
    if balls:
        try:
            check_position(balls, params, spec)
        except PhysicsInputError as exc:
            raise _position_error(exc) from None
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


#: The fields of a strike object, in the order :meth:`Strike.to_json` writes them.
STRIKE_FIELDS: tuple[str, ...] = ("speed", "aim", "side", "height", "elevation")


def strike_from_json(
    value: object,
    where: str = "strike",
    *,
    error: ErrorType = ShotProtocolError,
    complete: bool = False,
) -> Strike:
    """A strike object as :meth:`Strike.to_json` writes it: the one reader of a strike's
    JSON form, for the shot protocol, the game records, the coach and the web (each
    naming its own ``error`` family). It lives here, not beside :class:`Strike`, because
    it reads with the shared field readers (``json_fields``), which the physics may not
    import; the shot protocol's page defines the form.

    ``complete``: every field must be present, as ``to_json`` writes them (a record's
    line); else the shot protocol's input, where ``speed`` and ``aim`` are required and
    ``side``, ``height``, ``elevation`` are 0 when absent or ``null``. Only the numbers are
    read here: the shot protocol checks their ranges, a record keeps what was played."""
    return _read_strike(json_object(value, where, error=error), where, error, complete)


def _read_strike(raw: Mapping[str, Any], where: str, error: ErrorType, complete: bool) -> Strike:
    """:func:`strike_from_json` of an object already checked to be one."""
    if complete:
        values = [
            number(json_field(raw, key, where, error=error), f"{where}.{key}", error=error)
            for key in STRIKE_FIELDS
        ]
    else:
        for key in ("speed", "aim"):
            if raw.get(key) is None:
                raise error(f"{where}.{key}: required")
        values = [
            0.0 if raw.get(key) is None else number(raw[key], f"{where}.{key}", error=error)
            for key in STRIKE_FIELDS
        ]
    speed, aim, side, height, elevation = values
    return Strike(speed=speed, aim=aim, side=side, height=height, elevation=elevation)


def _strike(value: object) -> Strike:
    """The shot protocol's strike: read, then its ranges checked (the error shows each
    number as it was given)."""
    raw = _object(value, "strike")
    strike = _read_strike(raw, "strike", ShotProtocolError, False)
    if not 0 < strike.speed <= MAX_SPEED:
        raise ShotProtocolError(
            f"strike.speed: must be > 0 and at most {MAX_SPEED:g}, got {show(raw['speed'])}"
        )
    side, height = strike.side, strike.height
    offset = math.hypot(side, height)
    if offset > MAX_TIP_OFFSET + _LIMIT_SLACK:
        raise ShotProtocolError(
            f"strike: tip offset sqrt(side^2 + height^2) must be at most {MAX_TIP_OFFSET:g} "
            f"(of R), got {offset:.6g} (side {side:g}, height {height:g})"
        )
    if not MIN_ELEVATION <= strike.elevation <= MAX_ELEVATION:
        raise ShotProtocolError(
            f"strike.elevation: must be between {MIN_ELEVATION:g} and {MAX_ELEVATION:g} "
            f"degrees, got {show(raw['elevation'])}"
        )
    return strike


def launch_from_json(
    value: object, where: str = "launch", *, error: ErrorType = ShotProtocolError
) -> Launch:
    """A launch object as :meth:`Launch.to_json` writes it (``v``: [vx, vy] m/s, ``w``:
    [wx, wy, wz] rad/s, both required, taken as is; ``vz`` m/s, optional, 0 when absent):
    the one reader of a launch's JSON form, here for the reason :func:`strike_from_json`
    is."""
    raw = json_object(value, where, error=error)
    for key in ("v", "w"):
        if raw.get(key) is None:
            raise error(f"{where}.{key}: required")
    wx, wy, wz = _vector(raw["w"], f"{where}.w", 3, error=error)
    vz = 0.0 if raw.get("vz") is None else number(raw["vz"], f"{where}.vz", error=error)
    return Launch(v=point(raw["v"], f"{where}.v", error=error), w=(wx, wy, wz), vz=vz)


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
    if type(obj) is not dict:
        raise ShotProtocolError(f"expected a JSON object, got {type_name(obj)}")
    raw: dict[str, Any] = obj
    params = _overrides(raw.get("params"), "params", PARAM_NAMES)
    table = _numbers(_overrides(raw.get("table"), "table", TABLE_NAMES))
    physics = _engine_params(tuple(sorted(params.items()))) if params else DEFAULT_PARAMS
    spec = _engine_table(tuple(sorted(table.items()))) if table else DEFAULT_TABLE
    if params or table:  # (the defaults fit: the engine's own tests build them)
        _check_fit(physics.R, spec)
    balls = _balls(raw.get("balls"), physics, spec)
    cue_ball = _cue_ball(raw.get("cue_ball"), balls)
    strike, launch = raw.get("strike"), raw.get("launch")
    if strike is not None and launch is not None:
        raise ShotProtocolError("strike, launch: give one of them, not both")
    if strike is not None:
        cue: Strike | Launch = _strike(strike)
    elif launch is not None:
        cue = launch_from_json(launch)
    else:
        raise ShotProtocolError("strike, launch: one of them is required")
    return ShotInput(
        balls=balls,
        cue_ball=cue_ball,
        cue=cue,
        params=params,
        seed=_seed(raw.get("seed")),
        table=table if table else _NO_OVERRIDES,
        physics=physics,
        spec=spec,
    )


# --- simulation and output ----------------------------------------------------------------


def simulate_shot(shot: ShotInput, *, paths: bool = True) -> ShotResult:
    """Run the physics engine on a checked shot; its refusals (and its rare failures)
    become protocol errors, so a batch goes on after them. ``paths=False`` skips the
    trajectories (only a drawing needs them), which saves a third of the engine's time."""
    try:
        cue = shot.cue
        launch = strike_to_launch(cue, shot.physics) if isinstance(cue, Strike) else cue
        if paths:
            return simulate(shot.balls, shot.cue_ball, launch, shot.physics, shot.spec)
        (result,) = simulate_batch(
            shot.balls, shot.cue_ball, [launch], shot.physics, shot.spec, paths=False
        )
        return result
    except PhysicsInputError as exc:
        raise ShotProtocolError(f"simulation: {exc}") from None
    except PhysicsError as exc:  # the engine gave up (event limit): report it, keep going
        raise ShotProtocolError(f"simulation failed: {exc}") from None


def _not_finite(where: str, x: float) -> ShotProtocolError:
    return ShotProtocolError(f"simulation produced a non-finite number in {where}: {x}")


def _finite(x: float, where: str) -> float:
    if not math.isfinite(x):
        raise _not_finite(where, x)
    return float(x)


def _finite_point(p: Point, where: str) -> list[float]:
    return [_finite(p[0], f"{where}[0]"), _finite(p[1], f"{where}[1]")]


def events_json(events: tuple[Event, ...]) -> list[dict[str, Any]]:
    """Events as the shot protocol (and the game record) writes them: ``t``, ``type``,
    ``balls``, and ``cushion``/``pocket``/``direction`` when the event has them."""
    isfinite = math.isfinite
    out = []
    for i, e in enumerate(events):
        t = e.t
        if not isfinite(t):
            raise _not_finite(f"events[{i}].t", t)
        item: dict[str, Any] = {"t": t, "type": e.kind._value_, "balls": e.balls}
        if e.cushion is not None:
            item["cushion"] = e.cushion
        if e.pocket is not None:
            item["pocket"] = e.pocket
        if e.direction is not None:
            item["direction"] = e.direction
        out.append(item)
    return out


def shot_output(result: ShotResult, cue_ball: str) -> dict[str, Any]:
    """The shot protocol's output object for a simulated shot played with ``cue_ball``
    (plain lists, dicts and finite floats: ready for any JSON writer)."""
    out = shot_output_fast(result, cue_ball)
    out["events"] = [{**e, "balls": list(e["balls"])} for e in out["events"]]
    return out


def shot_output_fast(result: ShotResult, cue_ball: str) -> dict[str, Any]:
    """:func:`shot_output` for orjson, which writes tuples as arrays: the events' ``balls``
    are the engine's tuples, not copies."""
    rest: dict[str, list[float] | None] = {}
    for ball, p in result.rest.items():
        rest[ball] = None if p is None else _finite_point(p, f"rest.{ball}")
    return {
        "events": events_json(result.events),
        "rest": rest,
        "duration": _finite(result.duration, "duration"),
        "outcome": outcome(result, cue_ball).to_json(),  # positions: the finite rest ones
    }


def dumps(obj: Mapping[str, Any]) -> str:
    """One output object as a line of strict JSON (callers keep every float finite)."""
    return dumps_line(obj)[:-1].decode("utf-8")


def play_line(line: bytes | str) -> bytes:
    """One shot protocol line in, one output line out (JSON, newline-terminated); raises
    :class:`ShotProtocolError`. The fast path of ``onered shot --batch``."""
    shot = loads_shot(line)
    return dumps_line(shot_output_fast(simulate_shot(shot, paths=False), shot.cue_ball))


def error_line(message: str, line: int) -> bytes:
    """The output line of a batch line that failed."""
    return dumps_line({"error": message, "line": line})
