"""The vector form: table for table what SyncVectorEnv of single environments gives
(autoresets included), through gym.make_vec's vector entry point."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import SyncVectorEnv
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.env import ENV_ID, ActionError, SnookerOneRedVectorEnv


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


class _CountingContext:
    """The engine's kernel context, counting the shots simulated alone (``simulate``)."""

    def __init__(self, context: object) -> None:
        self.context = context
        self.alone = 0

    def simulate(self, *args: object) -> object:
        self.alone += 1
        return self.context.simulate(*args)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self.context, name)


def test_with_two_threads_a_round_is_one_batch_over_two_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Twenty tables: their agents' strokes (whatever their positions) are one batch of
    twenty on two threads, and so are the opponents' replies; rounds smaller than SPLIT_AT
    run each shot alone; every stroke is simulated once."""
    from onered.env import strokes
    from onered.physics.batch import simulate_many

    batches: list[tuple[int, int]] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        batches.append((len(kwargs["strikes"]), kwargs["threads"]))
        return simulate_many(*args, **kwargs)

    monkeypatch.setattr(strokes, "simulate_many", counted)
    env = SnookerOneRedVectorEnv(num_envs=20, agent_first=True, target=50, threads=2)
    env.reset(seed=0)
    counting = _CountingContext(env.engine._context)
    env.engine._context = counting  # type: ignore[assignment]
    actions = np.zeros((20, 8), dtype=np.float32)
    actions[:, 0] = np.linspace(-0.9, 0.9, 20)  # twenty aims
    actions[:, 1] = -0.95  # slow: no table scores, every opponent replies
    _, _, _, _, info = env.step(actions)
    assert batches[:2] == [(20, 2), (20, 2)]
    assert sum(n for n, _ in batches) + counting.alone == int(np.sum(info["strokes"]))
    env.close()


def test_with_one_thread_each_stroke_is_simulated_alone() -> None:
    env = SnookerOneRedVectorEnv(num_envs=4, agent_first=True, target=50)
    env.reset(seed=0)
    counting = _CountingContext(env.engine._context)
    env.engine._context = counting  # type: ignore[assignment]
    _, _, _, _, info = env.step(np.zeros((4, 8), dtype=np.float32))
    assert counting.alone == int(np.sum(info["strokes"]))


def test_a_round_over_two_threads_equals_one_thread() -> None:
    """Rounds of 40 tables split over two threads give what one thread gives."""
    one = SnookerOneRedVectorEnv(num_envs=40, target=20)
    two = SnookerOneRedVectorEnv(num_envs=40, target=20, threads=2)
    rng = np.random.default_rng(5)
    a, b = one.reset(seed=9)[0], two.reset(seed=9)[0]
    assert np.array_equal(a, b)
    for _ in range(40):
        actions = rng.uniform(-1, 1, size=(40, 8)).astype(np.float32)
        for x, y in zip(one.step(actions)[:4], two.step(actions)[:4], strict=True):
            assert np.array_equal(x, y)
    two.close()


@settings(max_examples=8, deadline=None)
@given(
    st.integers(0, 2**31 - 1),
    st.integers(1, 12),
    st.integers(5, 30),
    st.sampled_from([None, True, False]),
)
def test_any_vector_form_equals_its_single_environments_step_for_step(
    seed: int, n: int, target: int, agent_first: bool | None
) -> None:
    compare(n, 25, seed=seed, target=target, agent_first=agent_first, max_strokes=60)


def test_tables_over_two_worker_processes_equal_one_process() -> None:
    """workers=2: each process holds a share of the tables, seeded as in one process."""
    one = SnookerOneRedVectorEnv(num_envs=5, target=15)
    two = SnookerOneRedVectorEnv(num_envs=5, target=15, workers=2)
    try:
        rng = np.random.default_rng(3)
        (a, info_a), (b, info_b) = one.reset(seed=11), two.reset(seed=11)
        assert np.array_equal(a, b)
        assert np.array_equal(info_a["margin"], info_b["margin"])
        for _ in range(40):
            actions = rng.uniform(-1.2, 1.2, size=(5, 8)).astype(np.float32)
            out_a, out_b = one.step(actions), two.step(actions)
            for x, y in zip(out_a[:4], out_b[:4], strict=True):
                assert np.array_equal(x, y)
            for key in ("margin", "strokes"):
                assert np.array_equal(out_a[4][key], out_b[4][key])
    finally:
        two.close()


def test_a_bad_action_in_a_worker_is_raised_in_the_parent() -> None:
    env = SnookerOneRedVectorEnv(num_envs=2, workers=2, clip=False)
    try:
        env.reset(seed=0)
        actions = np.zeros((2, 8), dtype=np.float32)
        actions[1, 1] = 3.0
        with pytest.raises(ActionError, match="speed"):
            env.step(actions)
    finally:
        env.close()
