"""Matches (best of N games, ``onered.game.series``) in the games' database.

A match is a row of ``matches`` (its settings and the hash of its secret) and its games in
``match_games``, numbered from 0 (migration ``0003_matches``); the games themselves are
ordinary games of :class:`onered.web.store.Store`, in the same database
(``onered.web.db``). Each operation borrows a pooled connection; every change is one write
transaction, and adding a game locks the match's row first (``FOR UPDATE`` on PostgreSQL;
SQLite's writers are one at a time), so two processes never both add game ``n``.
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from onered.errors import OneredError
from onered.game.series import Series
from onered.web.db import Database, Dialect
from onered.web.store import hash_token


class MatchConflictError(OneredError):
    """A game was added to the match by someone else first (``expected`` games, ``found``);
    code ``stale``, as a game changed elsewhere."""

    default_code = "stale"

    def __init__(self, expected: int, found: int) -> None:
        super().__init__(
            f"the match has {found} games, not {expected}: reload and try again",
            params={"expected": expected, "found": found},
        )
        self.expected = expected
        self.found = found


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A match as stored: its settings and its games' ids in order (no secret)."""

    id: str
    created: float
    series: Series
    games: tuple[str, ...]


class MatchStore:
    """The matches of one database (the games' one: ``Store.db``, migrated by its maker);
    given a data folder, its SQLite file (migrated here)."""

    def __init__(self, source: Database | Path) -> None:
        if isinstance(source, Database):
            self.db = source
        else:
            self.db = Database.in_folder(source)
            self.db.migrate()

    def create(self, series: Series) -> tuple[str, str]:
        """Store a new match (its games are added by :meth:`add_game`); return its id and
        its secret (kept only as a hash, like a game's)."""
        token = secrets.token_urlsafe(24)
        with self.db.write() as conn:
            while True:
                match_id = "m" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
                if not conn.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone():
                    break
            conn.execute(
                "INSERT INTO matches (id, token_hash, created, series) VALUES (?, ?, ?, ?)",
                (match_id, hash_token(token), time.time(), json.dumps(series.to_json())),
            )
        return match_id, token

    def match(self, match_id: str) -> MatchRow | None:
        with self.db.read() as conn:
            r = conn.execute("SELECT * FROM matches WHERE id = ?", (match_id,)).fetchone()
            if r is None:
                return None
            games = conn.execute(
                "SELECT game_id FROM match_games WHERE match_id = ? ORDER BY number", (match_id,)
            ).fetchall()
        return MatchRow(
            id=r["id"],
            created=r["created"],
            series=Series.from_json(json.loads(r["series"])),
            games=tuple(g[0] for g in games),
        )

    def add_game(self, match_id: str, number: int, game_id: str) -> None:
        """Add game ``number`` (the next one: anything else is a :class:`MatchConflictError`,
        so a double tap cannot start two games)."""
        lock = " FOR UPDATE" if self.db.dialect is Dialect.POSTGRESQL else ""
        with self.db.write() as conn:
            conn.execute(f"SELECT 1 FROM matches WHERE id = ?{lock}", (match_id,))
            found = conn.execute(
                "SELECT COUNT(*) FROM match_games WHERE match_id = ?", (match_id,)
            ).fetchone()[0]
            if int(found) != number:
                raise MatchConflictError(number, found)
            conn.execute(
                "INSERT INTO match_games (match_id, number, game_id) VALUES (?, ?, ?)",
                (match_id, number, game_id),
            )

    def match_of(self, game_id: str) -> tuple[str, int] | None:
        """The match a game belongs to, and its number there."""
        with self.db.read() as conn:
            r = conn.execute(
                "SELECT match_id, number FROM match_games WHERE game_id = ?", (game_id,)
            ).fetchone()
        return None if r is None else (str(r[0]), int(r[1]))

    def matches_of(self, game_ids: list[str]) -> dict[str, str]:
        """The match of each of ``game_ids`` that belongs to one (one connection for all: a
        player's page asks it of every game it lists)."""
        found: dict[str, str] = {}
        with self.db.read() as conn:
            for start in range(0, len(game_ids), 500):
                part = game_ids[start : start + 500]
                rows = conn.execute(
                    "SELECT game_id, match_id FROM match_games"
                    f" WHERE game_id IN ({', '.join('?' * len(part))})",
                    part,
                ).fetchall()
                found.update((str(r[0]), str(r[1])) for r in rows)
        return found

    def check_token(self, match_id: str, token: str) -> bool:
        """The token is the match's secret (compared in constant time)."""
        with self.db.read() as conn:
            r = conn.execute("SELECT token_hash FROM matches WHERE id = ?", (match_id,)).fetchone()
        return r is not None and hmac.compare_digest(str(r[0]), hash_token(token))
