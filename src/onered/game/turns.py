"""Whose turn it is, and what a take-back takes: the rules of a game between two seats.

A game played on two devices gives each player a seat; a seat strikes and chooses only on
its own turn (:func:`check_turn`). Seats are for two people (:func:`check_two_people`). A
take-back drops a player's last stroke and every line after it (:func:`takeback`);
against the computer, or with both players at one screen, the stroke taken back is the
person's (:func:`takeback_player`); on two devices one player asks (:func:`ask_takeback`)
and the other agrees (:func:`agreed_takeback`). Each refusal is a
:class:`~onered.game.session.SessionError` with a ``code`` an interface puts into words.

The game core knows no AI: which players the computer plays (``computer``, indices) is the
caller's reading of the entrants (``onered.players.spec``). Where seats and requests are
kept is the interface's business.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from onered.game.record import LineKind
from onered.game.session import Session, SessionError


def check_turn(session: Session, player: int) -> None:
    """Refuse a stroke or a choice by ``player`` (index) unless the game goes on and it is
    his turn (codes ``over``, ``not_your_turn``)."""
    if session.over:
        winner = session.winner or ""
        raise SessionError("over", f"the game is over: {winner} has won", {"winner": winner})
    to_play = session.state.to_play
    if to_play != player:
        name = session.players[to_play]
        raise SessionError(
            "not_your_turn", f"it is not your turn: {name} is to play", {"name": name}
        )


def check_two_people(computer: Collection[int]) -> None:
    """Refuse seats for a game the computer plays in (code ``not_two_players``)."""
    if computer:
        raise SessionError("not_two_players", "seats: this game is played against the computer")


def takeback_lines(session: Session, player: int) -> int:
    """How many lines to drop to take back ``player``'s last stroke and everything after
    it; refused (code ``no_takeback``) when he has played none."""
    name = session.players[player]
    entries = session.entries
    for k in range(len(entries) - 1, 0, -1):
        entry = entries[k]
        if entry.kind is LineKind.STROKE and entry.verdict.striker == name:
            return len(entries) - k
    raise SessionError(
        "no_takeback", f"take-back: {name} has no stroke to take back", {"name": name}
    )


def takeback_player(session: Session, computer: Collection[int]) -> int:
    """Whose stroke a take-back asked at one screen takes back: the person's against the
    computer (``computer``: the players it plays), else the last stroke's striker; refused
    (``no_takeback``) before any stroke."""
    people = [i for i in range(len(session.players)) if i not in computer]
    if len(people) == 1:
        return people[0]
    last = next((e for e in reversed(session.entries[1:]) if e.kind is LineKind.STROKE), None)
    if last is None:
        raise SessionError("no_takeback", "take-back: no stroke has been played", {"name": ""})
    return session.players.index(str(last.verdict.striker))


def takeback(session: Session, player: int) -> int:
    """Take back ``player``'s last stroke and what followed, in ``session``; the number of
    lines dropped (refused as :func:`takeback_lines`)."""
    count = takeback_lines(session, player)
    for _ in range(count):
        session.undo()
    return count


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A player's request to take back his last stroke: who asked (index) and the number of
    lines the game had then (a game that went on since makes the request stale)."""

    player: int
    lines: int


def ask_takeback(session: Session, player: int) -> TakebackRequest:
    """``player``'s request to take back his last stroke; refused (``no_takeback``) when
    he has none."""
    takeback_lines(session, player)
    return TakebackRequest(player, len(session.entries))


def agreed_takeback(session: Session, request: TakebackRequest | None, player: int) -> int:
    """The lines to drop once ``player`` agrees to the pending ``request``: refused
    (``no_takeback``) when the opponent has not asked, ``stale`` when the game went on since
    it was asked."""
    if request is None or request.player == player:
        raise SessionError("no_takeback", "take-back: the opponent has not asked", {"name": ""})
    if request.lines != len(session.entries):
        raise SessionError("stale", "take-back: the game went on since it was asked")
    return takeback_lines(session, request.player)
