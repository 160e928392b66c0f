"""The learning examples run on a tiny budget: Stable-Baselines3 (MaskablePPO on the shot
library) and RLlib (PPO on the environment). Skipped when the optional ``learn`` extra
(torch, stable-baselines3, sb3-contrib, RLlib's parts) is not installed: CI's default
install leaves it out."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _importable(*names: str) -> bool:
    for name in names:
        try:
            if importlib.util.find_spec(name) is None:
                return False
        except (ImportError, ValueError):
            return False
    return True


@pytest.mark.skipif(
    not _importable("torch", "stable_baselines3", "sb3_contrib"),
    reason="the learn extra (torch, stable-baselines3, sb3-contrib) is not installed",
)
def test_sb3_example_trains_evaluates_and_writes_its_curve(tmp_path: Path) -> None:
    out = tmp_path / "curve"
    args = [
        "--steps", "300", "--n-steps", "128", "--eval-every", "150", "--eval-games", "1",
        "--final-games", "2", "--baseline-games", "1", "--target", "8",
        "--opponent", "scripted", "--out", str(out),
    ]  # fmt: skip
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_sb3.py"), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "Wilson" in done.stdout
    result = json.loads(out.with_suffix(".json").read_text())
    assert result["final"]["games"] == 2
    assert 0.0 <= result["final"]["low"] <= result["final"]["high"] <= 1.0
    assert set(result["baselines"]) == {
        "first candidate",
        "uniform over candidates",
        "random continuous actions",
    }
    assert next(p["steps"] for p in result["curve"]) == 0
    assert len(result["curve"]) >= 2
    assert out.with_suffix(".png").stat().st_size > 0
    assert out.with_suffix(".svg").read_text().lstrip().startswith("<?xml")


def _rllib_importable() -> bool:
    if not _importable("torch", "ray", "tree"):
        return False
    try:
        from ray.rllib.algorithms.ppo import PPOConfig  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.skipif(
    not _rllib_importable(), reason="RLlib (ray[rllib]'s parts) and torch are not installed"
)
def test_rllib_example_runs_one_tiny_iteration() -> None:
    args = ["--iterations", "1", "--batch", "100", "--target", "5"]
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_rllib.py"), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    assert "iteration 1:" in done.stdout
