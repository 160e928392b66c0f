"""Studies: many games, shots or parameter values simulated on every core or on Ray.

``onered study games|shots|sweep`` on the command line; in a notebook::

    from onered.study import run_games
    result = run_games(p1="ai:pro", p2="ai:amateur", games=50, out="my-study")
    result.games      # one row per game (pandas)
    result.strokes    # one row per stroke

Every task (a game, a position) is seeded from the study's seed and its index alone, so the
same seed gives the same rows whatever the backend and the number of workers. Results
are written as they come to the study's folder, which a stopped study resumes from.
Needs the ``study`` extra (pyarrow, tqdm, matplotlib, pandas); Ray the ``ray`` extra.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from onered.study.runner import StudyInterruptedError, StudyResult, load, run_study
from onered.study.spec import (
    GamesSpec,
    ShotKind,
    ShotsSpec,
    StudyError,
    SweepSpec,
    Vary,
    task_seed,
)

__all__ = [
    "GamesSpec",
    "ShotKind",
    "ShotsSpec",
    "StudyError",
    "StudyInterruptedError",
    "StudyResult",
    "SweepSpec",
    "Vary",
    "load",
    "run_games",
    "run_shots",
    "run_study",
    "run_sweep",
    "task_seed",
]


def _run(spec: Any, out: str | Path | None, kind: str, options: dict[str, Any]) -> StudyResult:
    return run_study(spec, out if out is not None else Path("onered-study", kind), **options)


def run_games(
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    **settings: Any,
) -> StudyResult:
    """A games study (settings: the fields of :class:`GamesSpec`); ``.games``, ``.strokes``."""
    options = {"jobs": jobs, "backend": backend, "address": address, "progress": progress}
    return _run(GamesSpec(**settings), out, "games", options)


def run_shots(
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    **settings: Any,
) -> StudyResult:
    """A shots study (settings: the fields of :class:`ShotsSpec`); ``.positions``, ``.shots``."""
    options = {"jobs": jobs, "backend": backend, "address": address, "progress": progress}
    return _run(ShotsSpec(**settings), out, "shots", options)


def run_sweep(
    *,
    out: str | Path | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = False,
    **settings: Any,
) -> StudyResult:
    """A sweep (settings: the fields of :class:`SweepSpec`); ``.games``, ``.strokes``."""
    options = {"jobs": jobs, "backend": backend, "address": address, "progress": progress}
    return _run(SweepSpec(**settings), out, "sweep", options)
