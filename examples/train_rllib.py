"""Run a few iterations of RLlib's PPO on onered/SnookerOneRed-v0 (one local process).

RLlib builds the environment from its registered name with the settings given here (the
``own`` reward: the agent's own points, not the opponent's fouls), samples with one
env-runner in the driver process and updates a small torch policy on the CPU. This shows
the environment running under RLlib; ``examples/train_sb3.py`` is the one that learns to
beat the novice (docs/env.md, "Training an agent that learns billiards").

    pip install 'onered[env,learn]'
    python examples/train_rllib.py [--iterations 3] [--batch 1000] [--opponent scripted]
"""

from __future__ import annotations

import argparse
import math
import os
import secrets
import time
from collections.abc import Sequence
from typing import Any

from onered.env import SnookerOneRedEnv


def make_env(config: dict[str, Any]) -> SnookerOneRedEnv:
    """The environment RLlib asks for, with the settings of its ``env_config``."""
    return SnookerOneRedEnv(**config)


def main(argv: Sequence[str] | None = None) -> list[dict[str, float]]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--batch", type=int, default=1000, help="steps a training iteration")
    parser.add_argument("--opponent", default="scripted")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    register_env("onered-snooker-one-red", make_env)
    # Ray 2.60 turns token authentication on for a local instance and, without a token in
    # the environment, writes one to ~/.ray/auth_token, which every later `ray start`
    # then asks for (docs/study.md): this run's Ray gets a token of its own instead
    if not os.environ.get("RAY_AUTH_TOKEN"):
        os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        config = (
            PPOConfig()
            .environment(
                "onered-snooker-one-red",
                env_config={"opponent": args.opponent, "target": args.target, "reward": "own"},
            )
            .framework("torch")
            .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
            .learners(num_learners=0)
            .training(
                train_batch_size_per_learner=args.batch,
                minibatch_size=min(128, args.batch),
                num_epochs=2,
                lr=3e-4,
            )
            .debugging(seed=args.seed)
        )
        algo = config.build_algo()
        history = []
        for k in range(args.iterations):
            start = time.process_time()
            result = algo.train()
            runners = result.get("env_runners", {})
            row = {
                "iteration": k + 1,
                "steps": float(result.get("num_env_steps_sampled_lifetime", math.nan)),
                "episode_return_mean": float(runners.get("episode_return_mean", math.nan)),
                "cpu_seconds": time.process_time() - start,
            }
            history.append(row)
            print(
                f"iteration {row['iteration']}: {row['steps']:.0f} steps, mean episode return "
                f"{row['episode_return_mean']:.2f}, {row['cpu_seconds']:.1f} CPU-s",
                flush=True,
            )
        algo.stop()
        return history
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
