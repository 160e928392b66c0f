"""A played stroke simulated again (``onered.game.shots``) is the stroke that was played."""

from __future__ import annotations

import pytest

from onered.game import PhysicsSimulator
from onered.game.marking import Mark, Part
from onered.game.model import Action
from onered.game.session import Session, SessionError
from onered.game.shots import stroke_again
from onered.physics.types import Strike
from onered.rules import Match

P1, P2 = "Ivanov", "Petrov"


def test_a_played_stroke_simulated_again_is_the_same_shot() -> None:
    session = Session.new(Match(target=30, players=(P1, P2)), simulator=PhysicsSimulator())
    played = session.play(
        Action(strike=Strike(speed=2.2, aim=88.5, height=0.2), placed=(0.95, 0.65))
    )
    again = stroke_again(session, 1)
    assert again.result == played.stroke.result
    assert again.before == played.stroke.before


@pytest.mark.parametrize("seq", [0, 2, -1])
def test_a_line_that_is_no_played_stroke_is_refused(seq: int) -> None:
    session = Session.new(Match(target=30, players=(P1, P2)), simulator=PhysicsSimulator())
    session.play(Action(strike=Strike(speed=2.2, aim=88.5), placed=(0.95, 0.65)))
    with pytest.raises(SessionError) as refused:
        stroke_again(session, seq)
    assert refused.value.code == "no_line"
    assert refused.value.params == {"seq": seq}


def test_a_marked_stroke_has_no_shot() -> None:
    session = Session.new(Match(target=30, players=(P1, P2)))
    session.mark(Mark(parts=frozenset({Part.NO_SCORE})))
    with pytest.raises(SessionError, match="no simulated stroke"):
        stroke_again(session, 1)
