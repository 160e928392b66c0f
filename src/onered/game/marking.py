"""Mark mode: what a marker taps at a real table, turned into a referee ``stroke`` line.

The marker sees the stroke, not coordinates: "cannon", "pot red", "in-off off the red",
"miss", a foul with its code, "crossed the baulk line", "touching ball". A combination
("cannon + in-off off red") is a set of parts. :func:`compose` turns a :class:`Mark` into the
protocol's ``stroke`` object for the striker to play; the referee then judges it (points,
limits, calls). Balls are named by their role for the striker — the red, the opponent's
ball, his own ball — since the marker thinks that way and the colours follow from the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from onered.errors import OneredError
from onered.rules import Ball, FoulCode, GameState


class MarkError(OneredError, ValueError):
    """A combination of taps that no stroke can produce; the message names the taps."""

    default_code = "mark"


class Part(Enum):
    """What a stroke did, as a marker taps it."""

    CANNON = "cannon"
    POT_RED = "pot_red"
    POT_OPPONENT = "pot_opponent"
    IN_OFF_RED = "in_off_red"
    IN_OFF_OPPONENT = "in_off_opponent"
    NO_SCORE = "no_score"  # an object ball was hit, nothing scored: the visit ends
    MISS = "miss"  # no object ball touched (the referee's foul "miss")


class Role(Enum):
    """A ball as seen by the striker."""

    RED = "red"
    OPPONENT = "opponent"
    OWN = "own"


class Hit(Enum):
    """The object ball the cue ball touched first, when the marker says so."""

    RED = "red"
    OPPONENT = "opponent"
    BOTH = "both"


#: Fouls the marker can call: every code of the protocol the caller gives. The others
#: (miss, off_table, the limits, baulk_line) are derived by the referee from the stroke.
CALLER_FOULS: tuple[FoulCode, ...] = (
    FoulCode.WRONG_BALL,
    FoulCode.DOUBLE_HIT,
    FoulCode.BALLS_MOVING,
    FoulCode.FEET_OFF_FLOOR,
    FoulCode.BAD_FROM_HAND,
    FoulCode.IN_OFF_FROM_HAND,
    FoulCode.JUMP,
    FoulCode.PUSH,
    FoulCode.TOUCHED_BALL,
    FoulCode.BEFORE_SPOTTING,
)

_SCORING = frozenset(
    {Part.CANNON, Part.POT_RED, Part.POT_OPPONENT, Part.IN_OFF_RED, Part.IN_OFF_OPPONENT}
)


@dataclass(frozen=True, slots=True)
class Mark:
    """One stroke as marked.

    ``parts``: what the stroke did (empty only for a foul). ``fouls``: codes the marker
    called. ``first_hit``: which ball the cue ball hit first, when it matters and cannot be
    told from the parts. ``off_table``: balls forced off the table. ``struck``: ``False`` for
    a foul committed before any stroke (2.12.1). ``out_of_turn``: the player who was *not* to
    play struck (2.11(5)).
    """

    parts: frozenset[Part] = frozenset()
    fouls: frozenset[FoulCode] = frozenset()
    first_hit: Hit | None = None
    crossed_baulk: bool = False
    touching: bool = False
    off_table: frozenset[Role] = frozenset()
    struck: bool = True
    out_of_turn: bool = False


def _names(parts: frozenset[Part]) -> str:
    return " + ".join(p.value for p in Part if p in parts)


def _check(mark: Mark) -> None:
    parts = mark.parts
    if not mark.struck:
        if parts or mark.first_hit or mark.crossed_baulk or mark.touching or mark.off_table:
            raise MarkError(
                "struck: a foul before the stroke (struck: false) takes only foul codes, "
                f"not the parts {_names(parts) or 'or flags'}"
            )
        if not mark.fouls and not mark.out_of_turn:
            raise MarkError("fouls: a foul before the stroke needs a foul code")
        return
    if not parts and not mark.fouls and not mark.off_table and not mark.out_of_turn:
        raise MarkError(
            "parts: nothing marked (tap what the stroke did, or a foul)", code="mark_empty"
        )
    for alone in (Part.NO_SCORE, Part.MISS):
        if alone in parts and len(parts) > 1:
            raise MarkError(f"parts: {alone.value!r} cannot go with {_names(parts - {alone})}")
    if Part.IN_OFF_RED in parts and Part.IN_OFF_OPPONENT in parts:
        raise MarkError("parts: an in-off is off one ball: in_off_red or in_off_opponent, not both")
    if Part.MISS in parts and mark.first_hit is not None:
        raise MarkError("first_hit: a miss touched no object ball")
    if Part.CANNON in parts and mark.first_hit is not None:
        if Part.IN_OFF_RED in parts and mark.first_hit is Hit.OPPONENT:
            raise MarkError(
                "first_hit: with a cannon, an in-off off the red means the red was hit first"
            )
        if Part.IN_OFF_OPPONENT in parts and mark.first_hit is Hit.RED:
            raise MarkError(
                "first_hit: with a cannon, an in-off off the opponent's ball means that ball "
                "was hit first"
            )
    if mark.first_hit is Hit.BOTH and Part.CANNON not in parts:
        raise MarkError("first_hit: both balls hit at once is a cannon: add the cannon")
    if Role.OWN in mark.off_table and (parts & {Part.IN_OFF_RED, Part.IN_OFF_OPPONENT}):
        raise MarkError("off_table: the cue ball went in-off; it cannot also leave the table")
    if Role.RED in mark.off_table and Part.POT_RED in parts:
        raise MarkError("off_table: the red was potted; it cannot also leave the table")
    if Role.OPPONENT in mark.off_table and Part.POT_OPPONENT in parts:
        raise MarkError("off_table: the opponent's ball was potted; it cannot also leave the table")


def _first_hit(mark: Mark) -> Hit | None:
    parts = mark.parts
    if mark.first_hit is not None:
        return mark.first_hit
    if Part.MISS in parts:
        return None
    if Part.IN_OFF_OPPONENT in parts:
        return Hit.OPPONENT
    if Part.IN_OFF_RED in parts or Part.POT_RED in parts:
        return Hit.RED
    if Part.POT_OPPONENT in parts:
        return Hit.OPPONENT
    if parts or mark.fouls or mark.off_table or mark.out_of_turn:
        # A cannon, a stroke that scored nothing, or a foul that is not a miss: the cue ball
        # touched an object ball, taken as the red unless the marker said otherwise.
        return Hit.RED
    return None


def striker_of(state: GameState, mark: Mark) -> int:
    """The index of the player who struck."""
    return 1 - state.to_play if mark.out_of_turn else state.to_play


def compose(state: GameState, mark: Mark) -> dict[str, object]:
    """The protocol ``stroke`` line for ``mark`` played from ``state``; raises
    :class:`MarkError` for a combination no stroke can produce. The referee still judges
    the line (e.g. a cannon while the opponent's ball is off the table is its error)."""
    _check(mark)
    s = striker_of(state, mark)
    me: Ball = state.match.balls[s]
    opponent: Ball = state.match.balls[1 - s]
    role = {Role.RED: Ball.RED, Role.OPPONENT: opponent, Role.OWN: me}
    line: dict[str, object] = {"type": "stroke"}
    if mark.out_of_turn:
        line["striker"] = state.match.players[s]
    fouls = set(mark.fouls)
    if mark.out_of_turn:
        fouls.add(FoulCode.OUT_OF_TURN)
    if not mark.struck:
        line["struck"] = False
        line["fouls"] = [f.value for f in FoulCode if f in fouls]
        return line
    hit = _first_hit(mark)
    names = {Hit.RED: "red", Hit.OPPONENT: opponent.value, Hit.BOTH: "both"}
    line["first_hit"] = None if hit is None else names[hit]
    if Part.CANNON in mark.parts:
        line["cannon"] = True
    potted: list[Ball] = []
    if Part.POT_RED in mark.parts:
        potted.append(Ball.RED)
    if Part.POT_OPPONENT in mark.parts:
        potted.append(opponent)
    if mark.parts & {Part.IN_OFF_RED, Part.IN_OFF_OPPONENT}:
        potted.append(me)
    if potted:
        line["potted"] = [b.value for b in potted]
    if mark.off_table:
        line["off_table"] = [role[r].value for r in Role if r in mark.off_table]
    if fouls:
        line["fouls"] = [f.value for f in FoulCode if f in fouls]
    if mark.crossed_baulk:
        line["crossed_baulk"] = True
    if mark.touching:
        line["touching"] = True
    return line
