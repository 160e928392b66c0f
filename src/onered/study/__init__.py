"""Studies: many games, shots or parameter values simulated on every core or on Ray.

``onered study games|shots|sweep`` on the command line; in a notebook::

    from onered.study import run_games
    result = run_games(p1="ai:pro", p2="ai:amateur", games=50, out="my-study")
    result.games      # one row per game (pandas)
    result.strokes    # one row per stroke

Every task (a game, a position) is seeded from the study's seed and its index alone (a
sweep's game from its number within its value, the same at every value: common random
numbers), so the same seed gives the same rows whatever the backend and the number of
workers. Each game's record is kept (``records/``), every stroke's position before and
after is in ``strokes``, and every table carries the spec and versions as metadata. Results
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


#: Keyword arguments of the ``run_*`` functions that say how to run, not what.
_RUN_OPTIONS = ("jobs", "backend", "address", "progress")


def _run(spec_type: Any, kind: str, out: str | Path | None, options: dict[str, Any]) -> StudyResult:
    run = {k: options.pop(k) for k in _RUN_OPTIONS if k in options}
    try:
        spec = spec_type(**options)
    except TypeError as exc:
        raise StudyError(f"{kind} study: {exc}") from None
    return run_study(spec, out if out is not None else Path("onered-study", kind), **run)


def run_games(*, out: str | Path | None = None, **options: Any) -> StudyResult:
    """A games study into ``out`` (default ``onered-study/games``): ``options`` are the
    fields of :class:`GamesSpec` and ``jobs``, ``backend``, ``address``, ``progress`` of
    :func:`run_study`. The result's ``.games`` and ``.strokes`` are data frames."""
    return _run(GamesSpec, "games", out, options)


def run_shots(*, out: str | Path | None = None, **options: Any) -> StudyResult:
    """A shots study (the fields of :class:`ShotsSpec`, and how to run, as
    :func:`run_games`); ``.positions`` and ``.shots``."""
    return _run(ShotsSpec, "shots", out, options)


def run_sweep(*, out: str | Path | None = None, **options: Any) -> StudyResult:
    """A sweep (the fields of :class:`SweepSpec`, and how to run, as :func:`run_games`);
    ``.games`` and ``.strokes`` with the value of each game."""
    return _run(SweepSpec, "sweep", out, options)
