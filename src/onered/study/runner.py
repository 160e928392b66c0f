"""Running a study: the tasks not yet in its folder, on a backend, with a progress bar;
then the tables, the summary and the report.

Ctrl+C (``KeyboardInterrupt``) stops the workers at once and raises
:class:`StudyInterruptedError` naming what was kept; running the same study again resumes it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from onered.study.spec import Spec, StudyError
from onered.study.store import TABLES, Folder

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

    from onered.study.backends import Backend


class StudyInterruptedError(StudyError):
    """The study was stopped (Ctrl+C) with ``done`` of ``total`` tasks kept."""

    default_code = "study_interrupted"

    def __init__(self, folder: Path, done: int, total: int) -> None:
        self.folder, self.done, self.total = folder, done, total
        super().__init__(
            f"stopped: {done} of {total} tasks are done and kept in {folder}; "
            "run the same study again to resume it",
            params={"folder": str(folder), "done": done, "total": total},
        )


@dataclass(frozen=True)
class StudyResult:
    """A finished study: its spec, folder, tables (pandas data frames by name: ``games``
    and ``strokes``, or ``positions`` and ``shots``; ``tasks`` always), summary and report."""

    spec: Spec
    folder: Path
    tables: dict[str, pd.DataFrame]
    summary: dict[str, Any]
    report: Path | None

    def __getattr__(self, name: str) -> pd.DataFrame:
        tables = object.__getattribute__(self, "tables")
        if name in tables:
            return tables[name]
        raise AttributeError(f"study result has no table {name!r} (tables: {', '.join(tables)})")


def require(*, report: bool) -> None:
    """The ``study`` extra and pandas are installed (else a :class:`StudyError` naming
    what is missing)."""
    import importlib

    names = ("numpy", "pyarrow", "pandas", "tqdm", *(("matplotlib",) if report else ()))
    missing = []
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    if missing:
        raise StudyError(
            f"studies need the 'study' extra and pandas ({', '.join(missing)} missing): "
            "pip install 'onered[study]' pandas"
        )


def check_backend(backend: str, jobs: int | None, address: str | None) -> None:
    """The backend settings make sense (before anything is written)."""
    if jobs is not None and (isinstance(jobs, bool) or not 1 <= jobs <= 4096):
        raise StudyError(f"--jobs: expected a number of workers in [1, 4096], got {jobs!r}")
    if backend not in ("local", "ray"):
        raise StudyError(f"--backend: expected local or ray, got {backend!r}")
    if address and backend != "ray":
        raise StudyError("--address: only with --backend ray")


def make_backend(backend: str, jobs: int | None, address: str | None) -> Backend:
    """The backend named ``local`` or ``ray``."""
    import os

    check_backend(backend, jobs, address)
    if backend == "ray":
        from onered.study.backends import RayBackend

        return RayBackend(jobs, address)
    from onered.study.backends import LocalBackend

    return LocalBackend(jobs or os.cpu_count() or 1)


def run_study(
    spec: Spec,
    out: str | Path,
    *,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool | TextIO = False,
    report: bool = True,
) -> StudyResult:
    """Run ``spec`` into the folder ``out`` (resuming what is there, or extending the
    smaller study there: :class:`~onered.study.store.Folder`), holding the folder's lock
    (another run into it is refused at once), on ``backend``
    (``"local"``: ``jobs`` processes, default one per core; ``"ray"``: Ray at ``address``,
    or a local Ray); ``progress`` shows a bar on stderr (or on the given stream)."""
    check_backend(backend, jobs, address)
    require(report=report)
    spec.check()
    folder = Folder(Path(out), spec)
    folder.check()  # refused before the folder is made
    with folder.lock():  # one run at a time: another is refused at once
        folder.check()  # again: another run may have written the folder meanwhile
        total = spec.tasks
        done, held = folder.done(), folder.held()
        todo = [i for i in range(total) if i not in done]
        runner = make_backend(backend, jobs, address) if todo else None  # before writing
        try:
            folder.open()
            if runner is not None:
                runner.start(len(todo))
                _run_tasks(runner, spec, folder, todo, total, progress, held)
        finally:
            close = getattr(runner, "close", None)
            if close is not None:
                close()
        return finish(spec, folder, report=report)


def _run_tasks(
    runner: Backend,
    spec: Spec,
    folder: Folder,
    todo: list[int],
    total: int,
    progress: bool | TextIO,
    held: Mapping[int, int] | None = None,
) -> None:
    """Run ``todo`` and write each task's part as it comes. ``held``: the positions of a
    shots study that hold some of their samples (:meth:`Folder.held`): only the samples
    from the fewest any of them holds on are played (:class:`MoreSamples`), and joined to
    the part's (:func:`more_samples`)."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    from onered.study.work import more_samples

    first = min(((held or {}).get(i, 0) for i in todo), default=0)
    job = _more_samples(spec, first) if first else spec

    unit = {"games": "game", "sweep": "game", "shots": "position"}[spec.kind.value]
    stream: TextIO = sys.stderr if progress is True or progress is False else progress
    bar = tqdm(
        total=total,
        initial=total - len(todo),
        unit=unit,
        desc=f"study {spec.kind.value}",
        file=stream,
        disable=progress is False,
        dynamic_ncols=True,
    )
    done = total - len(todo)
    try:
        for index, rows, where in runner.run(job, todo):
            if first:  # joined to the samples the part holds; its times added up
                rows = more_samples(folder.rows_of(index), rows, first)
                before = folder.task_rows([index])[0]
                where = {
                    **where,
                    **{k: round(before[k] + where[k], 6) for k in _TIMES if k in before},
                }
            folder.write_part(index, rows, where)
            done += 1
            bar.update(1)
    except KeyboardInterrupt:
        runner.stop()
        bar.close()
        raise StudyInterruptedError(folder.path, done, total) from None
    except Exception as exc:  # a failed task (Ray wraps it in its own error type)
        runner.stop()
        bar.close()
        cause = exc if isinstance(exc, StudyError) else f"{type(exc).__name__}: {exc}"
        raise StudyError(
            f"{cause}; {done} of {total} tasks are done and kept in {folder.path}"
        ) from None
    finally:
        bar.close()


#: The times of a task (``task.json``): a part topped up with more samples adds them up.
_TIMES = ("seconds", "cpu_seconds")


def _more_samples(spec: Spec, first: int) -> Spec:
    """``spec`` (a shots study) playing each position's samples from ``first`` on."""
    from onered.study.work import MoreSamples

    values = {f.name: getattr(spec, f.name) for f in fields(spec)}
    return MoreSamples(**values, first=first)


def finish(spec: Spec, folder: Folder, *, report: bool = True) -> StudyResult:
    """Tables, summary and report of a study whose tasks are all done."""
    from onered.study.summary import summarise

    arrow = folder.write_tables()
    tables = {name: t.to_pandas() for name, t in arrow.items()}
    summary = summarise(spec, tables)
    (folder.path / "summary.json").write_text(
        json.dumps(summary, indent=2, allow_nan=False) + "\n", encoding="utf-8"
    )
    page = None
    if report:
        from onered.study.report import write_report

        page = write_report(spec, tables, summary, folder.path / "report")
    return StudyResult(spec=spec, folder=folder.path, tables=tables, summary=summary, report=page)


def load(out: str | Path) -> StudyResult:
    """A finished study read back from its folder (tables and summary, no new report)."""
    import pandas as pd

    from onered.study.spec import spec_from_json

    path = Path(out)
    try:
        spec = spec_from_json(json.loads((path / "spec.json").read_text(encoding="utf-8")))
        tables = {
            name: pd.read_parquet(path / f"{name}.parquet")
            for name in (*TABLES[spec.kind.value], "tasks")
        }
        summary = json.loads((path / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise StudyError(f"{path}: not a finished study ({exc})") from None
    if len(tables["tasks"]) != spec.tasks:  # tables of a smaller study, being extended
        raise StudyError(
            f"{path}: not a finished study (its tables hold {len(tables['tasks'])} of its "
            f"{spec.tasks} tasks); run it again to finish it"
        )
    page = path / "report" / "index.html"
    return StudyResult(
        spec=spec,
        folder=path,
        tables=tables,
        summary=summary,
        report=page if page.exists() else None,
    )
