"""A study's folder: its spec, one part per finished task, and the tables put together.

Layout of ``DIR``::

    spec.json            the study (kind, settings, seed) and the engine's fingerprint; a
                         resumed study must match it
    parts/000017/        task 17's rows: one Parquet file per table and task.json (where
                         and how long it ran); written to a temporary folder first and
                         renamed into place, so a part is either whole or absent; a
                         sweep's are parts/002-000017/ (value 2, game 17), names that
                         stay when the sweep is extended with more games
    games.parquet ...    every part's rows in task order (written when all tasks are done)
    tasks.parquet        per task: host, Ray node, process, seconds, CPU seconds (not results)
    records/000017.jsonl  games and sweeps: each game's record (``onered.game.record``),
                         a hard link to (or a copy of) its part's ``record.jsonl``
    summary.json, report/index.html and report/*.png|svg|pdf
    .lock                held by the run in progress (``onered.study.lock``)

Every table carries the study's spec and the versions that wrote it as Parquet schema
metadata under the key ``onered`` (:func:`metadata`).

A study killed at any moment leaves whole parts only; started again with the same spec it
runs the missing tasks and nothing else; asked for more (:data:`SIZE`) it runs the new
tasks, or a shots study's further samples, and keeps what it holds.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onered.study.lock import LOCK, folder_lock
from onered.study.spec import ShotsSpec, Spec, StudyError, SweepSpec, spec_from_json, to_json
from onered.study.work import RECORD

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    import pyarrow as pa  # type: ignore[import-untyped]

    from onered.study.work import Rows

PARTS = "parts"
SPEC = "spec.json"
#: The field that says how big a study is, by kind: asked for with a larger one, the study
#: in a folder is extended (the tasks it holds are kept, only the new ones run).
SIZE: dict[str, str] = {"games": "games", "sweep": "games", "shots": "samples"}
_TMP = ".tmp-"

#: Column types of every table (Arrow type names); a part's rows are written with these,
#: so an empty part and a full one have the same schema.
COLUMNS: dict[str, dict[str, str]] = {
    "games": {
        "task": "int64",
        "value_index": "int64",
        "value": "float64",  # "string" in a categorical sweep: value_type
        "game": "int64",
        "seed": "uint64",
        "p1": "string",
        "p2": "string",
        "first": "string",
        "winner": "string",
        "finished": "bool",
        "strokes": "int64",
        **{
            f"{c}_{p}": "int64"
            for p in ("p1", "p2")
            for c in ("score", "points", "visits", "high_break", "fouls")
        },
    },
    "strokes": {
        "task": "int64",
        "value_index": "int64",
        "value": "float64",  # "string" in a categorical sweep: value_type
        "game": "int64",
        "stroke": "int64",
        "striker": "string",
        "cue_ball": "string",
        "from_d": "bool",
        "option": "string",
        "points": "int64",
        "scored": "string",
        "foul": "string",
        "penalty": "int64",
        "break": "int64",
        "visit_end": "bool",
        "score_p1": "int64",
        "score_p2": "int64",
        "first_hit": "string",
        "cannon": "bool",
        "potted": "string",
        "crossed_baulk": "bool",
        "touching": "bool",
        "speed": "float64",
        "aim": "float64",
        "side": "float64",
        "height": "float64",
        "elevation": "float64",
        "intended": "string",
        "expected": "float64",
        "duration": "float64",
        "events": "int64",
        "position_before": "string",
        "position_after": "string",
        "placed_x": "float64",
        "placed_y": "float64",
        **{
            f"{ball}_{c}_{when}": "float64"
            for when in ("before", "after")
            for ball in ("white", "yellow", "red")
            for c in ("x", "y")
        },
        **{f"pocket_{ball}": "string" for ball in ("white", "yellow", "red")},
    },
    "positions": {
        "task": "int64",
        "ix": "int64",
        "iy": "int64",
        "x": "float64",
        "y": "float64",
        "position": "string",
        "white_x": "float64",
        "white_y": "float64",
        "red_x": "float64",
        "red_y": "float64",
        "feasible": "bool",
        "reason": "string",
        "aim": "float64",
        "samples": "int64",
        "p_success": "float64",
        "p_success_low": "float64",
        "p_success_high": "float64",
        "p_foul": "float64",
        "mean_points": "float64",
    },
    "shots": {
        "task": "int64",
        "ix": "int64",
        "iy": "int64",
        "x": "float64",
        "y": "float64",
        "sample": "int64",
        "outcome": "string",
        "success": "bool",
        "pocket": "string",
        "pocket_white": "string",
        "pocket_red": "string",
        "white_x_after": "float64",
        "white_y_after": "float64",
        "red_x_after": "float64",
        "red_y_after": "float64",
        "points": "int64",
        "scored": "string",
        "foul": "string",
        "speed": "float64",
        "aim": "float64",
        "side": "float64",
        "height": "float64",
    },
    "tasks": {
        "task": "int64",
        "node": "string",
        "ray_node": "string",
        "process": "int64",
        "seconds": "float64",
        "cpu_seconds": "float64",
    },
}
#: The tables of each kind of study (``tasks`` besides).
TABLES: dict[str, tuple[str, ...]] = {
    "games": ("games", "strokes"),
    "sweep": ("games", "strokes"),
    "shots": ("positions", "shots"),
}
_SWEEP_ONLY = ("value_index", "value")
#: A part's game record (games and sweeps), and the folder of every game's record.
RECORD_FILE = "record.jsonl"
RECORDS = "records"
#: The key of the tables' schema metadata (:func:`metadata`).
METADATA_KEY = b"onered"


def value_type(spec: Spec) -> str:
    """The Arrow type of a sweep's ``value`` column: ``float64`` for numbers, ``string``
    for a categorical sweep's names (``"han2005"``). One type for the whole study, so every
    part and the tables put together share one schema; ``value_index`` orders the values
    either way."""
    from onered.study.spec import SweepSpec

    return "string" if isinstance(spec, SweepSpec) and spec.categorical else "float64"


def columns(kind: str, table: str, value: str = "float64") -> dict[str, str]:
    """The columns of ``table`` in a study of ``kind`` (a sweep's value columns only there,
    its ``value`` of the Arrow type ``value``: :func:`value_type`)."""
    cols = COLUMNS[table]
    if kind == "sweep":
        return {k: value if k == "value" else v for k, v in cols.items()}
    return {k: v for k, v in cols.items() if k not in _SWEEP_ONLY}


def schema(kind: str, table: str, value: str = "float64") -> pa.Schema:
    import pyarrow as pa

    return pa.schema([(k, pa.type_for_alias(v)) for k, v in columns(kind, table, value).items()])


def to_arrow(kind: str, table: str, rows: list[dict[str, Any]], value: str = "float64") -> pa.Table:
    """``rows`` as an Arrow table of the table's schema (a sweep's ``value`` of the Arrow
    type ``value``)."""
    import pyarrow as pa

    return pa.Table.from_pylist(rows, schema=schema(kind, table, value))


class Folder:
    """A study's output folder (created on :meth:`open`)."""

    def __init__(self, path: Path, spec: Spec) -> None:
        self.path = path
        self.spec = spec
        self.kind = spec.kind.value
        self.value = value_type(spec)
        self.parts = path / PARTS
        #: A sweep's games per value (its parts are named by value and game), else 0.
        self.sweep_games = spec.games if isinstance(spec, SweepSpec) else 0
        #: The size of the study the folder holds when this one extends it (:meth:`check`).
        self.extends: int | None = None

    def _data(self) -> dict[str, Any]:
        return {**to_json(self.spec), "engine": engine()}

    def check(self) -> None:
        """The folder is absent, empty, or holds this very study, or this study smaller
        (:data:`SIZE`: a study asked for with more games, or more samples, extends the one
        there: :attr:`extends`); nothing is written."""
        data = self._data()
        spec_file = self.path / SPEC
        self.extends = None
        if self.path.exists() and not self.path.is_dir():
            raise StudyError(f"--out: {self.path} exists and is not a folder")
        if spec_file.exists():
            try:
                written = json.loads(spec_file.read_text(encoding="utf-8"))
                same = written == data and spec_from_json(written) == self.spec
            except (OSError, ValueError) as exc:
                raise StudyError(f"--out: {spec_file} cannot be read ({exc})") from None
            if not same:
                self._other_size(written, data)
        elif self.path.exists() and any(p.name != LOCK for p in self.path.iterdir()):
            raise StudyError(
                f"--out: {self.path} is not empty and holds no study (no {SPEC}); "
                "choose another folder"
            )

    def _other_size(self, written: dict[str, Any], data: dict[str, Any]) -> None:
        """The study there differs from this one: accept it when it is this study with a
        smaller size (:attr:`extends` set to it), refuse it otherwise, naming the
        differences."""
        keys = [*data, *(k for k in written if k not in data)]
        diff = [k for k in keys if written.get(k) != data.get(k)]
        size = SIZE[self.kind]
        old, new = written.get(size), data.get(size)
        if diff == [size] and isinstance(old, int) and isinstance(new, int):
            if new > old:
                self.extends = old
                return
            flag = f"--{size}"
            raise StudyError(
                f"{flag}: {self.path} holds this study with {old} {size}, more than the {new} "
                f"asked; ask for {old} (or more, to extend it), or choose another --out",
                params={"folder": str(self.path), "there": old, "here": new},
            )
        shown = ", ".join(f"{k}: {written.get(k)!r} there, {data.get(k)!r} here" for k in diff)
        raise StudyError(
            f"--out: {self.path} holds another study ({shown}); resume it with the same "
            f"settings, or choose another --out (or delete the folder)"
        )

    def lock(self) -> AbstractContextManager[None]:
        """The folder's lock (:func:`onered.study.lock.folder_lock`): one run at a time."""
        return folder_lock(self.path)

    def part(self, index: int) -> Path:
        """The folder of task ``index``'s part: ``parts/000017``; in a sweep
        ``parts/002-000017`` (value 2, game 17), a name that does not depend on the number
        of games, so a sweep extended with more games keeps its parts."""
        if self.sweep_games:
            value, game = divmod(index, self.sweep_games)
            return self.parts / f"{value:03d}-{game:06d}"
        return self.parts / f"{index:06d}"

    def _index(self, name: str) -> int | None:
        """The task a part's folder name stands for in this study (``None``: not one)."""
        if self.sweep_games:
            value, dash, game = name.partition("-")
            if not (dash and value.isdigit() and game.isdigit()):
                return None
            v, k = int(value), int(game)
            ok = v < self.spec.tasks // self.sweep_games and k < self.sweep_games
            return v * self.sweep_games + k if ok else None
        return int(name) if name.isdigit() else None

    def open(self) -> None:
        """Create the folder (after :meth:`check`) and write the spec; remove the temporary
        leftovers of a killed run."""
        self.check()
        try:
            self.parts.mkdir(parents=True, exist_ok=True)
            _write_atomic(self.path / SPEC, json.dumps(self._data(), indent=2) + "\n")
        except OSError as exc:
            raise StudyError(f"--out: cannot write {self.path}: {exc.strerror}") from None
        for leftover in self.parts.glob(_TMP + "*"):
            shutil.rmtree(leftover, ignore_errors=True)

    def done(self) -> set[int]:
        """The tasks whose parts are written (in a shots study, with this study's number
        of samples: a part of a smaller study it extends is not done: :meth:`held`)."""
        return {i for i, short in self._written().items() if short is None}

    def held(self) -> dict[int, int]:
        """A shots study's positions whose parts hold fewer samples than it asks (those of
        the smaller study it extends), with the samples they hold."""
        return {i: short for i, short in self._written().items() if short is not None}

    def _written(self) -> dict[int, int | None]:
        """Every written part's task, with the samples a short shots part holds (``None``
        for a whole part)."""
        out: dict[int, int | None] = {}
        if not self.parts.is_dir():
            return out
        for entry in self.parts.iterdir():
            index = self._index(entry.name)
            if index is not None and (entry / "task.json").exists():
                out[index] = self._short(entry)
        return out

    def _short(self, part: Path) -> int | None:
        """The samples a shots part holds when they are fewer than the study's (``None``:
        a whole part, or an infeasible position, which has none at any size)."""
        if not isinstance(self.spec, ShotsSpec):
            return None
        import pyarrow.parquet as pq  # type: ignore[import-untyped]

        rows = pq.read_table(part / "positions.parquet", columns=["feasible", "samples"])
        held = [r["samples"] for r in rows.to_pylist() if r["feasible"]]
        short = [n for n in held if n < self.spec.samples]
        return min(short) if short else None

    def rows_of(self, index: int) -> Rows:
        """Task ``index``'s rows as its part holds them (by table)."""
        import pyarrow.parquet as pq

        part = self.part(index)
        return {t: pq.read_table(part / f"{t}.parquet").to_pylist() for t in TABLES[self.kind]}

    def write_part(self, index: int, rows: Rows, task: Mapping[str, Any]) -> None:
        """Task ``index``'s rows, whole or not at all (a folder renamed into place)."""
        import pyarrow.parquet as pq

        final = self.part(index)
        tmp = self.parts / f"{_TMP}{final.name}-{os.getpid()}"
        if tmp.exists():
            shutil.rmtree(tmp)
        tmp.mkdir()
        for table in TABLES[self.kind]:
            pq.write_table(
                to_arrow(self.kind, table, rows.get(table, []), self.value),
                tmp / f"{table}.parquet",
            )
        lines = rows.get(RECORD)
        if lines:  # the game's record, in the part like its rows
            text = "".join(row["line"] + "\n" for row in lines)
            (tmp / RECORD_FILE).write_text(text, encoding="utf-8")
        (tmp / "task.json").write_text(json.dumps(dict(task)) + "\n", encoding="utf-8")
        if final.exists():  # a part of the smaller study this one extends: replaced
            old = self.parts / f"{_TMP}old-{final.name}-{os.getpid()}"
            os.replace(final, old)
            os.replace(tmp, final)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.replace(tmp, final)

    def read_parts(self, table: str, indices: Iterable[int]) -> pa.Table:
        """``table``'s rows of the tasks ``indices``, in that order."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        pieces = [self._task(pq.read_table(self.part(i) / f"{table}.parquet"), i) for i in indices]
        if not pieces:
            return schema(self.kind, table, self.value).empty_table()
        return pa.concat_tables(pieces)

    def _task(self, table: pa.Table, index: int) -> pa.Table:
        """A part's rows with ``task`` set to ``index``: a sweep's part keeps the number it
        was run under, which changes when the sweep is extended (value-major order)."""
        import pyarrow as pa

        if not self.sweep_games or "task" not in table.column_names:
            return table
        column = pa.array([index] * table.num_rows, pa.int64())
        return table.set_column(table.column_names.index("task"), "task", column)

    def task_rows(self, indices: Iterable[int]) -> list[dict[str, Any]]:
        rows = []
        for i in indices:
            data = json.loads((self.part(i) / "task.json").read_text(encoding="utf-8"))
            rows.append({"task": i, **data})
        return rows

    def write_tables(self) -> dict[str, pa.Table]:
        """Put every part together in task order: ``<table>.parquet`` and ``tasks.parquet``."""
        import pyarrow.parquet as pq

        indices = range(self.spec.tasks)
        tables = {t: self.read_parts(t, indices) for t in TABLES[self.kind]}
        tables["tasks"] = to_arrow(self.kind, "tasks", self.task_rows(indices))
        meta = {METADATA_KEY: json.dumps(metadata(self.spec), sort_keys=True).encode()}
        for name, table in tables.items():
            tables[name] = table = table.replace_schema_metadata(meta)
            tmp = self.path / f"{_TMP}{name}.parquet"
            pq.write_table(table, tmp)
            os.replace(tmp, self.path / f"{name}.parquet")
        self.write_records(indices)
        return tables

    def write_records(self, indices: Iterable[int]) -> None:
        """``records/<part>.jsonl``: every game's record, named as its part (a hard link to
        the part's file where the file system allows, else a copy), put in place whole."""
        found = [(self.part(i), self.part(i) / RECORD_FILE) for i in indices]
        found = [(part, file) for part, file in found if file.exists()]
        if not found:
            return
        tmp = self.path / f"{_TMP}{RECORDS}"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        for part, file in found:
            target = tmp / f"{part.name}.jsonl"
            try:
                os.link(file, target)
            except OSError:
                shutil.copyfile(file, target)
        final = self.path / RECORDS
        if final.exists():
            shutil.rmtree(final)
        os.replace(tmp, final)


def metadata(spec: Spec) -> dict[str, Any]:
    """What every table of a study says about itself (its schema metadata, key
    :data:`METADATA_KEY`, as JSON): the spec (:func:`~onered.study.spec.to_json`), the
    engine's fingerprint and the versions of onered, the physics engine, Python, pyarrow
    and numpy that wrote it — so a table copied out of its folder still says what it is."""
    import platform

    import numpy as np
    import pyarrow as pa

    from onered import __version__
    from onered.physics import ENGINE_VERSION

    return {
        "spec": to_json(spec),
        "engine": engine(),
        "versions": {
            "onered": __version__,
            "engine": ENGINE_VERSION,
            "python": platform.python_version(),
            "pyarrow": pa.__version__,
            "numpy": np.__version__,
        },
    }


def engine() -> str:
    """The physics engine's fingerprint on the default table (``onered.game.simulator``):
    parts written by another engine are not mixed with this one's."""
    from onered.game.simulator import fingerprint
    from onered.physics import Params, TableSpec

    return fingerprint(Params(), TableSpec())


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(_TMP + path.name)
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
