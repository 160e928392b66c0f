"""Data folders as onered made them before the migrations (``onered.web.db``): SQLite files
whose tables were made by ``CREATE TABLE IF NOT EXISTS`` and numbered by ``PRAGMA
user_version`` (0..3), which today's onered takes into the migrations' record."""

from __future__ import annotations

import sqlite3
from pathlib import Path

#: The tables onered kept before the migrations (the store's, the matches', the club's).
LEGACY_TABLES = frozenset(
    {
        "games",
        "lines",
        "game_players",
        "idempotency",
        "matches",
        "match_games",
        "seats",
        "takebacks",
    }
)


def to_legacy(path: Path, user_version: int) -> None:
    """Make the SQLite file ``path`` look as a folder of ``user_version`` made before the
    migrations: no ``schema_migrations``, no table of a later migration."""
    with sqlite3.connect(path) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        conn.execute("PRAGMA foreign_keys=OFF")
        for table in tables:
            if table not in LEGACY_TABLES and not table.startswith("sqlite_"):
                conn.execute(f'DROP TABLE "{table}"')
        conn.execute(f"PRAGMA user_version = {user_version}")
    conn.close()
