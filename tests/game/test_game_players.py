"""The AI players: legal play from the D, the baulk-line window, the limits, the foul
option, the lag, seeds and levels — judged by what their strokes do on the real table."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from game_support import QUICK, R, W, Y, quick_ai, real_game_at, state_at

from onered.game import LAG_STARTS, PhysicsSimulator, Position, lag_stroke
from onered.game.model import Action
from onered.physics import CompactShot
from onered.physics.types import Strike
from onered.players import STRENGTHS, AIPlayer, Noise, PlayerSpecError, make_player
from onered.players.search import _Context
from onered.players.strength import clamp_strike
from onered.rules import CallCode, Counters, FoulCode, Option, ScoreKind, Spot
from onered.table import BALL_RADIUS, in_baulk

#: Positions with the white in hand: object balls out of baulk, in the D, on its line.
IN_HAND = [
    {Y: (1.2, 2.0), R: (1.5, 1.9)},
    {Y: (0.889, 0.60), R: (0.95, 0.66)},  # both in the D: nothing direct, cushions only
    {Y: (0.70, 0.737), R: (1.05, 0.737)},  # both on the baulk line
    {R: (0.889, 3.245)},  # the opening: the red alone on its spot
]


@pytest.mark.parametrize("balls", IN_HAND)
def test_the_ai_places_its_ball_legally_in_the_d(balls: dict) -> None:
    game = real_game_at(balls)
    assert game.position.in_hand
    action = quick_ai(3).decide(game.position)
    assert action.placed is not None
    assert game.legal_placement(action.placed)
    record = game.play(action)  # the game takes it: no IllegalPlacementError
    assert record.verdict.from_d


def test_the_pro_places_its_ball_legally_in_the_d() -> None:
    game = real_game_at(IN_HAND[1])
    action = AIPlayer(STRENGTHS["pro"], 5).decide(game.position)
    assert action.placed is not None
    assert game.legal_placement(action.placed)
    game.play(action)


CROSSING = {W: (0.7, 1.5), R: (0.4, 1.0), Y: (1.2, 2.5)}  # the red near a bottom pocket


@pytest.mark.parametrize("seed", [1, 2])
def test_the_ai_crosses_the_baulk_line_in_the_window_when_it_can(seed: int) -> None:
    # a break of 90 with the crossing still owed
    game = real_game_at(CROSSING, score=(90, 10), break_=90, target=1000)
    assert game.state.baulk_met < 0
    record = game.play(AIPlayer(STRENGTHS["pro"], seed).decide(game.position))
    assert record.verdict.baulk_crossed
    assert record.verdict.points > 0
    assert in_baulk(game.balls[W])


def test_outside_the_window_the_same_position_is_played_without_crossing() -> None:
    # the control: at 50 the crossing is worth nothing and the cue ball stays up the table
    game = real_game_at(CROSSING, score=(50, 10), break_=50, target=1000)
    record = game.play(AIPlayer(STRENGTHS["pro"], 1).decide(game.position))
    assert record.verdict.points > 0
    assert not record.stroke.crossed_baulk


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_at_97_the_ai_never_scores_its_way_past_100_without_crossing(seed: int) -> None:
    balls = {W: (0.889, 1.3), R: (1.3, 1.1), Y: (0.6, 0.45)}
    game = real_game_at(balls, score=(97, 10), break_=97, target=1000)
    record = game.play(quick_ai(seed).decide(game.position))
    foul = record.verdict.foul
    assert foul is None or FoulCode.BAULK_LINE not in foul.codes
    if record.verdict.break_ >= 100:
        assert record.verdict.baulk_crossed


@pytest.mark.parametrize("seed", [1, 2])
def test_after_fifteen_hazards_the_ai_works_in_a_cannon(seed: int) -> None:
    balls = {W: (0.889, 1.5), R: (0.95, 2.2), Y: (0.75, 2.5)}
    game = real_game_at(balls, score=(45, 10), break_=45, counters=Counters(hazards=15))
    record = game.play(quick_ai(seed).decide(game.position))
    foul = record.verdict.foul
    assert foul is None or FoulCode.HAZARD_LIMIT not in foul.codes
    assert record.verdict.points == 0 or ScoreKind.CANNON in dict(record.verdict.scored)


#: From hand with object balls in baulk: only strokes off a cushion out of baulk are fair.
BALLS_IN_BAULK = [
    {Y: (0.4, 0.4), R: (1.4, 0.5)},  # double baulk
    {Y: (0.889, 0.3), R: (1.5, 2.5)},  # the yellow in baulk behind the D, the red up the table
]


@pytest.mark.parametrize("balls", BALLS_IN_BAULK)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_decision_07_the_ai_from_hand_never_chooses_a_stroke_it_simulates_as_bad_from_hand(
    balls: dict, seed: int
) -> None:
    # The nominal stroke the search settles on, played on the real table, is judged by the
    # game loop (fouls.bad_from_hand): never a ball in baulk played directly, never the
    # cue ball left in baulk without touching anything out of it, when a fair stroke exists
    # (the quick level once preferred such a foul in double baulk: it cost less than the
    # leave its fair strokes gave the opponent).
    game = real_game_at(balls)
    choice = quick_ai(seed).searcher.decide(game.position, random.Random(seed))
    record = game.play(Action(choice.strike, placed=choice.placed))
    assert FoulCode.BAD_FROM_HAND not in record.stroke.fouls


def test_decision_07_the_ai_judges_candidates_by_the_game_loops_reading() -> None:
    # The yellow stands in baulk behind the D: straight at it is a foul (2.6.6); straight
    # up, off the top cushion and back onto it is fair (2.6.4). The AI's judgement of its
    # compact simulation says the same as the game loop on the full one.
    balls = {Y: (0.889, 0.3), R: (1.5, 2.0)}
    placed = (0.889, 0.6)
    searcher = quick_ai(1).searcher
    for strike, fair in ((Strike(1.0, -90.0), False), (Strike(5.0, 90.0), True)):
        game = real_game_at(balls)
        ctx = _Context(game.position)
        ids, (shot,) = searcher._simulate(ctx, placed, [strike])
        _, verdict = searcher._judge(ctx, placed, ids, shot, 0.0)
        record = game.play(Action(strike, placed=placed))
        assert record.stroke.first_hit is Y
        assert verdict == record.verdict
        assert (FoulCode.BAD_FROM_HAND in record.stroke.fouls) is not fair


def test_decision_09_the_ais_verdict_counts_a_touching_red_pot_in_the_red_run() -> None:
    # The AI values a stroke by the referee's own verdict: a red potted from the billiards
    # spot (r = 1 so far) leaving the white touching the yellow makes r = 2, the red goes
    # on the billiards spot and the yellow on the centre spot (2.10, decision 9).
    balls = {W: (0.889, 2.9), Y: (1.3, 2.0), R: Spot.BILLIARDS.point}
    state = replace(
        state_at(balls, break_=3, counters=Counters(hazards=1, red_run=1)),
        red_spot=Spot.BILLIARDS,
    )
    ctx = _Context(Position(balls, state))
    ids = tuple(b.value for b in balls)
    white, yellow, red = (ids.index(b.value) for b in (W, Y, R))
    events = ((0.2, 0, white, red, -1, -1, 0), (0.9, 2, red, -1, -1, 5, 0))
    rest = [None, None, None]
    rest[white], rest[yellow] = (1.3, 2.0 - 0.0525), (1.3, 2.0)
    shot = CompactShot(2.0, tuple(rest), events)
    _, verdict = quick_ai(1).searcher._judge(ctx, None, ids, shot, 0.0)
    assert verdict.scored == ((ScoreKind.POT_RED, 3),)
    assert verdict.counters.red_run == 2
    assert CallCode.TOUCHING_BALL in verdict.calls
    assert {(p.ball, p.at) for p in verdict.placements} == {
        (R, Spot.BILLIARDS),
        (Y, Spot.CENTRE),
    }


def options_for(as_they_lie: dict) -> dict[Option, Position]:
    """The yellow to play after the white's foul: as they lie, or from the D."""
    from_d = {W: Spot.CENTRE.point, R: Spot.BILLIARDS.point}
    return {
        Option.AS_THEY_LIE: Position(as_they_lie, state_at(as_they_lie, to_play=1)),
        Option.FROM_D: Position(from_d, state_at(from_d, to_play=1)),
    }


def test_the_ai_takes_the_d_when_the_balls_lie_double_baulk() -> None:
    double_baulk = {W: (0.3, 0.3), R: (1.5, 0.4)}  # the yellow in hand, nothing to play at
    assert quick_ai(1).choose(options_for(double_baulk)) is Option.FROM_D


def test_the_ai_plays_as_they_lie_when_the_red_hangs_over_a_pocket() -> None:
    sitter = {W: (0.3, 2.9), Y: (1.45, 1.70), R: (1.74, 1.78)}  # red in the middle pocket's jaws
    assert quick_ai(1).choose(options_for(sitter)) is Option.AS_THEY_LIE


def test_the_same_seed_gives_the_same_stroke_and_another_seed_another() -> None:
    balls = {W: (0.6, 1.2), Y: (1.2, 2.0), R: (1.0, 2.6)}
    position = real_game_at(balls).position
    first = quick_ai(8).decide(position)
    assert quick_ai(8).decide(position) == first
    assert quick_ai(9).decide(position).strike != first.strike
    assert first.intent is not None
    assert first.intent.nominal != first.strike


def test_the_lag_stroke_reaches_the_top_cushion_and_comes_back_near_the_bottom() -> None:
    simulator = PhysicsSimulator()
    for seed in (1, 2):
        strike = AIPlayer(STRENGTHS["amateur"], seed).lag(LAG_STARTS[0])
        stroke = lag_stroke(simulator, "me", LAG_STARTS[0], strike)
        assert stroke.valid
        assert stroke.rest is not None
        assert stroke.rest[1] - BALL_RADIUS < 0.4


def test_noise_is_drawn_from_the_generator_given() -> None:
    noise = Noise(aim=0.1, speed=0.05, tip=0.02)
    strike = Strike(2.0, 45.0, 0.1, -0.2)
    a = noise.apply(strike, random.Random(4))
    assert a == noise.apply(strike, random.Random(4))
    assert a != strike
    assert abs(a.aim - 45.0) < 1.0
    assert abs(a.speed - 2.0) < 0.5
    assert Noise(0.0, 0.0, 0.0).apply(strike, random.Random(4)) == strike


def test_a_strike_is_kept_within_the_cue_actions_limits() -> None:
    kept = clamp_strike(Strike(20.0, 10.0, 0.7, 0.7))
    assert kept.speed == 10.0
    assert (kept.side**2 + kept.height**2) ** 0.5 <= 0.8
    assert clamp_strike(Strike(-1.0, 10.0)).speed == 0.05


def test_noise_must_be_sensible() -> None:
    with pytest.raises(ValueError, match=r"noise\.aim"):
        Noise(aim=-1.0, speed=0.0, tip=0.0)


def test_levels_differ_in_noise_and_budget() -> None:
    beginner, amateur, pro = (STRENGTHS[k] for k in ("beginner", "amateur", "pro"))
    assert beginner.noise.aim > amateur.noise.aim > pro.noise.aim
    assert beginner.budget.samples < amateur.budget.samples < pro.budget.samples
    assert replace(QUICK, name="x").budget == QUICK.budget


@pytest.mark.parametrize(
    ("spec", "message"),
    [("human", "unknown kind 'human'"), ("ai:grandmaster", "unknown level 'grandmaster'")],
)
def test_a_player_description_must_name_a_known_player(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec, 1)


def test_make_player_builds_each_level() -> None:
    for level in STRENGTHS:
        assert make_player(f"ai:{level}", 1).description == f"ai:{level}"
