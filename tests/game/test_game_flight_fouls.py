"""The jump and balls off the table in played games (decisions 17 and 18 of docs/rules.md):
the game loop reads them from the simulated shot through the bridge, the referee judges them,
and the table afterwards is the referee's (a cue ball off the table in hand)."""

from __future__ import annotations

from game_support import P2, real_game_at
from onered.game.model import Action
from onered.physics.types import EventKind, Strike
from onered.rules import Ball, FoulCode


def test_decision_17_a_cue_ball_struck_down_over_the_red_is_a_jump_in_the_game() -> None:
    game = real_game_at({Ball.WHITE: (0.9, 1.0), Ball.RED: (0.9, 1.3), Ball.YELLOW: (0.3, 2.0)})
    record = game.play(Action(Strike(5.0, 90.0, 0.0, 0.3, 60.0)))
    kinds = [(e.kind, e.balls) for e in record.result.events]
    assert (EventKind.OVER, ("white", "red")) in kinds
    assert FoulCode.JUMP in record.stroke.fouls
    assert record.verdict.foul is not None
    assert FoulCode.JUMP in record.verdict.foul.codes
    assert record.verdict.points == 0
    assert record.verdict.next == P2


def test_decision_18_a_cue_ball_flown_off_the_table_is_in_hand_for_its_owner() -> None:
    game = real_game_at({Ball.WHITE: (0.9, 3.2), Ball.RED: (0.9, 1.0), Ball.YELLOW: (0.3, 2.0)})
    record = game.play(Action(Strike(5.0, 90.0, elevation=45.0)))
    assert record.stroke.off_table == (Ball.WHITE,)
    assert record.verdict.foul is not None
    assert FoulCode.OFF_TABLE in record.verdict.foul.codes
    assert Ball.WHITE in record.verdict.in_hand
    assert Ball.WHITE not in game.state.table
