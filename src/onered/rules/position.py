"""A position written down: the referee's whole ``GameState`` as one line of text, like FEN.

``write(state)`` gives the line and ``read(text)`` the state back, equal field for field;
``read`` also checks that the referee could be in that state and names the field at fault
(``PositionError``, a ``RulesError``). ``verdict(state)`` is what the referee protocol answers
to a ``position`` line. The format and the reasons for it: ``docs/position-format.md``.

Thirteen fields separated by single spaces, the players' names last::

    R0.889,3.245 W 0:0 0 0/0/0 billiards - play 0 100 0:0 WY ["Ivanov","Petrov"]

(table, to_play, score, break, counters, red, baulk, status, stroke, target, handicap,
balls, players.)

Standard library only, like the rest of ``onered.rules``.
"""

from __future__ import annotations

import json
import math
import re

from onered.rules.model import (
    BALL_LETTERS,
    CANNON_LIMIT,
    HAZARD_LIMIT,
    Ball,
    Counters,
    GameState,
    Match,
    RulesError,
    Verdict,
    write_line,
)
from onered.rules.referee import (
    RED_ON_SPOT_TOLERANCE,
    RED_SPOTS,
    standing_verdict,
    start,
)
from onered.table import LENGTH, WIDTH, Point, Spot

__all__ = ["FIELDS", "PositionError", "check", "read", "verdict", "write"]

#: The fields of the text form, in order.
FIELDS = (
    "table",
    "to_play",
    "score",
    "break",
    "counters",
    "red",
    "baulk",
    "status",
    "stroke",
    "target",
    "handicap",
    "balls",
    "players",
)
#: How far beyond the cushion lines a ball's centre may be: a ball resting in a pocket's jaws
#: (the physics engine leaves some there, and the referee protocol accepts them).
JAWS_MARGIN = 0.1

_BALL_OF = {letter: ball for ball, letter in BALL_LETTERS.items()}
_TABLE_ORDER = (Ball.WHITE, Ball.YELLOW, Ball.RED)
_CUE = {"W": Ball.WHITE, "Y": Ball.YELLOW}
_BALL_ORDERS = {"WY": (Ball.WHITE, Ball.YELLOW), "YW": (Ball.YELLOW, Ball.WHITE)}
_RED_SPOT_NAMES = {s.value: s for s in RED_SPOTS}
_FALLBACK = "*"  # after the red's spot: the 2.9.4 fallback (model.write_line writes it)
_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_INT = re.compile(r"\d{1,18}")
_PAIR = re.compile(r"(\d{1,18}):(\d{1,18})")
_COUNTERS = re.compile(r"(\d{1,18})/(\d{1,18})/(\d{1,18})")


class PositionError(RulesError):
    """A position text that cannot be read, or a state the referee could not be in."""

    default_code = "position"


# --- writing -------------------------------------------------------------------------------


def write(state: GameState) -> str:
    """The position's one-line text (``docs/position-format.md``). The state owns its line
    (``onered.rules.model.write_line``: it is also ``GameState``'s repr)."""
    return write_line(state)


# --- reading -------------------------------------------------------------------------------


def _show(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _fail(field: str, problem: str) -> PositionError:
    return PositionError(f"position: {field}: {problem}")


def _int(text: str, field: str) -> int:
    if not _INT.fullmatch(text):
        raise _fail(field, f"expected a whole number of at least 0, got {_show(text)}")
    return int(text)


def _pair(text: str, field: str, what: str) -> tuple[int, int]:
    found = _PAIR.fullmatch(text)
    if found is None:
        raise _fail(field, f"expected {what} as two whole numbers 'a:b', got {_show(text)}")
    return int(found.group(1)), int(found.group(2))


def _coordinate(text: str, field: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise _fail(field, f"expected a decimal number, got {_show(text)}")
    value = float(text)
    if not math.isfinite(value):
        raise _fail(field, f"{_show(text)} is too large")
    return value


def _table(text: str) -> dict[Ball, Point | None]:
    table: dict[Ball, Point | None] = {}
    if text == "-":
        return table
    last = -1
    for cell in text.split("/"):
        ball = _BALL_OF.get(cell[:1])
        if ball is None:
            raise _fail(
                "table",
                f"expected W, Y or R and the ball's centre 'x,y' (or '?'), got {_show(cell)}",
            )
        order = _TABLE_ORDER.index(ball)
        if ball in table:
            raise _fail("table", f"the {ball.value} is given twice")
        if order < last:
            raise _fail("table", f"balls go in the order W, Y, R; got {_show(text)}")
        last = order
        where = cell[1:]
        if where == "?":
            table[ball] = None
            continue
        parts = where.split(",")
        if len(parts) != 2:
            raise _fail("table", f"{ball.value}: expected 'x,y' or '?', got {_show(where)}")
        x = _coordinate(parts[0], f"table ({ball.value}'s x)")
        y = _coordinate(parts[1], f"table ({ball.value}'s y)")
        table[ball] = (x, y)
    return table


def _players(text: str) -> tuple[str, str]:
    try:
        names = json.loads(text)
    except ValueError:
        names = None
    if not isinstance(names, list) or len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise _fail("players", f'expected ["name", "name"] (JSON strings), got {_show(text)}')
    return names[0], names[1]


def read(text: str) -> GameState:
    """The state a position's text describes; :class:`PositionError` names the field at
    fault and says what is wrong (a bad form, or a state the referee cannot be in)."""
    if not isinstance(text, str):
        raise PositionError(f"position: expected text, got {type(text).__name__}")
    parts = text.strip().split(" ", len(FIELDS) - 1)
    if len(parts) < len(FIELDS) or any(not p for p in parts[:-1]):
        raise PositionError(
            f"position: expected {len(FIELDS)} fields separated by single spaces "
            f"({' '.join(FIELDS)}), got {_show(text)}"
        )
    fields = dict(zip(FIELDS, parts, strict=True))
    table = _table(fields["table"])
    to_play_ball = _CUE.get(fields["to_play"])
    if to_play_ball is None:
        raise _fail(
            "to_play", f"expected W or Y (the striker's ball), got {_show(fields['to_play'])}"
        )
    score = _pair(fields["score"], "score", "the players' scores")
    brk = _int(fields["break"], "break")
    found = _COUNTERS.fullmatch(fields["counters"])
    if found is None:
        raise _fail(
            "counters",
            f"expected cannons/hazards/red_run, e.g. 0/3/1, got {_show(fields['counters'])}",
        )
    counters = Counters(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    red_text = fields["red"]
    fallback = red_text.endswith(_FALLBACK)
    red_name = red_text[: -len(_FALLBACK)] if fallback else red_text
    red_spot = None if red_name == "-" else _RED_SPOT_NAMES.get(red_name)
    if red_name != "-" and red_spot is None:
        raise _fail(
            "red",
            f"expected billiards, pyramid, centre or - (then * after a fallback), "
            f"got {_show(red_text)}",
        )
    baulk = fields["baulk"]
    if baulk not in ("-", "due", "made"):
        raise _fail("baulk", f"expected -, due or made, got {_show(baulk)}")
    status = fields["status"]
    if status not in ("play", "option", "over"):
        raise _fail("status", f"expected play, option or over, got {_show(status)}")
    stroke_no = _int(fields["stroke"], "stroke")
    target = _int(fields["target"], "target")
    handicap = _pair(fields["handicap"], "handicap", "the points given at the start")
    balls = _BALL_ORDERS.get(fields["balls"])
    if balls is None:
        raise _fail(
            "balls",
            f"expected WY or YW (the first and second named players' balls), "
            f"got {_show(fields['balls'])}",
        )
    players = _players(fields["players"])
    match = Match(target=target, players=players, balls=balls, handicap=handicap)
    to_play = balls.index(to_play_ball)
    brk_hundred = brk // 100
    if brk % 100 < 80:
        if baulk != "-":
            raise _fail(
                "baulk",
                f"{baulk!r}, but the break {brk} is not in the 80-99 window of a hundred "
                "(expected -)",
            )
        baulk_met = brk_hundred - 1
    else:
        if baulk == "-":
            raise _fail(
                "baulk",
                f"'-', but the break {brk} is in the 80-99 window of a hundred "
                "(expected due or made)",
            )
        baulk_met = brk_hundred if baulk == "made" else brk_hundred - 1
    state = GameState(
        match=match,
        table=table,
        score=score,
        stroke_no=stroke_no,
        to_play=to_play,
        break_=brk,
        counters=counters,
        red_spot=red_spot,
        red_fallback=fallback,
        baulk_met=baulk_met,
        choice_pending=status == "option",
        winner=to_play if status == "over" else None,
    )
    check(state)
    return state


# --- checking ------------------------------------------------------------------------------


def check(state: GameState) -> None:
    """Raise :class:`PositionError` unless the referee could be in ``state``: the match is
    valid, the numbers are within the rules' limits and agree with each other, the balls
    are where they can be."""
    match = state.match
    try:
        opening = start(match)
    except RulesError as exc:
        raise PositionError(f"position: {exc}") from None
    _check_types(state)
    _check_table(state)
    _check_numbers(state)
    if state.stroke_no == 0 and state != opening:
        raise _fail(
            "stroke",
            "0 is the opening (the red on the billiards spot, both cue balls in hand, the "
            f"first named player to play, the score at the handicap): got {write(state)!r}",
        )


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _check_types(state: GameState) -> None:
    """The fields hold values of their types (a state built in code may not)."""
    if state.to_play not in (0, 1) or type(state.to_play) is not int:
        raise _fail("to_play", f"expected player 0 or 1, got {state.to_play!r}")
    if state.winner is not None and (state.winner not in (0, 1) or type(state.winner) is not int):
        raise _fail("status", f"the winner must be player 0 or 1, got {state.winner!r}")
    if not (len(state.score) == 2 and all(_is_count(s) for s in state.score)):
        raise _fail("score", f"expected two whole numbers of at least 0, got {state.score!r}")
    for name, value in (("break", state.break_), ("stroke", state.stroke_no)):
        if not _is_count(value):
            raise _fail(name, f"expected a whole number of at least 0, got {value!r}")
    counters = state.counters
    if not all(_is_count(c) for c in (counters.cannons, counters.hazards, counters.red_run)):
        raise _fail("counters", f"expected whole numbers of at least 0, got {counters!r}")
    if state.red_spot is not None and state.red_spot not in RED_SPOTS:
        raise _fail("red", f"the red stands on a red spot or on none, got {state.red_spot!r}")
    if type(state.red_fallback) is not bool or type(state.choice_pending) is not bool:
        raise _fail("red", "red_fallback and choice_pending are true or false")
    if type(state.baulk_met) is not int or state.baulk_met < -1:
        raise _fail("baulk", f"expected a hundred of the break or -1, got {state.baulk_met!r}")
    for ball, at in state.table.items():
        if not isinstance(ball, Ball):
            raise _fail("table", f"expected balls, got {ball!r}")
        if at is not None and not (
            isinstance(at, tuple)
            and len(at) == 2
            and all(isinstance(c, int | float) and math.isfinite(c) for c in at)
        ):
            raise _fail("table", f"the {ball.value}: expected (x, y) or None, got {at!r}")
    brk = state.break_
    expected = brk // 100 if brk % 100 >= 80 else brk // 100 - 1
    if state.baulk_met not in (expected, brk // 100 - 1):
        raise _fail(
            "baulk",
            f"the crossing made in hundred {state.baulk_met} does not fit the break of {brk}",
        )


def _check_table(state: GameState) -> None:
    table = state.table
    if Ball.RED not in table:
        raise _fail("table", "the red must be on the table (R...)")
    for ball, at in table.items():
        if at is None:
            continue
        x, y = at
        if not (
            -JAWS_MARGIN <= x <= WIDTH + JAWS_MARGIN and -JAWS_MARGIN <= y <= LENGTH + JAWS_MARGIN
        ):
            raise _fail(
                "table",
                f"the {ball.value} at ({x!r}, {y!r}) is off the table (the bed is "
                f"{WIDTH} x {LENGTH} m, a ball in a pocket's jaws at most {JAWS_MARGIN} m "
                "beyond it)",
            )
    red_at = table[Ball.RED]
    spot = state.red_spot
    if red_at is not None:
        near = [s for s in RED_SPOTS if math.dist(red_at, s.point) <= RED_ON_SPOT_TOLERANCE]
        if spot is not None and spot not in near:
            raise _fail(
                "red",
                f"the red stands on the {spot.value} spot, but the table puts it at "
                f"({red_at[0]!r}, {red_at[1]!r}), {math.dist(red_at, spot.point):.4g} m away",
            )
        if spot is None and near:
            raise _fail(
                "red",
                f"'-' (on no spot), but the table puts the red on the {near[0].value} spot",
            )
    if state.red_fallback and spot is not Spot.BILLIARDS:
        raise _fail("red", "a fallback (*) is only to the billiards spot (2.7.2)")


def _check_numbers(state: GameState) -> None:
    match = state.match
    score, handicap, target = state.score, match.handicap, match.target
    for i in (0, 1):
        if score[i] < handicap[i]:
            raise _fail(
                "score",
                f"{match.players[i]} has {score[i]}, below the {handicap[i]} given at the start",
            )
    over = [i for i in (0, 1) if score[i] >= target]
    if len(over) == 2:
        raise _fail("score", f"both players have reached the target {target}")
    if state.winner is not None:
        if state.choice_pending:
            raise _fail("status", "a game that is over has no foul option pending")
        if over != [state.winner]:
            raise _fail(
                "status",
                f"'over', but {match.players[state.winner]} (to play) has "
                f"{score[state.winner]} of {target} points: the winner is the player to play, "
                "with the target reached",
            )
    elif over:
        status = "option" if state.choice_pending else "play"
        raise _fail(
            "status",
            f"{status}, but {match.players[over[0]]} has "
            f"reached the target {target}: the game is over (status over, his turn)",
        )
    brk = state.break_
    striker = state.to_play
    if brk > score[striker] - handicap[striker]:
        raise _fail(
            "break",
            f"{brk}, more than the {score[striker] - handicap[striker]} points "
            f"{match.players[striker]} (to play) has scored",
        )
    counters = state.counters
    if counters.cannons > CANNON_LIMIT:
        raise _fail("counters", f"{counters.cannons} cannons: at most {CANNON_LIMIT} (2.8.1)")
    if counters.hazards > HAZARD_LIMIT:
        raise _fail("counters", f"{counters.hazards} hazards: at most {HAZARD_LIMIT} (2.9.2)")
    if counters.cannons and counters.hazards:
        raise _fail(
            "counters",
            "consecutive cannons and consecutive hazards at once: a stroke of one kind ends "
            "the other's run",
        )
    if counters.red_run > counters.hazards:
        raise _fail(
            "counters",
            f"a red run of {counters.red_run} in {counters.hazards} consecutive hazards: every "
            "pot of the run is a hazard",
        )
    if 2 * (counters.cannons + counters.hazards) + counters.red_run > brk:
        raise _fail(
            "counters",
            f"{counters.cannons} cannons, {counters.hazards} hazards and a red run of "
            f"{counters.red_run} score more than the break of {brk}",
        )
    if state.red_fallback and counters.red_run < 2:
        raise _fail("red", "a fallback (*) comes after a red run of at least 2 (2.7.2)")
    if state.choice_pending and brk:
        raise _fail("break", f"{brk} with a foul option pending: a foul ends the break")
    if brk == 0 and state.red_fallback:
        raise _fail("red", "a fallback (*) with no break: the red run ended with the visit")


# --- the protocol's answer -------------------------------------------------------------------


def verdict(state: GameState) -> Verdict:
    """The verdict of a ``position`` line (referee protocol): the state as it stands, as
    the ``match`` line's verdict is the opening's."""
    return standing_verdict(state)
