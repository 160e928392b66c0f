"""The coach's advice: candidates from the search, odds from the game loop, ranked by value."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest

from coach_support import HANGING, OPEN, position
from onered.coach import AdviceError, Coach, Odds, Reason, advise, level_strength
from onered.coach.advice import _reason
from onered.game.model import Action
from onered.physics.types import Strike
from onered.rules import Ball, ScoreKind


@pytest.fixture(scope="module")
def open_advice() -> object:
    return advise(position(OPEN), "amateur", samples=60, seed=1)


def test_suggestions_are_ranked_by_expected_value(open_advice: object) -> None:
    items = open_advice.suggestions  # type: ignore[attr-defined]
    assert len(items) == 5
    assert [s.rank for s in items] == [1, 2, 3, 4, 5]
    values = [s.odds.value for s in items]
    assert values == sorted(values, reverse=True)
    for a, b in itertools.pairwise(items):
        assert a.margin == pytest.approx(a.odds.value - b.odds.value)
        assert a.reason is not None
    assert items[-1].reason is None
    assert items[-1].margin is None


def test_suggestions_are_different_kinds_of_stroke(open_advice: object) -> None:
    items = open_advice.suggestions  # type: ignore[attr-defined]
    kinds = {(s.action.object_ball, s.scores, s.pockets, s.action.cushion_first) for s in items}
    assert len(kinds) == len(items)


def test_odds_are_shares_of_the_samples(open_advice: object) -> None:
    for s in open_advice.suggestions:  # type: ignore[attr-defined]
        o = s.odds
        assert o.samples == 60
        for p in (o.p_score, o.p_intended, o.p_foul):
            assert 0 <= p <= 1
            assert (p * 60) == pytest.approx(round(p * 60))
        assert o.p_intended <= o.p_score
        assert o.p_score + o.p_foul <= 1
        assert s.leave == pytest.approx(o.value - o.points)


def test_nominal_paths_start_at_the_balls(open_advice: object) -> None:
    advice = open_advice
    for s in advice.suggestions:  # type: ignore[attr-defined]
        cue = s.paths[Ball.WHITE]
        assert cue[0] == pytest.approx(OPEN[Ball.WHITE], abs=1e-9)
        assert len(cue) >= 2


def test_red_hanging_over_a_pocket_is_potted_first_with_high_probability() -> None:
    for level in ("beginner", "pro"):
        best = advise(position(HANGING), level, samples=100).suggestions[0]
        assert ScoreKind.POT_RED in best.scores, level
        assert best.action.object_ball is Ball.RED
        assert best.odds.p_score >= 0.9, level


def test_same_seed_same_advice() -> None:
    coach = Coach(level_strength("beginner"))
    a = coach.advise(position(OPEN), samples=20, seed=5)
    b = coach.advise(position(OPEN), samples=20, seed=5)
    assert [s.odds for s in a.suggestions] == [s.odds for s in b.suggestions]
    assert [s.action.strike for s in a.suggestions] == [s.action.strike for s in b.suggestions]


def test_from_hand_every_suggestion_has_a_placement_in_the_d() -> None:
    balls = {Ball.RED: OPEN[Ball.RED], Ball.YELLOW: OPEN[Ball.YELLOW]}
    advice = advise(position(balls), "beginner", samples=20, count=3)
    assert advice.position.in_hand
    for s in advice.suggestions:
        assert s.action.placed is not None
        assert s.paths[Ball.WHITE][0] == pytest.approx(s.action.placed, abs=1e-9)


def test_unknown_level_is_named() -> None:
    with pytest.raises(AdviceError, match="level: unknown level 'god'"):
        advise(position(OPEN), "god")


def test_a_finished_game_gets_no_advice() -> None:
    with pytest.raises(AdviceError, match="game is over"):
        advise(position(OPEN, winner=0), "beginner")


def test_overlapping_balls_are_named() -> None:
    balls = dict(OPEN)
    balls[Ball.RED] = (OPEN[Ball.WHITE][0] + 0.01, OPEN[Ball.WHITE][1])
    with pytest.raises(AdviceError, match="position: balls"):
        advise(position(balls), "beginner")


def test_counts_must_be_positive() -> None:
    with pytest.raises(AdviceError, match="count"):
        advise(position(OPEN), "beginner", count=0)
    with pytest.raises(AdviceError, match="samples"):
        advise(position(OPEN), "beginner", samples=0)


ODDS = Odds(
    samples=100,
    p_score=0.5,
    p_intended=0.5,
    p_foul=0.0,
    points=1.5,
    value=5.0,
    value_se=0.1,
    value_scoring=10.0,
    value_failing=0.0,
    points_scoring=3.0,
)


def _ev(o: Odds) -> Odds:
    """``o`` with its value made consistent with its conditional means."""
    value = o.p_score * (o.value_scoring or 0) + (1 - o.p_score) * (o.value_failing or 0)
    return replace(o, value=value, points=o.p_score * (o.points_scoring or 0))


def test_reason_more_likely_to_score() -> None:
    a = _ev(replace(ODDS, p_score=0.8))
    assert _reason(a, _ev(ODDS), 0.1) is Reason.CHANCE


def test_reason_more_points() -> None:
    a = _ev(replace(ODDS, points_scoring=5.0, value_scoring=12.0))
    assert _reason(a, _ev(ODDS), 0.1) is Reason.POINTS


def test_reason_better_leave() -> None:
    a = _ev(replace(ODDS, value_scoring=16.0))
    assert _reason(a, _ev(ODDS), 0.1) is Reason.LEAVE


def test_reason_safer() -> None:
    a = _ev(replace(ODDS, value_failing=4.0))
    assert _reason(a, _ev(ODDS), 0.1) is Reason.SAFETY


def test_reason_equal_within_the_noise() -> None:
    a = _ev(replace(ODDS, value_failing=0.2))
    assert _reason(a, _ev(ODDS), 0.5) is Reason.EQUAL


def test_the_stroke_played_is_weighed_with_the_same_draws() -> None:
    coach = Coach(level_strength("beginner"))
    first = coach.advise(position(OPEN), samples=30, count=2)
    best = first.suggestions[0]
    again = coach.advise(
        position(OPEN),
        samples=30,
        count=2,
        played=Action(best.action.strike, placed=best.action.placed),
    )
    assert again.played is not None
    assert again.played.rank == 0
    assert again.played.odds == best.odds  # the same stroke, the same draws: the same odds


def test_a_stroke_played_from_a_wrong_place_is_named() -> None:
    with pytest.raises(AdviceError, match="played: "):
        advise(position(OPEN), "beginner", samples=10, played=Action(Strike(1.0, 90.0), (0.9, 0.6)))


def test_with_the_foul_option_open_the_balls_are_advised_on_as_they_lie() -> None:
    from onered.coach.position import position_from_text

    text = 'W0.6,2.2/Y0.4,1.2/R1.5,3.0 W 10:4 0 0/0/0 - - option 5 100 0:0 WY ["A","B"]'
    pending = position_from_text(text)
    assert pending.state.choice_pending
    advice = advise(pending, "beginner", samples=10, count=2)
    assert advice.suggestions[0].paths[Ball.WHITE][0] == pytest.approx(OPEN[Ball.WHITE])
