"""Physical parameters of balls, cloth, cushions and cue (SI units).

Defaults follow ``shared/design/PHYSICS.md``: snooker balls (R = 26.25 mm, m = 140.6 g), a
napped cloth (mu_s = 0.2, mu_r = 0.01), pooltool's spin-friction convention
(mu_sp = 0.444 R: the vertical-axis spin slows by 5 mu_sp g / (2 R) rad/s^2), ball-ball
restitution 0.95 with Alciatore's speed-dependent ball-ball friction (TP A-14), and the
cushion model of Han (2005) with e_c = 0.85, f_c = 0.2 and the nose touching the ball at
70 % of its diameter above the cloth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

from onered.physics.errors import PhysicsInputError

_BALL_RADIUS = 0.02625


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
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise PhysicsInputError(f"params.{f.name} must be a number, got {value!r}")
            if not math.isfinite(value):
                raise PhysicsInputError(f"params.{f.name} must be finite, got {value!r}")
        for name in ("R", "m", "g", "mu_s", "mu_r", "cue_mass"):
            if getattr(self, name) <= 0:
                raise PhysicsInputError(
                    f"params.{name} must be positive, got {getattr(self, name)!r}"
                )
        for name in ("mu_sp", "f_c", "mu_b_a", "mu_b_b", "mu_b_c", "cue_end_mass"):
            if getattr(self, name) < 0:
                raise PhysicsInputError(
                    f"params.{name} must not be negative, got {getattr(self, name)!r}"
                )
        for name in ("e_b", "e_c"):
            if not 0 <= getattr(self, name) <= 1:
                raise PhysicsInputError(
                    f"params.{name} must lie in [0, 1], got {getattr(self, name)!r}"
                )
        if not self.R <= self.cushion_height < 2 * self.R:
            raise PhysicsInputError(
                f"params.cushion_height must lie in [R, 2R) = [{self.R}, {2 * self.R}), "
                f"got {self.cushion_height!r}"
            )
