"""The two-agent PettingZoo environment: PettingZoo's API and seed tests, turns, zero-sum
rewards that add up to the referee's score, and each agent's own view."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from onered.env import ACTION_NAMES, AGENTS, OBS_NAMES, SnookerOneRedAEC, aec_env

MY, THEIR = OBS_NAMES.index("my_score"), OBS_NAMES.index("their_score")
MY_X, THEIR_X = OBS_NAMES.index("my_x"), OBS_NAMES.index("their_x")


def test_passes_pettingzoos_api_test() -> None:
    api_test(aec_env(target=30), num_cycles=300)


def test_passes_pettingzoos_seed_test() -> None:
    seed_test(lambda: aec_env(target=30), num_cycles=100)


#: The action's elevation component (the cue level at -1: the ball never leaves the slate).
ELEVATION = ACTION_NAMES.index("elevation")


def play(
    env: SnookerOneRedAEC, seed: int, *, level: bool = False
) -> tuple[dict[str, float], list[str]]:
    """Random actions until the game ends (``level``: with the cue level, as players
    mostly strike); the rewards each agent collected and who was selected at each step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    totals = dict.fromkeys(AGENTS, 0.0)
    order: list[str] = []
    for agent in env.agent_iter(max_iter=5000):
        _, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert agent == env.frame.to_play()  # the agent selected is the player to play
        order.append(agent)
        action = rng.uniform(-1, 1, 8).astype(np.float32)
        if level:
            action[ELEVATION] = -1.0
        env.step(action)
    return totals, order


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rewards_are_zero_sum_and_add_up_to_the_score(seed: int) -> None:
    env = SnookerOneRedAEC(target=30)
    totals, order = play(env, seed)
    score = env.frame.game.state.score
    assert totals["player_0"] == score[0] - score[1] == -totals["player_1"]
    assert order[0] == "player_0"
    assert max(score) >= 30


def test_a_scoring_stroke_keeps_the_turn() -> None:
    # random strokes at any elevation mostly jump or fly off the table (fouls): level ones
    # score now and then
    env = SnookerOneRedAEC(target=200)
    _, order = play(env, 4, level=True)
    assert any(a == b for a, b in itertools.pairwise(order))


def test_truncated_for_both_at_the_stroke_cap() -> None:
    env = SnookerOneRedAEC(target=1000, max_strokes=6)
    _, order = play(env, 0)
    assert len(order) == 6


def test_each_agent_sees_the_table_from_his_side() -> None:
    env = SnookerOneRedAEC(target=100)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(10):
        env.step(rng.uniform(-1, 1, 8).astype(np.float32))
    a, b = env.observe("player_0"), env.observe("player_1")
    assert (a[MY], a[THEIR]) == (b[THEIR], b[MY])
    assert a[MY_X] == b[THEIR_X]


@pytest.mark.parametrize("setting", ["opponent", "agent_first"])
def test_single_agent_settings_are_refused(setting: str) -> None:
    with pytest.raises(TypeError, match=setting):
        SnookerOneRedAEC(**{setting: "random"})


def test_none_is_no_action_for_the_player_to_play() -> None:
    env = SnookerOneRedAEC()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="player_0 is to play"):
        env.step(None)
