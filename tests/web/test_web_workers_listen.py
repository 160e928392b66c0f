"""Live views across processes on PostgreSQL (issue 23, item 6): a hub's one ``LISTEN``
connection hears every committed change of a game's revision and every deletion, from
whatever connection made it (the trigger of ``onered.web.notify``), never a rolled-back
one; after a lost connection it connects again and catches up. Driven on a real PostgreSQL
server with plain psycopg (a ``games`` table of the store's shape), so only the hub is
tested here; nothing waits for a clock but the hang guard."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.web import notify
from onered.web.notify import Hub, install_trigger, parse

#: Seconds a test may wait for something that must happen (a hang guard, not a measure).
HANG = 30.0


class Revisions:
    """What a hub reads of a store: the revisions of some games (from PostgreSQL)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.reads = 0

    def revisions(self, ids: Sequence[str]) -> dict[str, int]:
        self.reads += 1
        with psycopg.connect(self.url) as conn:
            rows = conn.execute(
                "SELECT id, revision FROM games WHERE id = ANY(%s)", (list(ids),)
            ).fetchall()
        return {str(r[0]): int(r[1]) for r in rows}


@pytest.fixture
def games(postgres_url: str) -> str:
    """A database with a ``games`` table holding games ``a`` and ``b`` at revision 0."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("CREATE TABLE games (id TEXT PRIMARY KEY, revision BIGINT NOT NULL)")
        conn.execute("INSERT INTO games VALUES ('a', 0), ('b', 0)")
    return postgres_url


def _hub(url: str) -> Hub:
    return Hub(Revisions(url), listen_url=url)  # type: ignore[arg-type]  # reads revisions only


def _until(check: Callable[[], bool]) -> None:
    """Wait until ``check()`` holds (polled: the hub's thread changes it)."""
    deadline = time.monotonic() + HANG
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


def _bump(url: str, game: str, commit: bool = True) -> None:
    with psycopg.connect(url) as conn:
        conn.execute("UPDATE games SET revision = revision + 1 WHERE id = %s", (game,))
        if commit:
            conn.commit()
        else:
            conn.rollback()


def test_a_committed_change_reaches_the_hub_and_a_rolled_back_one_does_not(games: str) -> None:
    hub = _hub(games)
    with hub.following("a", 0) as follow, hub.following("b", 0) as other:
        _until(lambda: hub.connections == 1)
        _bump(games, "a", commit=False)
        _bump(games, "b")  # after the rolled-back one: once it is heard, the other was not
        _until(lambda: other.revision == 1)
        assert follow.revision == 0
        _bump(games, "a")
        _until(lambda: follow.revision == 1)
    hub.close()


def test_a_deleted_game_is_heard(games: str) -> None:
    hub = _hub(games)
    with hub.following("a", 0) as follow:
        _until(lambda: hub.connections == 1)
        with psycopg.connect(games, autocommit=True) as conn:
            conn.execute("DELETE FROM games WHERE id = 'a'")
        _until(lambda: follow.revision is None)
    hub.close()


def test_a_change_made_before_listening_is_caught_up(games: str) -> None:
    hub = _hub(games)
    _bump(games, "a")  # the stream read revision 0, then the game changed, then it follows
    with hub.following("a", 0) as follow:
        _until(lambda: follow.revision == 1)
    hub.close()


def test_after_a_lost_connection_the_listener_connects_again_and_catches_up(
    games: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(notify, "RECONNECT_FIRST", 0.01)
    hub = _hub(games)
    with hub.following("a", 0) as follow:
        _until(lambda: hub.connections == 1)
        with psycopg.connect(games, autocommit=True) as admin:
            # the listener's connection is cut, and the game changes while it is away
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'onered-live'"
            )
        _bump(games, "a")
        _until(lambda: follow.revision == 1 and hub.connections == 2)
        _bump(games, "a")  # and it listens again
        _until(lambda: follow.revision == 2)
    hub.close()


def test_the_listener_ends_when_no_game_is_followed_and_starts_again(games: str) -> None:
    hub = _hub(games)
    with hub.following("a", 0):
        _until(lambda: hub.connections == 1)
    _until(lambda: hub._watcher is None)
    with hub.following("a", 0) as follow:
        _bump(games, "a")
        _until(lambda: follow.revision == 1)
    assert hub.connections == 2
    hub.close()


def test_the_trigger_is_installed_once(games: str) -> None:
    with psycopg.connect(games, autocommit=True) as conn:
        assert install_trigger(conn) is True
        assert install_trigger(conn) is False
        count = conn.execute(
            "SELECT count(*) FROM pg_trigger WHERE tgname = %s", (notify.TRIGGER,)
        ).fetchone()
    assert count == (1,)


def test_a_game_on_the_sqlite_store_is_watched_not_listened(tmp_path: Path) -> None:
    from onered.web.store import Store

    store = Store(tmp_path / "data")
    try:
        assert Hub(store).listen_url is None
    finally:
        store.close()


@given(
    game=st.text(alphabet=st.characters(blacklist_characters=" \x00"), min_size=1),
    revision=st.none() | st.integers(min_value=0, max_value=2**62),
)
def test_a_payload_names_its_game_and_revision(game: str, revision: int | None) -> None:
    payload = game if revision is None else f"{game} {revision}"
    assert parse(payload) == (game, revision)


def test_a_role_that_cannot_install_the_trigger_still_listens(
    games: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Without the right to create the trigger the listener says so once and listens;
    once the database's owner installs it, changes are heard."""
    role = f"r_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(games, autocommit=True) as admin:
        admin.execute(f'CREATE ROLE "{role}" LOGIN')
        admin.execute(f'GRANT SELECT ON games TO "{role}"')
    url = games.replace("postgresql://postgres@", f"postgresql://{role}@")
    hub = Hub(Revisions(url), listen_url=url)  # type: ignore[arg-type]  # reads revisions only
    with caplog.at_level(logging.WARNING, logger="onered.web.notify"):
        with hub.following("a", 0) as follow:
            _until(lambda: hub.connections == 1)
            assert "not allowed to install the trigger" in caplog.text
            with psycopg.connect(games, autocommit=True) as owner:
                install_trigger(owner)
            _bump(games, "a")
            _until(lambda: follow.revision == 1)
        hub.close()
