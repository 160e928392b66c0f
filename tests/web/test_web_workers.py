"""Several servers on one PostgreSQL database (issue 23, item 6), on a real server: two apps
in this process stand for two workers (each its own store, pool and listener), and
``onered serve --workers 2`` is run for the processes themselves (on PostgreSQL, and on the
data folder's SQLite file, which several processes may share too). A change made through one
is pushed to a stream on the other; one ``Idempotency-Key`` sent to both, even while the
first try is still in its transaction, enters one stroke; a worker killed with SIGKILL
leaves the game to the others and is replaced. Nothing waits for a clock but hang guards."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.web import store as store_module
from onered.web.app import create_app
from web_support import Api, Server

#: Seconds a test may wait for something that must happen (a hang guard, not a measure).
HANG = 60.0
STROKE = {"parts": ["pot_red"]}


def _until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + HANG
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def two(postgres_url: str, tmp_path: Path) -> Iterator[tuple[Api, Api]]:
    """Two apps (two workers) on one PostgreSQL database."""
    first = create_app(tmp_path / "one", database=postgres_url)
    second = create_app(tmp_path / "two", database=postgres_url)
    yield Api(first), Api(second)
    first.state.db.close()
    second.state.db.close()


def _strokes(api: Api, game: str) -> int:
    return sum(1 for x in api.game(game)["log"] if x["in"]["type"] == "stroke")


async def _events(app: Any, url: str, want: int) -> list[dict[str, Any]]:
    """The first ``want`` ``game`` events of a stream of ``app`` (driven through ASGI)."""
    parts = urlsplit(url)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": parts.path,
        "raw_path": parts.path.encode(),
        "query_string": parts.query.encode(),
        "root_path": "",
        "headers": [(b"host", b"test"), (b"accept", b"text/event-stream")],
        "client": ("10.0.0.1", 50000),
        "server": ("test", 80),
    }
    text = ""
    got = asyncio.Event()
    gone = asyncio.Event()
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await gone.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal text
        text += message.get("body", b"").decode()
        got.set()

    def found() -> list[dict[str, Any]]:
        out = []
        for block in text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if fields.get("event") == "game":
                out.append(json.loads(fields["data"]))
        return out

    task = asyncio.create_task(app(scope, receive, send))
    async with asyncio.timeout(HANG):
        while len(found()) < want:
            got.clear()
            await got.wait()
        gone.set()
        await task
    return found()


def test_a_change_through_one_worker_is_pushed_to_a_stream_on_the_other(
    two: tuple[Api, Api],
) -> None:
    a, b = two
    game, token = a.new_mark()
    revision = b.game(game)["revision"]
    hub = b.app.state.games.hub

    async def run() -> list[dict[str, Any]]:
        stream = asyncio.create_task(
            _events(b.app, f"/api/games/{game}/events?since=1&revision={revision}", 1)
        )
        async with asyncio.timeout(HANG):  # b listens before a marks
            while hub.connections < 1:
                await asyncio.sleep(0.01)
        r = await asyncio.to_thread(a.mark, game, token, **STROKE)
        assert r.status == 200, r.text
        return await stream

    [view] = asyncio.run(run())
    assert view["revision"] == revision + 1
    assert view["state"]["score"] == [3, 0]  # a red potted


def test_one_key_sent_to_two_workers_enters_one_stroke(two: tuple[Api, Api]) -> None:
    a, b = two
    game, token = a.new_mark()
    key = {"Idempotency-Key": "tap-1"}
    first = a.post(f"/api/games/{game}/mark", json={**STROKE, "after": 1}, token=token, headers=key)
    again = b.post(f"/api/games/{game}/mark", json={**STROKE, "after": 1}, token=token, headers=key)
    assert first.status == again.status == 200, again.text
    assert again.headers.get("idempotent-replayed") == "true"
    assert _strokes(a, game) == _strokes(b, game) == 1


def test_a_key_sent_to_another_worker_while_the_first_is_in_its_transaction(
    two: tuple[Api, Api], postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first try has written its stroke and its key but not committed; the second,
    on the other worker, waits for it in the database, then is answered as a repeat."""
    a, b = two
    game, token = a.new_mark()
    inside, release = threading.Event(), threading.Event()
    db_a = a.app.state.db
    real = store_module.Edit._write

    def held(edit: Any, conn: Any, claim: Any) -> None:
        real(edit, conn, claim)
        if edit._db is db_a:  # a's change: written, held before its commit
            inside.set()
            release.wait(HANG)

    monkeypatch.setattr(store_module.Edit, "_write", held)
    key = {"Idempotency-Key": "in-flight"}
    answers: dict[str, Any] = {}

    def send(name: str, api: Api) -> None:
        answers[name] = api.post(
            f"/api/games/{game}/mark", json={**STROKE, "after": 1}, token=token, headers=key
        )

    first = threading.Thread(target=send, args=("a", a))
    first.start()
    assert inside.wait(HANG)
    second = threading.Thread(target=send, args=("b", b))
    second.start()
    with psycopg.connect(postgres_url, autocommit=True) as admin:

        def b_waits() -> bool:
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND wait_event_type = 'Lock'"
            ).fetchone()
            return row is not None and int(row[0]) >= 1

        _until(b_waits, "the second try to wait for the first's transaction")
    release.set()
    first.join(HANG)
    second.join(HANG)
    assert answers["a"].status == 200, answers["a"].text
    assert answers["b"].status == 200, answers["b"].text
    assert answers["b"].headers.get("idempotent-replayed") == "true"
    assert _strokes(a, game) == 1


def test_taps_each_sent_to_either_worker_one_to_three_times_are_stored_once_in_order(
    two: tuple[Api, Api],
) -> None:
    """A property: whatever worker each try of a tap reaches, and however often a tap is
    sent again (its answer lost), the game holds each tap once, in the order tapped."""
    a, b = two

    @settings(max_examples=15)
    @given(plan=st.lists(st.lists(st.booleans(), min_size=1, max_size=3), max_size=6))
    def check(plan: list[list[bool]]) -> None:
        game, token = a.new_mark(target=100_000)
        lines = 1
        for k, tries in enumerate(plan):
            body = {"parts": ["no_score"] if k % 2 else ["pot_red"], "after": lines}
            key = {"Idempotency-Key": f"{game}-{k}"}
            answers = [
                (a if to_a else b).post(
                    f"/api/games/{game}/mark", json=body, token=token, headers=key
                )
                for to_a in tries
            ]
            assert all(r.status == 200 for r in answers), [r.text for r in answers]
            assert len({r.body["game"]["state"]["version"] for r in answers}) == 1
            lines = answers[0].body["game"]["state"]["version"]
        log = [x for x in b.game(game)["log"] if x["in"]["type"] == "stroke"]
        assert len(log) == len(plan)
        reds = sum(1 for k in range(len(plan)) if k % 2 == 0)
        assert sum(b.game(game)["state"]["score"]) == 3 * reds

    check()


# --- the processes ---------------------------------------------------------------------


def _workers(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """``onered serve --workers 2`` on a loopback port, on the data folder's SQLite file or
    on a PostgreSQL database, stopped after."""
    flags = ["--workers", "2"]
    if request.param == "postgresql":
        flags += ["--database", request.getfixturevalue("postgres_url")]
    server = Server(tmp_path / "data", *flags)
    server.start()
    assert server.proc is not None
    proc = server.proc
    _until(lambda: len(_workers(proc.pid)) == 2, "two workers")
    yield server
    server.stop()


def _new_game(server: Server) -> tuple[str, dict[str, str]]:
    created = httpx.post(
        server.base + "/api/games", json={"mode": "mark", "players": ["A", "B"], "target": 1000}
    ).json()
    return created["id"], {"X-Game-Token": created["token"]}


def test_a_stream_on_one_worker_gets_the_changes_made_through_every_worker(
    served: Server,
) -> None:
    """Five strokes, each on a new connection (any worker takes it): a stream open on one
    worker gets them all (SQLite: by its watcher; PostgreSQL: by its listener)."""
    game, headers = _new_game(served)
    url = f"{served.base}/api/games/{game}/mark"
    seen: list[int] = []
    with httpx.stream("GET", f"{served.base}/api/games/{game}/events", timeout=HANG) as stream:
        lines = stream.iter_lines()
        for line in lines:  # the whole game first
            if line.startswith("id: "):
                seen.append(int(line[4:].split(":")[0]))
                break
        for _ in range(5):
            assert httpx.post(url, json=STROKE, headers=headers).status_code == 200
        for line in lines:
            if line.startswith("id: "):
                seen.append(int(line[4:].split(":")[0]))
                if seen[-1] >= seen[0] + 5:
                    break
    assert seen[-1] == seen[0] + 5
    assert seen == sorted(set(seen))  # in order, none twice


def test_a_worker_killed_leaves_the_game_to_the_other_and_is_replaced(served: Server) -> None:
    assert served.proc is not None
    parent = served.proc.pid
    game, headers = _new_game(served)
    url = f"{served.base}/api/games/{game}/mark"
    for _ in range(5):  # new connections each: both workers take some
        assert httpx.post(url, json=STROKE, headers=headers).status_code == 200
    victim = _workers(parent)[0]
    os.kill(victim, signal.SIGKILL)
    _until(lambda: victim not in _workers(parent), "the killed worker to be gone")
    for _ in range(5):  # the game goes on, whichever worker answers
        assert httpx.post(url, json=STROKE, headers=headers).status_code == 200
    _until(lambda: len(_workers(parent)) == 2, "a new worker")
    view = httpx.get(f"{served.base}/api/games/{game}").json()
    assert view["state"]["score"] == [30, 0]  # ten reds potted, each once
    served.stop()
    assert _workers(parent) == []  # SIGTERM stopped them all


#: A marker's changes for the catch-up property: taps of several kinds, an undo, a claim.
CHANGES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("mark", {"parts": ["pot_red"]}),
    ("mark", {"parts": ["no_score"]}),
    ("mark", {"parts": ["cannon", "pot_red"], "crossed_baulk": True}),
    ("mark", {"parts": ["miss"]}),
    ("undo", {}),
    ("claim", {"fouls": ["push"]}),
    ("choice", {"option": "as_they_lie"}),
)


def test_a_worker_one_change_behind_catches_up_without_replaying_the_game(
    two: tuple[Api, Api], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A property: whatever changes (taps, undos, claims, choices) are made through one
    worker, the other, reading after each, shows the same game, and judges only what
    changed (the game is read whole from its lines once)."""
    a, b = two
    games_b = b.app.state.games
    real = games_b._read
    reads: list[str] = []

    def counted(game_id: str, lines: Any) -> Any:
        reads.append(game_id)
        return real(game_id, lines)

    monkeypatch.setattr(games_b, "_read", counted)

    @settings(max_examples=20)
    @given(plan=st.lists(st.sampled_from(CHANGES), min_size=1, max_size=12))
    def check(plan: list[tuple[str, dict[str, Any]]]) -> None:
        game, token = a.new_mark(target=100_000)
        reads.clear()
        assert b.game(game) == a.game(game)
        for route, body in plan:
            r = a.post(f"/api/games/{game}/{route}", json=body, token=token)
            if r.status != 200:  # not legal here (nothing to undo, no foul to choose on)
                continue
            assert b.game(game) == a.game(game)
        assert reads == [game]

    check()


def test_a_tail_holds_only_what_a_session_one_change_behind_lacks(database: Any) -> None:
    """``Store.tail``: the row always; lines only when the game is one change past the
    revision given, and then from the first line the change touched (never the whole game
    of a session kept up to date)."""
    from onered.web.store import Mode, Store

    store = Store(database)
    game, _ = store.create(Mode.MARK, ["m", "a", "b", "c"], {}, {})
    row, start, lines = store.tail(game, 4, 0)  # type: ignore[misc]
    assert (row.revision, lines) == (0, [])
    with store.edit(game) as edit:  # an undo and a new line: from line 3 on
        edit.pop()
        edit.push("d")
    row, start, lines = store.tail(game, 4, 0)  # type: ignore[misc]
    assert (row.revision, start, lines) == (1, 3, ["d"])
    assert store.tail(game, 4, 1)[2] == []  # type: ignore[index]  # up to date
    with store.edit(game) as edit:
        edit.push("e")
    assert store.tail(game, 4, 0)[2] == []  # type: ignore[index]  # two behind: read whole
    assert store.tail("nope", 1, 0) is None
