"""Where a study's tasks run: local processes, or Ray (on this machine or a cluster).

Both run :func:`execute` on each task and hand the results back as they finish, in any
order; the runner writes each one down and orders the tables by task index, so the results
do not depend on the backend. Each result carries where it ran (node and process), which
is kept apart from the results (``tasks.parquet``).

Local processes are ``multiprocessing`` workers forked from the study's process (started
before the progress bar's thread; a forked worker needs no ``if __name__ == "__main__"``
guard in the caller's script, which *spawn* would) that ignore Ctrl+C, which the parent
handles by terminating them, and die with the parent (Linux kills them when it does, even
by SIGKILL; elsewhere a thread watches for it). Ray is imported only when chosen (the
``ray`` extra).
"""

from __future__ import annotations

import logging
import os
import platform
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from onered.study.spec import Spec, StudyError

#: What a finished task hands back: its index, its rows by table and where it ran.
Done = tuple[int, dict[str, list[dict[str, Any]]], dict[str, Any]]


def execute(spec: Spec, index: int, node: str | None = None) -> Done:
    """Run task ``index`` (in a worker) and say where and how long."""
    from onered.study.work import run_task

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        rows = run_task(spec, index)
    except StudyError:
        raise
    except Exception as exc:  # any failure of a task reaches the study as one named error
        raise StudyError(f"task {index} failed: {type(exc).__name__}: {exc}") from None
    where = {
        "node": node or platform.node(),
        "process": os.getpid(),
        "seconds": round(time.perf_counter() - t0, 6),
        "cpu_seconds": round(time.process_time() - c0, 6),
    }
    return index, rows, where


def _execute_local(job: tuple[Spec, int]) -> Done:
    return execute(*job)


#: Linux's ``prctl`` option asking for a signal when the parent dies.
_PR_SET_PDEATHSIG = 1


def _worker_init(parent: int) -> None:
    """Set up a forked worker: Ctrl+C is the parent's to handle; the worker dies with its
    parent (even a SIGKILLed one) instead of running on alone; a pipe closed under it ends
    it silently (no ``BrokenPipeError`` traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if not _die_with_parent():
        _watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def _die_with_parent() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies (False elsewhere)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _watch_parent(parent: int, period: float = 1.0) -> None:
    """Where the kernel cannot do it: a thread that ends the process once its parent is
    gone (its parent id changes)."""
    import threading

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(period)
        os._exit(1)

    threading.Thread(target=watch, name="onered-parent-watch", daemon=True).start()


class Backend(Protocol):
    """Runs tasks and yields them as they finish."""

    workers: int

    def start(self, tasks: int) -> None:
        """Get the workers ready for ``tasks`` tasks (before any thread of the caller)."""
        ...

    def run(self, spec: Spec, indices: Sequence[int]) -> Iterator[Done]: ...

    def stop(self) -> None:
        """End every worker now (the tasks in progress are lost, the finished ones kept)."""
        ...


class LocalBackend:
    """``jobs`` local worker processes."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: Any = None

    def run(self, spec: Spec, indices: Sequence[int]) -> Iterator[Done]:
        if not indices:
            return
        if self._pool is None:
            self.start(len(indices))
        try:
            yield from self._pool.imap_unordered(
                _execute_local, [(spec, i) for i in indices], chunksize=1
            )
            self._pool.close()
            self._pool.join()
        finally:
            self.stop()

    def start(self, tasks: int) -> None:
        """Fork the workers (at most one per task)."""
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self._pool = ctx.Pool(
            min(self.workers, tasks), initializer=_worker_init, initargs=(os.getpid(),)
        )

    def stop(self) -> None:
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None


def _probe(address: str) -> None:
    """Refuse at once a ``host:port`` where nothing listens (Ray itself would retry for
    minutes); other forms (``ray://...``, ``auto``) go to Ray as they are."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in host:
        return
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise StudyError(
            f"--address: no Ray cluster answers at {address} ({exc.strerror or exc}); start one "
            f"with 'ray start --head --port {port}' or give the head's address"
        ) from None


def _ray_execute(spec: Spec, index: int) -> Done:
    import ray

    return execute(spec, index, ray.get_runtime_context().get_node_id())


class RayBackend:
    """Ray tasks: on a cluster at ``address``, or on a local Ray started for the study
    (``jobs`` CPUs) and shut down after it."""

    def __init__(self, jobs: int | None, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise StudyError(
                "--backend ray: Ray is not installed; install the extra: pip install 'onered[ray]'"
            ) from None
        self._ray = ray
        self._started = False
        if address:
            _probe(address)
        if not ray.is_initialized():
            try:
                if address:
                    ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
                else:
                    ray.init(
                        address="local",  # a new Ray of its own, never a cluster found here
                        num_cpus=jobs,
                        include_dashboard=False,
                        logging_level=logging.ERROR,
                        log_to_driver=False,
                    )
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = f"the cluster at {address}" if address else "a local Ray"
                raise StudyError(f"--backend ray: cannot start or join {where}: {exc}") from None
            self._started = True
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.workers = max(1, int(resources.get("CPU", 1)))
        self._pending: list[Any] = []

    def start(self, tasks: int) -> None:
        """Nothing to do: Ray's workers are started by Ray."""

    def run(self, spec: Spec, indices: Sequence[int]) -> Iterator[Done]:
        ray = self._ray
        remote = ray.remote(num_cpus=1, max_retries=0)(_ray_execute)
        spec_ref = ray.put(spec)
        queue = list(indices)
        window = 2 * self.workers  # tasks in flight: every CPU busy, memory bounded
        try:
            while queue or self._pending:
                while queue and len(self._pending) < window:
                    self._pending.append(remote.remote(spec_ref, queue.pop(0)))
                ready, self._pending = ray.wait(self._pending, num_returns=1)
                for ref in ready:
                    yield ray.get(ref)
        finally:
            self.stop()

    def stop(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending = []

    def close(self) -> None:
        """Shut down the local Ray this backend started (a cluster is left running)."""
        self.stop()
        if self._started:
            self._ray.shutdown()
            self._started = False
