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

import functools
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


def execute(spec: Spec, index: int, ray_node: str | None = None) -> Done:
    """Run task ``index`` (in a worker) and say where and how long: the host's name on
    every backend (``node``), Ray's node id besides on Ray (``ray_node``, two nodes can
    share a host)."""
    from onered.study.work import run_task

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        rows = run_task(spec, index)
    except StudyError:
        raise
    except Exception as exc:  # any failure of a task reaches the study as one named error
        raise StudyError(f"task {index} failed: {type(exc).__name__}: {exc}") from None
    where = {
        "node": platform.node(),
        "ray_node": ray_node,
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


#: Ray's settings of token authentication (environment variables, read by every Ray
#: process): https://docs.ray.io/en/latest/ray-security/token-auth.html
AUTH_MODE, AUTH_TOKEN, AUTH_TOKEN_PATH = "RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"
#: How often Ray runs a task again when its worker or node died (a node lost, a process
#: killed): the task is a pure function of (spec, index), so a rerun gives the same rows.
#: An exception raised by the task itself (a bug) is never retried.
RAY_RETRIES = 3


@functools.cache
def _local_token() -> str:
    """The local Ray's token: made up once per process, handed to its Ray by the
    environment, never written to disk (so ``~/.ray`` is neither read nor written)."""
    import secrets

    return secrets.token_hex(32)


class _Environ:
    """Environment variables set for a while, then put back as they were."""

    def __init__(self) -> None:
        self._saved: dict[str, str | None] = {}

    def set(self, name: str, value: str) -> None:
        self._saved.setdefault(name, os.environ.get(name))
        os.environ[name] = value

    def restore(self) -> None:
        for name, value in self._saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if self._saved:
            _reload_auth()
        self._saved = {}


def _reload_auth() -> None:
    """Make this process's Ray read the authentication settings again (it caches them)."""
    try:
        raylet = _raylet()
        raylet.Config.initialize("")
        raylet.AuthenticationTokenLoader.instance().reset_cache()
    except (ImportError, AttributeError):  # a Ray without token authentication
        pass


def _raylet() -> Any:
    """Ray's compiled core (``ray._raylet``, typed loosely: its stubs are partial)."""
    import importlib

    return importlib.import_module("ray._raylet")


def _token_source() -> str | None:
    """Where Ray will take this machine's token from, as Ray looks (``RAY_AUTH_TOKEN``,
    then the file ``RAY_AUTH_TOKEN_PATH``, then ``~/.ray/auth_token``), or None. A
    ``RAY_AUTH_TOKEN_PATH`` that cannot be read is refused here (Ray would abort)."""
    from pathlib import Path

    if os.environ.get(AUTH_TOKEN, "").strip():
        return AUTH_TOKEN
    named = os.environ.get(AUTH_TOKEN_PATH)
    if named:
        try:
            text = Path(named).read_text(encoding="utf-8")
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise StudyError(
                f"--address: {AUTH_TOKEN_PATH}={named} cannot be read ({reason}); point it at "
                "a file holding the cluster's token, or unset it"
            ) from None
        if not text.strip():
            raise StudyError(f"--address: {AUTH_TOKEN_PATH}={named} is empty")
        return f"{AUTH_TOKEN_PATH}={named}"
    default = Path.home() / ".ray" / "auth_token"
    try:
        return str(default) if default.read_text(encoding="utf-8").strip() else None
    except OSError:
        return None


def _split(address: str) -> tuple[str, int] | None:
    """``host:port`` as a pair, None for Ray's other forms (``ray://...``, ``auto``)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "/" in host:
        return None
    return host, int(port)


#: The start of an HTTP/2 connection (RFC 9113, 3.4): the preface and an empty SETTINGS
#: frame. Ray's head (its GCS) speaks gRPC over HTTP/2 and answers with a SETTINGS frame.
_HTTP2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _probe(address: str, timeout: float = 10.0) -> None:
    """Refuse at once a ``host:port`` where nothing listens, or where what listens does not
    speak gRPC as a Ray head does (a web server, the dashboard's port): Ray itself would
    retry for minutes. Other forms (``ray://...``, ``auto``) go to Ray as they are."""
    import socket

    where = _split(address)
    if where is None:
        return
    try:
        conn = socket.create_connection(where, timeout=timeout)
    except OSError as exc:
        raise StudyError(
            f"--address: no Ray cluster answers at {address} ({exc.strerror or exc}); start one "
            f"with 'ray start --head --port {where[1]}' or give the head's address"
        ) from None
    answer = b""
    with conn:
        try:
            conn.sendall(_HTTP2_HELLO)
            while len(answer) < 9:
                chunk = conn.recv(9 - len(answer))
                if not chunk:
                    break
                answer += chunk
        except OSError:  # closed or silent: not a Ray head either
            pass
    if len(answer) < 9 or answer[3] != 4:
        raise StudyError(
            f"--address: what answers at {address} is not a Ray head (it does not speak gRPC); "
            "give the port of 'ray start --head --port P' (6379 by default), not the "
            "dashboard's (8265)"
        )


class _QuietStderr:
    """File descriptor 2 sent to /dev/null for a while: Ray's C++ core logs each refused
    connection there, before the study's own message says what went wrong."""

    def __enter__(self) -> None:
        self._saved: int | None = None
        try:
            sys.stderr.flush()
            self._saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except (OSError, ValueError):
            self._restore()

    def __exit__(self, *exc: object) -> None:
        self._restore()

    def _restore(self) -> None:
        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)
            self._saved = None


def _join_auth(address: str, env: _Environ) -> None:
    """Settle token authentication for joining the cluster at ``address`` and check it
    with one request, naming what is wrong (Ray would retry for 20 s and say only that
    it failed to connect).

    ``RAY_AUTH_MODE`` set is kept. Unset, token authentication is used when this machine
    has a token (as ``ray start --head`` decides; a cluster without authentication
    accepts such a client too), so a study on the head's machine joins a head started
    with ``ray start --head`` whatever ``~/.ray`` holds."""
    mode = os.environ.get(AUTH_MODE, "").strip().lower() or None
    source = _token_source()
    if mode is None and source is not None:
        env.set(AUTH_MODE, "token")
        mode = "token"
    _reload_auth()
    if _split(address) is None:
        return
    try:
        gcs_client = _raylet().GcsClient
        from ray.exceptions import AuthenticationError
    except (ImportError, AttributeError):
        return
    fix = (
        f"copy the head's token (print it on the head with 'ray get-auth-token') into "
        f"~/.ray/auth_token here or into {AUTH_TOKEN}"
    )
    try:
        with _QuietStderr():
            gcs_client(address=address)
    except AuthenticationError:
        if mode != "token" and source is not None:  # RAY_AUTH_MODE=disabled, a token here
            raise StudyError(
                f"--address: the cluster at {address} asks for a token (Ray's token "
                f"authentication) and {AUTH_MODE}={mode} here; set {AUTH_MODE}=token"
            ) from None
        if source is None:
            raise StudyError(
                f"--address: the cluster at {address} asks for a token (Ray's token "
                f"authentication) and this machine has none; {fix}"
            ) from None
        raise StudyError(
            f"--address: the cluster at {address} refuses this machine's token (from "
            f"{source}): it is not the cluster's; {fix}"
        ) from None
    except Exception:  # anything else: ray.init meets it again and it is named there
        return


def _join_error(address: str, exc: BaseException) -> StudyError:
    """Ray's failure to join ``address`` as the study's error, the cause named."""
    chain: list[BaseException] = []
    seen: BaseException | None = exc
    while seen is not None and seen not in chain:
        chain.append(seen)
        seen = seen.__cause__ or seen.__context__
    text = "\n".join(str(e) for e in chain)
    if "Version mismatch" in text:
        import re

        found = re.findall(r"Ray: (\S+)\s+Python: (\S+)", text)
        if len(found) >= 2:
            (ray_there, py_there), (ray_here, py_here) = found[0], found[1]
            versions = (
                f"the cluster runs Ray {ray_there} on Python {py_there}, this machine Ray "
                f"{ray_here} on Python {py_here}"
            )
        else:
            versions = "the cluster's and this machine's versions differ"
        return StudyError(
            f"--address: cannot join the cluster at {address}: {versions}; install the same "
            "Ray and Python versions on every node and here"
        )
    if "InvalidAuthToken" in text or "Unauthenticated" in text:
        return StudyError(
            f"--address: the cluster at {address} refuses this machine's token (Ray's token "
            f"authentication); set {AUTH_MODE}=token and the head's token in "
            f"~/.ray/auth_token or {AUTH_TOKEN}"
        )
    return StudyError(f"--address: cannot join the cluster at {address}: {_first(exc)}")


def _first(exc: BaseException) -> str:
    """An error's first line (Ray's messages go on with tracebacks and advice)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _ray_execute(spec: Spec, index: int) -> Done:
    import ray

    return execute(spec, index, ray.get_runtime_context().get_node_id())


class RayBackend:
    """Ray tasks: on a cluster at ``address``, or on a local Ray started for the study
    (``jobs`` CPUs) and shut down after it.

    The local Ray uses token authentication with a token of its own, made up for this
    process and passed by the environment: it never reads nor writes ``~/.ray`` (Ray 2.59
    and later would write ``~/.ray/auth_token``, which then turns token authentication on
    for every later ``ray start --head`` on the machine). Tasks are retried when their
    worker or node dies (:data:`RAY_RETRIES`), never when they raise."""

    def __init__(self, jobs: int | None, address: str | None) -> None:
        try:
            import ray
        except ImportError:
            raise StudyError(
                "--backend ray: Ray is not installed; install the extra: pip install 'onered[ray]'"
            ) from None
        self._ray = ray
        self._started = False
        self._env = _Environ()
        self._pending: dict[Any, int] = {}
        if not ray.is_initialized():
            try:
                self._init(jobs, address)
            except BaseException:
                self._env.restore()
                raise
            self._started = True
        resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self.workers = max(1, int(resources.get("CPU", 1)))

    def _init(self, jobs: int | None, address: str | None) -> None:
        ray = self._ray
        if address:
            _probe(address)
            _join_auth(address, self._env)
            try:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            except Exception as exc:  # Ray's errors of every kind: named, no traceback
                raise _join_error(address, exc) from None
            return
        self._env.set(AUTH_MODE, "token")
        self._env.set(AUTH_TOKEN, _local_token())
        _reload_auth()
        try:
            ray.init(
                address="local",  # a new Ray of its own, never a cluster found here
                num_cpus=jobs,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
        except Exception as exc:
            raise StudyError(f"--backend ray: cannot start a local Ray: {_first(exc)}") from None

    def start(self, tasks: int) -> None:
        """Nothing to do: Ray's workers are started by Ray."""

    def run(self, spec: Spec, indices: Sequence[int]) -> Iterator[Done]:
        ray = self._ray
        remote = ray.remote(num_cpus=1, max_retries=RAY_RETRIES, retry_exceptions=False)(
            _ray_execute
        )
        spec_ref = ray.put(spec)
        queue = list(indices)
        window = 2 * self.workers  # tasks in flight: every CPU busy, memory bounded
        try:
            while queue or self._pending:
                while queue and len(self._pending) < window:
                    index = queue.pop(0)
                    self._pending[remote.remote(spec_ref, index)] = index
                ready, _ = ray.wait(list(self._pending), num_returns=1)
                for ref in ready:
                    yield self._result(ref, self._pending.pop(ref))
        finally:
            self.stop()

    def _result(self, ref: Any, index: int) -> Done:
        """A finished task's result; its failure as the study's error."""
        from ray.exceptions import RayError, RayTaskError

        try:
            done: Done = self._ray.get(ref)
        except RayTaskError as exc:  # the task raised: a bug, never retried
            cause = getattr(exc, "cause", None)
            if isinstance(cause, StudyError):
                raise StudyError(str(cause)) from None
            what = f"{type(cause).__name__}: {cause}" if cause is not None else _first(exc)
            raise StudyError(f"task {index} failed: {what}") from None
        except RayError as exc:  # its worker or node died more often than retried
            raise StudyError(
                f"task {index} failed: {type(exc).__name__} ({RAY_RETRIES + 1} tries): "
                f"{_first(exc)}"
            ) from None
        return done

    def stop(self) -> None:
        for ref in self._pending:
            self._ray.cancel(ref, force=True)
        self._pending = {}

    def close(self) -> None:
        """Shut down the local Ray this backend started (a cluster is left running) and
        put the environment back as it was."""
        self.stop()
        if self._started:
            self._ray.shutdown()
            self._started = False
        self._env.restore()
