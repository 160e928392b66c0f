"""How well an AI player plays: his execution noise and his search budget.

The noise is Gaussian on the cue action, as in the computational pool tournaments (Smith
2007; Archibald, Altman, Greenspan & Shoham 2010): on the aim (degrees), on the launch
speed (a relative error) and on the tip offset (side and height, fractions of the radius).
The budget says how many strokes the player simulates before he chooses. Both are plain
values: a level is a :class:`Strength`, and :data:`STRENGTHS` holds the three named ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from onered.physics.types import Strike

#: The cue action's limits (shot protocol): launch speed and tip offset.
MIN_SPEED = 0.05
MAX_SPEED = 10.0
MAX_TIP = 0.8


@dataclass(frozen=True, slots=True)
class Noise:
    """Standard deviations of the execution errors: ``aim`` in degrees, ``speed`` relative
    (0.05 = 5 %), ``tip`` in units of the ball radius (for side and height alike)."""

    aim: float
    speed: float
    tip: float

    def __post_init__(self) -> None:
        for name in ("aim", "speed", "tip"):
            value = getattr(self, name)
            if not 0 <= value < 10:
                raise ValueError(f"noise.{name}: expected a value in [0, 10), got {value!r}")

    def apply(self, strike: Strike, rng: random.Random) -> Strike:
        """The strike actually delivered when the player means ``strike``: each part drawn
        from its Gaussian (in a fixed order: aim, speed, side, height), then kept within
        the limits of a cue action."""
        aim = strike.aim + rng.gauss(0.0, self.aim)
        speed = strike.speed * (1.0 + rng.gauss(0.0, self.speed))
        side = strike.side + rng.gauss(0.0, self.tip)
        height = strike.height + rng.gauss(0.0, self.tip)
        return clamp_strike(Strike(speed, aim, side, height, strike.elevation))


def clamp_strike(strike: Strike) -> Strike:
    """``strike`` with its speed in [0.05, 10] m/s and its tip offset within 0.8 R."""
    speed = min(MAX_SPEED, max(MIN_SPEED, strike.speed))
    side, height = strike.side, strike.height
    offset = (side * side + height * height) ** 0.5
    if offset > MAX_TIP:
        k = MAX_TIP / offset * (1 - 1e-9)
        side, height = side * k, height * k
    if (speed, side, height) == (strike.speed, strike.side, strike.height):
        return strike
    return Strike(speed, strike.aim, side, height, strike.elevation)


@dataclass(frozen=True, slots=True)
class Budget:
    """The search: how many candidate strokes are simulated, stage by stage.

    - ``placements``: places in the D tried from hand, besides the ones aimed at a shot.
    - ``window``: aims spread across each object ball (thin left to thin right).
    - ``speeds`` (m/s) and ``heights`` (tip height, fractions of R): the cue actions tried
      at every aim of the first scan.
    - ``cushion_aims``: aims at each object ball off each cushion.
    - ``refine``: the best candidates of the scan refined; ``fine_aims`` aims each, around
      the candidate's, and ``variants`` changes of speed and spin each.
    - ``finalists``: the refined candidates evaluated under noise, ``samples`` simulations
      each (the same noise draws for every finalist).
    """

    placements: int
    window: int
    speeds: tuple[float, ...]
    heights: tuple[float, ...]
    cushion_aims: int
    refine: int
    fine_aims: int
    variants: int
    finalists: int
    samples: int


@dataclass(frozen=True, slots=True)
class Strength:
    """A level of play: ``noise``, ``budget``, and ``continuation`` — the points the player
    expects to add after a successful stroke, which weighs the value of a leave."""

    name: str
    noise: Noise
    budget: Budget
    continuation: float


STRENGTHS: dict[str, Strength] = {
    "beginner": Strength(
        name="beginner",
        noise=Noise(aim=0.25, speed=0.08, tip=0.05),
        budget=Budget(
            placements=3,
            window=9,
            speeds=(0.9, 1.6, 2.8),
            heights=(0.0,),
            cushion_aims=0,
            refine=4,
            fine_aims=5,
            variants=0,
            finalists=3,
            samples=6,
        ),
        continuation=1.0,
    ),
    "amateur": Strength(
        name="amateur",
        noise=Noise(aim=0.08, speed=0.04, tip=0.02),
        budget=Budget(
            placements=5,
            window=13,
            speeds=(0.7, 1.2, 1.9, 3.0),
            heights=(-0.4, 0.0, 0.4),
            cushion_aims=3,
            refine=8,
            fine_aims=7,
            variants=2,
            finalists=5,
            samples=12,
        ),
        continuation=3.0,
    ),
    "pro": Strength(
        name="pro",
        noise=Noise(aim=0.025, speed=0.015, tip=0.006),
        budget=Budget(
            placements=6,
            window=15,
            speeds=(0.55, 0.85, 1.25, 1.8, 2.6, 3.8),
            heights=(-0.5, 0.0, 0.45),
            cushion_aims=5,
            refine=12,
            fine_aims=9,
            variants=4,
            finalists=6,
            samples=20,
        ),
        continuation=7.0,
    ),
}
