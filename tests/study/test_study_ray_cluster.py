"""A study on a Ray cluster of two nodes on this machine: the documented recipe with
token authentication, errors that name their cause, and a worker node killed mid-run.

The cluster is this module's own: ``ray start --block`` in a new session per node, free
ports, its own temporary folder and its own ``HOME`` (so its token, ``~/.ray/auth_token``,
is a test's, and the user's ``~/.ray`` is never read). It is stopped by signalling its
own processes (found by that ``HOME`` in their environment), never by ``ray stop``,
which would stop every Ray on the machine.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pandas as pd
import pytest

from onered.study import load, run_study

pytest.importorskip("ray")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

BIN = Path(sys.executable).parent
#: Only guards against a hang (Ray starts in seconds; far slower on a loaded machine).
LIMIT = 240.0
#: A games study long enough to kill a node in its middle (24 games of about a second).
GAMES = ["--p1", "ai:beginner", "--p2", "ai:novice", "--games", "24", "--target", "20"]
GAMES += ["--max-strokes", "150", "--seed", "7"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait(condition: Callable[[], bool], what: str, limit: float = LIMIT) -> None:
    end = time.monotonic() + limit
    while not condition():
        if time.monotonic() > end:
            pytest.fail(f"still waiting for {what} after {limit} s")
        time.sleep(0.2)


def _stat(pid: int) -> list[str] | None:
    """``/proc/<pid>/stat`` after the command name: state, parent, group, session ..."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def _processes_with_home(home: Path) -> list[int]:
    """The live processes whose environment has ``HOME=home``: this cluster's own."""
    mark = f"HOME={home}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        stat = _stat(int(entry.name))
        if mark in environ and stat is not None and stat[0] != "Z":
            found.append(int(entry.name))
    return found


class Cluster:
    """A head and worker nodes started with ``ray start --block`` (each in a session of its
    own), with their own ``HOME``, temporary folder and ports."""

    def __init__(self, root: Path) -> None:
        self.home = root / "home"
        (self.home / ".ray").mkdir(parents=True)
        # Unix socket paths must stay short: a short folder of its own under /tmp.
        self.temp = Path(tempfile.mkdtemp(prefix="onered-ray-", dir="/tmp"))
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.root = root
        self.nodes: dict[str, subprocess.Popen[bytes]] = {}

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
        env["HOME"] = str(self.home)
        env.update(extra)
        return env

    def ray(self, *args: str, **extra: str) -> str:
        done = subprocess.run(
            [str(BIN / "ray"), *args],
            env=self.env(**extra),
            capture_output=True,
            text=True,
            timeout=LIMIT,
            check=True,
        )
        return done.stdout

    def start(self, name: str, *args: str) -> None:
        """Start node ``name`` (the recipe's environment: token authentication on) and wait
        until Ray says it runs."""
        log = self.root / f"{name}.log"
        ports = ["--dashboard-agent-listen-port", str(_free_port())]
        ports += ["--dashboard-agent-grpc-port", str(_free_port())]
        ports += ["--metrics-export-port", str(_free_port())]
        ports += ["--runtime-env-agent-port", str(_free_port())]
        with log.open("wb") as out:
            self.nodes[name] = subprocess.Popen(
                [
                    *(str(BIN / "ray"), "start", "--block", "--disable-usage-stats"),
                    *("--num-cpus", "1", "--node-ip-address", "127.0.0.1"),
                    *("--temp-dir", str(self.temp / name), *ports, *args),
                ],
                env=self.env(RAY_AUTH_MODE="token"),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        node = self.nodes[name]

        def started() -> bool:
            if node.poll() is not None:
                pytest.fail(f"ray start {name} ended: {log.read_text()[-2000:]}")
            return "Ray runtime started" in log.read_text(errors="replace")

        _wait(started, f"the {name} node to start")

    def raylet(self, name: str) -> int:
        """The process id of node ``name``'s raylet."""
        session = self.nodes[name].pid
        for pid in _processes_with_home(self.home):
            stat = _stat(pid)
            comm = Path(f"/proc/{pid}/comm").read_text().strip() if stat else ""
            if stat is not None and int(stat[3]) == session and comm == "raylet":
                return pid
        raise AssertionError(f"no raylet in the session of node {name}")

    def stop(self) -> None:
        """End every process of this cluster (its nodes' sessions, then anything left with
        its ``HOME``)."""
        for node in self.nodes.values():
            if node.poll() is None:
                os.killpg(node.pid, signal.SIGTERM)
        for node in self.nodes.values():
            try:
                node.wait(timeout=5)  # Ray would drain for 30 s: no need, the tests are over
            except subprocess.TimeoutExpired:
                os.killpg(node.pid, signal.SIGKILL)
                node.wait()
        for pid in _processes_with_home(self.home):
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A head node with token authentication, set up as docs/study.md says: a token
    made by ``ray get-auth-token --generate`` and ``RAY_AUTH_MODE=token``."""
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        c.ray("get-auth-token", "--generate")
        assert (c.home / ".ray" / "auth_token").read_text().strip()
        c.start(
            "head",
            "--head",
            "--port",
            str(c.port),
            "--include-dashboard",
            "false",
            "--dashboard-port",
            str(_free_port()),
        )
        yield c
    finally:
        c.stop()


def _arguments(cluster: Cluster, out: Path) -> list[str]:
    """``onered study games ...`` on the cluster into ``out``."""
    where = ["--backend", "ray", "--address", cluster.address, "--no-progress", "--out", str(out)]
    return ["study", "games", *GAMES, "--lang", "en", *where]


def _study(cluster: Cluster, out: Path, **env: str) -> subprocess.Popen[str]:
    """``onered study games --backend ray --address ...`` in its own process."""
    return subprocess.Popen(
        [sys.executable, "-m", "onered", *_arguments(cluster, out)],
        env=cluster.env(**env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _refused(cluster: Cluster, out: Path, **env: str) -> str:
    """The error of a study that cannot join (checked: no traceback, nothing written)."""
    study = _study(cluster, out, **env)
    _, err = study.communicate(timeout=LIMIT)
    assert study.returncode != 0
    assert "Traceback" not in err, err
    assert not out.exists()
    return err


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"HOME": "/nonexistent"}, "asks for a token .* this machine has none; copy the head"),
        ({"RAY_AUTH_TOKEN": "f" * 64}, "refuses this machine's token \\(from RAY_AUTH_TOKEN\\)"),
        ({"RAY_AUTH_TOKEN_PATH": "/nonexistent"}, "RAY_AUTH_TOKEN_PATH=/nonexistent cannot"),
        ({"RAY_AUTH_MODE": "disabled"}, "asks for a token .* RAY_AUTH_MODE=disabled here"),
    ],
)
def test_a_study_that_cannot_join_names_the_cause(
    cluster: Cluster, tmp_path: Path, env: dict[str, str], message: str
) -> None:
    import re

    err = _refused(cluster, tmp_path / "out", **env)
    assert re.search(message, err), err


def test_a_ray_version_other_than_the_clusters_is_named(cluster: Cluster, tmp_path: Path) -> None:
    script = (
        "import sys, ray._private.utils as u\n"
        "u.compute_version_info = lambda: ('2.0.0', '3.9.0')\n"
        "from onered.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    out = tmp_path / "out"
    study = subprocess.run(
        [sys.executable, "-c", script, *_arguments(cluster, out)],
        env=cluster.env(),
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    assert study.returncode != 0
    assert "Traceback" not in study.stderr, study.stderr
    import ray

    assert f"the cluster runs Ray {ray.__version__}" in study.stderr, study.stderr
    assert "this machine Ray 2.0.0 on Python 3.9.0" in study.stderr, study.stderr


def test_a_study_survives_a_worker_node_killed_mid_run(cluster: Cluster, tmp_path: Path) -> None:
    cluster.start("worker", "--address", cluster.address)
    out = tmp_path / "cluster"
    study = _study(cluster, out)  # RAY_AUTH_MODE unset: the token in ~/.ray is used
    try:
        nodes: set[str] = set()

        def both_nodes_working() -> bool:
            if study.poll() is not None:
                pytest.fail(f"the study ended first: {study.communicate()}")
            for part in (out / "parts").glob("*/task.json"):
                nodes.add(json.loads(part.read_text())["ray_node"])
            return len(nodes) >= 2

        _wait(both_nodes_working, "tasks done on both nodes")
        done = len(list((out / "parts").glob("*/task.json")))
        os.kill(cluster.raylet("worker"), signal.SIGKILL)  # the node is lost mid-run
        _, err = study.communicate(timeout=LIMIT)
    finally:
        if study.poll() is None:
            study.kill()
            study.wait()
    assert study.returncode == 0, err
    assert done < 24  # it was killed mid-run
    result = load(out)
    assert set(result.tasks["ray_node"]) >= nodes  # tasks ran on both nodes ...
    assert set(result.tasks["node"]) == {platform.node()}  # ... of this host
    local = run_study(result.spec, tmp_path / "local", jobs=2, report=False)
    for name in ("games", "strokes"):
        pd.testing.assert_frame_equal(result.tables[name], local.tables[name])
