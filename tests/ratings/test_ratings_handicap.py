"""Handicap starts from ratings: the race model and the proposals it makes."""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.ratings.glicko2 import Rating, RatingError
from onered.ratings.handicap import (
    UNIT,
    Trial,
    fit_starts,
    fit_unit,
    propose,
    propose_for,
    race,
    share_for,
    win_chance,
)


@given(st.floats(0.01, 0.99), st.integers(1, 40), st.integers(1, 40))
def test_a_race_of_whole_lumps_is_the_negative_binomial_sum(p: float, a: int, b: int) -> None:
    exact = sum(comb(a - 1 + k, k) * p**a * (1 - p) ** k for k in range(b))
    assert race(p, a, b) == pytest.approx(exact, abs=1e-9)


@given(st.floats(1e-6, 1.0 - 1e-6), st.floats(0.05, 50.0), st.floats(0.05, 50.0))
def test_one_of_the_two_wins_the_race(p: float, a: float, b: float) -> None:
    assert race(p, a, b) + race(1.0 - p, b, a) == pytest.approx(1.0, abs=1e-9)


@given(st.floats(0.02, 0.98), st.sampled_from([50, 100, 200, 300]))
def test_the_share_gives_back_the_expected_score(expected: float, target: int) -> None:
    p = share_for(expected, target)
    assert win_chance(p, target) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("target", [50, 100, 200])
def test_level_players_get_no_start(target: int) -> None:
    assert propose(Rating(1700.0, 80.0), Rating(1700.0, 80.0), target).handicap == (0, 0)


ratings = st.builds(Rating, st.floats(1000.0, 2200.0), st.floats(30.0, 350.0))


@given(ratings, ratings, st.sampled_from([50, 100, 200]))
def test_the_weaker_gets_a_start_below_the_target_and_swapping_swaps_it(
    a: Rating, b: Rating, target: int
) -> None:
    one, other = propose(a, b, target), propose(b, a, target)
    assert one.handicap == other.handicap[::-1]
    assert 0 in one.handicap
    assert all(0 <= h < target for h in one.handicap)
    if a.rating < b.rating and one.handicap != (0, 0):
        assert one.handicap[0] > 0
    assert one.level + other.level == pytest.approx(1.0)


@given(st.floats(0.001, 0.5), st.floats(0.001, 0.5), st.sampled_from([50, 100, 200]))
def test_a_weaker_player_never_gets_less(e1: float, e2: float, target: int) -> None:
    weaker, stronger = min(e1, e2), max(e1, e2)
    assert propose_for(weaker, target).handicap[0] >= propose_for(stronger, target).handicap[0]


@given(st.floats(0.05, 0.5), st.sampled_from([100, 200]))
def test_the_start_makes_the_game_nearly_even(expected: float, target: int) -> None:
    proposal = propose_for(expected, target)
    p = share_for(expected, target)
    h = proposal.handicap[0]
    # Whole points: the chance with the start is within one point's worth of one half.
    below = win_chance(p, target, (max(0, h - 1), 0))
    above = win_chance(p, target, (min(target - 1, h + 1), 0))
    assert below <= 0.5 + 1e-9 or h == 0
    assert above >= 0.5 - 1e-9 or h == target - 1
    assert proposal.with_handicap == pytest.approx(win_chance(p, target, (h, 0)))


def test_a_longer_game_needs_a_bigger_start_but_a_smaller_share_of_it() -> None:
    short, long = propose_for(0.3, 100), propose_for(0.3, 200)
    assert long.handicap[0] > short.handicap[0]
    assert long.handicap[0] / 200 < short.handicap[0] / 100


def test_the_lump_size_is_found_again_from_the_shares_it_makes() -> None:
    p = 0.35
    wins = race(p, 100 / UNIT, 100 / UNIT)
    assert fit_unit(p, wins, 100) == pytest.approx(UNIT, rel=1e-6)


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: propose_for(0.0, 100), "expected"),
        (lambda: propose_for(0.3, 0), "target"),
        (lambda: propose_for(0.3, 100, unit=0.0), "unit"),
        (lambda: win_chance(0.4, 100, (100, 0)), "handicap"),
        (lambda: fit_unit(0.4, 0.6, 100), "no lump size"),
        (lambda: race(0.4, 0.0, 1.0), "lumps"),
    ],
)
def test_bad_input_is_refused_by_name(call: object, name: str) -> None:
    with pytest.raises(RatingError, match=name):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(("expected", "unit"), [(0.2, 20.0), (0.35, 8.0), (0.1, 60.0)])
def test_the_fit_finds_the_chance_and_the_lump_size_again(expected: float, unit: float) -> None:
    p = share_for(expected, 100, unit)
    n = 1_000_000
    trials = [
        Trial(start, round(n * win_chance(p, 100, (start, 0), unit)), n) for start in (0, 30, 60)
    ]
    found_e, found_unit = fit_starts(trials, 100)
    assert found_e == pytest.approx(expected, abs=0.005)
    assert found_unit == pytest.approx(unit, rel=0.05)
    with pytest.raises(RatingError, match="trials"):
        fit_starts([Trial(100, 1, 2)], 100)
