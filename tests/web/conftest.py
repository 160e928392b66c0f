"""Fixtures of the web app's tests: each runs on both databases of ``onered.web.db``, the
data folder's SQLite file and a PostgreSQL database of its own on the session's server
(``postgres_url``, tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from onered.web.db import Database
from web_support import Api

#: The databases every store and app test runs on.
DATABASES = ("sqlite", "postgresql")


def database_url(request: pytest.FixtureRequest) -> str | None:
    """The PostgreSQL URL of the test's own database, or ``None`` for SQLite (the data
    folder's file), by the fixture's parameter."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return None


@pytest.fixture(params=DATABASES)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty, migrated database (SQLite in ``tmp_path/data``, or PostgreSQL), closed after."""
    url = database_url(request)
    db = Database(url) if url else Database.in_folder(tmp_path / "data")
    db.migrate()
    yield db
    db.close()


@pytest.fixture(params=DATABASES)
def api(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Api]:
    """The app in-process on an empty data folder, its tables in SQLite there or in a
    PostgreSQL database of its own."""
    from onered.web.app import create_app

    app = create_app(tmp_path / "data", database=database_url(request))
    yield Api(app)
    app.state.db.close()
