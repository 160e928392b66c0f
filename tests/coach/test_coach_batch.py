"""The coach's noise samples, simulated in one batch, are read as the game loop reads a
played stroke: the same referee's state and verdict as ``Game.play``, on the table and
from hand (where a cushion contact is placed on the cue ball's path)."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from coach_support import OPEN, position
from onered.coach import Coach, level_strength
from onered.game import Game
from onered.game.model import Action
from onered.physics.types import Strike
from onered.rules import Ball

#: A white in hand, the yellow in baulk (a direct stroke at it is a foul from hand).
IN_HAND = {Ball.RED: (1.3, 2.4), Ball.YELLOW: (0.5, 0.45)}
PLACED = (0.95, 0.62)

_COACH = Coach(level_strength("amateur"))


@settings(max_examples=30)
@given(
    aims=st.lists(st.floats(0.0, 360.0), min_size=1, max_size=10),
    speed=st.floats(0.4, 7.0),
    height=st.floats(-0.5, 0.5),
    elevation=st.floats(0.0, 25.0),
    hand=st.booleans(),
)
def test_samples_are_judged_as_the_game_loop_judges_them(
    aims: list[float], speed: float, height: float, elevation: float, hand: bool
) -> None:
    if hand:
        start = position(OPEN)
        pos = replace(start, balls=dict(IN_HAND), state=replace(start.state, table=IN_HAND))
        placed: tuple[float, float] | None = PLACED
    else:
        pos, placed = position(OPEN), None
    strikes = [Strike(speed, aim, 0.0, height, elevation) for aim in aims]
    judged = _COACH._judged(pos, placed, strikes)
    assert len(judged) == len(strikes)
    for strike, (state, verdict) in zip(strikes, judged, strict=True):
        game = Game.resume(pos.state, pos.balls, _COACH.simulator)
        record = game.play(Action(strike, placed=placed))
        assert verdict == record.verdict
        assert state == game.state
