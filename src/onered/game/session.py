"""A game's life for every interface: start, strokes (played or marked), the foul option, a
late claim, undo, the end; reading, writing and resuming records.

A :class:`Session` is a game as its lines (``onered.game.record``: the first line, then
``stroke`` and ``choice`` lines) with the referee's verdict of each, and keeps the CURRENT
state: a new line is judged from the current state alone (``onered.protocol.referee``), so
a stroke costs the same on the first and the ten-thousandth line. Undo drops the last line
and re-judges from the nearest checkpoint (a state kept every :data:`CHECKPOINT` lines), so
it costs at most that many judgements; a game is replayed in full only when it is read.

A *played* game (its first line describes the simulated table and every ball's place is
known) goes on through the game loop (``onered.game.loop``): :meth:`Session.play` plays the
stroke of the player to play (the computer's turn and the refusal of a person's stroke in
it are ``onered.players.turn``'s: the game core knows no AI). A stroke or an option the
loop has judged is kept as judged (:meth:`Session.keep`: simulated once, judged once). A
*marked* game takes referee lines (:meth:`Session.append`) or a marker's taps
(:meth:`Session.mark`). Every refusal is a :class:`SessionError` with a ``code`` an
interface can put into words.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from onered import rules
from onered.errors import OneredError
from onered.game import validate
from onered.game.loop import Game
from onered.game.marking import Mark, MarkError, compose
from onered.game.model import Action, ChoiceRecord, GameError, StrokeRecord
from onered.game.pad import ImpossibleMarkError, check_possible
from onered.game.record import (
    PROTOCOL_FIELDS,
    RECORD_VERSION,
    LineKind,
    RecordError,
    choice_line,
    dumps,
    line_kind,
    match_line,
    parse_text,
    protocol_line,
    stroke_line,
)
from onered.game.simulator import PhysicsSimulator
from onered.protocol.json_fields import ProtocolError, loads_object
from onered.protocol.referee import RefereeSession, verdict_json
from onered.rules import Ball, FoulCode, GameState, Match, Option, RulesError, Verdict
from onered.table import Point

#: A state is kept every this many lines (undo re-judges at most this many).
CHECKPOINT = 64
#: A person's description among a record's ``entrants`` (the computer's are
#: ``onered.players.spec``'s: ``"ai:<level>"``).
HUMAN = "human"


class SessionError(OneredError, ValueError):
    """A change the game refuses: ``code`` names the kind (``over``, ``no_undo``,
    ``claim_none``, ``claim_foul``, ``played``, ``not_played``, ``computer_turn``,
    ``bad_line``, ``bad_mark``, ``mark_empty``, ``bad_stroke``, ``no_choice``,
    ``ai_failed``), ``params`` the values its words use."""

    default_code = "session"

    def __init__(self, code: str, message: str, params: Mapping[str, object] | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = dict(params or {})


@dataclass(frozen=True, slots=True)
class Judged:
    """One line of a game: its 0-based position (0 = the first line), kind, the line as
    stored, and the referee's verdict of it."""

    seq: int
    kind: LineKind
    line: Mapping[str, Any]
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Ruled:
    """A line the game loop has judged already (not kept): the line, the referee's state it
    was judged from, the state after it and the verdict (:meth:`Session.keep` keeps it
    without judging it again)."""

    line: Mapping[str, Any]
    before: GameState
    after: GameState
    verdict: Verdict


@dataclass(frozen=True, slots=True)
class Played:
    """A stroke played on the simulated table: the line judged (:class:`Ruled`), and the
    loop's record of it (the shot with its trajectories, the balls before)."""

    ruled: Ruled
    stroke: StrokeRecord

    @property
    def line(self) -> Mapping[str, Any]:
        """The line stored."""
        return self.ruled.line


@lru_cache(maxsize=8)
def _simulator(physics_json: str) -> PhysicsSimulator:
    return PhysicsSimulator.from_description(json.loads(physics_json))


def _judge(state: GameState | None, obj: Mapping[str, Any]) -> tuple[GameState, Verdict]:
    referee = RefereeSession()
    referee.state = state
    verdict, _ = referee.feed(obj)
    if referee.state is None:  # pragma: no cover - feed always sets the state
        raise RuntimeError("the referee lost its state")
    return referee.state, verdict


class Session:
    """A game being played, marked, or read (see the module docstring)."""

    def __init__(self, first: Mapping[str, Any]) -> None:
        """A game from its first line (a ``match`` or ``position`` line, or a record's
        header); ``SessionError`` (``bad_line``) when the referee refuses it."""
        try:
            kind = line_kind(first)
            if kind not in (LineKind.MATCH, LineKind.POSITION):
                raise ProtocolError("the first line must be the match line (or a position line)")
            state, verdict = _judge(None, first)
        except (ProtocolError, RulesError) as exc:
            raise SessionError("bad_line", str(exc), {"detail": str(exc)}) from None
        self._entries: list[Judged] = [Judged(0, kind, first, verdict)]
        self._checkpoints: dict[int, GameState] = {0: state}
        self._state = state
        self._low_water = 1

    # --- starting --------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        match: Match,
        *,
        simulator: PhysicsSimulator | None = None,
        entrants: Mapping[str, str] | None = None,
        seed: int | None = None,
    ) -> Session:
        """A new game: marked (no ``simulator``: the protocol's match line), or played on
        ``simulator``'s table (the record's header)."""
        try:
            _check_names(match)
        except validate.ValidationError as exc:
            raise SessionError(exc.code, str(exc), exc.params) from None
        if simulator is None:
            return cls(match_line(match))
        try:
            opening = rules.opening_verdict(rules.start(match))
        except RulesError as exc:
            raise SessionError("bad_line", str(exc), {"detail": str(exc)}) from None
        people = dict.fromkeys(match.players, HUMAN)
        people.update(entrants or {})
        first = match_line(
            match, physics=simulator.describe(), opening=opening, seed=seed, entrants=people
        )
        return cls(first)

    @classmethod
    def from_position(
        cls,
        state: GameState,
        *,
        simulator: PhysicsSimulator | None = None,
        entrants: Mapping[str, str] | None = None,
    ) -> Session:
        """A game that starts from a written position (``onered.rules.position``): its
        first line is the protocol's ``position`` line (with the record's header when
        played on ``simulator``'s table)."""
        from onered.protocol.referee import position_json

        first: dict[str, Any] = dict(position_json(state))
        if simulator is not None:
            first["record"] = RECORD_VERSION
            first["seed"] = None
            first["physics"] = simulator.describe()
            people = dict.fromkeys(state.match.players, HUMAN)
            people.update(entrants or {})
            first["entrants"] = people
        return cls(first)

    @classmethod
    def read(
        cls, objects: Iterable[tuple[int, Mapping[str, Any]]], *, check: bool = True
    ) -> Session:
        """A game from its numbered lines (``record.parse_text``), judged once; with
        ``check``, the first line's names, target and table are checked as a new game's
        are (``onered.game.validate``). ``RecordError`` names the file's line at fault."""
        session: Session | None = None
        for number, obj in objects:
            try:
                if session is None:
                    if check:
                        _check_header(obj)
                    session = cls(obj)
                    if check:
                        _check_names(session.match)
                else:
                    session.append(obj)
            except (SessionError, validate.ValidationError) as exc:
                raise RecordError(
                    exc.message if isinstance(exc, SessionError) else str(exc),
                    line=number,
                    code=exc.code,
                    params=exc.params,
                ) from None
        if session is None:
            raise RecordError("no game lines found", line=1, code="file_empty")
        return session

    @classmethod
    def from_text(cls, text: str, *, check: bool = True) -> Session:
        """A game from a file's text (any layout ``record.parse_text`` reads)."""
        return cls.read(parse_text(text), check=check)

    @classmethod
    def from_lines(cls, texts: Sequence[str], *, check: bool = False) -> Session:
        """A game from its stored lines (JSON text each; stored lines were checked when
        they were stored)."""
        numbered: list[tuple[int, Mapping[str, Any]]] = []
        for number, text in enumerate(texts, start=1):
            try:
                numbered.append((number, loads_object(text)))
            except ProtocolError as exc:
                raise RecordError(str(exc), line=number, code="not_json") from None
        return cls.read(numbered, check=check)

    # --- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The referee's state now."""
        return self._state

    @property
    def match(self) -> Match:
        return self._state.match

    @property
    def players(self) -> tuple[str, str]:
        return self._state.match.players

    @property
    def entries(self) -> Sequence[Judged]:
        """Every line with its verdict, in order (a read-only view)."""
        return _View(self._entries)

    def __len__(self) -> int:
        """The number of lines (the first line included)."""
        return len(self._entries)

    @property
    def first(self) -> Judged:
        return self._entries[0]

    @property
    def last(self) -> Judged:
        return self._entries[-1]

    @property
    def over(self) -> bool:
        return self._state.winner is not None

    @property
    def winner(self) -> str | None:
        w = self._state.winner
        return None if w is None else self.players[w]

    def lines(self) -> list[Mapping[str, Any]]:
        """The lines, in order."""
        return [e.line for e in self._entries]

    def texts(self) -> list[str]:
        """The lines as stored (JSON text each)."""
        return [dumps(e.line) for e in self._entries]

    @property
    def entrants(self) -> dict[str, str]:
        """Who plays: name -> ``"human"`` or ``"ai:<level>"`` (as the first line says)."""
        raw = self.first.line.get("entrants")
        if not isinstance(raw, dict):
            return {}
        return {str(k): str(v) for k, v in raw.items()}

    def state_before(self, seq: int) -> GameState:
        """The state before line ``seq`` (1 <= seq <= len), re-judged from a checkpoint."""
        if not 1 <= seq <= len(self._entries):
            raise IndexError(f"line {seq}: the game has lines 1 to {len(self._entries) - 1}")
        return self._state_after(seq - 1)

    def _state_after(self, seq: int) -> GameState:
        if seq == len(self._entries) - 1:
            return self._state
        return self._rejudge(seq)

    def _rejudge(self, seq: int) -> GameState:
        """The state after line ``seq``, judged again from the nearest checkpoint."""
        base = max(k for k in self._checkpoints if k <= seq)
        state = self._checkpoints[base]
        for entry in self._entries[base + 1 : seq + 1]:
            state, _ = _judge(state, entry.line)
        return state

    @property
    def low_water(self) -> int:
        """The fewest lines the game has had since :meth:`reset_low_water`: the lines before
        it are unchanged (a store keeps them; undo and claim replace the later ones)."""
        return self._low_water

    def reset_low_water(self) -> None:
        self._low_water = len(self._entries)

    # --- changing --------------------------------------------------------------------------

    def _over_error(self) -> SessionError:
        winner = self.winner or ""
        return SessionError("over", f"the game is over: {winner} has won", {"winner": winner})

    def check_open(self) -> None:
        """Refuse (``over``) a change to a game that is over."""
        if self.over:
            raise self._over_error()

    def append(self, obj: Mapping[str, Any]) -> Judged:
        """Judge one ``stroke`` or ``choice`` line from the current state and keep it."""
        if self.over:
            raise self._over_error()
        try:
            kind = line_kind(obj)
            if kind in (LineKind.MATCH, LineKind.POSITION):
                raise ProtocolError(
                    f"a second {kind.value} line: a game starts from one, once, first"
                )
            state, verdict = _judge(self._state, obj)
        except (ProtocolError, RulesError) as exc:
            raise SessionError("bad_line", str(exc), {"detail": str(exc)}) from None
        return self._push(Judged(len(self._entries), kind, obj, verdict), state)

    def keep(self, ruled: Ruled) -> Judged:
        """Keep a ``stroke`` or ``choice`` line the game loop judged (:meth:`plan_play`,
        :meth:`plan_option`): as judged when it was judged from the current state, else
        judged again from it (:meth:`append`: the game changed in between)."""
        if ruled.before is not self._state and ruled.before != self._state:
            return self.append(ruled.line)
        if self.over:
            raise self._over_error()
        try:
            kind = line_kind(ruled.line)
        except ProtocolError as exc:
            raise SessionError("bad_line", str(exc), {"detail": str(exc)}) from None
        if kind not in (LineKind.STROKE, LineKind.CHOICE):
            return self.append(ruled.line)  # refused there, by name
        return self._push(Judged(len(self._entries), kind, ruled.line, ruled.verdict), ruled.after)

    def _push(self, entry: Judged, state: GameState) -> Judged:
        self._entries.append(entry)
        self._state = state
        if entry.seq % CHECKPOINT == 0:
            self._checkpoints[entry.seq] = state
        return entry

    def undo(self) -> Judged:
        """Drop the last line (a stroke, or a foul option) and return it."""
        if len(self._entries) < 2:
            raise SessionError("no_undo", "nothing to undo: the game has no strokes")
        entry = self._entries.pop()
        self._low_water = min(self._low_water, len(self._entries))
        self._checkpoints.pop(entry.seq, None)
        self._state = self._rejudge(len(self._entries) - 1)
        return entry

    def enter(self, obj: Mapping[str, Any]) -> Judged:
        """A marker's referee-protocol ``stroke`` or ``choice`` line (only the protocol's
        fields kept), judged and kept; a played game takes no such line."""
        self._marked_only()
        try:
            line = protocol_line(obj)
        except ProtocolError as exc:
            raise SessionError("bad_line", f"line: {exc}", {"detail": str(exc)}) from None
        return self.append(line)

    def check_mark(self, mark: Mark) -> Mapping[str, Any]:
        """The ``stroke`` line of a marker's taps (not kept): refused when this is a
        played game, the game is over, the taps cannot go together, or the position forbids
        one of them now (``impossible``, ``onered.game.pad``)."""
        self._marked_only()
        if self.over:
            raise self._over_error()
        try:
            line = compose(self._state, mark)
        except MarkError as exc:
            # an empty stroke has words of its own (no English detail in a Russian page)
            code = "bad_mark" if exc.code == MarkError.default_code else exc.code
            raise SessionError(code, str(exc), {"detail": str(exc)}) from None
        try:
            check_possible(self._state, mark)
        except ImpossibleMarkError as exc:
            raise SessionError(exc.code, exc.message, exc.params) from None
        return line

    def mark(self, mark: Mark) -> Judged:
        """The stroke a marker tapped (``onered.game.marking``), judged and kept."""
        return self.append(self.check_mark(mark))

    def claim(self, fouls: Iterable[FoulCode]) -> Judged:
        """A foul claimed on the last stroke before the next one (2.12.4): the stroke is
        judged again with the foul added (and everything it scored forfeited)."""
        self._marked_only()
        last = self.last
        if last.kind is not LineKind.STROKE:
            raise SessionError(
                "claim_none",
                "claim: there is no stroke to claim a foul on (a claim comes right after the "
                "stroke, before the next one)",
            )
        if last.verdict.foul is not None:
            raise SessionError("claim_foul", "claim: the last stroke was already judged a foul")
        line = dict(last.line)
        raw = line.get("fouls", [])
        codes = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
        codes += [f.value for f in fouls if f.value not in codes]
        line["fouls"] = codes
        self.undo()
        try:
            return self.append(line)
        except SessionError:
            self.append(last.line)  # the claim is refused: the stroke stands as it was
            raise

    def choose(self, option: Option) -> Judged:
        """The incoming player's foul option (2.12.3)."""
        if self.playable:
            return self.keep(self.plan_option(option))
        return self.append(self.plan_choice(option))

    def plan_choice(self, option: Option) -> Mapping[str, Any]:
        """The line of the incoming player's foul option (not kept): a played game's has
        the balls after it, as the game loop places them."""
        if self.playable:
            return self.plan_option(option).line
        self._check_choice()
        return {"type": "choice", "option": option.value}

    def plan_option(self, option: Option) -> Ruled:
        """A played game's foul option, placed by the game loop and judged (not kept: a
        caller can store the line, then :meth:`keep` it)."""
        self._check_choice()
        before = self._state
        loop = self.loop()
        try:
            record: ChoiceRecord = loop.choose(option)
        except GameError as exc:
            raise SessionError("no_choice", str(exc)) from None
        return Ruled(choice_line(record, self.players), before, loop.state, record.verdict)

    def _check_choice(self) -> None:
        if self.over:
            raise self._over_error()
        if not self._state.choice_pending:
            raise SessionError("no_choice", "choice: there is no foul option to take now")

    # --- the simulated table ---------------------------------------------------------------

    @property
    def physics(self) -> Mapping[str, Any] | None:
        """The simulated table the first line describes (``None``: a marked game)."""
        raw = self.first.line.get("physics")
        return raw if isinstance(raw, dict) else None

    def simulator(self) -> PhysicsSimulator:
        """The simulated table of a played game."""
        physics = self.physics
        if physics is None:
            raise SessionError(
                "not_played", "this game has no simulated table (it was marked or imported)"
            )
        try:
            return _simulator(json.dumps(physics, sort_keys=True))
        except ValueError as exc:
            raise SessionError(
                "not_played", f"the game's table cannot be simulated: {exc}"
            ) from None

    @property
    def playable(self) -> bool:
        """The game can go on on the simulated table: its first line describes the table
        and the referee knows where every ball on it lies."""
        if self.first.line.get("record") is None or self.physics is None:
            return False
        try:
            self.simulator()
        except SessionError:
            return False
        return all(at is not None for at in self._state.table.values())

    def _marked_only(self) -> None:
        if self.playable:
            raise SessionError(
                "played",
                "this game is played on the simulated table: strokes come from /play, "
                "not from the marker",
            )

    def loop(self) -> Game:
        """The game loop at the current position."""
        balls: dict[Ball, Point] = {}
        for ball, at in self._state.table.items():
            if at is None:
                raise SessionError(
                    "not_played", f"the position of the {ball.value} is not known: cannot play on"
                )
            balls[ball] = at
        try:
            return Game.resume(self._state, balls, self.simulator())
        except GameError as exc:
            raise SessionError("not_played", str(exc)) from None

    def play(self, action: Action) -> Played:
        """Play the stroke of the player to play on the simulated table, and keep it."""
        played = self.plan_play(action)
        self.keep(played.ruled)
        return played

    def plan_play(self, action: Action) -> Played:
        """The stroke of the player to play on the simulated table, judged and not kept
        (the session is not changed: a caller can store the line, then :meth:`keep` it)."""
        if self.over:
            raise self._over_error()
        if not self.playable:
            raise SessionError("not_played", "this game is marked, not played on the table")
        before = self._state
        loop = self.loop()
        try:
            record = loop.play(action)
        except GameError as exc:
            raise SessionError("bad_stroke", str(exc), {"detail": str(exc)}) from None
        ruled = Ruled(stroke_line(record, self.players), before, loop.state, record.verdict)
        return Played(ruled, record)

    # --- writing ---------------------------------------------------------------------------

    def export_protocol(self) -> str:
        """The game as the referee protocol's JSON Lines (only the protocol's fields): what
        ``onered referee`` reads and an import reads back."""
        return "".join(
            dumps({k: v for k, v in e.line.items() if k in PROTOCOL_FIELDS[e.kind]}) + "\n"
            for e in self._entries
        )

    def export_record(self, entrants: Mapping[str, str] | None = None) -> str:
        """The game as a game record (``docs/record-format.md``): the first line with
        ``record``, ``seed``, ``physics`` (``null`` for a marked game), ``entrants`` and
        ``opening``; every stroke and choice line with its ``verdict`` (judged again)."""
        players = self.players
        out: list[str] = []
        for e in self._entries:
            line = dict(e.line)
            verdict = verdict_json(e.verdict, players)
            if e.seq == 0:
                line["record"] = RECORD_VERSION
                line.setdefault("seed", None)
                line.setdefault("physics", None)
                line["entrants"] = dict(entrants or {}) or line.get("entrants", {})
                line["opening"] = verdict
            elif e.kind is LineKind.CHOICE:
                line["chooser"] = e.verdict.striker
                line["verdict"] = verdict
            else:
                line["verdict"] = verdict
            out.append(dumps(line) + "\n")
        return "".join(out)


class _View(Sequence[Judged]):
    """A read-only view of a session's lines (no copy per request)."""

    __slots__ = ("_items",)

    def __init__(self, items: list[Judged]) -> None:
        self._items = items

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: Any) -> Any:
        return self._items[index]


def _check_names(match: Match) -> None:
    """A game's names and target, checked as a new game's are."""
    names = validate.names(match.players, "players")
    if names != match.players:
        raise validate.ValidationError(
            "players",
            "name_space",
            "names are written without leading, trailing or repeated spaces",
            {"where": "players"},
        )
    validate.target(match.target)


def _check_header(first: Mapping[str, Any]) -> None:
    """The checks a new game's settings get, on a game's first line (before the referee
    reads it: a huge target or a NUL in a name is refused by name, not by the rules)."""
    if first.get("type") == "match":
        raw = first.get("players")
        validate.names(raw if isinstance(raw, list) else [], "players")
        validate.target(first.get("target"))
    physics = first.get("physics")
    if physics is not None:
        if not isinstance(physics, dict):
            raise validate.ValidationError(
                "physics", "physics", "expected an object", {"where": "physics", "detail": ""}
            )
        validate.physics(physics)
    entrants = first.get("entrants")
    if entrants is not None:
        if not isinstance(entrants, dict) or not all(isinstance(v, str) for v in entrants.values()):
            raise validate.ValidationError(
                "entrants",
                "entrants",
                "expected an object of name: description",
                {"where": "entrants"},
            )
        for key, value in entrants.items():
            validate.name(key, "entrants")
            validate.name(value, f"entrants[{key}]")
