"""The environments' lean game against the game loop: the same random strokes and foul
options give the same referee states and tables, stroke for stroke (the seam between
onered.env and onered.game)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.env import LeanGame, RandomPlayer
from onered.game import (
    Action,
    Game,
    IllegalActionError,
    IllegalPlacementError,
    PhysicsSimulator,
)
from onered.physics import Params, Strike, TableSpec
from onered.players import make_player
from onered.rules import Match, Option


def play_both(seed: int, strokes: int, target: int = 60) -> int:
    """Random strokes and options through both; the number of games played."""
    player, rng = RandomPlayer(seed), random.Random(seed)
    sim = PhysicsSimulator()
    done = games = 0
    while done < strokes:
        match = Match(target, ("a", "b"))
        full, lean = Game(match, sim), LeanGame(match, Params(), TableSpec())
        games += 1
        while not full.over and done < strokes:
            if full.state.choice_pending:
                option = Option.FROM_D if rng.random() < 0.5 else Option.AS_THEY_LIE
                full.choose(option)
                lean.choose(option)
                assert lean.state == full.state
            action = player.decide(full.position)
            record = full.play(action)
            verdict = lean.play(action)
            assert verdict == record.verdict
            assert lean.state == full.state
            assert lean.balls == dict(full.balls)
            done += 1
        assert lean.over == full.over
    return games


def test_lean_game_judges_thousands_of_random_strokes_as_the_game_loop() -> None:
    assert play_both(0, 3000) > 3


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_lean_game_equals_the_game_loop_for_any_seed(seed: int) -> None:
    play_both(seed, 60, target=20)


def test_option_positions_are_the_game_loops() -> None:
    player = RandomPlayer(1)
    match = Match(100, ("a", "b"))
    full, lean = Game(match, PhysicsSimulator()), LeanGame(match, Params(), TableSpec())
    while not full.state.choice_pending:
        action = player.decide(full.position)
        full.play(action)
        lean.play(action)
    assert lean.option_positions() == full.option_positions()


def test_missing_placement_is_refused_as_the_game_refuses_it() -> None:
    lean = LeanGame(Match(100, ("a", "b")), Params(), TableSpec())
    with pytest.raises(IllegalPlacementError, match="is in hand"):
        lean.play(Action(Strike(2.0, 90.0)))
    with pytest.raises(IllegalPlacementError, match="outside the D"):
        lean.play(Action(Strike(2.0, 90.0), (0.2, 2.0)))


def test_a_game_that_is_over_takes_no_stroke() -> None:
    lean = LeanGame(Match(2, ("a", "b")), Params(), TableSpec())
    player = RandomPlayer(3)
    while not lean.over:
        if lean.state.choice_pending:
            lean.choose(Option.AS_THEY_LIE)
        lean.play(player.decide(lean.position))
    with pytest.raises(IllegalActionError, match="over"):
        lean.play(Action(Strike(2.0, 90.0)))


def test_lean_game_equals_the_game_loop_in_a_game_of_scoring_strokes() -> None:
    """AI players score (cannons, pots, in-offs, red spotted, touching balls, breaks),
    which random strokes rarely do: their strokes through both give the same game."""
    players = [make_player("ai:novice", 1), make_player("ai:novice", 2)]
    match = Match(60, ("a", "b"))
    full, lean = Game(match, PhysicsSimulator()), LeanGame(match, Params(), TableSpec())
    points = 0
    for _ in range(150):
        if full.over:
            break
        player = players[full.state.to_play]
        if full.state.choice_pending:
            option = player.choose(full.option_positions())
            full.choose(option)
            lean.choose(option)
        record = full.play(player.decide(full.position))
        assert lean.play(record.action) == record.verdict
        assert lean.state == full.state
        assert lean.balls == dict(full.balls)
        points += record.verdict.points
    assert points >= 20  # the strokes did score
