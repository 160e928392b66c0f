"""One test per rule of docs/tournaments.md (the reading of competitions the rulebook
lacks), named after the rule."""

from __future__ import annotations

import json

import pytest

from onered.errors import OneredError
from onered.texts import ru
from onered.tournament import (
    Entrant,
    Fixture,
    Format,
    Result,
    Stage,
    Tournament,
    TournamentError,
    draw,
    from_json,
)
from onered.tournament.draw import bracket_seeds, snake_groups
from tournament_support import field, play_out, result_for


def _ko(n: int, **kwargs: int) -> Tournament:
    return draw(field(n), Format.KNOCKOUT, **kwargs)


def _win(t: Tournament, key: str, winner: str) -> Tournament:
    return t.record(result_for(t.fixture(key), winner))


# --- seeding ------------------------------------------------------------------------------


def test_seeding_rated_by_rating_highest_first_then_unrated_in_a_drawn_order() -> None:
    entrants = [
        Entrant("u1", "U1"),
        Entrant("low", "Low", rating=1500.0),
        Entrant("u2", "U2"),
        Entrant("high", "High", rating=1900.0),
        Entrant("u3", "U3"),
    ]
    seeded = draw(entrants, Format.ROUND_ROBIN, seed=1).entrants
    assert [e.id for e in seeded[:2]] == ["high", "low"]
    assert {e.id for e in seeded[2:]} == {"u1", "u2", "u3"}
    orders = {
        tuple(e.id for e in draw(entrants, Format.ROUND_ROBIN, seed=s).entrants[2:])
        for s in range(30)
    }
    assert len(orders) > 1  # the seed draws the unrated's order
    again = draw(list(reversed(entrants)), Format.ROUND_ROBIN, seed=1).entrants
    assert again == seeded  # the order entered does not matter, only the seed


# --- knockout -----------------------------------------------------------------------------


def test_knockout_bracket_is_the_next_power_of_two_with_byes_to_the_top_seeds() -> None:
    t = _ko(13)
    first = [f for f in t.fixtures if f.stage is Stage.KNOCKOUT and f.round == 1]
    assert len(first) == 8
    byes = {f.a for f in first if f.bye}
    assert byes == {"p1", "p2", "p3"}


def test_standard_bracket_placement_seed_s_meets_size_plus_one_minus_s() -> None:
    assert bracket_seeds(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_seeds(16)[:4] == [1, 16, 8, 9]
    t = _ko(16)
    first = [(f.a, f.b) for f in t.fixtures if f.round == 1]
    assert first[0] == ("p1", "p16")
    assert first[1] == ("p8", "p9")
    half = len(first) // 2
    assert any("p1" in pair for pair in first[:half])
    assert any("p2" in pair for pair in first[half:])


def test_a_bye_advances_at_once() -> None:
    t = _ko(3)
    assert t.fixture("K-R1-1").bye
    assert t.fixture("K-R2-1").a == "p1"
    assert [f.key for f in t.ready()] == ["K-R1-2"]


def test_the_winner_takes_the_next_rounds_slot() -> None:
    t = _ko(8)
    t = _win(t, "K-R1-1", "p8")
    t = _win(t, "K-R1-2", "p4")
    assert (t.fixture("K-R2-1").a, t.fixture("K-R2-1").b) == ("p8", "p4")


def test_the_tournament_is_over_when_the_final_has_a_result() -> None:
    t = _ko(2)
    assert not t.over
    assert t.winner is None
    t = _win(t, "K-R1-1", "p2")
    assert t.over
    assert t.winner == "p2"


def test_a_match_result_has_the_winner_take_the_deciding_game() -> None:
    t = _ko(2, best_of=5)
    with pytest.raises(TournamentError) as caught:
        t.record(Result("K-R1-1", "p1", 2, 1))
    assert caught.value.code == "bad_games"
    with pytest.raises(TournamentError):
        t.record(Result("K-R1-1", "p1", 3, 3))
    assert t.record(Result("K-R1-1", "p2", 2, 3)).winner == "p2"


# --- round robin and groups ---------------------------------------------------------------


def test_round_robin_by_the_circle_method_every_pair_once_a_bye_when_odd() -> None:
    t = draw(field(5), Format.ROUND_ROBIN)
    rounds = {f.round for f in t.fixtures}
    assert rounds == {1, 2, 3, 4, 5}
    for r in rounds:
        in_round = [f for f in t.fixtures if f.round == r]
        assert sum(f.bye for f in in_round) == 1
    pairs = [frozenset((f.a, f.b)) for f in t.fixtures if not f.bye]
    assert len(pairs) == len(set(pairs)) == 10


def test_groups_by_snake_seeding() -> None:
    ids = [f"p{i}" for i in range(1, 9)]
    assert snake_groups(ids, 3) == [["p1", "p6", "p7"], ["p2", "p5", "p8"], ["p3", "p4"]]
    t = draw(field(8), Format.GROUPS_THEN_KNOCKOUT, groups=2)
    assert t.group_members(1) == ["p1", "p4", "p5", "p8"]


def test_the_knockout_is_drawn_from_the_top_of_each_group_when_the_groups_are_over() -> None:
    t = draw(field(12), Format.GROUPS_THEN_KNOCKOUT, groups=4, advance=2)
    assert all(f.stage is Stage.GROUP for f in t.fixtures)
    rng_t = play_out_groups(t)
    knockout = [f for f in rng_t.fixtures if f.stage is Stage.KNOCKOUT]
    assert len(knockout) == 7
    qualifiers = {e for f in knockout if f.round == 1 for e in (f.a, f.b)}
    expected = {line.entrant for g in range(1, 5) for line in rng_t.standings(g)[:2]}
    assert qualifiers == expected


def play_out_groups(t: Tournament) -> Tournament:
    """Every group match won by the better seed (the lower number)."""
    while not any(f.stage is Stage.KNOCKOUT for f in t.fixtures):
        fixture = t.ready()[0]
        assert fixture.a is not None
        assert fixture.b is not None
        winner = min(fixture.a, fixture.b, key=lambda e: int(e[1:]))
        t = t.record(result_for(fixture, winner))
    return t


@pytest.mark.parametrize(("n", "groups"), [(9, 3), (12, 3), (15, 5), (8, 2), (16, 4), (10, 5)])
def test_group_winners_avoid_their_own_groups_runners_up_in_the_first_round(
    n: int, groups: int
) -> None:
    t = play_out_groups(draw(field(n), Format.GROUPS_THEN_KNOCKOUT, groups=groups, advance=2))
    group_of = {e: g for g in range(1, groups + 1) for e in t.group_members(g)}
    for f in t.fixtures:
        if f.stage is Stage.KNOCKOUT and f.round == 1 and not f.bye:
            assert f.a is not None
            assert f.b is not None
            assert group_of[f.a] != group_of[f.b], f


# --- standings ----------------------------------------------------------------------------


def _league(results: list[tuple[str, str, str, int, int]]) -> Tournament:
    """A round robin of p1..p4 (best of 3) with the given (a, b, winner, games a, games b)."""
    t = draw(field(4), Format.ROUND_ROBIN, best_of=3, seed=7)
    for a, b, winner, ga, gb in results:
        f = next(f for f in t.fixtures if {f.a, f.b} == {a, b})
        if f.a != a:
            ga, gb = gb, ga
        t = t.record(Result(f.key, winner, ga, gb))
    return t


def test_standings_a_point_for_a_won_match() -> None:
    t = _league([("p1", "p2", "p1", 2, 0), ("p3", "p4", "p3", 2, 1)])
    lines = {line.entrant: line for line in t.standings()}
    assert (lines["p1"].points, lines["p2"].points, lines["p1"].played) == (1, 0, 1)
    assert (lines["p3"].games_won, lines["p3"].games_lost) == (2, 1)


def test_tie_break_head_to_head_among_the_tied_first() -> None:
    # p1 and p3 on 2 points, p1 with the better games difference, but p3 beat p1; p2 and p4
    # on 1 point, p4 with the better games difference, but p2 beat p4
    t = _league(
        [
            ("p1", "p2", "p1", 2, 0),
            ("p1", "p3", "p3", 1, 2),
            ("p1", "p4", "p1", 2, 0),
            ("p2", "p3", "p3", 1, 2),
            ("p2", "p4", "p2", 2, 1),
            ("p3", "p4", "p4", 0, 2),
        ]
    )
    order = [line.entrant for line in t.standings()]
    assert order[:2] == ["p3", "p1"]
    assert order[2:] == ["p2", "p4"]  # p2 beat p4


def test_tie_break_then_games_difference_then_games_won() -> None:
    # a three-way tie on points and head to head (each beat one other): games decide
    t = _league(
        [
            ("p1", "p2", "p1", 2, 0),
            ("p2", "p3", "p2", 2, 1),
            ("p3", "p1", "p3", 2, 1),
            ("p4", "p1", "p1", 1, 2),
            ("p4", "p2", "p2", 0, 2),
            ("p4", "p3", "p3", 1, 2),
        ]
    )
    lines = t.standings()
    assert [line.points for line in lines] == [2, 2, 2, 0]
    diffs = [line.games_difference for line in lines[:3]]
    assert diffs == sorted(diffs, reverse=True)
    # games: p1 5-3 (+2), p3 5-4 (+1), p2 4-3 (+1): p3 before p2 on games won
    assert [line.entrant for line in lines[:3]] == ["p1", "p3", "p2"]


def test_tie_break_last_a_seeded_draw() -> None:
    orders = set()
    for seed in range(20):
        t = draw(field(2, rated=0), Format.ROUND_ROBIN, seed=seed)
        orders.add(tuple(line.entrant for line in t.standings()))
        assert t.standings() == draw(field(2, rated=0), Format.ROUND_ROBIN, seed=seed).standings()
    assert len(orders) == 2


def test_a_round_robin_is_over_when_every_match_has_a_result_and_its_top_wins() -> None:
    t = play_out(draw(field(5), Format.ROUND_ROBIN), seed=3)
    assert t.over
    assert t.winner == t.standings()[0].entrant


# --- tables -------------------------------------------------------------------------------


def test_ready_fixtures_go_to_free_tables_in_round_order() -> None:
    t = draw(field(4), Format.ROUND_ROBIN)
    t = t.assign_tables([3, 1])
    round_one = [f for f in t.fixtures if f.round == 1]
    assert [f.table for f in round_one] == [3, 1]
    assert all(f.table is None for f in t.fixtures if f.round > 1)
    # the tables are held until the results come: nothing more is given
    again = t.assign_tables([3, 1])
    assert again == t
    t = t.record(result_for(round_one[0], str(round_one[0].a))).assign_tables([3])
    assert [f.table for f in t.fixtures if f.round == 2] == [3, None]


def test_a_knockout_fixture_waits_for_a_table_until_both_entrants_are_known() -> None:
    t = _ko(4).assign_tables([1, 2, 3])
    assert [f.table for f in t.fixtures] == [1, 2, None]


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "code", "named"),
    [
        (lambda: _ko(4).record(Result("K-R9-9", "p1", 1, 0)), "unknown_fixture", "K-R9-9"),
        (lambda: _ko(4).record(Result("K-R1-1", "p2", 1, 0)), "not_in_fixture", "p2"),
        (lambda: _win(_win(_ko(4), "K-R1-1", "p1"), "K-R1-1", "p1"), "result_twice", "K-R1-1"),
        (lambda: _ko(4).record(Result("K-R2-1", "p1", 1, 0)), "not_ready", "K-R2-1"),
        (lambda: draw(field(1), Format.KNOCKOUT), "too_few_entrants", "1"),
        (lambda: draw(field(5), Format.GROUPS_THEN_KNOCKOUT, groups=3), "groups_too_big", "3"),
        (
            lambda: draw(field(6), Format.GROUPS_THEN_KNOCKOUT, groups=2, advance=4),
            "bad_advance",
            "4",
        ),
        (lambda: draw(field(4), Format.KNOCKOUT, best_of=2), "bad_best_of", "2"),
        (lambda: draw([*field(2), field(2)[0]], Format.KNOCKOUT), "entered_twice", "p1"),
        (lambda: _ko(2).standings(3), "unknown_group", "3"),
        (lambda: from_json({"format": "chess"}), "bad_tournament", "chess"),
        (lambda: _ko(2).record(Result("K-R1-1", "p1", 1, 0, (-1, 0))), "bad_handicap", "K-R1-1"),
    ],
)
def test_bad_input_is_a_clear_error_naming_the_input(make: object, code: str, named: str) -> None:
    with pytest.raises(OneredError) as caught:
        make()  # type: ignore[operator]
    assert isinstance(caught.value, TournamentError)
    assert caught.value.code == code
    assert named in str(caught.value)
    assert f"error.{code}" in ru.WORDS


def test_a_bad_saved_state_is_refused_not_a_traceback() -> None:
    good = _ko(4).to_json()
    for broken in (
        [],
        {**good, "seed": "x"},
        {**good, "fixtures": [{}]},
        {**good, "entrants": [{"id": 1, "name": "a", "club": "", "rating": None}]},
        {
            **good,
            "results": [
                {"fixture": "K-R1-1", "winner": "p1", "games_a": 1, "games_b": 0, "handicap": [0]}
            ],
        },
        {**good, "fixtures": [{**good["fixtures"][0], "stage": "semi"}]},
        {**good, "fixtures": good["fixtures"][1:]},
        {**good, "entrants": good["entrants"][::-1]},
        {
            **good,
            "results": [
                {
                    "fixture": "K-R1-1",
                    "winner": "p9",
                    "games_a": 1,
                    "games_b": 0,
                    "handicap": [0, 0],
                }
            ],
        },
    ):
        with pytest.raises(TournamentError) as caught:
            from_json(broken)
        assert caught.value.code == "bad_tournament"


def test_the_json_form_reads_back_equal() -> None:
    t = play_out(draw(field(6), Format.GROUPS_THEN_KNOCKOUT, groups=2, best_of=3), seed=1)
    assert from_json(json.loads(json.dumps(t.to_json()))) == t
    assert Fixture(Stage.GROUP, 1, 2, group=3).key == "G3-R1-2"


# --- walkovers, withdrawals, undoing a result ----------------------------------------------


def test_a_walkover_is_a_win_without_games() -> None:
    t = draw(field(4), Format.ROUND_ROBIN, seed=3)
    f = t.ready()[0]
    assert f.a is not None
    t = t.record(Result(f.key, f.a, 0, 0, walkover=True))
    line = next(s for s in t.standings() if s.entrant == f.a)
    assert (line.played, line.won, line.points, line.games_won) == (1, 1, 1, 0)
    with pytest.raises(TournamentError) as error:
        t.record(Result(t.ready()[0].key, str(t.ready()[0].a), 1, 0, walkover=True))
    assert error.value.code == "bad_walkover"


def test_a_withdrawn_entrant_loses_every_match_left_by_walkover() -> None:
    t = draw(field(5), Format.ROUND_ROBIN, seed=1)
    t = t.record(result_for(t.ready()[0], str(t.ready()[0].a)))
    gone = t.entrants[-1].id
    before = list(t.results)
    t = t.withdraw(gone)
    assert list(t.results[: len(before)]) == before  # results already in stand
    theirs = [f for f in t.fixtures if gone in (f.a, f.b) and not f.bye]
    for f in theirs:
        r = t.result_of(f.key)
        assert r is not None
        assert r.winner != gone
    assert all(gone not in (f.a, f.b) for f in t.ready())
    with pytest.raises(TournamentError) as error:
        t.withdraw(gone)
    assert error.value.code == "withdrawn_twice"
    with pytest.raises(TournamentError) as error:
        t.withdraw("nobody")
    assert error.value.code == "unknown_entrant"
    assert from_json(json.loads(json.dumps(t.to_json()))) == t


def test_a_withdrawn_entrant_s_later_knockout_fixture_is_a_walkover_once_ready() -> None:
    t = _ko(8)
    first = t.fixture("K-R1-1")
    assert first.a is not None
    t = _win(t, "K-R1-1", first.a)
    t = t.withdraw(first.a)  # he won round one, then withdrew
    assert t.fixture("K-R2-1").a == first.a
    second = t.fixture("K-R1-2")
    assert second.b is not None
    t = _win(t, "K-R1-2", second.b)
    walk = t.result_of("K-R2-1")
    assert walk is not None
    assert walk.walkover
    assert walk.winner == second.b


def test_undo_takes_a_result_out_while_the_tournament_has_not_moved_past_it() -> None:
    t = _ko(8)
    a = str(t.fixture("K-R1-1").a)
    once = _win(t.assign_tables([1, 2, 3, 4]), "K-R1-1", a)
    back = once.undo("K-R1-1")
    assert back.result_of("K-R1-1") is None
    assert back.fixture("K-R2-1").a is None
    assert back.fixture("K-R1-1").table == 1  # back on its table
    b = str(once.fixture("K-R1-2").a)
    later = _win(once, "K-R1-2", b)
    later = _win(later, "K-R2-1", a)
    with pytest.raises(TournamentError) as error:
        later.undo("K-R1-1")
    assert error.value.code == "undo_later"
    with pytest.raises(TournamentError) as error:
        t.undo("K-R1-1")
    assert error.value.code == "no_result"


def test_undo_of_a_group_result_takes_the_undrawn_knockout_away() -> None:
    t = draw(field(8), Format.GROUPS_THEN_KNOCKOUT, groups=2, advance=2, seed=2)
    while not any(f.stage is Stage.KNOCKOUT for f in t.fixtures):
        f = t.ready()[0]
        t = t.record(result_for(f, str(f.a)))
    last = t.results[-1].fixture
    back = t.undo(last)
    assert not any(f.stage is Stage.KNOCKOUT for f in back.fixtures)
    k = t.ready()[0]
    t = t.record(result_for(k, str(k.a)))
    with pytest.raises(TournamentError) as error:
        t.undo(last)
    assert error.value.code == "undo_later"


def test_a_walkover_given_by_a_withdrawal_cannot_be_undone() -> None:
    t = _ko(4)
    f = t.fixture("K-R1-1")
    t = t.withdraw(str(f.b))
    with pytest.raises(TournamentError) as error:
        t.undo("K-R1-1")
    assert error.value.code == "undo_withdrawal"
