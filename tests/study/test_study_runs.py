"""Runs that behave: one run at a time in a study's folder (a second one refused at once,
naming the first; the lock gone with its process, even after ``kill -9``), and a finished
study extended by asking for more (only the new tasks run; the tables equal a study run
at that size at once)."""

from __future__ import annotations

import contextlib
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.study import StudyError, SweepSpec, load, run_study
from onered.study.lock import LOCK, StudyLockedError, folder_lock
from onered.study.store import Folder
from study_support import SMALL_GAMES, SMALL_SHOTS

#: A sweep of two values, short games between the fastest levels.
SMALL_SWEEP = SweepSpec(
    param="e_c", values=(0.8, 0.9), p1="ai:beginner", p2="ai:novice", games=1, target=6,
    max_strokes=60, seed=5,
)  # fmt: skip


def _tables_equal(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    for name in a:
        if name != "tasks":  # where and how long: not a result
            pd.testing.assert_frame_equal(a[name], b[name])
    assert list(a["tasks"]["task"]) == list(b["tasks"]["task"])


# --- the lock -------------------------------------------------------------------------------


def test_a_folder_in_use_is_refused_at_once_naming_the_run(tmp_path: Path) -> None:
    out = tmp_path / "study"
    with folder_lock(out), pytest.raises(StudyLockedError) as refused:
        run_study(SMALL_GAMES, out, jobs=1)
    message = str(refused.value)
    assert message.startswith(f"--out: {out} is in use by another run (process {os.getpid()} ")
    assert f"on {platform.node()}, running since " in message
    assert "wait for it to end, or stop it (its lock goes with it), or choose another --out" in (
        message
    )
    assert refused.value.code == "study_locked"
    assert not out.exists()  # the lock's folder held nothing else: removed with it


def test_the_lock_is_released_on_any_exit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import onered.study.runner as runner

    def refuse(backend: str, jobs: int | None, address: str | None) -> None:
        raise StudyError("--address: no cluster there")

    out = tmp_path / "new" / "study"
    with monkeypatch.context() as patch:
        patch.setattr(runner, "make_backend", refuse)
        with pytest.raises(StudyError, match="--address: no cluster there"):
            run_study(SMALL_GAMES, out)
    assert not (tmp_path / "new").exists()  # refused before writing: no folder left behind
    with contextlib.suppress(RuntimeError), folder_lock(out):
        raise RuntimeError("a failure inside")
    with folder_lock(out):  # free again
        assert json.loads((out / LOCK).read_text(encoding="utf-8"))["pid"] == os.getpid()


def test_a_lock_file_left_by_a_dead_run_is_taken_over(tmp_path: Path) -> None:
    out = tmp_path / "study"
    out.mkdir()
    (out / LOCK).write_text('{"pid": 999999, "host": "gone"}\n', encoding="utf-8")
    result = run_study(SMALL_GAMES, out, jobs=1, report=False)  # no process holds it
    assert len(result.games) == SMALL_GAMES.games


def test_forked_workers_do_not_keep_the_lock(tmp_path: Path) -> None:
    out = tmp_path / "study"
    with folder_lock(out):
        pid = os.fork()
        if pid == 0:  # the child: its copy of the lock's descriptor is closed
            time.sleep(5)
            os._exit(0)
    try:
        with folder_lock(out):  # the parent let go; the child, still running, holds nothing
            pass
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _hold_lock(out: Path) -> subprocess.Popen[str]:
    code = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from onered.study.lock import folder_lock\n"
        "with folder_lock(Path(sys.argv[1])):\n"
        "    print('locked', flush=True)\n"
        "    time.sleep(120)\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code, str(out)], stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "locked\n"
    return process


def test_after_kill_9_of_the_lock_holder_the_next_run_goes_ahead(tmp_path: Path) -> None:
    out = tmp_path / "study"
    holder = _hold_lock(out)
    try:
        with pytest.raises(StudyLockedError, match=f"process {holder.pid} on "):
            run_study(SMALL_GAMES, out, jobs=1)
    finally:
        holder.kill()  # SIGKILL: no clean-up of its own
        holder.wait()
    result = run_study(SMALL_GAMES, out, jobs=1, report=False)
    assert len(result.games) == SMALL_GAMES.games


#: A games study long enough for a second run to start while the first runs.
LONG = replace(SMALL_GAMES, games=16, seed=11)
LONG_ARGS = [
    "games", "--p1", LONG.p1, "--p2", LONG.p2, "--games", str(LONG.games),
    "--target", str(LONG.target), "--max-strokes", str(LONG.max_strokes),
    "--seed", str(LONG.seed), "--jobs", "1", "--no-progress", "--lang", "en",
]  # fmt: skip


def _study(out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "onered", "study", *LONG_ARGS, "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: its workers are cleaned up with it
    )


def _wait_for_a_part(out: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if (out / "parts").is_dir() and any(p.name.isdigit() for p in (out / "parts").iterdir()):
            return
        if process.poll() is not None:
            pytest.fail(f"the study ended too soon: {process.communicate()}")
        time.sleep(0.02)
    pytest.fail("no part written in 120 s")


@pytest.mark.slow  # make check leaves it out; make test runs it
def test_two_runs_into_one_folder_one_runs_the_other_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "study"
    first = _study(out)
    try:
        _wait_for_a_part(out, first)
        second = _study(out)
        _, err = second.communicate(timeout=120)
        assert second.returncode == 2
        assert re.fullmatch(
            re.escape(f"onered study: --out: {out} is in use by another run (process {first.pid} ")
            + re.escape(f"on {platform.node()}, running since ")
            + r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC"
            + re.escape(
                "); wait for it to end, or stop it (its lock goes with it), or choose another "
                "--out\n"
            ),
            err,
        ), err
        assert first.poll() is None  # the first run goes on, untouched
        first.kill()  # kill -9 of the study's process alone: its workers are orphaned
        first.wait()
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(first.pid, signal.SIGKILL)
    kept = Folder(out, LONG).done()
    assert 1 <= len(kept) < LONG.games
    resumed = run_study(LONG, out, jobs=2, report=False)  # the lock died with its process
    straight = run_study(LONG, tmp_path / "straight", jobs=2, report=False)
    _tables_equal(resumed.tables, straight.tables)


# --- extending a study ------------------------------------------------------------------------


def test_a_games_study_extended_equals_one_run_at_that_size(tmp_path: Path) -> None:
    small = run_study(SMALL_GAMES, tmp_path / "a", jobs=1, report=False)
    bigger = replace(SMALL_GAMES, games=6)
    extended = run_study(bigger, tmp_path / "a", jobs=1, report=False)
    at_once = run_study(bigger, tmp_path / "b", jobs=2, report=False)
    _tables_equal(extended.tables, at_once.tables)
    # the first four games were kept, not played again
    pd.testing.assert_frame_equal(extended.tasks.iloc[:4], small.tasks)
    assert load(tmp_path / "a").spec == bigger
    assert json.loads((tmp_path / "a" / "summary.json").read_text())["games"] == 6


def test_a_sweep_extended_with_more_games_per_value_equals_one_run_at_once(
    tmp_path: Path,
) -> None:
    small = run_study(SMALL_SWEEP, tmp_path / "a", jobs=1, report=False)
    bigger = replace(SMALL_SWEEP, games=2)
    extended = run_study(bigger, tmp_path / "a", jobs=1, report=False)
    at_once = run_study(bigger, tmp_path / "b", jobs=1, report=False)
    _tables_equal(extended.tables, at_once.tables)
    assert list(extended.games["task"]) == [0, 1, 2, 3]
    assert list(extended.games["value_index"]) == [0, 0, 1, 1]
    # each value's game 0 kept from the first run (the same process ran it)
    kept = extended.tasks.set_index("task").loc[[0, 2], "process"]
    assert list(kept) == list(small.tasks["process"])


def test_a_shots_study_extended_with_more_samples_equals_one_run_at_once(
    tmp_path: Path,
) -> None:
    small = replace(SMALL_SHOTS, grid=(2, 2), samples=6)
    first = run_study(small, tmp_path / "a", jobs=1, report=False)
    bigger = replace(small, samples=12)
    folder = Folder(tmp_path / "a", bigger)
    feasible = set(first.positions[first.positions["feasible"]]["task"])
    assert feasible
    assert folder.held() == dict.fromkeys(feasible, 6)  # topped up, not played again
    assert folder.done() == set(range(4)) - feasible  # no samples at any size
    extended = run_study(bigger, tmp_path / "a", jobs=1, report=False)
    at_once = run_study(bigger, tmp_path / "b", jobs=1, report=False)
    _tables_equal(extended.tables, at_once.tables)
    assert not list((tmp_path / "a" / "parts").glob(".tmp-*"))
    assert list(extended.shots["sample"]) == list(at_once.shots["sample"])


def test_a_positions_further_samples_are_those_a_run_of_all_of_them_plays() -> None:
    from dataclasses import fields

    from onered.study.work import MoreSamples, more_samples, run_task

    spec = replace(SMALL_SHOTS, grid=(1, 1), samples=8)
    whole = run_task(spec, 0)
    assert whole["positions"][0]["feasible"]
    values = {f.name: getattr(spec, f.name) for f in fields(spec)}
    held = run_task(replace(spec, samples=5), 0)
    more = run_task(MoreSamples(**values, first=3), 0)  # overlapping what is held: 3 of 5
    assert [s["sample"] for s in more["shots"]] == [3, 4, 5, 6, 7]
    assert more["shots"] == whole["shots"][3:]
    assert more_samples(held, more, 3) == whole


def test_an_extension_stopped_half_way_is_no_finished_study_until_run_again(
    tmp_path: Path,
) -> None:
    run_study(SMALL_GAMES, tmp_path, jobs=1, report=False)
    bigger = replace(SMALL_GAMES, games=6)
    folder = Folder(tmp_path, bigger)
    folder.open()  # as if stopped before its first new game ended
    assert folder.extends == 4
    again = Folder(tmp_path, bigger)
    again.check()
    assert again.extends is None  # the folder holds the bigger study now: resumed, not extended
    assert folder.done() == {0, 1, 2, 3}
    with pytest.raises(StudyError, match="its tables hold 4 of its 6 tasks\\); run it again"):
        load(tmp_path)
    assert len(run_study(bigger, tmp_path, jobs=1, report=False).games) == 6


# --- seams: part names, spec files ------------------------------------------------------------


@given(
    values=st.integers(1, 12),
    games=st.integers(1, 50),
    more=st.integers(0, 50),
    data=st.data(),
)
def test_a_sweeps_part_is_named_by_value_and_game_whatever_the_games(
    values: int, games: int, more: int, data: st.DataObject
) -> None:
    spec = replace(SMALL_SWEEP, values=tuple(0.5 + v / 100 for v in range(values)), games=games)
    bigger = replace(spec, games=games + more)
    folder, grown = Folder(Path("x"), spec), Folder(Path("x"), bigger)
    index = data.draw(st.integers(0, spec.tasks - 1))
    value, game = spec.task_value(index)
    name = folder.part(index).name
    assert folder._index(name) == index  # the name reads back as its task
    assert grown.part(value * bigger.games + game).name == name  # the same part, grown
    assert grown._index(name) == value * bigger.games + game


@given(games=st.integers(1, 10_000), seed=st.integers(0, 2**63 - 1), lag=st.booleans())
def test_a_spec_file_written_by_to_json_reads_back_equal(games: int, seed: int, lag: bool) -> None:
    from onered.study.spec import to_json
    from onered.study.specfile import spec_of

    for spec in (
        replace(SMALL_GAMES, games=games, seed=seed, lag=lag),
        replace(SMALL_SWEEP, games=games, seed=seed, lag=lag),
        replace(SMALL_SHOTS, samples=games, seed=seed),
    ):
        assert spec_of(to_json(spec), Path("spec.json")) == spec
        # a hand-written file: its kind and the fields that differ from the defaults
        defaults = to_json(type(spec)())
        short = {k: v for k, v in to_json(spec).items() if k == "kind" or defaults[k] != v}
        assert spec_of(short, Path("mine.json")) == spec
