"""``onered advise``: from a position file and from a record at stroke N; clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coach_support import played_record
from onered.cli import main

POSITION = {
    "balls": {"white": [0.6, 2.2], "red": [1.5, 3.0], "yellow": [0.4, 1.2]},
    "to_play": "white",
    "score": [10, 4],
    "break": 6,
}
QUICK = ["--level", "beginner", "--samples", "20"]


def write(tmp_path: Path, obj: object, name: str = "pos.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(obj), encoding="utf-8")
    return path


def test_advise_from_a_json_file_in_english_and_russian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, POSITION)
    assert main(["advise", str(path), *QUICK]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Coach's advice · level: beginner · white to play")
    for rank in range(1, 6):
        assert f"\n{rank}. " in out
    assert "beats no. 2: " in out or "as good as no. 2, " in out  # no. 1 against no. 2
    assert "expected " in out
    assert main(["advise", str(path), *QUICK, "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Совет тренера · уровень: beginner · играет белый")
    assert "лучше № 2: " in out or "равноценен № 2 " in out


def test_advise_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, POSITION)
    svg = tmp_path / "advice.svg"
    assert main(["advise", str(path), *QUICK, "--json", "--count", "3", "--svg", str(svg)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["level"] == "beginner"
    assert data["cue_ball"] == "white"
    assert [s["rank"] for s in data["suggestions"]] == [1, 2, 3]
    first = data["suggestions"][0]
    assert set(first["words"]) == {"stroke", "action", "numbers", "odds", "reason"}
    assert first["action"]["thickness"] in {"full", "three_quarter", "half", "quarter", "fine"}
    assert first["paths"]["white"][0] == [0.6, 2.2]
    text = svg.read_text(encoding="utf-8")
    assert text.startswith("<?xml")
    assert text.count('class="path"') >= 3


def test_advise_from_a_record_at_stroke_n(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = played_record(tmp_path / "game.jsonl", strokes=4)
    assert main(["advise", "--record", str(record), "--stroke", "3", *QUICK, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    lines = [json.loads(x) for x in record.read_text(encoding="utf-8").splitlines()]
    third = [x for x in lines if x["type"] == "stroke"][2]
    assert data["cue_ball"] == third["cue_ball"]
    assert data["from_hand"] == (third.get("placed") is not None)
    assert data["suggestions"]
    assert data["played"]["rank"] == 0
    assert data["played"]["action"]["strike"] == third["strike"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing.json"], "cannot read missing.json"),
        (["bad.json"], "bad.json: not valid JSON"),
        (["nored.json"], "nored.json: balls.red: the red must be on the table"),
        (["pos.json", "--level", "god"], "level: unknown level 'god'"),
        ([], "give a position FILE or --record GAME --stroke N"),
        (["pos.json", "--stroke", "3"], "--stroke N goes with --record GAME"),
        (["--record", "game.jsonl"], "--record needs --stroke N"),
        (["--record", "game.jsonl", "--stroke", "99"], "there is no stroke 99"),
        (["--record", "pos.json", "--stroke", "1"], "pos.json: line 1"),
    ],
)
def test_bad_input_is_named_without_a_traceback(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path, POSITION)
    write(tmp_path, {"balls": {"white": [0.6, 2.2]}}, "nored.json")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    played_record(tmp_path / "game.jsonl", strokes=2)
    assert main(["advise", "--samples", "10", "--level", "beginner", *args]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_advise_from_a_written_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from onered.coach.position import position_from_json
    from onered.rules import position as written

    text = written.write(position_from_json(POSITION).state)
    path = tmp_path / "pos.txt"
    path.write_text(text + "\n", encoding="utf-8")
    assert main(["advise", str(path), *QUICK, "--json", "--count", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["cue_ball"] == "white"
    assert len(data["suggestions"]) == 2
    path.write_text("R0.889,3.245 Q 0:0\n", encoding="utf-8")
    assert main(["advise", str(path), *QUICK]) == 2
    assert "position: expected 13 fields" in capsys.readouterr().err
