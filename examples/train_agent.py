"""Train a simple agent for onered/SnookerOneRed-v0 with the cross-entropy method, then
evaluate it against random actions.

The policy has eight numbers: which object ball to aim at (the red or the opponent's
ball), a cut angle off the line of centres, the speed, side and height of the strike,
where to place the ball in the D when in hand, and the foul option. The cross-entropy
method samples a population of parameter vectors, plays each on its own table of the
vector form for a few hundred steps, and refits a Gaussian to the best quarter. About a
minute on defaults (less on an idle machine).

    python examples/train_agent.py [--iterations 12] [--population 16] [--steps 200]
                                   [--opponent random] [--seed 0]
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import onered.env  # noqa: F401 - registers onered/SnookerOneRed-v0
from onered.env import OBS_NAMES
from onered.env.spaces import PHYSICAL_HIGH, PHYSICAL_LOW, project_into_d

ID = "onered/SnookerOneRed-v0"
OBS = {name: k for k, name in enumerate(OBS_NAMES)}
#: The policy's parameters, each in [-1, 1].
PARAMS = ("target", "cut", "speed", "side", "height", "place_x", "place_y", "option")
MAX_CUT = 60.0  # degrees off the line of centres


def policy(obs: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Actions (n, 8) for observations (n, 29) and parameters (n, 8), table by table."""
    theta = np.clip(theta, -1.0, 1.0)
    n = len(obs)
    actions = np.zeros((n, 8), dtype=np.float32)
    for i in range(n):
        o, t = obs[i], theta[i]
        if o[OBS["in_hand"]]:
            lo, hi = PHYSICAL_LOW[5:7], PHYSICAL_HIGH[5:7]
            x, y = project_into_d(tuple(lo + (t[5:7] + 1) / 2 * (hi - lo)))
        else:
            x, y = o[OBS["my_x"]], o[OBS["my_y"]]
        use_red = t[0] > 0 or not o[OBS["their_on_table"]]
        tx, ty = (
            (o[OBS["red_x"]], o[OBS["red_y"]])
            if use_red
            else (o[OBS["their_x"]], o[OBS["their_y"]])
        )
        aim = np.degrees(np.arctan2(ty - y, tx - x)) + MAX_CUT * t[1]
        aim = (aim + 180.0) % 360.0 - 180.0
        actions[i] = (aim / 180.0, t[2], t[3], t[4], -1.0, t[5], t[6], t[7])
    return actions


def evaluate(envs: gym.vector.VectorEnv, thetas: np.ndarray, steps: int, seed: int) -> np.ndarray:
    """Mean reward per step of each table's parameters."""
    obs, _ = envs.reset(seed=seed)
    total = np.zeros(len(thetas))
    for _ in range(steps):
        obs, reward, _, _, _ = envs.step(policy(obs, thetas))
        total += reward
    return total / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=12)
    parser.add_argument("--population", type=int, default=16)
    parser.add_argument("--steps", type=int, default=200, help="steps per candidate")
    parser.add_argument("--opponent", default="random", help="random or an AI level")
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    start = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    settings = {"opponent": args.opponent, "target": args.target}
    envs = gym.make_vec(
        ID, num_envs=args.population, vectorization_mode="vector_entry_point", **settings
    )
    mean, std = np.zeros(len(PARAMS)), np.full(len(PARAMS), 0.6)
    elite = max(2, args.population // 4)
    for it in range(args.iterations):
        thetas = np.clip(rng.normal(mean, std, size=(args.population, len(PARAMS))), -1, 1)
        scores = evaluate(envs, thetas, args.steps, seed=args.seed * 1000 + it * 100)
        best = thetas[np.argsort(scores)[-elite:]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.02
        print(
            f"iteration {it + 1:2}: points per step, population mean {scores.mean():+.3f}, "
            f"best {scores.max():+.3f}"
        )

    # Evaluation on fresh tables: the learned mean against random actions.
    test = gym.make_vec(ID, num_envs=8, vectorization_mode="vector_entry_point", **settings)
    learned = evaluate(test, np.tile(mean, (8, 1)), 500, seed=99_999).mean()
    test.reset(seed=99_999)
    actions = np.random.default_rng(1)
    total = 0.0
    for _ in range(500):
        _, reward, _, _, _ = test.step(actions.uniform(-1, 1, (8, 8)).astype(np.float32))
        total += reward.sum()
    random_score = total / (500 * 8)
    print(
        "learned parameters:", ", ".join(f"{n} {v:+.2f}" for n, v in zip(PARAMS, mean, strict=True))
    )
    print(
        f"points per step against {args.opponent} (scored minus conceded): "
        f"learned {learned:+.3f}, random actions {random_score:+.3f}; "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
