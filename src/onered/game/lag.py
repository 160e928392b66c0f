"""The lag (2.3.1, decision 14 of ``docs/rules.md``), simulated.

Both players play from behind the baulk line up the table to the top cushion and back; the
ball that comes to rest nearest the bottom cushion wins, and its player chooses the order
and his ball. Each lag stroke is simulated with the striker's ball alone on the table (the
two are played side by side and do not meet). A ball that does not reach the top cushion,
or falls into a pocket, loses; when both lose, or both rest equally near, the lag is
played again.
"""

from __future__ import annotations

from onered.game.model import Lag, LagChoice, LagStroke
from onered.game.simulator import Simulator
from onered.physics.types import EventKind, Strike
from onered.rules import Ball, Match
from onered.table import Point

#: Where each player's ball starts: behind the baulk line, either side of the D.
LAG_STARTS: tuple[Point, Point] = ((0.589, 0.60), (1.189, 0.60))
#: Rests nearer than this to each other (metres) are a tie.
TIE = 1e-4


def lag_stroke(simulator: Simulator, player: str, start: Point, strike: Strike) -> LagStroke:
    """One player's lag stroke, simulated with his ball alone on the table."""
    result = simulator.simulate({Ball.WHITE.value: start}, Ball.WHITE.value, strike)
    reached_top = any(e.kind is EventKind.CUSHION and e.cushion == "top" for e in result.events)
    return LagStroke(
        player=player,
        start=start,
        strike=strike,
        rest=result.rest.get(Ball.WHITE.value),
        reached_top=reached_top,
    )


def lag_winner(a: LagStroke, b: LagStroke) -> int | None:
    """0 or 1: whose ball rests nearer the bottom cushion; ``None`` for a tie (play again).
    A stroke that is not valid (potted, or short of the top cushion) loses."""
    if not a.valid and not b.valid:
        return None
    if not a.valid:
        return 1
    if not b.valid or a.rest is None or b.rest is None:
        return 0
    if abs(a.rest[1] - b.rest[1]) <= TIE:
        return None
    return 0 if a.rest[1] < b.rest[1] else 1


def match_after_lag(lag: Lag, loser: str, target: int) -> Match:
    """The match the lag decides: ``players[0]`` plays first (the winner, unless he chose
    to play second), each with the ball the winner's choice gives him."""
    choice: LagChoice = lag.choice
    other = choice.ball.other_cue_ball
    if choice.play_first:
        return Match(target=target, players=(lag.winner, loser), balls=(choice.ball, other))
    return Match(target=target, players=(loser, lag.winner), balls=(other, choice.ball))
