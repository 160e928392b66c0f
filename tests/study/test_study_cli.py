"""``onered study`` on the command line: a study in one command, and a clear one-line error
(exit status 2, no traceback) for every bad argument."""

from __future__ import annotations

from pathlib import Path

import pytest

from onered.cli import main


def test_a_study_in_one_command_says_where_its_report_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s"
    argv = ["study", "shots", "--grid", "2x2", "--samples", "5", "--out", str(out), "--jobs", "1"]
    assert main(argv) == 0
    printed = capsys.readouterr()
    assert f"report: {out / 'report' / 'index.html'}" in printed.out
    assert "position/s" in printed.err  # the progress bar, with its rate, on stderr
    assert (out / "report" / "index.html").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["games", "--games", "0"], "--games: expected a whole number in [1, 10000000], got 0"),
        (["games", "--p1", "ai:wizard"], "--p1: player 'ai:wizard': unknown level 'wizard'"),
        (["games", "--p2", "ai:pro,noise.aim=-1"], "noise.aim: expected a value in [0, 10)"),
        (["games", "--p1", "ai:pro,reach=3"], "unknown parameter 'reach'"),
        (["games", "--physics", "e_c=2"], "--physics: params.e_c: must lie in [0, 1], got 2.0"),
        (["games", "--physics", "spin=2"], "--physics: 'spin' is not a physical parameter"),
        (
            ["games", "--physics", "cushion_model=x,e_c=0.85"],
            "--physics: params.cushion_model: must be one of mathavan2010, han2005, got 'x'",
        ),
        (["games", "--physics", "e_c=han2005"], "--physics: e_c: expected a number, got 'han2005'"),
        (["games", "--seed", "-1"], "--seed: expected a whole number in [0, 2^63)"),
        (["games", "--jobs", "0"], "--jobs: expected a number of workers in [1, 4096], got 0"),
        (["games", "--address", "127.0.0.1:1"], "--address: only with --backend ray"),
        (
            ["games", "--backend", "ray", "--address", "127.0.0.1:1"],
            "--address: no Ray cluster answers at 127.0.0.1:1",
        ),
        (["shots", "--grid", "3"], "--grid: expected COLUMNSxROWS such as 12x14, got '3'"),
        (["shots", "--at", "0.5"], "--at: expected 2 numbers, got '0.5'"),
        (["shots", "--at", "5,5"], "--at: "),
        (["shots", "--region", "0,1,2"], "--region: expected 4 numbers"),
        (["shots", "--region", "0,3,0,1"], "--region: expected x0,x1,y0,y1 with"),
        (["shots", "--speed", "12"], "--speed: expected a speed in [0.05, 10] m/s, got 12"),
        (["shots", "--side", "0.7", "--height", "0.7"], "the tip offset must be within 0.8 R"),
        (["shots", "--samples", "0"], "--samples: expected a whole number"),
        (["sweep", "--param", "spin"], "--param: 'spin' is neither a physical parameter"),
        (["sweep", "--values", "0.5,x"], "--values: expected numbers separated by commas"),
        (["sweep", "--param", "e_c", "--values", "1.5"], "--values (e_c): params.e_c: must lie"),
        (["sweep", "--param", "noise.aim", "--values", "20"], "noise.aim: expected a value"),
        (["sweep", "--steps", "0"], "--steps: expected a number in [1, 1000], got 0"),
        (
            ["sweep", "--param", "cushion_model", "--from", "0.7"],
            "--from: cushion_model takes names, not a range of numbers; give them with --values "
            "(one or more of mathavan2010,han2005)",
        ),
        (
            ["sweep", "--param", "cushion_model", "--to", "1", "--steps", "3"],
            "--to/--steps: cushion_model takes names, not a range of numbers",
        ),
        (
            ["sweep", "--param", "cushion_model", "--values", "mathavan2010,hann"],
            "--values (cushion_model): params.cushion_model: must be one of mathavan2010, "
            "han2005, got 'hann'",
        ),
        (["sweep", "--param", "e_c", "--values", "han2005"], "--values: expected numbers"),
        ([], "choose a kind: games, shots or sweep"),
    ],
)
def test_bad_arguments_are_named_without_a_traceback(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    extra = ["--out", str(out)] if argv else []
    assert main(["study", *argv, *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("onered study: ")
    assert message in err
    assert err.count("\n") == 1
    assert not out.exists()


def test_another_study_in_the_folder_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "spec.json").write_text("{not json", encoding="utf-8")
    args = ["study", "games", "--games", "1", "--out", str(tmp_path)]
    assert main(args) == 2
    assert f"--out: {tmp_path / 'spec.json'} cannot be read" in capsys.readouterr().err


def test_an_unknown_kind_is_refused_by_the_parser(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["study", "matches"])
    assert exit_.value.code == 2
    assert "invalid choice: 'matches'" in capsys.readouterr().err


def test_the_defaults_are_the_specs_defaults() -> None:
    from onered.cli import build_parser
    from onered.cli.study import _spec
    from onered.study import GamesSpec, ShotsSpec, SweepSpec

    parser = build_parser()
    assert _spec(parser.parse_args(["study", "games"])) == GamesSpec()
    assert _spec(parser.parse_args(["study", "shots"])) == ShotsSpec()
    assert _spec(parser.parse_args(["study", "sweep"])) == SweepSpec()


def test_the_cushion_model_is_given_by_name() -> None:
    from onered.cli import build_parser
    from onered.cli.study import _spec
    from onered.study import GamesSpec, SweepSpec

    parser = build_parser()
    args = parser.parse_args(["study", "games", "--physics", "cushion_model=han2005,e_c=0.85"])
    spec = _spec(args)
    assert spec == GamesSpec(physics=(("cushion_model", "han2005"), ("e_c", 0.85)))
    spec.check()
    sweep = _spec(parser.parse_args(["study", "sweep", "--param", "cushion_model"]))
    assert sweep == SweepSpec(param="cushion_model", values=("mathavan2010", "han2005"))
    sweep.check()  # every model when no --values is given


def test_a_games_study_on_hans_cushions_records_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    argv = [
        "study", "games", "--p1", "ai:beginner", "--p2", "ai:novice", "--games", "1",
        "--target", "4", "--max-strokes", "40", "--physics", "cushion_model=han2005,e_c=0.85",
        "--jobs", "1", "--no-progress", "--out", str(tmp_path),
    ]  # fmt: skip
    assert main(argv) == 0
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["study"]["physics"] == [["cushion_model", "han2005"], ["e_c", 0.85]]
    assert summary["params"]["cushion_model"] == "han2005"  # every field, defaults included
    assert summary["params"]["e_c"] == 0.85
    assert summary["games"] == 1


def test_the_python_api_names_an_unknown_setting(tmp_path: Path) -> None:
    from onered.study import StudyError, run_games

    with pytest.raises(StudyError, match=r"games study: .*unexpected keyword argument 'players'"):
        run_games(out=tmp_path, players=3)
    assert not any(tmp_path.iterdir())


def test_a_missing_study_extra_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import pyarrow -> ImportError
    assert main(["study", "games", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "(pyarrow missing): pip install 'onered[study]' pandas" in err
    assert not (tmp_path / "out").exists()


# --- onered study run SPEC ------------------------------------------------------------------

#: ``SMALL_GAMES`` as a hand-written spec file gives it (the other fields: defaults).
SMALL_GAMES_JSON = {
    "kind": "games", "p1": "ai:beginner", "p2": "ai:novice", "games": 4, "target": 6,
    "max_strokes": 60, "seed": 7,
}  # fmt: skip


def _write(path: Path, data: object) -> Path:
    import json

    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_study_run_runs_a_hand_written_spec_with_the_defaults_filled_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from onered.study import load
    from study_support import SMALL_GAMES

    spec = _write(tmp_path / "mine.json", SMALL_GAMES_JSON)
    out = tmp_path / "out"
    argv = ["study", "run", str(spec), "--out", str(out), "--jobs", "2", "--no-progress"]
    assert main(argv) == 0
    assert f"summary: {out / 'summary.json'}" in capsys.readouterr().out
    assert load(out).spec == SMALL_GAMES


def test_study_run_of_a_folder_resumes_it_and_extends_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import pandas as pd

    from onered.study import load

    out = tmp_path / "study"
    spec = _write(tmp_path / "mine.json", SMALL_GAMES_JSON)
    assert main(["study", "run", str(spec), "--out", str(out), "--jobs", "1", "--no-progress"]) == 0
    first = load(out)
    assert main(["study", "run", str(out), "--no-progress"]) == 0  # a finished study: nothing runs
    pd.testing.assert_frame_equal(load(out).tasks, first.tasks)
    assert main(["study", "run", str(out / "spec.json"), "--games", "6", "--no-progress"]) == 0
    extended = load(out)
    assert list(extended.games["task"]) == list(range(6))
    pd.testing.assert_frame_equal(extended.tasks.iloc[:4], first.tasks)  # kept, not replayed
    capsys.readouterr()
    assert main(["study", "run", str(out), "--games", "5", "--no-progress"]) == 2
    assert capsys.readouterr().err == (
        f"onered study: --games: {out} holds this study with 6 games, more than the 5 asked; "
        "ask for 6 (or more, to extend it), or choose another --out\n"
    )
    assert main(["study", "run", str(out), "--samples", "5"]) == 2
    assert "--samples: a games study has no samples; its size is --games" in (
        capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"kind": "games", "games": "ten"}', 'games: expected a whole number, got "ten"'),
        ('{"kind": "games", "games": 0}', "games: expected a whole number in [1, 10000000], got 0"),
        ('{"kind": "games", "max_strokes": 0}', "max_strokes: expected a whole number in"),
        ('{"kind": "games", "gmes": 3}', "gmes: not a field of a games study (its fields: p1,"),
        ('{"kind": "games", "p1": "ai:wizard"}', "p1: player 'ai:wizard': unknown level"),
        ('{"kind": "games", "lag": "yes"}', 'lag: expected true or false, got "yes"'),
        ('{"kind": "games", "physics": {"e_c": 2}}', "physics: expected a list of [name, value]"),
        ('{"kind": "games", "physics": [["e_c", 2]]}', "physics: params.e_c: must lie in [0, 1]"),
        ('{"kind": "games", "format": 1}', "format: 1, this onered reads format"),
        ('{"kind": "match"}', "kind: expected one of games, shots, sweep, got 'match'"),
        ('{"games": 3}', "kind: expected one of games, shots, sweep, got None"),
        ('{"kind": "shots", "fixed": [5, 5]}', "fixed: balls['white'] at (5, 5) is off the table"),
        ('{"kind": "shots", "grid": [3]}', "grid: expected a list of 2 whole numbers, got [3]"),
        ('{"kind": "shots", "shot": "bank"}', 'shot: expected one of pot, in-off, got "bank"'),
        ('{"kind": "shots", "side": 0.7, "height": 0.7}', "side/height: the tip offset must be"),
        ('{"kind": "sweep", "values": []}', "values: expected at least one value"),
        ('{"kind": "sweep", "values": [1.5]}', "values (e_c): params.e_c: must lie in [0, 1]"),
        ("[1, 2]", "expected a JSON object of the study's fields, got list"),
        (
            '{"kind": "games",',
            "not JSON: Expecting property name enclosed in double quotes at line",
        ),
    ],
)
def test_a_bad_spec_file_is_named_with_its_field(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec-file.json"
    spec.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["study", "run", str(spec), "--out", str(out), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"onered study: {spec}: {message}"), err
    assert err.count("\n") == 1
    assert not out.exists()


def test_a_missing_spec_file_or_a_folder_without_a_study_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["study", "run", str(tmp_path / "none.json"), "--lang", "en"]) == 2
    assert f"{tmp_path / 'none.json'}: cannot be read (No such file or directory)" in (
        capsys.readouterr().err
    )
    assert main(["study", "run", str(tmp_path), "--lang", "en"]) == 2
    assert f"onered study: {tmp_path}: holds no study (no spec.json)\n" == capsys.readouterr().err


def test_spec_file_and_lock_errors_in_russian(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import platform

    from onered.study.lock import folder_lock

    spec = _write(tmp_path / "s.json", {"kind": "games", "games": 0})
    assert main(["study", "run", str(spec), "--lang", "ru"]) == 2
    assert capsys.readouterr().err == (
        f"onered study: Исследование из файла {spec} не запускается: games: expected a whole "
        "number in [1, 10000000], got 0\n"
    )
    good = _write(tmp_path / "good.json", SMALL_GAMES_JSON)
    out = tmp_path / "out"
    with folder_lock(out):
        assert main(["study", "run", str(good), "--out", str(out), "--lang", "ru"]) == 2
    assert capsys.readouterr().err == (
        f"onered study: Папка исследования {out} занята другим запуском (процесс {os.getpid()} "
        f"на {platform.node()}); дождитесь его конца, остановите его или выберите другую --out.\n"
    )
