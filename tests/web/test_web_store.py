"""The store: games line by line, secrets, transactions (on SQLite and PostgreSQL)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from onered.web.db import Database, Dialect
from onered.web.store import ConflictError, Mode, Store, StoreError, hash_token

MATCH = '{"type": "match", "target": 100, "players": ["A", "B"]}'
STROKE = '{"type": "stroke", "first_hit": "red"}'


@pytest.fixture
def store(database: Database) -> Store:
    return Store(database)


def test_create_keeps_the_lines_and_only_the_hash_of_the_secret(store: Store) -> None:
    game_id, token = store.create(Mode.MARK, [MATCH], {"entrants": {}}, {"score": [0, 0]})
    assert store.lines(game_id) == [MATCH]
    row = store.game(game_id)
    assert row is not None
    assert row.mode is Mode.MARK
    assert row.revision == 0
    with store.db.read() as conn:
        stored = conn.execute("SELECT token_hash FROM games").fetchone()["token_hash"]
    assert stored == hash_token(token) != token
    assert store.check_token(game_id, token)
    assert not store.check_token(game_id, token + "x")
    assert not store.check_token("nope", token)


def test_the_database_is_durable(store: Store) -> None:
    with store.db.read() as conn:
        if conn.dialect is Dialect.SQLITE:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        else:
            assert conn.execute("SHOW synchronous_commit").fetchone()[0] == "on"
            assert conn.execute("SHOW fsync").fetchone()[0] == "on"


def test_edit_appends_pops_and_counts_revisions(store: Store) -> None:
    game_id, _ = store.create(Mode.MARK, [MATCH], {}, {})
    with store.edit(game_id, expected=1) as edit:
        edit.push(STROKE)
        edit.push(STROKE)
    assert store.lines(game_id) == [MATCH, STROKE, STROKE]
    with store.edit(game_id, expected=3) as edit:
        assert edit.pop() == STROKE
    row = store.game(game_id)
    assert row is not None
    assert row.revision == 2
    assert row.changed_from == 2
    assert store.lines(game_id) == [MATCH, STROKE]


def test_a_stale_client_gets_a_conflict(store: Store) -> None:
    game_id, _ = store.create(Mode.MARK, [MATCH], {}, {})
    with (
        pytest.raises(ConflictError, match="you saw 2 lines, the game now has 1"),
        store.edit(game_id, 2),
    ):
        pass


def test_two_edits_prepared_on_one_revision_conflict(store: Store) -> None:
    """Decided by the revision in the database: a second store (another process's) sees it."""
    other = Store(store.db)
    game_id, _ = store.create(Mode.MARK, [MATCH], {}, {})
    with (  # noqa: PT012 - the other change is made inside this one
        pytest.raises(ConflictError, match="you saw 1 lines, the game now has 2"),
        store.edit(game_id) as first,
    ):
        with other.edit(game_id) as second:
            second.push(STROKE)
        first.push(STROKE)
        first.push(STROKE)
    assert store.lines(game_id) == [MATCH, STROKE]


def test_an_error_inside_an_edit_rolls_everything_back(store: Store) -> None:
    game_id, _ = store.create(Mode.MARK, [MATCH, STROKE], {}, {"n": 1})

    def failing_edit() -> None:
        with store.edit(game_id) as edit:
            edit.pop()
            edit.push(STROKE)
            edit.push(STROKE)
            edit.set_summary({"n": 3})
            raise RuntimeError("judged wrong")

    with pytest.raises(RuntimeError):
        failing_edit()
    assert store.lines(game_id) == [MATCH, STROKE]
    row = store.game(game_id)
    assert row is not None
    assert row.summary == {"n": 1}
    assert row.revision == 0


def test_the_match_line_cannot_be_undone(store: Store) -> None:
    game_id, _ = store.create(Mode.MARK, [MATCH], {}, {})
    with pytest.raises(ValueError, match="nothing to undo"), store.edit(game_id) as edit:
        edit.pop()


def test_unknown_game(store: Store) -> None:
    assert store.game("zzz") is None
    with pytest.raises(KeyError), store.edit("zzz"):
        pass


def test_games_are_listed_newest_change_first(store: Store) -> None:
    a, _ = store.create(Mode.MARK, [MATCH], {}, {})
    b, _ = store.create(Mode.PLAY, [MATCH], {}, {})
    with store.edit(a) as edit:
        edit.push(STROKE)
    assert [g.id for g in store.games()] == [a, b]
    assert store.count() == 2


def test_names_are_searched_case_folded_in_any_script(store: Store) -> None:
    a, _ = store.create(Mode.MARK, [MATCH], {}, {"players": ["ЖЁЛТЫЙ Иван", "Bob"]})
    store.create(Mode.MARK, [MATCH], {}, {"players": ["Ann", "Bob"], "winner": 1})
    assert [r.id for r in store.search(player="жёлтый")[0]] == [a]
    assert [r.id for r in store.search(player="жёлтый иван", exact=True)[0]] == [a]
    assert store.search(player="жёлтый", exact=True)[1] == 0
    assert store.search(player="bob")[1] == 2
    assert store.search(finished=True)[1] == 1
    assert store.search(finished=False)[1] == 1
    assert store.search(ids=[])[1] == 0


def test_a_reopened_store_has_everything(tmp_path: Path) -> None:
    first = Store(tmp_path)
    game_id, token = first.create(Mode.MARK, [MATCH], {}, {})
    with first.edit(game_id) as edit:
        edit.push(STROKE)
    first.close()
    second = Store(tmp_path)
    assert second.lines(game_id) == [MATCH, STROKE]
    assert second.check_token(game_id, token)
    second.close()


def test_a_foreign_file_is_refused_with_its_path(tmp_path: Path) -> None:
    (tmp_path / "onered.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match=r"onered\.sqlite3"):
        Store(tmp_path)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "onered.sqlite3") as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="schema version 99"):
        Store(tmp_path)


def test_a_data_folder_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="cannot be made"):
        Store(tmp_path / "file")
