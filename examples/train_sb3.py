"""Train an agent that plays billiards with Stable-Baselines3 (sb3-contrib's MaskablePPO)
on the shot library, then measure it against the AI's novice beside three baselines.

The agent chooses one of the library's candidate strokes a decision
(``onered.env.discrete.ShotLibraryEnv``: the easiest pots at three paces, in-offs,
cannons, safeties; masked when absent) and is paid its own points (``reward="own"``: its
strokes' points less its own fouls' penalties; the opponent's fouls pay nothing). It trains
against the fast scripted opponent (optionally the novice for the last share of the
steps: ``--curriculum``), within a budget of CPU time (this process and its children,
``resource.getrusage``; the evaluations' own CPU time is not counted as training). Every
``--eval-every`` steps it plays ``--eval-games`` games against ``ai:novice`` (the learning
curve); at the end ``--final-games`` games against ``ai:novice`` on other seeds, with a
95 % Wilson interval, and the same games for three baselines: always the library's first
candidate, uniform random over the unmasked candidates, and random continuous actions
(the plain environment). Writes the PNG ``--out`` names and, beside it, the same name in
``.svg`` and ``.json``.

    pip install 'onered[env,learn]'
    python examples/train_sb3.py [--cpu-minutes 30] [--steps 300000]
                                 [--out docs/env-learning-curve.png]
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from onered.env import SnookerOneRedEnv
from onered.env.discrete import ShotLibraryEnv
from onered.study.intervals import wilson as interval

#: Seeds of the curve's evaluation games and of the final ones (apart from training's).
CURVE_SEED = 1_000_000
FINAL_SEED = 2_000_000


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (user and system)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins / n`` (``onered.study.intervals``)."""
    return interval(wins, n) or (0.0, 1.0)


class Scaled(gym.ObservationWrapper[np.ndarray, np.int64, np.ndarray]):
    """Observations divided by their upper bounds (metres, scores and counters to ~[0, 1]),
    the masks passed through."""

    def __init__(self, env: ShotLibraryEnv) -> None:
        super().__init__(env)
        high = np.asarray(env.observation_space.high, dtype=np.float32)
        self._scale = np.where(high > 0, 1.0 / high, 1.0).astype(np.float32)
        self.observation_space = gym.spaces.Box(0.0, 1.0, high.shape, np.float32)

    def observation(self, observation: np.ndarray) -> np.ndarray:
        return np.clip(observation * self._scale, 0.0, 1.0).astype(np.float32)

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


#: The agent's execution noise (an AI level's name, or None: exact), set by --noise.
NOISE: dict[str, str | None] = {"level": None}


def library_env(opponent: str, target: int) -> Scaled:
    return Scaled(
        ShotLibraryEnv(opponent=opponent, target=target, reward="own", noise=NOISE["level"])
    )


@dataclass(frozen=True)
class Games:
    """Games of one policy against one opponent: wins, draws by the stroke cap count as
    not won; the agent's own points (its strokes' points less its fouls' penalties) and
    the final margin, per game; its decisions (steps) and CPU time."""

    games: int
    wins: int
    low: float
    high: float
    own_points: float
    margin: float
    decisions: int
    cpu_seconds: float

    @property
    def share(self) -> float:
        return self.wins / self.games if self.games else 0.0


Policy = Callable[[np.ndarray, np.ndarray, np.random.Generator], int]


def play(
    policy: Policy, opponent: str, games: int, seed: int, target: int, *, discrete: bool = True
) -> Games:
    """``games`` games of ``policy`` (observation, mask, rng -> slot; or, with
    ``discrete=False``, a random continuous action each step) against ``opponent``."""
    start = cpu_seconds()
    rng = np.random.default_rng(seed)
    wins = steps = 0
    own: list[float] = []
    margins: list[float] = []
    env: gym.Env[Any, Any] = (
        library_env(opponent, target)
        if discrete
        else SnookerOneRedEnv(opponent=opponent, target=target, reward="own")
    )
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        total = 0.0
        done = False
        while not done:
            if discrete:
                action: Any = policy(obs, np.asarray(info["action_mask"], bool), rng)
            else:
                action = rng.uniform(-1, 1, 8).astype(np.float32)
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            steps += 1
            done = terminated or truncated
        wins += int(terminated and info["margin"] > 0)
        own.append(total)
        margins.append(float(info["margin"]))
    low, high = wilson(wins, games)
    return Games(
        games,
        wins,
        low,
        high,
        float(np.mean(own)) if own else 0.0,
        float(np.mean(margins)) if margins else 0.0,
        steps,
        cpu_seconds() - start,
    )


def first_candidate(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(np.flatnonzero(mask)[0])


def uniform_candidate(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def model_policy(model: Any) -> Policy:
    def choose(obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    return choose


def train(args: argparse.Namespace) -> dict[str, Any]:
    """Train within the budget, evaluating on the way; the curve, the final games and the
    baselines as a dict (what the JSON beside ``--out`` holds)."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.monitor import Monitor

    torch.set_num_threads(1)
    budget = args.cpu_minutes * 60.0
    curve: list[dict[str, Any]] = []
    episodes: list[tuple[int, float, float]] = []  # training episodes: steps, CPU-min, points
    spent = {"eval": 0.0}
    begin = cpu_seconds()

    def training_cpu() -> float:
        return cpu_seconds() - begin - spent["eval"]

    def evaluate(model: Any, steps: int) -> None:
        if args.eval_games <= 0:
            return
        result = play(model_policy(model), args.opponent, args.eval_games, CURVE_SEED, args.target)
        spent["eval"] += result.cpu_seconds
        point = {**asdict(result), "steps": steps, "cpu_minutes": training_cpu() / 60.0}
        curve.append(point)
        print(
            f"steps {steps:>7}  train CPU {point['cpu_minutes']:5.1f} min  vs {args.opponent}: "
            f"won {result.wins}/{result.games}  own points/game {result.own_points:6.1f}",
            flush=True,
        )

    class Progress(BaseCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            # dense early (where the curve rises), then every --eval-every steps
            self.next_eval = min(args.n_steps, args.eval_every)

        def _on_step(self) -> bool:
            for info in self.locals.get("infos", []):
                if "episode" in info:
                    minutes = training_cpu() / 60.0
                    episodes.append((self.num_timesteps, minutes, float(info["episode"]["r"])))
            if self.num_timesteps >= self.next_eval:
                self.next_eval = min(2 * self.next_eval, self.next_eval + args.eval_every)
                evaluate(self.model, self.num_timesteps)
            return training_cpu() < budget

    def make(opponent: str) -> Monitor:
        return Monitor(library_env(opponent, args.target))

    phases = [(args.train_opponent, args.steps)]
    if args.curriculum > 0:
        switch = int(args.steps * (1 - args.curriculum))
        phases = [(args.train_opponent, switch), (args.opponent, args.steps - switch)]
    model = MaskablePPO(
        "MlpPolicy",
        make(phases[0][0]),
        n_steps=args.n_steps,
        batch_size=256,
        n_epochs=6,
        gamma=0.95,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    evaluate(model, 0)
    callback = Progress()
    for k, (opponent, steps) in enumerate(phases):
        if k > 0:
            model.set_env(make(opponent))
        if steps > 0 and training_cpu() < budget:
            model.learn(steps, callback=callback, reset_num_timesteps=False)
    trained_steps = int(model.num_timesteps)
    train_minutes = training_cpu() / 60.0
    if not curve or curve[-1]["steps"] != trained_steps:
        evaluate(model, trained_steps)
    if args.save:
        model.save(args.save)
    final = play(model_policy(model), args.opponent, args.final_games, FINAL_SEED, args.target)
    print(f"trained: {final.wins}/{final.games} won against {args.opponent}", flush=True)
    baselines = {}
    if args.baseline_games > 0:
        n = args.baseline_games
        baselines = {
            "first candidate": asdict(
                play(first_candidate, args.opponent, n, FINAL_SEED, args.target)
            ),
            "uniform over candidates": asdict(
                play(uniform_candidate, args.opponent, n, FINAL_SEED, args.target)
            ),
            "random continuous actions": asdict(
                play(uniform_candidate, args.opponent, n, FINAL_SEED, args.target, discrete=False)
            ),
        }
        for name, b in baselines.items():
            print(f"baseline {name}: {b['wins']}/{b['games']} won", flush=True)
    return {
        "settings": vars(args),
        "trained_steps": trained_steps,
        "train_cpu_minutes": train_minutes,
        "eval_cpu_minutes": spent["eval"] / 60.0,
        "curve": curve,
        "training_episodes": episodes,
        "final": asdict(final),
        "baselines": baselines,
        "versions": _versions(),
        "load_average": list(_load()),
        "finished": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in ("onered", "stable-baselines3", "sb3-contrib", "torch", "gymnasium"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = "absent"
    return out


def _load() -> Sequence[float]:
    try:
        import os

        return os.getloadavg()
    except OSError:
        return ()


def plot(result: dict[str, Any], out: Path) -> None:
    """The learning curve against training steps: the share of games won against the
    measured opponent (Wilson intervals) and the agent's own points a game (those games,
    and the training episodes' rolling mean), the baselines as lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    curve = result["curve"]
    x = [max(p["steps"], 1) for p in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.4), constrained_layout=True)
    share = [p["wins"] / p["games"] for p in curve]
    err = [
        [s - p["low"] for s, p in zip(share, curve, strict=True)],
        [p["high"] - s for s, p in zip(share, curve, strict=True)],
    ]
    opponent = result["settings"]["opponent"]
    trainer = result["settings"]["train_opponent"]
    label = "MaskablePPO, deterministic"
    left.errorbar(x, share, yerr=err, marker="o", capsize=3, label=label)
    right.plot(x, [p["own_points"] for p in curve], marker="o", label=f"{label}, vs {opponent}")
    episodes = result["training_episodes"]
    if episodes:
        steps = np.array([e[0] for e in episodes], dtype=float)
        points = np.array([e[-1] for e in episodes], dtype=float)
        window = max(1, min(20, len(points) // 5))
        rolling = np.convolve(points, np.ones(window) / window, mode="valid")
        right.plot(
            np.maximum(steps[window - 1 :], 1),
            rolling,
            linewidth=1,
            alpha=0.7,
            label=f"training episodes vs {trainer} (sampled actions, mean of {window})",
        )
    styles = iter(["--", ":", "-."])
    for name, b in result["baselines"].items():
        style = next(styles)
        left.axhline(b["wins"] / b["games"], linestyle=style, color="grey", label=name)
        right.axhline(
            b["own_points"], linestyle=style, color="grey", label=f"{name}, vs {opponent}"
        )
    left.axhline(0.55, color="red", linewidth=0.8, label="55 % target")
    final = result["final"]
    noise = result["settings"].get("noise")
    left.set_title(
        f"Games won against {opponent}: {curve[-1]['games'] if curve else 0} a point; "
        f"final {final['wins']}/{final['games']}"
        + (f"\n(the agent's strokes with the {noise}'s execution noise)" if noise else "")
    )
    right.set_title(
        f"The agent's own points a game ({result['train_cpu_minutes']:.1f} CPU-minutes)"
    )
    left.set_ylabel("share of games won (95 % Wilson interval)")
    left.set_ylim(-0.02, 1.02)
    right.set_ylabel("own points (its points less its fouls' penalties)")
    for ax in (left, right):
        ax.set_xscale("symlog", linthresh=1000)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax.set_xlim(0, max(x, default=1) * 1.3)
        ax.set_xticks([0, *(10.0**k for k in range(3, 8) if 10.0**k <= max(x, default=1) * 1.3)])
        ax.set_xlabel("training steps (decisions)")
        ax.grid(alpha=0.3)
    left.legend(fontsize=7, loc="upper left")
    right.legend(fontsize=7, loc="lower right")
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out.with_suffix(".png"), dpi=150)
    fig.savefig(out.with_suffix(".svg"))
    plt.close(fig)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--cpu-minutes", type=float, default=30.0, help="training budget")
    parser.add_argument("--steps", type=int, default=300_000, help="at most this many steps")
    parser.add_argument("--train-opponent", default="scripted")
    parser.add_argument("--opponent", default="ai:novice", help="the opponent measured")
    parser.add_argument(
        "--curriculum", type=float, default=0.0, help="share of the steps against --opponent"
    )
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--n-steps", type=int, default=1024, help="PPO's rollout length")
    parser.add_argument("--eval-every", type=int, default=25_000)
    parser.add_argument("--eval-games", type=int, default=40)
    parser.add_argument("--final-games", type=int, default=200)
    parser.add_argument("--baseline-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--save", default="", help="save the model here")
    parser.add_argument(
        "--out",
        default="docs/env-learning-curve.png",
        help="the PNG; the SVG and JSON beside it, with their own suffixes",
    )
    parser.add_argument("--plot-only", action="store_true", help="re-plot the JSON beside --out")
    parser.add_argument(
        "--noise", default=None, help="the agent's strokes with this AI level's execution noise"
    )
    args = parser.parse_args(argv)
    NOISE["level"] = args.noise
    if args.plot_only:
        result = json.loads(Path(args.out).with_suffix(".json").read_text())
        plot(result, Path(args.out))
        return result
    result = train(args)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1))
    plot(result, out)
    final = result["final"]
    print(
        f"trained {result['trained_steps']} steps in {result['train_cpu_minutes']:.1f} "
        f"CPU-minutes; against {args.opponent}: won {final['wins']}/{final['games']} "
        f"({final['wins'] / max(1, final['games']):.1%}, 95 % Wilson "
        f"{final['low']:.1%}-{final['high']:.1%}); own points a game {final['own_points']:.1f}"
    )
    return result


if __name__ == "__main__":
    main()
