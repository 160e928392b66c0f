"""The training example runs and learns something on a tiny budget."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_agent.py"


def test_training_example_prints_the_learned_and_the_random_score() -> None:
    args = ["--iterations", "2", "--population", "4", "--steps", "30"]
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), *args], capture_output=True, text=True, check=True
    ).stdout
    assert "iteration  2" in out
    assert "learned parameters: target" in out
    assert "random actions" in out
