"""The match logic (``onered.game.series``): best of N, the break alternating, the handicap
in every game's opening score, the clock."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.game.series import (
    MAX_BEST_OF,
    GameTime,
    Series,
    SeriesError,
    breaker,
    can_start_next,
    clock,
    game_match,
    next_game,
    standing,
)
from onered.protocol.referee import match_json, parse_match
from onered.rules import Ball, opening_verdict, start

NAMES = ("Ivanov", "Petrov")


@st.composite
def series(draw: st.DrawFn) -> Series:
    target = draw(st.integers(1, 500))
    return Series(
        players=NAMES,
        best_of=draw(st.integers(0, 9)) * 2 + 1,
        target=target,
        handicap=(draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1))),
        balls=draw(st.sampled_from([(Ball.WHITE, Ball.YELLOW), (Ball.YELLOW, Ball.WHITE)])),
        first=draw(st.integers(0, 1)),
    )


@given(series(), st.lists(st.integers(0, 1), max_size=25))
def test_winner_decided_exactly_when_one_player_has_more_than_half(
    s: Series, picks: list[int]
) -> None:
    wins = [0, 0]
    for k, p in enumerate(picks):
        if max(wins) > s.best_of / 2:  # decided before this game: no game may follow
            with pytest.raises(SeriesError, match=rf"games\[{k}\]: the match was already won"):
                standing(s, [NAMES[q] for q in picks[: k + 1]])
            return
        wins[p] += 1
        now = standing(s, [NAMES[q] for q in picks[: k + 1]])
        assert now.wins == (wins[0], wins[1])
        decided = max(wins) > s.best_of / 2
        assert now.over is decided
        assert now.winner == (wins.index(max(wins)) if decided else None)
        assert now.next_game == (None if decided else k + 1)


@given(series(), st.lists(st.integers(0, 1), min_size=MAX_BEST_OF, max_size=MAX_BEST_OF))
def test_a_match_is_decided_within_best_of_games(s: Series, picks: list[int]) -> None:
    wins = [0, 0]
    for p in picks[: s.best_of]:
        wins[p] += 1
        if max(wins) >= s.wins_needed:
            break
    played = [NAMES[p] for p in picks[: sum(wins)]]
    assert sum(wins) <= s.best_of
    assert standing(s, played).over


@given(series(), st.integers(0, MAX_BEST_OF))
def test_handicap_appears_in_every_games_opening_score(s: Series, number: int) -> None:
    number %= s.best_of
    match = game_match(s, number)
    opening = opening_verdict(start(match))
    by_name = dict(zip(match.players, opening.score, strict=True))
    assert by_name == {NAMES[0]: s.handicap[0], NAMES[1]: s.handicap[1]}
    assert parse_match(match_json(match)) == match  # the match line reads back equal


@given(series(), st.integers(0, MAX_BEST_OF))
def test_break_alternates_and_each_player_keeps_his_ball(s: Series, number: int) -> None:
    number %= s.best_of
    match = game_match(s, number)
    assert match.players[0] == NAMES[(s.first + number) % 2]
    assert breaker(s, number) == (s.first + number) % 2
    for name, ball in zip(match.players, match.balls, strict=True):
        assert ball is s.balls[NAMES.index(name)]
    assert match.target == s.target


def test_first_game_broken_by_the_lag_winner_then_alternates() -> None:
    s = Series(players=NAMES, best_of=3, target=50, first=1)
    assert [game_match(s, k).players[0] for k in range(3)] == ["Petrov", "Ivanov", "Petrov"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("best_of", 4, "best_of: expected an odd number"),
        ("best_of", 0, "best_of"),
        ("best_of", 101, "best_of"),
        ("target", 0, "target"),
        ("handicap", (50, 0), "handicap: expected two integers from 0 to 49"),
        ("handicap", (-1, 0), "handicap"),
        ("players", ("A", "A"), "players: the two names must differ"),
        ("first", 2, "first"),
    ],
)
def test_bad_settings_name_the_field(field: str, value: object, message: str) -> None:
    settings: dict[str, object] = {"players": NAMES, "best_of": 3, "target": 50, field: value}
    with pytest.raises(SeriesError, match=message):
        Series(**settings)  # type: ignore[arg-type]


def test_a_winner_who_is_not_a_player_is_refused() -> None:
    s = Series(players=NAMES, best_of=3, target=50)
    with pytest.raises(SeriesError, match=r"games\[1\]: winner 'Sidorov' is not a player"):
        standing(s, ["Ivanov", "Sidorov"])


def test_breaker_of_a_game_beyond_the_match_is_refused() -> None:
    with pytest.raises(SeriesError, match="game: expected a number from 0 to 2"):
        breaker(Series(players=NAMES, best_of=3, target=50), 3)


@given(
    st.lists(st.tuples(st.floats(0, 1e6), st.floats(0, 1e4), st.booleans()), max_size=9),
    st.floats(0, 2e6),
)
def test_clock_sums_the_games_and_never_runs_backwards(
    raw: list[tuple[float, float, bool]], now: float
) -> None:
    times = [GameTime(started=a, last=a + d, over=o) for a, d, o in raw]
    c = clock(times, now)
    assert c.total == pytest.approx(sum(c.games))
    for t, g in zip(times, c.games, strict=True):
        assert g >= 0
        if t.over:
            assert g == pytest.approx(t.last - t.started)
        else:
            assert g == pytest.approx(max(now, t.last) - t.started)


@given(series())
def test_a_match_written_down_reads_back_equal(s: Series) -> None:
    assert Series.from_json(json.loads(json.dumps(s.to_json()))) == s


@pytest.mark.parametrize(
    "broken",
    [{}, {"players": ["A"]}, {"players": [1, 2]}, None, [], {"balls": ["blue"]}],
)
def test_unreadable_settings_are_a_series_error(broken: object) -> None:
    good = Series(players=NAMES, best_of=3, target=50).to_json()
    obj = {**good, **broken} if isinstance(broken, dict) and broken else broken
    with pytest.raises(
        SeriesError, match=r"series: unreadable settings|players|series: balls\[0\]: unknown ball"
    ):
        Series.from_json(obj)  # type: ignore[arg-type]


@given(
    st.sampled_from([NAMES, ("Petrov", "Ivanov")]),
    st.integers(0, 1),
    st.sampled_from([Ball.WHITE, Ball.YELLOW]),
)
def test_the_lag_winner_breaks_the_first_game_with_the_ball_he_took(
    players: tuple[str, str], winner: int, ball: Ball
) -> None:
    s = Series.after_lag(players, winner, ball, best_of=3, target=50)
    first = game_match(s, 0)
    assert first.players[0] == players[winner]
    assert first.balls[0] is ball
    assert set(first.balls) == {Ball.WHITE, Ball.YELLOW}
    assert [
        game_match(s, k).balls[game_match(s, k).players.index(players[winner])] for k in (1, 2)
    ] == [ball, ball]


@given(series(), st.lists(st.integers(0, 1), max_size=12), st.booleans())
def test_the_next_game_starts_only_after_a_finished_game_of_an_undecided_match(
    s: Series, picks: list[int], last_on: bool
) -> None:
    winners: list[str | None] = []
    for p in picks:
        if standing(s, [w for w in winners if w is not None]).over:
            break
        winners.append(NAMES[p])
    if last_on:
        winners.append(None)
    decided = standing(s, [w for w in winners if w is not None])
    if decided.over or not winners or winners[-1] is None:
        with pytest.raises(SeriesError) as refused:
            next_game(s, winners)
        assert not can_start_next(s, winners)
        if decided.over:
            assert refused.value.code == "match_over"
            assert refused.value.params == {"name": s.players[decided.winner or 0]}
        else:
            assert refused.value.code == "game_on"
            assert refused.value.params == {"number": len(winners)}
    else:
        assert next_game(s, winners) == len(winners)
        assert can_start_next(s, winners)
