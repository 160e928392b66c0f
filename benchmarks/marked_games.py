"""Marked games made at random for the web's benchmarks (``bench_web``, ``web_pages``):
the marker's taps of every kind, judged by the referee as they are made."""

from __future__ import annotations

import random
from collections.abc import Sequence

from onered.game.marking import Hit, Mark, Part
from onered.game.session import Session, SessionError
from onered.rules import FoulCode, Match, Option

TAPS: tuple[Mark, ...] = (
    Mark(parts=frozenset({Part.NO_SCORE})),
    Mark(parts=frozenset({Part.CANNON})),
    Mark(parts=frozenset({Part.POT_RED})),
    Mark(parts=frozenset({Part.IN_OFF_RED})),
    Mark(parts=frozenset({Part.CANNON, Part.POT_RED})),
    Mark(parts=frozenset({Part.POT_OPPONENT})),
    Mark(parts=frozenset({Part.MISS})),
    Mark(fouls=frozenset({FoulCode.PUSH}), first_hit=Hit.RED),
)
#: How often each of :data:`TAPS` is tapped in a long game (mostly no score and cannons).
WEIGHTS = (30, 20, 15, 5, 5, 10, 10, 5)


def tapped(
    players: tuple[str, str],
    strokes: int,
    rng: random.Random,
    *,
    target: int = 100_000,
    weights: Sequence[int] | None = None,
) -> Session:
    """A game of ``strokes`` strokes (fewer when one wins first), taps drawn from
    :data:`TAPS` (by ``weights``, or evenly), foul options taken at random."""
    game = Session.new(Match(target=target, players=players))
    while game.state.stroke_no < strokes and not game.over:
        if game.state.choice_pending:
            game.choose(rng.choice((Option.AS_THEY_LIE, Option.FROM_D)))
            continue
        try:
            game.mark(rng.choices(TAPS, weights)[0] if weights else rng.choice(TAPS))
        except SessionError:
            continue  # a tap impossible in this position (say, a ball off the table)
    return game


def generate(strokes: int, seed: int) -> Session:
    """A marked game of ``strokes`` strokes between Ivanov and Petrov, judged as it is made."""
    return tapped(("Ivanov", "Petrov"), strokes, random.Random(seed), weights=WEIGHTS)
