"""The values of a tournament: its format, entrants, fixtures and results, and its error.

Standard library only, physics-free and store-free: the store and the web keep and show
these values; the rules of a competition (the draw, standings, advancing) are in
:mod:`onered.tournament.draw`, :mod:`onered.tournament.standings` and
:mod:`onered.tournament.state`. The readings are written down in docs/tournaments.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from onered.errors import OneredError


class TournamentError(OneredError):
    """Bad input to a tournament: the ``code`` names the fault, ``params`` the input."""

    default_code = "tournament"


class Format(Enum):
    """How a tournament is played."""

    KNOCKOUT = "knockout"
    ROUND_ROBIN = "round_robin"
    GROUPS_THEN_KNOCKOUT = "groups_then_knockout"


class Stage(Enum):
    """The part of a tournament a fixture belongs to: a whole-field league (round robin),
    a group's league, or the knockout."""

    LEAGUE = "league"
    GROUP = "group"
    KNOCKOUT = "knockout"


#: The order the stages are played in (groups before the knockout).
STAGE_ORDER = {Stage.LEAGUE: 0, Stage.GROUP: 0, Stage.KNOCKOUT: 1}


@dataclass(frozen=True)
class Entrant:
    """A player in the tournament: a stable ``id``, a name, a club, an optional rating."""

    id: str
    name: str
    club: str = ""
    rating: float | None = None


@dataclass(frozen=True)
class Fixture:
    """One match of the draw: its stage (and group), round and number within the round, the
    entrants ``a`` and ``b`` (``None`` while not yet known), whether it is a bye (one entrant,
    no match), the table it is assigned to and the number of games it is the best of."""

    stage: Stage
    round: int
    number: int
    a: str | None = None
    b: str | None = None
    bye: bool = False
    best_of: int = 1
    table: int | None = None
    group: int | None = None

    @property
    def key(self) -> str:
        """The fixture's name within its tournament: ``K-R1-3``, ``L-R2-1``, ``G2-R1-1``."""
        prefix = {Stage.LEAGUE: "L", Stage.KNOCKOUT: "K"}.get(self.stage, f"G{self.group}")
        return f"{prefix}-R{self.round}-{self.number}"

    @property
    def known(self) -> bool:
        """Whether both entrants are known (a match can be played)."""
        return self.a is not None and self.b is not None and not self.bye


@dataclass(frozen=True)
class Result:
    """The result of a fixture (named by its key): the winner, the games each side won
    (``games_a`` for the fixture's ``a``) and the handicap start each side was given. A
    ``walkover`` is won without playing: no games (0-0), the winner's point all the same."""

    fixture: str
    winner: str
    games_a: int
    games_b: int
    handicap: tuple[int, int] = (0, 0)
    walkover: bool = False


@dataclass(frozen=True)
class Standing:
    """One line of a league table."""

    entrant: str
    played: int = 0
    won: int = 0
    lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    points: int = 0

    @property
    def games_difference(self) -> int:
        return self.games_won - self.games_lost
