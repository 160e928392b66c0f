"""Live views pushed, not polled (issue 18, item 3): one change wakes every stream of its
game once, and no other; another process's change is found by the one watcher; a client
holds a bounded number of streams; ``end_streams`` ends them all; a client that leaves is
let go. The streams are driven through the ASGI interface directly, so that each event is
seen as it is sent (nothing here waits for a clock: a timeout only guards against a hang)."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from db_support import database_of
from onered.cli.serve import listen
from onered.web import api_live
from onered.web.app import create_app
from onered.web.limits import Limits
from onered.web.notify import Hub
from onered.web.store import Store
from web_support import Api

#: Seconds a test may wait for something that must happen (a hang guard, not a measure).
HANG = 30.0


class Stream:
    """One request to the app, its answer's messages collected as they are sent; the
    client stays until :meth:`leave`."""

    def __init__(self, app: Any, url: str, client: str = "10.0.0.1") -> None:
        parts = urlsplit(url)
        self.app = app
        self.scope = {
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
            "client": (client, 50000),
            "server": ("test", 80),
        }
        self.messages: list[dict[str, Any]] = []
        self._news = asyncio.Event()
        self._gone = asyncio.Event()
        self._asked = False
        self.task = asyncio.create_task(self.app(self.scope, self._receive, self._send))

    async def _receive(self) -> dict[str, Any]:
        if not self._asked:
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self._gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self._news.set()

    @property
    def status(self) -> int | None:
        starts = [m for m in self.messages if m["type"] == "http.response.start"]
        return int(starts[0]["status"]) if starts else None

    @property
    def text(self) -> str:
        return b"".join(m.get("body", b"") for m in self.messages[1:]).decode()

    @property
    def ended(self) -> bool:
        return any(
            m["type"] == "http.response.body" and not m.get("more_body", False)
            for m in self.messages
        )

    def events(self) -> list[dict[str, Any]]:
        """The data of each ``game`` event sent so far."""
        out = []
        for block in self.text.split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
            if fields.get("event") == "game":
                out.append(json.loads(fields["data"]))
        return out

    async def until(self, done: Any) -> None:
        """Wait until ``done()`` holds (it is checked after each message)."""
        async with asyncio.timeout(HANG):
            while not done():
                self._news.clear()
                await self._news.wait()

    async def leave(self) -> None:
        """The client goes away; the request's task ends."""
        self._gone.set()
        async with asyncio.timeout(HANG):
            await self.task


async def following(hub: Hub, want: dict[str, int]) -> None:
    """Wait until the hub's followed games are ``want`` (game -> streams)."""
    async with asyncio.timeout(HANG):
        while hub.followed() != want:
            await asyncio.sleep(0.01)


def mark(api: Api, game: str, token: str) -> None:
    r = api.mark(game, token, parts=["pot_red"])
    assert r.status == 200, r.text


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[Api]:
    """The app with two streams per client."""
    app = create_app(tmp_path / "data", limits=Limits(streams_per_client=2))
    yield Api(app)
    app.state.store.close()


def test_one_change_reaches_each_stream_of_its_game_once_and_no_other(api: Api) -> None:
    game, token = api.new_mark()
    other, _ = api.new_mark()
    revision = api.game(game)["revision"]
    hub: Hub = api.app.state.games.hub
    views = 0
    view_since = api.app.state.games.view_since

    def counted(*args: Any) -> Any:
        nonlocal views
        views += 1
        return view_since(*args)

    api.app.state.games.view_since = counted

    async def run() -> tuple[list[Stream], list[Stream]]:
        query = f"?since=1&revision={revision}"
        mine = [Stream(api.app, f"/api/games/{game}/events{query}") for _ in range(5)]
        rest = [
            Stream(api.app, f"/api/games/{other}/events?since=1&revision={revision}")
            for _ in range(2)
        ]
        await following(hub, {game: 5, other: 2})
        await asyncio.to_thread(mark, api, game, token)
        for s in mine:
            await s.until(lambda s=s: len(s.events()) >= 1)
        await asyncio.sleep(0.2)  # room for a second event, if one were coming
        for s in mine + rest:
            await s.leave()
        return mine, rest

    mine, rest = asyncio.run(run())
    for s in mine:
        [view] = s.events()
        assert view["revision"] == revision + 1
        assert [e["seq"] for e in view["log"]] == [1]
    assert all(s.status == 200 and s.events() == [] for s in rest)
    assert views == 1  # the five streams at the same point shared one view
    assert hub.followed() == {}


def test_a_change_by_another_process_reaches_the_streams(api: Api, tmp_path: Path) -> None:
    game, token = api.new_mark()
    revision = api.game(game)["revision"]
    hub: Hub = api.app.state.games.hub
    hub.tick = 0.05
    # the same folder or database, as a second server would
    second = create_app(tmp_path / "data", database=database_of(api.app))

    async def run() -> list[Stream]:
        streams = [
            Stream(api.app, f"/api/games/{game}/events?since=1&revision={revision}")
            for _ in range(3)
        ]
        await following(hub, {game: 3})
        await asyncio.to_thread(mark, Api(second), game, token)
        for s in streams:
            await s.until(lambda s=s: len(s.events()) >= 1)
            await s.leave()
        return streams

    try:
        streams = asyncio.run(run())
    finally:
        second.state.db.close()
    for s in streams:
        [view] = s.events()
        assert view["revision"] == revision + 1
        assert view["state"]["score"] == [3, 0]


def test_a_deleted_game_ends_its_streams(api: Api) -> None:
    game, token = api.new_mark()

    async def run() -> list[Stream]:
        streams = [Stream(api.app, f"/api/games/{game}/events") for _ in range(2)]
        await following(api.app.state.games.hub, {game: 2})
        r = await asyncio.to_thread(api.request, "DELETE", f"/api/games/{game}", token=token)
        assert r.status == 200, r.text
        for s in streams:
            await s.until(lambda s=s: s.ended)
        return streams

    for s in asyncio.run(run()):
        assert len(s.events()) == 1  # the whole game, first; then the stream ended


def test_a_client_holds_a_bounded_number_of_streams(capped: Api) -> None:
    game, _ = capped.new_mark()
    url = f"/api/games/{game}/events"
    hub: Hub = capped.app.state.games.hub

    async def run() -> None:
        held = [Stream(capped.app, url, "10.0.0.1") for _ in range(2)]
        await following(hub, {game: 2})
        refused = Stream(capped.app, url, "10.0.0.1")
        await refused.until(lambda: refused.ended)
        assert refused.status == 429
        body = json.loads(refused.text)
        assert body["code"] == "too_many_streams"
        assert body["params"] == {"most": 2}
        assert hub.followed() == {game: 2}
        elsewhere = Stream(capped.app, url, "10.0.0.2")  # another device
        await following(hub, {game: 3})
        await held[0].leave()  # one is closed: the client may open another
        await following(hub, {game: 2})
        again = Stream(capped.app, url, "10.0.0.1")
        await following(hub, {game: 3})
        assert again.status == 200
        for s in (held[1], elsewhere, again):
            await s.leave()
        assert capped.app.state.stream_slots.held("10.0.0.1") == 0

    asyncio.run(run())


def test_end_streams_ends_every_stream_at_once(api: Api) -> None:
    games = [api.new_mark()[0] for _ in range(3)]
    hub: Hub = api.app.state.games.hub

    async def run() -> list[Stream]:
        streams = [
            Stream(api.app, f"/api/games/{g}/events", f"10.0.0.{k}")
            for k, g in enumerate(games * 4)
        ]
        await following(hub, dict.fromkeys(games, 4))
        for s in streams:
            await s.until(lambda s=s: len(s.events()) == 1)
        api_live.end_streams()
        for s in streams:
            await s.until(lambda s=s: s.ended)
            await s.leave()
        late = Stream(api.app, f"/api/games/{games[0]}/events")  # the server is stopping
        await late.until(lambda: late.ended)
        return streams

    asyncio.run(run())
    assert hub.followed() == {}


def test_a_client_that_leaves_is_let_go(api: Api) -> None:
    game, _ = api.new_mark()
    hub: Hub = api.app.state.games.hub

    async def run() -> None:
        s = Stream(api.app, f"/api/games/{game}/events")
        await s.until(lambda: len(s.events()) == 1)
        await s.leave()
        assert hub.followed() == {}
        assert api.app.state.stream_slots.held("10.0.0.1") == 0

    asyncio.run(run())


@given(
    st.lists(st.one_of(st.none(), st.integers(min_value=0, max_value=20)), max_size=12),
    st.integers(min_value=0, max_value=20),
)
def test_the_hub_keeps_the_newest_revision_and_a_deletion(
    tmp_path_factory: pytest.TempPathFactory, changes: list[int | None], start: int
) -> None:
    store = Store(tmp_path_factory.mktemp("hub"))
    try:
        hub = Hub(store, tick=3600.0)
        with hub.following("g", start) as follow:
            expected: int | None = start
            for change in changes:
                hub.changed("g", change)
                if expected is not None:
                    expected = None if change is None else max(expected, change)
                assert follow.revision == expected
            hub.changed("other", 5)  # a game nobody follows: nothing to tell
            assert hub.followed() == {"g": 1}
        assert hub.followed() == {}
        hub.close()
    finally:
        store.close()


def test_the_servers_connections_send_without_waiting_for_acks() -> None:
    """``onered serve``'s socket says TCP, so asyncio turns off Nagle's algorithm on each
    connection (an answer in two parts would otherwise wait for the client's delayed ACK)."""
    sock = listen("127.0.0.1", 0)
    assert sock.proto == socket.IPPROTO_TCP

    async def run() -> int:
        accepted: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        def connected(_: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            raw = writer.get_extra_info("socket")
            accepted.set_result(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(connected, sock=sock)
        async with server:
            _, writer = await asyncio.open_connection(*sock.getsockname()[:2])
            async with asyncio.timeout(HANG):
                nodelay = await accepted
            writer.close()
        return nodelay

    assert asyncio.run(run()) != 0
