"""Local workers end with the study's process, even when it is killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: A study long enough to be killed in the middle (hundreds of games on two workers).
SCRIPT = """
import sys
from onered.study import GamesSpec, run_study
spec = GamesSpec(p1="ai:beginner", p2="ai:novice", games=400, target=6, max_strokes=60, seed=7)
run_study(spec, sys.argv[1], jobs=2, report=False)
"""


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    """``pid`` runs (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _wait(condition: Callable[[], bool], what: str, limit: float = 120.0) -> None:
    """Poll ``condition`` until it holds; the limit only guards against a hang."""
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"still waiting for {what} after {limit} s")
        time.sleep(0.1)


def test_workers_end_when_the_study_is_killed(tmp_path: Path) -> None:
    log = tmp_path / "stderr.txt"
    with log.open("wb") as err:
        study = subprocess.Popen(
            [sys.executable, "-c", SCRIPT, str(tmp_path / "out")], stderr=err, env=os.environ
        )
    workers: set[int] = set()
    try:

        def two_workers() -> bool:
            workers.update(_children(study.pid))
            return len(workers) >= 2 or study.poll() is not None

        _wait(two_workers, "the study's two workers")
        assert study.poll() is None, log.read_text()
        study.send_signal(signal.SIGKILL)
        study.wait()
        _wait(lambda: not any(_alive(pid) for pid in workers), "the workers to end")
    finally:
        if study.poll() is None:
            study.kill()
            study.wait()
        for pid in workers:  # never leave one behind, whatever failed above
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    text = log.read_text()
    assert "Traceback" not in text, text
    assert "BrokenPipeError" not in text, text


#: A process that forks a child watching it with the thread used where Linux's
#: PR_SET_PDEATHSIG is missing, prints the child's id and ends.
WATCHED = """
import os, time
from onered.study.backends import _watch_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    _watch_parent(parent, period=0.05)
    time.sleep(600)
    os._exit(0)
print(child, flush=True)
os._exit(0)
"""


def test_the_watching_thread_ends_a_worker_whose_parent_is_gone() -> None:
    out = subprocess.run(
        [sys.executable, "-c", WATCHED], capture_output=True, text=True, timeout=120, check=True
    )
    child = int(out.stdout.split()[0])
    try:
        _wait(lambda: not _alive(child), "the orphaned child to end")
    finally:
        if _alive(child):
            os.kill(child, signal.SIGKILL)
