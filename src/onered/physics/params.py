"""Physical parameters of balls, cloth, cushions and cue (SI units), and the cushion models.

Defaults, each from a measurement (the validation page, ``docs/physics-validation.md``,
holds the engine to them; the table's geometry: ``docs/table.md``):

- snooker balls: R = 26.25 mm, m = 140.6 g;
- the cloth: sliding friction mu_s = 0.212 (Mathavan, Jackson & Parkin 2009, "Application
  of high-speed imaging to determine the dynamics of billiards", Am. J. Phys. 77(9): a
  sliding ball slows at 2.075 +- 0.325 m/s^2, mu_s = 0.212 +- 0.033) and rolling
  resistance mu_r = 0.125 / 9.81 (the same paper: a rolling ball slows at 0.125 m/s^2);
  spin friction in pooltool's convention (the vertical-axis spin slows by 5 mu_sp g / (2 R)
  rad/s^2) set to the 22 rad/s^2 measured for snooker balls (Mathavan, Jackson & Parkin
  2014, "Numerical simulations of the frictional collisions of solid balls on a rough
  surface", Sports Eng. 17, eq. 21; pooltool's 0.444 R is Alciatore's 10 rad/s^2 for pool);
- ball-ball restitution 0.95 with Alciatore's speed-dependent ball-ball friction (TP A-14);
- the cushions: Mathavan, Jackson & Parkin (2010), "A theoretical analysis of billiard ball
  dynamics under cushion impacts" (Proc. IMechE C 224(9)): the nose touches the ball at
  h = 7R/5 above the cloth, restitution e_c = 0.98 and ball-cushion friction f_c = 0.14,
  the values the paper fits to its measured rebounds; above a normal speed of 2.5 m/s (the
  paper's limit of a rigid cushion) the measured rebounds are slower: the restitution
  falls by ``e_c_drop`` = 9.7 % (to 0.885), which fits them (with it the model returns a
  rolling ball square on at 0.827 of its speed, the mean of the seven points measured at
  2.7-3.4 m/s, Fig. 7a, whose band is 0.80-0.85; the engine's integration gives 0.833).

Every field has a physical range (:data:`PARAM_RANGES`, the one place where the ranges
live: the shot protocol maps these errors to its own fields). A value outside it is refused
with :class:`PhysicsInputError` whose message starts with ``params.<name>:``. The ranges
cover every billiard, snooker and pool ball and cloth with room to spare, and keep every
stroke finite: friction coefficients have positive lower bounds (with ``mu_sp = 0`` a
spinning ball would never stop; with ``mu_r`` or ``g`` near zero a ball would roll for
kilometres), and gravity stays within [1, 30] m/s^2.

Records of older engines (``ENGINE_VERSION`` below 3) know neither the cushion model nor
the fast restitution: :func:`params_from_fields` reads them as Han's model with a constant
restitution, which is what those engines simulated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any

from onered.physics.errors import PhysicsInputError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_BALL_RADIUS = 0.02625
_G = 9.81
#: Mathavan et al. 2009: the measured decelerations of a snooker ball on a napped cloth.
SLIDING_DECELERATION = 2.075  # m/s^2, +- 0.325
ROLLING_DECELERATION = 0.125  # m/s^2
#: Mathavan et al. 2014: a snooker ball's spin about the vertical axis slows at 22 rad/s^2.
SPIN_DECELERATION = 22.0  # rad/s^2
#: The ball-slate coefficient of restitution: pooltool's default e_t, from Alciatore's table
#: of physical properties (docs/physics-validation.md, "Balls in the air", cites it).
TABLE_RESTITUTION = 0.5
#: The cushion's top and the wooden rail beyond the cushion's nose line, m: 6 in, inside the
#: WPA's 4-7.5 in "including the rubber cushions" (docs/table.md cites the sources).
RAIL_WIDTH = 0.15


class CushionModel(StrEnum):
    """How a ball's impact with a cushion, jaw facing or knuckle is resolved (the C
    functions of ``cushion.c``; codes in this order)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    #: Mathavan, Jackson & Parkin 2010: the ball stays on the bed; friction at the cushion
    #: and at the bed; compression and restitution phases integrated over the impulse.
    MATHAVAN2010 = "mathavan2010"
    #: Han 2005: one impulse at the cushion contact (kept for comparison and old records).
    HAN2005 = "han2005"

    @property
    def code(self) -> int:
        """The model's code in the C engine (``cushion.h``)."""
        return _MODEL_CODES[self]


_MODEL_CODES = {model: k for k, model in enumerate(CushionModel)}


def cushion_model(value: object, where: str = "params.cushion_model") -> CushionModel:
    """A model by its name (or the model itself); :class:`PhysicsInputError` naming
    ``where`` and the known names otherwise."""
    if isinstance(value, CushionModel):
        return value
    for model in CushionModel:
        if value == model.value:
            return model
    names = ", ".join(m.value for m in CushionModel)
    raise PhysicsInputError(f"{where}: must be one of {names}, got {value!r}")


@dataclass(frozen=True, slots=True)
class Range:
    """A closed interval ``[low, high]``, open at an end where ``low_open`` / ``high_open``;
    ``unit`` is shown in error messages and documentation."""

    low: float
    high: float
    unit: str = ""
    low_open: bool = False
    high_open: bool = False

    def __contains__(self, value: float) -> bool:
        above = value > self.low if self.low_open else value >= self.low
        below = value < self.high if self.high_open else value <= self.high
        return above and below

    def __str__(self) -> str:
        left = "(" if self.low_open else "["
        right = ")" if self.high_open else "]"
        text = f"{left}{self.low:g}, {self.high:g}{right}"
        return f"{text} {self.unit}" if self.unit else text


#: The physical range of every field of :class:`Params`. ``cushion_height`` also has the
#: relative range [R, 2R) (the nose touches the upper half of the ball), and
#: ``cue_end_mass`` must be below ``cue_mass``.
PARAM_RANGES: Mapping[str, Range] = {
    "R": Range(0.02, 0.035, "m"),  # 40 mm (small pool) to 70 mm (Russian pyramid 68 mm)
    "m": Range(0.05, 0.5, "kg"),  # snooker 141 g, pool 170 g, carom 210 g
    "g": Range(1.0, 30.0, "m/s^2"),
    "mu_s": Range(0.01, 1.0),  # cloths: about 0.2
    "mu_r": Range(0.001, 0.1),  # cloths: 0.005 to 0.015
    "mu_sp": Range(0.001, 0.1),  # snooker 0.0235 (22 rad/s^2); 0: spin that never decays
    "e_b": Range(0.0, 1.0),
    "e_c": Range(0.0, 1.0),
    "f_c": Range(0.0, 1.0),  # rubber on a ball: about 0.14
    "e_c_drop": Range(0.0, 1.0),  # a fraction of e_c
    "e_c_speed": Range(0.1, 10.0, "m/s"),  # 10 m/s: the fastest launch (no drop at all)
    "cushion_height": Range(0.02, 0.07, "m"),  # and within [R, 2R)
    "e_table": Range(0.0, 1.0),  # ball on slate: about 0.5
    "rail_width": Range(0.0, 0.5, "m"),  # cushion and wooden rail: 0.10-0.19 (WPA, pool)
    "mu_b_a": Range(0.0, 0.5),
    "mu_b_b": Range(0.0, 0.5),
    "mu_b_c": Range(0.0, 10.0, "s/m"),
    "cue_mass": Range(0.1, 2.0, "kg"),  # cues weigh 0.45 to 0.6 kg
    "cue_end_mass": Range(0.0, 0.1, "kg"),  # 0 turns squirt off; and below cue_mass
}


def range_error(prefix: str, name: str, value: object, valid: Range | str) -> PhysicsInputError:
    """The error for a field outside its range: ``<prefix>.<name>: must lie in ...``."""
    return PhysicsInputError(f"{prefix}.{name}: must lie in {valid}, got {value!r}")


def check_ranges(prefix: str, obj: DataclassInstance, ranges: Mapping[str, Range]) -> None:
    """Check every numeric field of a parameter dataclass: a finite number within its
    range (fields holding an enum are checked by their own readers)."""
    for f in fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, Enum):
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise PhysicsInputError(f"{prefix}.{f.name}: must be a number, got {value!r}")
        if not math.isfinite(value):
            raise PhysicsInputError(f"{prefix}.{f.name}: must be finite, got {value!r}")
        valid = ranges.get(f.name)
        if valid is not None and value not in valid:
            raise range_error(prefix, f.name, value, valid)


@dataclass(frozen=True, slots=True)
class Params:
    """Physical parameters; override with ``dataclasses.replace(Params(), mu_r=0.012)``.

    - ``R``, ``m``: ball radius (m) and mass (kg).
    - ``g``: gravity (m/s^2).
    - ``mu_s``: sliding friction between ball and cloth (a sliding ball slows by
      ``mu_s * g``); also the friction at the bed during a cushion impact.
    - ``mu_r``: rolling resistance (a rolling ball slows by ``mu_r * g``).
    - ``mu_sp``: spin friction, pooltool's convention: the vertical-axis spin slows by
      ``5 * mu_sp * g / (2 * R)`` rad/s^2 (default: 22 rad/s^2, measured for snooker balls;
      it does not follow ``R``).
    - ``e_b``: ball-ball restitution.
    - ``mu_b_a``, ``mu_b_b``, ``mu_b_c``: ball-ball friction
      ``mu_b = a + b * exp(-c * v)`` with v the sliding speed between the ball surfaces
      at the contact (Alciatore, TP A-14); all zero gives frictionless collisions.
    - ``cushion_model``: how cushion, jaw and knuckle impacts are resolved
      (:class:`CushionModel`; a name such as ``"han2005"`` is accepted).
    - ``e_c``: the cushion's coefficient of restitution. In ``mathavan2010`` it is
      energetic: the work the cushion gives back in restitution is ``e_c**2`` of the work
      it took in compression (so a rolling ball square on rebounds at 0.91 of its speed
      with 0.98, not at 0.98). In ``han2005`` it is Newton's, on the normal velocity of
      the ball's surface at the contact point (so a rolling ball square on rebounds at
      ``(1 + e_c) cos^2(theta) - 1``, 0.69 at 0.85).
    - ``e_c_drop``, ``e_c_speed``: above a normal speed (the centre's, towards the
      cushion) of ``e_c_speed`` the restitution falls linearly, over 0.2 m/s, by the
      fraction ``e_c_drop`` of ``e_c`` (0: a constant restitution). A fraction, so that it
      follows ``e_c`` when that is changed.
    - ``f_c``: friction between ball and cushion (Mathavan's mu_w; Han's f_c).
    - ``cushion_height``: height h of the cushion's contact point above the cloth
      (R <= h < 2R; default 7R/5, 0.7 of the ball diameter, as on a snooker table). In the
      air it is the height of the cushion's nose edge and of its flat top and the rail.
    - ``e_table``: the ball-slate restitution (a ball coming down on the bed, or driven
      into it by an elevated cue, rebounds at ``e_table`` of its vertical speed).
    - ``rail_width``: how far the cushion's top and the wooden rail reach beyond the
      cushion's nose line (m); a ball in the air that passes it leaves the table.
    - ``cue_mass``, ``cue_end_mass``: the cue's mass and the effective mass of its tip
      end, for the cue speed of a strike and for squirt (Alciatore, TP A-31);
      ``cue_end_mass = 0`` turns squirt off.
    """

    R: float = _BALL_RADIUS
    m: float = 0.1406
    g: float = _G
    mu_s: float = 0.212
    mu_r: float = ROLLING_DECELERATION / _G
    mu_sp: float = 2 * _BALL_RADIUS * SPIN_DECELERATION / (5 * _G)
    e_b: float = 0.95
    e_c: float = 0.98
    f_c: float = 0.14
    cushion_height: float = 0.7 * 2 * _BALL_RADIUS
    mu_b_a: float = 9.951e-3
    mu_b_b: float = 0.108
    mu_b_c: float = 1.088
    cue_mass: float = 0.57
    cue_end_mass: float = 0.008
    cushion_model: CushionModel = CushionModel.MATHAVAN2010
    e_c_drop: float = 0.097
    e_c_speed: float = 2.5
    e_table: float = TABLE_RESTITUTION
    rail_width: float = RAIL_WIDTH

    def __post_init__(self) -> None:
        object.__setattr__(self, "cushion_model", cushion_model(self.cushion_model))
        check_ranges("params", self, PARAM_RANGES)
        if not self.R <= self.cushion_height < 2 * self.R:
            valid = f"[R, 2R) = [{self.R}, {2 * self.R})"
            raise range_error("params", "cushion_height", self.cushion_height, valid)
        if self.cue_end_mass >= self.cue_mass:
            valid = f"[0, cue_mass) = [0, {self.cue_mass})"
            raise range_error("params", "cue_end_mass", self.cue_end_mass, valid)

    def as_json(self) -> dict[str, Any]:
        """Every field as JSON data (the model by its name): what a record writes and
        :func:`params_from_fields` reads back."""
        out: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        out["cushion_model"] = self.cushion_model.value
        return out


#: The fields of :class:`Params` that take a name rather than a number (those holding an
#: enum), each with the names it accepts in order: the one list the shot protocol and the
#: studies read (a new categorical field is named here by its default's type).
NAMED_PARAMS: Mapping[str, tuple[str, ...]] = {
    f.name: tuple(member.value for member in type(f.default))
    for f in fields(Params)
    if isinstance(f.default, Enum)
}


#: What the fields an older engine did not have meant in it: Han's cushions with a
#: constant restitution.
_LEGACY: dict[str, object] = {"cushion_model": CushionModel.HAN2005.value, "e_c_drop": 0.0}


def params_with(overrides: Mapping[str, object]) -> Params:
    """The defaults with ``overrides`` (field name -> value; the cushion model by its name):
    the one reader of parameters given field by field, for the shot protocol, the studies
    and the records. :class:`PhysicsInputError` names an unknown field or a bad value."""
    names = [f.name for f in fields(Params)]
    for name in overrides:
        if name not in names:
            raise PhysicsInputError(
                f"params.{name}: not a parameter (known: {', '.join(names)})"
            )
    values: dict[str, Any] = dict(overrides)
    return Params(**values)


def params_from_fields(values: Mapping[str, Any]) -> Params:
    """The parameters a record or a caller wrote down field by field (every field of
    :class:`Params`, as :meth:`Params.as_json` writes them). A mapping without
    ``cushion_model`` was written by an engine older than the cushion models
    (``ENGINE_VERSION`` < 3): its missing fields take that engine's meaning, Han's
    cushions with a constant restitution. Raises :class:`PhysicsInputError` for an
    unknown field or a bad value."""
    if "cushion_model" in values:
        return params_with(values)
    return params_with({**_LEGACY, **values})


#: The defaults of the engines before the cushion models (``ENGINE_VERSION`` < 3): Han's
#: cushions (e_c 0.85, f_c 0.2) on a cloth of mu_s 0.2, mu_r 0.01, mu_sp 0.444 R. For
#: comparisons (the benchmark's "today", the validation page's "before").
LEGACY_DEFAULTS = Params(
    mu_s=0.2,
    mu_r=0.01,
    mu_sp=0.444 * _BALL_RADIUS,
    cushion_model=CushionModel.HAN2005,
    e_c=0.85,
    e_c_drop=0.0,
    f_c=0.2,
)
