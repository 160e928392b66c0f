"""A real PostgreSQL server for the tests: Debian's ``postgresql`` package, a cluster made
in a temporary folder (``initdb``, run as the user ``postgres`` when the tests run as root,
which ``initdb`` refuses), listening on loopback and a socket in that folder, stopped when
the test session (or the xdist worker) ends. ``make test`` installs the package.

``postgres_server`` is the session's server; ``fresh_database(server)`` makes an empty
database on it and returns its URL (each test its own: no test sees another's rows).
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Set to skip the PostgreSQL tests on a machine without the server (CI never sets it).
SKIP_VARIABLE = "ONERED_NO_POSTGRES"


@dataclass(frozen=True)
class PostgresServer:
    """A running test cluster: where its files are, its port, the admin URL."""

    folder: Path
    port: int
    bin_dir: Path

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


def _bin_dir() -> Path | None:
    """The folder of Debian's server programs (``initdb`` is not on PATH there)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    if found:
        return Path(found[0]).parent
    which = shutil.which("initdb")
    return Path(which).resolve().parent if which else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(argv: list[str]) -> list[str]:
    """``argv`` run as ``postgres`` when we are root (the server refuses to run as root)."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


def start_server() -> Iterator[PostgresServer]:
    """Make a cluster in a temporary folder, start it, yield it, stop it and remove it."""
    if os.environ.get(SKIP_VARIABLE):
        pytest.skip(f"{SKIP_VARIABLE} is set: no PostgreSQL tests")
    bin_dir = _bin_dir()
    if bin_dir is None:
        pytest.fail(
            "PostgreSQL's server is not installed: apt-get install -y postgresql "
            f"(make test does), or set {SKIP_VARIABLE}=1 to skip these tests"
        )
    folder = Path(tempfile.mkdtemp(prefix="onered-pg-"))
    data = folder / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(data, "postgres", "postgres")
    port = _free_port()
    log = folder / "server.log"
    subprocess.run(
        _as_owner(
            [
                str(bin_dir / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=300"
    subprocess.run(
        _as_owner(
            [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start"]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield PostgresServer(folder, port, bin_dir)
    finally:
        subprocess.run(
            _as_owner([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server: PostgresServer) -> str:
    """An empty database on ``server``; its URL."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)
