"""``onered serve --workers N``'s parent (``onered.web.serving.Supervisor``): a bad number
or a worker that cannot start is one clear line and exit 2, not a loop of restarts; workers
that keep dying make it give up; SIGINT (Ctrl+C) stops every worker. Run in subprocesses
(the parent forks); nothing waits for a clock but hang guards."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import httpx

from web_support import Server, free_port

HANG = 60.0


def _serve(*flags: str, port: int = 0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "onered", "serve", "--port", str(port or free_port()), *flags],
        capture_output=True,
        text=True,
        timeout=HANG,
    )


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def test_a_number_of_workers_out_of_range_is_refused(tmp_path: Path) -> None:
    for bad in ("0", "65"):
        done = _serve("--data", str(tmp_path / "data"), "--workers", bad)
        assert done.returncode == 2
        assert "--workers" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_worker_that_cannot_open_the_data_folder_stops_the_server(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    done = _serve("--data", str(blocker / "data"), "--workers", "3")
    assert done.returncode == 2
    assert "--data" in done.stderr
    assert "starting another" not in done.stderr  # said once, by the first worker
    assert "Traceback" not in done.stderr


def test_workers_that_keep_dying_make_the_parent_give_up() -> None:
    script = textwrap.dedent(
        """
        from onered.web import serving
        serving.RESTART_PAUSE = 0.0
        print(serving.Supervisor(2, lambda k, ready: (ready(), 3)[1], stop_timeout=1.0).run())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG
    )
    assert done.stdout.strip() == "1"
    assert "exited with 3; starting another" in done.stderr
    assert "giving up" in done.stderr


def test_ctrl_c_stops_every_worker(tmp_path: Path) -> None:
    server = Server(tmp_path / "data", "--workers", "3")
    server.start()
    assert server.proc is not None
    proc = server.proc
    deadline = time.monotonic() + HANG
    while len(_children(proc.pid)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    workers = _children(proc.pid)
    assert len(workers) == 3
    assert httpx.get(server.base + "/api/health").status_code == 200
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=HANG) == 0
    server.proc = None
    for pid in workers:
        assert (
            not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()
        )


def test_a_port_held_by_another_server_with_workers_is_refused(tmp_path: Path) -> None:
    """Each worker's socket shares the port (``SO_REUSEPORT``); a second server of the same
    user's must still be told the port is taken, not share it."""
    first = Server(tmp_path / "one", "--workers", "2")
    first.start()
    try:
        done = _serve("--data", str(tmp_path / "two"), "--workers", "2", port=first.port)
        assert done.returncode == 2
        assert "in use" in done.stderr
    finally:
        first.stop()
