"""Properties of the draw and of playing it out, over fields of any size."""

from __future__ import annotations

import json
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from onered.tournament import Format, Stage, Tournament, draw, from_json
from tournament_support import field, play_out, result_for

seeds = st.integers(0, 2**32)


def _half(t: Tournament, entrant: str) -> int:
    """0 or 1: the half of the bracket ``entrant`` starts in."""
    slots = [e for f in t.fixtures if f.round == 1 for e in (f.a, f.b)]
    return 2 * slots.index(entrant) // len(slots)


@given(n=st.integers(2, 64), rated=st.integers(0, 64), seed=seeds, play=seeds)
@settings(max_examples=60)
def test_every_knockout_has_n_minus_one_matches_one_winner_and_1_2_in_opposite_halves(
    n: int, rated: int, seed: int, play: int
) -> None:
    t = draw(field(n, rated=min(rated, n)), Format.KNOCKOUT, seed=seed)
    one, two = t.entrants[0].id, t.entrants[1].id
    assert _half(t, one) != _half(t, two)
    done = play_out(t, play)
    byes = sum(f.bye for f in done.fixtures)
    assert len(done.results) == n - 1
    assert len(done.results) + byes == len(done.fixtures)
    assert done.over
    assert done.winner in {e.id for e in t.entrants}


@given(n=st.integers(2, 30), seed=seeds)
@settings(max_examples=40)
def test_round_robin_every_pair_exactly_once_each_entrant_at_most_once_a_round(
    n: int, seed: int
) -> None:
    t = draw(field(n, rated=n // 2), Format.ROUND_ROBIN, seed=seed)
    pairs = [frozenset((f.a, f.b)) for f in t.fixtures if not f.bye]
    ids = [e.id for e in t.entrants]
    assert sorted(map(sorted, pairs)) == sorted(sorted(p) for p in combinations(ids, 2))
    for r in {f.round for f in t.fixtures}:
        seen = [e for f in t.fixtures if f.round == r for e in (f.a, f.b) if e is not None]
        assert len(seen) == len(set(seen))


def _formats(n: int) -> st.SearchStrategy[tuple[Format, int, int]]:
    """A format with groups and advance that fit ``n`` entrants."""
    groups = st.integers(1, n // 2).flatmap(
        lambda g: st.tuples(
            st.just(Format.GROUPS_THEN_KNOCKOUT),
            st.just(g),
            st.integers(1, n // g).filter(lambda a: g * a >= 2),
        )
    )
    return st.one_of(st.just((Format.KNOCKOUT, 0, 2)), st.just((Format.ROUND_ROBIN, 0, 2)), groups)


@st.composite
def tournaments(draw_: st.DrawFn) -> tuple[Tournament, int]:
    n = draw_(st.integers(2, 20))
    format_, groups, advance = draw_(_formats(n))
    t = draw(
        field(n, rated=draw_(st.integers(0, n))),
        format_,
        seed=draw_(seeds),
        best_of=draw_(st.sampled_from([1, 3, 5])),
        groups=groups,
        advance=advance,
    )
    return t, draw_(seeds)


@given(tournaments())
@settings(max_examples=60)
def test_playing_random_results_to_the_end_always_ends_with_one_winner(
    case: tuple[Tournament, int],
) -> None:
    t, play = case
    done = play_out(t, play)
    assert done.over
    assert done.winner in {e.id for e in t.entrants}
    assert not done.ready()


@given(tournaments(), st.integers(0, 200), st.lists(st.integers(1, 12), max_size=6))
@settings(max_examples=60)
def test_the_json_form_round_trips_any_state(
    case: tuple[Tournament, int], steps: int, tables: list[int]
) -> None:
    t, play = case
    partly = play_out(t, play, limit=steps).assign_tables(tables)
    assert from_json(json.loads(json.dumps(partly.to_json()))) == partly


@given(n=st.integers(4, 40), data=st.data(), seed=seeds)
@settings(max_examples=40)
def test_with_two_groups_or_more_no_first_round_pair_comes_from_one_group(
    n: int, data: st.DataObject, seed: int
) -> None:
    groups = data.draw(st.integers(2, n // 2))
    advance = data.draw(st.integers(1, n // groups))
    t = draw(
        field(n, rated=n // 2),
        Format.GROUPS_THEN_KNOCKOUT,
        seed=seed,
        groups=groups,
        advance=advance,
    )
    t = play_out(t, seed, limit=len(t.fixtures))
    group_of = {e: g for g in range(1, groups + 1) for e in t.group_members(g)}
    first = [f for f in t.fixtures if f.stage is Stage.KNOCKOUT and f.round == 1]
    assert first
    for f in first:
        if not f.bye:
            assert f.a is not None
            assert f.b is not None
            assert group_of[f.a] != group_of[f.b]


def test_a_64_player_knockout_from_draw_to_final() -> None:
    t = draw(field(64, rated=40), Format.KNOCKOUT, seed=2026, best_of=3)
    rounds = 0
    while not t.over:
        ready = t.ready()
        assert ready
        assert len({f.round for f in ready}) == 1
        t = t.assign_tables(range(1, 17))
        for fixture in t.ready():
            assert fixture.table is not None or len(ready) > 16
            assert fixture.a is not None
            assert fixture.b is not None
            better = min(fixture.a, fixture.b, key=lambda e: int(e[1:]))
            t = t.record(result_for(fixture, better))
        rounds += 1
    assert rounds == 6
    assert len(t.results) == 63
    assert t.winner == "p1"
    final = max((f for f in t.fixtures if f.stage is Stage.KNOCKOUT), key=lambda f: f.round)
    assert {final.a, final.b} == {"p1", "p2"}


def _undone(t: Tournament, key: str) -> Tournament:
    """``t`` with ``key``'s result undone, or ``t`` when the undo is refused as it may be."""
    from onered.tournament import TournamentError

    try:
        return t.undo(key)
    except TournamentError as error:
        if error.code not in {"undo_later", "undo_withdrawal"}:
            raise
        return t


@given(
    n=st.integers(2, 24),
    kind=st.sampled_from(list(Format)),
    seed=seeds,
    steps=st.lists(st.tuples(st.sampled_from(["win", "win", "win", "undo", "withdraw"]), seeds)),
)
@settings(max_examples=60)
def test_withdrawals_and_undos_never_stop_a_tournament_reaching_its_winner(
    n: int, kind: Format, seed: int, steps: list[tuple[str, int]]
) -> None:
    import random

    groups = max(1, n // 4) if kind is Format.GROUPS_THEN_KNOCKOUT else 0
    t = draw(field(n), kind, seed=seed, groups=groups, advance=1 if groups > 1 else 2)
    for action, pick in steps:
        rng = random.Random(pick)
        if action == "win" and t.ready():
            f = rng.choice(t.ready())
            t = t.record(result_for(f, str(rng.choice([f.a, f.b])), rng))
        elif action == "undo" and t.results:
            t = _undone(t, rng.choice(t.results).fixture)
        elif action == "withdraw":
            gone = rng.choice(t.entrants).id
            if gone not in t.withdrawn and not t.over:
                t = t.withdraw(gone)
        assert from_json(json.loads(json.dumps(t.to_json()))) == t
    done = play_out(t, seed)
    assert done.over
    assert done.winner is not None
