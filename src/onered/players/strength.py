"""How well an AI player plays: his execution noise and his search budget.

The noise is Gaussian on the cue action, as in the computational pool tournaments (Smith
2007; Archibald, Altman, Greenspan & Shoham 2010): on the aim (degrees), on the launch
speed (a relative error), on the tip offset (side and height, fractions of the radius) and
on the cue's elevation (degrees; a cue never goes below the least elevation the rail and
the balls allow, ``onered.players.elevation``, so the error raises a cue that is at it).
The budget says how many strokes the player simulates before he chooses. Both are plain
values: a level is a :class:`Strength`.

The levels are defined here once: :class:`Level` names them by what they are like (a
novice to a master), :data:`LEVELS` gives each its :class:`Strength`, and
:data:`STRENGTHS` the same by the name the records and the web use (``ai:pro``). Each
level's :class:`Measured` figures come from ``benchmarks/bench_strength.py`` (see
``docs/players.md``); :func:`adapt` picks the level whose measured points per visit are
nearest a person's.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from onered.physics.cue import (
    MAX_ELEVATION,
    MAX_SPEED,
    MAX_TIP_OFFSET,
    MIN_ELEVATION,
    MIN_SPEED,
    squirt_angle,
)
from onered.physics.params import Params
from onered.physics.types import Strike

#: The cue whose squirt a player allows for: the engine's default (a player's feel for his
#: own cue, not a table's parameter).
_SQUIRT_PARAMS = Params()


#: The pace at which a level's ``aim`` and ``tip`` errors are its stated ones (m/s of the
#: cue ball's launch): a medium-paced stroke, the commonest in the game.
REFERENCE_PACE = 1.5
#: Draws of one stroke's noise, as unit Gaussians (aim, speed, side, height, elevation),
#: scaled by :meth:`Noise.deliver` for the stroke meant. Drawn apart from the stroke, so a
#: search can judge many strokes under the same draws (common random numbers).
Draw = tuple[float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Noise:
    """Standard deviations of the execution errors: ``aim`` in degrees, ``speed`` relative
    (0.05 = 5 %), ``tip`` in units of the ball radius (for side and height alike),
    ``elevation`` in degrees (0: the cue's elevation is delivered as meant) — the ``aim``
    and ``tip`` errors at :data:`REFERENCE_PACE`.

    Power and side cost what they cost (``docs/players.md``, *Execution noise*):

    - ``pace``: the aim and tip errors grow linearly with the launch speed, by this share
      of their reference value per m/s (Schmidt et al. 1979: the spread of a rapid aimed
      movement grows linearly with its velocity; the speed's error, already relative,
      stays so: the force's spread grows with the force);
    - ``side``: the share of the squirt angle of the side used
      (``onered.physics.cue.squirt_angle``) that the player leaves uncompensated, as an
      extra aim error: side must be allowed for, and is allowed for imperfectly (Pan,
      Komar & Kong 2021 measured spin strokes' errors falling from recreational to
      national-team players).
    """

    aim: float
    speed: float
    tip: float
    elevation: float = 0.0
    pace: float = 0.0
    side: float = 0.0

    def __post_init__(self) -> None:
        for name in ("aim", "speed", "tip", "elevation", "side"):
            value = getattr(self, name)
            if not 0 <= value < 10:
                raise ValueError(f"noise.{name}: expected a value in [0, 10), got {value!r}")
        if not 0 <= self.pace <= 1 / REFERENCE_PACE:
            raise ValueError(
                f"noise.pace: expected a value in [0, {1 / REFERENCE_PACE:.3f}] (the errors "
                f"of a stroke at rest may not be below 0), got {self.pace!r}"
            )

    def growth(self, speed: float) -> float:
        """How many times its reference value the aim and tip errors are at ``speed``."""
        return 1.0 + self.pace * (speed - REFERENCE_PACE)

    def aim_sigma(self, strike: Strike) -> float:
        """The aim's error (degrees) for the stroke meant: the pace's share and the side's
        uncompensated squirt, independent errors added in quadrature."""
        pace = self.aim * self.growth(strike.speed)
        if not self.side or not strike.side:
            return pace
        squirt = math.degrees(abs(squirt_angle(strike.side, _SQUIRT_PARAMS)))
        return math.hypot(pace, self.side * squirt)

    def draw(self, rng: random.Random) -> Draw:
        """One stroke's draws, in a fixed order (aim, speed, side, height, then the
        elevation only when its error is not 0: a noise without it draws as before)."""
        gauss = rng.gauss
        return (
            gauss(0.0, 1.0),
            gauss(0.0, 1.0),
            gauss(0.0, 1.0),
            gauss(0.0, 1.0),
            gauss(0.0, 1.0) if self.elevation else 0.0,
        )

    def deliver(self, strike: Strike, draw: Draw) -> Strike:
        """The strike delivered when the player means ``strike`` and his draws are
        ``draw``: each error scaled for this stroke (:meth:`aim_sigma`, the tip's by
        :meth:`growth`), then the strike kept within the limits of a cue action. The least
        elevation the position allows is the caller's (``Clearance.lift``)."""
        da, dv, ds, dh, de = draw
        tip = self.tip * self.growth(strike.speed)
        return clamp_strike(
            Strike(
                strike.speed * (1.0 + self.speed * dv),
                strike.aim + self.aim_sigma(strike) * da,
                strike.side + tip * ds,
                strike.height + tip * dh,
                strike.elevation + self.elevation * de,
            )
        )

    def apply(self, strike: Strike, rng: random.Random) -> Strike:
        """The strike actually delivered when the player means ``strike``, its draws from
        ``rng`` (:meth:`draw`, :meth:`deliver`)."""
        return self.deliver(strike, self.draw(rng))


def clamp_strike(strike: Strike) -> Strike:
    """``strike`` with its speed in [MIN_SPEED, MAX_SPEED], its tip offset within the
    engine's limit and its elevation in [MIN_ELEVATION, MAX_ELEVATION]
    (``onered.physics.cue``)."""
    speed = min(MAX_SPEED, max(MIN_SPEED, strike.speed))
    elevation = min(MAX_ELEVATION, max(MIN_ELEVATION, strike.elevation))
    side, height = strike.side, strike.height
    offset = (side * side + height * height) ** 0.5
    if offset > MAX_TIP_OFFSET:
        k = MAX_TIP_OFFSET / offset * (1 - 1e-9)
        side, height = side * k, height * k
    if (speed, side, height, elevation) == (
        strike.speed,
        strike.side,
        strike.height,
        strike.elevation,
    ):
        return strike
    return Strike(speed, strike.aim, side, height, elevation)


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
    - ``sides``: side (fractions of R) tried in the scan besides none, each as running
      and as check side (both signs), at the middle tip height.
    - ``probes``: the noise draws the leaders and the refined strokes are screened by
      (0: ranked by their noiseless and aim-smoothed values alone, as the weakest levels
      judge: they do not think about their own errors).
    - ``polish``: rounds of the local optimiser over aim, speed, side and height around
      each finalist, every point valued by its mean over ``probes`` noise draws (0: none;
      it needs probe draws).
    - ``side_heights``: the side is tried at every tip height, not only the middle one
      (the coach's thorough scan: top or screw with side).
    - ``race``: the best this many finalists after their ``samples`` are played again
      under twice as many draws before the choice (0: no race).
    - ``lookahead``: the second ply — the samples of each finalist whose visit goes on are
      clustered by where the balls came to rest, and up to this many clusters are valued
      by a short search of the next stroke from their typical position, instead of by the
      leave model — where the baulk-line crossing is planned, the one place it measured
      at least as strong (0: the leave model alone; ``docs/players.md``).
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
    sides: tuple[float, ...] = ()
    polish: int = 0
    probes: int = 8
    lookahead: int = 0
    race: int = 0
    side_heights: bool = False


class Level(Enum):
    """The AI's levels of play, weakest first, named by what they are like."""

    NOVICE = "novice"  # has just picked up a cue: the easy pots and in-offs, sometimes
    BEGINNER = "beginner"  # knows the strokes, rarely strings three together
    AMATEUR = "amateur"  # a regular player: breaks into the teens and twenties
    CLUB = "club"  # a good club player: breaks of 30-50
    PRO = "pro"  # a professional: breaks of 50 and more, the odd century
    MASTER = "master"  # the best there is: near-perfect cue action, the deepest search


@dataclass(frozen=True, slots=True)
class Measured:
    """A level's figures from ``benchmarks/bench_strength.py``: points per visit, the
    average break of scoring visits, the highest break and fouls per game."""

    points_per_visit: float
    average_break: float
    top_break: int
    fouls_per_game: float


@dataclass(frozen=True, slots=True)
class Strength:
    """A level of play: ``noise``, ``budget``, and ``continuation`` — the points the player
    expects to add after a successful stroke, which weighs the value of a leave."""

    name: str
    noise: Noise
    budget: Budget
    continuation: float
    measured: Measured | None = None


def _budget(
    placements: int,
    window: int,
    speeds: tuple[float, ...],
    heights: tuple[float, ...],
    cushion_aims: int,
    stages: tuple[int, int, int, int, int],
    *,
    sides: tuple[float, ...] = (),
    polish: int = 0,
    probes: int = 8,
    lookahead: int = 0,
    race: int = 0,
) -> Budget:
    refine, fine_aims, variants, finalists, samples = stages
    return Budget(
        placements,
        window,
        speeds,
        heights,
        cushion_aims,
        refine,
        fine_aims,
        variants,
        finalists,
        samples,
        sides,
        polish,
        probes,
        lookahead,
        race,
    )


#: Every level's growth of the aim and tip errors with pace (per m/s; ``Noise.pace``): the
#: errors of a dead-weight stroke are 0.4 of those at the reference pace, of a 6 m/s power
#: stroke 2.8 times (Schmidt et al. 1979's linear law, its slope our assumption; the same
#: for every level, as the law holds for skilled and unskilled movers alike).
PACE = 0.4
#: The speeds the strongest levels scan (m/s): from a dead-weight stroke to a power one.
_FULL_PACE = (0.55, 0.85, 1.25, 1.8, 2.6, 3.8, 5.4, 7.0)
#: Every level's strength. The ``measured`` figures are those of the benchmark in
#: ``docs/players.md``: ``bench_strength.py games`` to 100 against the levels next to it,
#: 200 games a pair, seed 1, on the table with flight (ENGINE_VERSION 4; the top break is
#: bounded by the target of 100), with this search and noise (issue 21): points per visit
#: pooled over a level's two pairs, the average break weighted by visits. A level's
#: elevation error, in degrees, is the height error of the butt at the grip hand, about a
#: metre behind the tip: 0.3 degrees is 5 mm there for a master, 3 degrees 5 cm for a
#: novice (``docs/players.md``).
LEVELS: dict[Level, Strength] = {
    Level.NOVICE: Strength(
        name=Level.NOVICE.value,
        noise=Noise(aim=0.6, speed=0.12, tip=0.1, elevation=3.0, pace=PACE, side=0.10),
        budget=_budget(2, 7, (1.0, 2.0), (0.0,), 0, (3, 3, 0, 2, 4), probes=0),
        continuation=0.5,
        measured=Measured(0.39, 2.92, 15, 9.775),
    ),
    Level.BEGINNER: Strength(
        name=Level.BEGINNER.value,
        noise=Noise(aim=0.25, speed=0.08, tip=0.05, elevation=2.0, pace=PACE, side=0.06),
        budget=_budget(3, 9, (0.9, 1.6, 2.8), (0.0,), 0, (4, 5, 0, 3, 6), probes=0),
        continuation=1.0,
        measured=Measured(0.88, 3.45, 18, 2.728),
    ),
    Level.AMATEUR: Strength(
        name=Level.AMATEUR.value,
        noise=Noise(aim=0.08, speed=0.04, tip=0.02, elevation=1.2, pace=PACE, side=0.035),
        budget=_budget(
            5,
            13,
            (0.7, 1.2, 1.9, 3.0, 4.5),
            (-0.4, 0.0, 0.4),
            3,
            (8, 7, 2, 5, 12),
            sides=(0.3,),
            race=2,
        ),
        continuation=3.0,
        measured=Measured(6.85, 10.57, 77, 0.142),
    ),
    Level.CLUB: Strength(
        name=Level.CLUB.value,
        noise=Noise(aim=0.045, speed=0.025, tip=0.012, elevation=0.8, pace=PACE, side=0.02),
        budget=_budget(
            6,
            15,
            (0.6, 0.95, 1.4, 2.1, 3.2, 4.8),
            (-0.45, 0.0, 0.45),
            4,
            (10, 9, 3, 6, 16),
            sides=(0.3,),
            polish=1,
            race=2,
        ),
        continuation=5.0,
        measured=Measured(14.11, 20.01, 97, 0.065),
    ),
    Level.PRO: Strength(
        name=Level.PRO.value,
        noise=Noise(aim=0.025, speed=0.015, tip=0.006, elevation=0.5, pace=PACE, side=0.014),
        budget=_budget(
            6,
            15,
            _FULL_PACE,
            (-0.5, 0.0, 0.45),
            5,
            (12, 9, 4, 6, 20),
            sides=(0.35,),
            polish=2,
            race=3,
            lookahead=2,
        ),
        continuation=7.0,
        measured=Measured(30.04, 37.25, 104, 0.01),
    ),
    Level.MASTER: Strength(
        name=Level.MASTER.value,
        noise=Noise(aim=0.012, speed=0.008, tip=0.003, elevation=0.3, pace=PACE, side=0.01),
        budget=_budget(
            6,
            15,
            _FULL_PACE,
            (-0.5, 0.0, 0.45),
            5,
            (14, 9, 4, 7, 24),
            sides=(0.35,),
            polish=2,
            race=3,
            lookahead=2,
        ),
        continuation=10.0,
        measured=Measured(50.24, 60.58, 105, 0.0),
    ),
}
#: The same strengths by the name records and the web use (``ai:<name>``).
STRENGTHS: dict[str, Strength] = {level.value: strength for level, strength in LEVELS.items()}


def adapt(points_per_visit: float) -> Level:
    """The level whose measured points per visit are nearest ``points_per_visit`` (a
    person's, over his recent games): the computer that will give him a game. Nearness
    is on a log scale (3 and 6 points a visit are as far apart as 15 and 30); a tie
    goes to the weaker level."""
    if isinstance(points_per_visit, bool) or not math.isfinite(points_per_visit):
        raise ValueError(f"points_per_visit: expected a finite number, got {points_per_visit!r}")
    if points_per_visit < 0:
        raise ValueError(f"points_per_visit: expected 0 or more, got {points_per_visit!r}")
    x = math.log(points_per_visit + 1.0)

    def distance(level: Level) -> float:
        measured = LEVELS[level].measured
        ppv = measured.points_per_visit if measured is not None else 0.0
        return abs(math.log(ppv + 1.0) - x)

    return min(Level, key=distance)


def adapt_to_visits(visits: Iterable[int]) -> Level:
    """:func:`adapt` for a person's recent visits, given as the points each scored (his
    breaks, including the visits that scored nothing)."""
    points = list(visits)
    if not points:
        raise ValueError("visits: expected at least one visit")
    for p in points:
        if isinstance(p, bool) or not isinstance(p, int) or p < 0:
            raise ValueError(f"visits: expected points of 0 or more, got {p!r}")
    return adapt(sum(points) / len(points))
