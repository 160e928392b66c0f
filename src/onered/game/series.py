"""A match: best of N games between two players, with a handicap start and a clock.

Pure values and functions, no storage and no display text (the web keeps matches in
``onered.web.match_store`` and shows them). A :class:`Series` holds the settings agreed
before the first game; :func:`game_match` gives the referee's ``Match`` of each game, and
:func:`standing` reads the games' winners into the score in games and the match's winner,
:func:`next_game` the number of the game to start (or why none may start now). A
:class:`Series` writes and reads its own JSON (:meth:`Series.to_json`, :meth:`Series.from_json`).

Decisions (``docs/web.md``, "Matches"), where the rules are silent (they govern one game):

- **Best of N** with N odd, so a match is never drawn: the first to win more than N/2 games
  wins the match, and no game is played after that.
- **Who breaks**: the lag decides the first game (2.3.1), then the break alternates:
  game 1 is broken by ``players[first]``, game 2 by the other, and so on.
- **Balls**: each player keeps the cue ball he took at the lag for the whole match.
- **Handicap**: the same points are given to the same player at the start of every game
  (``rules.Match.handicap``; ``docs/rules.md``, "Handicap").
- **The clock** runs per game from its start to its last stroke (to now while it is being
  played); the match's time is the sum, so breaks between games are not counted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from onered.errors import OneredError
from onered.protocol import json_fields
from onered.rules import Ball, Match

#: Longest match offered (games).
MAX_BEST_OF = 99


class SeriesError(OneredError, ValueError):
    """Match settings or results that do not make a match; the message names the field."""

    default_code = "match_settings"


@dataclass(frozen=True, slots=True)
class Series:
    """A match's settings. ``players[first]`` won the lag and breaks the first game;
    ``balls[i]`` is the cue ball of ``players[i]`` all match; ``handicap[i]`` the points
    ``players[i]`` is given at the start of each game."""

    players: tuple[str, str]
    best_of: int
    target: int
    handicap: tuple[int, int] = (0, 0)
    balls: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)
    first: int = 0

    def __post_init__(self) -> None:
        if len(self.players) != 2 or not all(isinstance(p, str) and p for p in self.players):
            raise SeriesError(f"players: expected two names, got {list(self.players)!r}")
        if self.players[0] == self.players[1]:
            raise SeriesError(f"players: the two names must differ, got {self.players[0]!r} twice")
        n = self.best_of
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_BEST_OF or n % 2 == 0:
            raise SeriesError(
                f"best_of: expected an odd number of games from 1 to {MAX_BEST_OF}, got {n!r}"
            )
        t = self.target
        if isinstance(t, bool) or not isinstance(t, int) or t < 1:
            raise SeriesError(f"target: expected an integer of at least 1, got {t!r}")
        if len(self.handicap) != 2 or not all(
            not isinstance(h, bool) and isinstance(h, int) and 0 <= h < t for h in self.handicap
        ):
            raise SeriesError(
                f"handicap: expected two integers from 0 to {t - 1} (below the target), "
                f"got {list(self.handicap)!r}"
            )
        if len(self.balls) != 2 or set(self.balls) != {Ball.WHITE, Ball.YELLOW}:
            raise SeriesError("balls: expected white and yellow, one each")
        if self.first not in (0, 1):
            raise SeriesError(f"first: expected 0 or 1, got {self.first!r}")

    @property
    def wins_needed(self) -> int:
        """Games a player must win to win the match: more than half of ``best_of``."""
        return self.best_of // 2 + 1

    @classmethod
    def after_lag(
        cls,
        players: tuple[str, str],
        lag_winner: int,
        ball: Ball,
        *,
        best_of: int,
        target: int,
        handicap: tuple[int, int] = (0, 0),
    ) -> Series:
        """The settings once ``players[lag_winner]`` has won the lag (2.3.1) and taken
        ``ball`` (white or yellow) for the match: he breaks the first game, the other player
        has the other cue ball."""
        if lag_winner not in (0, 1):
            raise SeriesError(f"breaker: expected 0 or 1, got {lag_winner!r}")
        if ball not in (Ball.WHITE, Ball.YELLOW):
            raise SeriesError(f"breaker_ball: expected white or yellow, got {ball.value!r}")
        other = ball.other_cue_ball
        balls = (ball, other) if lag_winner == 0 else (other, ball)
        return cls(players, best_of, target, handicap, balls, lag_winner)

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and shown (:meth:`from_json` reads them back)."""
        return {
            "players": list(self.players),
            "best_of": self.best_of,
            "target": self.target,
            "handicap": list(self.handicap),
            "balls": [b.value for b in self.balls],
            "first": self.first,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Series:
        """Settings written by :meth:`to_json`; a :class:`SeriesError` names what is wrong."""
        try:
            players, handicap, balls = obj["players"], obj["handicap"], obj["balls"]
            return cls(
                players=(players[0], players[1]),
                best_of=obj["best_of"],
                target=obj["target"],
                handicap=(handicap[0], handicap[1]),
                balls=(
                    json_fields.ball(balls[0], "series: balls[0]", error=SeriesError),
                    json_fields.ball(balls[1], "series: balls[1]", error=SeriesError),
                ),
                first=obj["first"],
            )
        except SeriesError:
            raise
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise SeriesError(f"series: unreadable settings ({exc!r})") from None


def breaker(series: Series, number: int) -> int:
    """Which player (index into ``series.players``) breaks game ``number`` (from 0)."""
    if number < 0 or number >= series.best_of:
        raise SeriesError(f"game: expected a number from 0 to {series.best_of - 1}, got {number}")
    return (series.first + number) % 2


def game_match(series: Series, number: int) -> Match:
    """The referee's settings of game ``number`` (from 0): its breaker first (2.3.1), each
    player with his ball and his handicap."""
    b = breaker(series, number)
    order = (b, 1 - b)
    return Match(
        target=series.target,
        players=(series.players[order[0]], series.players[order[1]]),
        balls=(series.balls[order[0]], series.balls[order[1]]),
        handicap=(series.handicap[order[0]], series.handicap[order[1]]),
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """The match after its finished games: games won by each player (order of
    ``Series.players``), the match's winner (index) once decided, and the number of the next
    game to play (``None`` once the match is over)."""

    wins: tuple[int, int]
    winner: int | None
    next_game: int | None

    @property
    def over(self) -> bool:
        return self.winner is not None


def standing(series: Series, winners: Sequence[str]) -> Standing:
    """The match after games won, in order, by ``winners`` (names). A winner who is not a
    player, or a game after the match was decided, is a :class:`SeriesError`."""
    wins = [0, 0]
    decided: int | None = None
    for k, name in enumerate(winners):
        if decided is not None:
            raise SeriesError(
                f"games[{k}]: the match was already won by {series.players[decided]!r}"
            )
        if name not in series.players:
            raise SeriesError(
                f"games[{k}]: winner {name!r} is not a player of {list(series.players)!r}"
            )
        i = series.players.index(name)
        wins[i] += 1
        if wins[i] >= series.wins_needed:
            decided = i
    played = len(winners)
    return Standing(
        wins=(wins[0], wins[1]),
        winner=decided,
        next_game=None if decided is not None else played,
    )


def next_game(series: Series, games: Sequence[str | None]) -> int:
    """The number of the game to start after ``games`` (each game's winner, in order;
    ``None`` for one not finished). Refused, with a :class:`SeriesError` of code
    ``match_over`` (params ``name``) once the match is decided, or ``game_on`` (``number``)
    while its last game is not over."""
    now = standing(series, [w for w in games if w is not None])
    if now.winner is not None:
        name = series.players[now.winner]
        raise SeriesError(
            f"the match is over: {name} has won", code="match_over", params={"name": name}
        )
    if not games or games[-1] is None:
        number = len(games)
        raise SeriesError(
            f"game {number} is still being played", code="game_on", params={"number": number}
        )
    return len(games)


def can_start_next(series: Series, games: Sequence[str | None]) -> bool:
    """Whether :func:`next_game` would start a game after ``games``."""
    try:
        next_game(series, games)
    except SeriesError:
        return False
    return True


@dataclass(frozen=True, slots=True)
class GameTime:
    """When a game started (its match line), when its last stroke was entered, and whether
    it is over: seconds since the epoch, as the server stored them."""

    started: float
    last: float
    over: bool


@dataclass(frozen=True, slots=True)
class Clock:
    """Seconds of play of each game and of the whole match."""

    games: tuple[float, ...]
    total: float


def clock(times: Sequence[GameTime], now: float) -> Clock:
    """The match clock at ``now``: a finished game's time runs from its start to its last
    stroke, a game in play's to ``now``; the match's is their sum (never negative)."""
    games = tuple(max(0.0, (t.last if t.over else max(now, t.last)) - t.started) for t in times)
    return Clock(games=games, total=sum(games))
