"""``onered shot --svg FILE --side-view BALL``: a jump stroke drawn from above and from the
side (FILE-side.svg), the side view's words in the command's language, and the option's
misuses said on one line."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from onered.cli import main

NS = "{http://www.w3.org/2000/svg}"
#: A jump: the white struck down at 45° at 4 m/s, the yellow in its way.
JUMP = {
    "balls": {"white": [0.95, 0.62], "red": [0.889, 3.245], "yellow": [0.95, 1.1]},
    "cue_ball": "white",
    "strike": {"speed": 4.0, "aim": 90.0, "elevation": 45.0},
}


def run(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["shot", *args])


def test_a_jump_is_drawn_dashed_from_above_and_from_the_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "jump.svg"
    assert run(["--svg", str(svg), "--side-view", "white"], json.dumps(JUMP), monkeypatch) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    assert any(e["type"] == "airborne" for e in events)
    top = ET.parse(svg).getroot()
    assert [p for p in top.iter(f"{NS}path") if p.get("class") == "path airborne"]
    side = ET.parse(tmp_path / "jump-side.svg").getroot()
    assert side.get("class") == "side-view"
    (plot,) = [g for g in side.iter(f"{NS}g") if g.get("class") == "plot"]
    base = float(plot.get("data-y0", ""))
    (line,) = [p for p in plot.iter(f"{NS}polyline") if p.get("class") == "side-path"]
    heights = [base - float(xy.split(",")[1]) for xy in line.get("points", "").split()]
    assert max(heights) > 0  # it left the slate
    over = [e for e in events if e["type"] == "over" and e["balls"][0] == "white"]
    passed = [e for e in side.iter(f"{NS}ellipse") if e.get("class") == "passed-over"]
    assert len(passed) == len(over)


def test_the_side_view_speaks_the_commands_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svg = tmp_path / "jump.svg"
    args = ["--lang", "ru", "--svg", str(svg), "--side-view", "white"]
    assert run(args, json.dumps(JUMP), monkeypatch) == 0
    side = ET.parse(tmp_path / "jump-side.svg").getroot()
    assert side.findtext(f"{NS}title") == "Вид сбоку: белый"


def test_batch_side_views_are_numbered_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svg = tmp_path / "shots.svg"
    lines = "\n".join([json.dumps(JUMP), "", json.dumps(JUMP)])
    assert run(["--batch", "--svg", str(svg), "--side-view", "yellow"], lines, monkeypatch) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["shots-1-side.svg", "shots-1.svg", "shots-3-side.svg", "shots-3.svg"]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--side-view", "white"], "error: --side-view BALL needs --svg FILE"),
        (["--svg", "{tmp}/x.svg", "--side-view", "blue"], "error: --side-view: no ball 'blue'"),
    ],
)
def test_a_side_view_without_a_picture_or_of_no_ball_is_said_on_one_line(
    args: list[str],
    said: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    assert run(args, json.dumps(JUMP), monkeypatch) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(said)
    assert err.count("\n") == 1
    assert not list(tmp_path.iterdir())
