"""Studies on several workers: speed-up of local processes, Ray against local processes,
and a two-node Ray cluster on this machine.

One games study (``--games`` games of ``--p1`` against ``--p2`` to ``--target``) is run

1. on one local worker process, then on two (target: two workers >= 1.8x one), alternated
   ``--repeat`` times, the best time of each kept;
2. on a local Ray with two CPUs (target: within 15 % of two local processes), timed with
   Ray's start-up and, separately, on a Ray already running;
3. on a two-node Ray cluster started here (``ray start --head`` and ``ray start --address``,
   one CPU each, in their own process groups), joined with ``--address``: the tasks table
   must show both nodes, and the results must equal the local ones row for row.

Beside the study's speed-up, a baseline measured in the same run: the speed-up of a plain
CPU loop on two processes over one, before and after the local runs — how many cores the
machine had to spare (2.0 when idle); the study cannot do better. Every run writes to a
fresh folder; the results of all runs are compared. The CPU seconds
the tasks took are printed beside the wall times: two workers must do the same work as one
(no duplicated start-up per task), whatever else runs on the machine. The cluster is
stopped at the end whatever happens, by terminating the process groups of the two
``ray start --block`` commands this script started (``ray stop`` would also stop any other
Ray on the machine). The machine's load (1-minute average) is printed beside every timing:
with other work on the cores, ratios are distorted.

    python benchmarks/bench_study.py [--games 24] [--target 30] [--repeat 2] [--no-cluster]
                                     [--out FILE]

``--shots N`` measures a shots study's simulation alone instead: the tasks of a pot study on
a grid of N x N positions (``--samples`` noisy strokes each, the default spec otherwise), run
in this process by the study's own task function, and prints shots per CPU second (the
calibration's strokes and the samples, each simulated and judged by the referee) — the
figure to compare before and after a change of the shots' path, with the load reported.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from onered.study import GamesSpec, StudyResult, run_study


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def load() -> float:
    return round(os.getloadavg()[0], 2)


def timed(label: str, run: Callable[[], StudyResult]) -> tuple[float, StudyResult, float]:
    before = load()
    t0 = time.perf_counter()
    result = run()
    seconds = time.perf_counter() - t0
    print(f"{label:<38} {seconds:7.2f} s   (load {before} -> {load()})", file=sys.stderr)
    return seconds, result, before


def spin(n: int) -> int:
    """A plain CPU loop (the baseline's work)."""
    total = 0
    for i in range(n):
        total += i * i
    return total


def free_cores(repeat: int) -> float:
    """How many cores a plain CPU loop gets right now: its time on one process over its
    time on two (forked as the study's workers are; best of ``repeat``). 2.0 on idle cores;
    the study's speed-up can be no better."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    best = {1: float("inf"), 2: float("inf")}
    for _ in range(repeat):
        for jobs in (1, 2):
            t0 = time.perf_counter()
            with ctx.Pool(jobs) as pool:
                pool.map(spin, [4_000_000] * 4, chunksize=1)
            best[jobs] = min(best[jobs], time.perf_counter() - t0)
    return best[1] / best[2]


def same(a: StudyResult, b: StudyResult) -> bool:
    try:
        for name in ("games", "strokes"):
            pd.testing.assert_frame_equal(a.tables[name], b.tables[name])
    except AssertionError:
        return False
    return True


class Cluster:
    """A head and a second node on this machine, one CPU each, in their own process groups."""

    def __init__(self, root: Path) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.root = root
        self.processes: list[subprocess.Popen[bytes]] = []

    def _start(self, *args: str, name: str) -> None:
        ray = str(Path(sys.executable).parent / "ray")
        log = open(self.root / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        process = subprocess.Popen(
            [ray, "start", "--block", "--num-cpus", "1", "--disable-usage-stats", *args],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append(process)

    def start(self) -> None:
        self._start(
            "--head",
            "--port",
            str(self.port),
            "--include-dashboard=false",
            "--dashboard-port",
            str(free_port()),
            "--dashboard-agent-listen-port",
            str(free_port()),
            "--temp-dir",
            str(self.root / "ray"),
            name="head",
        )
        self._wait_nodes(1)
        self._start(
            "--address",
            self.address,
            "--dashboard-agent-listen-port",
            str(free_port()),
            name="node2",
        )
        self._wait_nodes(2)

    def _wait_nodes(self, n: int) -> None:
        import ray

        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for p in self.processes:
                if p.poll() is not None:
                    raise RuntimeError(f"ray start ended ({p.returncode}); see {self.root}/*.log")
            try:
                ray.init(address=self.address, logging_level="ERROR", log_to_driver=False)
                alive = sum(1 for node in ray.nodes() if node["Alive"])
                ray.shutdown()
                if alive >= n:
                    return
            except (ConnectionError, RuntimeError):
                pass
            time.sleep(1.0)
        raise RuntimeError(f"the cluster did not reach {n} nodes in 120 s")

    def stop(self) -> None:
        """Terminate the process groups this cluster started (and nothing else)."""
        for p in reversed(self.processes):
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
        for p in reversed(self.processes):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
            for _ in range(100):  # children of the group (raylet, workers) gone too
                try:
                    os.killpg(p.pid, 0)
                except ProcessLookupError:
                    break
                time.sleep(0.1)
            else:
                os.killpg(p.pid, signal.SIGKILL)


def shots_rate(grid: int, samples: int, seed: int) -> dict[str, Any]:
    """Shots per CPU second of a pot study's tasks on a ``grid`` x ``grid`` of positions,
    run one after the other in this process (``onered.study.work.shots_task``)."""
    from onered.study.spec import ShotsSpec
    from onered.study.work import contact_aims, shots_task

    spec = ShotsSpec(grid=(grid, grid), samples=samples, seed=seed)
    shots = 0
    c0, w0, before = time.process_time(), time.perf_counter(), load()
    for index in range(grid * grid):
        rows = shots_task(spec, index, seed + index)
        position = rows["positions"][0]
        if position["aim"] is not None or position["reason"].startswith("no aim"):
            _, _, point = spec.grid_point(index)
            shots += len(contact_aims(spec.fixed, point))  # the calibration's scan
        shots += len(rows["shots"])
    cpu = time.process_time() - c0
    return {
        "study": f"pot into {spec.pocket}, {grid} x {grid} positions, {samples} samples",
        "shots": shots,
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(time.perf_counter() - w0, 3),
        "shots_per_cpu_second": round(shots / cpu),
        "load": [before, load()],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--target", type=int, default=30)
    parser.add_argument("--p1", default="ai:amateur")
    parser.add_argument("--p2", default="ai:beginner")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=2, help="local runs of each (best kept)")
    parser.add_argument("--no-cluster", action="store_true", help="skip the two-node cluster")
    parser.add_argument("--out", metavar="FILE", help="also write the figures as JSON here")
    parser.add_argument("--shots", type=int, metavar="N", help="time a shots study's N x N tasks")
    parser.add_argument("--samples", type=int, default=200, help="noisy strokes a position")
    args = parser.parse_args(argv)
    if args.shots is not None:
        if args.shots < 1 or args.samples < 1:
            print("bench_study: --shots and --samples must be positive", file=sys.stderr)
            return 2
        print(json.dumps(shots_rate(args.shots, args.samples, args.seed), indent=2))
        return 0
    spec = GamesSpec(p1=args.p1, p2=args.p2, games=args.games, target=args.target, seed=args.seed)
    # Ray 2.59+ turns token authentication on for a Ray started by ray.init() and writes
    # ~/.ray/auth_token (then a later ray start --head uses tokens, ray start --address does
    # not and is refused): this script's Rays use a token of their own, by the environment,
    # which the cluster's two ray start commands inherit (docs/study.md, Backends).
    os.environ["RAY_AUTH_MODE"] = "token"
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    figures: dict[str, Any] = {
        "study": f"{args.games} games {args.p1} v {args.p2} to {args.target}",
        "cpus": os.cpu_count(),
        "load_at_start": load(),
    }
    with tempfile.TemporaryDirectory(prefix="bench-study-") as tmp:
        root = Path(tmp)

        def study(name: str, **options: Any) -> Callable[[], StudyResult]:
            return lambda: run_study(spec, root / name, report=False, **options)

        figures["baseline_cpu_loop_speedup_2_processes"] = round(free_cores(3), 3)
        runs: dict[int, list[tuple[float, StudyResult, float]]] = {1: [], 2: []}
        for k in range(args.repeat):  # alternated, so that a burst of load hits both alike
            for jobs in (1, 2):
                label = f"local, {jobs} worker{'s' if jobs > 1 else ''} (run {k + 1})"
                runs[jobs].append(timed(label, study(f"jobs{jobs}-{k}", jobs=jobs)))
        t1, one, l1 = min(runs[1], key=lambda r: r[0])
        t2, two, l2 = min(runs[2], key=lambda r: r[0])
        figures["local_1_worker_s"] = round(t1, 2)
        figures["local_2_workers_s"] = round(t2, 2)
        figures["local_runs_s"] = {j: [round(r[0], 2) for r in rs] for j, rs in runs.items()}
        figures["speedup_2_workers"] = round(t1 / t2, 3)
        figures["baseline_after"] = round(free_cores(3), 3)
        figures["load_during_local"] = [l1, l2]
        figures["identical_1_2"] = same(one, two)
        # the work done (CPU seconds of the tasks): the same on one and two workers
        figures["task_cpu_s"] = {
            "1_worker": round(float(one.tasks["cpu_seconds"].sum()), 2),
            "2_workers": round(float(two.tasks["cpu_seconds"].sum()), 2),
        }

        tr, ray_result, lr = timed(
            "ray local, 2 CPUs (with start-up)", study("ray", backend="ray", jobs=2)
        )
        import ray

        ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="ERROR")
        try:
            warm = ray.get([ray.remote(lambda: 0).remote() for _ in range(2)])  # workers up
            del warm
            tw, ray_warm, lw = timed(
                "ray local, 2 CPUs (running)", study("ray-warm", backend="ray")
            )
        finally:
            ray.shutdown()
        figures["ray_2_cpus_s"] = round(tr, 2)
        figures["ray_2_cpus_running_s"] = round(tw, 2)
        figures["ray_over_local"] = round(tr / t2, 3)
        figures["ray_running_over_local"] = round(tw / t2, 3)
        figures["load_during_ray"] = [lr, lw]
        figures["identical_ray"] = same(one, ray_result) and same(one, ray_warm)

        if not args.no_cluster:
            cluster = Cluster(root)
            try:
                cluster.start()
                tc, clustered, lc = timed(
                    "ray cluster, 2 nodes x 1 CPU",
                    study("cluster", backend="ray", address=cluster.address),
                )
            finally:
                cluster.stop()
            nodes = clustered.tasks.groupby("ray_node")["task"].apply(list).to_dict()
            figures["cluster_s"] = round(tc, 2)
            figures["cluster_load"] = lc
            figures["cluster_nodes"] = len(nodes)
            figures["cluster_tasks_per_node"] = {k[:12]: v for k, v in nodes.items()}
            figures["identical_cluster"] = same(one, clustered)
    figures["load_at_end"] = load()
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
