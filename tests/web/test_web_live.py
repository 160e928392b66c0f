"""Live views pushed as server-sent events: every change once, with its revision; a
reconnecting client gets what it missed. Every stream here ends by ``max`` or ``timeout``."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from web_support import P1, P2, Api


def events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The ``(id, data)`` of each ``game`` event of a stream."""
    out = []
    for block in text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if fields.get("event") == "game":
            out.append((fields["id"], json.loads(fields["data"])))
    return out


def test_a_new_client_is_sent_the_whole_game_first(api: Api) -> None:
    game, token = api.new_mark()
    api.mark(game, token, parts=["pot_red"])
    r = api.get(f"/api/games/{game}/events?max=1&timeout=5")
    assert r.status == 200
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.text.startswith("retry: ")
    [(event_id, view)] = events(r.text)
    assert view["log_from"] == 0
    assert len(view["log"]) == 2
    assert event_id == f"{view['revision']}:2"
    assert view["state"]["score"] == [3, 0]


def test_a_change_is_pushed_with_only_the_new_line(api: Api) -> None:
    game, token = api.new_mark()
    current = api.game(game)
    query = f"?since=1&revision={current['revision']}&max=1&timeout=10"

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=api.app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            listening = asyncio.create_task(client.get(f"/api/games/{game}/events{query}"))
            await asyncio.sleep(0.3)
            r = await client.post(
                f"/api/games/{game}/mark",
                json={"parts": ["pot_red"]},
                headers={"X-Game-Token": token},
            )
            assert r.status_code == 200, r.text
            return await listening

    r = asyncio.run(run())
    [(event_id, view)] = events(r.text)
    assert view["revision"] == current["revision"] + 1
    assert event_id == f"{view['revision']}:2"
    assert view["log_from"] == 1
    assert [e["seq"] for e in view["log"]] == [1]
    assert view["log"][0]["out"]["scored"] == {"pot_red": 3}


def test_a_client_at_the_current_revision_is_sent_nothing(api: Api) -> None:
    game, _ = api.new_mark()
    current = api.game(game)
    r = api.get(f"/api/games/{game}/events?since=1&revision={current['revision']}&timeout=0.3")
    assert r.status == 200
    assert events(r.text) == []


def test_a_reconnecting_client_gets_what_it_missed(api: Api) -> None:
    game, token = api.new_mark()
    first = api.game(game)
    api.mark(game, token, parts=["no_score"])
    api.mark(game, token, parts=["pot_red"])
    last_id = f"{first['revision']}:1"
    r = api.get(f"/api/games/{game}/events?max=1&timeout=5", headers={"Last-Event-ID": last_id})
    [(event_id, view)] = events(r.text)
    assert event_id == f"{first['revision'] + 2}:3"
    assert view["state"]["score"] == [0, 3]
    # two changes behind: the whole log is sent again (nothing is missed)
    assert view["log_from"] == 0
    assert [e["seq"] for e in view["log"]] == [0, 1, 2]
    assert view["match"]["players"] == [P1, P2]


def test_an_unknown_game_has_no_stream(api: Api) -> None:
    r = api.get("/api/games/nope/events?max=1&timeout=1")
    assert r.status == 404
    assert r.body["code"] == "no_game"
