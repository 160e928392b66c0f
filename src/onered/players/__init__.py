"""Players of Snooker-1-Red: the protocol the game loop asks, and AI players.

``make_player("ai:pro", seed=7)`` builds a player from its description (read by
:func:`parse_player`, the one reader of ``human`` / ``ai:<level>[,name=value...]``);
:func:`play_game` plays a whole game between two players on a simulated table;
``onered.players.turn`` plays the computer's turn in a session (the web's games).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from onered.physics import Params, TableSpec
from onered.players.ai import AIPlayer
from onered.players.base import Player
from onered.players.match import GameSettings, play_game, play_lag
from onered.players.spec import (
    PLAYER_PARAMS,
    PlayerKind,
    PlayerSpec,
    PlayerSpecError,
    ai_entrant,
    ai_level,
    grammar_json,
    parse_player,
)
from onered.players.strength import (
    LEVELS,
    STRENGTHS,
    Budget,
    Level,
    Measured,
    Noise,
    Strength,
    adapt,
    adapt_to_visits,
)

__all__ = [
    "LEVELS",
    "PLAYER_PARAMS",
    "STRENGTHS",
    "AIPlayer",
    "Budget",
    "GameSettings",
    "Level",
    "Measured",
    "Noise",
    "Player",
    "PlayerKind",
    "PlayerSpec",
    "PlayerSpecError",
    "Strength",
    "adapt",
    "adapt_to_games",
    "adapt_to_visits",
    "ai_entrant",
    "ai_level",
    "grammar_json",
    "make_player",
    "parse_player",
    "play_game",
    "play_lag",
]


def make_player(
    spec: str | PlayerSpec,
    seed: int,
    *,
    params: Params | None = None,
    table: TableSpec | None = None,
) -> Player:
    """The computer player a description names (``ai:<level>[,name=value...]``, see
    :func:`parse_player`), seeded with ``seed``. A person (``human``) is played by an
    interface, not built here: :class:`PlayerSpecError` says so."""
    read = parse_player(spec) if isinstance(spec, str) else spec
    if not read.is_computer:
        raise PlayerSpecError(
            f"player {str(read)!r}: a person plays through an interface; make_player builds "
            "the computer (ai:<level>)"
        )
    return AIPlayer(read.strength(), seed, params=params, table=table)


def adapt_to_games(games: Iterable[Sequence[Mapping[str, Any]]], name: str) -> Level:
    """The level for the person ``name``: :func:`adapt` to his points per visit over
    ``games`` (each a game record's lines, parsed, as ``onered stats`` reads them).
    ``ValueError`` (``onered.game.stats.StatsError``) names a record that cannot be read,
    or says that he played no visit in them."""
    from onered.game.stats import Tally

    tally = Tally()
    for k, lines in enumerate(games):
        tally.add_game(lines, f"game {k + 1}")
    player = tally.result().players.get(name)
    if player is None or player.visits == 0:
        raise ValueError(f"name: {name!r} played no visit in the games given")
    return adapt(player.points_per_visit)
