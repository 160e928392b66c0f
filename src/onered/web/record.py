"""A game as the sequence of its referee-protocol input lines, replayed through the referee.

The stored truth of a game is its input lines: the ``match`` line, then one ``stroke`` or
``choice`` line each. The state, the verdicts, the score progression and the breaks are all
recomputed by replaying them through ``onered.rules`` (tens of thousands of strokes a second),
so undo is "drop the last line", and export and import are the lines themselves.

Standard library only (plus ``onered``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from onered import rules
from onered.protocol.json_fields import ProtocolError, loads_object, show
from onered.protocol.referee import RefereeSession, match_json, verdict_json
from onered.rules import Ball, GameState, Match, RulesError, Verdict
from onered.web.pad import pad_json

#: Version of the game record's layout (``onered.game.record``'s ``record`` field).
RECORD_VERSION = 1
#: The referee protocol's fields of each line kind: what a line sent to the API keeps, and
#: what the JSON Lines export writes (a played game's lines carry more: the game record's).
STROKE_FIELDS = frozenset(
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
)
CHOICE_FIELDS = frozenset({"type", "option"})
MATCH_FIELDS = frozenset({"type", "target", "players", "balls", "handicap"})
#: Limits on what is accepted: one line's size, and a whole game's lines.
MAX_LINE_CHARS = 1_000_000
MAX_LINES = 100_000


class RecordError(ValueError):
    """A game's lines cannot be replayed; ``line`` is the 1-based line number at fault."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class LineKind(Enum):
    """The three kinds of protocol input line."""

    MATCH = "match"
    STROKE = "stroke"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class Entry:
    """One replayed line: its 0-based position (0 = the match line), the line as stored, and
    the referee's verdict of it."""

    seq: int
    kind: LineKind
    line: Mapping[str, object]
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Visit:
    """A player's visit: the strokes ``first``..``last`` (1-based stroke numbers), the break
    it made, and whether it is still going on."""

    player: str
    first: int
    last: int
    points: int
    open: bool


@dataclass(frozen=True)
class Game:
    """A replayed game: its lines, the match, the current state and every line's verdict."""

    match: Match
    state: GameState
    entries: tuple[Entry, ...]

    @property
    def players(self) -> tuple[str, str]:
        return self.match.players

    @property
    def last(self) -> Entry:
        return self.entries[-1]

    @property
    def over(self) -> bool:
        return self.state.winner is not None

    def lines(self) -> list[Mapping[str, object]]:
        """The input lines, in order."""
        return [entry.line for entry in self.entries]


def dumps_line(obj: Mapping[str, object]) -> str:
    """A line as stored and exported: compact JSON, UTF-8 text kept as is."""
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def _kind(obj: Mapping[str, object]) -> LineKind:
    kind = obj.get("type")
    for k in LineKind:
        if kind == k.value:
            return k
    if kind is None:
        raise ProtocolError("type: missing (expected match, stroke or choice)")
    raise ProtocolError(f"type: unknown line type {show(kind)} (expected match, stroke or choice)")


def _judge(session: RefereeSession, obj: Mapping[str, object]) -> Verdict:
    verdict, _ = session.feed(obj)
    return verdict


def replay_objects(objects: Iterable[Mapping[str, object]]) -> Game:
    """Replay parsed input lines; raise :class:`RecordError` naming the first bad line."""
    session = RefereeSession()
    entries: list[Entry] = []
    for seq, obj in enumerate(objects):
        if seq >= MAX_LINES:
            raise RecordError(seq + 1, f"too many lines (at most {MAX_LINES})")
        try:
            kind = _kind(obj)
            if seq == 0 and kind is not LineKind.MATCH:
                raise ProtocolError("the first line must be the match line")
            verdict = _judge(session, obj)
        except (ProtocolError, RulesError) as exc:
            raise RecordError(seq + 1, str(exc)) from None
        entries.append(Entry(seq, kind, obj, verdict))
    if session.state is None:
        raise RecordError(1, "no match line: a game starts with a match line")
    return Game(session.state.match, session.state, tuple(entries))


def replay(lines: Sequence[str]) -> Game:
    """Replay stored lines (JSON text each)."""
    objects: list[Mapping[str, object]] = []
    for number, text in enumerate(lines, start=1):
        try:
            objects.append(loads_object(text))
        except ProtocolError as exc:
            raise RecordError(number, str(exc)) from None
    return replay_objects(objects)


def extend(game: Game, obj: Mapping[str, object]) -> Game:
    """The game with one more line judged; raises ``ProtocolError`` or ``RulesError``."""
    kind = _kind(obj)
    if kind is LineKind.MATCH:
        raise ProtocolError("a second match line: the match line comes once, first")
    session = RefereeSession()
    session.state = game.state
    verdict = _judge(session, obj)
    if session.state is None:  # pragma: no cover - feed always sets the state
        raise RuntimeError("the referee lost its state")
    entry = Entry(len(game.entries), kind, obj, verdict)
    return Game(game.match, session.state, (*game.entries, entry))


def match_line(match: Match) -> dict[str, object]:
    """The ``match`` line of a match (the protocol's one writer, with a handicap if any)."""
    return match_json(match)


def clean_line(obj: Mapping[str, object]) -> dict[str, object]:
    """A line from a client with only the fields the web app stores (others are dropped:
    the protocol ignores unknown fields, so the line means the same)."""
    kind = _kind(obj)
    allowed = {
        LineKind.MATCH: MATCH_FIELDS,
        LineKind.STROKE: STROKE_FIELDS,
        LineKind.CHOICE: CHOICE_FIELDS,
    }[kind]
    return {k: v for k, v in obj.items() if k in allowed}


# --- what the pages show ---------------------------------------------------------------------


def verdicts_json(game: Game, since: int = 0) -> list[dict[str, object]]:
    """``{"seq", "in", "out"}`` for each line from ``since`` on (the log of the game page)."""
    players = game.players
    return [
        {"seq": e.seq, "in": dict(e.line), "out": verdict_json(e.verdict, players)}
        for e in game.entries[since:]
    ]


def progression(game: Game) -> list[dict[str, object]]:
    """The score after each stroke (and at the start): ``{"stroke", "score": [a, b]}``.
    A ``choice`` line changes no score and is left out."""
    points: list[dict[str, object]] = []
    for e in game.entries:
        if e.kind is LineKind.CHOICE:
            continue
        points.append({"stroke": e.verdict.stroke, "score": list(e.verdict.score)})
    return points


def visits(game: Game) -> list[Visit]:
    """Every visit of the game, in order, with its break (penalty points never count)."""
    result: list[Visit] = []
    current: list[Verdict] = []

    def close(is_open: bool) -> None:
        if current:
            first, last = current[0], current[-1]
            if first.striker is not None:
                result.append(Visit(first.striker, first.stroke, last.stroke, last.break_, is_open))
        current.clear()

    for e in game.entries:
        if e.kind is not LineKind.STROKE:
            continue
        v = e.verdict
        if current and current[-1].striker != v.striker:
            close(False)
        current.append(v)
        if v.visit_over:
            close(False)
    close(not game.over)
    return result


def visit_json(visit: Visit) -> dict[str, object]:
    return {
        "player": visit.player,
        "first": visit.first,
        "last": visit.last,
        "points": visit.points,
        "open": visit.open,
    }


def state_json(game: Game) -> dict[str, object]:
    """The position for the pages: score, who plays and how, the balls the referee knows of,
    what is pending. ``table`` maps each ball on the table to ``[x, y]`` or ``null`` (on the
    table, place unknown); balls off the table are absent."""
    state = game.state
    players = game.players
    last = game.last.verdict
    over = state.winner is not None
    to_play = None if over else players[state.to_play]
    ball = None if over else state.match.balls[state.to_play]
    return {
        "version": len(game.entries),
        "score": list(state.score),
        "to_play": to_play,
        "to_play_index": None if over else state.to_play,
        "ball": None if ball is None else ball.value,
        "from_d": (not over) and ball is not None and ball not in state.table,
        "break": state.break_ if not last.visit_over else 0,
        "options": [o.value for o in last.options] if state.choice_pending else [],
        "winner": None if state.winner is None else players[state.winner],
        "in_hand": [b.value for b in state.in_hand()],
        "table": {
            b.value: (None if p is None else [p[0], p[1]])
            for b in (Ball.RED, Ball.WHITE, Ball.YELLOW)
            if b in state.table
            for p in (state.table[b],)
        },
        "counters": {
            "cannons": state.counters.cannons,
            "hazards": state.counters.hazards,
            "red_run": state.counters.red_run,
        },
        "baulk_required": last.baulk_required,
        "strokes": state.stroke_no,
        "can_undo": len(game.entries) > 1,
        "can_claim": game.last.kind is LineKind.STROKE and last.foul is None,
        "possible": pad_json(state),  # what the pad may offer now, and why not (web.pad)
    }


def summary_json(game: Game) -> dict[str, object]:
    """The few facts the list of games shows (kept beside the lines in the store)."""
    state = game.state
    return {
        "players": list(game.players),
        "target": game.match.target,
        "score": list(state.score),
        "strokes": state.stroke_no,
        "winner": None if state.winner is None else game.players[state.winner],
        "next": None if state.winner is not None else game.players[state.to_play],
    }


#: The referee protocol's input fields of each line kind: what the JSON Lines export keeps.
PROTOCOL_FIELDS: Mapping[LineKind, frozenset[str]] = {
    LineKind.MATCH: MATCH_FIELDS,
    LineKind.STROKE: STROKE_FIELDS,
    LineKind.CHOICE: CHOICE_FIELDS,
}


def export_jsonl(game: Game) -> str:
    """The game as the referee protocol's JSON Lines (only the protocol's fields): what
    ``onered referee`` reads, and what :func:`parse_file` imports."""
    return "".join(
        dumps_line({k: v for k, v in e.line.items() if k in PROTOCOL_FIELDS[e.kind]}) + "\n"
        for e in game.entries
    )


def export_record(game: Game, entrants: Mapping[str, str]) -> str:
    """The game as a game record (the layout of ``onered.game.record``): the match line
    with ``record``, ``seed``, ``physics``, ``entrants`` and ``opening``; each stroke line with
    its ``verdict``; each choice line with ``chooser`` and ``verdict``. A played game's lines
    already carry the simulation (``strike``, ``before``, ``events``, ``rest``, ``after`` …);
    a marked game has none (``physics`` is ``null``). Every verdict is the referee's, judged
    again. The referee ignores the extra fields, so ``onered referee`` reads it too."""
    players = game.players
    out: list[str] = []
    for e in game.entries:
        line = dict(e.line)
        verdict = verdict_json(e.verdict, players)
        if e.kind is LineKind.MATCH:
            line.setdefault("record", RECORD_VERSION)
            line.setdefault("seed", None)
            line.setdefault("physics", None)
            line["entrants"] = dict(entrants) or line.get("entrants", {})
            line["opening"] = verdict
        elif e.kind is LineKind.CHOICE:
            line["chooser"] = e.verdict.striker
            line["verdict"] = verdict
        else:
            line["verdict"] = verdict
        out.append(dumps_line(line) + "\n")
    return "".join(out)


# --- import ---------------------------------------------------------------------------------


def parse_file(text: str) -> list[Mapping[str, object]]:
    """The input lines of an imported file: JSON Lines, one object a line, which is one of

    - the referee protocol's input (a ``match`` line, then ``stroke``/``choice`` lines);
    - a game record (:func:`export_record`, or ``onered.game.record``): the same lines with
      more fields, which the referee ignores;
    - ``{"in": line, "out": verdict}`` pairs (lines without ``in`` are skipped).

    Raises :class:`RecordError` naming the line; the lines are judged by :func:`replay_objects`.
    """
    if not text.strip():
        raise RecordError(1, "the file is empty")
    objects: list[Mapping[str, object]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE_CHARS:
            raise RecordError(number, f"the line is too long (at most {MAX_LINE_CHARS} characters)")
        try:
            obj = loads_object(raw)
        except ProtocolError as exc:
            raise RecordError(number, str(exc)) from None
        if "type" not in obj:
            inner = obj.get("in")
            if inner is None:
                continue  # a comment line of a pairs file
            if not isinstance(inner, dict):
                raise RecordError(number, f"in: expected a protocol line object, got {show(inner)}")
            obj = inner
        objects.append(obj)
        if len(objects) > MAX_LINES:
            raise RecordError(number, f"too many lines (at most {MAX_LINES})")
    if not objects:
        raise RecordError(1, "no protocol lines found")
    return objects


def new_match(target: int, players: Sequence[str], balls: Sequence[Ball] | None = None) -> Match:
    """A checked ``Match`` (raises ``RulesError`` naming the field)."""
    match = Match(
        target=target,
        players=(players[0], players[1]),
        balls=(Ball.WHITE, Ball.YELLOW) if balls is None else (balls[0], balls[1]),
    )
    rules.start(match)
    return match
