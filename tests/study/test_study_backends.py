"""The same seed gives the same rows whatever the backend and the number of workers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd
import pytest

from onered.study import StudyError, run_study
from study_support import SMALL_GAMES, SMALL_SHOTS

RESULT_TABLES = ("games", "strokes")


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory: pytest.TempPathFactory) -> dict[str, pd.DataFrame]:
    out = tmp_path_factory.mktemp("jobs1")
    return run_study(SMALL_GAMES, out, jobs=1, report=False).tables


def test_two_local_workers_give_the_rows_of_one(
    one_worker: dict[str, pd.DataFrame], tmp_path: Path
) -> None:
    result = run_study(SMALL_GAMES, tmp_path, jobs=2, report=False)
    for name in RESULT_TABLES:
        pd.testing.assert_frame_equal(result.tables[name], one_worker[name])
    assert result.tasks["process"].nunique() == 2  # both workers played


@pytest.mark.slow  # make check leaves it out; make test runs it
def test_ray_gives_the_rows_of_local_processes(
    one_worker: dict[str, pd.DataFrame], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # a home without ~/.ray
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    one_worker_tasks = one_worker["tasks"]
    result = run_study(SMALL_GAMES, tmp_path / "out", jobs=2, backend="ray", report=False)
    for name in RESULT_TABLES:
        pd.testing.assert_frame_equal(result.tables[name], one_worker[name])
    assert set(result.tasks["node"]) == set(one_worker_tasks["node"])  # the host, as locally
    assert len(result.tasks["ray_node"].iloc[0]) == 56  # besides, Ray's node id (hexadecimal)
    assert one_worker_tasks["ray_node"].isna().all()
    assert not (tmp_path / "home" / ".ray").exists()  # the local Ray's token is its own
    assert "RAY_AUTH_MODE" not in os.environ  # the environment is put back


def test_shot_maps_are_the_same_on_one_and_two_workers(tmp_path: Path) -> None:
    one = run_study(SMALL_SHOTS, tmp_path / "one", jobs=1, report=False)
    two = run_study(SMALL_SHOTS, tmp_path / "two", jobs=2, report=False)
    for name in ("positions", "shots"):
        pd.testing.assert_frame_equal(one.tables[name], two.tables[name])
    assert one.positions["feasible"].any()


def test_a_missing_ray_is_named_with_the_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    with pytest.raises(StudyError, match=r"Ray is not installed.*onered\[ray\]"):
        run_study(SMALL_GAMES, tmp_path, backend="ray")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"jobs": 0}, "--jobs: expected a number of workers"),
        ({"backend": "dask"}, "--backend: expected local or ray"),
        ({"address": "127.0.0.1:1"}, "--address: only with --backend ray"),
    ],
)
def test_bad_backend_settings_are_named_before_anything_is_written(
    tmp_path: Path, options: dict[str, object], message: str
) -> None:
    with pytest.raises(StudyError, match=message):
        run_study(SMALL_GAMES, tmp_path / "out", **options)  # type: ignore[arg-type]
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_bug_on_ray_stops_the_study_at_once_not_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ray

    import study_faults

    support = Path(study_faults.__file__).parent
    log = tmp_path / "runs.txt"
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # a home without ~/.ray
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # a Ray of this test's own
    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        runtime_env={
            "worker_process_setup_hook": "study_faults.fail_task_2",
            "env_vars": {"PYTHONPATH": str(support), study_faults.LOG: str(log)},
        },
    )
    try:
        with pytest.raises(StudyError, match=r"^task 2 failed: ZeroDivisionError: boom; \d of 4"):
            run_study(SMALL_GAMES, tmp_path / "out", backend="ray", report=False)
    finally:
        ray.shutdown()
    assert len(log.read_text().splitlines()) == 1  # a bug is not run again


def test_an_address_where_a_web_server_answers_is_refused_at_once(tmp_path: Path) -> None:
    import socket
    import threading

    pytest.importorskip("ray")
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer_as_http() -> None:  # what the dashboard's port (8265) would say
        conn, _ = server.accept()
        with conn:
            conn.recv(1024)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    thread = threading.Thread(target=answer_as_http, daemon=True)
    thread.start()
    try:
        with pytest.raises(StudyError, match=r"answers at 127\.0\.0\.1:\d+ is not a Ray head"):
            run_study(SMALL_GAMES, tmp_path / "out", backend="ray", address=f"127.0.0.1:{port}")
    finally:
        thread.join(timeout=30)
        server.close()
    assert not (tmp_path / "out").exists()
