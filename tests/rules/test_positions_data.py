"""Referee cases as data: ``tests/rules/positions/*.jsonl``, one case a line — a position (the state
in, ``docs/position-format.md``), one protocol line (a stroke or a choice), and the verdict
fields expected with the position after it, or the error expected.

Each case is judged through the protocol (``onered.protocol.referee.run``): a ``position``
line, then the case's line. A row is::

    {"case": "2.8.1 the 76th cannon stroke is the foul cannon_limit",
     "position": "<position text>", "in": {"type": "stroke", ...},
     "out": {<verdict fields, as in tests/rules/scenarios>}, "after": "<position text>"}

or, instead of ``out`` and ``after``, ``"error": "<part of the error message>"``. ``out``
is matched like the scenarios' (``referee_support.assert_subset`` over the verdict and its
order-free views ``$calls``, ``$fouls``, ``$in_hand``, ``$placements``, ``$scored``).

A new case's ``out`` is written by hand from the rules; its ``after`` is the referee's state
written down (``RefereeSession.feed`` the two lines, then ``rules.position.write``), read and
checked by whoever adds the case — it shows what the stroke changed at a glance.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from onered.protocol.referee import RefereeSession, run
from onered.rules.position import read, write
from referee_support import assert_subset, augmented, parse_verdicts

FOLDER = Path(__file__).parent / "positions"
FILES = sorted(FOLDER.glob("*.jsonl"))
KEYS = {"case", "position", "in", "out", "after", "error"}


def load() -> list[tuple[str, dict[str, Any]]]:
    cases = []
    for path in FILES:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not text.strip():
                continue
            row = json.loads(text)
            where = f"{path.name}:{number}"
            assert isinstance(row, dict), f"{where}: not an object"
            assert set(row) <= KEYS, f"{where}: unknown keys {sorted(set(row) - KEYS)}"
            assert {"case", "position", "in"} <= set(row), f"{where}: case, position, in needed"
            assert ("error" in row) != ("out" in row and "after" in row), (
                f"{where}: either error, or out and after"
            )
            cases.append((f"{path.stem}: {row['case']}", row))
    return cases


CASES = load()


def test_every_section_of_the_rules_has_cases() -> None:
    sections = {path.stem.split("_", 2)[1] for path in FILES if path.stem.startswith("2_")}
    expected = {"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13"}
    assert expected <= sections
    assert len(CASES) >= 60


@pytest.mark.parametrize("row", [row for _, row in CASES], ids=[name for name, _ in CASES])
def test_case(row: dict[str, Any]) -> None:
    lines = [json.dumps({"type": "position", "position": row["position"]}), json.dumps(row["in"])]
    session = RefereeSession()
    out, err = io.StringIO(), io.StringIO()
    status = run(lines, out, err, session=session)
    verdicts = parse_verdicts(out.getvalue())
    if "error" in row:
        assert status == 2
        assert len(verdicts) == 1, "the position line is judged before the bad line"
        assert err.getvalue().startswith("line 2: ")
        assert row["error"] in err.getvalue()
        return
    assert status == 0, err.getvalue()
    assert_subset(row["out"], augmented(verdicts[-1]), row["case"])
    assert session.state is not None
    assert write(session.state) == row["after"]
    assert read(row["after"]) == session.state
