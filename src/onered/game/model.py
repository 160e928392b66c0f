"""The game loop's values: what a player sees, what he does, and what the table remembers.

All frozen. Balls are ``onered.rules.Ball`` values and points are ``(x, y)`` in metres in the
table frame of ``docs/table.md``; the physics speaks in ball *names* (plain strings),
and only the game loop translates between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from onered.errors import OneredError
from onered.physics.types import ShotResult, Strike
from onered.rules import Ball, GameState, Option, ScoreKind, Stroke, Verdict
from onered.rules.position import write as write_position
from onered.table import Point


class GameError(OneredError, ValueError):
    """An action the game cannot take; the message names the input and what is wrong."""

    default_code = "game"


class IllegalPlacementError(GameError):
    """A cue ball placed where it may not stand: outside the D, off the table, on a ball."""

    default_code = "illegal_placement"


class IllegalActionError(GameError):
    """An action that does not fit the game's state (a placement when not in hand, a
    stroke with a choice still open, anything after the end, a malformed strike)."""

    default_code = "illegal_action"


@dataclass(frozen=True, slots=True)
class Position:
    """What a player sees before he plays: the balls on the table where they lie (a cue
    ball in hand is absent) and the referee's state (score, break, counters, whose turn)."""

    balls: Mapping[Ball, Point]
    state: GameState

    @property
    def striker(self) -> int:
        """The index (0 or 1) of the player to play."""
        return self.state.to_play

    @property
    def cue_ball(self) -> Ball:
        """The ball the player to play strikes."""
        return self.state.match.balls[self.state.to_play]

    @property
    def in_hand(self) -> bool:
        """The player to play has his ball in hand and plays from the D."""
        return self.cue_ball not in self.balls

    def __repr__(self) -> str:
        """The referee's state as its position line (``onered.rules.position``)."""
        return f"Position({write_position(self.state)!r})"

    def _repr_svg_(self) -> str:
        """The table with the balls where they stand, the score above (shown by notebooks)."""
        from onered import svg

        state = self.state
        players = state.match.players
        title = f"{players[0]} {state.score[0]} : {state.score[1]} {players[1]}"
        balls = {ball.value: p for ball, p in self.balls.items()}
        caption = f"to play: {players[state.to_play]} ({self.cue_ball.value})"
        return svg.draw_shots(balls, [], self.cue_ball.value, title=title, caption=caption)


@dataclass(frozen=True, slots=True)
class Intent:
    """What the striker meant to do, kept in the record for the reader and for statistics;
    it does not change the stroke. ``nominal`` is the strike he aimed for (before his
    execution noise), ``scores`` the parts he expected it to score (empty for a safety), and
    ``expected`` his estimate of the stroke's value (points plus the value of the leave)."""

    nominal: Strike
    scores: tuple[ScoreKind, ...] = ()
    expected: float | None = None


@dataclass(frozen=True, slots=True)
class Action:
    """A stroke as played: the cue action actually delivered and, from hand, where the cue
    ball was placed. ``intent`` is informative only."""

    strike: Strike
    placed: Point | None = None
    intent: Intent | None = None


@dataclass(frozen=True, slots=True)
class LagChoice:
    """The lag winner's choice (2.3.1, decision 14): whether he plays first, and his ball."""

    play_first: bool = True
    ball: Ball = Ball.WHITE


@dataclass(frozen=True, slots=True)
class LagStroke:
    """One player's lag stroke: his ball alone on the table from ``start``, the strike,
    where the ball came to rest (``None`` when it fell into a pocket) and whether it
    reached the top cushion."""

    player: str
    start: Point
    strike: Strike
    rest: Point | None
    reached_top: bool

    @property
    def valid(self) -> bool:
        """The stroke counts: the ball reached the top cushion and stayed on the table."""
        return self.rest is not None and self.reached_top


@dataclass(frozen=True, slots=True)
class Lag:
    """The lag: both strokes, the winner's name and his choice."""

    strokes: tuple[LagStroke, LagStroke]
    winner: str
    choice: LagChoice


@dataclass(frozen=True, slots=True)
class StrokeRecord:
    """One stroke of the game: the balls before it (a cue ball played from hand included,
    at its placement), the action, the simulated shot, the stroke as the referee was told
    it, and the verdict. ``balls_after`` is the table once the referee's placements are
    made: where the next stroke starts."""

    striker: str
    cue_ball: Ball
    before: Mapping[Ball, Point]
    action: Action
    result: ShotResult
    stroke: Stroke
    verdict: Verdict
    balls_after: Mapping[Ball, Point]

    def __repr__(self) -> str:
        """Short: the stroke's number, striker, points and the score after it."""
        v = self.verdict
        return (
            f"StrokeRecord({v.stroke}, {self.striker!r} with the {self.cue_ball.value}: "
            f"{v.points} points, {'foul, ' if v.foul else ''}score {v.score[0]}:{v.score[1]})"
        )

    def _repr_svg_(self) -> str:
        """The stroke drawn: the balls before it, their paths and where they stopped."""
        from onered import svg

        before = {ball.value: p for ball, p in self.before.items()}
        title = f"stroke {self.verdict.stroke}: {self.striker} ({self.cue_ball.value})"
        return svg.draw_shot(before, self.result, title=title)


@dataclass(frozen=True, slots=True)
class ChoiceRecord:
    """The incoming player's foul option (2.12.3) and the referee's verdict on it."""

    chooser: str
    option: Option
    verdict: Verdict
    balls_after: Mapping[Ball, Point]


Entry = StrokeRecord | ChoiceRecord
