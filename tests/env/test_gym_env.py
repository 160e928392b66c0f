"""The single-agent environment onered/SnookerOneRed-v0: Gymnasium's checker, seeding,
reward accounting against the referee, episode ends, the foul option and placements."""

from __future__ import annotations

import math

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

import onered.env
from onered.env import (
    ENV_ID,
    OBS_NAMES,
    ActionError,
    ConfigError,
    OpponentError,
    encode_action,
    read_action,
)
from onered.env.gym_env import SnookerOneRedEnv
from onered.env.spaces import project_into_d
from onered.physics import Strike
from onered.rules import Ball, Spot
from onered.table import in_d

OPTION = 7


def run(env: gym.Env, seed: int, actions: list[np.ndarray], steps: int) -> list[tuple]:
    """Reset with ``seed`` and step through ``actions`` (cycled) up to ``steps`` times or
    the episode's end; every step's output."""
    obs, info = env.reset(seed=seed)
    out: list[tuple] = [(obs.tobytes(), info["margin"])]
    for k in range(steps):
        obs, reward, terminated, truncated, info = env.step(actions[k % len(actions)])
        out.append((obs.tobytes(), reward, terminated, truncated, info["margin"]))
        if terminated or truncated:
            break
    return out


def random_actions(seed: int, n: int = 64) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return list(rng.uniform(-1, 1, size=(n, len(onered.env.ACTION_NAMES))).astype(np.float32))


def test_passes_gymnasiums_env_checker() -> None:
    check_env(SnookerOneRedEnv(target=30), skip_render_check=True)


def test_passes_gymnasiums_env_checker_against_an_ai_level() -> None:
    check_env(SnookerOneRedEnv(target=10, opponent="beginner"), skip_render_check=True)


def test_registered_id_makes_the_environment_with_its_settings() -> None:
    env = gym.make(ENV_ID, opponent="random", target=40, max_strokes=50)
    assert isinstance(env.unwrapped, SnookerOneRedEnv)
    assert env.unwrapped.config.target == 40
    assert env.observation_space.shape == (len(OBS_NAMES),)


def test_module_prefixed_id_imports_the_package() -> None:
    env = gym.make(f"onered.env:{ENV_ID}")
    assert isinstance(env.unwrapped, SnookerOneRedEnv)


def test_register_twice_is_harmless() -> None:
    onered.env.register()
    onered.env.register()
    assert ENV_ID in gym.registry


def test_same_seed_same_episode() -> None:
    actions = random_actions(3)
    a = run(gym.make(ENV_ID, target=40), 11, actions, 300)
    b = run(gym.make(ENV_ID, target=40), 11, actions, 300)
    assert a == b


def test_same_seed_same_episode_against_an_ai_level() -> None:
    actions = random_actions(4)
    a = run(SnookerOneRedEnv(target=20, opponent="ai:beginner"), 2, actions, 4)
    b = run(SnookerOneRedEnv(target=20, opponent="ai:beginner"), 2, actions, 4)
    assert a == b


def test_different_seeds_give_different_episodes() -> None:
    actions = random_actions(3)
    runs = {tuple(run(SnookerOneRedEnv(target=30), seed, actions, 100)) for seed in range(4)}
    assert len(runs) > 1


def test_reset_without_seed_continues_the_generator() -> None:
    env = SnookerOneRedEnv(target=30)
    env.reset(seed=5)
    first = env.np_random.bit_generator.state
    env.reset()
    assert env.np_random.bit_generator.state != first


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    actions=st.lists(
        st.lists(st.floats(-1.5, 1.5, width=32), min_size=8, max_size=8), min_size=1, max_size=12
    ),
)
def test_rewards_add_up_to_the_referees_score_difference(
    seed: int, actions: list[list[float]]
) -> None:
    env = SnookerOneRedEnv(target=20, max_strokes=300)
    _, info = env.reset(seed=seed)
    frame = env.frame
    total = float(info["margin"])  # the opponent's opening visit, before any decision
    done = False
    k = 0
    while not done:
        before = frame.game.state.score
        _, reward, terminated, truncated, info = env.step(np.array(actions[k % len(actions)]))
        after = frame.game.state.score
        me = frame.seat("agent")
        assert reward == (after[me] - before[me]) - (after[1 - me] - before[1 - me])
        total += reward
        done = terminated or truncated
        k += 1
    score = frame.game.state.score
    me = frame.seat("agent")
    assert total == score[me] - score[1 - me] == info["margin"]
    assert terminated == (max(score) >= 20)


def test_episode_terminates_when_a_player_reaches_the_target() -> None:
    env = SnookerOneRedEnv(target=6, max_strokes=10_000)
    env.reset(seed=1)
    terminated = truncated = False
    for action in random_actions(1, 2000):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
    assert terminated
    assert not truncated
    assert max(env.frame.game.state.score) >= 6


def test_episode_is_truncated_at_the_stroke_cap() -> None:
    env = SnookerOneRedEnv(target=1000, max_strokes=5)
    env.reset(seed=1)
    ends = []
    for action in random_actions(2, 10):
        _, _, terminated, truncated, _ = env.step(action)
        ends.append((terminated, truncated))
        if terminated or truncated:
            break
    assert ends[-1] == (False, True)
    assert env.frame.strokes == 5


def test_step_after_the_end_asks_for_a_reset() -> None:
    env = SnookerOneRedEnv(target=1000, max_strokes=1)
    env.reset(seed=1)
    env.step(random_actions(0)[0])
    with pytest.raises(gym.error.ResetNeeded):
        env.step(random_actions(0)[0])


def test_step_before_reset_asks_for_a_reset() -> None:
    with pytest.raises(gym.error.ResetNeeded):
        SnookerOneRedEnv().step(random_actions(0)[0])


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_action_is_an_error_naming_the_component(bad: float) -> None:
    env = SnookerOneRedEnv()
    env.reset(seed=0)
    action = np.zeros(8, dtype=np.float32)
    action[1] = bad
    with pytest.raises(ActionError, match=r"action\[1\] \(speed\) must be finite"):
        env.step(action)


def test_action_of_the_wrong_shape_is_an_error() -> None:
    env = SnookerOneRedEnv()
    env.reset(seed=0)
    with pytest.raises(ActionError, match=r"expected shape \(8,\)"):
        env.step(np.zeros(5))
    with pytest.raises(ActionError, match="expected 8 numbers"):
        env.step("aim")  # type: ignore[arg-type]


def test_out_of_range_action_is_clipped_to_the_box() -> None:
    wild = np.array([3.0, -7.0, 2.0, -2.0, 5.0, 9.0, -9.0, 4.0], dtype=np.float32)
    clipped = np.clip(wild, -1, 1)
    a = run(SnookerOneRedEnv(target=30), 8, [wild], 20)
    b = run(SnookerOneRedEnv(target=30), 8, [clipped], 20)
    assert a == b


def test_out_of_range_action_is_an_error_without_clipping() -> None:
    env = SnookerOneRedEnv(clip=False)
    env.reset(seed=0)
    with pytest.raises(ActionError, match=r"action\[4\] \(elevation\) = 1.5 is outside"):
        env.step(np.array([0, 0, 0, 0, 1.5, 0, 0, 0], dtype=np.float32))


def test_unknown_opponent_is_an_error_naming_it() -> None:
    with pytest.raises(OpponentError, match="'grandmaster' is not one of random"):
        SnookerOneRedEnv(opponent="grandmaster")


@pytest.mark.parametrize(
    ("setting", "value"), [("target", 0), ("max_strokes", -1), ("agent_first", "yes")]
)
def test_bad_setting_is_an_error_naming_it(setting: str, value: object) -> None:
    with pytest.raises(ConfigError, match=setting):
        SnookerOneRedEnv(**{setting: value})


def test_agent_first_gives_the_agent_the_white_and_the_first_stroke() -> None:
    env = SnookerOneRedEnv(agent_first=True)
    obs, info = env.reset(seed=3)
    names = dict(zip(OBS_NAMES, obs.tolist(), strict=True))
    assert names["my_ball_white"] == 1
    assert names["my_turn"] == 1
    assert names["in_hand"] == 1
    assert info == {"margin": 0, "strokes": 0}


def test_opponent_first_plays_his_visit_before_the_agents_first_decision() -> None:
    env = SnookerOneRedEnv(agent_first=False)
    obs, info = env.reset(seed=3)
    names = dict(zip(OBS_NAMES, obs.tolist(), strict=True))
    assert names["my_ball_white"] == 0
    assert names["my_turn"] == 1
    assert info["strokes"] >= 1


def test_observation_is_the_table_and_the_referees_state_from_the_agents_side() -> None:
    env = SnookerOneRedEnv(target=40)
    obs, _ = env.reset(seed=9)
    for action in random_actions(9, 30):
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
        state, balls = env.frame.game.state, env.frame.game.balls
        me = env.frame.seat("agent")
        mine, theirs = state.match.balls[me], state.match.balls[1 - me]
        names = dict(zip(OBS_NAMES, obs.tolist(), strict=True))
        for prefix, ball in (("my", mine), ("their", theirs), ("red", Ball.RED)):
            assert names[f"{prefix}_on_table"] == (ball in balls)
            if ball in balls:
                assert names[f"{prefix}_x"] == np.float32(balls[ball][0])
                assert names[f"{prefix}_y"] == np.float32(balls[ball][1])
        assert (names["my_score"], names["their_score"]) == (state.score[me], state.score[1 - me])
        assert names["my_turn"] == 1  # every decision is the agent's
        assert names["in_hand"] == (mine not in balls)
        assert names["option_pending"] == state.choice_pending
        spot = "none" if state.red_spot is None else state.red_spot.value
        assert names[f"red_spot_{spot}"] == 1
        assert env.observation_space.contains(obs)


def first_decision_with_a_pending_option(env: SnookerOneRedEnv) -> None:
    """Step random actions until the agent's next decision comes with a foul option."""
    for action in random_actions(5, 500):
        if env.frame.game.state.choice_pending:
            return
        env.step(action)
    raise AssertionError("no foul option in 500 random strokes")


def test_foul_option_component_above_zero_plays_from_the_d() -> None:
    env = SnookerOneRedEnv(target=1000, agent_first=True)
    env.reset(seed=2)
    first_decision_with_a_pending_option(env)
    action = random_actions(6)[0]
    action[OPTION] = 0.7
    frame = env.frame
    frame.prepare(read_action(action))
    state = frame.game.state
    assert not state.choice_pending
    assert state.match.balls[frame.seat("agent")] not in frame.game.balls  # in hand (2.12.3)
    assert state.red_spot is Spot.BILLIARDS


def test_foul_option_component_up_to_zero_plays_the_balls_as_they_lie() -> None:
    env = SnookerOneRedEnv(target=1000, agent_first=True)
    env.reset(seed=2)
    first_decision_with_a_pending_option(env)
    action = random_actions(6)[0]
    action[OPTION] = -0.2
    frame = env.frame
    balls = dict(frame.game.balls)
    frame.prepare(read_action(action))
    assert not frame.game.state.choice_pending
    assert frame.game.balls == balls


def test_from_hand_the_ball_is_placed_at_the_requested_point_projected_onto_the_d() -> None:
    env = SnookerOneRedEnv(agent_first=True)
    env.reset(seed=4)
    action = encode_action(Strike(2.0, 90.0), (1.15, 0.5))  # in the D's box, not in the D
    placed = env.frame.prepare(read_action(action)).placed
    assert placed is not None
    assert in_d(placed)
    assert placed == project_into_d(read_action(action).place)


def test_an_opening_visit_that_ends_the_episode_ends_it_at_the_first_step() -> None:
    env = SnookerOneRedEnv(agent_first=False, max_strokes=1)
    _, info = env.reset(seed=0)
    assert info["strokes"] == 1
    _, reward, terminated, truncated, info = env.step(random_actions(0)[0])
    assert (reward, terminated, truncated, info["strokes"]) == (0.0, False, True, 1)
