"""Table-driven whole games: every ``tests/rules/scenarios/*.jsonl`` file is one test.

Scenario format, one JSON object a line:

- ``{"comment": "..."}`` — optional, first line only; not sent to the referee.
- ``{"in": <input line>, "out": <expected subset of its verdict>}`` — ``in`` is a protocol input
  object (or a string sent as it is, for malformed input); ``out`` is optional and is matched with
  ``subset_match`` against the verdict plus the order-free views of
  ``referee_support.augmented`` (``$calls``, ``$fouls``, ``$in_hand``, ``$placements``,
  ``$scored``).
- ``{"error": "<substring of stderr>", "line": N}`` — last line: the referee must stop at input
  line ``N`` (counting ``in`` lines from 1) with status 2, ``line N:`` and the substring on
  standard error, and the verdicts of all earlier lines printed. Without it, status must be 0.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee_support import assert_subset, augmented, encode, judge

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.jsonl"))


def load(path: Path) -> tuple[list[Any], list[Any], dict[str, Any] | None]:
    """Inputs, expected verdict subsets (or None) and the expected error of a scenario."""
    inputs: list[Any] = []
    expected: list[Any] = []
    error: dict[str, Any] | None = None
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        row = json.loads(text)
        assert isinstance(row, dict), f"{path.name}:{number}: not an object"
        assert error is None, f"{path.name}:{number}: nothing may follow the error line"
        if "comment" in row:
            assert number == 1, f"{path.name}:{number}: a comment must be the first line"
            continue
        if "error" in row:
            error = row
            continue
        assert set(row) <= {"in", "out"}, f"{path.name}:{number}: unknown keys {sorted(row)}"
        inputs.append(row["in"])
        expected.append(row.get("out"))
    return inputs, expected, error


def test_there_are_scenarios() -> None:
    names = {path.stem for path in FILES}
    assert len(FILES) >= 8
    assert {"cannons_75", "hazards_15", "red_run_cycle", "short_game"} <= names


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_scenario(path: Path) -> None:
    inputs, expected, error = load(path)
    judged = judge([encode(line) for line in inputs])
    if error is None:
        assert judged.status == 0, f"status {judged.status}, stderr {judged.err!r}"
        assert len(judged.verdicts) == len(inputs)
    else:
        n = error["line"]
        assert judged.status == 2, f"status {judged.status}, stderr {judged.err!r}"
        assert f"line {n}:" in judged.err, judged.err
        assert error["error"] in judged.err, judged.err
        assert len(judged.verdicts) == n - 1, "every earlier verdict is printed, nothing after"
    for index, (want, verdict) in enumerate(zip(expected, judged.verdicts, strict=False), 1):
        if want is not None:
            assert_subset(want, augmented(verdict), f"{path.name}, input line {index}")
