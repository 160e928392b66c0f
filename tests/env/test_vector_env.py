"""The vector form: table for table what SyncVectorEnv of single environments gives
(autoresets included), through gym.make_vec's vector entry point."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv

from onered.env import ENV_ID, SnookerOneRedVectorEnv


def compare(n: int, steps: int, seed: int, **settings: object) -> int:
    """Step the vector form and SyncVectorEnv side by side; the number of episodes ended."""
    vector = gym.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **settings)
    single = SyncVectorEnv([lambda: gym.make(ENV_ID, **settings) for _ in range(n)])
    a, info_a = vector.reset(seed=seed)
    b, info_b = single.reset(seed=seed)
    assert np.array_equal(a, b)
    assert np.array_equal(info_a["margin"], info_b["margin"])
    rng = np.random.default_rng(seed)
    ended = 0
    for _ in range(steps):
        actions = rng.uniform(-1.2, 1.2, size=(n, 8)).astype(np.float32)
        out_a, out_b = vector.step(actions), single.step(actions)
        for x, y in zip(out_a[:4], out_b[:4], strict=True):
            assert np.array_equal(x, y)
        for key in ("margin", "strokes"):
            assert np.array_equal(out_a[4][key], out_b[4][key])
        ended += int(np.sum(out_a[2] | out_a[3]))
    return ended


def test_vector_steps_equal_single_environments_across_autoresets() -> None:
    assert compare(6, 300, seed=7, target=20) > 6


def test_vector_steps_equal_single_environments_with_the_opponent_first() -> None:
    assert compare(3, 150, seed=1, target=15, agent_first=False, max_strokes=40) > 0


def test_vector_steps_equal_single_environments_against_an_ai_level() -> None:
    compare(2, 3, seed=3, target=10, opponent="beginner")


def test_reset_with_a_list_of_seeds_seeds_each_table() -> None:
    env = SnookerOneRedVectorEnv(num_envs=3, target=20)
    a, _ = env.reset(seed=[4, 5, 6])
    b, _ = SnookerOneRedVectorEnv(num_envs=3, target=20).reset(seed=4)
    assert np.array_equal(a, b)


def test_actions_of_the_wrong_shape_are_an_error() -> None:
    env = SnookerOneRedVectorEnv(num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"expected shape \(2, 8\)"):
        env.step(np.zeros((3, 8), dtype=np.float32))


def test_bad_number_of_tables_is_an_error() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        SnookerOneRedVectorEnv(num_envs=0)


def test_strokes_from_one_position_share_one_engine_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four tables at the opening, the agents placing at the same point: their four
    strokes are one engine call; the opponents' replies, each from its own position, one
    call each."""
    import onered.env.lean as lean

    calls: list[int] = []
    real = lean.simulate_compact

    def counting(balls, cue, launches, params, table):  # type: ignore[no-untyped-def]
        calls.append(len(launches))
        return real(balls, cue, launches, params, table)

    env = SnookerOneRedVectorEnv(num_envs=4, agent_first=True, target=50)
    env.reset(seed=0)
    monkeypatch.setattr(lean, "simulate_compact", counting)
    actions = np.zeros((4, 8), dtype=np.float32)
    actions[:, 0] = np.linspace(-0.9, 0.9, 4)  # four aims, one placement
    actions[:, 1] = -0.95  # slow: no table scores, every opponent replies
    env.step(actions)
    assert calls[0] == 4
    assert sum(calls) == 4 + len(calls) - 1
