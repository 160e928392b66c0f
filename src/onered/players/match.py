"""A whole game between two players: the lag, then strokes and foul options to the end.

:func:`play_game` drives a :class:`~onered.game.Game` with two :class:`Player`\\ s and
reports every stroke and choice to an optional callback as it happens (the CLI prints
them; a record writer may write them). The web page drives the same ``Game`` one stroke
at a time instead.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from onered.game.lag import LAG_STARTS, lag_stroke, lag_winner, match_after_lag
from onered.game.loop import Game
from onered.game.model import Entry, GameError, Lag, LagStroke
from onered.game.simulator import Simulator
from onered.players.base import Player
from onered.rules import Match

#: Lags played at most before the first player named is taken as the winner (a tie every
#: time is practically impossible with noisy players; the bound keeps the loop finite).
MAX_LAGS = 20
#: Strokes after which a game that has not ended is stopped (two players who only play
#: safe could go on forever).
DEFAULT_MAX_STROKES = 3000


@dataclass(frozen=True, slots=True)
class GameSettings:
    """What a game is played to: the ``target``, the players' names (in the order they
    lag), and whether a lag decides the order (else the first name plays first, white)."""

    target: int
    names: tuple[str, str]
    lag: bool = True
    max_strokes: int = DEFAULT_MAX_STROKES

    def __post_init__(self) -> None:
        if isinstance(self.target, bool) or not isinstance(self.target, int) or self.target < 1:
            raise GameError(f"target: expected a positive integer, got {self.target!r}")
        if self.names[0] == self.names[1] or not all(self.names):
            raise GameError(f"names: expected two different names, got {list(self.names)!r}")
        if self.max_strokes < 1:
            raise GameError(f"max_strokes: expected a positive number, got {self.max_strokes}")


def play_lag(players: Mapping[str, Player], names: tuple[str, str], simulator: Simulator) -> Lag:
    """The lag between the two players (played again after a tie)."""

    def once() -> tuple[LagStroke, LagStroke]:
        return (
            lag_stroke(simulator, names[0], LAG_STARTS[0], players[names[0]].lag(LAG_STARTS[0])),
            lag_stroke(simulator, names[1], LAG_STARTS[1], players[names[1]].lag(LAG_STARTS[1])),
        )

    strokes = once()
    winner = lag_winner(*strokes)
    for _ in range(MAX_LAGS - 1):
        if winner is not None:
            break
        strokes = once()
        winner = lag_winner(*strokes)
    won = names[winner if winner is not None else 0]
    return Lag(strokes=strokes, winner=won, choice=players[won].lag_choice())


def play_game(
    players: Mapping[str, Player],
    settings: GameSettings,
    simulator: Simulator,
    *,
    on_entry: Callable[[Game, Entry], None] | None = None,
    on_start: Callable[[Game], None] | None = None,
) -> Game:
    """Play a game to its end (or to ``settings.max_strokes``) and return it.

    ``players`` maps each of ``settings.names`` to its player. ``on_start`` is called once
    the order is known, ``on_entry`` after every stroke and choice.
    """
    names = settings.names
    for name in names:
        if name not in players:
            raise GameError(f"players: no player for {name!r}")
    if settings.lag:
        lag = play_lag(players, names, simulator)
        loser = names[1] if lag.winner == names[0] else names[0]
        game = Game(match_after_lag(lag, loser, settings.target), simulator, lag=lag)
    else:
        game = Game(Match(target=settings.target, players=names), simulator)
    if on_start is not None:
        on_start(game)
    strokes = 0
    while not game.over and strokes < settings.max_strokes:
        player = players[game.to_play]
        if game.state.choice_pending:
            entry: Entry = game.choose(player.choose(game.option_positions()))
            if on_entry is not None:
                on_entry(game, entry)
        entry = game.play(player.decide(game.position))
        strokes += 1
        if on_entry is not None:
            on_entry(game, entry)
    return game
