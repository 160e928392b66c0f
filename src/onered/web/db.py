"""The web layer's database: one embedded SQLite file by default, or a PostgreSQL server.

Every table the web layer keeps (games, matches, seats, accounts, the player register,
tournaments, ratings) is made and changed by the versioned migrations of
``onered/web/migrations/`` (``NNNN_name.sql``, applied in order, each once, recorded in
``schema_migrations``): one schema, run on both databases. The migrations are written in
the SQL both understand, with SQLite's words for types; :func:`ddl` turns those into
PostgreSQL's (``INTEGER`` → ``BIGINT``, ``REAL`` → ``DOUBLE PRECISION``, ``BLOB`` →
``BYTEA``, ``INTEGER PRIMARY KEY AUTOINCREMENT`` → an identity column, ``WITHOUT ROWID``
dropped).

Queries are written once, with ``?`` for parameters (:meth:`Conn.execute` turns them into
psycopg's ``%s`` on PostgreSQL, a literal ``%`` doubled); rows are read by index or by
column name on both. PostgreSQL's connections are pooled (``psycopg_pool``); SQLite's is one
connection per process, used by one thread at a time (below); each in autocommit:
:meth:`Database.read` sees what is committed,
:meth:`Database.write` is one transaction (SQLite's ``BEGIN IMMEDIATE``, one writer at a
time; on PostgreSQL writers of different rows run at once, so a read-then-write that must
not interleave with another process's takes its rows ``FOR UPDATE``, or makes its
``UPDATE`` conditional on what it read, as the store's revision check does). Errors of the
database are :class:`DatabaseError` naming the database (never its password);
:class:`ConstraintError` for a broken unique, foreign-key or check constraint.
"""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from onered.errors import OneredError

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import ConnectionPool

#: File name of the SQLite database inside a data folder.
SQLITE_FILE = "onered.sqlite3"
#: The migrations' package (its ``NNNN_name.sql`` files).
MIGRATIONS_PACKAGE = "onered.web.migrations"
_MIGRATION_FILE = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
#: The advisory lock several PostgreSQL clients starting at once migrate under (one does).
MIGRATION_LOCK = 0x0E5ED_0001
#: SQLite's ``user_version`` of the data folders made before the migrations (0..3: the
#: store's own numbering); such a folder is taken into the migrations' record as it is.
LEGACY_VERSIONS = (0, 1, 2, 3)
#: Connections a PostgreSQL :class:`Database` keeps at most (its pool).
POOL_SIZE = 12


class Dialect(Enum):
    """Which database a :class:`Database` is."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class DatabaseError(OneredError, RuntimeError):
    """The database cannot be opened, is not onered's, a migration failed, or a statement
    failed (the message names the database, never its password)."""

    default_code = "store"

    @property
    def sqlstate(self) -> str | None:
        """PostgreSQL's code of the statement's error (``None`` on SQLite, or none)."""
        code = getattr(self.__cause__, "sqlstate", None)
        return code if isinstance(code, str) else None

    @property
    def contended(self) -> bool:
        """The statement lost a race with another transaction (PostgreSQL's deadlock or
        serialization failure): the same work tried again may pass."""
        return self.sqlstate in ("40P01", "40001")


class ConstraintError(DatabaseError):
    """A statement broke a unique, foreign-key or check constraint (both databases)."""

    default_code = "constraint"


class Cursor(Protocol):
    """What :meth:`Conn.execute` returns (a DB-API cursor: also iterable over its rows)."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...

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


def latest_version() -> int:
    """The schema version this onered's migrations reach."""
    return max((m.version for m in migrations()), default=0)


_PG_TYPES = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY\s+AUTOINCREMENT\b", re.IGNORECASE),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
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


_LITERAL_OR_MARK = re.compile(r"'(?:[^']|'')*'|\?|%")


@lru_cache(maxsize=512)
def pg_sql(sql: str) -> str:
    """``sql`` with ``?`` parameters in psycopg's words: ``%s`` (a ``?`` inside a quoted
    literal is left alone) and every ``%`` doubled."""

    def one(m: re.Match[str]) -> str:
        text = m.group(0)
        if text == "?":
            return "%s"
        return text.replace("%", "%%")

    return _LITERAL_OR_MARK.sub(one, sql)


def hide_password(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "the database"
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ""
    return urlunsplit(parts._replace(netloc=user + host))


def _casefold(text: object) -> str | None:
    return text.casefold() if isinstance(text, str) else None


class _SqliteConn:
    """A :class:`Conn` over :mod:`sqlite3` (whose own ``?`` and ``Row`` are the ones wanted)."""

    dialect = Dialect.SQLITE

    def __init__(self, conn: sqlite3.Connection, name: str) -> None:
        self.raw = conn
        self._name = name

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        try:
            return self.raw.execute(sql, tuple(params))
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(f"{self._name}: {exc}") from exc
        except sqlite3.Error as exc:
            raise DatabaseError(f"{self._name}: {exc}") from exc

    def executemany(self, sql: str, params: Sequence[Sequence[object]]) -> Cursor:
        try:
            return self.raw.executemany(sql, [tuple(p) for p in params])
        except sqlite3.IntegrityError as exc:
            raise ConstraintError(f"{self._name}: {exc}") from exc
        except sqlite3.Error as exc:
            raise DatabaseError(f"{self._name}: {exc}") from exc


class Row(Sequence[Any]):
    """A PostgreSQL row read by index or by column name (as :class:`sqlite3.Row`)."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: Sequence[Any]) -> None:
        self._names = names
        self._values = tuple(values)

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def __len__(self) -> int:
        return len(self._values)

    def keys(self) -> list[str]:
        return list(self._names)

    def __repr__(self) -> str:
        return f"Row({dict(zip(self._names, self._values, strict=True))!r})"


def _row_factory(cursor: Any) -> Any:
    """psycopg's row factory making :class:`Row` (the names read once per result)."""
    description = cursor.description or ()
    names = {d.name: k for k, d in enumerate(description)}

    def make(values: Sequence[Any]) -> Row:
        return Row(names, values)

    return make


class _PgConn:
    """A :class:`Conn` over a psycopg connection (autocommit: transactions are explicit)."""

    dialect = Dialect.POSTGRESQL

    def __init__(self, conn: psycopg.Connection[Any], name: str) -> None:
        self.raw = conn
        self._name = name

    def execute(self, sql: str, params: Sequence[object] = ()) -> Cursor:
        import psycopg

        try:
            return self.raw.execute(pg_sql(sql), tuple(params))
        except psycopg.errors.IntegrityError as exc:
            raise ConstraintError(f"{self._name}: {exc}") from exc
        except psycopg.Error as exc:
            raise DatabaseError(f"{self._name}: {exc}") from exc

    def executemany(self, sql: str, params: Sequence[Sequence[object]]) -> Cursor:
        import psycopg

        cursor = self.raw.cursor()
        try:
            cursor.executemany(pg_sql(sql), [tuple(p) for p in params])
        except psycopg.errors.IntegrityError as exc:
            raise ConstraintError(f"{self._name}: {exc}") from exc
        except psycopg.Error as exc:
            raise DatabaseError(f"{self._name}: {exc}") from exc
        return cursor


class Database:
    """One database: ``sqlite:///path/to/file`` (or a plain path to the file), or
    ``postgresql://user:password@host:port/name``. Pooled connections are lent with
    :meth:`read`, :meth:`write` and :meth:`snapshot`; :meth:`migrate` brings the schema up
    to date. Thread-safe; several processes may use one database at once."""

    def __init__(self, url: str | Path, *, pool_size: int = POOL_SIZE) -> None:
        text = str(url)
        self.url = text
        #: The URL as messages show it (no password).
        self.name = hide_password(text)
        #: SQLite: the process's one connection, and who uses it now. One connection, not a
        #: pool: SQLite keeps a page cache per connection and empties it whenever another
        #: connection has written, so with a pool every read after a stroke read its pages
        #: again (50 markers: 1.46 ms of the server's CPU a stroke against 1.18 ms with one
        #: connection, the store's way before the databases). Reentrant: a thread may open
        #: a block inside another (the same connection; on SQLite only, a read inside a
        #: write sees the write).
        self._shared_lock = threading.RLock()
        self._shared: sqlite3.Connection | None = None
        self._pool: ConnectionPool[Any] | None = None
        self._closed = False
        self.path: Path | None = None
        if text.startswith(("postgresql://", "postgres://")):
            self.dialect = Dialect.POSTGRESQL
            self._pool = self._open_pool(text, pool_size)
        else:
            self.dialect = Dialect.SQLITE
            self.path = Path(text.removeprefix("sqlite://") if "://" in text else text)

    @classmethod
    def in_folder(cls, data_dir: Path | str) -> Database:
        """The embedded database of a data folder (made if missing)."""
        folder = Path(data_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise DatabaseError(f"data folder {folder}: cannot be made: {exc}") from exc
        return cls(folder / SQLITE_FILE)

    def __repr__(self) -> str:
        return f"Database({self.name!r})"

    # --- connections -------------------------------------------------------------------

    def _open_pool(self, url: str, size: int) -> ConnectionPool[Any]:
        """A pool of autocommit connections, after one connection of our own that says why
        the server cannot be reached (the pool's own error is only a timeout)."""
        import psycopg
        from psycopg_pool import ConnectionPool, PoolTimeout

        kwargs: dict[str, Any] = {"autocommit": True, "row_factory": _row_factory}
        try:
            with psycopg.connect(url, connect_timeout=10, **kwargs) as probe:
                probe.execute("SELECT 1")
        except psycopg.Error as exc:
            raise DatabaseError(f"{self.name}: cannot connect: {_no_secret(exc, url)}") from exc
        pool: ConnectionPool[Any] = ConnectionPool(
            url, kwargs=kwargs, min_size=1, max_size=max(1, size), open=False, timeout=30.0
        )
        try:
            pool.open(wait=True, timeout=30.0)
        except PoolTimeout as exc:
            pool.close()
            raise DatabaseError(f"{self.name}: cannot connect (timed out)") from exc
        return pool

    def _sqlite(self) -> sqlite3.Connection:
        """A new SQLite connection to the database's file."""
        try:
            conn = sqlite3.connect(
                str(self.path), isolation_level=None, check_same_thread=False, timeout=10.0
            )
        except sqlite3.Error as exc:
            raise DatabaseError(f"{self.path}: cannot open the database: {exc}") from exc
        conn.row_factory = sqlite3.Row
        # names are searched case-insensitively in any script (SQLite's lower() is ASCII only)
        conn.create_function("casefold", 1, _casefold, deterministic=True)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise DatabaseError(f"{self.path}: not a usable SQLite database: {exc}") from exc
        return conn

    @contextmanager
    def _connection(self) -> Iterator[Conn]:
        """A pooled connection in autocommit, given back when the block ends."""
        if self._pool is not None:
            import psycopg
            from psycopg_pool import PoolTimeout

            try:
                raw = self._pool.getconn()
            except (PoolTimeout, psycopg.Error) as exc:
                raise DatabaseError(f"{self.name}: no connection: {exc}") from exc
            try:
                yield _PgConn(raw, self.name)
            finally:  # the pool rolls back what is left open, drops a broken connection
                self._pool.putconn(raw)
            return
        with self._shared_lock:
            if self._closed:  # after close (a test reading what a closed app kept): its own
                own = self._sqlite()
                try:
                    yield _SqliteConn(own, str(self.path))
                finally:
                    own.close()
                return
            if self._shared is None:
                self._shared = self._sqlite()
            conn = self._shared
            outer = not conn.in_transaction  # a block of its own, not one inside a write
            try:
                yield _SqliteConn(conn, str(self.path))
            finally:
                if outer and conn.in_transaction:  # left open by an error: not kept open
                    conn.execute("ROLLBACK")

    @contextmanager
    def read(self) -> Iterator[Conn]:
        """A connection for reading (each statement sees what is committed)."""
        with self._connection() as conn:
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Conn]:
        """A connection whose statements all see the database as it was at the first one
        (a read-only transaction: SQLite's deferred ``BEGIN``, PostgreSQL's repeatable read)."""
        begin = (
            "BEGIN"
            if self.dialect is Dialect.SQLITE
            else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        )
        with self._connection() as conn:
            conn.execute(begin)
            try:
                yield conn
            finally:
                conn.execute("COMMIT")

    @contextmanager
    def write(self) -> Iterator[Conn]:
        """A connection in one transaction: committed when the block ends, rolled back on an
        exception. On SQLite writers wait for each other (``BEGIN IMMEDIATE``); on
        PostgreSQL they wait only for the rows they both lock or change."""
        begin = "BEGIN IMMEDIATE" if self.dialect is Dialect.SQLITE else "BEGIN"
        with self._connection() as conn:
            conn.execute(begin)
            try:
                yield conn
            except BaseException:
                with suppress(DatabaseError):  # the connection gone: so is its transaction
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # --- the schema ----------------------------------------------------------------------

    def migrate(self, upto: int | None = None) -> list[int]:
        """Apply the migrations not yet applied (up to version ``upto``, default all), in
        order, in one transaction (a failure leaves the schema as it was); on PostgreSQL
        under an advisory lock, so that clients starting at once migrate once. Returns the
        versions applied now. A database whose schema is newer than this onered's is
        refused; an SQLite data folder made before the migrations is taken in as it is."""
        steps = [s for s in migrations() if upto is None or s.version <= upto]
        applied: list[int] = []
        with self.write() as conn:
            if self.dialect is Dialect.POSTGRESQL:
                conn.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            fresh = not self._has_table(conn, "schema_migrations")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL NOT NULL)"
                if self.dialect is Dialect.SQLITE
                else "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied DOUBLE PRECISION"
                " NOT NULL)"
            )
            if fresh and self.dialect is Dialect.SQLITE:
                self._adopt_legacy(conn)
            done = {
                int(r[0]) for r in conn.execute("SELECT version FROM schema_migrations").fetchall()
            }
            known = {s.version for s in migrations()}
            if done - known:
                raise DatabaseError(
                    f"{self.name}: schema version {max(done)} is newer than this onered's "
                    f"{max(known, default=0)} (made by a newer onered?)"
                )
            for step in steps:
                if step.version in done:
                    continue
                try:
                    for statement in statements(ddl(step.sql, self.dialect)):
                        conn.execute(statement)
                except DatabaseError as exc:
                    raise DatabaseError(
                        f"{self.name}: migration {step.version:04d}_{step.name} failed: "
                        f"{exc.__cause__ or exc}"
                    ) from exc
                conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)",
                    (step.version, step.name, time.time()),
                )
                applied.append(step.version)
        return applied

    def version(self) -> int:
        """The newest migration applied (0: none, or not onered's database)."""
        with self.read() as conn:
            if not self._has_table(conn, "schema_migrations"):
                return 0
            found = conn.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        return 0 if found is None else int(found)

    def _has_table(self, conn: Conn, table: str) -> bool:
        if self.dialect is Dialect.SQLITE:
            sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
        else:
            sql = (
                "SELECT 1 FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_name = ?"
            )
        return conn.execute(sql, (table,)).fetchone() is not None

    def _adopt_legacy(self, conn: Conn) -> None:
        """An SQLite data folder made before the migrations (``PRAGMA user_version`` 0..3,
        tables made by ``CREATE ... IF NOT EXISTS``): brought to the shape of the first
        migrations, which then make only what it lacks (theirs are ``IF NOT EXISTS`` too).
        Version 3 added ``games.figures`` and ``game_players`` (filled from the summaries)."""
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version not in LEGACY_VERSIONS:
            raise DatabaseError(
                f"{self.path}: database schema version {version} is not one onered knows "
                "(made by another version of onered?)"
            )
        if not self._has_table(conn, "games"):
            return
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)").fetchall()}
        if "figures" in columns:
            return
        conn.execute("ALTER TABLE games ADD COLUMN figures TEXT")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS game_players (player TEXT NOT NULL, created REAL NOT"
            " NULL, game_id TEXT NOT NULL, PRIMARY KEY (player, created, game_id)) WITHOUT ROWID"
        )
        for k in (0, 1):
            conn.execute(
                "INSERT OR IGNORE INTO game_players (player, created, game_id) SELECT"
                f" casefold(json_extract(summary, '$.players[{k}]')), created, id FROM games"
                f" WHERE json_extract(summary, '$.players[{k}]') IS NOT NULL"
            )

    def tables(self) -> list[str]:
        """The tables of the database (but ``schema_migrations``), each after the tables its
        foreign keys name (the order to fill them in)."""
        with self.read() as conn:
            if self.dialect is Dialect.SQLITE:
                names = [
                    str(r[0])
                    for r in conn.execute(
                        "SELECT name FROM sqlite_master WHERE type = 'table'"
                        " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
                    ).fetchall()
                ]
                parents = {
                    n: {
                        str(r[2])
                        for r in conn.execute(f'PRAGMA foreign_key_list("{n}")').fetchall()
                    }
                    for n in names
                }
            else:
                names = [
                    str(r[0])
                    for r in conn.execute(
                        "SELECT table_name FROM information_schema.tables WHERE table_schema ="
                        " current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
                    ).fetchall()
                ]
                parents = {n: set() for n in names}
                for r in conn.execute(
                    "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text"
                    " FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace"
                    " WHERE c.contype = 'f' AND s.nspname = current_schema()"
                ).fetchall():
                    parents.setdefault(str(r[0]).strip('"'), set()).add(str(r[1]).strip('"'))
        ordered: list[str] = []
        placed: set[str] = set()

        def place(name: str, seen: frozenset[str]) -> None:
            if name in placed or name in seen:
                return
            for parent in sorted(parents.get(name, ())):
                if parent != name and parent in parents:
                    place(parent, seen | {name})
            placed.add(name)
            ordered.append(name)

        for name in names:
            place(name, frozenset())
        return [n for n in ordered if n != "schema_migrations"]

    def close(self) -> None:
        """Close the pooled connections (the database cannot be used afterwards)."""
        if self._pool is not None:
            self._pool.close()
        with self._shared_lock:
            self._closed = True
            if self._shared is not None:
                self._shared.close()
                self._shared = None


def _no_secret(exc: BaseException, url: str) -> str:
    """An exception's text without the password of ``url``."""
    text = str(exc)
    try:
        password = urlsplit(url).password
    except ValueError:
        password = None
    return text.replace(password, "***") if password else text
