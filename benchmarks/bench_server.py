"""``onered serve`` in a subprocess for the web's benchmarks (``web_streams``, ``web_writes``,
``web_slowloris``, ``web_offline``): on a free loopback port, over a data folder, with the
open-files soft limit a benchmark asks for, answering its health check before it is used;
and the CPU time a process has used.

The server is this interpreter's ``onered`` (``PYTHONPATH`` picks another checkout, e.g. the
commit before a change, for a "before" number)."""

from __future__ import annotations

import http.client
import os
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import IO


def free_port() -> int:
    """A loopback port free at the moment of asking."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def healthy(port: int) -> bool:
    """Whether the server on ``port`` answers ``GET /api/health`` with 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        conn.request("GET", "/api/health")
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def start_server(
    data: Path,
    port: int,
    *,
    nofile: int = 0,
    log: Path | None = None,
    wait: float = 60.0,
    database: str | None = None,
) -> subprocess.Popen[bytes]:
    """``onered serve`` on 127.0.0.1:``port`` over ``data``, answering its health check
    before this returns. ``nofile``: the server's open-files soft limit (0: this
    process's), set in the child before onered starts; ``log``: where its output goes
    (else nowhere); ``database``: a PostgreSQL URL to serve from instead of ``data``'s
    SQLite file."""

    def limit_files() -> None:  # in the child: only a limit is set before exec
        if nofile > 0:
            _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(nofile, hard), hard))

    out: IO[bytes] | int = log.open("wb") if log else subprocess.DEVNULL
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "onered", "serve", "--port", str(port), "--data", str(data)),
            *(("--database", database) if database else ()),
        ],
        stdout=out,
        stderr=subprocess.STDOUT,
        preexec_fn=limit_files,
    )
    if not isinstance(out, int):
        out.close()
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            said = log.read_text() if log else ""
            raise RuntimeError(f"onered serve exited with {proc.returncode}: {said}")
        if healthy(port):
            return proc
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError(f"onered serve did not answer within {wait:.0f} s")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (``/proc/<pid>/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
