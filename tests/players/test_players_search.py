"""The search over the whole stroke space: side and full pace, the local optimiser, the
race and the second ply (``onered.players.search``), judged on the real table."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game_support import QUICK, R, W, Y, real_game_at
from onered.physics import Params, TableSpec
from onered.players import STRENGTHS, AIPlayer
from onered.players.search import Searcher, _Context
from onered.rules import Ball
from onered.table import LENGTH, WIDTH, Point

#: The quick level with side, hard strokes, the optimiser, the race and the second ply.
WHOLE = replace(
    QUICK,
    budget=replace(
        QUICK.budget,
        speeds=(0.9, 2.6, 5.5),
        sides=(0.35,),
        polish=2,
        probes=6,
        race=2,
        lookahead=2,
    ),
)
OPEN_TABLE = {W: (0.9, 1.6), R: (0.6, 2.6), Y: (1.3, 2.2)}
#: A sitter: the red a few centimetres from the top left pocket, the white behind it.
SITTER = {W: (0.20, 3.20), R: (0.10, 3.40), Y: (1.3, 1.0)}
#: Nothing on: the object balls frozen on the bottom cushion, the white at the top.
NOTHING = {W: (0.9, 3.3), R: (0.3, 0.035), Y: (1.5, 0.035)}


def _searcher() -> Searcher:
    return Searcher(WHOLE, Params(), TableSpec())


def test_the_scan_plays_side_both_ways_and_the_full_range_of_pace() -> None:
    searcher = _searcher()
    position = real_game_at(OPEN_TABLE).position
    jobs = searcher._scan(_Context(position), [None])
    sides = {strike.side for _, strike, _ in jobs}
    speeds = {strike.speed for _, strike, _ in jobs}
    assert sides == {0.0, 0.35, -0.35}
    assert max(speeds) == 5.5
    assert min(speeds) == 0.9


def test_from_hand_the_best_places_get_every_speed_and_side() -> None:
    searcher = _searcher()
    position = real_game_at({R: (0.6, 2.6), Y: (1.3, 2.2)}).position
    ctx = _Context(position)
    places = list(searcher._placements(ctx))
    jobs = searcher._scan(ctx, places)
    first = {(s.speed, s.side) for k, s, _ in jobs if k == 0}
    assert {speed for speed, _ in first} == {0.9, 2.6, 5.5}
    assert {side for _, side in first} == {0.0, 0.35, -0.35}


positions = st.builds(
    lambda w, r, y: {W: w, R: r, Y: y},
    *[st.tuples(st.floats(0.1, WIDTH - 0.1), st.floats(0.1, LENGTH - 0.1)) for _ in range(3)],
).filter(
    lambda balls: all(
        (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 > 0.11**2
        for i, a in enumerate(balls.values())
        for j, b in enumerate(balls.values())
        if i < j
    )
)


@settings(max_examples=8)
@given(balls=positions)
def test_the_local_optimiser_never_leaves_a_stroke_worse_under_its_draws(
    balls: dict[Ball, Point],
) -> None:
    searcher = _searcher()
    position = real_game_at(balls).position
    ctx, places, opp, scanned = searcher._scanned(position)
    finalists = searcher._refine(ctx, places, searcher._leaders(ctx, places, scanned, opp), opp)
    polished = searcher._polish(ctx, places, finalists, opp)
    assert len(polished) == len(finalists)
    # the optimiser replaces a finalist only by a stroke worth more under the probe draws
    before = sorted(c.value for c in finalists)
    after = sorted(c.value for c in polished)
    assert all(b >= a - 1e-12 for a, b in zip(before, after, strict=True))
    # each stroke's value is its mean under the probe draws, as played
    for c in polished:
        probed = searcher._probed(ctx, places, [(c.place, c.strike)], opp)[0]
        assert c.value == pytest.approx(probed, abs=1e-9) or c in finalists


def test_the_second_ply_values_a_sitter_above_a_table_with_nothing_on() -> None:
    searcher = Searcher(STRENGTHS["pro"], Params(), TableSpec())
    draws = searcher._draws(random.Random(1), 4)
    sitter = searcher.next_value(real_game_at(SITTER, break_=20).position, draws)
    nothing = searcher.next_value(real_game_at(NOTHING, break_=20).position, draws)
    assert sitter > 3.0
    assert sitter > nothing + 3.0


def test_a_player_with_the_whole_stroke_space_chooses_and_plays_a_legal_stroke() -> None:
    player = AIPlayer(WHOLE, 3)
    game = real_game_at(OPEN_TABLE)
    action = player.decide(game.position)
    record = game.play(action)
    assert record.verdict is not None
    # the intent's scores are those of the nominal stroke, noiselessly simulated
    intent = action.intent
    assert intent is not None
    again = real_game_at(OPEN_TABLE).play(replace(action, strike=intent.nominal))
    assert tuple(kind for kind, _ in again.verdict.scored) == intent.scores
