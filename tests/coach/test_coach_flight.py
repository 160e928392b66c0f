"""The coach on strokes that fly: the chance of a jump and of a ball leaving the table,
within the chance of a foul, said in both languages when it is not negligible."""

from __future__ import annotations

from dataclasses import replace

import pytest

from coach_support import position
from onered.coach import Advice, AdviceError, Odds, advise
from onered.coach.report import advice_json, advice_text
from onered.coach.words import numbers_words, odds_words
from onered.game.model import Action
from onered.physics.types import Strike
from onered.rules import Ball
from onered.table import BALL_RADIUS
from onered.texts import Lang

#: The white a hair from the left cushion, the red 20 cm in front of it: the cue comes over
#: the rail at about 30 degrees, and straight at the red at 6 m/s the white jumps it and
#: flies off the table.
UNDER_CUSHION = {
    Ball.WHITE: (BALL_RADIUS + 0.002, 1.6),
    Ball.RED: (BALL_RADIUS + 0.202, 1.6),
    Ball.YELLOW: (1.5, 3.0),
}
HARD = Action(Strike(6.0, 0.0))


@pytest.fixture(scope="module")
def hard_advice() -> Advice:
    return advise(position(UNDER_CUSHION), "pro", count=3, samples=40, seed=2, played=HARD)


def test_a_stroke_that_flies_states_its_jump_and_off_table_chances(hard_advice: Advice) -> None:
    played = hard_advice.played
    assert played is not None
    o = played.odds
    assert played.action.strike.elevation > 25.0  # raised over the rail by the coach too
    assert o.p_jump > 0.9
    assert o.p_off_table > 0.1
    # both are fouls: within the chance of a foul, counted in the expected value
    assert max(o.p_jump, o.p_off_table) <= o.p_foul
    assert o.p_score + o.p_foul <= 1
    for p in (o.p_jump, o.p_off_table):
        assert (p * 40) == pytest.approx(round(p * 40))


def test_the_suggestions_are_worth_more_than_the_stroke_that_flies(hard_advice: Advice) -> None:
    played = hard_advice.played
    assert played is not None
    for s in hard_advice.suggestions:
        assert s.odds.value > played.odds.value
        assert 0.0 <= s.odds.p_jump <= s.odds.p_foul
        assert 0.0 <= s.odds.p_off_table <= s.odds.p_foul


def test_the_chances_are_said_in_both_languages(hard_advice: Advice) -> None:
    en = advice_text(hard_advice, Lang.EN)
    ru = advice_text(hard_advice, Lang.RU)
    assert "jump shot " in en
    assert "ball off the table " in en
    assert "перескок " in ru
    assert "выскакивание шара за борт " in ru
    assert "кий поднят на " in ru  # the cue's elevation among the numbers
    data = advice_json(hard_advice, Lang.EN)
    odds = data["played"]["odds"]
    assert odds["p_jump"] == hard_advice.played.odds.p_jump  # type: ignore[union-attr]
    assert odds["p_off_table"] == hard_advice.played.odds.p_off_table  # type: ignore[union-attr]
    assert "jump shot" in data["played"]["words"]["odds"]


ODDS = Odds(
    samples=200,
    p_score=0.5,
    p_intended=0.5,
    p_foul=0.1,
    points=1.0,
    value=1.0,
    value_se=0.1,
    value_scoring=4.0,
    value_failing=-2.0,
    points_scoring=2.0,
)


def test_flight_chances_are_said_whenever_they_are_not_nought() -> None:
    assert odds_words(ODDS, True, Lang.EN) == (
        "scores 50%, as planned 50%, foul 10%, expected +1.0 (stroke +1.0, leave +0.0)"
    )
    rare = replace(ODDS, p_jump=1 / 200)  # one play of 200: said, not rounded away
    assert "foul 10% (jump shot <1%)" in odds_words(rare, True, Lang.EN)
    assert "штраф 10 % (перескок <1 %)" in odds_words(rare, True, Lang.RU)
    some = replace(ODDS, p_jump=0.03, p_off_table=0.01)
    assert "foul 10% (jump shot 3%, ball off the table 1%)" in odds_words(some, True, Lang.EN)
    assert "штраф 10 % (перескок 3 %, выскакивание шара за борт 1 %)" in odds_words(
        some, True, Lang.RU
    )
    only = replace(ODDS, p_off_table=0.05)
    assert "foul 10% (ball off the table 5%)" in odds_words(only, True, Lang.EN)


def test_a_level_cue_says_no_elevation(hard_advice: Advice) -> None:
    action = hard_advice.suggestions[0].action
    level = replace(action, strike=replace(action.strike, elevation=0.0))
    assert "cue raised" not in numbers_words(level, Lang.EN)
    raised = replace(action, strike=replace(action.strike, elevation=12.34))
    assert "cue raised 12.3°" in numbers_words(raised, Lang.EN)
    assert "кий поднят на 12,3°" in numbers_words(raised, Lang.RU)


def test_a_stroke_from_hand_played_without_a_placement_is_named() -> None:
    balls = {Ball.RED: (1.5, 3.0), Ball.YELLOW: (0.4, 1.2)}
    with pytest.raises(AdviceError, match="played: "):
        advise(position(balls), "beginner", samples=5, count=1, played=Action(Strike(1.0, 90.0)))
