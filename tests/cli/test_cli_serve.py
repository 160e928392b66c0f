"""``onered serve`` listens before it says where to open it: a busy port is one line naming
it and exit status 2, with no announcement of a server that is not ours."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from onered.cli import main


def test_a_busy_port_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        status = main(["serve", "--port", str(port), "--data", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""  # no "open http://…": that address is another server's
    assert err == (
        f"onered serve: --port: port {port} on 127.0.0.1 is in use (another server?); "
        "choose another port\n"
    )
    assert not (tmp_path / "data").exists()


def test_an_unknown_host_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--host", "no-such-host.invalid", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("onered serve: --host: cannot listen on 'no-such-host.invalid'")
    assert err.count("\n") == 1


def test_the_announced_address_already_accepts(tmp_path: Path) -> None:
    """The moment the banner is printed, a connection to the port succeeds."""
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # a free port, released before the server starts
    command = [sys.executable, "-m", "onered", "serve", "--port", str(port)]
    command += ["--data", str(tmp_path / "data")]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as proc:
        try:
            assert proc.stdout is not None
            banner = proc.stdout.readline()
            assert banner.startswith(f"onered: open http://127.0.0.1:{port}/")
            socket.create_connection(("127.0.0.1", port), timeout=30).close()
        finally:
            proc.terminate()
