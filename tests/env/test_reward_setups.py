"""The reward set-ups of the single-agent and vector forms: ``margin`` (the default,
unchanged) and ``own`` (the agent's own strokes' points less its own fouls' penalties),
held against the referee's verdicts."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.env import ConfigError, SnookerOneRedVectorEnv
from onered.env.core import AGENT, Reward
from onered.env.gym_env import SnookerOneRedEnv
from onered.env.lean import LeanGame
from onered.rules import Stroke, Verdict


@contextmanager
def recorded() -> Iterator[list[Verdict]]:
    """Every stroke verdict the referee gives in the games played inside, in order."""
    seen: list[Verdict] = []
    judge = LeanGame.judge

    def recording(self: LeanGame, stroke: Stroke) -> Verdict:
        verdict = judge(self, stroke)
        seen.append(verdict)
        return verdict

    with patch.object(LeanGame, "judge", recording):
        yield seen


def _own_from_verdicts(verdicts: list[Verdict]) -> tuple[int, int, int]:
    """The agent's points, his own penalties and the opponent's penalties (given to him)."""
    points = sum(v.points for v in verdicts if v.striker == AGENT and v.foul is None)
    own_penalties = sum(v.foul.penalty for v in verdicts if v.striker == AGENT and v.foul)
    their_penalties = sum(v.foul.penalty for v in verdicts if v.striker != AGENT and v.foul)
    return points, own_penalties, their_penalties


def test_margin_is_the_default_and_a_bad_name_is_refused() -> None:
    assert SnookerOneRedEnv().config.reward is Reward.MARGIN
    assert SnookerOneRedEnv(reward="own").config.reward is Reward.OWN
    with pytest.raises(ConfigError, match="reward"):
        SnookerOneRedEnv(reward="points")


@settings(max_examples=12)
@given(
    seed=st.integers(0, 2**31 - 1),
    opponent=st.sampled_from(["random", "scripted"]),
    target=st.integers(5, 30),
)
def test_own_rewards_add_up_to_own_points_less_own_penalties(
    seed: int, opponent: str, target: int
) -> None:
    env = SnookerOneRedEnv(opponent=opponent, target=target, reward="own", max_strokes=300)
    rng = np.random.default_rng(seed)
    total = 0.0
    with recorded() as verdicts:
        env.reset(seed=seed)
        done = False
        while not done:
            _, reward, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
            total += reward
            done = terminated or truncated
    points, own_penalties, their_penalties = _own_from_verdicts(verdicts)
    assert total == points - own_penalties
    # the opponent's fouls are in the agent's score, never in his own rewards
    score = env.frame.game.state.score[env.frame.seat(AGENT)]
    assert score == points + their_penalties


@settings(max_examples=5)
@given(seed=st.integers(0, 2**31 - 1))
def test_the_vector_form_pays_the_same_own_rewards(seed: int) -> None:
    settings_ = {"opponent": "random", "target": 20, "reward": "own", "max_strokes": 200}
    single = [SnookerOneRedEnv(**settings_) for _ in range(3)]
    vector = SnookerOneRedVectorEnv(3, **settings_)
    rng = np.random.default_rng(seed)
    vector.reset(seed=seed)
    for i, env in enumerate(single):
        env.reset(seed=seed + i)
    for _ in range(40):
        actions = rng.uniform(-1, 1, (3, 8)).astype(np.float32)
        _, rewards, _term, _trunc, _ = vector.step(actions)
        for i, env in enumerate(single):
            if env._ended:
                env.reset()
                continue
            _, reward, *_ = env.step(actions[i])
            assert reward == rewards[i]
