"""What a finished match does to its two players' ratings: onered's readings of Glicko-2
for matches of billiards (``docs/ratings.md`` says why each):

- **Per game**: each game of the match is one result (a 3-0 says more than a 3-2), so a
  rating's expected score is the chance of winning a *game*, the unit a handicap start is
  given in.
- **A match is a rating period** of its two players, its games treated as simultaneous
  (the paper's period); both are rated against the other's rating before the match.
- **Idle time**: between a player's matches his deviation grows as over
  ``elapsed / period_seconds`` idle rating periods (:func:`onered.ratings.glicko2.idle`).
- **Handicapped matches are not rated**: a start changes who is expected to win, and
  the ratings' model knows nothing of starts.

Pure values and functions, standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

from onered.ratings.glicko2 import Rating, RatingError, Result, System, idle, rate

#: The target of the overall rating (a rating from every match, whatever its target).
ALL_TARGETS = 0
#: The length of an idle rating period (seconds): a week.
WEEK = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class Policy:
    """How matches are rated: the Glicko-2 ``system`` and the length of an idle rating
    period, ``period_seconds``."""

    system: System = field(default_factory=System)
    period_seconds: float = WEEK

    def __post_init__(self) -> None:
        if not (math.isfinite(self.period_seconds) and self.period_seconds > 0):
            raise RatingError(f"period_seconds: expected more than 0, got {self.period_seconds!r}")


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's rating at one target and what made it: ``matches`` rated, ``games``
    rated and ``wins`` among them, and ``last``, when his last rated match finished (Unix
    seconds; ``None`` before his first)."""

    rating: Rating = field(default_factory=Rating)
    matches: int = 0
    games: int = 0
    wins: int = 0
    last: float | None = None

    def at(self, when: float, policy: Policy = Policy()) -> Rating:
        """The rating as it stands at ``when``: the deviation grown over the idle time
        since :attr:`last` (unchanged before the first match or at an earlier time)."""
        if self.last is None or when <= self.last:
            return self.rating
        return idle(self.rating, (when - self.last) / policy.period_seconds, policy.system)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished match as the ratings see it: the ``games`` each player won, the
    ``winner`` (0 or 1), the ``handicap`` starts and when it ``finished``."""

    games: tuple[int, int]
    winner: int
    handicap: tuple[int, int]
    finished: float

    @property
    def rated(self) -> bool:
        """Whether the match counts: not when a start was given (see the module)."""
        return self.handicap == (0, 0)

    @property
    def results(self) -> tuple[int, int]:
        """The games counted for each player: the games won, or, in a match decided with
        no game counted, one game to the winner (a match is never without a result)."""
        if min(self.games) < 0:
            raise RatingError(f"games: expected counts of 0 or more, got {self.games!r}")
        if sum(self.games) == 0:
            return (1, 0) if self.winner == 0 else (0, 1)
        return self.games


def play(
    a: Standing, b: Standing, outcome: Outcome, policy: Policy = Policy()
) -> tuple[Standing, Standing]:
    """The two players' standings after ``outcome`` (``a`` is the match's player 0): one
    rating period of each, with one result per game, against the other's rating at the
    match's start. A match that is not rated changes nothing."""
    if not outcome.rated:
        return a, b
    when = outcome.finished
    ra, rb = a.at(when, policy), b.at(when, policy)
    wa, wb = outcome.results
    new_a = rate(ra, [Result(rb, 1.0)] * wa + [Result(rb, 0.0)] * wb, policy.system)
    new_b = rate(rb, [Result(ra, 1.0)] * wb + [Result(ra, 0.0)] * wa, policy.system)

    def after(s: Standing, rating: Rating, won: int, lost: int) -> Standing:
        last = when if s.last is None else max(s.last, when)
        return replace(
            s,
            rating=rating,
            matches=s.matches + 1,
            games=s.games + won + lost,
            wins=s.wins + won,
            last=last,
        )

    return after(a, new_a, wa, wb), after(b, new_b, wb, wa)
