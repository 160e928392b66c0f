"""Positions the coach is asked about: a JSON form (the coach page's, and files), the
written form (``onered.rules.position``), and the position before a stroke of a game (a
``onered.game.session.Session``: a record read, or a stored game).

The JSON form names what a player sees at the table::

    {"balls": {"white": [0.95, 0.66], "red": [1.2, 2.9]},   # the balls on the table
     "to_play": "white",                                   # the striker's ball
     "score": [34, 20], "break": 12, "target": 100,        # score: white's, yellow's
     "counters": {"cannons": 0, "hazards": 3, "red_run": 0},
     "baulk_crossed": false, "players": ["Ivanov", "Petrov"]}

Only ``balls`` is required. The striker's ball absent from ``balls`` is in hand (he plays
from the D); the opponent's ball absent is off the table (potted, or before his first
visit). ``baulk_crossed``: the baulk-line crossing of this hundred of the break is already
made (2.13). The red's spot (for the spotting run, decision 5) is the spot it stands on.
The state is checked as a written position is (``onered.rules.position.check``): one the
referee could be in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from onered.coach.advice import AdviceError
from onered.game.model import Action, Position
from onered.game.record import LineKind, read_action
from onered.game.session import Judged, Session
from onered.protocol import json_fields
from onered.rules import Ball, Counters, GameState, Match
from onered.rules import position as written
from onered.rules.model import CANNON_LIMIT, HAZARD_LIMIT
from onered.rules.referee import red_spot_at
from onered.table import Point

_CUE_BALLS = (Ball.WHITE, Ball.YELLOW)
_FIELDS = {"balls", "to_play", "score", "break", "target", "counters", "baulk_crossed", "players"}
DEFAULT_PLAYERS = ("Player 1", "Player 2")


def _show(value: Any) -> str:
    return json_fields.show(value)


def _int(value: Any, where: str, low: int, high: int | None = None) -> int:
    return json_fields.integer(value, where, low, high, error=AdviceError)


def point_from_json(value: Any, where: str) -> Point:
    """A point ``[x, y]`` (metres) of a JSON document; :class:`AdviceError` names ``where``."""
    return json_fields.point(
        list(value) if isinstance(value, tuple) else value, where, error=AdviceError
    )


def counters_from_json(value: Any, where: str = "counters") -> Counters:
    """The counters as :meth:`Counters.to_json` writes them, each absent one 0, each within
    the rules' limits: the one reader of their JSON form. It lives here, with the one
    document that gives counters as input, because it reads with the shared field readers,
    which the rules may not import."""
    if not isinstance(value, Mapping) or set(value) - {"cannons", "hazards", "red_run"}:
        raise AdviceError(f"{where}: expected {{cannons, hazards, red_run}}, got {_show(value)}")
    return Counters(
        cannons=_int(value.get("cannons", 0), f"{where}.cannons", 0, CANNON_LIMIT),
        hazards=_int(value.get("hazards", 0), f"{where}.hazards", 0, HAZARD_LIMIT),
        red_run=_int(value.get("red_run", 0), f"{where}.red_run", 0),
    )


def position_from_json(obj: Any) -> Position:
    """The position a JSON object describes (see the module docstring); :class:`AdviceError`
    names the field at fault."""
    if not isinstance(obj, Mapping):
        raise AdviceError(f"position: expected a JSON object, got {_show(obj)}")
    unknown = sorted(set(obj) - _FIELDS)
    if unknown:
        raise AdviceError(
            f"position: unknown field {unknown[0]!r} (expected {', '.join(sorted(_FIELDS))})"
        )
    raw_balls = obj.get("balls")
    if not isinstance(raw_balls, Mapping):
        raise AdviceError(f"balls: expected an object of ball: [x, y], got {_show(raw_balls)}")
    balls: dict[Ball, Point] = {}
    for name, at in raw_balls.items():
        ball = json_fields.ball(name, "balls", error=AdviceError)
        if at is None:
            raise AdviceError(
                f"balls.{name}: null — put the ball on the table, or leave it out when it is "
                "off the table"
            )
        balls[ball] = point_from_json(at, f"balls.{name}")
    to_play = json_fields.ball(obj.get("to_play", "white"), "to_play", error=AdviceError)
    if to_play not in _CUE_BALLS:
        raise AdviceError(f"to_play: expected 'white' or 'yellow', got {_show(to_play.value)}")
    striker = _CUE_BALLS.index(to_play)
    target = _int(obj.get("target", 100), "target", 1)
    score_raw = obj.get("score", [0, 0])
    if not isinstance(score_raw, list | tuple) or len(score_raw) != 2:
        raise AdviceError(f"score: expected [white's, yellow's], got {_show(score_raw)}")
    score = (
        _int(score_raw[0], "score[0]", 0, target - 1),
        _int(score_raw[1], "score[1]", 0, target - 1),
    )
    brk = _int(obj.get("break", 0), "break", 0, score[striker])
    counters = counters_from_json(obj.get("counters", {}))
    crossed = obj.get("baulk_crossed", False)
    if not isinstance(crossed, bool):
        raise AdviceError(f"baulk_crossed: expected true or false, got {_show(crossed)}")
    if crossed and brk % 100 < 80:
        raise AdviceError(
            f"baulk_crossed: true, but the break {brk} is not in the 80-99 window of a hundred"
        )
    players_raw = obj.get("players", list(DEFAULT_PLAYERS))
    if (
        not isinstance(players_raw, list | tuple)
        or len(players_raw) != 2
        or not all(isinstance(p, str) and p for p in players_raw)
        or players_raw[0] == players_raw[1]
    ):
        raise AdviceError(f"players: expected two different names, got {_show(players_raw)}")
    red = balls.get(Ball.RED)
    if red is None:
        raise AdviceError("balls.red: the red must be on the table")
    state = GameState(
        match=Match(target=target, players=(players_raw[0], players_raw[1]), balls=_CUE_BALLS),
        table=dict(balls),
        score=score,
        stroke_no=1,
        to_play=striker,
        break_=brk,
        counters=counters,
        red_spot=red_spot_at(red),
        baulk_met=brk // 100 if crossed else brk // 100 - 1,
    )
    try:
        written.check(state)  # a state the referee could be in (onered.rules.position)
    except written.PositionError as exc:
        raise AdviceError(f"position: {exc}") from None
    return Position(balls=dict(balls), state=state)


def position_json(state: GameState) -> dict[str, Any]:
    """The JSON form of the referee's state (read back by :func:`position_from_json`); a
    ball on the table at a place the referee was not told is ``null`` (to be set up)."""
    if state.match.balls != _CUE_BALLS:
        # the JSON form gives the score as white's, yellow's: put it in that order
        order = [state.match.balls.index(b) for b in _CUE_BALLS]
    else:
        order = [0, 1]
    brk = state.break_
    return {
        "balls": {
            b.value: None if p is None else json_fields.point_json(p)
            for b, p in state.table.items()
        },
        "to_play": state.match.balls[state.to_play].value,
        "score": [state.score[i] for i in order],
        "break": brk,
        "target": state.match.target,
        "counters": state.counters.to_json(),
        "baulk_crossed": brk % 100 >= 80 and state.baulk_met >= brk // 100,
        "players": [state.match.players[i] for i in order],
    }


def stroke_entry(session: Session, stroke: int) -> Judged:
    """The line of stroke number ``stroke`` (1 = the first) of a game."""
    strokes = [e for e in session.entries if e.kind is LineKind.STROKE]
    if not 1 <= stroke <= len(strokes):
        raise AdviceError(
            f"stroke: the game has {len(strokes)} strokes, there is no stroke {stroke}"
        )
    return strokes[stroke - 1]


def state_before(session: Session, stroke: int) -> GameState:
    """The referee's state before stroke number ``stroke`` (1 = the first) of a game."""
    return session.state_before(stroke_entry(session, stroke).seq)


def action_from_json(obj: Mapping[str, Any], where: str) -> Action:
    """A stroke as a played game's line keeps it: ``{"placed": [x, y] or null, "strike":
    {speed, aim, side, height, elevation}}`` (the record's one reader,
    :func:`onered.game.record.read_action`); :class:`AdviceError` names ``where``."""
    return read_action(obj, where, error=AdviceError, sep=".")


def played_at(session: Session, stroke: int) -> Action | None:
    """The stroke played as stroke number ``stroke`` (:func:`action_from_json`), or
    ``None`` when its line has no strike (a marked game)."""
    line = stroke_entry(session, stroke).line
    if line.get("strike") is None:
        return None
    return action_from_json(line, f"stroke {stroke}")


def known_position(state: GameState, where: str, hint: str = "") -> Position:
    """The position of ``state`` with every ball where the referee knows it;
    :class:`AdviceError` (``where``: the input, ``hint``: what to do) when a place is not
    known."""
    unknown = sorted(b.value for b, p in state.table.items() if p is None)
    if unknown:
        raise AdviceError(f"{where}: no place is given for the {' and the '.join(unknown)}{hint}")
    balls = {b: p for b, p in state.table.items() if p is not None}
    return Position(balls=balls, state=state)


def position_from_text(text: str) -> Position:
    """The position a written position describes (``onered.rules.position``, one line)."""
    try:
        state = written.read(text)
    except written.PositionError as exc:
        raise AdviceError(str(exc)) from None
    return known_position(state, "position")


def position_before(session: Session, stroke: int) -> Position:
    """The position before stroke ``stroke`` of a game (:func:`state_before`), every ball
    where the referee knows it; :class:`AdviceError` when a place is not known."""
    return known_position(
        state_before(session, stroke),
        f"stroke {stroke}",
        " (a marked game records no positions): set the balls up by hand",
    )
