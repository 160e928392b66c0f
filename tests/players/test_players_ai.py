"""The AI players: legal play from the D, the baulk-line window, the limits, the foul
option, the lag, seeds and levels — judged by what their strokes do on the real table."""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import replace

import pytest

from game_support import R, W, Y, quick_ai, real_game_at, state_at
from onered import bridge, rules
from onered.game import LAG_STARTS, PhysicsSimulator, Position, lag_stroke
from onered.game.model import Action
from onered.physics import CompactShot
from onered.physics.types import Strike
from onered.players import (
    LEVELS,
    STRENGTHS,
    AIPlayer,
    Level,
    Noise,
    PlayerSpecError,
    Strength,
    adapt,
    adapt_to_games,
    adapt_to_visits,
    make_player,
)
from onered.players.search import FORBIDDEN_COST, Searcher, _Context
from onered.players.strength import clamp_strike
from onered.rules import Ball, CallCode, Counters, FoulCode, Option, ScoreKind, Spot, Stroke
from onered.table import BALL_RADIUS, Point, in_baulk

Balls = dict[Ball, Point]

#: Positions with the white in hand: object balls out of baulk, in the D, on its line.
IN_HAND = [
    {Y: (1.2, 2.0), R: (1.5, 1.9)},
    {Y: (0.889, 0.60), R: (0.95, 0.66)},  # both in the D: nothing direct, cushions only
    {Y: (0.70, 0.737), R: (1.05, 0.737)},  # both on the baulk line
    {R: (0.889, 3.245)},  # the opening: the red alone on its spot
]


@pytest.mark.parametrize("balls", IN_HAND)
def test_the_ai_places_its_ball_legally_in_the_d(balls: Balls) -> None:
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


def test_outside_the_window_a_crossing_earns_the_ai_nothing() -> None:
    # the control: at 50 the referee calls no crossing, so the search values the stroke by
    # its points and leave alone (whether the cue ball comes back to baulk is the leave's
    # business: the search may well play the same screw back for its position)
    game = real_game_at(CROSSING, score=(50, 10), break_=50, target=1000)
    player = AIPlayer(STRENGTHS["pro"], 1)
    record = game.play(player.decide(game.position))
    assert record.verdict.points > 0
    assert not record.verdict.baulk_crossed
    searcher = player.searcher
    expected = record.verdict.points + searcher.leave_for(game.state, 0, fresh=False)
    assert searcher.stroke_value(0, game.state, record.verdict) == pytest.approx(expected)


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
    balls: Balls, seed: int
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
    # batch simulation says the same as the game loop on the full one.
    balls = {Y: (0.889, 0.3), R: (1.5, 2.0)}
    placed = (0.889, 0.6)
    searcher = quick_ai(1).searcher
    for strike, fair in ((Strike(1.0, -90.0), False), (Strike(5.0, 90.0), True)):
        game = real_game_at(balls)
        ctx = _Context(game.position)
        (judged,) = searcher._run(ctx, [placed], [(0, strike, 0)], 0.0)
        record = game.play(Action(judged.strike, placed=placed))
        assert record.stroke.first_hit is Y
        assert judged.verdict == record.verdict
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
    rest: list[tuple[float, float] | None] = [None, None, None]
    rest[white], rest[yellow] = (1.3, 2.0 - 0.0525), (1.3, 2.0)
    shot = CompactShot(2.0, tuple(rest), events)
    # the bridge's reading of the shot (the search's batch_strokes equals compact_stroke,
    # property-tested), judged by the referee in the search's context
    _, verdict = rules.judge(ctx.state, bridge.compact_stroke(shot, ids, ctx.me.value))
    assert verdict.scored == ((ScoreKind.POT_RED, 3),)
    assert verdict.counters.red_run == 2
    assert CallCode.TOUCHING_BALL in verdict.calls
    assert {(p.ball, p.at) for p in verdict.placements} == {
        (R, Spot.BILLIARDS),
        (Y, Spot.CENTRE),
    }


def options_for(as_they_lie: Balls) -> dict[Option, Position]:
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


#: Pots for the levels' property: the cue ball, the red, and the pocket it is played into.
POTS = [
    ((0.6, 1.6), (0.5, 2.4), "top_left"),
    ((1.2, 1.6), (1.5, 1.75), "middle_right"),
    ((0.9, 2.2), (1.3, 3.0), "top_right"),
    ((0.4, 1.4), (0.25, 1.7), "middle_left"),
    ((0.9, 1.0), (0.6, 2.6), "top_left"),
]


def pot_rate(
    strength: Strength, cue: tuple[float, float], red: tuple[float, float], pocket: str
) -> float:
    """How often ``strength``'s noise pots the red, aimed by the ghost ball at ``pocket``
    (common random numbers: the same standard draws, scaled by each level's noise)."""
    from onered.physics import Params, TableSpec, simulate_compact, strike_to_launch
    from onered.players.geometry import angle_of, ghost, pocket_targets

    aim = next(p.aim for p in pocket_targets(TableSpec()) if p.name == pocket)
    g = ghost(red, aim)
    nominal = Strike(1.6, math.degrees(angle_of(g[0] - cue[0], g[1] - cue[1])))
    draws = random.Random(11)
    strikes = []
    for _ in range(120):
        za, zs, zt1, zt2 = (draws.gauss(0.0, 1.0) for _ in range(4))
        noise = strength.noise
        strikes.append(
            clamp_strike(
                Strike(
                    nominal.speed * (1 + zs * noise.speed),
                    nominal.aim + za * noise.aim,
                    zt1 * noise.tip,
                    zt2 * noise.tip,
                )
            )
        )
    params = Params()
    batch = simulate_compact(
        {"white": cue, "red": red},
        "white",
        [strike_to_launch(x, params) for x in strikes],
        params,
        TableSpec(),
    )
    red_index = batch.ball_ids.index("red")
    return sum(shot.rest[red_index] is None for shot in batch.shots) / len(batch.shots)


@pytest.mark.parametrize(("cue", "red", "pocket"), POTS)
def test_the_levels_are_ordered_by_measured_potting(cue: Point, red: Point, pocket: str) -> None:
    # Each level, in the order of Level, pots a plain pot at least as often as the one
    # before it (within 3 %), and the master clearly more often than the novice.
    rates = [pot_rate(LEVELS[level], cue, red, pocket) for level in Level]
    for weaker, stronger in itertools.pairwise(rates):
        assert stronger >= weaker - 0.03, rates
    assert rates[-1] > rates[0] + 0.2, rates


def test_the_levels_measured_strength_rises_level_by_level() -> None:
    # The benchmark's figures (docs/players.md) written into each level: points per visit
    # and the average break rise with the level, fouls per game do not.
    figures = [LEVELS[level].measured for level in Level]
    assert all(f is not None for f in figures)
    ppv = [f.points_per_visit for f in figures if f is not None]
    assert ppv == sorted(ppv)
    assert len(set(ppv)) == len(ppv)
    assert {"amateur", "pro"} <= set(STRENGTHS)  # the names records and the web use
    assert [STRENGTHS[level.value] for level in Level] == list(LEVELS.values())


def test_adapt_picks_the_level_nearest_a_players_points_per_visit() -> None:
    for level in Level:
        measured = LEVELS[level].measured
        assert measured is not None
        assert adapt(measured.points_per_visit) is level
    assert adapt(0.0) is Level.NOVICE
    assert adapt(500.0) is Level.MASTER
    levels = list(Level)
    for weaker, stronger in itertools.pairwise(levels):
        a, b = (LEVELS[x].measured for x in (weaker, stronger))
        assert a is not None
        assert b is not None
        lo, hi = a.points_per_visit, b.points_per_visit
        mid = math.sqrt((lo + 1) * (hi + 1)) - 1  # the middle on the log scale
        assert adapt(mid - 0.01 * (hi - lo)) is weaker
        assert adapt(mid + 0.01 * (hi - lo)) is stronger


def test_adapt_reads_a_persons_visits_and_games() -> None:
    pro_ppv = LEVELS[Level.PRO].measured
    assert pro_ppv is not None
    visits = [round(pro_ppv.points_per_visit)] * 5
    assert adapt_to_visits(visits) is Level.PRO
    assert adapt_to_visits([0, 0, 0, 1]) is Level.NOVICE
    match = {"type": "match", "target": 100, "players": ["Ann", "Bob"]}

    def stroke(striker: str, points: int, brk: int, over: bool) -> dict[str, object]:
        verdict = {
            "striker": striker,
            "points": points,
            "scored": {"cannon": points} if points else {},
            "foul": None,
            "break": brk,
            "visit_over": over,
            "winner": None,
        }
        return {"type": "stroke", "verdict": verdict}

    # Ann: visits of 2 and 0 (1 a visit); Bob: one of 40
    game = [
        match,
        stroke("Ann", 2, 2, False),
        stroke("Ann", 0, 2, True),
        stroke("Bob", 20, 20, False),
        stroke("Bob", 20, 40, False),
        stroke("Bob", 0, 40, True),
        stroke("Ann", 0, 0, True),
    ]
    assert adapt_to_games([game], "Ann") is adapt(1.0)
    assert adapt_to_games([game], "Bob") is adapt(40.0)
    with pytest.raises(ValueError, match="Cid"):
        adapt_to_games([game], "Cid")


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf])
def test_adapt_refuses_what_is_not_a_rate(bad: float) -> None:
    with pytest.raises(ValueError, match="points_per_visit"):
        adapt(bad)
    with pytest.raises(ValueError, match="visits"):
        adapt_to_visits([])


# --- game sense ------------------------------------------------------------------------------


def test_a_stroke_the_limits_forbid_costs_more_than_an_ordinary_foul() -> None:
    # The same position, a hazard judged by the referee at 14 and at 15 hazards: at 15 it
    # is the 16th hazard (2.9), a foul like a miss plus FORBIDDEN_COST.
    balls = {W: (0.889, 1.5), R: (0.95, 2.2), Y: (0.75, 2.5)}
    searcher = quick_ai(1).searcher
    values = {}
    for hazards in (14, 15):
        state = state_at(balls, break_=40, counters=Counters(hazards=hazards))
        stroke = Stroke(first_hit=R, potted=(R,), positions={W: (0.5, 1.0), Y: (0.75, 2.5)})
        after, verdict = rules.judge(state, stroke)
        values[hazards] = searcher.stroke_value(0, after, verdict)
        miss_after, miss = rules.judge(state, Stroke(first_hit=None, positions=balls))
        values[-hazards] = searcher.stroke_value(0, miss_after, miss)
    assert values[14] > 0
    assert values[15] < values[-15] - FORBIDDEN_COST + 5


HAZARD_LIMIT_POSITIONS = [
    {W: (0.889, 1.5), R: (0.95, 2.2), Y: (0.75, 2.5)},
    {W: (0.6, 2.0), R: (1.2, 3.0), Y: (1.3, 1.2)},
    {W: (1.2, 1.4), R: (1.6, 1.9), Y: (0.3, 2.8)},
]


@pytest.mark.parametrize("balls", HAZARD_LIMIT_POSITIONS)
def test_with_fifteen_hazards_counted_the_ai_never_chooses_a_hazard(balls: Balls) -> None:
    # Its nominal stroke, played without noise, is never a hazard alone (the 16th hazard),
    # and the same position with 75 cannons counted never gets a cannon alone.
    for counters, forbidden in (
        (Counters(hazards=15), FoulCode.HAZARD_LIMIT),
        (Counters(cannons=75), FoulCode.CANNON_LIMIT),
    ):
        game = real_game_at(balls, score=(45, 10), break_=45, counters=counters)
        choice = quick_ai(2).searcher.decide(game.position, random.Random(2))
        record = game.play(Action(choice.strike, placed=choice.placed))
        foul = record.verdict.foul
        assert foul is None or forbidden not in foul.codes


def test_at_72_the_ai_plans_the_baulk_line_crossing(monkeypatch: pytest.MonkeyPatch) -> None:
    # With a break of 78 a scoring stroke brings the break into the 80-99 window; the AI
    # values such a stroke by the crossings its leave offers (Searcher.crossing_value).
    # A leave that offers a sure crossing (here: told so) is chosen; at 50 no such look is
    # taken. (From 72 the next strokes reach the window: the same look is taken then.)
    balls = {W: (0.7, 1.5), R: (0.4, 1.0), Y: (1.2, 2.5)}
    looked: list[int] = []

    def sure_crossing(self: Searcher, position: Position, *args: object, **kw: object) -> float:
        looked.append(position.state.break_)
        return 50.0

    monkeypatch.setattr(Searcher, "crossing_value", sure_crossing)
    for brk in (78, 50):
        looked.clear()
        game = real_game_at(balls, score=(brk, 10), break_=brk, target=1000)
        choice = quick_ai(1).searcher.decide(game.position, random.Random(1))
        record = game.play(Action(choice.strike, placed=choice.placed))
        if brk == 78:
            assert looked
            assert all(80 <= b <= 99 for b in looked)
            assert record.verdict.baulk_required
            assert not record.verdict.visit_over
            assert choice.value > 10
        else:
            assert not looked


def test_in_the_window_the_crossing_look_ahead_finds_the_crossing() -> None:
    # The position of the crossing test at 90: a crossing is on, worth more than the
    # ordinary leave's share (which is all the look-ahead gives when it finds none).
    # (Each value is a mean over 8 noisy plays of the best crossings; averaged over a few
    # sets of draws, since one set may hold none that crosses.)
    # (A professional's: the crossing needs pace, and an amateur's errors at that pace —
    # they grow with it — leave him no crossing worth more than the leave.)
    game = real_game_at(CROSSING, score=(90, 10), break_=90, target=1000)
    searcher = AIPlayer(STRENGTHS["pro"], 1).searcher
    values = [searcher.crossing_value(game.position, rng=random.Random(k)) for k in range(5)]
    assert sum(values) / len(values) > searcher.leave_for(game.state, 0, fresh=False) + 0.5


def test_the_lag_winner_chooses_order_by_measured_value(monkeypatch: pytest.MonkeyPatch) -> None:
    player = quick_ai(1)
    for value, first in ((4.0, True), (-4.0, False)):
        monkeypatch.setattr(Searcher, "position_value", lambda self, pos, seed=0, v=value: v)
        assert player.lag_choice().play_first is first


def test_the_lag_winner_does_not_always_take_the_white() -> None:
    # The balls are alike on the simulated table: the ball is the seeded player's draw.
    balls = {quick_ai(seed).lag_choice().ball for seed in range(1, 9)}
    assert balls == {W, Y}


def test_the_opening_value_is_the_searchs_expected_value() -> None:
    player = quick_ai(3)
    value = player.opening_value()
    assert math.isfinite(value)
    assert player.lag_choice().play_first is (value >= 0)


def test_with_nothing_on_the_ai_plays_safe_leaving_the_opponent_little() -> None:
    # Both object balls tight on the bottom cushion, the white up the table: no score is
    # sensible. The stroke chosen leaves the opponent less than most strokes would.
    balls = {W: (0.889, 2.8), R: (0.30, 0.04), Y: (1.45, 0.04)}
    game = real_game_at(balls)
    searcher = quick_ai(1).searcher
    choice = searcher.decide(game.position, random.Random(1))

    def opponent_leave(strike: Strike) -> float:
        trial = real_game_at(balls)
        record = trial.play(Action(strike))
        if record.verdict.points > 0:
            return -1.0
        return searcher.leave_for(trial.state, 1, fresh=True)

    chosen = opponent_leave(choice.strike)
    rng = random.Random(5)
    others = sorted(
        opponent_leave(Strike(rng.uniform(0.5, 4.0), rng.uniform(0.0, 360.0))) for _ in range(30)
    )
    assert chosen <= others[len(others) // 4]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("robot", "unknown kind 'robot'"),
        ("ai:grandmaster", "unknown level 'grandmaster'"),
        ("human", "a person plays through an interface"),
    ],
)
def test_a_player_description_must_name_a_known_player(spec: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec, 1)


def test_make_player_builds_each_level() -> None:
    for level in STRENGTHS:
        assert make_player(f"ai:{level}", 1).description == f"ai:{level}"
