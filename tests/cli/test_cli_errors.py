"""CLI errors in the user's language: ``--lang`` (or the locale) chooses it, every error of
the root is one line ``onered <command>: <message>`` with exit status 2."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from onered.cli import error_line, language, main
from onered.cli import stats as stats_command
from onered.errors import OneredError
from onered.rules.position import PositionError
from onered.texts import Lang

LOCALE = ("LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """No locale of the machine running the tests leaks in."""
    for name in LOCALE:
        monkeypatch.delenv(name, raising=False)


def _bad_record(tmp_path: Path) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text("not json\n", encoding="utf-8")
    return path


def _one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_an_error_is_english_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--names", "Ann,Ann"]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith("onered play: --names: ")
    assert "differ" in line


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--lang", "ru", "--names", "Ann,Ann"],
        ["--lang", "ru", "play", "--names", "Ann,Ann"],
    ],
)
def test_lang_ru_says_the_error_in_russian(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line == "onered play: Имена игроков должны различаться (Ann)."


def test_every_command_takes_lang(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--lang", "ru", str(_bad_record(tmp_path))]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith("onered stats: Запись не читается для статистики: ")


def test_the_locale_chooses_russian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert main(["stats", str(_bad_record(tmp_path))]) == 2
    assert _one_error_line(capsys.readouterr().err).startswith("onered stats: Запись не читается")
    # --lang beats the locale
    assert main(["stats", "--lang", "en", str(_bad_record(tmp_path))]) == 2
    assert "Запись" not in capsys.readouterr().err


def test_a_record_error_names_the_file_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bad_record(tmp_path)
    assert main(["replay", "--lang", "ru", str(path)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith(f"onered replay: {path}: ")
    assert "не JSON" in line or "не читается" in line


def test_any_error_of_the_root_is_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(args: argparse.Namespace) -> int:
        raise PositionError("line 1: expected 'onered-position 1'")

    monkeypatch.setattr(stats_command, "run", refuse)
    assert main(["stats", "--lang", "ru", "x.jsonl"]) == 2
    assert _one_error_line(capsys.readouterr().err) == (
        "onered stats: Позиция не читается: line 1: expected 'onered-position 1'"
    )
    assert main(["stats", "x.jsonl"]) == 2
    assert _one_error_line(capsys.readouterr().err) == (
        "onered stats: line 1: expected 'onered-position 1'"
    )


def test_error_line_and_language() -> None:
    error = OneredError("no such thing", code="no_such_code")
    assert error_line("shot", error, Lang.EN) == "onered shot: no such thing"
    assert (
        error_line("shot", error, Lang.RU, where="f.json")
        == "onered shot: f.json: Ошибка: no such thing"
    )
    assert language(argparse.Namespace(lang=None, top_lang="ru")) is Lang.RU
    assert language(argparse.Namespace(lang="en", top_lang="ru")) is Lang.EN
    assert language(argparse.Namespace()) is Lang.EN


@pytest.mark.parametrize(
    "argv",
    [
        ["study", "games", "--lang", "ru", "--target", "0"],
        ["study", "--lang", "ru", "games", "--target", "0"],
        ["--lang", "ru", "study", "games", "--target", "0"],
    ],
)
def test_a_nested_command_takes_lang_anywhere(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert _one_error_line(capsys.readouterr().err).startswith(
        "onered study: Исследование не запускается: --target: "
    )


def test_a_file_that_cannot_be_read_is_said_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.jsonl"
    for command in ("stats", "replay", "referee"):
        assert main([command, "--lang", "ru", str(missing)]) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert line.startswith(f"onered {command}: Не удаётся прочитать {missing}: "), line
        assert main([command, str(missing)]) == 2
        line = _one_error_line(capsys.readouterr().err)
        assert line.startswith(f"onered {command}: cannot read {missing}: "), line
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b"\xe9\n")
    assert main(["stats", "--lang", "ru", str(latin1)]) == 2
    assert _one_error_line(capsys.readouterr().err).startswith(
        f"onered stats: {latin1} — не текст в UTF-8: "
    )


def test_a_file_that_cannot_be_written_is_said_in_the_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "no-such-folder" / "game.jsonl"
    assert main(["play", "--lang", "ru", "--record", str(target)]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith(f"onered play: Не удаётся записать {target}: ")
    assert not target.exists()


@pytest.mark.parametrize(
    ("player", "expected"),
    [
        ("ai:wizard", "onered play: Игрок «ai:wizard»: нет уровня «wizard» (есть novice, "),
        ("robot", "onered play: Игрок «robot» неизвестен: ожидается human, ai:novice, "),
    ],
)
def test_an_unknown_player_is_said_wholly_in_russian(
    player: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commonest slip at the command line is named in the user's words, not framed
    around the English detail."""
    assert main(["--lang", "ru", "play", "--p1", player]) == 2
    line = _one_error_line(capsys.readouterr().err)
    assert line.startswith(expected), line
    assert "unknown" not in line
