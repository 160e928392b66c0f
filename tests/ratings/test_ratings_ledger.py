"""What a finished match does to its players' ratings (``onered.ratings.ledger``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.ratings.glicko2 import Rating
from onered.ratings.ledger import WEEK, Outcome, Policy, Standing, play

standings = st.builds(
    Standing,
    st.builds(Rating, st.floats(1000.0, 2200.0), st.floats(40.0, 350.0), st.floats(0.04, 0.08)),
    st.integers(0, 50),
    st.integers(0, 200),
    st.integers(0, 100),
    st.none() | st.floats(0.0, 1e6),
)
best_of = st.sampled_from([1, 3, 5, 7])


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    n = draw(best_of)
    need = n // 2 + 1
    winner = draw(st.integers(0, 1))
    loser_games = draw(st.integers(0, need - 1))
    games = (need, loser_games) if winner == 0 else (loser_games, need)
    return Outcome(games, winner, (0, 0), draw(st.floats(1e6, 2e6)))


@given(standings, standings, outcomes())
def test_swapping_the_players_swaps_the_result(a: Standing, b: Standing, o: Outcome) -> None:
    one = play(a, b, o)
    swapped = play(b, a, Outcome(o.games[::-1], 1 - o.winner, o.handicap, o.finished))
    assert one == swapped[::-1]


@given(standings, standings, outcomes())
def test_a_clean_sweep_never_lowers_the_winner_nor_raises_the_loser(
    a: Standing, b: Standing, o: Outcome
) -> None:
    sweep = Outcome((o.games[o.winner], 0), 0, (0, 0), o.finished)
    new_a, new_b = play(a, b, sweep)
    assert new_a.rating.rating >= a.at(o.finished).rating
    assert new_b.rating.rating <= b.at(o.finished).rating
    assert (new_a.matches, new_a.wins, new_a.last) == (
        a.matches + 1,
        a.wins + sweep.games[0],
        o.finished,
    )


@given(standings, standings, outcomes(), st.integers(1, 99))
def test_a_handicapped_match_changes_nothing(
    a: Standing, b: Standing, o: Outcome, start: int
) -> None:
    assert play(a, b, Outcome(o.games, o.winner, (start, 0), o.finished)) == (a, b)


def test_idle_weeks_widen_the_deviation_before_the_match() -> None:
    s = Standing(Rating(1600.0, 60.0), matches=10, games=30, wins=15, last=0.0)
    assert s.at(0.0) == s.rating
    assert s.at(-5.0) == s.rating
    year = s.at(52 * WEEK)
    assert 60.0 < year.deviation < 350.0
    assert year.rating == 1600.0
    assert Policy(period_seconds=WEEK / 7).period_seconds == WEEK / 7


def test_a_match_with_no_game_counted_counts_one_game_to_its_winner() -> None:
    assert Outcome((0, 0), 1, (0, 0), 0.0).results == (0, 1)
    assert Outcome((2, 1), 0, (0, 0), 0.0).results == (2, 1)


def test_games_are_rated_one_result_each() -> None:
    new = Standing(Rating())
    sweep = play(new, new, Outcome((3, 0), 0, (0, 0), 0.0))
    close = play(new, new, Outcome((3, 2), 0, (0, 0), 0.0))
    assert sweep[0].rating.rating > close[0].rating.rating > 1500.0
    assert (sweep[0].games, close[0].games) == (3, 5)
    with pytest.raises(ValueError, match="period_seconds"):
        Policy(period_seconds=0.0)
