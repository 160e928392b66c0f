"""Idempotency keys kept for a day and settled by the store (issue 18 item 1's leftovers):
old keys are pruned as answers are kept, and two servers on one data folder (two processes:
two stores) never enter one key's change twice — the later try is refused by the store (the
revision moved, or the key's unique constraint) and answered as a repeat."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from onered.web import store as store_module
from onered.web.app import create_app
from onered.web.db import Database, Dialect
from onered.web.pages import STATIC_DIR
from onered.web.store import Answered, Store
from web_support import Api

STROKE = {"parts": ["no_score"]}


def _keys(store: Store) -> set[str]:
    with store.db.read() as conn:
        return {r[0] for r in conn.execute("SELECT key FROM idempotency").fetchall()}


def test_keys_older_than_a_day_are_pruned_when_an_answer_is_kept(database: Database) -> None:
    store = Store(database)
    try:
        answered = Answered("f", 200, b"{}")
        store.keep_answer("g", "old", answered)
        store.keep_answer("g", "recent", answered)
        with store.db.write() as conn:
            conn.execute(
                "UPDATE idempotency SET created = ? WHERE key = 'old'",
                (time.time() - store_module.KEEP_KEYS - 60,),
            )
        store.keep_answer("g", "new", answered)  # within a minute of the last pruning: kept
        assert _keys(store) == {"old", "recent", "new"}
        store._pruned -= store_module.PRUNE_EVERY
        store.keep_answer("h", "newer", answered)
        assert _keys(store) == {"recent", "new", "newer"}
    finally:
        store.close()


@pytest.fixture
def two(database: Database, tmp_path: Path) -> Iterator[tuple[Api, Api]]:
    """Two apps (two servers' stores) on one data folder, or one PostgreSQL database."""
    url = database.url if database.dialect is Dialect.POSTGRESQL else None
    first = create_app(tmp_path / "data", database=url)
    second = create_app(tmp_path / "data", database=url)
    yield Api(first), Api(second)
    first.state.db.close()
    second.state.db.close()


def _strokes(api: Api, game: str) -> int:
    return sum(1 for x in api.game(game)["log"] if x["in"]["type"] == "stroke")


@pytest.mark.parametrize("after", [True, False], ids=["with-after", "without-after"])
def test_a_key_raced_by_two_servers_enters_one_change(
    two: tuple[Api, Api], monkeypatch: pytest.MonkeyPatch, after: bool
) -> None:
    a, b = two
    game, token = a.new_mark()
    body: dict[str, Any] = {**STROKE, "after": 1} if after else dict(STROKE)
    key = {"Idempotency-Key": "raced"}
    first = a.post(f"/api/games/{game}/mark", json=body, token=token, headers=key)
    assert first.status == 200, first.text
    # a tap's key is not looked for before its change (the store refuses a second change of
    # a key): the second server, which never saw the key, enters the change, the store
    # refuses it, and then it finds the key
    store_b: Store = b.app.state.store
    real = store_b.answered
    looks: list[int] = []

    def looked(game_id: str, k: str) -> Answered | None:
        looks.append(1)
        return real(game_id, k)

    monkeypatch.setattr(store_b, "answered", looked)
    second = b.post(f"/api/games/{game}/mark", json=body, token=token, headers=key)
    assert second.status == 200, second.text
    assert second.headers.get("idempotent-replayed") == "true"
    assert len(looks) == 1  # refused by the store, then answered as a repeat
    assert _strokes(a, game) == 1
    assert second.body == first.body


def test_a_matchs_next_game_sent_again_with_its_key_starts_one_game(api: Api) -> None:
    made = api.new_match()
    first = made["game"]
    for _ in range(2):  # two reds: 6 points, game 1 won
        assert api.mark(first["id"], first["token"], parts=["pot_red"]).status == 200
    path, key = f"/api/matches/{made['id']}/next", {"Idempotency-Key": "next-1"}
    once = api.post(path, json={"after": 1}, token=made["token"], headers=key)
    assert once.status == 200, once.text
    again = api.post(path, json={"after": 1}, token=made["token"], headers=key)  # answer lost
    assert again.status == 200, again.text
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.body == once.body  # the same game, with its secret
    assert len(api.get(f"/api/matches/{made['id']}").body["games"]) == 2
    plain = api.post(path, json={"after": 1}, token=made["token"])  # no key: judged afresh
    assert plain.status == 409


def test_every_change_a_page_sends_carries_a_key() -> None:
    """The pages change a game (or start a match's next) only through the Outbox (a key
    per queued change) or common.js's sendChange (a key per change, kept over its tries):
    no bare POST to a game's or match's routes but the marker's secret check (``/check``
    changes nothing)."""
    bare = re.compile(r'api\(\s*"POST",\s*`/api/(?:games|matches)/\$\{[^}]+\}/([a-z/]+)`')
    found = {
        (path.name, route)
        for path in STATIC_DIR.glob("*.js")
        if path.name != "common.js"
        for route in bare.findall(path.read_text(encoding="utf-8"))
    }
    assert found <= {("mark.js", "check")}, found
    common = (STATIC_DIR / "common.js").read_text(encoding="utf-8")
    assert common.count('api("POST"') == 2  # the Outbox's try and sendChange's
