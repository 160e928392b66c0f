"""The referee protocol (``docs/referee-protocol.md``): JSON Lines in, verdicts out.

This layer reads and checks JSON, turns it into ``onered.rules`` values, and writes verdicts
with the calls' Russian and English texts. All rule decisions are taken in ``onered.rules``.
Input is read as bytes and answered per batch of ready lines (``onered.protocol.lines``);
any bad line, whatever is wrong with it (not UTF-8, not JSON, a number too large for a
double, nesting too deep, a wrong field), ends the run with ``line N: ...`` on standard
error and status 2, after the verdicts of all earlier lines.

Decisions where the protocol page is silent are in ``docs/referee-protocol.md``; one is
here: a position (``positions``) is on the table when its centre lies within the bed's
rectangle (a marker's measurement) or wherever the physics engine may leave a ball at rest
(:func:`onered.physics.check_position`: hanging over a pocket's jaws), so every
``outcome`` of the shot protocol is a valid ``stroke`` line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import IO, Any

import orjson

from onered import rules
from onered.protocol.json_fields import (
    ProtocolError,
    ball,
    get_bool,
    loads_object,
    point,
    point_json,
    show,
    string_list,
)
from onered.protocol.lines import Line, is_blank, line_batches, sink
from onered.rules import (
    BOTH,
    Ball,
    FoulCode,
    GameState,
    Match,
    Option,
    RulesError,
    Spot,
    Stroke,
    Verdict,
    position,
)
from onered.table import LENGTH, WIDTH, Point
from onered.texts import CALLS, Lang

__all__ = [
    "ProtocolError",
    "RefereeSession",
    "match_json",
    "parse_match",
    "parse_position",
    "parse_stroke",
    "position_json",
    "run",
    "verdict_json",
]

#: Each ball by its name: the fast paths' table (``json_fields.ball`` reads a name that is
#: not in it and says what is wrong).
_BALLS = {b.value: b for b in Ball}
_FIRST_HIT: dict[str, Ball | rules.Both] = {**_BALLS, "both": BOTH}
_FOULS = {f.value: f for f in FoulCode}
_SPOTS = {s.value: s for s in Spot}
_OPTIONS = {o.value: o for o in Option}


_MISSING = object()
#: Bound once: a class's attribute is looked up on each read (Python 3.11).
_stroke_of_members = Stroke.of_members
_NO_FOULS: frozenset[FoulCode] = frozenset()
_NO_SPOTS: frozenset[Spot] = frozenset()


def _balls(obj: Mapping[str, object], key: str) -> tuple[Ball, ...]:
    value = obj.get(key, _MISSING)
    if value is _MISSING:
        return ()
    if type(value) is list:
        try:  # the common case: known names, looked up in the names' table
            return tuple([_BALLS[name] for name in value])
        except (KeyError, TypeError):
            pass  # the slow path below, the one reader of a ball's name, says what is wrong
    return tuple(ball(name, key) for name in string_list(obj, key))


def _surface_point(value: object, where: str) -> Point:
    p = point(value, where)
    if 0.0 <= p[0] <= WIDTH and 0.0 <= p[1] <= LENGTH:
        return p
    from onered.physics import PhysicsInputError, check_position

    try:  # beyond the cushion lines: in a pocket's mouth or jaws, where the engine allows
        check_position({"ball": p})
    except PhysicsInputError as exc:
        engine = str(exc).split(" ", 1)[1]  # "balls['ball'] at (x, y) is ..." without the id
        raise ProtocolError(
            f"{where}: {show(value)} is off the playing surface (a ball {engine})"
        ) from None
    return p


def parse_match(obj: Mapping[str, object]) -> Match:
    """A ``match`` line as a ``Match`` (checked again by ``rules.start``)."""
    target = obj.get("target")
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        raise ProtocolError(f"target: expected an integer of at least 1, got {show(target)}")
    players = obj.get("players")
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, str) and p.strip() for p in players)
    ):
        raise ProtocolError(f"players: expected two non-empty names, got {show(players)}")
    if players[0] == players[1]:
        raise ProtocolError(f"players: the two names must differ, got {show(players)}")
    names = string_list(obj, "balls") if "balls" in obj else ["white", "yellow"]
    balls = tuple(ball(n, "balls") for n in names)
    if len(balls) != 2 or set(balls) != {Ball.WHITE, Ball.YELLOW}:
        raise ProtocolError(
            f"balls: expected 'white' and 'yellow' in some order, got {show(names)}"
        )
    handicap = obj.get("handicap", [0, 0])
    if (
        not isinstance(handicap, list)
        or len(handicap) != 2
        or not all(not isinstance(h, bool) and isinstance(h, int) and h >= 0 for h in handicap)
    ):
        raise ProtocolError(
            f"handicap: expected two integers of at least 0 (points given to each player at "
            f"the start), got {show(handicap)}"
        )
    return Match(
        target=target,
        players=(players[0], players[1]),
        balls=(balls[0], balls[1]),
        handicap=(handicap[0], handicap[1]),
    )


def match_json(match: Match) -> dict[str, object]:
    """The ``match`` line of a match (``handicap`` only when one was given, so a plain
    game's line is as it always was)."""
    line: dict[str, object] = {
        "type": "match",
        "target": match.target,
        "players": list(match.players),
        "balls": [b.value for b in match.balls],
    }
    if match.handicap != (0, 0):
        line["handicap"] = list(match.handicap)
    return line


def parse_position(obj: Mapping[str, object]) -> GameState:
    """A ``position`` line's state (``onered.rules.position``, ``docs/position-format.md``):
    the game goes on from there, as from the opening after a ``match`` line."""
    text = obj.get("position")
    if not isinstance(text, str):
        raise ProtocolError(
            f"position: expected the position's text (docs/position-format.md), got {show(text)}"
        )
    return position.read(text)


def position_json(state: GameState) -> dict[str, object]:
    """The ``position`` line that starts a game from ``state``."""
    return {"type": "position", "position": position.write(state)}


def parse_stroke(obj: Mapping[str, object]) -> Stroke:
    """A ``stroke`` line as a ``Stroke``: types and names checked here, the rules later."""
    get = obj.get
    striker = get("striker")
    if striker is not None and not isinstance(striker, str):
        raise ProtocolError(f"striker: expected a player's name, got {show(striker)}")
    placed_raw = get("placed")
    placed = None if placed_raw is None else point(placed_raw, "placed")
    hit_raw = get("first_hit")
    first_hit: rules.FirstHit = None
    if hit_raw is not None:
        if type(hit_raw) is not str or hit_raw not in _FIRST_HIT:
            raise ProtocolError(
                f"first_hit: expected red, white, yellow, both or null, got {show(hit_raw)}"
            )
        first_hit = _FIRST_HIT[hit_raw]
    fouls = _NO_FOULS
    if "fouls" in obj:
        found: set[FoulCode] = set()
        for code in string_list(obj, "fouls"):
            if code not in _FOULS:
                raise ProtocolError(f"fouls: unknown foul code {code!r}")
            found.add(_FOULS[code])
        fouls = frozenset(found)
    positions_raw = get("positions")
    positions: dict[Ball, Point] | None = None
    if positions_raw is not None:
        if not isinstance(positions_raw, dict):
            raise ProtocolError(
                f"positions: expected an object of ball: [x, y], got {show(positions_raw)}"
            )
        positions = {
            _BALLS.get(name) or ball(name, "positions"): _surface_point(p, f"positions.{name}")
            for name, p in positions_raw.items()
        }
    occupied = _NO_SPOTS
    if "occupied" in obj:
        spots: set[Spot] = set()
        for name in string_list(obj, "occupied"):
            if name not in _SPOTS:
                known = ", ".join(_SPOTS)
                raise ProtocolError(f"occupied: unknown spot {name!r} (spots are {known})")
            spots.add(_SPOTS[name])
        occupied = frozenset(spots)
    # The flags and lists, read in the order their errors have always come in.
    struck = get("struck", True)
    if struck is not True and struck is not False:
        struck = get_bool(obj, "struck", True)  # raises, naming the field
    cannon = get("cannon", False)
    if cannon is not True and cannon is not False:
        cannon = get_bool(obj, "cannon", False)
    potted = _balls(obj, "potted") if "potted" in obj else ()
    off_table = _balls(obj, "off_table") if "off_table" in obj else ()
    crossed_baulk = get("crossed_baulk", False)
    if crossed_baulk is not True and crossed_baulk is not False:
        crossed_baulk = get_bool(obj, "crossed_baulk", False)
    touching = get("touching", False)
    if touching is not True and touching is not False:
        touching = get_bool(obj, "touching", False)
    return _stroke_of_members(  # every value read into the enums above: nothing to convert
        striker,
        struck,
        placed,
        first_hit,
        cannon,
        potted,
        off_table,
        fouls,
        crossed_baulk,
        touching,
        positions,
        occupied,
    )


def parse_option(obj: Mapping[str, object]) -> Option:
    """A ``choice`` line's option."""
    value = obj.get("option")
    if not isinstance(value, str) or value not in _OPTIONS:
        raise ProtocolError(f"option: expected 'as_they_lie' or 'from_d', got {show(value)}")
    return _OPTIONS[value]


#: Each call's JSON fields, looked up once: ``(code, ru, en)``.
_CALL_TEXTS = {code: (code.value, texts[Lang.RU], texts[Lang.EN]) for code, texts in CALLS.items()}
_VALUES: dict[object, str] = {
    member: member.value
    for enum in (Ball, FoulCode, Spot, Option, rules.ScoreKind)
    for member in enum
}


#: A verdict's fields in the protocol's order: each verdict's object starts as a copy of
#: this and has every field set (copying 19 keys costs a third of inserting them).
_VERDICT_FIELDS: dict[str, object] = dict.fromkeys(
    (
        "stroke",
        "striker",
        "ball",
        "from_d",
        "points",
        "scored",
        "foul",
        "score",
        "break",
        "visit_over",
        "next",
        "next_from_d",
        "options",
        "placements",
        "in_hand",
        "counters",
        "baulk_line",
        "calls",
        "winner",
    )
)


def verdict_json(verdict: Verdict, players: tuple[str, str]) -> dict[str, object]:
    """A verdict as the protocol's JSON object, with the calls' texts looked up."""
    values = _VALUES
    line = _VERDICT_FIELDS.copy()
    line["stroke"] = verdict.stroke
    line["striker"] = verdict.striker
    ball = verdict.ball
    line["ball"] = None if ball is None else values[ball]
    line["from_d"] = verdict.from_d
    line["points"] = verdict.points
    scored = verdict.scored
    line["scored"] = {values[kind]: value for kind, value in scored} if scored else {}
    foul = verdict.foul
    if foul is None:
        line["foul"] = None
    else:
        line["foul"] = {"codes": [values[c] for c in foul.codes], "penalty": foul.penalty}
    score = verdict.score
    line["score"] = {players[0]: score[0], players[1]: score[1]}
    line["break"] = verdict.break_
    line["visit_over"] = verdict.visit_over
    line["next"] = verdict.next
    line["next_from_d"] = verdict.next_from_d
    options = verdict.options
    line["options"] = [values[o] for o in options] if options else []
    placements = verdict.placements
    line["placements"] = (
        [
            {
                "ball": values[p.ball],
                "at": values[p.at] if isinstance(p.at, Spot) else point_json(p.at),
            }
            for p in placements
        ]
        if placements
        else []
    )
    in_hand = verdict.in_hand
    line["in_hand"] = [values[b] for b in in_hand] if in_hand else []
    line["counters"] = verdict.counters.to_json()
    line["baulk_line"] = {"required": verdict.baulk_required, "crossed": verdict.baulk_crossed}
    calls = verdict.calls
    line["calls"] = (
        [{"code": code, "ru": ru, "en": en} for code, ru, en in (_CALL_TEXTS[c] for c in calls)]
        if calls
        else []
    )
    line["winner"] = verdict.winner
    return line


class RefereeSession:
    """One game fed line by line: holds the referee's state between protocol lines."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def feed(self, obj: Mapping[str, object]) -> tuple[Verdict, tuple[str, str]]:
        """Judge one parsed protocol line, returning the verdict and the players' names;
        raises ``ProtocolError`` or ``RulesError``."""
        kind = obj.get("type")
        state = self.state
        if state is not None:  # the game goes on: a stroke, most lines, first
            if kind == "stroke":
                state, verdict = rules.judge(state, parse_stroke(obj))
            elif kind == "choice":
                state, verdict = rules.choose(state, parse_option(obj))
            elif kind == "match":
                raise ProtocolError("a second match line: the match line comes once, first")
            elif kind == "position":
                raise ProtocolError(
                    "a position line after the first: a game starts from a match line or a "
                    "position line, once, first"
                )
            elif kind is None:
                raise ProtocolError("type: missing (expected match, position, stroke or choice)")
            else:
                raise ProtocolError(
                    f"type: unknown line type {show(kind)} (expected match, position, stroke "
                    "or choice)"
                )
            self.state = state
            return verdict, state.match.players
        if kind == "position":
            self.state = state = parse_position(obj)
            return position.verdict(state), state.match.players
        if kind != "match":
            raise ProtocolError("the first line must be the match line (or a position line)")
        self.state = state = rules.start(parse_match(obj))
        return rules.opening_verdict(state), state.match.players


def run(
    lines: IO[Any] | Iterable[Line],
    out: IO[Any],
    err: IO[Any],
    *,
    flush_each: bool = False,
    session: RefereeSession | None = None,
) -> int:
    """Judge protocol lines, writing one verdict per line to ``out``; on the first bad line
    write ``line N: ...`` to ``err`` and return 2 (earlier verdicts are all written), else 0.

    ``lines`` is a byte or text stream (read as bytes, answered per batch of ready lines,
    see ``onered.protocol.lines``) or an iterable of lines; ``flush_each`` writes each
    verdict at once. Pass a ``session`` to read the final state afterwards."""
    session = session if session is not None else RefereeSession()
    write_out = sink(out)
    number = 0
    feed = session.feed
    loads, dumps, newline = orjson.loads, orjson.dumps, orjson.OPT_APPEND_NEWLINE
    for batch in line_batches(lines):
        answers: list[bytes] = []
        answer = answers.append
        for line in batch:
            number += 1
            if line[:1] != b"{" and is_blank(line):  # a line of bytes from "{" is not blank
                continue
            started = session.state is not None
            # loads_object and dumps_line inlined (a call each saved a line); a line that is
            # not a JSON object is read again by loads_object, which says what is wrong.
            try:
                obj = loads(line)
            except orjson.JSONDecodeError:
                obj = None
            if obj.__class__ is not dict:
                try:
                    obj = loads_object(line)
                except ProtocolError as exc:
                    return _fail(write_out, answers, err, number, exc)
            try:
                verdict, players = feed(obj)
                answer(dumps(verdict_json(verdict, players), option=newline))
            except (ProtocolError, RulesError) as exc:
                # An input that does not start with a match line is an error at line 1 (spec).
                return _fail(write_out, answers, err, number if started else 1, exc)
            except Exception as exc:  # a bug: still a line number and a message, no traceback
                message = f"internal error: {type(exc).__name__}: {exc}"
                return _fail(write_out, answers, err, number, message)
            if flush_each:
                write_out(b"".join(answers))
                answers.clear()
        if answers:
            write_out(b"".join(answers))
    if session.state is None:
        err.write("line 1: no match line: the input must start with a match line\n")
        err.flush()
        return 2
    return 0


def _fail(
    write_out: Any, answers: list[bytes], err: IO[Any], at: int, problem: Exception | str
) -> int:
    """Write the verdicts so far, then ``line N: ...``; the exit status 2."""
    if answers:
        write_out(b"".join(answers))
    err.write(f"line {at}: {problem}\n")
    err.flush()
    return 2
