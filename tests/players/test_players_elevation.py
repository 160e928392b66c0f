"""The cue's elevation as players have it: the least the rail and the balls allow, the
level's error on top, and the search weighing the jumps and balls off the table it brings
like any other foul."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game_support import QUICK, R, W, Y, quick_ai, real_game_at
from onered.game.model import Action
from onered.physics import Params, TableSpec
from onered.physics.cue import MAX_ELEVATION
from onered.physics.types import Strike
from onered.players import LEVELS, AIPlayer, Level, Noise
from onered.players.elevation import SNOOKER_CUE, Clearance
from onered.players.search import FORBIDDEN_COST, Searcher, _Context
from onered.players.strength import clamp_strike
from onered.rules import FoulCode
from onered.rules.model import PENALTY
from onered.table import BALL_RADIUS, LENGTH, WIDTH, Point

PARAMS, TABLE = Params(), TableSpec()
#: The white a hair from the left cushion, the red 20 cm in front of it across the table:
#: the cue must come over the rail (about 30 degrees at the centre of the ball), and a hard
#: stroke there jumps the red (and at 6 m/s the white flies off the table).
UNDER_CUSHION = {W: (BALL_RADIUS + 0.002, 1.6), R: (BALL_RADIUS + 0.202, 1.6), Y: (1.5, 3.0)}


def clearance(cue: Point, *others: Point) -> Clearance:
    return Clearance(cue, others, PARAMS, TABLE)


def test_a_cue_is_level_when_nothing_is_within_its_length_behind() -> None:
    middle = clearance((WIDTH / 2, LENGTH / 2))
    assert middle.minimum(90.0) == 0.0  # the bottom cushion 1.78 m behind: beyond the cue
    assert middle.minimum(-90.0) == 0.0
    assert 0.0 < middle.minimum(0.0) < 2.0  # the side cushion 0.89 m behind: the butt rises


def test_the_nearer_the_cushion_the_higher_the_cue() -> None:
    angles = [clearance((x, 1.6)).minimum(0.0) for x in (0.9, 0.5, 0.2, 0.1, 0.05, BALL_RADIUS)]
    assert angles == sorted(angles)
    assert 25.0 < angles[-1] < 40.0  # a ball against the cushion, struck at its centre
    # struck high the cue clears the nose lower down; screw needs it steep
    frozen = clearance((BALL_RADIUS, 1.6))
    assert frozen.minimum(0.0, height=0.5) < frozen.minimum(0.0) < frozen.minimum(0.0, height=-0.5)


def test_a_ball_behind_raises_the_cue_and_one_beside_the_line_does_not() -> None:
    cue = (0.9, 1.6)
    behind = clearance(cue, (0.9 - 2 * BALL_RADIUS - 0.005, 1.6))
    beside = clearance(cue, (0.9 - 0.1, 1.6 + 2 * BALL_RADIUS + 0.02))
    alone = clearance(cue)
    assert behind.minimum(0.0) > 20.0
    assert beside.minimum(0.0) == alone.minimum(0.0)
    # a ball in front of the cue ball is not in the cue's way
    assert clearance(cue, (1.0, 1.6)).minimum(0.0) == alone.minimum(0.0)


def _gaps(
    cue: Point, others: list[Point], aim: float, side: float, height: float, elev: float
) -> float:
    """The least gap (m) between the cue (a tapered rod along its 3-D axis, sampled every
    half millimetre near the ball, every 2 mm beyond) and the rail top or a ball:
    negative when the cue passes through one."""
    r, h = PARAMS.R, PARAMS.cushion_height
    phi, th = math.radians(aim), math.radians(elev)
    e_c = (math.cos(th) * math.cos(phi), math.cos(th) * math.sin(phi), -math.sin(th))
    e_u = (math.cos(phi) * math.sin(th), math.sin(phi) * math.sin(th), math.cos(th))
    e_r = (math.sin(phi), -math.cos(phi), 0.0)
    c = math.sqrt(1 - side * side - height * height)
    centre = (cue[0], cue[1], r)
    q = [centre[i] + r * (side * e_r[i] + height * e_u[i] - c * e_c[i]) for i in range(3)]
    gap = math.inf
    near = [k * 0.0005 for k in range(400)]  # every half millimetre near the ball
    for s in near + [0.2 + k * 0.002 for k in range(int((SNOOKER_CUE.length - 0.2) / 0.002) + 1)]:
        x, y, z = (q[i] - s * e_c[i] for i in range(3))
        rad = SNOOKER_CUE.radius_at(s)
        out = max(-x, x - WIDTH, -y, y - LENGTH)
        if 0 <= out <= PARAMS.rail_width:  # over the rail: the cue's underside above its top
            gap = min(gap, z - rad / math.cos(th) - h)
        for bx, by in others:
            gap = min(gap, math.dist((x, y, z), (bx, by, r)) - r - rad)
    return gap


#: How far the three-dimensional drawing of the cue may differ from the closed form (m).
_DRAWING = 3e-4


@given(
    x=st.floats(BALL_RADIUS, WIDTH - BALL_RADIUS),
    y=st.floats(BALL_RADIUS, LENGTH - BALL_RADIUS),
    aim=st.floats(-180.0, 180.0),
    side=st.floats(-0.5, 0.5),
    height=st.floats(-0.55, 0.55),
    behind=st.floats(0.002, 0.3),
    across=st.floats(-0.06, 0.06),
)
def test_the_least_elevation_clears_the_rail_and_the_balls_and_no_less_does(
    x: float, y: float, aim: float, side: float, height: float, behind: float, across: float
) -> None:
    # The closed form against the cue drawn in three dimensions: at the least elevation the
    # cue passes over the rail and the ball behind (within 0.3 mm: the closed form takes the
    # cue's radius where it crosses, the drawing its radius all along), and a fifth lower
    # (at least a degree) it would strike one of them, within the same 0.3 mm (a grazing
    # case a fifth lower can clear the drawing by microns).
    cue = (x, y)
    phi = math.radians(aim)
    d = 2 * BALL_RADIUS + behind
    ball = (
        x - d * math.cos(phi) + across * math.sin(phi),
        y - d * math.sin(phi) - across * math.cos(phi),
    )
    others = (
        [ball]
        if BALL_RADIUS <= ball[0] <= WIDTH - BALL_RADIUS
        and BALL_RADIUS <= ball[1] <= LENGTH - BALL_RADIUS
        else []
    )
    least = clearance(cue, *others).minimum(aim, side, height)
    assert 0.0 <= least <= MAX_ELEVATION
    if least < 85.0:
        assert _gaps(cue, others, aim, side, height, least) > -_DRAWING
    if least > 1.0:
        lower = least - max(1.0, 0.2 * least)
        assert _gaps(cue, others, aim, side, height, lower) < _DRAWING


def test_a_noise_without_an_elevation_error_draws_as_before() -> None:
    strike = Strike(2.0, 45.0, 0.1, -0.2, 3.0)
    plain = Noise(aim=0.1, speed=0.05, tip=0.02)
    rng = random.Random(4)
    a = plain.apply(strike, rng)
    assert a.elevation == 3.0
    after = rng.random()
    rng = random.Random(4)
    b = replace(plain, elevation=1.0).apply(strike, rng)
    assert (b.aim, b.speed, b.side, b.height) == (a.aim, a.speed, a.side, a.height)
    assert b.elevation != 3.0
    assert rng.random() != after  # one more draw: the elevation's


def test_an_elevation_is_kept_within_the_cue_actions_limits() -> None:
    assert clamp_strike(Strike(1.0, 0.0, elevation=-2.0)).elevation == 0.0
    assert clamp_strike(Strike(1.0, 0.0, elevation=95.0)).elevation == MAX_ELEVATION


def test_the_levels_elevation_error_falls_level_by_level() -> None:
    errors = [LEVELS[level].noise.elevation for level in Level]
    assert all(e > 0 for e in errors)
    assert errors == sorted(errors, reverse=True)


def test_the_ai_plays_its_cue_no_lower_than_the_rail_allows() -> None:
    game = real_game_at(UNDER_CUSHION)
    clear = Searcher(QUICK, PARAMS, TABLE).clearance(game.position)
    for seed in range(4):
        action = quick_ai(seed).decide(game.position)
        nominal = action.intent.nominal if action.intent is not None else None
        assert nominal is not None
        # the stroke meant is at the least elevation for its aim and tip (no reason to
        # raise the cue more); the stroke played no lower than the least for its own aim
        least = clear.minimum(nominal.aim, nominal.side, nominal.height)
        assert nominal.elevation == least > 5.0
        played = action.strike
        assert played.elevation >= clear.minimum(played.aim, played.side, played.height)


def test_the_lag_is_cued_over_the_bottom_cushion() -> None:
    strike = AIPlayer(LEVELS[Level.PRO], 1).lag((0.589, 0.6))
    assert strike.elevation >= clearance((0.589, 0.6)).minimum(
        strike.aim, strike.side, strike.height
    )
    assert strike.elevation > 0.5


#: A search that tries only the red straight on, centre ball, at a safe pace and a hard one.
HARD_OR_SOFT = replace(
    QUICK,
    budget=replace(QUICK.budget, window=3, speeds=(3.0, 6.0), heights=(0.0,), refine=2),
)


def test_a_jump_and_a_ball_off_the_table_cost_what_any_foul_costs() -> None:
    game = real_game_at(UNDER_CUSHION)
    searcher = Searcher(HARD_OR_SOFT, PARAMS, TABLE)
    ctx = _Context(game.position)
    (hard,) = searcher._run(ctx, [None], [(0, Strike(6.0, 0.0), 0)], 0.0)
    foul = hard.verdict.foul
    assert foul is not None
    assert {FoulCode.JUMP, FoulCode.OFF_TABLE} <= set(foul.codes)
    assert hard.strike.elevation > 25.0  # raised over the rail: that is what makes it fly
    # the game plays the same stroke to the same verdict
    assert game.play(Action(hard.strike)).verdict == hard.verdict
    # valued as any foul: the penalty and the opponent's better option, no limit's cost
    state = game.state
    expected = -PENALTY - max(searcher.leave_for(state, 1 - ctx.s, fresh=True), 0.0)
    assert hard.value == pytest.approx(expected, abs=1e-9)  # the leave in batch form
    assert hard.value > -PENALTY - FORBIDDEN_COST - 50


def test_the_search_prefers_a_softer_stroke_to_one_that_jumps() -> None:
    # Straight at the red, centre ball (the cue at 30 degrees over the rail): at 6 m/s the
    # white jumps the red and flies off the table, at 3 m/s it does not. The search, which
    # tries both, plays the soft one (or another stroke), never the hard one.
    game = real_game_at(UNDER_CUSHION)
    searcher = Searcher(HARD_OR_SOFT, PARAMS, TABLE)
    _, _, _, scanned = searcher._scanned(game.position)
    straight = {x.strike.speed: x for x in scanned if x.strike.aim == 0.0}
    hard, soft = straight[6.0].verdict.foul, straight[3.0].verdict.foul
    assert hard is not None
    assert {FoulCode.JUMP, FoulCode.OFF_TABLE} <= set(hard.codes)
    assert soft is None
    assert straight[3.0].value > straight[6.0].value
    choice = searcher.decide(game.position, random.Random(1))
    assert choice.strike.speed < 5.0
    assert game.play(Action(choice.strike)).verdict.foul is None
