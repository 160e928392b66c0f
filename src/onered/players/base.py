"""What a player is, for the game loop: a small protocol, usable by an AI and a person.

A player is asked four things, each given what he needs to know and nothing to change:

- :meth:`Player.lag`: his lag stroke, from where his ball stands behind the baulk line;
- :meth:`Player.lag_choice`: having won the lag, whether he plays first and with which ball;
- :meth:`Player.choose`: after the opponent's foul, one of the two options (2.12.3), shown
  as the positions they would give him;
- :meth:`Player.decide`: his stroke — the cue action and, when his ball is in hand, where
  he places it in the D (:meth:`onered.game.Game.legal_placement` says whether a place is
  allowed; the game refuses a wrong one with a message naming what is wrong).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from onered.game.model import Action, LagChoice, Position
from onered.physics.types import Strike
from onered.rules import Option
from onered.table import Point


class Player(Protocol):
    """A participant in a game."""

    @property
    def description(self) -> str:
        """Who plays, for the record (e.g. ``"ai:pro"``)."""
        ...

    def lag(self, start: Point) -> Strike:
        """The lag stroke (2.3.1) of the ball standing at ``start``."""
        ...

    def lag_choice(self) -> LagChoice:
        """Having won the lag: play first or second, and with which ball."""
        ...

    def choose(self, options: Mapping[Option, Position]) -> Option:
        """After the opponent's foul: the option to take, given the position each gives."""
        ...

    def decide(self, position: Position) -> Action:
        """The stroke to play from ``position`` (with a placement when in hand)."""
        ...
