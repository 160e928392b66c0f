"""The web layer's database: one embedded SQLite file by default, or a PostgreSQL server.

Every table the web layer keeps (games, matches, seats, accounts, the player register,
tournaments, ratings) is made and changed by the versioned migrations of
``onered/web/migrations/`` (``NNNN_name.sql``, applied in order, each once, recorded in
``schema_migrations``): one schema, run on both databases. The migrations are written in
the SQL both understand, with SQLite's words for types; :func:`ddl` turns those into
PostgreSQL's (``INTEGER`` → ``BIGINT``, ``REAL`` → ``DOUBLE PRECISION``, ``BLOB`` →
``BYTEA``, ``WITHOUT ROWID`` dropped).

Queries are written once, with ``?`` for parameters (:meth:`Conn.execute` turns them into
psycopg's ``%s`` on PostgreSQL); rows are read by index or by column name on both.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

from onered.errors import OneredError

#: File name of the SQLite database inside a data folder.
SQLITE_FILE = "onered.sqlite3"
#: The migrations' package (its ``NNNN_name.sql`` files).
MIGRATIONS_PACKAGE = "onered.web.migrations"
_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


class Dialect(Enum):
    """Which database a :class:`Database` is."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class DatabaseError(OneredError, RuntimeError):
    """The database cannot be opened, is not onered's, or a migration failed."""

    default_code = "store"


class Cursor(Protocol):
    """What :meth:`Conn.execute` returns (a DB-API cursor)."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Conn(Protocol):
    """A connection of either database: ``?`` parameters, rows by index or column name."""

    dialect: Dialect

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor: ...

    def executemany(self, sql: str, params: Sequence[Sequence[object]]) -> Cursor: ...


@dataclass(frozen=True)
class Migration:
    """One step of the schema: its ``version`` (the file's number), ``name`` and SQL."""

    version: int
    name: str
    sql: str


def migrations() -> tuple[Migration, ...]:
    """The schema's steps, in order (the files of :data:`MIGRATIONS_PACKAGE`)."""
    found: list[Migration] = []
    for entry in resources.files(MIGRATIONS_PACKAGE).iterdir():
        m = _MIGRATION_FILE.match(entry.name)
        if m:
            found.append(Migration(int(m.group(1)), m.group(2), entry.read_text("utf-8")))
    found.sort(key=lambda x: x.version)
    versions = [x.version for x in found]
    if len(set(versions)) != len(versions):
        raise DatabaseError(f"{MIGRATIONS_PACKAGE}: two migrations share a number: {versions}")
    return tuple(found)


_PG_TYPES = (
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b", re.IGNORECASE), "BYTEA"),
    (re.compile(r"\s*\bWITHOUT\s+ROWID\b", re.IGNORECASE), ""),
)


def ddl(sql: str, dialect: Dialect) -> str:
    """A migration's SQL (SQLite's words for types) in ``dialect``'s words."""
    if dialect is Dialect.SQLITE:
        return sql
    for pattern, word in _PG_TYPES:
        sql = pattern.sub(word, sql)
    return sql


def statements(sql: str) -> list[str]:
    """The statements of a migration, split at the semicolons that end a line."""
    return [s.strip() for s in re.split(r";\s*(?:\n|$)", sql) if s.strip()]


class _SqliteConn:
    """A :class:`Conn` over :mod:`sqlite3` (whose own ``?`` and ``Row`` are the ones wanted)."""

    dialect = Dialect.SQLITE

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.raw = conn

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        return self.raw.execute(sql, tuple(params))

    def executemany(self, sql: str, params: Sequence[Sequence[object]]) -> Cursor:
        return self.raw.executemany(sql, [tuple(p) for p in params])


class Database:
    """One database: ``sqlite:///path/to/file`` (or a plain path to the file), or
    ``postgresql://user@host:port/name``. Short connections of one's own are taken with
    :meth:`read` and :meth:`write`; :meth:`migrate` brings the schema up to date."""

    def __init__(self, url: str | Path) -> None:
        text = str(url)
        if text.startswith(("postgresql://", "postgres://")):
            raise DatabaseError(f"{text}: PostgreSQL is not supported by this build")
        path = text.removeprefix("sqlite://") if text.startswith("sqlite://") else text
        self.url = text
        self.dialect = Dialect.SQLITE
        self.path = Path(path)

    @classmethod
    def in_folder(cls, data_dir: Path | str) -> Database:
        """The embedded database of a data folder (made if missing)."""
        folder = Path(data_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"data folder {folder}: cannot be made: {exc}") from exc
        return cls(folder / SQLITE_FILE)

    def _open(self) -> sqlite3.Connection:
        try:
            conn = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        except sqlite3.Error as exc:
            raise DatabaseError(f"{self.path}: cannot open the database: {exc}") from exc
        conn.row_factory = sqlite3.Row
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise DatabaseError(f"{self.path}: not a usable SQLite database: {exc}") from exc
        return conn

    @contextmanager
    def read(self) -> Iterator[Conn]:
        """A connection for reading (each statement sees what is committed)."""
        conn = self._open()
        try:
            yield _SqliteConn(conn)
        finally:
            conn.close()

    @contextmanager
    def write(self) -> Iterator[Conn]:
        """A connection in one transaction: committed when the block ends, rolled back on an
        exception. Writers wait for each other (SQLite's ``BEGIN IMMEDIATE``)."""
        conn = self._open()
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield _SqliteConn(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
        finally:
            conn.close()

    def migrate(self) -> list[int]:
        """Apply the migrations not yet applied, in order, each in its own transaction.
        Returns the versions applied now. A database whose schema is newer than this
        onered's is refused."""
        steps = migrations()
        applied: list[int] = []
        with self.write() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL NOT NULL)"
            )
        with self.read() as conn:
            rows = conn.execute("SELECT version FROM schema_migrations").fetchall()
            done = {int(r[0]) for r in rows}
        known = {s.version for s in steps}
        if done - known:
            raise DatabaseError(
                f"{self.url}: schema version {max(done)} is newer than this onered's "
                f"{max(known, default=0)} (made by a newer onered?)"
            )
        for step in steps:
            if step.version in done:
                continue
            try:
                with self.write() as conn:
                    for statement in statements(ddl(step.sql, self.dialect)):
                        conn.execute(statement)
                    conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
                        (step.version, step.name, time.time()),
                    )
            except (sqlite3.Error, OSError) as exc:
                raise DatabaseError(
                    f"{self.url}: migration {step.version:04d}_{step.name} failed: {exc}"
                ) from exc
            applied.append(step.version)
        return applied

    def close(self) -> None:
        """Release what the database holds (nothing for SQLite's short connections)."""
