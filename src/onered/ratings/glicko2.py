"""The Glicko-2 rating system, as Glickman's "Example of the Glicko-2 system" (Boston
University, 30 November 2013, glicko.net/glicko/glicko2.pdf) sets it out, step by step.

A :class:`Rating` is a player's rating ``r``, rating deviation ``RD`` and volatility
``sigma`` on the familiar scale (1500 / 350 / 0.06 for an unrated player, the paper's step
1); the arithmetic is on the paper's Glicko-2 scale (``mu = (r - 1500) / 173.7178``,
``phi = RD / 173.7178``, step 2). :func:`rate` is one rating period of one player (steps
3-8), :func:`idle` the deviation's growth over rating periods without games, and
:func:`expected_score` the chance one player beats another.

Pure values and functions, standard library only. Why not a library: ``docs/ratings.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from onered.errors import OneredError

#: The factor between the familiar scale and the Glicko-2 scale (the paper's step 2).
SCALE = 173.7178
#: An unrated player's rating, deviation and volatility (the paper's step 1).
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: The system constant tau: how fast the volatility may change (the paper: 0.3 to 1.2;
#: its example uses 0.5).
DEFAULT_TAU = 0.5
#: The convergence tolerance of the volatility's iteration (the paper's step 5).
DEFAULT_EPSILON = 1e-6


class RatingError(OneredError, ValueError):
    """A rating, a result or a setting that is not one; the message names it."""

    default_code = "rating"


def _finite(value: float, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RatingError(f"{name}: expected a finite number, got {value!r}", params={"name": name})
    return float(value)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's ``rating`` (r), ``deviation`` (RD) and ``volatility`` (sigma), on the
    familiar scale. ``rating - 2 * deviation`` to ``rating + 2 * deviation`` is the paper's
    95 % interval of the player's strength."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        _finite(self.rating, "rating")
        if _finite(self.deviation, "deviation") <= 0:
            raise RatingError(f"deviation: expected more than 0, got {self.deviation!r}")
        if _finite(self.volatility, "volatility") <= 0:
            raise RatingError(f"volatility: expected more than 0, got {self.volatility!r}")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale."""
        return self.deviation / SCALE

    @classmethod
    def of_scale(cls, mu: float, phi: float, volatility: float) -> Rating:
        """The rating whose Glicko-2 values are ``mu``, ``phi`` (the paper's step 8)."""
        return cls(SCALE * mu + DEFAULT_RATING, SCALE * phi, volatility)


@dataclass(frozen=True, slots=True)
class System:
    """The system's settings: ``tau`` (the paper's system constant), ``epsilon`` (its
    tolerance) and ``max_deviation``, the deviation no idle time takes a player past (an
    unrated player's: idleness never makes a rating less known than none)."""

    tau: float = DEFAULT_TAU
    epsilon: float = DEFAULT_EPSILON
    max_deviation: float = DEFAULT_DEVIATION

    def __post_init__(self) -> None:
        for name in ("tau", "epsilon", "max_deviation"):
            if _finite(getattr(self, name), name) <= 0:
                raise RatingError(f"{name}: expected more than 0, got {getattr(self, name)!r}")


@dataclass(frozen=True, slots=True)
class Result:
    """One game of a rating period, from the player's side: the ``opponent``'s rating at
    the start of the period and the ``score`` (1 a win, 0 a loss, 0.5 a draw)."""

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if not 0.0 <= _finite(self.score, "score") <= 1.0:
            raise RatingError(f"score: expected 0 to 1, got {self.score!r}")


@dataclass(frozen=True, slots=True)
class Period:
    """One player's rating period worked out: the paper's intermediate quantities ``v``
    (step 3) and ``delta`` (step 4), the new volatility (step 5), ``phi_star`` (step 6),
    and the new rating (steps 7-8)."""

    v: float
    delta: float
    volatility: float
    phi_star: float
    rating: Rating


def g(phi: float) -> float:
    """The paper's g(phi): how much an opponent's uncertainty damps a result's weight."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def expectation(mu: float, mu_j: float, phi_j: float) -> float:
    """The paper's E(mu, mu_j, phi_j): the expected score against opponent j."""
    return 1.0 / (1.0 + math.exp(-g(phi_j) * (mu - mu_j)))


def expected_score(a: Rating, b: Rating) -> float:
    """The chance that ``a`` beats ``b`` in one game, both ratings' uncertainty counted
    (Glickman's expected outcome of two rated players: g of the combined deviation)."""
    return expectation(a.mu, b.mu, math.hypot(a.phi, b.phi))


def _volatility(phi: float, sigma: float, v: float, delta: float, system: System) -> float:
    """The paper's step 5: the new volatility, by the Illinois algorithm. A step's test
    is ``f(C) f(B) <= 0`` (Glickman's later correction of ``< 0``, which stalls when
    ``f(C)`` is exactly 0)."""
    tau = system.tau
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > system.epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def period(player: Rating, results: Sequence[Result], system: System = System()) -> Period:
    """One rating period of ``player`` with ``results`` (at least one), every quantity of
    the paper's steps 3-8. The opponents' ratings are theirs at the period's start."""
    if not results:
        raise RatingError("results: a rated period needs at least one game")
    mu, phi = player.mu, player.phi
    weights = [
        (g(r.opponent.phi), expectation(mu, r.opponent.mu, r.opponent.phi), r.score)
        for r in results
    ]
    v = 1.0 / sum(gj * gj * e * (1.0 - e) for gj, e, _ in weights)
    improvement = sum(gj * (s - e) for gj, e, s in weights)
    delta = v * improvement
    sigma = _volatility(phi, player.volatility, v, delta, system)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Period(v, delta, sigma, phi_star, Rating.of_scale(new_mu, new_phi, sigma))


def rate(player: Rating, results: Sequence[Result], system: System = System()) -> Rating:
    """``player``'s rating after a rating period with ``results``; with none, the paper's
    rule for a player who does not compete (only the deviation grows, one period)."""
    if not results:
        return idle(player, 1.0, system)
    return period(player, results, system).rating


def idle(player: Rating, periods: float, system: System = System()) -> Rating:
    """``player``'s rating after ``periods`` rating periods without games (a fraction
    counts its share): ``phi`` grows to ``sqrt(phi^2 + periods * sigma^2)``, the paper's
    rule for a player who does not compete applied per period, and at most to
    ``system.max_deviation``."""
    if _finite(periods, "periods") < 0:
        raise RatingError(f"periods: expected 0 or more, got {periods!r}")
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    # never below the start (the scale's round trip may lose the last bit)
    grown = max(player.deviation, SCALE * phi)
    deviation = min(grown, max(system.max_deviation, player.deviation))
    return Rating(player.rating, deviation, player.volatility)
