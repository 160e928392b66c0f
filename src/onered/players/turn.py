"""Whose turn it is in a played game (``onered.game.session``), and the computer's turn.

The game core knows who plays only as the descriptions of its first line's ``entrants``;
this module reads them (:func:`onered.players.spec.parse_player`): a person's stroke is
refused when the computer is to play (:func:`plan_human`), and the computer plays its turn
with the AI of its description (:func:`plan_ai_turn`, seeded). Each plan is judged by the
game loop and changes nothing; :meth:`Session.keep` keeps it as judged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from onered.game.model import Action, GameError, StrokeRecord
from onered.game.session import Played, Ruled, Session, SessionError
from onered.players.ai import AIPlayer
from onered.players.spec import PlayerSpec, PlayerSpecError, parse_player


@dataclass(frozen=True, slots=True)
class Turn:
    """The computer's turn: the line judged (:class:`Ruled`), and the stroke (``None``
    for a foul option)."""

    ruled: Ruled
    stroke: StrokeRecord | None

    @property
    def line(self) -> Mapping[str, Any]:
        """The line stored."""
        return self.ruled.line


def entrant(session: Session, name: str) -> PlayerSpec | None:
    """The description of player ``name`` read, ``None`` when the game does not say or
    says something this version does not read (a person, then)."""
    text = session.entrants.get(name)
    if text is None:
        return None
    try:
        return parse_player(text)
    except PlayerSpecError:
        return None


def to_play_is_computer(session: Session) -> bool:
    """The player to play (or to choose) is the computer."""
    spec = entrant(session, session.players[session.state.to_play])
    return spec is not None and spec.is_computer


def plan_human(session: Session, action: Action) -> Played:
    """:meth:`Session.plan_play` for a person: refused (``computer_turn``) when the
    computer is to play."""
    if not session.over and to_play_is_computer(session):
        name = session.players[session.state.to_play]
        raise SessionError(
            "computer_turn", f"it is {name}'s turn, and {name} is the computer", {"name": name}
        )
    return session.plan_play(action)


def ai_turn(session: Session, seed: int) -> Turn:
    """The computer's turn, played and kept (see :func:`plan_ai_turn`)."""
    turn = plan_ai_turn(session, seed)
    session.keep(turn.ruled)
    return turn


def plan_ai_turn(session: Session, seed: int) -> Turn:
    """The computer's turn (the AI of the entrant's description, seeded with ``seed``),
    judged and not kept: its foul option when one is pending, else its stroke."""
    session.check_open()
    name = session.players[session.state.to_play]
    spec = entrant(session, name)
    if spec is None or not spec.is_computer:
        raise SessionError(
            "ai_failed",
            f"the computer cannot play: it is {name}'s turn, and {name} is not the computer",
            {"detail": f"{name} is not the computer"},
        )
    try:
        simulator = session.simulator()
        player = AIPlayer(spec.strength(), seed, params=simulator.params, table=simulator.table)
        loop = session.loop()
        if session.state.choice_pending:
            return Turn(session.plan_option(player.choose(loop.option_positions())), None)
        played = session.plan_play(player.decide(loop.position))
    except (ValueError, GameError) as exc:
        raise SessionError(
            "ai_failed", f"the computer cannot play: {exc}", {"detail": str(exc)}
        ) from None
    return Turn(played.ruled, played.stroke)
