"""Group commit (``onered.web.commits``): the writes of many threads share one transaction
and one fsync, each answered only once committed; one write's error reaches only its own
writer; every acknowledged change is stored, in order, once — also after a kill -9."""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.game.marking import Mark, Part
from onered.game.session import Session
from onered.rules import Match
from onered.web.commits import GroupCommit
from onered.web.db import Conn, ConstraintError, Database, ddl, statements
from onered.web.games import Games
from onered.web.store import ConflictError, Mode, Store, StoreError
from onered.web.view import summary_json
from web_support import P1, P2, Api, Server

SCHEMA = """
CREATE TABLE parent (id INTEGER PRIMARY KEY);
CREATE TABLE child (
    id INTEGER PRIMARY KEY,
    parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED
);
CREATE TABLE item (writer INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (writer, n));
"""


class Db:
    """Tables of the test's own behind a :class:`GroupCommit`, in ``database`` (a path:
    an SQLite file there)."""

    def __init__(self, database: Database | Path) -> None:
        self.db = database if isinstance(database, Database) else Database(database)
        with self.db.write() as conn:
            for statement in statements(ddl(SCHEMA, self.db.dialect)):
                conn.execute(statement)
        self.commits = GroupCommit(self.db, lambda exc: StoreError(f"lost: {exc}"))

    def items(self) -> set[tuple[int, int]]:
        with self.db.read() as conn:
            rows = conn.execute("SELECT writer, n FROM item").fetchall()
        return {(int(a), int(b)) for a, b in rows}


def insert(writer: int, n: int, fail: bool = False) -> Callable[[Conn], int]:
    """A write adding ``(writer, n)``; with ``fail``, it raises after writing."""

    def work(conn: Conn) -> int:
        conn.execute("INSERT INTO item (writer, n) VALUES (?, ?)", (writer, n))
        if fail:
            raise ValueError(f"write {writer}/{n} refused")
        return n

    return work


def hold_a_group(db: Db) -> tuple[threading.Event, threading.Thread]:
    """A first write being committed (its group held open) until the event is set: writes
    handed over meanwhile queue for the next group. The event, and the leader's thread."""
    release = threading.Event()

    def first(conn: Conn) -> int:
        release.wait(30)
        return -1

    leader = threading.Thread(target=db.commits.run, args=(first,))
    leader.start()
    while not db.commits.leading():
        time.sleep(0.001)
    return release, leader


def run_queued_behind(db: Db, writes: list[Callable[[Conn], int]]) -> list[object]:
    """Run ``writes`` from threads of their own while a first write holds the group being
    committed until all of them are queued: they then form the next group, together. Each
    thread's outcome (what its write returned, or the error it got), in order."""
    outcomes: list[object] = [None] * len(writes)

    def writer(k: int) -> None:
        try:
            outcomes[k] = db.commits.run(writes[k])
        except Exception as exc:
            outcomes[k] = exc

    release, leader = hold_a_group(db)
    threads = [threading.Thread(target=writer, args=(k,)) for k in range(len(writes))]
    for t in threads:
        t.start()
    while db.commits.queued() < len(writes):
        time.sleep(0.001)
    release.set()
    for t in [leader, *threads]:
        t.join(30)
    return outcomes


def test_writes_queued_together_are_committed_in_one_group(database: Database) -> None:
    db = Db(database)
    outcomes = run_queued_behind(db, [insert(k, 0) for k in range(20)])
    assert outcomes == [0] * 20
    assert db.items() == {(k, 0) for k in range(20)}
    assert (db.commits.groups, db.commits.writes) == (2, 21)  # the first alone, then the 20


def test_a_failing_write_loses_only_itself(database: Database) -> None:
    db = Db(database)
    writes = [insert(k, 0, fail=k == 3) for k in range(8)]
    outcomes = run_queued_behind(db, writes)
    assert isinstance(outcomes[3], ValueError)
    assert str(outcomes[3]) == "write 3/0 refused"
    assert [o for k, o in enumerate(outcomes) if k != 3] == [0] * 7
    assert db.items() == {(k, 0) for k in range(8) if k != 3}  # its own insert undone
    assert db.commits.groups == 2


def test_a_write_whose_statement_fails_loses_only_itself(database: Database) -> None:
    """A statement's own error (here a duplicate key) is its write's, not the group's."""
    writes = [insert(k, 0) for k in range(4)] + [insert(2, 0), insert(4, 0)]
    outcomes = run_queued_behind(Db(database), writes)
    assert isinstance(outcomes[4], ConstraintError)
    assert [o for k, o in enumerate(outcomes) if k != 4] == [0] * 5


def test_a_write_alone_that_fails_gets_its_own_error_and_leaves_nothing(
    database: Database,
) -> None:
    """A group of one write runs without a savepoint: its own error undoes it all, and it
    gets that error, not the group's."""
    db = Db(database)
    with pytest.raises(ValueError, match="write 1/0 refused"):
        db.commits.run(insert(1, 0, fail=True))
    db.commits.run(insert(2, 0))
    with pytest.raises(ConstraintError):  # a statement's own error, the second time
        db.commits.run(insert(2, 0))
    assert db.commits.run(insert(3, 0)) == 0
    assert db.items() == {(2, 0), (3, 0)}


def test_a_group_that_cannot_be_committed_fails_every_write_of_it(database: Database) -> None:
    db = Db(database)

    def orphan(conn: Conn) -> int:  # fails only at COMMIT (a deferred key)
        conn.execute("INSERT INTO child (id, parent) VALUES (1, 99)")
        return 0

    outcomes = run_queued_behind(db, [insert(0, 0), orphan, insert(1, 0)])
    assert all(isinstance(o, StoreError) and "lost" in str(o) for o in outcomes)
    assert db.items() == set()
    assert db.commits.run(insert(2, 0)) == 0  # the next group is committed as usual
    assert db.items() == {(2, 0)}


@settings(max_examples=25)
@given(
    plan=st.lists(
        st.lists(st.booleans(), min_size=1, max_size=6),  # per writer: its writes, failing?
        min_size=1,
        max_size=6,
    )
)
def test_any_interleaving_stores_exactly_the_acknowledged_writes(
    tmp_path_factory: pytest.TempPathFactory, plan: list[list[bool]]
) -> None:
    db = Db(tmp_path_factory.mktemp("g") / "t.sqlite3")
    acknowledged: set[tuple[int, int]] = set()
    refused: set[tuple[int, int]] = set()
    guard = threading.Lock()

    def writer(w: int) -> None:
        for n, fail in enumerate(plan[w]):
            try:
                assert db.commits.run(insert(w, n, fail)) == n
            except ValueError:
                with guard:
                    refused.add((w, n))
            else:
                with guard:
                    acknowledged.add((w, n))

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(len(plan))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert refused == {(w, n) for w, ws in enumerate(plan) for n, f in enumerate(ws) if f}
    assert db.items() == acknowledged
    assert db.commits.writes == sum(len(ws) for ws in plan)


class Settled:
    """The outcomes of writes handed over without waiting (``GroupCommit.add``), by name."""

    def __init__(self) -> None:
        self.outcomes: dict[str, BaseException | None] = {}
        self.event = threading.Event()

    def __call__(self, name: str) -> Callable[[BaseException | None], None]:
        def settled(error: BaseException | None) -> None:
            self.outcomes[name] = error
            self.event.set()

        return settled


def test_a_write_added_while_idle_waits_for_a_flush(tmp_path: Path) -> None:
    db = Db(tmp_path / "t.sqlite3")
    settled = Settled()
    assert db.commits.add(insert(0, 0), settled("a")) is True  # nobody commits: flush
    assert db.items() == set()
    assert settled.outcomes == {}
    db.commits.flush()
    assert settled.outcomes == {"a": None}
    assert db.items() == {(0, 0)}
    db.commits.flush()  # nothing queued: nothing done
    assert db.commits.groups == 1


def test_a_write_added_during_a_group_goes_with_the_next_one(tmp_path: Path) -> None:
    db = Db(tmp_path / "t.sqlite3")
    settled = Settled()
    release, leader = hold_a_group(db)
    assert db.commits.add(insert(0, 0), settled("kept")) is False  # the leader sees to it
    assert db.commits.add(insert(1, 0, fail=True), settled("refused")) is False
    db.commits.flush()  # a group is being committed: leaves the queue to it
    assert settled.outcomes == {}
    release.set()
    leader.join(30)
    assert set(settled.outcomes) == {"kept", "refused"}
    assert settled.outcomes["kept"] is None
    assert isinstance(settled.outcomes["refused"], ValueError)
    assert db.items() == {(0, 0)}
    assert (db.commits.groups, db.commits.writes) == (2, 3)  # the leader led the next group


def test_writes_added_and_waited_for_are_committed_together(tmp_path: Path) -> None:
    db = Db(tmp_path / "t.sqlite3")
    settled = Settled()
    release, leader = hold_a_group(db)
    db.commits.add(insert(0, 0), settled("kept"))
    waiting = threading.Thread(target=db.commits.run, args=(insert(1, 0),))
    waiting.start()
    while db.commits.queued() < 2:
        time.sleep(0.001)
    release.set()
    for t in (leader, waiting):
        t.join(30)
    assert settled.outcomes == {"kept": None}
    assert db.items() == {(0, 0), (1, 0)}
    assert (db.commits.groups, db.commits.writes) == (2, 3)


@settings(max_examples=25)
@given(
    plan=st.lists(
        st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=6),
        min_size=1,
        max_size=6,
    )
)
def test_writes_waited_for_or_not_are_stored_exactly_when_acknowledged(
    tmp_path_factory: pytest.TempPathFactory, plan: list[list[tuple[bool, bool]]]
) -> None:
    """Per writer, writes (waited for?, failing?): those not waited for are flushed when no
    group was being committed; every write is settled once, stored iff acknowledged."""
    db = Db(tmp_path_factory.mktemp("g") / "t.sqlite3")
    settled = Settled()
    acknowledged: set[tuple[int, int]] = set()
    guard = threading.Lock()

    def writer(w: int) -> None:
        for n, (waited, fail) in enumerate(plan[w]):
            if waited:
                try:
                    db.commits.run(insert(w, n, fail))
                except ValueError:
                    continue
                with guard:
                    acknowledged.add((w, n))
            elif db.commits.add(insert(w, n, fail), settled(f"{w}/{n}")):
                db.commits.flush()

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(len(plan))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    added = {f"{w}/{n}" for w, ws in enumerate(plan) for n, (wait, _) in enumerate(ws) if not wait}
    deadline = time.monotonic() + 30
    while set(settled.outcomes) != added and time.monotonic() < deadline:
        time.sleep(0.001)
    assert set(settled.outcomes) == added
    for name, error in settled.outcomes.items():
        if error is None:
            w, n = name.split("/")
            acknowledged.add((int(w), int(n)))
    assert db.items() == acknowledged
    assert db.commits.writes == sum(len(ws) for ws in plan)


# --- the store and the games ------------------------------------------------------------

#: Taps legal in every position they come to, taken in this order round and round.
TAPS = (
    Mark(parts=frozenset({Part.NO_SCORE})),
    Mark(parts=frozenset({Part.POT_RED})),
    Mark(parts=frozenset({Part.CANNON})),
    Mark(parts=frozenset({Part.POT_RED})),
    Mark(parts=frozenset({Part.NO_SCORE})),
)


def new_game(store: Store) -> str:
    session = Session.new(Match(target=100_000, players=(P1, P2)))
    game_id, _ = store.create(Mode.MARK, session.texts(), {}, summary_json(session))
    return game_id


def expected_lines(taps: list[int]) -> list[str]:
    """The lines a game holds after ``taps`` (indexes into :data:`TAPS`), judged alone."""
    session = Session.new(Match(target=100_000, players=(P1, P2)))
    for k in taps:
        session.mark(TAPS[k])
    return session.texts()


def test_concurrent_markers_each_find_their_strokes_in_order_once(database: Database) -> None:
    store = Store(database)
    games = Games(store)
    ids = [new_game(store) for _ in range(8)]
    plan = {g: [n % len(TAPS) for n in range(10 + k)] for k, g in enumerate(ids)}
    errors: list[BaseException] = []

    def marker(game_id: str) -> None:
        try:
            for n, k in enumerate(plan[game_id]):
                games.change(game_id, 1 + n, lambda s, k=k: s.mark(TAPS[k]))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=marker, args=(g,)) for g in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    again = Store(Database(database.url))  # read back on connections of its own
    for g in ids:
        assert again.lines(g) == expected_lines(plan[g])
        row = again.game(g)
        assert row is not None
        assert row.revision == len(plan[g])
    again.db.close()


def test_two_devices_marking_one_game_never_double_a_stroke(tmp_path: Path) -> None:
    """Changes of one game from two threads are made one at a time: each is judged on the
    other's result (no ``after``), none lost, none twice."""
    store = Store(tmp_path)
    games = Games(store)
    game_id = new_game(store)

    def device() -> None:
        for _ in range(10):
            games.change(game_id, None, lambda s: s.mark(TAPS[0]))

    threads = [threading.Thread(target=device) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert store.lines(game_id) == expected_lines([0] * 20)


def test_a_change_made_meanwhile_by_another_process_is_a_conflict(database: Database) -> None:
    store = Store(database)
    other = Store(Database(database.url))  # its own connections, as another process's
    game_id = new_game(store)
    stroke = expected_lines([0])[1]
    with (  # noqa: PT012 - the other change is made inside this one
        pytest.raises(ConflictError, match="you saw 1 lines, the game now has 2"),
        store.edit(game_id) as edit,
    ):
        edit.push(stroke)
        with other.edit(game_id) as theirs:
            theirs.push(stroke)
    assert store.lines(game_id) == expected_lines([0])
    other.db.close()


def test_an_edit_pops_and_pushes_as_one_change(tmp_path: Path) -> None:
    store = Store(tmp_path)
    game_id = new_game(store)
    lines = expected_lines([0, 1])
    with store.edit(game_id) as edit:
        edit.push(lines[1])
        edit.push(lines[2])
    with store.edit(game_id, 3) as edit:
        assert edit.pop() == lines[2]
        assert edit.pop() == lines[1]
        edit.push(lines[1])
        assert edit.lines == tuple(lines[:2])
        assert edit.pop() == lines[1]
        edit.push("x")
    assert store.lines(game_id) == [lines[0], "x"]
    row = store.game(game_id)
    assert row is not None
    assert (row.revision, row.changed_from) == (2, 1)
    assert edit.row == row  # the row as the change left it, read in its group


# --- the secret's check, from memory once shown ---------------------------------------------


def test_a_secret_shown_once_is_checked_from_memory_and_still_refuses_others(
    api: Api, tmp_path: Path
) -> None:
    game, token = api.new_mark()
    assert api.mark(game, token, parts=["no_score"], after=1).status == 200  # shown: kept
    games: Games = api.app.state.games
    assert games.secret_known(game, token)
    assert not games.secret_known(game, token + "x")
    assert api.mark(game, token + "x", parts=["no_score"], after=2).status == 403
    assert api.mark(game, "", parts=["no_score"], after=2).status == 401
    assert api.mark(game, token, parts=["no_score"], after=2).status == 200


def test_a_game_deleted_elsewhere_is_not_found_though_its_secret_is_known(
    api: Api, tmp_path: Path
) -> None:
    game, token = api.new_mark()
    assert api.mark(game, token, parts=["no_score"], after=1).status == 200
    other = Store(Database(api.app.state.db.url))  # another process deletes it
    assert other.delete(game)
    other.close()
    r = api.mark(game, token, parts=["no_score"], after=2)
    assert r.status == 404, r.text
    assert r.body["code"] == "no_game"


def test_a_deleted_game_forgets_its_secret(api: Api) -> None:
    game, token = api.new_mark()
    assert api.mark(game, token, parts=["no_score"], after=1).status == 200
    assert api.request("DELETE", f"/api/games/{game}", token=token).status in (200, 204)
    assert not api.app.state.games.secret_known(game, token)
    assert api.mark(game, token, parts=["no_score"], after=2).status == 404


# --- kill -9 ------------------------------------------------------------------------------


@pytest.mark.slow
def test_every_acknowledged_stroke_survives_kill_9(tmp_path: Path) -> None:
    """Markers tap their games through a real server, which is killed (SIGKILL) while they
    do: reopened, every game holds every stroke whose answer its marker got, in order."""
    server = Server(tmp_path / "data")
    server.start()
    markers = 6
    try:
        made = []
        for _ in range(markers):
            r = httpx.post(
                server.base + "/api/games",
                json={"mode": "mark", "players": [P1, P2], "target": 100_000},
                timeout=30,
            )
            assert r.status_code == 201, r.text
            made.append((r.json()["id"], r.json()["token"]))
        answered = dict.fromkeys((g for g, _ in made), 1)  # lines each marker was answered
        sent: dict[str, list[int]] = {g: [] for g, _ in made}
        stop = threading.Event()

        def marker(game_id: str, token: str) -> None:
            with httpx.Client(base_url=server.base, timeout=30) as client:
                n = 0
                while not stop.is_set():
                    k = n % len(TAPS)
                    sent[game_id].append(k)
                    try:
                        r = client.post(
                            f"/api/games/{game_id}/mark",
                            json={"parts": [p.value for p in TAPS[k].parts], "after": 1 + n},
                            headers={"X-Game-Token": token, "Idempotency-Key": str(uuid.uuid4())},
                        )
                    except httpx.HTTPError:
                        return  # the server is gone
                    assert r.status_code == 200, r.text
                    answered[game_id] = r.json()["game"]["state"]["version"]
                    n += 1

        threads = [threading.Thread(target=marker, args=pair) for pair in made]
        for t in threads:
            t.start()
        while sum(answered.values()) < markers * 30:  # strokes are being stored
            time.sleep(0.01)
        server.kill()
        stop.set()
        for t in threads:
            t.join(60)
    finally:
        server.stop()
    store = Store(tmp_path / "data")
    for game_id, _ in made:
        lines = store.lines(game_id)
        assert len(lines) >= answered[game_id]  # every acknowledged stroke is there ...
        assert lines == expected_lines(sent[game_id][: len(lines) - 1])  # ... in order, once
        with store.db.read() as conn:
            keys = conn.execute(
                "SELECT COUNT(*) FROM idempotency WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
        assert keys == len(lines) - 1  # each stored stroke with its key
    assert json.loads(store.lines(made[0][0])[0])["type"] == "match"
