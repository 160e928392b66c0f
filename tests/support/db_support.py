"""Another process's view of an app's database (``onered.web.db``), on SQLite or
PostgreSQL alike: what a second server on the same data folder or database would open."""

from __future__ import annotations

from fastapi import FastAPI

from onered.web.db import Database, Dialect
from onered.web.store import Store


def database_of(app: FastAPI) -> str | None:
    """The ``database`` argument of ``create_app`` for a second app on ``app``'s database
    (``None``: its data folder's SQLite file, given as the folder)."""
    db: Database = app.state.db
    return db.url if db.dialect is Dialect.POSTGRESQL else None


def other_store(app: FastAPI) -> Store:
    """A store on ``app``'s database with connections of its own (close it with
    ``store.db.close()``)."""
    db: Database = app.state.db
    return Store(Database(db.url))
