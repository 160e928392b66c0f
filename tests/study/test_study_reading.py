"""A shots study's strokes, simulated in one batch, are read as the game loop reads a
played stroke: the same verdict as ``Game.play`` at the study's position, the pockets
``bridge.pocket_of`` reads in the shot's events, and the same rests."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from onered import bridge
from onered.game import Game, PhysicsSimulator
from onered.game.model import Action
from onered.physics.types import Strike
from onered.rules import Ball
from onered.study.work import _position_state, read_strokes

BALLS = {"white": (0.889, 1.7845), "red": (1.2, 3.1)}


@settings(max_examples=25)
@given(
    aims=st.lists(st.floats(0.0, 360.0), min_size=1, max_size=10),
    speed=st.floats(0.4, 8.0),
    side=st.floats(-0.4, 0.4),
    elevation=st.floats(0.0, 30.0),
)
def test_study_strokes_are_read_as_the_game_loop_reads_them(
    aims: list[float], speed: float, side: float, elevation: float
) -> None:
    simulator = PhysicsSimulator()
    strikes = [Strike(speed, aim, side, 0.0, elevation) for aim in aims]
    read = read_strokes(BALLS, strikes, simulator.params, simulator.table)
    balls = {Ball(b): p for b, p in BALLS.items()}
    for strike, shot in zip(strikes, read, strict=True):
        game = Game.resume(_position_state(BALLS), balls, simulator)
        record = game.play(Action(strike))
        assert shot.verdict == record.verdict
        events = record.result.events
        assert shot.pockets == {b: bridge.pocket_of(events, b) for b in bridge.potted(events)}
        assert shot.rest == record.result.rest  # the tables' rests: the game loop's, bit for bit
