"""The referee's values: balls, codes, a match, a stroke, a verdict — frozen and typed.

Everything here is data: the rules themselves are in ``onered.rules.referee``. Display text
is not here either; calls and fouls carry codes, and the interface layer looks up their
Russian and English texts (``onered.texts``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import MISSING, dataclass, fields
from enum import Enum, StrEnum
from typing import ClassVar, TypeVar, cast

from onered.errors import OneredError
from onered.table import Point, Spot


class Ball(StrEnum):
    """The three balls (2.2.1): white and yellow are the players' cue balls.

    A ``StrEnum``: ``Ball.RED == "red"``, so the physics (which names balls by plain
    strings) takes a ``Ball`` as it is, and ``Ball("red")`` or ``Ball("RED")`` reads a name.
    Its hash is the string's (C, cached), as fast as the singletons' identity hash was."""

    WHITE = "white"
    YELLOW = "yellow"
    RED = "red"

    @classmethod
    def _missing_(cls, value: object) -> Ball | None:
        """A member's name in any case (``"RED"``, ``"Red"``) reads as the member."""
        if isinstance(value, str):
            return cls.__members__.get(value.strip().upper())
        return None

    @classmethod
    def named(cls, name: object, where: str = "ball") -> Ball:
        """The ball of ``name`` as the protocols, records and positions write it (``"red"``,
        exactly): the one reader of a ball's name in data, where ``Ball(name)`` is the
        lenient reading of a name a person types. Anything else is a :class:`RulesError`
        naming ``where`` (``protocol.json_fields.ball`` says it in a caller's family)."""
        ball = _BY_NAME.get(name) if isinstance(name, str) else None
        if ball is None:
            if isinstance(name, str):
                raise RulesError(f"{where}: unknown ball {name!r} (balls are white, yellow, red)")
            raise RulesError(f"{where}: expected a ball's name (white, yellow, red), got {name!r}")
        return ball

    @property
    def other_cue_ball(self) -> Ball:
        """The other player's cue ball (2.2.1): yellow for white, white for yellow."""
        if self is Ball.RED:
            raise ValueError("the red is no player's cue ball")
        return Ball.YELLOW if self is Ball.WHITE else Ball.WHITE


#: Each ball by its name, for :meth:`Ball.named` (a dict: faster than the enum's own lookup).
_BY_NAME: dict[object, Ball] = {b.value: b for b in Ball}


class Both(Enum):
    """``first_hit`` when the cue ball touched both object balls at the same instant."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    BOTH = "both"


BOTH = Both.BOTH
FirstHit = Ball | Both | None


class FoulCode(Enum):
    """The fouls of 2.11 (and 2.13.4), in the order of the protocol's table."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    WRONG_BALL = "wrong_ball"  # 2.11(1)
    DOUBLE_HIT = "double_hit"  # 2.11(2)
    BALLS_MOVING = "balls_moving"  # 2.11(3)
    FEET_OFF_FLOOR = "feet_off_floor"  # 2.11(4)
    OUT_OF_TURN = "out_of_turn"  # 2.11(5)
    BAD_FROM_HAND = "bad_from_hand"  # 2.11(6), 2.6
    IN_OFF_FROM_HAND = "in_off_from_hand"  # 2.11(7)
    JUMP = "jump"  # 2.11(8)
    PUSH = "push"  # 2.11(9)
    OFF_TABLE = "off_table"  # 2.11(10)
    HAZARD_LIMIT = "hazard_limit"  # 2.11(11)
    CANNON_LIMIT = "cannon_limit"  # 2.11(12)
    TOUCHED_BALL = "touched_ball"  # 2.11(13)
    BEFORE_SPOTTING = "before_spotting"  # 2.11(14)
    MISS = "miss"  # 2.11(15)
    BAULK_LINE = "baulk_line"  # 2.13.4


class CallCode(Enum):
    """The referee's announcements (decision 13, ``docs/rules.md``)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    FOUL = "foul"
    BAULK_LINE_CROSSED = "baulk_line_crossed"
    TOUCHING_BALL = "touching_ball"
    SEVENTY_CANNONS = "seventy_cannons"
    TEN_HAZARDS = "ten_hazards"
    BAULK_LINE_REQUIRED = "baulk_line_required"


class Option(Enum):
    """The incoming player's choice after a foul (2.12.3)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    AS_THEY_LIE = "as_they_lie"
    FROM_D = "from_d"


class ScoreKind(Enum):
    """The parts a stroke's points are made of (2.5.2–2.5.4), in the protocol's order."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    CANNON = "cannon"
    POT_RED = "pot_red"
    POT_WHITE = "pot_white"
    POT_YELLOW = "pot_yellow"
    IN_OFF_RED = "in_off_red"
    IN_OFF_WHITE = "in_off_white"
    IN_OFF_YELLOW = "in_off_yellow"


#: Points of each part (2.5.2; the in-off's value with a cannon is chosen by its kind, 2.5.4).
SCORE_VALUES: Mapping[ScoreKind, int] = {
    ScoreKind.CANNON: 2,
    ScoreKind.POT_RED: 3,
    ScoreKind.POT_WHITE: 2,
    ScoreKind.POT_YELLOW: 2,
    ScoreKind.IN_OFF_RED: 3,
    ScoreKind.IN_OFF_WHITE: 2,
    ScoreKind.IN_OFF_YELLOW: 2,
}
POT_OF: Mapping[Ball, ScoreKind] = {
    Ball.RED: ScoreKind.POT_RED,
    Ball.WHITE: ScoreKind.POT_WHITE,
    Ball.YELLOW: ScoreKind.POT_YELLOW,
}
IN_OFF_OF: Mapping[Ball, ScoreKind] = {
    Ball.RED: ScoreKind.IN_OFF_RED,
    Ball.WHITE: ScoreKind.IN_OFF_WHITE,
    Ball.YELLOW: ScoreKind.IN_OFF_YELLOW,
}

#: Penalty of a foul, and the most a single stroke can cost (2.12.3).
PENALTY = 2
#: Limits of consecutive cannon and hazard strokes (2.8.1, 2.9.2) and their calls (2.8.2, 2.9.3).
CANNON_LIMIT = 75
CANNON_CALL_AT = 70
HAZARD_LIMIT = 15
HAZARD_CALL_AT = 10


_T = TypeVar("_T")


def _quick_init(cls: type[_T]) -> type[_T]:
    """Give a frozen dataclass an ``__init__`` that fills ``__dict__`` in one call.

    The generated init of a frozen dataclass calls ``object.__setattr__`` once per field;
    for the referee's wide per-stroke values (``GameState``, ``Verdict``) that was half the
    time of judging a stroke. Same parameters, same defaults, ``__post_init__`` called
    when the class has one; the instance stays frozen. ``cls._of_fields`` builds the same
    instance from every field in order, positionally, without the class call (its
    ``__init__`` frame costs a tenth of a µs on Python 3.11) and without ``__post_init__``:
    for the referee's own values.
    """
    namespace: dict[str, object] = {}
    params = []
    for f in fields(cls):  # type: ignore[arg-type]
        if f.default is not MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        else:
            params.append(f.name)
    names = ", ".join(f"{f.name}={f.name}" for f in fields(cls))  # type: ignore[arg-type]
    source = f"def __init__(self, {', '.join(params)}):\n    self.__dict__.update({names})\n"
    if hasattr(cls, "__post_init__"):
        source += "    self.__post_init__()\n"
    every = ", ".join(f.name for f in fields(cls))  # type: ignore[arg-type]
    source += (
        f"def _of_fields({every}):\n    self = _new(_cls)\n"
        f"    self.__dict__.update({names})\n    return self\n"
    )
    namespace["_new"], namespace["_cls"] = object.__new__, cls
    exec(source, namespace)  # built from the class's own field names only
    setattr(cls, "__init__", namespace["__init__"])  # noqa: B010 - replacing a method
    of_fields = cast(Callable[..., _T], namespace["_of_fields"])
    setattr(cls, "_of_fields", staticmethod(of_fields))  # noqa: B010 - set on the class
    return cls


class RulesError(OneredError, ValueError):
    """Input the referee cannot judge: malformed or impossible data (never a foul)."""

    default_code = "rules"


class InvalidMatchError(RulesError):
    """The match settings are wrong (target, players, balls)."""

    default_code = "invalid_match"


class InvalidStrokeError(RulesError):
    """The stroke contradicts the state of the game (e.g. a ball that is not on the table)."""

    default_code = "invalid_stroke"


class InvalidChoiceError(RulesError):
    """A foul option given when none is pending."""

    default_code = "invalid_choice"


class GameOverError(RulesError):
    """A stroke or choice after the game has ended."""

    default_code = "game_over"


@dataclass(frozen=True, slots=True)
class Match:
    """The game's settings: ``players[0]`` won the lag and plays first (2.3.1) with
    ``balls[0]``; first to ``target`` points wins (2.1). ``handicap``: points each player
    (in the order of ``players``) is given at the start, a club's handicap start (not in the
    rules' text; ``docs/rules.md``, "Handicap")."""

    target: int
    players: tuple[str, str]
    balls: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)
    handicap: tuple[int, int] = (0, 0)


@_quick_init
@dataclass(frozen=True)
class Stroke:
    """One stroke of the cue as seen at the table, or a foul without a stroke
    (``struck=False``). Field meanings follow the referee protocol's ``stroke`` line."""

    striker: str | None = None
    struck: bool = True
    placed: Point | None = None
    first_hit: FirstHit = None
    cannon: bool = False
    potted: tuple[Ball, ...] = ()
    off_table: tuple[Ball, ...] = ()
    fouls: frozenset[FoulCode] = frozenset()
    crossed_baulk: bool = False
    touching: bool = False
    positions: Mapping[Ball, Point] | None = None
    occupied: frozenset[Spot] = frozenset()

    def __post_init__(self) -> None:
        """Balls and fouls may be given by name (``first_hit="red"``, ``potted=("white",)``,
        ``fouls={"push"}``, ``positions={"red": (x, y)}``): they are made the enums here, so
        the referee sees one kind of value; a name that is none is an
        :class:`InvalidStrokeError` naming the field. Enum members pass untouched."""
        hit = self.first_hit
        if hit is not None and hit.__class__ is not Ball and hit is not BOTH:
            object.__setattr__(self, "first_hit", _first_hit(hit))
        # Each check below is cheap when the value is already what the referee reads (the
        # protocol builds one stroke a line): an empty tuple or set is not looked into.
        potted = self.potted
        if potted.__class__ is not tuple or potted:
            balls = _ball_tuple(potted, "potted")
            if balls is not potted:
                object.__setattr__(self, "potted", balls)
        off = self.off_table
        if off.__class__ is not tuple or off:
            balls = _ball_tuple(off, "off_table")
            if balls is not off:
                object.__setattr__(self, "off_table", balls)
        fouls = self.fouls
        if fouls.__class__ is not frozenset or (fouls and not _FOUL_CODES.issuperset(fouls)):
            object.__setattr__(self, "fouls", frozenset(_foul(f) for f in fouls))
        at = self.positions
        if at is not None:
            for b in at:
                if b.__class__ is not Ball:
                    converted = {_ball(b, "positions"): p for b, p in at.items()}
                    object.__setattr__(self, "positions", converted)
                    break

    @classmethod
    def of_members(
        cls,
        striker: str | None,
        struck: bool,
        placed: Point | None,
        first_hit: FirstHit,
        cannon: bool,
        potted: tuple[Ball, ...],
        off_table: tuple[Ball, ...],
        fouls: frozenset[FoulCode],
        crossed_baulk: bool,
        touching: bool,
        positions: Mapping[Ball, Point] | None,
        occupied: frozenset[Spot],
    ) -> Stroke:
        """The stroke of these fields (all of them, in order) when they already are what the
        referee reads: balls and foul codes as the enums, tuples and frozensets as above,
        ``positions`` keyed by balls. Nothing is converted (``__post_init__`` is skipped,
        a fifth of reading a protocol line); the protocol's reader, whose every name has
        been looked up in the enums, builds its strokes so."""
        stroke = object.__new__(cls)
        stroke.__dict__.update(
            striker=striker,
            struck=struck,
            placed=placed,
            first_hit=first_hit,
            cannon=cannon,
            potted=potted,
            off_table=off_table,
            fouls=fouls,
            crossed_baulk=crossed_baulk,
            touching=touching,
            positions=positions,
            occupied=occupied,
        )
        return stroke


def _ball_tuple(balls: Iterable[object], field: str) -> tuple[Ball, ...]:
    """``balls`` as a tuple of balls: itself when it already is one."""
    if balls.__class__ is tuple:
        for b in balls:
            if b.__class__ is not Ball:
                break
        else:
            return balls
    return tuple(_ball(b, field) for b in balls)


#: Every foul code: a set of them is read as it is when it holds nothing else.
_FOUL_CODES = frozenset(FoulCode)


def _ball(value: object, field: str, also: str = "") -> Ball:
    """``value`` as a ball, or an :class:`InvalidStrokeError` naming ``field``."""
    try:
        if isinstance(value, str):
            return Ball(value)
    except ValueError:
        pass
    raise InvalidStrokeError(f"{field}: {value!r} is not a ball (expected {_listed(Ball)}{also})")


def _first_hit(value: object) -> Ball | Both:
    if value == BOTH.value:
        return BOTH
    return _ball(value, "first_hit", " or 'both'")


def _foul(value: object) -> FoulCode:
    try:
        return FoulCode(value)
    except ValueError:
        raise InvalidStrokeError(
            f"fouls: {value!r} is not a foul code (expected one of {_listed(FoulCode)})"
        ) from None


def _listed(members: Iterable[Enum]) -> str:
    return ", ".join(repr(m.value) for m in members)


@dataclass(frozen=True, slots=True)
class Placement:
    """A ball the referee put on the table: on a named spot, or at a point (2.9.4 fallback)."""

    ball: Ball
    at: Spot | Point


@dataclass(frozen=True, slots=True)
class Foul:
    """The fouls judged in one stroke and the penalty given to the opponent."""

    codes: tuple[FoulCode, ...]
    penalty: int = PENALTY


@dataclass(frozen=True, slots=True)
class Counters:
    """Consecutive cannon strokes, consecutive hazard strokes and the red run ``r``."""

    cannons: int = 0
    hazards: int = 0
    red_run: int = 0

    def to_json(self) -> dict[str, int]:
        """``{"cannons", "hazards", "red_run"}``: the form the verdict, the pages and the
        coach's positions write. Its reader is the coach's (``onered.coach.position.
        counters_from_json``), which uses the shared field readers the rules may not
        import."""
        return {"cannons": self.cannons, "hazards": self.hazards, "red_run": self.red_run}


@_quick_init
@dataclass(frozen=True)
class Verdict:
    """The referee's judgement of one line (match, stroke or choice) — the protocol's
    verdict as a value. Names are player names; ``score`` follows ``Match.players``.

    The referee builds one a line (and a :class:`GameState`) with the fields in order,
    positionally: CPython 3.11 hands a class's keyword arguments over in a dict (built by
    bytecode from 16 keywords on, ``CALL_FUNCTION_EX``), which cost 0.7 µs a verdict and
    0.35 µs a state, a tenth of the referee protocol's time a line; and through
    ``_of_fields`` (:func:`_quick_init`), which skips the class call's own cost."""

    _of_fields: ClassVar[Callable[..., Verdict]]

    stroke: int
    striker: str | None
    ball: Ball | None
    from_d: bool
    points: int
    scored: tuple[tuple[ScoreKind, int], ...]
    foul: Foul | None
    score: tuple[int, int]
    break_: int
    visit_over: bool
    next: str | None
    next_from_d: bool
    options: tuple[Option, ...]
    placements: tuple[Placement, ...]
    in_hand: tuple[Ball, ...]
    counters: Counters
    baulk_required: bool
    baulk_crossed: bool
    calls: tuple[CallCode, ...]
    winner: str | None


@_quick_init
@dataclass(frozen=True)
class GameState:
    """Everything the referee remembers between lines.

    ``table`` maps each ball on the table to its known centre, or ``None`` when it is on the
    table at a place the referee was not told. A ball not in ``table`` is off it: a cue ball in
    hand, or (briefly) a red about to be spotted. ``red_spot`` is the spot the red stands on,
    as far as the referee knows (decision 5, ``docs/rules.md``).
    """

    _of_fields: ClassVar[Callable[..., GameState]]  # the referee's quick builder (Verdict's note)

    match: Match
    table: Mapping[Ball, Point | None]
    score: tuple[int, int] = (0, 0)
    stroke_no: int = 0
    to_play: int = 0
    break_: int = 0
    counters: Counters = Counters()
    red_spot: Spot | None = Spot.BILLIARDS
    red_fallback: bool = False
    baulk_met: int = -1
    choice_pending: bool = False
    winner: int | None = None

    def __repr__(self) -> str:
        """The position's one line (``onered.rules.position.write``; ``read`` gives the
        state back), instead of every field: ``GameState('R0.889,3.245 W 0:0 …')``."""
        try:
            return f"{type(self).__name__}({write_line(self)!r})"
        except (AttributeError, KeyError, TypeError, ValueError):  # too malformed to write
            return f"{type(self).__name__}(match={self.match!r}, table={dict(self.table)!r})"

    def player_ball(self, player: int) -> Ball:
        """The cue ball of player 0 or 1."""
        return self.match.balls[player]

    def in_hand(self) -> tuple[Ball, ...]:
        """Cue balls off the table, waiting for their owner to play from hand."""
        table = self.table
        return _IN_HAND[(_WHITE not in table, _YELLOW not in table)]


#: The cue balls as plain names: a member read from its class costs a call on Python 3.11
#: (the enum type's ``__getattr__``), which ``in_hand`` makes every stroke.
_WHITE, _YELLOW = Ball.WHITE, Ball.YELLOW
_IN_HAND: dict[tuple[bool, bool], tuple[Ball, ...]] = {
    (True, True): (Ball.WHITE, Ball.YELLOW),
    (True, False): (Ball.WHITE,),
    (False, True): (Ball.YELLOW,),
    (False, False): (),
}


# --- a state's one line (``docs/position-format.md``); read back by ``onered.rules.position``

#: The letter of each ball in a written position.
BALL_LETTERS: Mapping[Ball, str] = {Ball.WHITE: "W", Ball.YELLOW: "Y", Ball.RED: "R"}


def _number(value: float) -> str:
    return repr(float(value))  # the shortest text that reads back to the same double


def _names(players: tuple[str, str]) -> str:
    """The names as a JSON array on one line, every character that is not printable
    escaped (so no name can break the line or hide in it)."""
    text = json.dumps(list(players), ensure_ascii=False, separators=(",", ":"))
    return "".join(c if c.isprintable() else _escape(c) for c in text)


def _escape(c: str) -> str:
    code = ord(c)
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def _baulk(state: GameState) -> str:
    brk = state.break_
    if brk % 100 < 80:
        return "-"
    return "made" if state.baulk_met >= brk // 100 else "due"


def write_line(state: GameState) -> str:
    """The position's one-line text (``docs/position-format.md``); ``onered.rules.position``
    reads it back (``read``) and calls this ``write``."""
    table = state.table
    cells = []
    for ball in (Ball.WHITE, Ball.YELLOW, Ball.RED):
        if ball in table:
            at = table[ball]
            where = "?" if at is None else f"{_number(at[0])},{_number(at[1])}"
            cells.append(BALL_LETTERS[ball] + where)
    match = state.match
    counters = state.counters
    red = "-" if state.red_spot is None else state.red_spot.value
    if state.red_fallback:
        red += "*"
    status = "over" if state.winner is not None else "option" if state.choice_pending else "play"
    return " ".join(
        (
            "/".join(cells) or "-",
            BALL_LETTERS[match.balls[state.to_play]],
            f"{state.score[0]}:{state.score[1]}",
            str(state.break_),
            f"{counters.cannons}/{counters.hazards}/{counters.red_run}",
            red,
            _baulk(state),
            status,
            str(state.stroke_no),
            str(match.target),
            f"{match.handicap[0]}:{match.handicap[1]}",
            BALL_LETTERS[match.balls[0]] + BALL_LETTERS[match.balls[1]],
            _names(match.players),
        )
    )
