"""Handicap starts from ratings: the points a weaker player is given at the start of each
game so that his expected game score is even.

The model of points (``docs/ratings.md``, "Handicap"): a game is a race to the target in
which points come in lumps of ``unit`` points, each lump going to player A with the same
chance ``p``, independently. A needing ``a`` lumps and B ``b`` wins first with chance
``I_p(a, b)``, the regularized incomplete beta function (the chance of ``a`` successes
before ``b`` failures; :func:`race`), which also serves fractional lumps. Ratings give the
chance ``E`` that A wins a game from level (:func:`onered.ratings.glicko2.expected_score`);
the share ``p`` is the one whose race of ``target / unit`` lumps each is won with chance
``E`` (:func:`share_for`), and the handicap the start that makes that race even
(:func:`propose`). The lump size is calibrated on the AI's games (:data:`UNIT`, and
:func:`fit_unit`, which finds it from a pair's points share and wins).

Pure functions, standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from onered.ratings.glicko2 import Rating, RatingError, expected_score

#: The lump of points of the model, in points: the maximum-likelihood fit to ``club``
#: against ``pro`` at 100, level and with starts of 45 and 65 (344 games; the likelihood
#: allows 19 points and up), ``docs/ratings.md``, "Handicap".
UNIT = 42.0
#: Bisection steps of the solvers (each halves the interval: 200 is far past float
#: precision for the ranges used).
_STEPS = 200


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def race(p: float, a: float, b: float) -> float:
    """The chance that A, winning each lump with chance ``p``, takes ``a`` lumps before
    B takes ``b`` (``a``, ``b`` > 0; fractional counts allowed): ``I_p(a, b)``."""
    if not (a > 0 and b > 0):
        raise RatingError(f"race: expected lumps above 0, got a={a!r}, b={b!r}")
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    log_front = (
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(p) + b * math.log1p(-p)
    )
    front = math.exp(log_front)
    if p < (a + 1.0) / (a + b + 2.0):
        return min(1.0, max(0.0, front * _betacf(a, b, p) / a))
    return min(1.0, max(0.0, 1.0 - front * _betacf(b, a, 1.0 - p) / b))


def _check_target(target: int) -> int:
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise RatingError(
            f"target: expected an integer of at least 1, got {target!r}", params={"name": "target"}
        )
    return target


def _check_unit(unit: float) -> float:
    if isinstance(unit, bool) or not isinstance(unit, int | float) or not unit > 0:
        raise RatingError(f"unit: expected more than 0 points, got {unit!r}")
    return float(unit)


def win_chance(
    p: float, target: int, handicap: tuple[int, int] = (0, 0), unit: float = UNIT
) -> float:
    """The model's chance that A wins a game to ``target`` with starts ``handicap`` (A's,
    B's), A winning each lump with chance ``p``."""
    target, unit = _check_target(target), _check_unit(unit)
    if not all(0 <= h < target for h in handicap):
        raise RatingError(f"handicap: expected points from 0 to {target - 1}, got {handicap!r}")
    return race(p, (target - handicap[0]) / unit, (target - handicap[1]) / unit)


def share_for(expected: float, target: int, unit: float = UNIT) -> float:
    """The lump share ``p`` with which A wins a level game to ``target`` with chance
    ``expected`` (the inverse of :func:`win_chance` in ``p``)."""
    if not 0.0 < expected < 1.0:
        raise RatingError(f"expected: expected a chance between 0 and 1, got {expected!r}")
    n = _check_target(target) / _check_unit(unit)
    lo, hi = 0.0, 1.0
    for _ in range(_STEPS):
        mid = (lo + hi) / 2.0
        if race(mid, n, n) < expected:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def fit_unit(share: float, wins: float, target: int) -> float:
    """The lump size (points) with which the model gives a player whose share of the
    points is ``share`` his measured share of the games, ``wins``, at ``target``: the
    calibration of :data:`UNIT` on a pair of levels. Both shares on the same side of an
    even game, else no lump size fits."""
    _check_target(target)
    if not (0.0 < share < 1.0 and 0.0 < wins < 1.0) or (share - 0.5) * (wins - 0.5) <= 0:
        raise RatingError(f"share {share!r} and wins {wins!r}: no lump size fits them")
    if abs(wins - 0.5) < abs(share - 0.5):
        raise RatingError(
            f"wins {wins!r} nearer even than the points share {share!r}: no lump size fits them"
        )
    lo, hi = math.log(1e-3), math.log(1e6)  # log of the lumps in a game
    for _ in range(_STEPS):
        mid = (lo + hi) / 2.0
        n = math.exp(mid)
        # More lumps in a game: the stronger wins more often.
        if abs(race(share, n, n) - 0.5) < abs(wins - 0.5):
            lo = mid
        else:
            hi = mid
    return target / math.exp((lo + hi) / 2.0)


@dataclass(frozen=True, slots=True)
class Trial:
    """Games played with one start: the weaker given ``start`` points won ``wins`` of
    ``games``."""

    start: int
    wins: int
    games: int


def fit_starts(trials: Sequence[Trial], target: int) -> tuple[float, float]:
    """The weaker's chance from level ``E`` and the lump size that make ``trials`` (games of
    one pair with various starts, level ones among them) likeliest: the model's maximum
    likelihood, on a grid of the weaker's lump share and the lump size, refined twice
    around the best. Returns ``(E, unit)``."""
    _check_target(target)
    if not trials or any(not 0 <= t.wins <= t.games or not 0 <= t.start < target for t in trials):
        raise RatingError(f"trials: expected wins within games and starts below {target}")

    def loglik(p: float, unit: float) -> float:
        total = 0.0
        for t in trials:
            c = min(1 - 1e-12, max(1e-12, win_chance(p, target, (t.start, 0), unit)))
            total += t.wins * math.log(c) + (t.games - t.wins) * math.log1p(-c)
        return total

    p_lo, p_hi, u_lo, u_hi = 0.01, 0.99, math.log(1.0), math.log(float(target) * 4)
    best = (0.5, math.exp((u_lo + u_hi) / 2))
    for _ in range(3):
        grid = [
            (p_lo + (p_hi - p_lo) * i / 40, math.exp(u_lo + (u_hi - u_lo) * j / 40))
            for i in range(41)
            for j in range(41)
        ]
        best = max(grid, key=lambda pu: loglik(*pu))
        dp, du = (p_hi - p_lo) / 10, (u_hi - u_lo) / 10
        p_lo, p_hi = max(1e-3, best[0] - dp), min(1 - 1e-3, best[0] + dp)
        lu = math.log(best[1])
        u_lo, u_hi = lu - du, lu + du
    p, unit = best
    return race(p, target / unit, target / unit), unit


@dataclass(frozen=True, slots=True)
class Proposal:
    """A handicap start proposed for a game to ``target``: ``handicap`` (points given to
    A, to B at the start of each game; one of them 0), the chance ``level`` that A wins a
    game from level (from the ratings) and ``with_handicap``, his chance with the start."""

    target: int
    handicap: tuple[int, int]
    level: float
    with_handicap: float


def propose_for(expected: float, target: int, unit: float = UNIT) -> Proposal:
    """The start that makes a game to ``target`` even for A, who wins one from level with
    chance ``expected``: the weaker is given the whole number of points (below the target)
    that brings his chance nearest one half."""
    _check_target(target)
    _check_unit(unit)
    if not 0.0 < expected < 1.0:
        raise RatingError(f"expected: expected a chance between 0 and 1, got {expected!r}")
    weaker_chance = min(expected, 1.0 - expected)
    p = share_for(weaker_chance, target, unit)

    def chance(h: int) -> float:
        return win_chance(p, target, (h, 0), unit)

    lo, hi = 0, target - 1  # the weaker's chance grows with his start
    if chance(hi) <= 0.5:
        best = hi
    else:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if chance(mid) < 0.5:
                lo = mid
            else:
                hi = mid
        best = min((lo, hi), key=lambda h: (abs(chance(h) - 0.5), h))
    weaker_is_a = expected < 0.5
    handicap = (best, 0) if weaker_is_a else (0, best)
    with_start = chance(best)
    return Proposal(target, handicap, expected, with_start if weaker_is_a else 1.0 - with_start)


def propose(a: Rating, b: Rating, target: int, unit: float = UNIT) -> Proposal:
    """The handicap start for a game between ``a`` and ``b`` to ``target``: from the
    chance their ratings give ``a`` of winning a level game (:func:`propose_for`)."""
    return propose_for(expected_score(a, b), target, unit)
