"""The study's folder: tables that read back, a summary and a report, resuming a killed or
stopped study from its parts, and refusing another study's folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from onered.study import StudyError, StudyResult, SweepSpec, load, run_study
from onered.study.store import COLUMNS, Folder, to_arrow
from onered.study.work import run_task
from study_support import SMALL_GAMES, SMALL_SHOTS

#: A games study long enough to be stopped in the middle (20 short games, one worker).
LONG = replace(SMALL_GAMES, games=20, seed=11)
LONG_ARGS = [
    "games", "--p1", LONG.p1, "--p2", LONG.p2, "--games", str(LONG.games),
    "--target", str(LONG.target), "--max-strokes", str(LONG.max_strokes),
    "--seed", str(LONG.seed), "--jobs", "1", "--no-progress",
]  # fmt: skip


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> StudyResult:
    return run_study(SMALL_GAMES, tmp_path_factory.mktemp("games"), jobs=2)


def test_every_table_reads_back_from_parquet_equal(games: StudyResult) -> None:
    for name in ("games", "strokes", "tasks"):
        back = pd.read_parquet(games.folder / f"{name}.parquet")
        pd.testing.assert_frame_equal(back, games.tables[name])
    again = load(games.folder)
    pd.testing.assert_frame_equal(again.strokes, games.strokes)
    assert again.summary == games.summary
    assert again.spec == SMALL_GAMES


def test_the_tables_have_their_documented_columns(games: StudyResult) -> None:
    assert list(games.games.columns) == [c for c in COLUMNS["games"] if not c.startswith("value")]
    assert list(games.strokes.columns) == [
        c for c in COLUMNS["strokes"] if not c.startswith("value")
    ]
    assert list(games.games["task"]) == list(range(SMALL_GAMES.games))


def test_the_games_row_adds_up_its_strokes(games: StudyResult) -> None:
    for row in games.games.itertuples():
        strokes = games.strokes[games.strokes["task"] == row.task]
        assert row.strokes == len(strokes)
        assert row.score_p1 == strokes["score_p1"].iloc[-1]
        mine = strokes[strokes["striker"] == "p1"]
        assert row.points_p1 == mine["points"].sum()
        assert row.visits_p1 == mine["visit_end"].sum()


def test_the_summary_counts_the_games(games: StudyResult) -> None:
    summary = json.loads((games.folder / "summary.json").read_text(encoding="utf-8"))
    assert summary["games"] == SMALL_GAMES.games
    players = summary["players"]
    assert players["p1"]["wins"] + players["p2"]["wins"] == summary["finished"]
    visits = games.strokes["visit_end"].sum()
    assert players["p1"]["visits"] + players["p2"]["visits"] == visits


def test_the_report_page_shows_its_plots(games: StudyResult) -> None:
    assert games.report is not None
    page = games.report.read_text(encoding="utf-8")
    for name in ("score-progression.png", "breaks.png"):
        assert f'src="{name}"' in page
        assert (games.report.parent / name).read_bytes()[:4] == b"\x89PNG"


def test_a_shots_study_writes_maps_and_its_tables(tmp_path: Path) -> None:
    result = run_study(SMALL_SHOTS, tmp_path)
    for name in ("positions", "shots"):
        assert pq.read_table(tmp_path / f"{name}.parquet").num_rows == len(result.tables[name])
    assert len(result.positions) == 9
    assert (result.shots.groupby("task").size() == SMALL_SHOTS.samples).all()
    for name in ("shots-map.png", "shots-outcomes.png"):
        assert (tmp_path / "report" / name).stat().st_size > 1000


def test_a_sweep_has_a_value_column_and_its_plots(tmp_path: Path) -> None:
    spec = SweepSpec(
        param="noise.aim", values=(0.05, 0.5), p1="ai:beginner", p2="ai:novice", games=1,
        target=4, max_strokes=40,
    )  # fmt: skip
    result = run_study(spec, tmp_path, jobs=2)
    assert list(result.games["value"]) == [0.05, 0.5]
    assert result.games["p1"].tolist() == [
        "ai:beginner,noise.aim=0.05",
        "ai:beginner,noise.aim=0.5",
    ]
    assert [v["value"] for v in result.summary["values"]] == [0.05, 0.5]
    assert (tmp_path / "report" / "sweep.png").exists()


def test_a_sweep_over_the_cushion_models_runs_end_to_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from onered.cli import main

    models = ["mathavan2010", "han2005"]
    argv = [
        "study", "sweep", "--param", "cushion_model", "--values", ",".join(models),
        "--p1", "ai:beginner", "--p2", "ai:novice", "--games", "1", "--target", "10",
        "--max-strokes", "60", "--jobs", "1", "--no-progress", "--out", str(tmp_path),
    ]  # fmt: skip
    assert main(argv) == 0
    assert f"report: {tmp_path / 'report' / 'index.html'}" in capsys.readouterr().out
    result = load(tmp_path)
    assert result.spec == SweepSpec(
        param="cushion_model", values=tuple(models), p1="ai:beginner", p2="ai:novice", games=1,
        target=10, max_strokes=60,
    )  # fmt: skip
    # the names in a string column, in every part and in the tables put together
    for table in ("games", "strokes"):
        assert str(pq.read_schema(tmp_path / f"{table}.parquet").field("value").type) == "string"
        for part in ("000-000000", "001-000000"):  # a sweep's parts: value, game
            schema = pq.read_schema(tmp_path / "parts" / part / f"{table}.parquet")
            assert str(schema.field("value").type) == "string"
    assert result.games["value"].tolist() == models
    assert set(result.strokes["value"]) == set(models)
    assert result.games["value_index"].tolist() == [0, 1]
    values = result.summary["values"]
    assert [v["value"] for v in values] == models
    assert [v["params"]["cushion_model"] for v in values] == models  # the table of each value
    assert result.summary["categorical"] is True
    assert [v["games"] for v in values] == [1, 1]
    assert result.report is not None
    page = result.report.read_text(encoding="utf-8")
    for name in ("sweep.png", "sweep-breaks.png"):
        assert f'src="{name}"' in page
        assert (tmp_path / "report" / name).stat().st_size > 1000
    # resumed: a lost part is played again, equal to the first time
    import shutil

    shutil.rmtree(tmp_path / "parts" / "001-000000")
    again = run_study(result.spec, tmp_path, jobs=1, report=False)
    for table in ("games", "strokes"):
        pd.testing.assert_frame_equal(again.tables[table], result.tables[table])


def test_a_failing_task_is_named_and_the_others_are_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import onered.study.work as work

    real = work.run_task

    def failing(spec: object, index: int) -> object:
        if index == 2:
            raise ZeroDivisionError("boom")
        return real(spec, index)  # type: ignore[arg-type]

    monkeypatch.setattr(work, "run_task", failing)  # the forked workers inherit it
    with pytest.raises(StudyError, match=r"task 2 failed: ZeroDivisionError: boom; \d of 9 tasks"):
        run_study(SMALL_SHOTS, tmp_path, jobs=1)
    assert Folder(tmp_path, SMALL_SHOTS).done() == {0, 1}


def test_a_part_written_reads_back_equal(tmp_path: Path) -> None:
    folder = Folder(tmp_path, SMALL_SHOTS)
    folder.open()
    rows = run_task(SMALL_SHOTS, 4)
    folder.write_part(4, rows, {"node": "n", "process": 1, "seconds": 0.5})
    assert folder.done() == {4}
    for table in ("positions", "shots"):
        assert folder.read_parts(table, [4]).equals(to_arrow("shots", table, rows[table]))


def test_a_finished_study_run_again_runs_nothing(games: StudyResult) -> None:
    again = run_study(SMALL_GAMES, games.folder, jobs=1)
    pd.testing.assert_frame_equal(again.tasks, games.tasks)  # same processes: nothing re-ran


def test_another_studys_folder_is_refused(games: StudyResult) -> None:
    with pytest.raises(StudyError, match=r"holds another study \(target: 6 there, 7 here\)"):
        run_study(replace(SMALL_GAMES, target=7), games.folder)
    with pytest.raises(StudyError, match=r"\(games: 4 there, 5 here, target: 6 there, 7 here\)"):
        run_study(replace(SMALL_GAMES, games=5, target=7), games.folder)


def test_a_smaller_study_than_the_folders_is_refused(games: StudyResult) -> None:
    with pytest.raises(StudyError) as refused:
        run_study(replace(SMALL_GAMES, games=3), games.folder)
    assert str(refused.value) == (
        f"--games: {games.folder} holds this study with 4 games, more than the 3 asked; "
        "ask for 4 (or more, to extend it), or choose another --out"
    )


def test_a_folder_written_by_another_physics_engine_is_refused(tmp_path: Path) -> None:
    run_study(SMALL_SHOTS, tmp_path, jobs=1, report=False)
    spec_file = tmp_path / "spec.json"
    data = json.loads(spec_file.read_text(encoding="utf-8"))
    spec_file.write_text(json.dumps({**data, "engine": "0123456789abcdef"}), encoding="utf-8")
    with pytest.raises(StudyError, match="engine: '0123456789abcdef' there"):
        run_study(SMALL_SHOTS, tmp_path, jobs=1)


def test_a_folder_that_holds_no_study_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(StudyError, match="is not empty and holds no study"):
        run_study(SMALL_GAMES, tmp_path)


def _default_interrupt() -> None:
    """Ctrl+C as a terminal's: a suite started in the background (``make test &``) runs with
    SIGINT ignored, which a child inherits, and Python then installs no KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "onered", "study", *LONG_ARGS, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group: the workers are signalled too
        preexec_fn=_default_interrupt,
    )


def _wait_for_parts(out: Path, n: int, process: subprocess.Popen[str]) -> int:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        parts = out / "parts"
        done = len([p for p in parts.iterdir() if p.name.isdigit()]) if parts.exists() else 0
        if done >= n:
            return done
        if process.poll() is not None:
            pytest.fail(f"the study ended before it could be stopped: {process.stderr}")
        time.sleep(0.02)
    pytest.fail("no part written in 120 s")


def _group_gone(pgid: int) -> bool:
    for _ in range(200):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.fixture(scope="module")
def straight(tmp_path_factory: pytest.TempPathFactory) -> StudyResult:
    return run_study(LONG, tmp_path_factory.mktemp("straight"), jobs=2, report=False)


@pytest.mark.slow  # make check leaves it out; make test runs it
def test_a_killed_study_resumes_from_its_parts(straight: StudyResult, tmp_path: Path) -> None:
    out = tmp_path / "study"
    process = _start(out)
    _wait_for_parts(out, 2, process)
    os.killpg(process.pid, signal.SIGKILL)  # no chance to clean up
    process.wait()
    assert _group_gone(process.pid)
    kept = Folder(out, LONG).done()
    assert 2 <= len(kept) < LONG.games
    assert not (out / "games.parquet").exists()
    (out / "parts" / ".tmp-000029-1").mkdir()  # a part being written when it was killed
    resumed = run_study(LONG, out, jobs=2, report=False)
    for name in ("games", "strokes"):
        pd.testing.assert_frame_equal(resumed.tables[name], straight.tables[name])
    assert not list((out / "parts").glob(".tmp-*"))
    first_run = set(resumed.tasks[resumed.tasks["task"].isin(kept)]["process"])
    assert not first_run & set(resumed.tasks[~resumed.tasks["task"].isin(kept)]["process"])


@pytest.mark.slow  # make check leaves it out; make test runs it
def test_ctrl_c_stops_the_workers_and_keeps_what_was_done(tmp_path: Path) -> None:
    out = tmp_path / "study"
    process = _start(out)
    _wait_for_parts(out, 1, process)
    os.killpg(process.pid, signal.SIGINT)  # what a terminal sends to the whole group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Traceback" not in stderr
    assert f"tasks are done and kept in {out}; run the same study again to resume it" in stderr
    assert _group_gone(process.pid)
    done = Folder(out, LONG).done()
    assert 1 <= len(done) < LONG.games
    assert all((out / "parts" / f"{i:06d}" / "strokes.parquet").exists() for i in done)
