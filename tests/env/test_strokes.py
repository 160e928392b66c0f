"""The environments' engine path (StrokeEngine: each shot alone through the kernel's
single-position entry, or rounds of many games' strokes through the batch kernel on two
threads, read by bridge.batch_strokes) against the path it replaced: each stroke simulated
alone by simulate_compact and read by compact_stroke."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered import bridge
from onered.env import LeanGame, RandomPlayer
from onered.env.strokes import SPLIT_AT, Shot, StrokeEngine
from onered.physics import (
    Params,
    PhysicsInputError,
    Strike,
    TableSpec,
    simulate_compact,
    strike_to_launch,
)
from onered.rules import Match, Option, Stroke


def alone(shot: Shot, params: Params, table: TableSpec) -> Stroke:
    """The stroke as the environments read it before the batch path."""
    names, cue, strike, hand = shot
    batch = simulate_compact(names, cue, [strike_to_launch(strike, params)], params, table)
    return bridge.compact_stroke(
        batch.shots[0], batch.ball_ids, cue, placed=names[cue] if hand else None, before=names
    )


def rounds(seed: int, games: int, count: int, threads: int) -> int:
    """``count`` rounds of ``games`` games' random strokes (and foul options) through the
    engine, each stroke compared with the old path; the strokes played from hand."""
    params, table = Params(), TableSpec()
    engine = StrokeEngine(params, table, threads)
    rng = random.Random(seed)
    players = [RandomPlayer(seed + k) for k in range(games)]
    tables = [LeanGame(Match(30, ("a", "b")), params, table, engine) for _ in range(games)]
    from_hand = 0
    for _ in range(count):
        actions = []
        for k, game in enumerate(tables):
            if game.over:
                game = tables[k] = LeanGame(Match(30, ("a", "b")), params, table, engine)
            if game.state.choice_pending:
                game.choose(Option.FROM_D if rng.random() < 0.5 else Option.AS_THEY_LIE)
            actions.append(players[k].decide(game.position))
        shots = [game.shot(action) for game, action in zip(tables, actions, strict=True)]
        strokes = engine.strokes(shots)
        for game, shot, stroke in zip(tables, shots, strokes, strict=True):
            assert stroke == alone(shot, params, table)
            from_hand += shot[3]
            game.judge(stroke)
    engine.close()
    return from_hand


def test_rounds_of_many_games_read_as_each_stroke_alone() -> None:
    assert rounds(0, games=24, count=60, threads=1) > 50


def test_rounds_through_the_batch_kernel_read_as_each_stroke_alone() -> None:
    assert rounds(2, games=SPLIT_AT + 8, count=60, threads=2) > 50


def test_rounds_split_over_two_threads_read_as_each_stroke_alone() -> None:
    assert rounds(1, games=SPLIT_AT * 2 + 1, count=30, threads=2) > 50


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(1, 48), st.sampled_from([1, 2]))
def test_any_round_reads_as_each_stroke_alone(seed: int, games: int, threads: int) -> None:
    rounds(seed, games, count=6, threads=threads)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_strike_beyond_the_cues_limits_is_the_physics_error_naming_it(threads: int) -> None:
    engine = StrokeEngine(Params(), TableSpec(), threads)
    names = {"red": (0.889, 2.7), "white": (0.8, 0.6), "yellow": (1.0, 0.5)}
    good = (names, "white", Strike(2.0, 90.0), False)
    with pytest.raises(PhysicsInputError, match=r"strike\.speed"):
        engine.strokes([good] * SPLIT_AT + [(names, "white", Strike(12.0, 90.0), False)])
    with pytest.raises(PhysicsInputError, match=r"strike\.aim"):
        engine.strokes([(names, "white", Strike(2.0, float("nan")), False)])


@pytest.mark.parametrize("threads", [1, 2])
def test_balls_that_overlap_are_the_physics_error_naming_them(threads: int) -> None:
    engine = StrokeEngine(Params(), TableSpec(), threads)
    good = {"red": (0.889, 2.7), "white": (0.8, 0.6), "yellow": (1.0, 0.5)}
    bad = {"red": (0.889, 2.7), "white": (0.8, 0.6), "yellow": (0.81, 0.6)}
    shots = [(good, "white", Strike(2.0, 90.0), False)] * SPLIT_AT
    shots.append((bad, "white", Strike(2.0, 90.0), False))  # in the second half
    named = r"positions\[16\]: .*yellow" if threads == 2 else "yellow"
    with pytest.raises(PhysicsInputError, match=named):
        engine.strokes(shots)


def test_threads_other_than_one_or_two_are_an_error() -> None:
    with pytest.raises(ValueError, match="threads"):
        StrokeEngine(Params(), TableSpec(), threads=3)
