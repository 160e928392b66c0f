"""Visits, breaks, the score's progression and a game's summary: one reading for every
interface (``onered play``'s closing line, ``onered stats``, ``onered replay``, the web).

A *visit* is a player's turn at the table: his strokes until one ends it (``visit_over``)
or the game ends. Its *break* is the verdict's ``break`` on its last stroke: the points his
strokes scored in it (a foul ends a visit and keeps the break made before it; penalty
points never count, 2.13). Everything is read from the referee's verdicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from onered.protocol import json_fields
from onered.protocol.json_fields import ErrorType, ProtocolError
from onered.rules import Verdict


class StrokeFacts(Protocol):
    """What a visit is read from: a stroke's verdict (``onered.rules.Verdict``, or
    :class:`RecordedVerdict` read from a record's JSON)."""

    @property
    def stroke(self) -> int: ...
    @property
    def striker(self) -> str | None: ...
    @property
    def break_(self) -> int: ...
    @property
    def visit_over(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class RecordedVerdict:
    """The visit's facts of a verdict as a record writes it (the protocol's JSON)."""

    stroke: int
    striker: str | None
    break_: int
    visit_over: bool

    @classmethod
    def from_json(cls, verdict: Mapping[str, Any], stroke: int = 0) -> RecordedVerdict:
        """Raises ``KeyError``, ``TypeError`` or ``ValueError`` for a verdict without them
        (``stroke``: the stroke's number when the verdict does not say it)."""
        striker = verdict["striker"]
        if striker is not None and not isinstance(striker, str):
            raise TypeError(f"striker: expected a name, got {striker!r}")
        return cls(
            stroke=int(verdict.get("stroke", stroke)),
            striker=striker,
            break_=int(verdict["break"]),
            visit_over=bool(verdict["visit_over"]) or verdict.get("winner") is not None,
        )


@dataclass(frozen=True, slots=True)
class Visit:
    """A player's visit: the strokes ``first``..``last`` (1-based stroke numbers), the break
    it made, and whether it is still going on."""

    player: str
    first: int
    last: int
    points: int
    open: bool

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "first": self.first,
            "last": self.last,
            "points": self.points,
            "open": self.open,
        }


def visits(strokes: Iterable[StrokeFacts], *, over: bool) -> list[Visit]:
    """Every visit of a game, in order, from its strokes' verdicts (foul options left
    out); ``over``: the game has ended (else the last visit may be open)."""
    result: list[Visit] = []
    current: list[StrokeFacts] = []

    def close(is_open: bool) -> None:
        if current:
            first, last = current[0], current[-1]
            if first.striker is not None:
                result.append(Visit(first.striker, first.stroke, last.stroke, last.break_, is_open))
        current.clear()

    for v in strokes:
        if current and current[-1].striker != v.striker:
            close(False)
        current.append(v)
        if v.visit_over:
            close(False)
    close(not over)
    return result


def progression(opening: Verdict, strokes: Iterable[Verdict]) -> list[dict[str, object]]:
    """The score at the start and after each stroke: ``{"stroke", "score": [a, b]}``."""
    return [{"stroke": v.stroke, "score": list(v.score)} for v in (opening, *strokes)]


def highest_breaks(found: Iterable[Visit], players: Sequence[str]) -> dict[str, int]:
    """Each player's highest break (0 if he made none)."""
    top = dict.fromkeys(players, 0)
    for v in found:
        top[v.player] = max(top.get(v.player, 0), v.points)
    return top


@dataclass(frozen=True, slots=True)
class Summary:
    """The few facts a list of games shows."""

    players: tuple[str, str]
    target: int
    score: tuple[int, int]
    strokes: int
    winner: str | None
    next: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "players": list(self.players),
            "target": self.target,
            "score": list(self.score),
            "strokes": self.strokes,
            "winner": self.winner,
            "next": self.next,
        }

    @classmethod
    def from_json(
        cls, obj: object, where: str = "summary", *, error: ErrorType = ProtocolError
    ) -> Summary:
        """The summary :meth:`to_json` wrote: the one reader of it (the list of games, the
        match's and the player's pages). ``where`` names it in an error; a summary that
        does not read is an ``error`` (the web store's ``StoreError``: its rows are the
        server's own writing)."""
        data = json_fields.json_object(obj, where, error=error)
        players = json_fields.field(data, "players", where, error=error)
        if (
            type(players) is not list
            or len(players) != 2
            or not all(isinstance(p, str) and p for p in players)
        ):
            raise error(f"{where}.players: expected two names, got {json_fields.show(players)}")
        score = json_fields.field(data, "score", where, error=error)
        if type(score) is not list or len(score) != 2:
            raise error(f"{where}.score: expected two integers, got {json_fields.show(score)}")
        a, b = (
            json_fields.integer(p, f"{where}.score[{k}]", 0, error=error)
            for k, p in enumerate(score)
        )
        names = (players[0], players[1])
        return cls(
            players=names,
            target=json_fields.integer(
                json_fields.field(data, "target", where, error=error),
                f"{where}.target",
                1,
                error=error,
            ),
            score=(a, b),
            strokes=json_fields.integer(
                json_fields.field(data, "strokes", where, error=error),
                f"{where}.strokes",
                0,
                error=error,
            ),
            winner=_player_or_none(data, "winner", names, where, error),
            next=_player_or_none(data, "next", names, where, error),
        )


def _player_or_none(
    data: Mapping[str, object],
    key: str,
    players: tuple[str, str],
    where: str,
    error: ErrorType,
) -> str | None:
    """``data[key]``: one of ``players`` or ``null``."""
    value = json_fields.field(data, key, where, error=error)
    if value is not None and value not in players:
        raise error(
            f"{where}.{key}: expected one of the players or null, got {json_fields.show(value)}"
        )
    return value if value is None else str(value)


def summary(
    players: tuple[str, str],
    target: int,
    score: tuple[int, int],
    strokes: int,
    winner: int | None,
    to_play: int,
) -> Summary:
    """A game's summary from its state's figures."""
    return Summary(
        players=players,
        target=target,
        score=score,
        strokes=strokes,
        winner=None if winner is None else players[winner],
        next=None if winner is not None else players[to_play],
    )


def scored_by_kind(verdict: Verdict) -> Mapping[str, int]:
    """The points of a stroke by kind of score (``cannon``, ``pot_red`` ...)."""
    return {kind.value: value for kind, value in verdict.scored}
