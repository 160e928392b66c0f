"""The games, line by line, in the web layer's database (``onered.web.db``: an embedded
SQLite file, or PostgreSQL).

A game is a row of ``games`` (its mode, the hash of its secret, settings and a summary for
the list) and its input lines in ``lines``, numbered from 0 (the match line). Every change is
committed before the caller answers: SQLite runs in WAL mode with ``synchronous=FULL``,
PostgreSQL with its default ``synchronous_commit=on``, so a line whose change returned is on
disk even if the process is killed right after.

Writes are committed in groups (``onered.web.commits``): the changes of many requests made
at the same time share one transaction and one fsync, each in its own savepoint, and each
caller returns once the commit holding its change has. A change made with
:meth:`Store.edit` is prepared on the stored lines (read as committed) and written when its
block ends, in the group's transaction, by an ``UPDATE`` conditional on the game's
revision being still the one it was prepared on: another thread's or another process's
change in between is a conflict, decided by the database (nothing about revisions is kept
in the process, so several server processes may share one database).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from onered.errors import OneredError
from onered.web.commits import GroupCommit
from onered.web.db import SQLITE_FILE, Conn, Database, DatabaseError, Dialect

#: File name of the SQLite database inside the data folder.
DB_NAME = SQLITE_FILE

#: Seconds an idempotency key is kept (a page sends a change again within seconds or, after
#: an outage, hours; Stripe keeps its keys 24 h): older ones are pruned when an answer is
#: kept, at most once every :data:`PRUNE_EVERY` seconds.
KEEP_KEYS = 24 * 3600
PRUNE_EVERY = 60.0
#: Most game ids one search may name (``ids``: the games whose secrets a browser holds).
MAX_SEARCH_IDS = 500


class Mode(Enum):
    """How a game is fed: marked at a real table, played on the simulated table, imported."""

    MARK = "mark"
    PLAY = "play"
    IMPORT = "import"


#: The database cannot be opened, is not onered's, or a change was not stored: the
#: database's own error (one family, code ``store``), under the name the web layer knew.
StoreError = DatabaseError


class ConflictError(OneredError):
    """The game changed since the client last saw it (``expected`` lines, found ``found``);
    code ``stale``, the pages' word for it."""

    default_code = "stale"

    def __init__(self, expected: int, found: int) -> None:
        super().__init__(
            f"after: you saw {expected} lines, the game now has {found}; reload and try again",
            params={"expected": expected, "found": found},
        )
        self.expected = expected
        self.found = found


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as listed: no lines, no secret."""

    id: str
    mode: Mode
    created: float
    updated: float
    settings: Mapping[str, object]
    summary: Mapping[str, object]
    revision: int
    changed_from: int


@dataclass(frozen=True, slots=True)
class Answered:
    """The answer to a change sent with an idempotency key: what the request was (a
    ``fingerprint`` of its route and body) and the ``status`` and ``body`` it was answered
    with, given again to a repeat. Status :data:`ENTERED` (no body): the change was stored
    but its answer was not kept (the server stopped in between)."""

    fingerprint: str
    status: int
    body: bytes


#: An :class:`Answered` status: the change is in, its answer was not kept.
ENTERED = 0


@dataclass(frozen=True, slots=True)
class Claim:
    """A change being made under an idempotency key: :meth:`Store.edit` of ``game_id``
    records the key in the change's own transaction, so a change stored is never without it."""

    game_id: str
    key: str
    fingerprint: str


#: The idempotency key of the request being served, if any (set by ``onered.web.idempotency``).
CLAIM: ContextVar[Claim | None] = ContextVar("onered_idempotency_claim", default=None)


def hash_token(token: str) -> str:
    """What is stored of a game's secret: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _json_or_null(value: Mapping[str, object] | None) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """A game of a player's (:meth:`Store.player_games`): its row, and the players' figures
    kept with it (``None``: not counted since its last change)."""

    row: GameRow
    figures: Mapping[str, object] | None


def _row(r: Any) -> GameRow:
    return GameRow(
        id=r["id"],
        mode=Mode(r["mode"]),
        created=r["created"],
        updated=r["updated"],
        settings=json.loads(r["settings"]),
        summary=json.loads(r["summary"]),
        revision=r["revision"],
        changed_from=r["changed_from"],
    )


class Edit:
    """A change of one game's lines being prepared (see :meth:`Store.edit`): read as stored,
    its pops and pushes kept here and written when the block ends. Only the number of lines
    is read up front (the lines themselves on demand), so a change costs the same on a long
    game as on a short one."""

    def __init__(self, db: Database, game_id: str, count: int, revision: int) -> None:
        self._db = db
        self.game_id = game_id
        #: The number of lines, and the game's revision before this change.
        self.count = count
        self.revision = revision
        self._lines: tuple[str, ...] | None = None
        #: The stored lines kept (the first ``_kept``), and the lines added after them.
        self._prepared = count
        self._kept = count
        self._added: list[str] = []
        self._summary: Mapping[str, object] | None = None
        self._figures: Mapping[str, object] | None = None
        #: The lowest line number this edit changed (the number of lines if none).
        self.changed_from = count
        #: The game's row as the change left it (once the change is stored).
        self.row: GameRow | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        """Every line of the game (read from the database on first use)."""
        if self._lines is None:
            with self._db.read() as conn:
                rows = conn.execute(
                    "SELECT body FROM lines WHERE game_id = ? AND seq < ? ORDER BY seq",
                    (self.game_id, self._kept),
                ).fetchall()
            self._lines = (*(r[0] for r in rows), *self._added)
        return self._lines

    def pop(self) -> str:
        """Delete the last line (never the match line) and return it."""
        if self.count <= 1:
            raise ValueError("nothing to undo: only the match line is left")
        if self._added:
            last = self._added.pop()
        elif self._lines is not None:
            last = self._lines[-1]
            self._kept -= 1
        else:
            with self._db.read() as conn:
                last = conn.execute(
                    "SELECT body FROM lines WHERE game_id = ? AND seq = ?",
                    (self.game_id, self._kept - 1),
                ).fetchone()[0]
            self._kept -= 1
        self.count -= 1
        if self._lines is not None:
            self._lines = self._lines[:-1]
        self.changed_from = min(self.changed_from, self.count)
        return str(last)

    def push(self, line: str) -> None:
        """Append a line."""
        self._added.append(line)
        self.changed_from = min(self.changed_from, self.count)
        self.count += 1
        if self._lines is not None:
            self._lines = (*self._lines, line)

    def set_summary(self, summary: Mapping[str, object]) -> None:
        """The list's summary of the game after this change."""
        self._summary = summary

    def set_figures(self, figures: Mapping[str, object]) -> None:
        """The players' figures in the game after this change (``onered.web.figures``); a
        change that sets none leaves them to be counted again when next read."""
        self._figures = figures

    def _write(self, conn: Conn, claim: Claim | None) -> None:
        """Write the change in the group's transaction on ``conn``, if the game is still at
        the revision it was prepared on (``KeyError``: it is gone; :class:`ConflictError`:
        another thread or process changed it); ``claim``: the idempotency key it was sent
        with. The revision is checked by the ``UPDATE`` itself (on PostgreSQL it waits for
        a change of the row not yet committed, then sees its revision), so two changes
        prepared on one revision never both pass, in one process or several."""
        summary = "" if self._summary is None else ", summary = ?"
        args: list[object] = [time.time(), self.changed_from, _json_or_null(self._figures)]
        if self._summary is not None:
            args.append(json.dumps(self._summary, ensure_ascii=False))
        changed = conn.execute(
            "UPDATE games SET updated = ?, revision = revision + 1, changed_from = ?,"
            f" figures = ?{summary} WHERE id = ? AND revision = ? RETURNING *",
            (*args, self.game_id, self.revision),
        ).fetchone()
        if changed is None:
            found = conn.execute("SELECT 1 FROM games WHERE id = ?", (self.game_id,)).fetchone()
            if found is None:
                raise KeyError(self.game_id)
            top = conn.execute(
                "SELECT MAX(seq) FROM lines WHERE game_id = ?", (self.game_id,)
            ).fetchone()[0]
            raise ConflictError(self._prepared, 0 if top is None else int(top) + 1)
        if self._kept < self._prepared:  # lines popped (none can be past them: same revision)
            conn.execute(
                "DELETE FROM lines WHERE game_id = ? AND seq >= ?", (self.game_id, self._kept)
            )
        if self._added:
            conn.executemany(
                "INSERT INTO lines (game_id, seq, body) VALUES (?, ?, ?)",
                [(self.game_id, self._kept + k, line) for k, line in enumerate(self._added)],
            )
        if claim is not None and claim.game_id == self.game_id:
            # the key's unique constraint: one change per key, whichever process wrote it
            kept = conn.execute(
                "INSERT INTO idempotency (game_id, key, fingerprint, status, body, created)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, key) DO NOTHING RETURNING 1",
                (self.game_id, claim.key, claim.fingerprint, ENTERED, b"", time.time()),
            ).fetchone()
            if kept is None:
                raise ConflictError(self._prepared, self.count)
        # the row as changed, read in the group (after it, it would wait for the next group)
        self.row = _row(changed)


class Store:
    """The games of one database (thread-safe; several processes may share the database).

    ``source``: a :class:`~onered.web.db.Database` (the app's one, migrated by its maker),
    or a data folder (its SQLite file, opened and migrated here, closed by :meth:`close`)."""

    def __init__(self, source: Database | Path | str) -> None:
        self._owned = not isinstance(source, Database)
        try:
            self.db = source if isinstance(source, Database) else Database.in_folder(source)
            if self._owned:
                self.db.migrate()
        except DatabaseError as exc:
            if isinstance(source, Database):
                raise
            raise StoreError(f"data folder {source}: {exc}") from exc
        #: The SQLite file (``None`` on PostgreSQL).
        self.path = self.db.path
        self._commits = GroupCommit(self.db, self._not_stored)
        self._pruned = 0.0  # when old idempotency keys were last deleted (keep_answer)

    def _not_stored(self, exc: BaseException) -> StoreError:
        """The error of every change of a group that could not be committed."""
        return StoreError(f"{self.db.name}: the change was not stored: {exc}")

    def close(self) -> None:
        """Close the database if this store opened it (else its maker does)."""
        if self._owned:
            self.db.close()

    # --- reading ------------------------------------------------------------------------

    def game(self, game_id: str) -> GameRow | None:
        with self.db.read() as conn:
            r = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if r is None else _row(r)

    def revisions(self, ids: Sequence[str]) -> dict[str, int]:
        """The revision of each of the games ``ids`` that exists (one indexed read per
        :data:`MAX_SEARCH_IDS` games): what the live streams' watcher compares."""
        found: dict[str, int] = {}
        unique = list(dict.fromkeys(ids))
        with self.db.read() as conn:
            for start in range(0, len(unique), MAX_SEARCH_IDS):
                part = unique[start : start + MAX_SEARCH_IDS]
                marks = ", ".join("?" * len(part))
                rows = conn.execute(
                    f"SELECT id, revision FROM games WHERE id IN ({marks})", part
                ).fetchall()
                found.update((str(r[0]), int(r[1])) for r in rows)
        return found

    def lines(self, game_id: str) -> list[str]:
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT body FROM lines WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [r[0] for r in rows]

    def games(self, limit: int = 100, offset: int = 0) -> list[GameRow]:
        """Games, the most recently changed first."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT * FROM games ORDER BY updated DESC, id LIMIT ? OFFSET ?", (limit, offset)
            ).fetchall()
        return [_row(r) for r in rows]

    def search(
        self,
        *,
        player: str | None = None,
        exact: bool = False,
        since: float | None = None,
        until: float | None = None,
        modes: Sequence[Mode] = (),
        finished: bool | None = None,
        ids: Sequence[str] | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> tuple[list[GameRow], int]:
        """Games that pass every filter given, the most recently changed first, and how many
        pass. ``player``: part of either player's name (``exact``: the whole name), compared
        case-folded (SQLite: Python's ``casefold``; PostgreSQL: ``lower``); ``since``/``until``:
        created in ``[since, until)``; ``modes``: any of them; ``finished``: won or not;
        ``ids``: only these games. The created date and the mode use indexes; names are read
        from the summary."""
        pg = self.db.dialect is Dialect.POSTGRESQL
        where: list[str] = []
        args: list[object] = []
        if player is not None:
            if pg:
                names = "lower((summary::jsonb)->'players'->>{})"
                fold, key = "lower(?)", player
            else:
                names = "casefold(json_extract(summary, '$.players[{}]'))"
                fold, key = "?", player.casefold()
            if exact:
                where.append(f"({names.format(0)} = {fold} OR {names.format(1)} = {fold})")
            else:
                find = "strpos" if pg else "instr"
                where.append(
                    f"({find}({names.format(0)}, {fold}) > 0"
                    f" OR {find}({names.format(1)}, {fold}) > 0)"
                )
            args += [key] * 2
        if since is not None:
            where.append("created >= ?")
            args.append(since)
        if until is not None:
            where.append("created < ?")
            args.append(until)
        if modes:
            where.append(f"mode IN ({', '.join('?' * len(modes))})")
            args += [m.value for m in modes]
        if finished is not None:
            null = "IS NOT NULL" if finished else "IS NULL"
            winner = "(summary::jsonb)->>'winner'" if pg else "json_extract(summary, '$.winner')"
            where.append(f"{winner} {null}")
        if ids is not None:
            if len(ids) > MAX_SEARCH_IDS:
                raise ValueError(f"ids: at most {MAX_SEARCH_IDS} games, got {len(ids)}")
            if not ids:
                return [], 0
            where.append(f"id IN ({', '.join('?' * len(ids))})")
            args += list(ids)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        with self.db.snapshot() as conn:
            total = int(conn.execute(f"SELECT COUNT(*) FROM games{clause}", args).fetchone()[0])
            rows = conn.execute(
                f"SELECT * FROM games{clause} ORDER BY updated DESC, id LIMIT ? OFFSET ?",
                [*args, limit, offset],
            ).fetchall()
        return [_row(r) for r in rows], total

    def player_games(self, player: str, limit: int) -> tuple[list[PlayerGame], int]:
        """The newest ``limit`` games in which ``player`` played (his whole name, compared
        case-folded), newest first, each with its players' figures, and how many there are:
        read through the index of players, not the games' summaries."""
        key = player.casefold()
        with self.db.snapshot() as conn:
            total = int(
                conn.execute(
                    "SELECT COUNT(*) FROM game_players WHERE player = ?", (key,)
                ).fetchone()[0]
            )
            rows = conn.execute(
                "SELECT g.* FROM game_players p JOIN games g ON g.id = p.game_id"
                " WHERE p.player = ? ORDER BY p.created DESC, p.game_id DESC LIMIT ?",
                (key, limit),
            ).fetchall()
        return [
            PlayerGame(_row(r), None if r["figures"] is None else json.loads(r["figures"]))
            for r in rows
        ], total

    def keep_figures(self, game_id: str, revision: int, figures: Mapping[str, object]) -> None:
        """Keep a game's figures counted at ``revision`` (not if the game changed since)."""
        with self.db.write() as conn:
            conn.execute(
                "UPDATE games SET figures = ? WHERE id = ? AND revision = ?",
                (_json_or_null(figures), game_id, revision),
            )

    def count(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def check_token(self, game_id: str, token: str) -> bool:
        """The token is the game's secret (compared in constant time)."""
        with self.db.read() as conn:
            r = conn.execute("SELECT token_hash FROM games WHERE id = ?", (game_id,)).fetchone()
        if r is None:
            return False
        return hmac.compare_digest(str(r[0]), hash_token(token))

    # --- writing ------------------------------------------------------------------------

    def create(
        self,
        mode: Mode,
        lines: Sequence[str],
        settings: Mapping[str, object],
        summary: Mapping[str, object],
        figures: Mapping[str, object] | None = None,
    ) -> tuple[str, str]:
        """Store a new game with its first lines (``figures``: its players' figures, if
        counted); return its id and its secret token (the only time the token is seen: the
        store keeps its hash)."""
        token = secrets.token_urlsafe(24)
        now = time.time()
        with self.db.write() as conn:
            while True:
                game_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
                if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                    continue
                break
            conn.execute(
                "INSERT INTO games"
                " (id, mode, token_hash, created, updated, settings, summary, figures)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    mode.value,
                    hash_token(token),
                    now,
                    now,
                    json.dumps(settings, ensure_ascii=False),
                    json.dumps(summary, ensure_ascii=False),
                    _json_or_null(figures),
                ),
            )
            players = summary.get("players")
            names = sorted(
                {
                    name.casefold()
                    for name in (players if isinstance(players, list) else [])
                    if isinstance(name, str)
                }
            )
            if names:
                conn.executemany(
                    "INSERT INTO game_players (player, created, game_id) VALUES (?, ?, ?)",
                    [(name, now, game_id) for name in names],
                )
            conn.executemany(
                "INSERT INTO lines (game_id, seq, body) VALUES (?, ?, ?)",
                [(game_id, seq, line) for seq, line in enumerate(lines)],
            )
        return game_id, token

    def delete(self, game_id: str) -> bool:
        """Delete a game: its row and its lines, in one transaction. False if there was none."""
        lock = " FOR UPDATE" if self.db.dialect is Dialect.POSTGRESQL else ""
        with self.db.write() as conn:
            # the game's row first, as a change does: the two never wait for each other
            conn.execute(f"SELECT 1 FROM games WHERE id = ?{lock}", (game_id,))
            conn.execute("DELETE FROM lines WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM idempotency WHERE game_id = ?", (game_id,))
            conn.execute("DELETE FROM game_players WHERE game_id = ?", (game_id,))
            gone = conn.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount
        return gone > 0

    @contextmanager
    def edit(self, game_id: str, expected: int | None = None) -> Iterator[Edit]:
        """Change a game's lines: the block prepares the change on the lines as stored, and
        when it ends without an exception the change is written and committed (to disk,
        in a group with the changes of other threads: ``onered.web.commits``) before this
        returns; on an exception nothing is written. ``expected``: the number of lines the
        client saw; another number raises :class:`ConflictError` (also raised at the end if
        another thread or process changed the game meanwhile). Raises ``KeyError`` for an
        unknown game. No lock is held during the block; changes of one game are to be made
        one at a time (``Games`` does), or the second is a conflict."""
        with self.db.read() as conn:
            found = conn.execute(
                "SELECT revision, (SELECT MAX(seq) FROM lines WHERE game_id = ?)"
                " FROM games WHERE id = ?",
                (game_id, game_id),
            ).fetchone()
        if found is None:
            raise KeyError(game_id)
        count = 0 if found[1] is None else int(found[1]) + 1
        if expected is not None and expected != count:
            raise ConflictError(expected, count)
        edit = Edit(self.db, game_id, count, int(found[0]))
        yield edit
        claim = CLAIM.get()  # read here: the write may run in another thread

        def write(conn: Conn) -> None:
            try:
                edit._write(conn, claim)
            except DatabaseError as exc:
                if exc.contended:  # another process's transaction won a race for the game
                    raise ConflictError(edit._prepared, edit._prepared) from exc
                raise

        self._commits.run(write, key=game_id)

    def answered(self, game_id: str, key: str) -> Answered | None:
        """The answer kept for a change to ``game_id`` sent with idempotency ``key``, if any."""
        with self.db.read() as conn:
            r = conn.execute(
                "SELECT fingerprint, status, body FROM idempotency WHERE game_id = ? AND key = ?",
                (game_id, key),
            ).fetchone()
        return None if r is None else Answered(str(r[0]), int(r[1]), bytes(r[2]))

    def keep_answer(self, game_id: str, key: str, answered: Answered) -> None:
        """Keep the answer to a change sent with idempotency ``key`` (the first one kept stays:
        a repeat is answered with it; one the change's transaction marked :data:`ENTERED` is
        completed). Committed with the group of changes being written at the time; keys
        older than :data:`KEEP_KEYS` are deleted with it (at most once a :data:`PRUNE_EVERY`)."""
        self._commits.run(self._keeping(game_id, key, answered))

    def keep_answer_soon(
        self,
        game_id: str,
        key: str,
        answered: Answered,
        settled: Callable[[BaseException | None], None],
    ) -> bool:
        """:meth:`keep_answer` without waiting: queued for the next group of changes,
        ``settled`` called once it is committed (``onered.web.commits.GroupCommit.add``).
        Returns whether no group is being committed: then call :meth:`commit_queued` (in a
        worker thread)."""
        return self._commits.add(self._keeping(game_id, key, answered), settled)

    def commit_queued(self) -> None:
        """Commit what :meth:`keep_answer_soon` queued, unless a group is being committed
        (it does)."""
        self._commits.flush()

    def _keeping(self, game_id: str, key: str, answered: Answered) -> Callable[[Conn], None]:
        """The write keeping an answer (:meth:`keep_answer`)."""
        now = time.time()
        prune = now - self._pruned >= PRUNE_EVERY
        if prune:
            self._pruned = now

        def write(conn: Conn) -> None:
            if prune:
                conn.execute("DELETE FROM idempotency WHERE created < ?", (now - KEEP_KEYS,))
            conn.execute(
                "INSERT INTO idempotency"
                " (game_id, key, fingerprint, status, body, created) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, key) DO UPDATE SET status = excluded.status,"
                " body = excluded.body WHERE idempotency.status = ?",
                (
                    game_id,
                    key,
                    answered.fingerprint,
                    answered.status,
                    answered.body,
                    time.time(),
                    ENTERED,
                ),
            )

        return write

    def tail(self, game_id: str, kept: int, revision: int) -> tuple[GameRow, int, list[str]] | None:
        """A game's row and, when the game is one change past ``revision`` (a session of
        ``kept`` lines kept at that revision lacks that change), its lines from the first
        the session may lack: ``min(kept, changed_from)`` (the first line the change
        touched), returned with them; at any other revision no lines. One statement, so one
        round trip, and row and lines as of one instant: what a server holding a game's
        session pays to read another server's change. ``None``: no such game."""
        with self.db.read() as conn:
            rows = conn.execute(
                "SELECT g.*, l.body AS tail_line FROM games g LEFT JOIN lines l"
                " ON l.game_id = g.id AND g.revision = ?"
                " AND l.seq >= CASE WHEN g.changed_from < ? THEN g.changed_from ELSE ? END"
                " WHERE g.id = ? ORDER BY l.seq",
                (revision + 1, kept, kept, game_id),
            ).fetchall()
        if not rows:
            return None
        row = _row(rows[0])
        lines = [str(r["tail_line"]) for r in rows if r["tail_line"] is not None]
        return row, min(kept, row.changed_from), lines

    def snapshot(self, game_id: str) -> tuple[GameRow, list[str]] | None:
        """A game's row and lines read together (one read transaction), or ``None``."""
        with self.db.snapshot() as conn:
            r = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            rows = conn.execute(
                "SELECT body FROM lines WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return None if r is None else (_row(r), [x[0] for x in rows])
