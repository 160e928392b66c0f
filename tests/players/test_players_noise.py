"""The execution noise: power and side cost what they cost (``onered.players.strength``)."""

from __future__ import annotations

import math
import random
import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.physics import Params
from onered.physics.cue import squirt_angle, within_limits
from onered.physics.types import Strike
from onered.players import STRENGTHS
from onered.players.strength import PACE, REFERENCE_PACE, Noise

LEVEL_NAMES = list(STRENGTHS)


def _aims(noise: Noise, strike: Strike, n: int = 4000) -> list[float]:
    rng = random.Random(11)
    return [noise.apply(strike, rng).aim for _ in range(n)]


def test_the_aim_error_is_the_stated_one_at_the_reference_pace() -> None:
    noise = Noise(aim=0.1, speed=0.0, tip=0.0, pace=PACE)
    spread = statistics.pstdev(_aims(noise, Strike(REFERENCE_PACE, 30.0)))
    assert spread == pytest.approx(0.1, rel=0.05)


@pytest.mark.parametrize("speed", [0.5, 3.0, 6.0])
def test_the_aim_error_grows_linearly_with_pace(speed: float) -> None:
    noise = Noise(aim=0.1, speed=0.0, tip=0.0, pace=PACE)
    expected = 0.1 * (1 + PACE * (speed - REFERENCE_PACE))
    assert noise.aim_sigma(Strike(speed, 30.0)) == pytest.approx(expected)
    spread = statistics.pstdev(_aims(noise, Strike(speed, 30.0)))
    assert spread == pytest.approx(expected, rel=0.05)


def test_a_power_stroke_is_less_accurate_than_a_soft_one_at_every_level() -> None:
    for strength in STRENGTHS.values():
        noise = strength.noise
        soft, hard = Strike(1.0, 0.0), Strike(6.0, 0.0)
        assert noise.aim_sigma(hard) > 2 * noise.aim_sigma(soft)


def test_side_adds_its_uncompensated_squirt_to_the_aim_error() -> None:
    noise = Noise(aim=0.05, speed=0.0, tip=0.0, pace=0.0, side=0.02)
    squirt = math.degrees(squirt_angle(0.4, Params()))
    assert noise.aim_sigma(Strike(1.5, 0.0, 0.4)) == pytest.approx(math.hypot(0.05, 0.02 * squirt))
    assert noise.aim_sigma(Strike(1.5, 0.0, -0.4)) == noise.aim_sigma(Strike(1.5, 0.0, 0.4))
    assert noise.aim_sigma(Strike(1.5, 0.0, 0.0)) == 0.05


def test_the_tip_error_grows_with_pace_too() -> None:
    noise = Noise(aim=0.0, speed=0.0, tip=0.02, pace=PACE)
    rng = random.Random(3)
    hard = [noise.apply(Strike(6.0, 0.0), rng).side for _ in range(3000)]
    assert statistics.pstdev(hard) == pytest.approx(0.02 * noise.growth(6.0), rel=0.06)


def test_without_pace_and_side_the_noise_draws_as_before() -> None:
    # the formula of the noise before pace and side: one Gaussian per part, in this order
    noise = Noise(aim=0.1, speed=0.05, tip=0.02, elevation=1.0)
    strike = Strike(2.0, 45.0, 0.1, -0.2, 3.0)
    rng, old = random.Random(9), random.Random(9)
    for _ in range(50):
        got = noise.apply(strike, rng)
        aim = 45.0 + old.gauss(0.0, 0.1)
        speed = 2.0 * (1.0 + old.gauss(0.0, 0.05))
        side = 0.1 + old.gauss(0.0, 0.02)
        height = -0.2 + old.gauss(0.0, 0.02)
        elevation = 3.0 + old.gauss(0.0, 1.0)
        assert got == Strike(speed, aim, side, height, elevation)


def test_one_draw_serves_many_strokes_common_random_numbers() -> None:
    noise = STRENGTHS["pro"].noise
    draw = noise.draw(random.Random(5))
    strike = Strike(2.0, 10.0, 0.2, 0.1)
    assert noise.deliver(strike, draw) == noise.apply(strike, random.Random(5))
    # the same draw, a harder stroke: the same direction of error, larger
    soft, hard = noise.deliver(Strike(1.0, 10.0), draw), noise.deliver(Strike(5.0, 10.0), draw)
    assert (soft.aim - 10.0) * (hard.aim - 10.0) > 0
    assert abs(hard.aim - 10.0) > abs(soft.aim - 10.0)


@pytest.mark.parametrize("bad", [-0.1, 0.7, math.nan])
def test_a_pace_growth_that_would_make_errors_negative_is_refused(bad: float) -> None:
    with pytest.raises(ValueError, match=r"noise\.pace"):
        Noise(aim=0.1, speed=0.0, tip=0.0, pace=bad)


def test_a_side_share_out_of_range_is_refused() -> None:
    with pytest.raises(ValueError, match=r"noise\.side"):
        Noise(aim=0.1, speed=0.0, tip=0.0, side=-1.0)


@given(
    level=st.sampled_from(LEVEL_NAMES),
    speed=st.floats(0.05, 10.0),
    aim=st.floats(-360.0, 360.0),
    side=st.floats(-0.55, 0.55),
    height=st.floats(-0.55, 0.55),
    elevation=st.floats(0.0, 60.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_delivered_strike_is_always_one_the_cue_can_play(
    level: str, speed: float, aim: float, side: float, height: float, elevation: float, seed: int
) -> None:
    noise = STRENGTHS[level].noise
    delivered = noise.apply(Strike(speed, aim, side, height, elevation), random.Random(seed))
    assert within_limits(
        delivered.speed, delivered.aim, delivered.side, delivered.height, delivered.elevation
    )
