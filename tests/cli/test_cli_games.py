"""``onered play``, ``onered replay`` and ``onered stats``, run in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from onered.cli import main
from onered.game.record import RECORD_VERSION


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A short game between two beginners, recorded; and what it printed."""
    import contextlib
    import io

    path = tmp_path_factory.mktemp("play") / "game.jsonl"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            [
                "play",
                "--p1",
                "ai:beginner",
                "--p2",
                "ai:beginner",
                "--target",
                "8",
                "--seed",
                "3",
                "--lang",
                "ru",
                "--record",
                str(path),
            ]
        )
    assert status == 0
    return path, out.getvalue()


def test_play_calls_the_game_and_records_it(recorded: tuple[Path, str]) -> None:
    path, printed = recorded
    assert "Розыгрыш очерёдности" in printed
    assert "Итоговый счёт" in printed
    assert "побеждает" in printed
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["type"] == "match"
    assert first["record"] == RECORD_VERSION
    assert first["seed"] == 3
    assert first["entrants"] == {"Beginner 1": "ai:beginner", "Beginner 2": "ai:beginner"}
    last = json.loads(lines[-1])
    assert last["verdict"]["winner"] in first["players"]


def test_play_prints_a_score_line_for_every_stroke(recorded: tuple[Path, str]) -> None:
    path, printed = recorded
    strokes = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    strokes = [s for s in strokes if s["type"] == "stroke"]
    for s in strokes:
        score = s["verdict"]["score"]
        a, b = s["verdict"]["score"].keys()
        assert f"{a} {score[a]} : {score[b]} {b}" in printed


def test_replay_finds_the_record_identical(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = recorded
    assert main(["replay", str(path), "--svg", str(tmp_path / "svg")]) == 0
    assert "identical to the record, and the referee agrees" in capsys.readouterr().out
    pictures = sorted((tmp_path / "svg").glob("stroke-*.svg"))
    strokes = sum(1 for line in path.read_text().splitlines() if '"type": "stroke"' in line)
    assert len(pictures) == strokes
    assert pictures[0].name == "stroke-0001.svg"
    assert pictures[0].read_text().lstrip().startswith("<?xml")


def test_replay_reports_a_changed_line(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = recorded
    lines = path.read_text(encoding="utf-8").splitlines()
    data = json.loads(lines[1])
    data["strike"]["speed"] *= 1.01
    lines[1] = json.dumps(data, ensure_ascii=False)
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(changed)]) == 1
    assert "line 2: the replay differs" in capsys.readouterr().out


def test_stats_of_a_record(
    recorded: tuple[Path, str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, _ = recorded
    svg = tmp_path / "breaks.svg"
    assert main(["stats", str(path), str(path), "--svg", str(svg)]) == 0
    printed = capsys.readouterr().out
    assert "games: 2 (2 finished)" in printed
    assert "points per visit" in printed
    assert svg.read_text().lstrip().startswith("<?xml")
    assert main(["stats", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 1
    assert len(data["players"]) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--p1", "ai:grandmaster"], "onered play: player 'ai:grandmaster': unknown level"),
        (["play", "--p2", "robot:x"], "unknown kind 'robot'"),
        (["play", "--names", "Ann,Ann"], "--names: the two names must differ"),
        (["play", "--target", "0"], "--target: must be a whole number from 1 to 100000"),
        (["play", "--record", "/nonexistent-dir/x.jsonl"], "onered play: cannot write"),
        (["replay", "/nonexistent-file.jsonl"], "onered replay: cannot read"),
        (["stats", "/nonexistent-file.jsonl"], "onered stats: cannot read"),
    ],
)
def test_bad_input_gets_a_clear_message_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err


def test_a_file_that_is_not_a_record_is_refused_by_replay_and_stats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "referee.jsonl"
    path.write_text('{"type": "match", "target": 100, "players": ["a", "b"]}\n', encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert "line 1: record: expected format version 2" in capsys.readouterr().err
    path.write_text("not json\n", encoding="utf-8")
    assert main(["stats", str(path)]) == 2
    assert "line 1: not valid JSON" in capsys.readouterr().err
