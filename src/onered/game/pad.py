"""What the marker's pad may offer now, and the refusal of a tap the position forbids.

:func:`onered.rules.possible.possible` says, in the rules' own terms, which scoring parts and
first hits are possible for the player to play; :func:`pad` names them the way a marker
taps them (:class:`onered.game.marking.Part`, the balls by their role for the striker), and
:func:`impossible` says why a marked stroke cannot have happened now. The session refuses
such a stroke (:meth:`onered.game.session.Session.check_mark` calls
:func:`check_possible`), so every interface that marks gets the same refusal; an interface
shows each ``why`` in its own words, never decides it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from onered.game.marking import Hit, Mark, MarkError, Part, Role
from onered.rules import GameState, ScoreKind
from onered.rules.model import IN_OFF_OF, POT_OF, Ball
from onered.rules.possible import Reason, Why, possible


@dataclass(frozen=True, slots=True)
class Pad:
    """Each tap of the marker's pad with why it is impossible now (``None``: possible)."""

    stroke: Why | None
    parts: Mapping[Part, Why | None]
    first_hit: Mapping[Hit, Why | None]
    off_table: Mapping[Role, Why | None]


def pad(state: GameState) -> Pad:
    """The pad for the player to play, from :func:`onered.rules.possible.possible`."""
    p = possible(state)
    if p.striker is None:
        over = p.stroke
        return Pad(
            stroke=over,
            parts=dict.fromkeys(Part, over),
            first_hit=dict.fromkeys(Hit, over),
            off_table=dict.fromkeys(Role, over),
        )
    opponent = state.match.balls[1 - p.striker]
    scores = p.scores
    hits = p.first_hit
    object_balls = (opponent, Ball.RED)
    # "No score" says an object ball was hit: one must be on the table.
    no_object = None if any(hits[b] is None for b in object_balls) else Why(Reason.NO_OBJECT_BALL)
    return Pad(
        stroke=None,
        parts={
            Part.CANNON: scores[ScoreKind.CANNON],
            Part.POT_RED: scores[POT_OF[Ball.RED]],
            Part.POT_OPPONENT: scores[POT_OF[opponent]],
            Part.IN_OFF_RED: scores[IN_OFF_OF[Ball.RED]],
            Part.IN_OFF_OPPONENT: scores[IN_OFF_OF[opponent]],
            Part.NO_SCORE: no_object,
            Part.MISS: None,
        },
        first_hit={
            Hit.RED: hits[Ball.RED],
            Hit.OPPONENT: hits[opponent],
            Hit.BOTH: scores[ScoreKind.CANNON],
        },
        off_table={
            Role.RED: hits[Ball.RED],
            Role.OPPONENT: hits[opponent],
            Role.OWN: None,  # on the table, or in hand and being played: it can always leave
        },
    )


def impossible(state: GameState, mark: Mark) -> Why | None:
    """Why a tap of ``mark`` cannot have happened now (the first such tap), or ``None``. A
    stroke out of turn is left to the referee (it is judged for the other player); so is a
    foul before any stroke (it taps nothing of the pad)."""
    if mark.out_of_turn:
        return None
    p = pad(state)
    if p.stroke is not None or not mark.struck:
        return p.stroke
    for part in Part:
        if part in mark.parts and p.parts[part] is not None:
            return p.parts[part]
    hit = mark.first_hit
    if hit is not None and p.first_hit[hit] is not None:
        return p.first_hit[hit]
    for role in Role:
        if role in mark.off_table and p.off_table[role] is not None:
            return p.off_table[role]
    return None


def why_params(why: Why) -> dict[str, object]:
    """A reason as an error's params (and the pages' JSON): ``{"reason": code, "ball":
    colour}``, the ball left out when the reason is about no one ball."""
    out: dict[str, object] = {"reason": why.reason.value}
    if why.ball is not None:
        out["ball"] = why.ball.value
    return out


class ImpossibleMarkError(MarkError):
    """Taps the position forbids now (``why``): code ``impossible``, params the reason's
    (:func:`why_params`)."""

    default_code = "impossible"

    def __init__(self, *, why: Why) -> None:
        ball = f" ({why.ball.value})" if why.ball is not None else ""
        super().__init__(f"impossible now: {why.reason.value}{ball}", params=why_params(why))
        self.why = why


def check_possible(state: GameState, mark: Mark) -> None:
    """Refuse (:class:`ImpossibleMarkError`) a marked stroke the position forbids now."""
    why = impossible(state, mark)
    if why is not None:
        raise ImpossibleMarkError(why=why)
