"""A whole club in one file: every table of the web database (``onered.web.db``), written
and read back on SQLite or PostgreSQL alike.

The file is gzip-compressed JSON Lines: a header (the format, the schema version and the
migrations applied, each table's columns), then one line per row (``{"t": table, "r":
[values]}``; bytes as ``{"b64": ...}``), then an end line with each table's number of
rows, so that a file cut short is refused, not half restored. The rows are read in one
snapshot (a club serving meanwhile is backed up as it was at one instant).

A restore fills an empty database (no rows but those its migrations seed; told to, it
empties one first): it is brought to the
backup's schema version by the migrations, filled in one transaction (tables in the order
of their foreign keys; PostgreSQL's identity counters moved past the restored ids), then
migrated up to this onered's schema. A file of a newer schema than this onered's, or a
database whose schema is newer than the file's, is refused.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from onered.web.db import Conn, Database, DatabaseError, Dialect, latest_version

#: The format's name and version in a backup's header.
FORMAT = "onered-backup"
FORMAT_VERSION = 1
#: Rows inserted per statement batch on restore.
BATCH = 500


class BackupError(DatabaseError):
    """A backup cannot be written, or a file cannot be restored (names the file)."""

    default_code = "backup"


@dataclass(frozen=True)
class Summary:
    """What a backup or a restore moved: the schema version and each table's rows."""

    schema: int
    rows: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.rows.values())


def _encode(value: object) -> object:
    if isinstance(value, bytes | bytearray | memoryview):
        return {"b64": base64.b64encode(bytes(value)).decode("ascii")}
    return value


def _decode(value: object) -> object:
    if isinstance(value, dict):
        return base64.b64decode(str(value["b64"]))
    return value


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def backup(db: Database, out: Path) -> Summary:
    """Write every table of ``db`` to ``out`` (written beside it, then renamed into place:
    an interrupted backup never leaves a partial file under the name)."""
    tables = db.tables()
    rows: dict[str, int] = {}
    partial = out.with_name(out.name + ".partial")
    try:
        with db.snapshot() as conn, gzip.open(partial, "wt", encoding="utf-8") as f:
            schema = _applied(conn)
            columns = {t: _columns(conn, t) for t in tables}
            header = {
                "format": FORMAT,
                "version": FORMAT_VERSION,
                "schema": max(schema, default=0),
                "migrations": schema,
                "dialect": db.dialect.value,
                "made": time.time(),
                "tables": columns,
            }
            f.write(json.dumps(header, ensure_ascii=False) + "\n")
            for table in tables:
                n = 0
                names = ", ".join(_quote(c) for c in columns[table])
                cursor: Any = conn.execute(f"SELECT {names} FROM {_quote(table)}")
                for row in cursor:
                    line = {"t": table, "r": [_encode(v) for v in row]}
                    f.write(json.dumps(line, ensure_ascii=False) + "\n")
                    n += 1
                rows[table] = n
            f.write(json.dumps({"end": True, "rows": rows}) + "\n")
        os.replace(partial, out)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BackupError(f"{out}: cannot write the backup: {exc}") from exc
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Summary(max(schema, default=0), rows)


def _applied(conn: Conn) -> list[int]:
    return sorted(
        int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations").fetchall()
    )


def _columns(conn: Conn, table: str) -> list[str]:
    cursor: Any = conn.execute(f"SELECT * FROM {_quote(table)} WHERE 1 = 0")
    return [str(d[0]) for d in cursor.description]


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    """The JSON objects of a backup, one a line (an unreadable file: :class:`BackupError`)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for number, text in enumerate(f, 1):
                try:
                    item = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise BackupError(f"{path}: line {number} is not JSON: {exc}") from exc
                if not isinstance(item, dict):
                    raise BackupError(f"{path}: line {number} is not an object")
                yield item
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise BackupError(f"{path}: not a readable onered backup: {exc}") from exc


def _counts(db: Database, tables: list[str]) -> dict[str, int]:
    with db.read() as conn:
        return {
            t: int(conn.execute(f"SELECT COUNT(*) FROM {_quote(t)}").fetchone()[0]) for t in tables
        }


def _is_empty(db: Database, tables: list[str], schema: int) -> bool:
    """Whether ``db`` holds no rows but those its migrations made (a migration may seed a
    row: they are counted on a new database of the same schema)."""
    with tempfile.TemporaryDirectory(prefix="onered-restore-") as folder:
        fresh = Database(Path(folder) / "fresh.sqlite3")
        try:
            fresh.migrate(upto=schema)
            seeded = _counts(fresh, fresh.tables())
        finally:
            fresh.close()
    return all(n <= seeded.get(t, 0) for t, n in _counts(db, tables).items())


def restore(db: Database, source: Path, *, replace: bool = False) -> Summary:
    """Fill ``db`` with the backup ``source`` (see the module); ``replace``: a database
    that has rows is emptied first (else refused)."""
    items = _lines(source)
    header = next(items, None)
    if header is None or header.get("format") != FORMAT:
        raise BackupError(f"{source}: not an onered backup (no {FORMAT} header)")
    if header.get("version") != FORMAT_VERSION:
        raise BackupError(
            f"{source}: backup format {header.get('version')} is not {FORMAT_VERSION}"
            " (made by another version of onered?)"
        )
    schema = int(header["schema"])
    tables: dict[str, list[str]] = header["tables"]
    latest = latest_version()
    if schema > latest:
        raise BackupError(
            f"{source}: the backup's schema version {schema} is newer than this onered's "
            f"{latest}: restore it with a newer onered"
        )
    have = db.version()
    if have > schema:
        raise BackupError(
            f"{db.name}: the database's schema version {have} is newer than the backup's "
            f"{schema}: restore into an empty database (a new data folder or a new "
            "PostgreSQL database); onered brings it up to date afterwards"
        )
    db.migrate(upto=schema)
    order = db.tables()
    missing = sorted(set(tables) - set(order))
    if missing:
        raise BackupError(f"{source}: tables {missing} are not in the schema {schema}")
    if not replace and not _is_empty(db, order, schema):
        raise BackupError(
            f"{db.name}: the database is not empty: restore into an empty one, or"
            " replace what it holds (--replace)"
        )
    rows: dict[str, int] = {}
    ended: dict[str, Any] | None = None
    with db.write() as conn:
        for table in reversed(order):  # what a migration seeded comes from the file too
            conn.execute(f"DELETE FROM {_quote(table)}")
        pending: list[list[object]] = []
        current: str | None = None

        def flush() -> None:
            if current is not None and pending:
                names = tables[current]
                conn.executemany(
                    f"INSERT INTO {_quote(current)} ({', '.join(_quote(c) for c in names)})"
                    f" VALUES ({', '.join('?' * len(names))})",
                    pending,
                )
                pending.clear()

        for item in items:
            if item.get("end"):
                ended = item
                break
            table = str(item.get("t"))
            values = item.get("r")
            if table not in tables or not isinstance(values, list):
                raise BackupError(f"{source}: a row of an unknown table {table!r}")
            if len(values) != len(tables[table]):
                raise BackupError(f"{source}: a row of {table} has {len(values)} values")
            if table != current:
                flush()
                current = table
            pending.append([_decode(v) for v in values])
            rows[table] = rows.get(table, 0) + 1
            if len(pending) >= BATCH:
                flush()
        flush()
        if ended is None:
            raise BackupError(f"{source}: the file ends early (no end line): not restored")
        expected = {t: int(n) for t, n in ended.get("rows", {}).items() if int(n)}
        if expected != {t: n for t, n in rows.items() if n}:
            raise BackupError(f"{source}: rows read {rows} differ from the rows written {expected}")
        if db.dialect is Dialect.POSTGRESQL:
            _advance_identities(conn)
    db.migrate()
    return Summary(schema, {t: rows.get(t, 0) for t in tables})


def _advance_identities(conn: Conn) -> None:
    """PostgreSQL: each identity column's counter past the largest id restored."""
    found = conn.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    ).fetchall()
    for table, column in found:
        conn.execute(
            f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(MAX({_quote(column)}), 0)"
            f" + 1, false) FROM {_quote(table)}",
            (_quote(table), column),
        )


def open_target(data: Path | None, database: str | None) -> Database:
    """The database a command names: ``database`` (PostgreSQL), else the data folder's."""
    if database:
        return Database(database)
    return Database.in_folder(data if data is not None else Path("onered-data"))
