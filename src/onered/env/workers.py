"""The vector form's tables shared out over worker processes, one share each.

Most of a table's step is Python (the referee, the reading of the stroke, the glue), which
one process runs on one core whatever the threads; a machine's other cores are used by
processes. Each worker holds a :class:`~onered.env.vector.SnookerOneRedVectorEnv` of a
contiguous share of the tables, seeded as those tables are in one process (table ``i`` gets
``seed + i``), so the results are the same table for table; the parent sends each share
its actions and joins the answers.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

#: What a step returns: observations, rewards, terminated, truncated, infos.
StepResult = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]


def _serve(conn: Connection, num_envs: int, settings: dict[str, Any]) -> None:
    """A worker: a vector form of ``num_envs`` tables, answering the parent's commands."""
    from onered.env.vector import SnookerOneRedVectorEnv

    env = SnookerOneRedVectorEnv(num_envs, **settings)
    while True:
        command, argument = conn.recv()
        try:
            if command == "reset":
                answer: object = env.reset(seed=argument)
            elif command == "step":
                answer = env.step(argument)
            elif command == "cpu":
                answer = time.process_time()
            else:
                env.close()
                conn.send(("ok", None))
                return
        except Exception as error:  # handed to the parent, which raises it
            conn.send(("error", error))
        else:
            conn.send(("ok", answer))


class Workers:
    """``num_envs`` tables over ``workers`` processes (contiguous shares, the first ones
    one table larger when they do not divide evenly)."""

    def __init__(self, num_envs: int, workers: int, settings: dict[str, Any]) -> None:
        base, extra = divmod(num_envs, workers)
        self.shares = [base + (1 if w < extra else 0) for w in range(workers)]
        context = multiprocessing.get_context("spawn")
        self._conns: list[Connection] = []
        self._processes = []
        for share in self.shares:
            parent, child = context.Pipe()
            process = context.Process(
                target=_serve, args=(child, share, settings), daemon=True, name="onered-env"
            )
            process.start()
            child.close()
            self._conns.append(parent)
            self._processes.append(process)

    def _ask(self, command: str, arguments: list[object]) -> list[Any]:
        for conn, argument in zip(self._conns, arguments, strict=True):
            conn.send((command, argument))
        answers = [conn.recv() for conn in self._conns]
        for status, answer in answers:
            if status == "error":
                raise answer
        return [answer for _, answer in answers]

    def reset(self, seeds: list[int | None]) -> tuple[np.ndarray, dict[str, Any]]:
        parts, start = [], 0
        for share in self.shares:
            parts.append(seeds[start : start + share])
            start += share
        answers = self._ask("reset", list(parts))
        return np.concatenate([obs for obs, _ in answers]), _join([i for _, i in answers])

    def step(self, actions: np.ndarray) -> StepResult:
        parts, start = [], 0
        for share in self.shares:
            parts.append(actions[start : start + share])
            start += share
        answers = self._ask("step", list(parts))
        obs, rewards, terminated, truncated = (
            np.concatenate([a[k] for a in answers]) for k in range(4)
        )
        return obs, rewards, terminated, truncated, _join([a[4] for a in answers])

    def cpu(self) -> float:
        """The CPU seconds the workers have used (for a benchmark's per-CPU-second rate)."""
        return float(sum(self._ask("cpu", [None] * len(self._conns))))

    def close(self) -> None:
        for conn in self._conns:
            try:
                conn.send(("close", None))
                conn.recv()
            except (OSError, EOFError):
                pass
            conn.close()
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
        self._conns, self._processes = [], []


def _join(infos: list[dict[str, Any]]) -> dict[str, Any]:
    return {key: np.concatenate([info[key] for info in infos]) for key in infos[0]}
