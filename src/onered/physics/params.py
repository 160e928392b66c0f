"""Physical parameters of balls, cloth, cushions and cue (SI units).

Defaults (the table's geometry: ``docs/table.md``): snooker balls (R = 26.25 mm, m = 140.6 g),
a napped cloth (mu_s = 0.2, mu_r = 0.01), pooltool's spin-friction convention
(mu_sp = 0.444 R: the vertical-axis spin slows by 5 mu_sp g / (2 R) rad/s^2), ball-ball
restitution 0.95 with Alciatore's speed-dependent ball-ball friction (TP A-14), and the
cushion model of Han (2005) with e_c = 0.85, f_c = 0.2 and the nose touching the ball at
70 % of its diameter above the cloth.

Every field has a physical range (:data:`PARAM_RANGES`, the one place where the ranges
live: the shot protocol maps these errors to its own fields). A value outside it is refused
with :class:`PhysicsInputError` whose message starts with ``params.<name>:``. The ranges
cover every billiard, snooker and pool ball and cloth with room to spare, and keep every
stroke finite: friction coefficients have positive lower bounds (with ``mu_sp = 0`` a
spinning ball would never stop; with ``mu_r`` or ``g`` near zero a ball would roll for
kilometres), and gravity stays within [1, 30] m/s^2.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from onered.physics.errors import PhysicsInputError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

_BALL_RADIUS = 0.02625


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
    "mu_sp": Range(0.001, 0.1),  # about 0.444 R = 0.012; 0 would be spin that never decays
    "e_b": Range(0.0, 1.0),
    "e_c": Range(0.0, 1.0),
    "f_c": Range(0.0, 1.0),
    "cushion_height": Range(0.02, 0.07, "m"),  # and within [R, 2R)
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
    """Check every field of a parameter dataclass: a finite number within its range."""
    for f in fields(obj):
        value = getattr(obj, f.name)
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
    - ``mu_s``: sliding friction between ball and cloth.
    - ``mu_r``: rolling resistance (a rolling ball slows by ``mu_r * g``).
    - ``mu_sp``: spin friction, pooltool's convention: the vertical-axis spin slows by
      ``5 * mu_sp * g / (2 * R)`` rad/s^2 (default 0.444 R; it does not follow ``R``).
    - ``e_b``: ball-ball restitution.
    - ``mu_b_a``, ``mu_b_b``, ``mu_b_c``: ball-ball friction
      ``mu_b = a + b * exp(-c * v)`` with v the sliding speed between the ball surfaces
      at the contact (Alciatore, TP A-14); all zero gives frictionless collisions.
    - ``e_c``, ``f_c``: cushion restitution and friction (Han 2005).
    - ``cushion_height``: height h of the cushion's contact point above the cloth
      (R < h < 2R; default 0.7 of the ball diameter).
    - ``cue_mass``, ``cue_end_mass``: the cue's mass and the effective mass of its tip
      end, for the cue speed of a strike and for squirt (Alciatore, TP A-31);
      ``cue_end_mass = 0`` turns squirt off.
    """

    R: float = _BALL_RADIUS
    m: float = 0.1406
    g: float = 9.81
    mu_s: float = 0.2
    mu_r: float = 0.01
    mu_sp: float = 0.444 * _BALL_RADIUS
    e_b: float = 0.95
    e_c: float = 0.85
    f_c: float = 0.2
    cushion_height: float = 0.7 * 2 * _BALL_RADIUS
    mu_b_a: float = 9.951e-3
    mu_b_b: float = 0.108
    mu_b_c: float = 1.088
    cue_mass: float = 0.57
    cue_end_mass: float = 0.008

    def __post_init__(self) -> None:
        check_ranges("params", self, PARAM_RANGES)
        if not self.R <= self.cushion_height < 2 * self.R:
            valid = f"[R, 2R) = [{self.R}, {2 * self.R})"
            raise range_error("params", "cushion_height", self.cushion_height, valid)
        if self.cue_end_mass >= self.cue_mass:
            valid = f"[0, cue_mass) = [0, {self.cue_mass})"
            raise range_error("params", "cue_end_mass", self.cue_end_mass, valid)
