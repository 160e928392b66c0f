"""A bug planted in a study's workers where monkeypatching cannot reach (Ray's workers
are processes of their own): Ray's ``worker_process_setup_hook`` runs :func:`fail_task_2`
in each of them."""

from __future__ import annotations

import os
from typing import Any

#: The file where each run of the failing task leaves a line (how often it ran).
LOG = "ONERED_TEST_FAULT_LOG"


def fail_task_2() -> None:
    """Make task 2 raise ``ZeroDivisionError("boom")`` in this process."""
    import onered.study.work as work

    real = work.run_task

    def failing(spec: Any, index: int) -> Any:
        if index == 2:
            with open(os.environ[LOG], "a", encoding="utf-8") as log:
                log.write(f"{os.getpid()}\n")
            raise ZeroDivisionError("boom")
        return real(spec, index)

    work.run_task = failing
