"""Glicko-2 against Glickman's worked example ("Example of the Glicko-2 system", 2013), and
the properties a rating system must have."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.ratings.glicko2 import (
    SCALE,
    Rating,
    RatingError,
    Result,
    System,
    expectation,
    expected_score,
    g,
    idle,
    period,
    rate,
)

#: The paper's player (r 1500, RD 200, sigma 0.06) and his three games, tau 0.5.
PLAYER = Rating(1500.0, 200.0, 0.06)
GAMES = [
    Result(Rating(1400.0, 30.0), 1.0),
    Result(Rating(1550.0, 100.0), 0.0),
    Result(Rating(1700.0, 300.0), 0.0),
]


def test_the_papers_example_step_by_step() -> None:
    # Step 2 and 3: the paper prints g to 4 decimals and E to 3.
    assert [round(g(r.opponent.phi), 4) for r in GAMES] == [0.9955, 0.9531, 0.7242]
    assert [round(expectation(PLAYER.mu, r.opponent.mu, r.opponent.phi), 3) for r in GAMES] == [
        0.639,
        0.432,
        0.303,
    ]
    worked = period(PLAYER, GAMES, System(tau=0.5))
    # v = 1.7785 and Delta = -0.4834 in the paper, which works them from E rounded to 3
    # decimals: agreement to that rounding's effect (5e-4).
    assert worked.v == pytest.approx(1.7785, abs=1e-3)
    assert worked.delta == pytest.approx(-0.4834, abs=1e-3)
    # Step 5 (sigma' = 0.05999), step 6 (phi* = 1.152862), step 7 (mu' = -0.2069,
    # phi' = 0.8722), step 8 (r' = 1464.06, RD' = 151.52): each to the digits printed
    # (r' to 0.01: the paper carries its rounded mu' of -0.2069 into r').
    assert worked.volatility == pytest.approx(0.05999, abs=1e-5)
    assert worked.phi_star == pytest.approx(1.152862, abs=1e-5)
    assert worked.rating.mu == pytest.approx(-0.2069, abs=5e-5)
    assert worked.rating.phi == pytest.approx(0.8722, abs=5e-5)
    assert worked.rating.rating == pytest.approx(1464.06, abs=0.01)
    assert round(worked.rating.deviation, 2) == 151.52
    assert rate(PLAYER, GAMES) == worked.rating


def test_scale_conversion_is_the_papers() -> None:
    assert Rating(1700.0, 300.0).mu == pytest.approx(1.1513, abs=1e-4)
    assert Rating(1700.0, 300.0).phi == pytest.approx(1.7269, abs=1e-4)
    assert Rating.of_scale(0.0, 350.0 / SCALE, 0.06) == Rating()


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert (after.rating, after.volatility) == (PLAYER.rating, PLAYER.volatility)
    assert after.deviation == pytest.approx(SCALE * math.hypot(200.0 / SCALE, 0.06))


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda: Rating(float("nan")), "rating"),
        (lambda: Rating(1500.0, 0.0), "deviation"),
        (lambda: Rating(1500.0, 100.0, -0.1), "volatility"),
        (lambda: Result(Rating(), 1.5), "score"),
        (lambda: System(tau=0.0), "tau"),
        (lambda: idle(Rating(), -1.0), "periods"),
    ],
)
def test_bad_values_are_refused_by_name(make: object, name: str) -> None:
    with pytest.raises(RatingError, match=name):
        make()  # type: ignore[operator]


ratings = st.builds(
    Rating,
    st.floats(800.0, 2400.0),
    st.floats(30.0, 350.0),
    st.floats(0.03, 0.09),
)


@given(ratings, st.lists(ratings, min_size=1, max_size=6))
def test_a_win_never_lowers_and_a_loss_never_raises(
    player: Rating, opponents: list[Rating]
) -> None:
    won = rate(player, [Result(o, 1.0) for o in opponents])
    lost = rate(player, [Result(o, 0.0) for o in opponents])
    assert won.rating >= player.rating >= lost.rating


@given(ratings, ratings)
def test_expected_scores_add_up_to_one(a: Rating, b: Rating) -> None:
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert (expected_score(a, b) > 0.5) == (a.rating > b.rating) or a.rating == b.rating


@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=1))
def test_games_narrow_the_deviation_below_the_periods_start(
    player: Rating, games: list[tuple[Rating, float]]
) -> None:
    worked = period(player, [Result(o, s) for o, s in games])
    assert worked.rating.phi < worked.phi_star


@given(
    st.floats(800.0, 2400.0),
    st.floats(150.0, 350.0),
    st.floats(0.03, 0.09),
    st.floats(-200.0, 200.0),
    st.floats(30.0, 350.0),
    st.sampled_from([0.0, 1.0]),
)
def test_a_game_shrinks_an_uncertain_rating_against_a_near_opponent(
    r: float, rd: float, sigma: float, gap: float, opponent_rd: float, score: float
) -> None:
    player = Rating(r, rd, sigma)
    assert rate(player, [Result(Rating(r + gap, opponent_rd), score)]).deviation < rd


@given(ratings, st.floats(0.0, 500.0), st.floats(0.0, 500.0))
def test_idle_periods_grow_the_deviation_up_to_the_cap(
    player: Rating, t1: float, t2: float
) -> None:
    short, long = idle(player, min(t1, t2)), idle(player, max(t1, t2))
    assert player.deviation <= short.deviation <= long.deviation <= 350.0 + 1e-9
    assert (short.rating, short.volatility) == (player.rating, player.volatility)
