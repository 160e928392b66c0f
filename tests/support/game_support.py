"""Helpers for the game tests: constructed positions, a scripted table, a quick AI.

The scripted table (:class:`Scripted`) stands in for the physics only here, in tests: each
stroke returns the next scripted outcome — events and where the balls that moved came to
rest — so the game loop's handling of the referee's rulings can be tested on exact,
hand-made strokes. Everything else uses the real engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from onered import rules
from onered.game import Game, PhysicsSimulator
from onered.physics import check_position
from onered.physics.types import Event, EventKind, Segment, ShotResult, Strike
from onered.players import AIPlayer, Budget, Noise, Strength
from onered.rules import Ball, Counters, GameState, Match
from onered.table import Point

P1, P2 = "Ivanov", "Petrov"
W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
ANY = Strike(speed=1.5, aim=90.0)
NO_COUNTS = Counters()
IN_D = (0.95, 0.65)

#: A quick level for tests: an amateur's hands, a small search.
QUICK = Strength(
    name="quick",
    noise=Noise(aim=0.08, speed=0.04, tip=0.02),
    budget=Budget(
        placements=3,
        window=7,
        speeds=(0.9, 1.6, 2.6),
        heights=(0.0, 0.4),
        cushion_aims=0,
        refine=3,
        fine_aims=3,
        variants=1,
        finalists=2,
        samples=4,
    ),
    continuation=3.0,
)


def quick_ai(seed: int) -> AIPlayer:
    return AIPlayer(QUICK, seed)


def hit(t: float, a: str, b: str) -> Event:
    return Event(t, EventKind.BALL_BALL, (a, b))


def cushion(t: float, ball: str, name: str) -> Event:
    return Event(t, EventKind.CUSHION, (ball,), cushion=name)


def pocket(t: float, ball: str, name: str = "top_right") -> Event:
    return Event(t, EventKind.POCKET, (ball,), pocket=name)


def baulk(t: float, ball: str, direction: str) -> Event:
    return Event(t, EventKind.BAULK_LINE, (ball,), direction=direction)


@dataclass(frozen=True)
class Step:
    """One scripted stroke: its events, where moved balls rest (potted balls: ``None``),
    and optional paths."""

    events: tuple[Event, ...] = ()
    moved: Mapping[str, Point | None] = field(default_factory=dict)
    paths: Mapping[str, tuple[Segment, ...]] = field(default_factory=dict)


class Scripted:
    """A stand-in table that plays the scripted strokes in order (tests only)."""

    def __init__(self, *steps: Step) -> None:
        self.steps = list(steps)
        self.calls: list[tuple[dict[str, Point], str, Strike]] = []

    def simulate(self, balls: Mapping[str, Point], cue_ball: str, strike: Strike) -> ShotResult:
        self.calls.append((dict(balls), cue_ball, strike))
        step = self.steps.pop(0)
        rest: dict[str, Point | None] = dict(balls)
        rest.update(step.moved)
        return ShotResult(step.events, rest, 1.0, dict(step.paths))

    def describe(self) -> dict[str, Any]:
        return {"params": {}, "table": {}}

    def check(self, balls: Mapping[str, Point]) -> None:
        check_position(balls)


def state_at(
    balls: Mapping[Ball, Point],
    *,
    to_play: int = 0,
    score: tuple[int, int] = (10, 10),
    break_: int = 0,
    counters: Counters = NO_COUNTS,
    target: int = 100,
    stroke_no: int = 10,
) -> GameState:
    """A constructed mid-game state with ``balls`` on the table."""
    start = rules.start(Match(target=target, players=(P1, P2)))
    return replace(
        start,
        table=dict(balls),
        score=score,
        to_play=to_play,
        break_=break_,
        counters=counters,
        stroke_no=stroke_no,
        red_spot=None,
    )


def game_at(balls: Mapping[Ball, Point], *steps: Step, **kwargs: Any) -> Game:
    """A game resumed at a constructed position on a scripted table."""
    return Game.resume(state_at(balls, **kwargs), balls, Scripted(*steps))


def real_game_at(balls: Mapping[Ball, Point], **kwargs: Any) -> Game:
    """A game resumed at a constructed position on the real simulated table."""
    return Game.resume(state_at(balls, **kwargs), balls, PhysicsSimulator())
