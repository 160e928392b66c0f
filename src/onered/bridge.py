"""From a simulated shot to the referee's stroke: named queries over the event log.

The physics knows nothing of the rules and the referee knows nothing of the physics; this
module is the one place where they meet (by design: dependencies point one way). Each query reads
the time-ordered event log (and the rest positions where the question is about rest) and
answers one question the referee protocol asks; :func:`outcome` puts them together into the
``outcome`` object of the shot protocol (``docs/shot-protocol.md``), which is a valid referee
``stroke`` line's fields. :func:`compact_outcome` gives the same answer for a shot of
``onered.physics.simulate_compact`` (the AI's lean form: integer-coded events, no paths).
:func:`stroke` and :func:`compact_stroke` give the referee's :class:`onered.rules.Stroke` of
either, the fouls the referee leaves to its caller that a simulated table can show included
(``bad_from_hand`` and ``jump``, below), so the game loop, the AI's search, the studies and
the environments read a simulated stroke in one way.

Of the caller's foul codes, two can happen on a simulated table, and the bridge reads both
from the event log: a wrong stroke from hand (2.6, 2.11(6), ``bad_from_hand``) and a jump
(2.11(8), ``jump``); the others (a double hit, a push, feet off the floor, touching a ball)
are things a player's body does, which the simulation does not model. A ball forced off the
table (2.11(10)) is not a caller's foul: the stroke's ``off_table`` lists the balls (each
ball with an ``off_table`` event, once, never one that fell into a pocket) and the referee
derives the foul, spots a red (2.7) and takes a cue ball in hand itself.

A stroke from hand: the placement outside the D the referee derives itself, but whether the
ball was played out of baulk it cannot know. The reading (2.6.3–2.6.6 of the original,
decision 7 of ``docs/rules.md`` as corrected on 2026-12-03): from hand, before the cue ball
touches a ball in baulk, comes back across the baulk line into baulk, or comes to rest in
baulk, it must have touched a ball out of baulk or a cushion at a point out of baulk (2.6.3,
2.6.4). Cushions in baulk may be used on the way out (2.6.5). So a ball in baulk may not be
played directly (2.6.6) — "in baulk" by its centre (decision 1), so a ball whose centre is on
the line is in baulk however far it overhangs, and one whose centre is beyond the line is
not — but it may be played after a cushion out of baulk (2.6.4). A cue ball that falls into a
pocket without touching anything is a miss (and, with every object ball in baulk,
``in_off_from_hand``), which the referee derives. Pocket jaws are part of the cushion. One
reading, :func:`bad_from_hand_touches`, over the cue ball's :class:`Touch`\\ es, fed a full
shot (:func:`bad_from_hand`) or a compact one (:func:`bad_from_hand_compact`).

A jump (decision 17 of ``docs/rules.md``): the cue ball goes over part of an object ball —
the engine's ``over`` event (the cue ball in the air, the object ball under it) not followed
by the cue ball touching that ball before it lands — unless it had already touched another
object ball first (the general rules' exception (a)), or it had touched this one and then a
cushion or the other ball (exception (c)); a cue ball that comes above a ball and strikes it
has not jumped it (exception (b)). One reading, :func:`jumped`, over the cue ball's
:class:`Flight` steps, fed a full shot (:func:`jump`) or a compact one (:func:`jump_compact`).

Only the cue ball's own contacts count for :func:`first_hit` and :func:`cannon`: an object
ball running into the other object ball is not the cue ball touching it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from onered import rules
from onered.physics import DIRECTIONS, EVENT_KINDS, CompactShot
from onered.physics.types import CROSSED_IN, Event, EventKind, Fate, ShotResult, Vec2, position_at
from onered.table import BALL_DIAMETER, BAULK_Y, in_baulk
from onered.table import touching as balls_touching

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from onered.physics.batch import Shots

#: ``first_hit`` value when the cue ball touches both object balls at the same instant.
BOTH: str = rules.BOTH.value
#: Two cue-ball contacts closer in time than this (seconds) are the same instant. The engine
#: resolves a simultaneous double contact as two events at equal times up to rounding of the
#: root solver (far below a nanosecond); at 10 m/s a nanosecond is 10 nm of travel, so no
#: two distinct contacts of a real stroke are that close.
SIMULTANEOUS_S = 1e-9
#: Event kinds as module constants: reading ``EventKind.X`` goes through the Enum's
#: descriptor on every access, which a loop over every event of every shot should not pay.
_BALL_BALL = EventKind.BALL_BALL
_POCKET = EventKind.POCKET
_BAULK_LINE = EventKind.BAULK_LINE
_OVER = EventKind.OVER
_LAND = EventKind.LAND
_OFF_TABLE = EventKind.OFF_TABLE
#: The same kinds as the integer codes of the compact form (``EVENT_KINDS``, ``DIRECTIONS``).
_C_BALL_BALL = EVENT_KINDS.index(_BALL_BALL)
_C_POCKET = EVENT_KINDS.index(_POCKET)
_C_BAULK_LINE = EVENT_KINDS.index(_BAULK_LINE)
_C_OVER = EVENT_KINDS.index(_OVER)
_C_LAND = EVENT_KINDS.index(_LAND)
_C_OFF_TABLE = EVENT_KINDS.index(_OFF_TABLE)
_C_IN = DIRECTIONS.index("in")
_C_OUT = DIRECTIONS.index("out")
_C_CUSHION = EVENT_KINDS.index(EventKind.CUSHION)
_CUSHION = EventKind.CUSHION
#: A ball's fate in a batch (``onered.physics.batch.Fate``) as plain integers.
_POCKETED_FATE = int(Fate.POCKETED)
_OFF_FATE = int(Fate.OFF_TABLE)
#: The caller's fouls of a stroke: none, a stroke from hand not played out of baulk, a jump.
_NO_FOULS: frozenset[rules.FoulCode] = frozenset()
_BAD_FROM_HAND = frozenset({rules.FoulCode.BAD_FROM_HAND})
_JUMP = frozenset({rules.FoulCode.JUMP})
_FOUL_CODES: dict[str, rules.FoulCode] = {code.value: code for code in rules.FoulCode}
#: The referee's balls by name (a dict lookup is cheaper than ``Ball(name)``).
_BALLS: dict[str, rules.Ball] = {ball.value: ball for ball in rules.Ball}
#: A ball as the protocol names it or as the referee knows it.
_B = TypeVar("_B", str, rules.Ball | rules.Both)
#: A ball by its name, its index in a batch, or as the referee knows it.
_T = TypeVar("_T", str, int, rules.Ball)


def _cue_contacts(events: Iterable[Event], cue: str) -> list[tuple[float, str]]:
    """``(time, other ball)`` for every ball-ball event involving the cue ball, in order."""
    contacts: list[tuple[float, str]] = []
    for event in events:
        if event.kind is _BALL_BALL and cue in event.balls:
            contacts.extend((event.t, ball) for ball in event.balls if ball != cue)
    return contacts


def first_hit(events: Iterable[Event], cue: str) -> str | None:
    """The object ball the cue ball touched first; :data:`BOTH` when it touched two object
    balls within :data:`SIMULTANEOUS_S` of its first contact; ``None`` when it touched none."""
    return _first_hit(_cue_contacts(events, cue), BOTH)


def _first_hit(contacts: Sequence[tuple[float, _B]], both: _B) -> _B | None:
    if not contacts:
        return None
    t0, ball = contacts[0]
    for t, other in contacts[1:]:
        if t - t0 > SIMULTANEOUS_S:
            break
        if other != ball:
            return both
    return ball


def cannon(events: Iterable[Event], cue: str) -> bool:
    """The cue ball touched two different object balls during the stroke (both object balls:
    a shot has at most three balls)."""
    return _cannon(_cue_contacts(events, cue))


def _cannon(contacts: Sequence[tuple[float, _B]]) -> bool:
    return len({ball for _, ball in contacts}) >= 2


def potted(events: Iterable[Event]) -> tuple[str, ...]:
    """Balls that fell into a pocket, in the order they fell."""
    return tuple(ball for event in events if event.kind is _POCKET for ball in event.balls)


def pocket_of(events: Iterable[Event], ball: str) -> str | None:
    """The pocket ``ball`` fell into (a name of ``onered.table.POCKET_NAMES``), or ``None``
    when it did not fall (studies ask which pocket a pot or an in-off went into)."""
    for event in events:
        if event.kind is _POCKET and ball in event.balls:
            return event.pocket
    return None


def off_table(events: Iterable[Event]) -> tuple[str, ...]:
    """Balls forced off the table (an ``off_table`` event), in order, each once; a ball that
    fell into a pocket is potted, not off the table (the general rules: a ball is off the
    table when it comes to rest neither on the bed nor in a pocket)."""
    flown: list[str] = []
    fell: list[str] = []
    for event in events:
        kind = event.kind
        if kind is _OFF_TABLE:
            flown.extend(event.balls)
        elif kind is _POCKET:
            fell.extend(event.balls)
    return _off_the_table(flown, fell)


def _off_the_table(flown: Sequence[_T], fell: Sequence[_T]) -> tuple[_T, ...]:
    """The one reading of ``off_table`` for both forms: the balls that flew off, in order,
    each once, without those that fell into a pocket."""
    if not flown:
        return ()
    return tuple(dict.fromkeys(b for b in flown if b not in fell))


def crossed_baulk(events: Iterable[Event], rest: Mapping[str, Vec2 | None], cue: str) -> bool:
    """The cue ball's centre crossed the baulk line moving into baulk and the ball came to
    rest with its centre in baulk (decision 10, ``docs/rules.md``). A potted cue ball did not; a cue
    ball that crossed in and then left baulk again did not either (it rests out of baulk)."""
    at = rest.get(cue)
    if at is None or not in_baulk(at):
        return False
    return any(
        event.kind is _BAULK_LINE and event.direction == "in" and cue in event.balls
        for event in events
    )


def touching(rest: Mapping[str, Vec2 | None], cue: str) -> bool:
    """The cue ball came to rest touching another ball: centres within one diameter plus
    1e-6 m (decision 2, ``docs/rules.md``). A potted cue ball touches nothing."""
    at = rest.get(cue)
    if at is None:
        return False
    return any(
        other is not None and balls_touching(at, other)
        for ball, other in rest.items()
        if ball != cue
    )


@dataclass(frozen=True, slots=True)
class Outcome:
    """A stroke as the referee protocol describes it, derived from a simulated shot.

    ``positions`` are the rest positions of the balls still on the table (potted balls and
    balls off the table are left out, as the referee requires). ``fouls`` are the caller's
    fouls the event log shows without knowing the placement: ``jump`` (decision 17), or none.
    """

    first_hit: str | None
    cannon: bool
    potted: tuple[str, ...]
    off_table: tuple[str, ...]
    crossed_baulk: bool
    touching: bool
    positions: Mapping[str, Vec2]
    fouls: tuple[str, ...] = ()

    def stroke(
        self,
        *,
        placed: Vec2 | None = None,
        fouls: frozenset[rules.FoulCode] = frozenset(),
        striker: str | None = None,
    ) -> rules.Stroke:
        """The referee's stroke: this outcome (its own fouls included), with the placement
        from hand, the fouls the caller saw (``bad_from_hand``) and the striker's name when
        he is named."""
        hit = self.first_hit
        balls = _BALLS
        if self.fouls:
            fouls = fouls | {_FOUL_CODES[code] for code in self.fouls}
        return rules.Stroke(
            striker=striker,
            placed=placed,
            fouls=fouls,
            first_hit=None if hit is None else rules.BOTH if hit == BOTH else balls[hit],
            cannon=self.cannon,
            potted=tuple(balls[b] for b in self.potted),
            off_table=tuple(balls[b] for b in self.off_table),
            crossed_baulk=self.crossed_baulk,
            touching=self.touching,
            positions={balls[b]: (float(p[0]), float(p[1])) for b, p in self.positions.items()},
        )

    def to_json(self) -> dict[str, Any]:
        """The shot protocol's ``outcome`` object (a referee ``stroke`` line without its
        ``type``), with plain lists and floats, ready for :func:`json.dumps`; ``fouls`` only
        when there are some (a stroke line without it has none)."""
        out: dict[str, Any] = {
            "first_hit": self.first_hit,
            "cannon": self.cannon,
            "potted": list(self.potted),
            "off_table": list(self.off_table),
            "crossed_baulk": self.crossed_baulk,
            "touching": self.touching,
            "positions": {ball: [float(x), float(y)] for ball, (x, y) in self.positions.items()},
        }
        if self.fouls:
            out["fouls"] = list(self.fouls)
        return out


def outcome(result: ShotResult, cue: str) -> Outcome:
    """The referee's view of a simulated shot played with cue ball ``cue``."""
    events = result.events
    contacts = _cue_contacts(events, cue)  # read once for both questions
    return Outcome(
        first_hit=_first_hit(contacts, BOTH),
        cannon=_cannon(contacts),
        potted=potted(events),
        off_table=off_table(events),
        crossed_baulk=crossed_baulk(events, result.rest, cue),
        touching=touching(result.rest, cue),
        positions={ball: at for ball, at in result.rest.items() if at is not None},
        fouls=(rules.FoulCode.JUMP.value,) if jump(events, cue) else (),
    )


def stroke(
    result: ShotResult,
    cue: str,
    before: Mapping[str, Vec2],
    *,
    placed: Vec2 | None = None,
    striker: str | None = None,
) -> rules.Stroke:
    """The referee's stroke for a simulated shot played with cue ball ``cue`` from
    ``before`` (every ball's centre, the cue ball's placement included): :func:`outcome`
    (a jump included), with the placement from hand, ``bad_from_hand`` when a stroke from
    hand was not played out of baulk (:func:`bad_from_hand`) and the striker's name when he
    is named."""
    fouls = _NO_FOULS
    if placed is not None and bad_from_hand(result, cue, before):
        fouls = _BAD_FROM_HAND
    return outcome(result, cue).stroke(placed=placed, fouls=fouls, striker=striker)


def compact_stroke(
    shot: CompactShot,
    ids: Sequence[str],
    cue: str,
    *,
    placed: Vec2 | None = None,
    before: Mapping[str, Vec2] | None = None,
    striker: str | None = None,
) -> rules.Stroke:
    """The referee's stroke for a shot of ``onered.physics.simulate_compact`` (``ids``: the
    batch's ``ball_ids``) played from ``before``, with the placement from hand (and then
    ``bad_from_hand`` read by :func:`bad_from_hand_compact`; ``before`` is needed then)
    and the striker's name: the questions of :func:`stroke` answered from the
    integer-coded events, a jump (:func:`jump_compact`) and balls off the table included
    (the AI judges thousands of shots a decision, so this reads them once, straight into
    the referee's terms, and reads the jump only when the cue ball came above a ball;
    :func:`compact_outcome` gives the same as an :class:`Outcome`)."""
    fouls = _NO_FOULS
    if placed is not None:
        if before is None:
            raise ValueError("compact_stroke: a stroke from hand is read with the balls before it")
        if bad_from_hand_compact(shot.events, shot.rest, ids, cue, before):
            fouls = _BAD_FROM_HAND
    balls = _balls_of(tuple(ids))
    ci = ids.index(cue)
    contacts: list[tuple[float, rules.Ball | rules.Both]] = []
    gone: list[rules.Ball] = []
    flown: list[rules.Ball] = []
    crossed_in = over = False
    for t, kind, a, b, _cushion, _pocket, direction in shot.events:
        if kind == _C_BALL_BALL:
            if a == ci:
                contacts.append((t, balls[b]))
            elif b == ci:
                contacts.append((t, balls[a]))
        elif kind == _C_POCKET:
            gone.append(balls[a])
        elif kind == _C_BAULK_LINE:
            if a == ci and direction == _C_IN:
                crossed_in = True
        elif kind == _C_OVER:
            over = over or a == ci
        elif kind == _C_OFF_TABLE:
            flown.append(balls[a])
    if over and jump_compact(shot.events, ci):
        fouls = fouls | _JUMP
    rest = shot.rest
    at = rest[ci]
    return rules.Stroke(
        striker=striker,
        placed=placed,
        fouls=fouls,
        first_hit=_first_hit(contacts, rules.BOTH),
        cannon=_cannon(contacts),
        potted=tuple(gone),
        off_table=_off_the_table(flown, gone),
        crossed_baulk=crossed_in and at is not None and in_baulk(at),
        touching=at is not None
        and any(balls_touching(at, p) for i, p in enumerate(rest) if i != ci and p is not None),
        positions={balls[i]: p for i, p in enumerate(rest) if p is not None},
    )


def compact_outcome(shot: CompactShot, ids: Sequence[str], cue: str) -> Outcome:
    """:func:`outcome` for a shot of ``onered.physics.simulate_compact`` (``ids``: the
    batch's ``ball_ids``): :func:`compact_stroke` in the protocol's names (a test holds
    it equal to :func:`outcome` of the full simulation of the same strikes)."""
    stroke = compact_stroke(shot, ids, cue)
    hit = stroke.first_hit
    positions = stroke.positions if stroke.positions is not None else {}
    return Outcome(
        first_hit=None if hit is None else hit.value,
        cannon=stroke.cannon,
        potted=tuple(b.value for b in stroke.potted),
        off_table=tuple(b.value for b in stroke.off_table),
        crossed_baulk=stroke.crossed_baulk,
        touching=stroke.touching,
        positions={b.value: p for b, p in positions.items()},
        fouls=tuple(code.value for code in rules.FoulCode if code in stroke.fouls),
    )


@dataclass(frozen=True, slots=True, eq=False)
class BatchReading:
    """The questions of a stroke that a batch's arrays answer for all its shots at once
    (:func:`batch_reading`), row ``k`` for shot ``k``: ``first`` the index in the batch's
    ``ball_ids`` of the ball the cue ball touched first, ``len(ball_ids)`` for both at
    once (:data:`SIMULTANEOUS_S`), ``len(ball_ids) + 1`` for none; ``cannon``;
    ``crossed_baulk``; ``touching`` (the readings of :func:`first_hit`, :func:`cannon`,
    :func:`crossed_baulk` and :func:`touching`)."""

    first: npt.NDArray[np.intp]
    cannon: npt.NDArray[np.bool_]
    crossed_baulk: npt.NDArray[np.bool_]
    touching: npt.NDArray[np.bool_]


#: How far apart (m) two centres must be for :func:`onered.table.touching` to be surely
#: false without asking it (it allows one diameter and 1e-6 m).
_SURELY_APART = BALL_DIAMETER + 1e-3


def batch_reading(shots: Shots) -> BatchReading:
    """:class:`BatchReading` of a batch of ``onered.physics.batch.simulate_many``: the
    first hit, cannon, baulk crossing and touching of every shot, read from its arrays with
    NumPy (``onered.table``'s ``in_baulk`` and ``touching`` asked only where the arrays
    cannot say no), as :func:`compact_stroke` reads each shot's events."""
    import numpy as np  # (NumPy comes with the batch; the bridge's other readings need none)

    n = len(shots.ball_ids)
    count = len(shots)
    rows = np.arange(count)
    cue = shots.cue
    contact = shots.contact
    hits = np.isfinite(contact).sum(axis=1)
    first = np.where(hits == 0, n + 1, np.argmin(contact, axis=1))
    if n > 1:
        ranked = np.sort(contact, axis=1)
        with np.errstate(invalid="ignore"):  # (inf - inf where no ball was touched)
            first[(hits >= 2) & ~(ranked[:, 1] - ranked[:, 0] > SIMULTANEOUS_S)] = n
    on = shots.fate == int(Fate.ON_TABLE)
    rest = shots.rest
    cue_on = on[rows, cue]
    crossed = ((shots.crossed[rows, cue] & CROSSED_IN) != 0) & cue_on
    for k in np.flatnonzero(crossed).tolist():
        x, y = rest[k, cue[k]].tolist()
        crossed[k] = in_baulk((x, y))
    apart = np.hypot(*(rest - rest[rows, cue][:, None, :]).transpose(2, 0, 1))
    others = on & cue_on[:, None]
    others[rows, cue] = False
    touches = (others & ~(apart > _SURELY_APART)).any(axis=1)
    for k in np.flatnonzero(touches).tolist():
        points = rest[k].tolist()
        ci = int(cue[k])
        at = (points[ci][0], points[ci][1])
        touches[k] = any(
            balls_touching(at, (p[0], p[1]))
            for p, o in zip(points, others[k].tolist(), strict=True)
            if o
        )
    return BatchReading(first, hits >= 2, crossed, touches)


def batch_strokes(
    shots: Shots,
    *,
    placed: Sequence[Vec2 | None] | None = None,
    before: Sequence[Mapping[str, Vec2] | None] | None = None,
) -> list[rules.Stroke]:
    """The referee's strokes for the shots of ``onered.physics.batch.simulate_many``, each
    equal to :func:`compact_stroke` of the same shot (a property test holds them equal):
    ``placed`` and ``before`` per shot (or ``None``) for strokes from hand. Read from the
    batch's arrays, converted to plain lists once for all shots; a shot's event log is read
    only where the arrays cannot answer: the cue ball came above a ball in the air (a jump,
    :func:`jump_compact`) or a stroke from hand (:func:`bad_from_hand_compact`)."""
    ids = shots.ball_ids
    balls = _balls_of(ids)
    n = len(ids)
    reading = batch_reading(shots)
    hit: list[rules.Ball | rules.Both | None] = [*balls, rules.BOTH, None]
    cues = shots.cue.tolist()
    fate = shots.fate.tolist()
    gone = shots.gone.tolist()
    overs = shots.overs.tolist()
    rest_rows = shots.rest.tolist()
    rows = zip(
        reading.first.tolist(),
        reading.cannon.tolist(),
        reading.crossed_baulk.tolist(),
        reading.touching.tolist(),
        strict=True,
    )
    strokes = []
    for k, (ci, (first, cannon_k, crossed_k, touching_k)) in enumerate(
        zip(cues, rows, strict=True)
    ):
        fouls = _NO_FOULS
        rest: list[Vec2 | None] = [
            None if fate[k][i] else (rest_rows[k][i][0], rest_rows[k][i][1]) for i in range(n)
        ]
        hand = placed[k] if placed is not None else None
        if hand is not None:
            seen = before[k] if before is not None else None
            if seen is None:
                raise ValueError(
                    "batch_strokes: a stroke from hand is read with the balls before it"
                )
            if bad_from_hand_compact(shots.events(k), rest, ids, ids[ci], seen):
                fouls = _BAD_FROM_HAND
        if overs[k][ci] and jump_compact(shots.events(k), ci):
            fouls = fouls | _JUMP
        ends = fate[k]
        gone_k = gone[k]
        fell = sorted((gone_k[i], i) for i in range(n) if ends[i] == _POCKETED_FATE)
        flew = sorted((gone_k[i], i) for i in range(n) if ends[i] == _OFF_FATE)
        strokes.append(
            rules.Stroke(
                placed=hand,
                fouls=fouls,
                first_hit=hit[first],
                cannon=cannon_k,
                potted=tuple(balls[i] for _, i in fell),
                off_table=tuple(balls[i] for _, i in flew),
                crossed_baulk=crossed_k,
                touching=touching_k,
                positions={balls[i]: p for i, p in enumerate(rest) if p is not None},
            )
        )
    return strokes


_BALLS_OF: dict[tuple[str, ...], tuple[rules.Ball, ...]] = {}


def _balls_of(ids: tuple[str, ...]) -> tuple[rules.Ball, ...]:
    """The referee's balls for a batch's ball names (cached: batches repeat their names)."""
    found = _BALLS_OF.get(ids)
    if found is None:
        found = _BALLS_OF[ids] = tuple(_BALLS[name] for name in ids)
    return found


# --- a stroke from hand (decision 7) ---------------------------------------------------------


class Touch(Enum):
    """What the cue ball met, in the terms of 2.6: only these matter to the reading."""

    BALL_IN_BAULK = "ball_in_baulk"  # a ball whose centre stood in baulk (decision 1)
    BALL_OUT_OF_BAULK = "ball_out_of_baulk"
    CUSHION_IN_BAULK = "cushion_in_baulk"  # allowed on the way out (2.6.5), counts for nothing
    CUSHION_OUT_OF_BAULK = "cushion_out_of_baulk"
    LEAVES_BAULK = "leaves_baulk"  # its centre crossed the baulk line away from the bottom
    ENTERS_BAULK = "enters_baulk"  # ... and towards it
    FALLS = "falls"  # into a pocket


def bad_from_hand_touches(touches: Iterable[Touch], rests_in_baulk: bool) -> bool:
    """The stroke from hand was not played out of baulk (decision 7, see the module
    docstring): ``touches`` are the cue ball's in time order, ``rests_in_baulk`` whether
    it came to rest with its centre in baulk (``False`` when it fell)."""
    played_out = left = False
    for touch in touches:
        if touch is Touch.BALL_OUT_OF_BAULK or touch is Touch.FALLS:
            return False
        if touch is Touch.BALL_IN_BAULK:
            return not played_out
        if touch is Touch.CUSHION_OUT_OF_BAULK:
            played_out = True
        elif touch is Touch.LEAVES_BAULK:
            left = True
        elif touch is Touch.ENTERS_BAULK and left and not played_out:
            # back into baulk (2.6.4); a ball placed a hair beyond the line (still in the D
            # by decision 1's tolerance) that is played straight down has not come back
            return True
    return not played_out and rests_in_baulk


def _shot_touches(result: ShotResult, cue: str, before: Mapping[str, Vec2]) -> Iterator[Touch]:
    path = result.paths.get(cue, ())
    start = before[cue]
    beyond = start[1] > BAULK_Y  # which side of the line the engine has the cue ball on
    for event in result.events:
        if cue not in event.balls:
            continue
        kind = event.kind
        if kind is _BALL_BALL:
            other = event.balls[0] if event.balls[1] == cue else event.balls[1]
            yield Touch.BALL_IN_BAULK if in_baulk(before[other]) else Touch.BALL_OUT_OF_BAULK
        elif kind is _CUSHION:
            # located on the path (decision 1, exactly); without one, by the crossings
            out = not in_baulk(position_at(path, event.t, start)) if path else beyond
            yield Touch.CUSHION_OUT_OF_BAULK if out else Touch.CUSHION_IN_BAULK
        elif kind is _BAULK_LINE:
            beyond = event.direction == "out"
            yield Touch.LEAVES_BAULK if beyond else Touch.ENTERS_BAULK
        elif kind is _POCKET:
            yield Touch.FALLS


def bad_from_hand(result: ShotResult, cue: str, before: Mapping[str, Vec2]) -> bool:
    """The stroke from hand was not played out of baulk (decision 7). ``before`` holds
    every ball's centre before the stroke, the cue ball's placement included; cushion
    contacts are located on the cue ball's path in ``result`` (without a path, by its
    baulk-line crossings)."""
    rest = result.rest.get(cue)
    rests_in_baulk = rest is not None and in_baulk(rest)
    return bad_from_hand_touches(_shot_touches(result, cue, before), rests_in_baulk)


def _compact_touches(
    events: Iterable[tuple[float, int, int, int, int, int, int]],
    ids: Sequence[str],
    ci: int,
    before: Mapping[str, Vec2],
) -> Iterator[Touch]:
    beyond = before[ids[ci]][1] > BAULK_Y
    for _t, kind, a, b, _cushion, _pocket, direction in events:
        if a != ci and b != ci:
            continue
        if kind == _C_BALL_BALL:
            other = ids[b if a == ci else a]
            yield Touch.BALL_IN_BAULK if in_baulk(before[other]) else Touch.BALL_OUT_OF_BAULK
        elif kind == _C_CUSHION:
            # no path in the compact form: the cue ball's side of the line, by its crossings
            yield Touch.CUSHION_OUT_OF_BAULK if beyond else Touch.CUSHION_IN_BAULK
        elif kind == _C_BAULK_LINE and direction in (_C_IN, _C_OUT):
            beyond = direction == _C_OUT
            yield Touch.LEAVES_BAULK if beyond else Touch.ENTERS_BAULK
        elif kind == _C_POCKET:
            yield Touch.FALLS


def bad_from_hand_compact(
    events: Iterable[tuple[float, int, int, int, int, int, int]],
    rest: Sequence[Vec2 | None],
    ids: Sequence[str],
    cue: str,
    before: Mapping[str, Vec2],
) -> bool:
    """:func:`bad_from_hand` for a shot of ``onered.physics.simulate_compact`` (its
    ``events`` and ``rest``, the batch's ``ids``). With no trajectories, a cushion
    contact is placed by the side of the baulk line the cue ball's crossings put it on,
    which differs from :func:`bad_from_hand` only within 1e-6 m of the line."""
    ci = ids.index(cue)
    end = rest[ci]
    rests_in_baulk = end is not None and in_baulk(end)
    return bad_from_hand_touches(_compact_touches(events, ids, ci, before), rests_in_baulk)


# --- a jump (decision 17) ---------------------------------------------------------------------


class Flight(Enum):
    """What the cue ball does, in the terms of the jump reading: only these matter to it."""

    ABOVE = "above"  # in the air, it comes above part of a ball (``over``: it, that ball)
    STRIKES = "strikes"  # it touches a ball
    CUSHION = "cushion"  # it touches a cushion or a jaw
    LANDS = "lands"  # it comes down on the slate: its flight is over
    GONE = "gone"  # it fell into a pocket or left the table


def jumped(steps: Iterable[tuple[float, Flight, object]]) -> bool:
    """The stroke is a jump (decision 17, see the module docstring): ``steps`` are the cue
    ball's ``(time, step, other ball)`` in time order (``other`` is ``None`` for a step
    without one; any name for a ball will do, used alike in one call).

    A ball the cue ball comes above in a flight and does not touch before the flight ends
    has been jumped, unless the cue ball had touched an object ball before: another one
    (exception (a)), or this one and since then a cushion or another ball (exception (c)).
    Touching it in that flight is exception (b): it struck the ball, it did not jump it."""
    first: set[object] = set()  # the balls of the cue ball's first contact
    t_first = 0.0
    freed: set[object] = set()  # of those, the ones exception (c) now covers
    cushion_since = False
    above: set[object] = set()  # balls come above in this flight, not exempt, not touched
    for t, step, other in steps:
        if step is Flight.ABOVE:
            if not first or (other in first and other not in freed and not cushion_since):
                above.add(other)
        elif step is Flight.STRIKES:
            above.discard(other)
            if not first:
                first.add(other)
                t_first = t
            elif t - t_first <= SIMULTANEOUS_S:
                first.add(other)
            else:
                freed.update(b for b in first if b != other)
        elif step is Flight.CUSHION:
            cushion_since = cushion_since or bool(first)
        elif above:  # LANDS or GONE: the flight is over
            return True
    return bool(above)


def _shot_flight(events: Iterable[Event], cue: str) -> Iterator[tuple[float, Flight, object]]:
    for event in events:
        kind = event.kind
        balls = event.balls
        if kind is _OVER:
            if balls[0] == cue:
                yield event.t, Flight.ABOVE, balls[1]
        elif cue not in balls:
            continue
        elif kind is _BALL_BALL:
            yield event.t, Flight.STRIKES, balls[0] if balls[1] == cue else balls[1]
        elif kind is _CUSHION:
            yield event.t, Flight.CUSHION, None
        elif kind is _LAND:
            yield event.t, Flight.LANDS, None
        elif kind is _POCKET or kind is _OFF_TABLE:
            yield event.t, Flight.GONE, None


def jump(events: Iterable[Event], cue: str) -> bool:
    """The stroke played with cue ball ``cue`` is a jump (2.11(8), decision 17): the full
    event log read by :func:`jumped`."""
    return jumped(_shot_flight(events, cue))


def _compact_flight(
    events: Iterable[tuple[float, int, int, int, int, int, int]], ci: int
) -> Iterator[tuple[float, Flight, object]]:
    for t, kind, a, b, _cushion, _pocket, _direction in events:
        if kind == _C_OVER:
            if a == ci:
                yield t, Flight.ABOVE, b
        elif a != ci and b != ci:
            continue
        elif kind == _C_BALL_BALL:
            yield t, Flight.STRIKES, a if b == ci else b
        elif kind == _C_CUSHION:
            yield t, Flight.CUSHION, None
        elif kind == _C_LAND:
            yield t, Flight.LANDS, None
        elif kind in (_C_POCKET, _C_OFF_TABLE):
            yield t, Flight.GONE, None


def jump_compact(events: Iterable[tuple[float, int, int, int, int, int, int]], ci: int) -> bool:
    """:func:`jump` for a shot of ``onered.physics.simulate_compact``: its ``events``, the
    cue ball by its index ``ci`` in the batch's ``ball_ids``."""
    return jumped(_compact_flight(events, ci))
