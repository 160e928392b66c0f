"""What the marker's pad and the play page may offer now, from the referee's knowledge.

:func:`onered.rules.possible.possible` says, in the rules' own terms, which scoring parts and
first hits are possible for the player to play; this module only names them the way the
pages do — the marker's taps (:class:`onered.game.marking.Part`), the balls by their role for
the striker — and adds the balls in baulk a player from hand may not strike directly. The
pages show each ``why`` from their catalogue (``reason.<code>``), never decide it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from onered.game.marking import Hit, Mark, Part, Role
from onered.rules import GameState, ScoreKind
from onered.rules.model import IN_OFF_OF, POT_OF, Ball
from onered.rules.possible import Reason, Why, balls_in_baulk, possible


def why_json(why: Why | None) -> dict[str, str] | None:
    """A reason as the pages read it: ``{"reason": code, "ball": colour}`` or ``null``."""
    if why is None:
        return None
    out = {"reason": why.reason.value}
    if why.ball is not None:
        out["ball"] = why.ball.value
    return out


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


def pad_json(state: GameState) -> dict[str, object]:
    """``stroke``: why no stroke can be marked (``null``: one can); ``parts``, ``first_hit``
    and ``off_table``: each tap of the pad with why it is impossible now (``null``: it is
    possible); ``in_baulk``: the balls whose centre is in baulk."""
    p = pad(state)
    return {
        "stroke": why_json(p.stroke),
        "parts": {k.value: why_json(v) for k, v in p.parts.items()},
        "first_hit": {k.value: why_json(v) for k, v in p.first_hit.items()},
        "off_table": {k.value: why_json(v) for k, v in p.off_table.items()},
        "in_baulk": [b.value for b in balls_in_baulk(state)],
    }


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
