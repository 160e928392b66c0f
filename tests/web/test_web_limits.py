"""A server that can face the internet: bounded integers, security headers on every answer,
imports only from the same site and judged afresh, a cap on imports at once and a rate per
client (issue 18, item 5)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest

from web_support import P1, P2, Api, Reply

HUGE = ("9223372036854775808", "-9223372036854775809", "-1", "99999999999999999999999999999")
#: Values of the path parameters that name something that exists (filled in per test).
KNOWN = {"lang": "en", "name": P1, "seq": "1", "match_id": "nomatch", "stroke": "1"}


def raw(api: Api, method: str, path: str, **kw: Any) -> Reply:
    """One request whose server fault comes back as the answer (not raised in the test)."""

    async def one() -> Reply:
        transport = httpx.ASGITransport(app=api.app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            r = await client.request(method, path, **kw)
            try:
                body = r.json()
            except ValueError:
                body = None
            return Reply(r.status_code, body, r.text, dict(r.headers))

    return asyncio.run(one())


def _get_routes(api: Api) -> list[tuple[str, list[Mapping[str, Any]]]]:
    spec = api.get("/api/openapi.json").body
    return [
        (path, ops["get"].get("parameters", []))
        for path, ops in spec["paths"].items()
        if "get" in ops
    ]


def _numeric(param: Mapping[str, Any]) -> bool:
    schema = param.get("schema", {})
    kinds = {schema.get("type")} | {s.get("type") for s in schema.get("anyOf", [])}
    return bool(kinds & {"integer", "number"})


def test_huge_or_negative_integers_are_refused_by_name_never_a_500(api: Api) -> None:
    """Every GET route of the schema, each parameter in turn given a huge or negative
    number: never a 500, and a refusal names the parameter."""
    game, _ = api.new_mark()
    known = {**KNOWN, "game_id": game, "game": game}
    tried = 0
    for path, params in _get_routes(api):
        for target in (p for p in params if _numeric(p)):
            for value in HUGE:
                url, query = path, {}
                for p in params:
                    v = value if p is target else known.get(p["name"], "1" if _numeric(p) else None)
                    if v is None:
                        continue
                    if p["in"] == "path":
                        url = url.replace("{" + p["name"] + "}", v)
                    elif p["in"] == "query":
                        query[p["name"]] = v
                if path.endswith("/events") and target["name"] != "timeout":
                    query["timeout"] = "0.01"  # a stream that ends at once
                r = raw(api, "GET", url, params=query)
                tried += 1
                assert r.status < 500, (url, query, r.text)
                if r.status == 422 and r.body.get("code") == "invalid":
                    assert target["name"] in r.body["error"], (url, query, r.text)
    assert tried > 20


@pytest.mark.parametrize("route", ["/api/games", "/api/find"])
def test_the_offset_of_the_finding_is_a_422_naming_it(api: Api, route: str) -> None:
    r = api.get(f"{route}?offset=9223372036854775808")
    assert r.status == 422
    assert r.body["code"] == "invalid"
    assert r.error.startswith("offset:")
    assert "OverflowError" not in r.text


async def _chunks() -> Any:
    """A body without a length (sent chunked)."""
    yield b"{}"


def _boom() -> None:
    raise RuntimeError("secret detail of the server")


@pytest.mark.parametrize(
    ("method", "path", "kw", "status"),
    [
        ("GET", "/api/no-such-route", {}, 404),
        ("GET", "/api/games/nosuchgame", {}, 404),
        ("GET", "/api/games?offset=-1", {}, 422),
        ("POST", "/api/games", {"content": b"x" * (300 * 1024)}, 413),
        ("POST", "/api/games", {"content": _chunks()}, 411),
        ("GET", "/api/boom", {}, 500),
        ("GET", "/", {}, 200),
    ],
)
def test_every_answer_carries_the_security_headers(
    api: Api, method: str, path: str, kw: dict[str, Any], status: int
) -> None:
    """The headers come with the answers middleware makes itself (411, 413) and with a
    server's fault (500), as with any other."""
    from onered.web.app import SECURITY_HEADERS

    api.app.add_api_route("/api/boom", _boom)
    r = raw(api, method, path, **kw)
    assert r.status == status, r.text
    for name, value in SECURITY_HEADERS.items():
        assert r.headers.get(name.lower()) == value, (name, r.headers)
    if status == 500:
        assert r.body["code"] == "server"
        assert "secret detail" not in r.text


# --- imports: from this site only, judged afresh ------------------------------------------

FORGED_VERDICT = {
    "stroke": 1,
    "striker": P1,
    "ball": "white",
    "from_d": True,
    "points": 99,
    "scored": {"cannon": 99},
    "foul": None,
    "score": {P1: 99, P2: 0},
    "break": 99,
    "visit_over": False,
    "next": P1,
}


def _forged() -> str:
    lines = [
        {"type": "match", "target": 100, "players": [P1, P2], "opening": {"score": {P1: 50}}},
        {"type": "stroke", "first_hit": "red", "verdict": FORGED_VERDICT},
    ]
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_an_imported_files_verdicts_are_judged_again_never_trusted(api: Api) -> None:
    """The finding: a forged verdict showed 99 points on a player's page while the game
    read 0:0. The stored game and the player's page both read the referee's score."""
    r = api.post("/api/import", content=_forged())
    assert r.status == 201, r.text
    game = r.body["id"]
    assert r.body["game"]["state"]["score"] == [0, 0]
    view = api.get(f"/api/games/{game}").body
    assert view["state"]["score"] == [0, 0]
    assert all("verdict" not in line["in"] for line in view["log"])
    record = api.get(f"/api/games/{game}/record.jsonl").text
    assert "99" not in record
    page = api.get(f"/api/players/{P1}").body
    (row,) = page["games"]
    assert row["score"] == [0, 0]
    assert row["points"] == 0
    assert row["top_break"] == 0
    assert page["totals"]["points"] == 0
    assert page["totals"]["highest_break"] == 0


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site", "Content-Type": "text/plain"},
        {"Sec-Fetch-Site": "same-site", "Content-Type": "text/plain"},
        {"Origin": "http://evil.example", "Content-Type": "text/plain"},
        {"Origin": "http://evil.example", "Content-Type": "multipart/form-data; boundary=x"},
        {"Origin": "null", "Content-Type": "application/x-www-form-urlencoded"},
    ],
)
def test_an_import_from_another_sites_page_is_refused(api: Api, headers: dict[str, str]) -> None:
    r = api.post("/api/import", content=_forged(), headers=headers)
    assert r.status == 403, r.text
    assert r.body["code"] == "cross_site"
    assert api.get("/api/games").body["total"] == 0


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a program (curl, a script): no browser page behind it
        {"Sec-Fetch-Site": "same-origin", "Content-Type": "text/plain; charset=utf-8"},
        {"Sec-Fetch-Site": "none"},  # typed in by the user
        {"Origin": "http://test", "Content-Type": "text/plain"},  # an older browser
        {"Origin": "https://club.example", "X-Forwarded-Host": "club.example"},  # a proxy
    ],
)
def test_an_import_from_the_sites_own_page_or_a_program_is_taken(
    api: Api, headers: dict[str, str]
) -> None:
    r = api.post("/api/import", content=_forged(), headers=headers)
    assert r.status == 201, r.text


# --- a rate per client, a cap on imports at once ------------------------------------------


class Clock:
    """A clock the test moves (no sleeping)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[tuple[Api, Clock]]:
    """The app with small limits and a clock of the test's."""
    from onered.web.app import Limits, create_app

    clock = Clock()
    limits = Limits(creations_per_minute=3, imports_per_minute=2, concurrent_imports=1)
    app = create_app(tmp_path / "data", limits, clock)
    yield Api(app), clock
    app.state.store.close()


NEW = {"mode": "mark", "players": [P1, P2]}


def test_creating_games_faster_than_the_rate_is_refused_with_retry_after(
    limited: tuple[Api, Clock],
) -> None:
    api, clock = limited
    assert [api.post("/api/games", json=NEW).status for _ in range(3)] == [201] * 3
    r = api.post("/api/games", json=NEW)
    assert r.status == 429
    assert r.body["code"] == "rate_limited"
    assert r.headers["retry-after"] == "20"  # one game every 20 s at 3 a minute
    assert r.body["message"] == "Too many requests from this device: try again in 20 s."
    ru = api.post("/api/games", json=NEW, headers={"Accept-Language": "ru"})
    assert ru.body["message"].startswith("Слишком много запросов")
    assert api.get("/api/games").body["total"] == 3
    clock.now += 19
    assert api.post("/api/games", json=NEW).status == 429
    clock.now += 1
    assert api.post("/api/games", json=NEW).status == 201
    assert api.post("/api/games", json=NEW).status == 429
    clock.now += 600  # a long pause refills the bucket, no more than full
    assert [api.post("/api/games", json=NEW).status for _ in range(4)] == [201] * 3 + [429]


def test_matches_share_the_creation_rate_and_imports_have_their_own(
    limited: tuple[Api, Clock],
) -> None:
    api, _ = limited
    for _ in range(3):
        assert api.post("/api/games", json=NEW).status == 201
    assert api.post("/api/matches", json={"players": [P1, P2]}).status == 429
    statuses = [api.post("/api/import", content=_forged()).status for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert api.get("/api/games").body["total"] == 5


def test_the_rate_is_per_client() -> None:
    from onered.web.limits import RateLimiter

    clock = Clock()
    limiter = RateLimiter(2, clock)
    assert [limiter.wait("a") for _ in range(3)] == [0, 0, 30]
    assert limiter.wait("b") == 0
    clock.now += 30
    assert limiter.wait("a") == 0


def test_an_import_over_the_cap_at_once_is_refused_busy(limited: tuple[Api, Clock]) -> None:
    """With the one import allowed at a time under way, another is refused at once (503
    busy, Retry-After), not queued; once it is done, the next is taken."""
    api, _ = limited
    with api.app.state.import_gate.hold():
        r = api.post("/api/import", content=_forged())
        assert r.status == 503
        assert r.body["code"] == "busy"
        assert r.headers["retry-after"] == "5"
        assert r.body["message"] == "The server is busy with other imports: try again in 5 s."
    assert api.post("/api/import", content=_forged()).status == 201
