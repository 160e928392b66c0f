"""The game record: one format for every game, played or marked, and its one reader.

``docs/record-format.md`` describes it fully, with an example. In short: JSON Lines; the
first line is the referee protocol's ``match`` line (or, from version 2, its ``position``
line: the game starts from a written position) with more fields; then one ``stroke`` line
per stroke and one ``choice`` line per foul option taken. The referee ignores the extra
fields, so ``onered referee RECORD`` judges the game again, and its verdicts equal the
recorded ones. Three layouts are read (:func:`parse_text`):

- a full game record (``record``: 1 or 2): a played game's lines carry the simulation
  (``strike``, ``before``, ``events``, ``rest``, ``after``) and every verdict;
- the referee protocol's lines only (no ``record`` field): a marked game;
- ``{"in": line, "out": verdict}`` pairs (the referee's test scenarios, ``tests/rules/scenarios/``).

Version 1 is read as version 2 (version 2 only adds the position first line). What was
played is always readable, exportable and can be continued; only the bit-exact
re-simulation (``onered replay``) needs the engine whose ``physics.fingerprint`` the record
names, and says so when it differs.

Fields of a played game's record, line by line:

``match``: ``target``, ``players``, ``balls`` (and ``handicap``) as the protocol; ``record``
(format version); ``seed`` (the seed the game was played with, or ``null``); ``physics``
(``params`` and ``table``: every field of the engine's ``Params`` and ``TableSpec``;
``fingerprint``: the engine's hash of three canonical strokes; ``null`` for a marked game);
``entrants`` (who played: name -> description such as ``"ai:pro"``); ``lag`` (``null``, or
``strokes``: for each player ``player``, ``start``, ``strike``, ``rest``, ``reached_top``;
``winner``; ``choice``: ``play_first``, ``ball``); ``opening`` (the referee's verdict on the
match line).

``stroke``: ``striker``, ``placed`` (from hand only), ``first_hit``, ``cannon``, ``potted``,
``off_table``, ``fouls``, ``crossed_baulk``, ``touching``, ``positions`` (the referee
protocol's fields); ``cue_ball``; ``before``; ``strike``; ``intent`` (optional); ``events``,
``rest``, ``duration`` (the simulated shot); ``verdict``; ``after``.

``choice``: ``option``, ``chooser``, ``verdict``, ``after``.

Floats are written with Python's shortest round-trip form, so a record read back gives the
very same numbers, and a replay can be compared line by line, character by character.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from onered.errors import OneredError
from onered.game.model import (
    Action,
    ChoiceRecord,
    Entry,
    Intent,
    Lag,
    LagChoice,
    LagStroke,
    StrokeRecord,
)
from onered.physics.types import Strike
from onered.protocol import json_fields
from onered.protocol.json_fields import ErrorType, ProtocolError, loads_object, point_json
from onered.protocol.referee import match_json, parse_match, verdict_json
from onered.protocol.shot import events_json, strike_from_json
from onered.rules import Ball, Match, Option, ScoreKind, Verdict
from onered.table import Point

if TYPE_CHECKING:
    from onered.game.loop import Game

#: The record format's version, written in the first line's ``record`` field.
RECORD_VERSION = 2
#: Versions this reader reads (1: the first line is always a match line).
READABLE_VERSIONS = frozenset({1, 2})
#: Limits on what is read: a file's bytes, its lines, one line's characters (the longest
#: line onered writes, a stroke with its events, has about 4,000; the web's ``POST
#: /api/games/{id}/lines`` takes lines of the same cap).
MAX_BYTES = 16 * 1024 * 1024
MAX_LINES = 100_001
MAX_LINE_CHARS = 100_000

_OPTIONS = {o.value: o for o in Option}
_SCORES = {k.value: k for k in ScoreKind}


class RecordError(OneredError, ValueError):
    """A record that cannot be read: the message names the line and the field.

    ``line``: the file's 1-based line number at fault (``None`` when the message names it
    itself or it is the whole file); ``code``: the kind of fault, for an interface's own
    words (``onered.web.i18n`` has ``error.<code>``); ``params``: the values its words use
    (``line``, ``detail``, ``max`` ...)."""

    default_code = "bad_record"

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        code: str = "bad_record",
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message if line is None else f"line {line}: {message}")
        self.line = line
        self.message = message
        self.code = code
        self.params = {
            **({"line": line} if line is not None else {}),
            "detail": message,
            **(params or {}),
        }


class LineKind(Enum):
    """The kinds of line of a game: the first line (a match, or a written position), then
    strokes and foul options."""

    MATCH = "match"
    POSITION = "position"
    STROKE = "stroke"
    CHOICE = "choice"


#: The referee protocol's fields of each line kind: what a protocol export keeps (a played
#: game's lines carry more: the record's).
PROTOCOL_FIELDS: Mapping[LineKind, frozenset[str]] = {
    LineKind.MATCH: frozenset({"type", "target", "players", "balls", "handicap"}),
    LineKind.POSITION: frozenset({"type", "position"}),
    LineKind.STROKE: frozenset(
        {
            "type",
            "striker",
            "struck",
            "placed",
            "first_hit",
            "cannon",
            "potted",
            "off_table",
            "fouls",
            "crossed_baulk",
            "touching",
            "positions",
            "occupied",
        }
    ),
    LineKind.CHOICE: frozenset({"type", "option"}),
}


def line_kind(obj: Mapping[str, object]) -> LineKind:
    """The kind of a line; ``ProtocolError`` for a missing or unknown ``type``."""
    kind = obj.get("type")
    for k in LineKind:
        if kind == k.value:
            return k
    if kind is None:
        raise ProtocolError("type: missing (expected match, position, stroke or choice)")
    raise ProtocolError(
        f"type: unknown line type {json.dumps(kind)[:40]} "
        "(expected match, position, stroke or choice)"
    )


def protocol_line(obj: Mapping[str, object]) -> dict[str, object]:
    """A line with only the referee protocol's fields of its kind (the protocol ignores the
    others, so it means the same to the referee)."""
    allowed = PROTOCOL_FIELDS[line_kind(obj)]
    return {k: v for k, v in obj.items() if k in allowed}


def decode(data: bytes) -> str:
    """A file's text: UTF-8, a byte-order mark dropped, at most :data:`MAX_BYTES`."""
    if len(data) > MAX_BYTES:
        raise RecordError(
            f"the file is too large (at most {MAX_BYTES} bytes)",
            code="file_too_large",
            params={"max": MAX_BYTES},
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})",
            code="not_utf8",
            params={"detail": f"byte {exc.start}"},
        ) from None
    return text.removeprefix("\ufeff")


def parse_text(text: str) -> list[tuple[int, dict[str, Any]]]:
    """The game lines of a file, each with its 1-based line number in the file: JSON Lines
    in one of the three layouts of the module docstring (blank lines skipped; a pairs
    file's lines without ``in`` skipped as comments). A byte-order mark is dropped. Checks
    only the shape (JSON objects, limits, a readable version); the referee judges the
    lines (``onered.game.session``)."""
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordError("the file is empty", line=1, code="file_empty")
    out: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE_CHARS:
            raise RecordError(
                f"the line is too long (at most {MAX_LINE_CHARS} characters)",
                line=number,
                code="line_too_long",
                params={"max": MAX_LINE_CHARS},
            )
        try:
            obj: dict[str, Any] = dict(loads_object(raw))
        except ProtocolError as exc:
            raise RecordError(
                str(exc), line=number, code="not_json", params={"detail": str(exc)}
            ) from None
        if "type" not in obj:
            inner = obj.get("in")
            if inner is None:
                continue  # a comment line of a pairs file
            if not isinstance(inner, dict):
                detail = f"in: expected a protocol line object, got {json.dumps(inner)[:40]}"
                raise RecordError(detail, line=number, code="bad_line", params={"detail": detail})
            obj = inner
        if len(out) >= MAX_LINES:
            raise RecordError(
                f"too many lines (at most {MAX_LINES})",
                line=number,
                code="too_many_lines",
                params={"max": MAX_LINES},
            )
        if not out:
            _check_version(obj, number)
        out.append((number, obj))
    if not out:
        raise RecordError("no game lines found", line=1, code="file_empty")
    return out


def _check_version(first: Mapping[str, Any], number: int) -> None:
    version = first.get("record")
    if version is None or version in READABLE_VERSIONS:
        return
    raise RecordError(
        f"record: format version {json.dumps(version)[:20]} is not one this onered reads "
        f"({', '.join(str(v) for v in sorted(READABLE_VERSIONS))}); a newer onered wrote it?",
        line=number,
        code="version",
        params={"got": str(version)[:20], "max": RECORD_VERSION},
    )


# --- writing ------------------------------------------------------------------------------


def dumps(obj: Mapping[str, Any]) -> str:
    """One record line (as stored and exported): strict JSON (no NaN), UTF-8 names kept as
    they are."""
    return json.dumps(obj, ensure_ascii=False, allow_nan=False)


def _balls_json(balls: Mapping[Ball, Point]) -> dict[str, list[float]]:
    return {b.value: point_json(p) for b, p in balls.items()}


def _lag_json(lag: Lag | None) -> dict[str, Any] | None:
    if lag is None:
        return None
    return {
        "strokes": [
            {
                "player": s.player,
                "start": point_json(s.start),
                "strike": s.strike.to_json(),
                "rest": None if s.rest is None else point_json(s.rest),
                "reached_top": s.reached_top,
            }
            for s in lag.strokes
        ],
        "winner": lag.winner,
        "choice": {"play_first": lag.choice.play_first, "ball": lag.choice.ball.value},
    }


def match_line(
    match: Match,
    *,
    physics: Mapping[str, Any] | None = None,
    opening: Verdict | None = None,
    seed: int | None = None,
    entrants: Mapping[str, str] | None = None,
    lag: Lag | None = None,
) -> dict[str, Any]:
    """The game's first line: the referee protocol's match line; with the ``opening``
    verdict, the record's header too (``physics`` ``None``: a marked game)."""
    line: dict[str, Any] = dict(match_json(match))
    if opening is None:
        return line
    return {
        **line,
        "record": RECORD_VERSION,
        "seed": seed,
        "physics": None if physics is None else dict(physics),
        "entrants": dict(entrants or {}),
        "lag": _lag_json(lag),
        "opening": verdict_json(opening, match.players),
    }


def stroke_line(entry: StrokeRecord, players: tuple[str, str]) -> dict[str, Any]:
    """A stroke's line: the referee's stroke fields first, then the simulation."""
    stroke = entry.stroke
    line: dict[str, Any] = {"type": "stroke", "striker": entry.striker}
    if stroke.placed is not None:
        line["placed"] = point_json(stroke.placed)
    hit = stroke.first_hit
    line.update(
        {
            "first_hit": None if hit is None else hit.value,
            "cannon": stroke.cannon,
            "potted": [b.value for b in stroke.potted],
            "off_table": [b.value for b in stroke.off_table],
            "fouls": sorted(f.value for f in stroke.fouls),
            "crossed_baulk": stroke.crossed_baulk,
            "touching": stroke.touching,
            "positions": _balls_json(stroke.positions or {}),
            "cue_ball": entry.cue_ball.value,
            "before": _balls_json(entry.before),
            "strike": entry.action.strike.to_json(),
        }
    )
    intent = entry.action.intent
    if intent is not None:
        line["intent"] = {
            "strike": intent.nominal.to_json(),
            "scores": [k.value for k in intent.scores],
            "expected": intent.expected,
        }
    result = entry.result
    line["events"] = events_json(result.events)
    line["rest"] = {b: None if p is None else point_json(p) for b, p in result.rest.items()}
    line["duration"] = float(result.duration)
    line["verdict"] = verdict_json(entry.verdict, players)
    line["after"] = _balls_json(entry.balls_after)
    return line


def choice_line(entry: ChoiceRecord, players: tuple[str, str]) -> dict[str, Any]:
    """A foul option's line."""
    return {
        "type": "choice",
        "option": entry.option.value,
        "chooser": entry.chooser,
        "verdict": verdict_json(entry.verdict, players),
        "after": _balls_json(entry.balls_after),
    }


def entry_line(entry: Entry, players: tuple[str, str]) -> dict[str, Any]:
    """The line of a stroke or a choice."""
    if isinstance(entry, StrokeRecord):
        return stroke_line(entry, players)
    return choice_line(entry, players)


# --- reading ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Header:
    """The record's match line, read."""

    match: Match
    seed: int | None
    physics: Mapping[str, Any]
    entrants: Mapping[str, str]
    lag: Lag | None


@dataclass(frozen=True, slots=True)
class RecordedStroke:
    """A stroke line: the action to play again, and the whole line as written."""

    line_no: int
    action: Action
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class RecordedChoice:
    """A choice line: the option, and the whole line as written."""

    line_no: int
    option: Option
    data: Mapping[str, Any]


RecordedEntry = RecordedStroke | RecordedChoice


@dataclass(frozen=True, slots=True)
class Record:
    """A game record read from JSON Lines: the header, the entries, and the text of every
    non-blank line (``lines[0]`` is the match line) for exact comparison."""

    header: Header
    entries: tuple[RecordedEntry, ...]
    lines: tuple[str, ...]
    header_data: Mapping[str, Any]


def _field(obj: Mapping[str, Any], key: str, where: str) -> Any:
    return json_fields.field(obj, key, where, error=RecordError)


def _point(value: Any, where: str) -> Point:
    return json_fields.point(value, where, error=RecordError)


def _object(value: Any, where: str) -> Mapping[str, Any]:
    return json_fields.json_object(value, where, error=RecordError)


def read_strike(value: Any, where: str) -> Strike:
    """A record's strike object: the shot protocol's one reader
    (:func:`~onered.protocol.shot.strike_from_json`), every field present, faults as
    :class:`RecordError`."""
    return strike_from_json(value, where, error=RecordError, complete=True)


def _read_lag(value: Any, where: str) -> Lag | None:
    if value is None:
        return None
    obj = _object(value, where)
    raw = _field(obj, "strokes", where)
    if not isinstance(raw, list) or len(raw) != 2:
        raise RecordError(f"{where}.strokes: expected the two lag strokes")
    strokes: list[LagStroke] = []
    for i, item in enumerate(raw):
        w = f"{where}.strokes[{i}]"
        s = _object(item, w)
        player = _field(s, "player", w)
        if not isinstance(player, str):
            raise RecordError(f"{w}.player: expected a name")
        rest = _field(s, "rest", w)
        reached = _field(s, "reached_top", w)
        if not isinstance(reached, bool):
            raise RecordError(f"{w}.reached_top: expected true or false")
        strokes.append(
            LagStroke(
                player=player,
                start=_point(_field(s, "start", w), f"{w}.start"),
                strike=read_strike(_field(s, "strike", w), f"{w}.strike"),
                rest=None if rest is None else _point(rest, f"{w}.rest"),
                reached_top=reached,
            )
        )
    winner = _field(obj, "winner", where)
    if not isinstance(winner, str):
        raise RecordError(f"{where}.winner: expected a name")
    choice = _object(_field(obj, "choice", where), f"{where}.choice")
    first = _field(choice, "play_first", f"{where}.choice")
    if not isinstance(first, bool):
        raise RecordError(f"{where}.choice.play_first: expected true or false")
    ball = json_fields.ball(
        _field(choice, "ball", f"{where}.choice"), f"{where}.choice.ball", error=RecordError
    )
    return Lag(strokes=(strokes[0], strokes[1]), winner=winner, choice=LagChoice(first, ball))


def _read_header(obj: Mapping[str, Any]) -> Header:
    if obj.get("type") != "match":
        raise RecordError("line 1: the first line of a record must be its match line")
    version = obj.get("record")
    if version not in READABLE_VERSIONS:
        raise RecordError(
            f"line 1: record: expected format version {RECORD_VERSION} (or an older one: "
            f"{', '.join(str(v) for v in sorted(READABLE_VERSIONS))}), got {json.dumps(version)}"
            " (is this a game record written by 'onered play'?)"
        )
    try:
        match = parse_match(obj)  # the referee protocol's match line: the one reader
    except ProtocolError as exc:
        raise RecordError(f"line 1: {exc}") from None
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"line 1: seed: expected an integer or null, got {json.dumps(seed)}")
    entrants = obj.get("entrants") or {}
    if not isinstance(entrants, dict) or not all(isinstance(v, str) for v in entrants.values()):
        raise RecordError("line 1: entrants: expected an object of name: description")
    return Header(
        match=match,
        seed=seed,
        physics=_object(_field(obj, "physics", "line 1"), "line 1: physics"),
        entrants=entrants,
        lag=_read_lag(obj.get("lag"), "line 1: lag"),
    )


def _read_intent(value: Any, where: str, error: ErrorType) -> Intent | None:
    if value is None:
        return None
    obj = json_fields.json_object(value, where, error=error)
    scores = json_fields.field(obj, "scores", where, error=error)
    if not isinstance(scores, list) or not all(isinstance(s, str) and s in _SCORES for s in scores):
        raise error(f"{where}.scores: expected scoring part names, got {json.dumps(scores)}")
    expected = obj.get("expected")
    return Intent(
        nominal=strike_from_json(
            json_fields.field(obj, "strike", where, error=error),
            f"{where}.strike",
            error=error,
            complete=True,
        ),
        scores=tuple(_SCORES[s] for s in scores),
        expected=None
        if expected is None
        else json_fields.number(expected, f"{where}.expected", error=error),
    )


def read_action(
    obj: Mapping[str, Any], where: str, *, error: ErrorType = RecordError, sep: str = ": "
) -> Action:
    """The action a played stroke's line holds: ``strike`` (every field), ``placed`` (from
    hand) and ``intent`` (optional), as :func:`stroke_line` writes them — the one reader of
    an action's JSON form, for the records and the coach (a game's stroke, the page's
    played stroke). ``where`` names the object and ``sep`` joins it to a field's name
    (``line 3: strike``, ``played.strike``); a fault is an ``error``."""
    placed = obj.get("placed")
    return Action(
        strike=strike_from_json(
            json_fields.field(obj, "strike", where, error=error),
            f"{where}{sep}strike",
            error=error,
            complete=True,
        ),
        placed=None
        if placed is None
        else json_fields.point(placed, f"{where}{sep}placed", error=error),
        intent=_read_intent(obj.get("intent"), f"{where}{sep}intent", error),
    )


def read_record(lines: Iterable[str]) -> Record:
    """Read a game record; :class:`RecordError` names the line and field of a fault."""
    header: Header | None = None
    header_data: Mapping[str, Any] = {}
    entries: list[RecordedEntry] = []
    texts: list[str] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.rstrip("\n").rstrip("\r")
        if not text.strip():
            continue
        try:
            obj = loads_object(text)
        except ProtocolError as exc:
            raise RecordError(f"line {number}: {exc}") from None
        texts.append(text)
        if header is None:
            header = _read_header(obj)
            header_data = obj
            continue
        where = f"line {number}"
        kind = obj.get("type")
        if kind == "stroke":
            entries.append(RecordedStroke(number, read_action(obj, where), obj))
        elif kind == "choice":
            option = obj.get("option")
            if not isinstance(option, str) or option not in _OPTIONS:
                raise RecordError(f"{where}: option: expected as_they_lie or from_d")
            entries.append(RecordedChoice(number, _OPTIONS[option], obj))
        else:
            raise RecordError(f"{where}: type: expected stroke or choice, got {json.dumps(kind)}")
    if header is None:
        raise RecordError("line 1: empty record (no match line)")
    return Record(
        header=header, entries=tuple(entries), lines=tuple(texts), header_data=header_data
    )


def iter_lines(
    match: Match,
    entries: Iterable[Entry],
    *,
    physics: Mapping[str, Any],
    opening: Verdict,
    seed: int | None = None,
    entrants: Mapping[str, str] | None = None,
    lag: Lag | None = None,
) -> Iterator[str]:
    """The text lines of a record (without newlines)."""
    yield dumps(
        match_line(match, physics=physics, opening=opening, seed=seed, entrants=entrants, lag=lag)
    )
    for entry in entries:
        yield dumps(entry_line(entry, match.players))


def game_lines(
    game: Game, *, seed: int | None = None, entrants: Mapping[str, str] | None = None
) -> list[str]:
    """The record of a game played on the simulated table, as text lines: its match, lag,
    opening, strokes and the physics of its own simulator."""
    return list(
        iter_lines(
            game.match,
            game.entries,
            physics=game.simulator.describe(),
            opening=game.opening,
            seed=seed,
            entrants=entrants,
            lag=game.lag,
        )
    )
