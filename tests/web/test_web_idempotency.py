"""Exactly-once changes: a repeated ``Idempotency-Key`` gets the kept answer, never a second
stroke (issue 18, item 1)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from legacy_support import to_legacy
from onered.web.app import create_app
from onered.web.store import DB_NAME, Store
from web_support import Api

TAPS = ("pot_red", "no_score", "cannon", "in_off_red")


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _ins(api: Api, game: str) -> list[Any]:
    """The game's stored strokes and choices (the log's lines after the match line)."""
    return [x["in"] for x in api.game(game)["log"] if x["in"]["type"] != "match"]


def _send(api: Api, game: str, token: str, body: dict[str, Any], key: dict[str, str]) -> Any:
    return api.post(f"/api/games/{game}/mark", json=body, token=token, headers=key)


def test_a_repeat_with_the_same_key_gets_the_same_answer_and_one_line(api: Api) -> None:
    game, token = api.new_mark()
    key = _key()
    first = _send(api, game, token, {"parts": ["pot_red"], "after": None}, key)
    again = _send(api, game, token, {"parts": ["pot_red"]}, key)
    assert first.status == again.status == 200
    assert again.body == first.body
    assert again.headers.get("idempotent-replayed") == "true"
    assert len(_ins(api, game)) == 1


def test_a_lost_answer_resent_with_its_after_is_not_stale(api: Api) -> None:
    """The page sent ``after`` = 2; the line went in, the answer was lost; the resend with
    the same ``after`` (now behind) gets the kept answer, not "changed on another device"."""
    game, token = api.new_mark()
    assert _send(api, game, token, {"parts": ["no_score"]}, _key()).status == 200
    key = _key()
    body = {"parts": ["pot_red"], "after": 2}
    first = _send(api, game, token, body, key)
    again = _send(api, game, token, body, key)
    assert (first.status, again.status) == (200, 200)
    assert again.body == first.body
    assert len(_ins(api, game)) == 2
    # without the key the same resend is stale, as before
    assert _send(api, game, token, body, {}).status == 409


def test_the_same_key_with_another_body_is_refused(api: Api) -> None:
    game, token = api.new_mark()
    key = _key()
    assert _send(api, game, token, {"parts": ["pot_red"]}, key).status == 200
    r = _send(api, game, token, {"parts": ["no_score"]}, key)
    assert r.status == 422
    assert r.body["code"] == "idempotency_mismatch"
    r = api.post(f"/api/games/{game}/undo", json={}, token=token, headers=key)
    assert r.status == 422
    assert r.body["code"] == "idempotency_mismatch"
    assert len(_ins(api, game)) == 1


def test_a_kept_answer_is_given_only_to_its_sender(api: Api) -> None:
    """A repeat of a key with another secret is not answered with the kept answer."""
    game, token = api.new_mark()
    key = _key()
    assert _send(api, game, token, {"parts": ["pot_red"]}, key).status == 200
    r = _send(api, game, "not-the-secret", {"parts": ["pot_red"]}, key)
    assert r.status == 422
    assert r.body["code"] == "idempotency_mismatch"


def test_the_refusal_is_said_in_the_users_language(api: Api) -> None:
    game, token = api.new_mark()
    key = _key()
    _send(api, game, token, {"parts": ["pot_red"]}, key)
    r = api.post(
        f"/api/games/{game}/mark",
        json={"parts": ["no_score"]},
        token=token,
        headers={**key, "Accept-Language": "ru"},
    )
    assert r.status == 422
    assert r.body["message"] != r.body["error"]
    assert any("а" <= c <= "я" for c in r.body["message"])


def test_keys_are_per_game(api: Api) -> None:
    one, t1 = api.new_mark()
    two, t2 = api.new_mark()
    key = _key()
    assert _send(api, one, t1, {"parts": ["pot_red"]}, key).status == 200
    assert _send(api, two, t2, {"parts": ["no_score"]}, key).status == 200
    assert len(_ins(api, one)) == len(_ins(api, two)) == 1
    assert _ins(api, one) != _ins(api, two)


def test_a_refusal_is_not_kept(api: Api) -> None:
    """A refused change changed nothing: sent again it is judged again."""
    game, token = api.new_mark()
    key = _key()
    assert api.post(f"/api/games/{game}/undo", json={}, token=token, headers=key).status == 409
    assert _send(api, game, token, {"parts": ["pot_red"]}, _key()).status == 200
    r = api.post(f"/api/games/{game}/undo", json={}, token=token, headers=key)
    assert r.status == 200
    assert _ins(api, game) == []


def test_requests_without_the_key_work_as_before(api: Api) -> None:
    game, token = api.new_mark()
    for _ in range(2):
        assert _send(api, game, token, {"parts": ["pot_red"]}, {}).status == 200
    assert len(_ins(api, game)) == 2


def test_a_key_survives_a_restart(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app(data)
    api = Api(app)
    game, token = api.new_mark()
    key = _key()
    first = _send(api, game, token, {"parts": ["pot_red"], "after": None}, key)
    app.state.store.close()
    app = create_app(data)
    try:
        again = _send(Api(app), game, token, {"parts": ["pot_red"]}, key)
        assert again.body == first.body
        assert len(_ins(Api(app), game)) == 1
    finally:
        app.state.store.close()


def _not_kept(
    store: Store, game_id: str, key: str, answered: object, settled: Callable[..., None]
) -> bool:
    """``Store.keep_answer_soon`` of a server stopped before it kept the answer."""
    settled(None)
    return False


def test_a_change_stored_whose_answer_was_not_kept_is_not_entered_again(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The key goes in with the line: a server stopped after the change's transaction but
    before the answer was kept answers a repeat with the game as it is (200), one line."""
    game, token = api.new_mark()
    key = _key()
    with monkeypatch.context() as m:
        m.setattr(Store, "keep_answer_soon", _not_kept)  # stopped before the answer is kept
        assert _send(api, game, token, {"parts": ["pot_red"], "after": 1}, key).status == 200
    again = _send(api, game, token, {"parts": ["pot_red"], "after": 1}, key)
    assert again.status == 200
    assert again.headers.get("idempotent-replayed") == "true"
    assert again.body["game"]["state"]["version"] == 2
    assert again.body["game"]["log_from"] == 0
    assert len(_ins(api, game)) == 1
    assert _send(api, game, token, {"parts": ["no_score"]}, key).status == 422


def test_a_refused_change_leaves_no_key(api: Api) -> None:
    game, token = api.new_mark()
    key = _key()
    assert _send(api, game, token, {"parts": ["cannon"]}, key).status == 422  # no yellow yet
    assert api.app.state.store.answered(game, key["Idempotency-Key"]) is None


def test_a_data_folder_of_the_previous_schema_opens_and_takes_keys(tmp_path: Path) -> None:
    """A folder made before the keys (schema 1, no key table, from before the migrations)
    is brought up to date."""
    data = tmp_path / "data"
    app = create_app(data)
    api = Api(app)
    game, token = api.new_mark()
    _send(api, game, token, {"parts": ["pot_red"]}, {})
    app.state.db.close()
    to_legacy(data / DB_NAME, 1)
    with sqlite3.connect(data / DB_NAME) as conn:
        conn.execute("DROP TABLE idempotency")
    conn.close()
    app = create_app(data)
    try:
        api = Api(app)
        key = _key()
        _send(api, game, token, {"parts": ["no_score"]}, key)
        _send(api, game, token, {"parts": ["no_score"]}, key)
        assert len(_ins(api, game)) == 2
    finally:
        app.state.db.close()


def test_a_deleted_game_forgets_its_keys(api: Api) -> None:
    game, token = api.new_mark()
    _send(api, game, token, {"parts": ["pot_red"]}, _key())
    assert api.app.state.store.delete(game)
    with api.app.state.db.read() as conn:
        left = conn.execute("SELECT COUNT(*) FROM idempotency WHERE game_id = ?", (game,))
        assert left.fetchone()[0] == 0


@settings(max_examples=25)
@given(
    taps=st.lists(st.sampled_from(TAPS), min_size=1, max_size=8),
    tries=st.data(),
)
def test_taps_each_sent_one_to_three_times_are_stored_once_in_order(
    tmp_path_factory: Any, taps: list[str], tries: st.DataObject
) -> None:
    app = create_app(tmp_path_factory.mktemp("data"))
    try:
        api = Api(app)
        once, t1 = api.new_mark()
        game, token = api.new_mark()
        after = 1  # the match line
        for tap in taps:
            body = {"parts": [tap], "after": after}
            expected = _send(api, once, t1, body, {})
            key = _key()
            answers = [
                _send(api, game, token, body, key)
                for _ in range(tries.draw(st.integers(1, 3), label="tries"))
            ]
            # every try, first or repeat, gets the answer the tap got when sent once
            assert {a.status for a in answers} == {expected.status}
            assert all(a.body == answers[0].body for a in answers)
            if expected.status == 200:
                after += 1
        assert _ins(api, game) == _ins(api, once)
    finally:
        app.state.store.close()
