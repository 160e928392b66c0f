"""The referee protocol (``shared/spec/referee-protocol.md``): JSON Lines in, verdicts out.

This layer reads and checks JSON, turns it into ``onered.rules`` values, and writes verdicts
with the calls' Russian and English texts. All rule decisions are taken in ``onered.rules``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TextIO

from onered import rules
from onered.protocol.json_fields import (
    ProtocolError,
    get_bool,
    loads_object,
    point,
    show,
    string_list,
)
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
)
from onered.table import LENGTH, WIDTH, Point
from onered.texts import CALLS, Lang

__all__ = ["ProtocolError", "RefereeSession", "parse_stroke", "run", "verdict_json"]

_BALLS = {b.value: b for b in Ball}
_FIRST_HIT: dict[str, Ball | rules.Both] = {**_BALLS, "both": BOTH}
_FOULS = {f.value: f for f in FoulCode}
_SPOTS = {s.value: s for s in Spot}
_OPTIONS = {o.value: o for o in Option}


def _ball(name: str, where: str) -> Ball:
    ball = _BALLS.get(name)
    if ball is None:
        raise ProtocolError(f"{where}: unknown ball {name!r} (balls are white, yellow, red)")
    return ball


def _balls(obj: Mapping[str, object], key: str) -> tuple[Ball, ...]:
    return tuple(_ball(name, key) for name in string_list(obj, key))


def _surface_point(value: object, where: str) -> Point:
    p = point(value, where)
    if not (0.0 <= p[0] <= WIDTH and 0.0 <= p[1] <= LENGTH):
        raise ProtocolError(f"{where}: {show(value)} is off the playing surface")
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
    balls = tuple(_ball(n, "balls") for n in names)
    if len(balls) != 2 or set(balls) != {Ball.WHITE, Ball.YELLOW}:
        raise ProtocolError(
            f"balls: expected 'white' and 'yellow' in some order, got {show(names)}"
        )
    return Match(target=target, players=(players[0], players[1]), balls=(balls[0], balls[1]))


def parse_stroke(obj: Mapping[str, object]) -> Stroke:
    """A ``stroke`` line as a ``Stroke``: types and names checked here, the rules later."""
    striker = obj.get("striker")
    if striker is not None and not isinstance(striker, str):
        raise ProtocolError(f"striker: expected a player's name, got {show(striker)}")
    placed_raw = obj.get("placed")
    placed = None if placed_raw is None else point(placed_raw, "placed")
    hit_raw = obj.get("first_hit")
    first_hit: rules.FirstHit = None
    if hit_raw is not None:
        if not isinstance(hit_raw, str) or hit_raw not in _FIRST_HIT:
            raise ProtocolError(
                f"first_hit: expected red, white, yellow, both or null, got {show(hit_raw)}"
            )
        first_hit = _FIRST_HIT[hit_raw]
    fouls: set[FoulCode] = set()
    for code in string_list(obj, "fouls"):
        if code not in _FOULS:
            raise ProtocolError(f"fouls: unknown foul code {code!r}")
        fouls.add(_FOULS[code])
    positions_raw = obj.get("positions")
    positions: dict[Ball, Point] | None = None
    if positions_raw is not None:
        if not isinstance(positions_raw, dict):
            raise ProtocolError(
                f"positions: expected an object of ball: [x, y], got {show(positions_raw)}"
            )
        positions = {
            _ball(name, "positions"): _surface_point(p, f"positions.{name}")
            for name, p in positions_raw.items()
        }
    occupied: set[Spot] = set()
    for name in string_list(obj, "occupied"):
        if name not in _SPOTS:
            raise ProtocolError(f"occupied: unknown spot {name!r} (spots are {', '.join(_SPOTS)})")
        occupied.add(_SPOTS[name])
    return Stroke(
        striker=striker,
        struck=get_bool(obj, "struck", True),
        placed=placed,
        first_hit=first_hit,
        cannon=get_bool(obj, "cannon", False),
        potted=_balls(obj, "potted"),
        off_table=_balls(obj, "off_table"),
        fouls=frozenset(fouls),
        crossed_baulk=get_bool(obj, "crossed_baulk", False),
        touching=get_bool(obj, "touching", False),
        positions=positions,
        occupied=frozenset(occupied),
    )


def parse_option(obj: Mapping[str, object]) -> Option:
    """A ``choice`` line's option."""
    value = obj.get("option")
    if not isinstance(value, str) or value not in _OPTIONS:
        raise ProtocolError(f"option: expected 'as_they_lie' or 'from_d', got {show(value)}")
    return _OPTIONS[value]


def verdict_json(verdict: Verdict, players: tuple[str, str]) -> dict[str, object]:
    """A verdict as the protocol's JSON object, with the calls' texts looked up."""
    return {
        "stroke": verdict.stroke,
        "striker": verdict.striker,
        "ball": None if verdict.ball is None else verdict.ball.value,
        "from_d": verdict.from_d,
        "points": verdict.points,
        "scored": {kind.value: value for kind, value in verdict.scored},
        "foul": None
        if verdict.foul is None
        else {"codes": [c.value for c in verdict.foul.codes], "penalty": verdict.foul.penalty},
        "score": {players[0]: verdict.score[0], players[1]: verdict.score[1]},
        "break": verdict.break_,
        "visit_over": verdict.visit_over,
        "next": verdict.next,
        "next_from_d": verdict.next_from_d,
        "options": [o.value for o in verdict.options],
        "placements": [
            {"ball": p.ball.value, "at": p.at.value if isinstance(p.at, Spot) else list(p.at)}
            for p in verdict.placements
        ],
        "in_hand": [b.value for b in verdict.in_hand],
        "counters": {
            "cannons": verdict.counters.cannons,
            "hazards": verdict.counters.hazards,
            "red_run": verdict.counters.red_run,
        },
        "baulk_line": {"required": verdict.baulk_required, "crossed": verdict.baulk_crossed},
        "calls": [
            {"code": c.value, "ru": CALLS[c][Lang.RU], "en": CALLS[c][Lang.EN]}
            for c in verdict.calls
        ],
        "winner": verdict.winner,
    }


class RefereeSession:
    """One game fed line by line: holds the referee's state between protocol lines."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def feed(self, obj: Mapping[str, object]) -> tuple[Verdict, tuple[str, str]]:
        """Judge one parsed protocol line, returning the verdict and the players' names;
        raises ``ProtocolError`` or ``RulesError``."""
        kind = obj.get("type")
        if self.state is None:
            if kind != "match":
                raise ProtocolError("the first line must be the match line")
            self.state = rules.start(parse_match(obj))
            return rules.opening_verdict(self.state), self.state.match.players
        if kind == "match":
            raise ProtocolError("a second match line: the match line comes once, first")
        if kind == "stroke":
            self.state, verdict = rules.judge(self.state, parse_stroke(obj))
        elif kind == "choice":
            self.state, verdict = rules.choose(self.state, parse_option(obj))
        elif kind is None:
            raise ProtocolError("type: missing (expected match, stroke or choice)")
        else:
            raise ProtocolError(
                f"type: unknown line type {show(kind)} (expected match, stroke or choice)"
            )
        return verdict, self.state.match.players


def run(
    lines: Iterable[str],
    out: TextIO,
    err: TextIO,
    *,
    flush_each: bool = False,
    session: RefereeSession | None = None,
) -> int:
    """Judge protocol lines, writing one verdict per line to ``out``; on the first bad line
    write ``line N: ...`` to ``err`` and return 2 (earlier verdicts are all written), else 0.
    Pass a ``session`` to read the final state afterwards."""
    session = session if session is not None else RefereeSession()
    number = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        started = session.state is not None
        try:
            verdict, players = session.feed(loads_object(line))
        except (ProtocolError, RulesError) as exc:
            # An input that does not start with a match line is an error at line 1 (spec).
            at = number if started or (isinstance(exc, ProtocolError) and "JSON" in str(exc)) else 1
            out.flush()
            err.write(f"line {at}: {exc}\n")
            err.flush()
            return 2
        out.write(json.dumps(verdict_json(verdict, players), ensure_ascii=False))
        out.write("\n")
        if flush_each:
            out.flush()
    if session.state is None:
        err.write("line 1: no match line: the input must start with a match line\n")
        return 2
    out.flush()
    return 0
