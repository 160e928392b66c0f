"""Settings for every test: no hypothesis deadline (the suite must pass on a machine at
load 15, where a generated example may take seconds; a test asserts behaviour, never a
time).

The tests are laid out like ``src/onered`` (``tests/rules`` for ``onered.rules`` ...); the
helpers several areas share live in ``tests/support``, which pytest puts on the import path
(``pythonpath`` in pyproject.toml), so a test imports them by name
(``from referee_support import judge``)."""

from hypothesis import settings

settings.register_profile("onered", deadline=None)
settings.load_profile("onered")


from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from postgres_support import PostgresServer, fresh_database, start_server  # noqa: E402


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A real PostgreSQL server for the session (``postgres_support``), stopped at its end."""
    yield from start_server()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """An empty database of this test's own on the session's PostgreSQL server."""
    return fresh_database(postgres_server)
