"""Players of Snooker-1-Red: the protocol the game loop asks, and AI players.

``make_player("ai:pro", seed=7)`` builds a player from its description; :func:`play_game`
plays a whole game between two players on a simulated table.
"""

from __future__ import annotations

from onered.physics import Params, TableSpec
from onered.players.ai import AIPlayer
from onered.players.base import Player
from onered.players.match import GameSettings, play_game, play_lag
from onered.players.strength import STRENGTHS, Budget, Noise, Strength

__all__ = [
    "STRENGTHS",
    "AIPlayer",
    "Budget",
    "GameSettings",
    "Noise",
    "Player",
    "PlayerSpecError",
    "Strength",
    "make_player",
    "play_game",
    "play_lag",
]


class PlayerSpecError(ValueError):
    """A player description that names no known player."""


def make_player(
    spec: str, seed: int, *, params: Params | None = None, table: TableSpec | None = None
) -> Player:
    """A player from its description: ``ai:beginner``, ``ai:amateur`` or ``ai:pro``."""
    kind, _, level = spec.partition(":")
    if kind != "ai":
        raise PlayerSpecError(
            f"player {spec!r}: unknown kind {kind!r} (expected ai:beginner, ai:amateur or ai:pro)"
        )
    strength = STRENGTHS.get(level)
    if strength is None:
        raise PlayerSpecError(
            f"player {spec!r}: unknown level {level!r} (expected {', '.join(STRENGTHS)})"
        )
    return AIPlayer(strength, seed, params=params, table=table)
