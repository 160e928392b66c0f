"""Players of Snooker-1-Red: the protocol the game loop asks, and AI players.

``make_player("ai:pro", seed=7)`` builds a player from its description; :func:`play_game`
plays a whole game between two players on a simulated table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from onered.errors import OneredError
from onered.physics import Params, TableSpec
from onered.players.ai import AIPlayer
from onered.players.base import Player
from onered.players.match import GameSettings, play_game, play_lag
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
    "STRENGTHS",
    "AIPlayer",
    "Budget",
    "GameSettings",
    "Level",
    "Measured",
    "Noise",
    "Player",
    "PlayerSpecError",
    "Strength",
    "adapt",
    "adapt_to_games",
    "adapt_to_visits",
    "make_player",
    "play_game",
    "play_lag",
]


class PlayerSpecError(OneredError, ValueError):
    """A player description that names no known player."""

    default_code = "player_spec"


def make_player(
    spec: str, seed: int, *, params: Params | None = None, table: TableSpec | None = None
) -> Player:
    """A player from its description: ``ai:<level>``, a :class:`Level`'s value
    (``ai:novice`` … ``ai:master``)."""
    kind, _, level = spec.partition(":")
    if kind != "ai":
        expected = ", ".join(f"ai:{name}" for name in STRENGTHS)
        raise PlayerSpecError(f"player {spec!r}: unknown kind {kind!r} (expected {expected})")
    strength = STRENGTHS.get(level)
    if strength is None:
        raise PlayerSpecError(
            f"player {spec!r}: unknown level {level!r} (expected {', '.join(STRENGTHS)})"
        )
    return AIPlayer(strength, seed, params=params, table=table)


def adapt_to_games(games: Iterable[Sequence[Mapping[str, Any]]], name: str) -> Level:
    """The level for the person ``name``: :func:`adapt` to his points per visit over
    ``games`` (each a game record's lines, parsed, as ``onered stats`` reads them).
    ``ValueError`` (``onered.stats.StatsError``) names a record that cannot be read, or
    says that he played no visit in them."""
    from onered.stats import Tally

    tally = Tally()
    for k, lines in enumerate(games):
        tally.add_game(lines, f"game {k + 1}")
    player = tally.result().players.get(name)
    if player is None or player.visits == 0:
        raise ValueError(f"name: {name!r} played no visit in the games given")
    return adapt(player.points_per_visit)
