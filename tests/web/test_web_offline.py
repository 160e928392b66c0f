"""The offline shell (issue 18, item 2), served side: the service worker at the site's root
with what it keeps — every page's shell, every static file, the fixed data — each of which
the server answers; every page's URL maps to the shell it serves; a game's data is not kept.
The browser side is test_web_offline_browser.py."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.responses import RedirectResponse
from fastapi.routing import APIRoute
from hypothesis import given
from hypothesis import strategies as st

from onered.web import offline
from onered.web.app import SECURITY_HEADERS
from onered.web.pages import PAGES, STATIC_DIR, render
from web_support import Api


def served_shell(api: Api) -> dict[str, Any]:
    """The worker's SHELL, read from its first line."""
    r = api.get(offline.WORKER_URL)
    head = r.text.split("\n", 1)[0]
    m = re.fullmatch(r"const SHELL = (\{.*\});", head)
    assert m, head
    shell: dict[str, Any] = json.loads(m.group(1))
    return shell


def test_the_worker_is_served_from_the_root_as_a_script_asked_again_each_time(api: Api) -> None:
    r = api.get("/sw.js")
    assert r.status == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assert r.headers["service-worker-allowed"] == "/"
    for name, value in SECURITY_HEADERS.items():  # the content policy allows it: 'self'
        assert r.headers[name.lower()] == value
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.text.endswith((STATIC_DIR / offline.WORKER_FILE).read_text(encoding="utf-8"))


def test_the_worker_keeps_every_page_file_and_fixed_datum_and_the_server_has_each(
    api: Api,
) -> None:
    shell = served_shell(api)
    assert re.fullmatch(r"[0-9a-f]{16}", shell["version"])
    assert shell["pages"] == [f"/shell/{name}" for name in sorted(PAGES)]
    files = {p.name for p in STATIC_DIR.iterdir() if p.is_file()} - {offline.WORKER_FILE}
    assert {a.removeprefix("/static/") for a in shell["assets"]} == files
    assert shell["data"] == list(offline.SHELL_DATA)
    for name in sorted(PAGES):
        r = api.get(f"/shell/{name}")
        assert r.status == 200
        assert r.text == render(name)
    for url in shell["assets"] + shell["data"]:
        assert api.get(url).status == 200, url
    assert api.get("/api/i18n/ru").body == api.get("/api/i18n/ru").body
    # nothing of a game: its data is the server's alone
    assert not [u for u in shell["data"] if "/games" in u or "/matches" in u]


def test_a_shell_of_no_page_is_not_found(api: Api) -> None:
    assert api.get("/shell/nothing").status == 404
    assert api.get("/shell/layout").status == 404


def flat(routes: Sequence[Any]) -> Iterator[Any]:
    """The routes, those of included routers among them (FastAPI keeps a router included
    whole, its routes under ``original_router``)."""
    for r in routes:
        inner = getattr(r, "original_router", None)
        yield from flat(inner.routes) if inner is not None else (r,)


def test_every_pages_url_maps_to_the_shell_it_serves(api: Api) -> None:
    """Each page route of the app, with real ids, serves the HTML of the shell its URL maps
    to in the worker; no page route is left out of the worker's map."""
    game, _ = api.new_mark()
    match = api.new_match()["id"]
    made = api.post("/api/tournaments", json={"name": "Cup"})
    assert made.status == 201, made.text
    tournament = made.body["id"]
    ids = {"game_id": game, "match_id": match, "name": "Ivanov", "tournament_id": tournament}
    routes = served_shell(api)["routes"]
    page_paths = {
        r.path
        for r in flat(api.app.routes)
        if isinstance(r, APIRoute)
        and "GET" in r.methods
        and not r.path.startswith(("/api/", "/shell/", "/static"))
        and r.path != offline.WORKER_URL
        and r.response_class is not RedirectResponse  # a table's QR code: a redirect
    }
    assert page_paths == {path for path, _ in offline.PAGE_ROUTES}
    for path in sorted(page_paths):
        url = re.sub(r"\{(\w+)\}", lambda m: ids[m.group(1)], path)
        served = api.get(url)
        assert served.status == 200, url
        shell = next(s for pattern, s in routes if re.search(pattern, url))
        assert served.text == api.get(shell).text, url


def test_a_changed_file_changes_the_workers_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    static = tmp_path / "static"
    shutil.copytree(STATIC_DIR, static)
    monkeypatch.setattr(offline, "STATIC_DIR", static)
    offline.shell.cache_clear()
    try:
        before = offline.shell().version
        offline.shell.cache_clear()
        assert offline.shell().version == before  # the same files: the same cache
        (static / "style.css").write_text("body { color: red; }\n", encoding="utf-8")
        offline.shell.cache_clear()
        assert offline.shell().version != before
    finally:
        offline.shell.cache_clear()


#: A path segment as a URL's pathname has it: no slash, no control character (those are
#: percent-encoded).
segment = st.text(
    alphabet=st.characters(blacklist_characters="/", blacklist_categories=("Cs", "Cc")),
    min_size=1,
)


@given(segment, segment)
def test_a_routes_pattern_takes_one_segment_per_field(first: str, second: str) -> None:
    pattern = re.compile(offline.route_pattern("/mark/{game_id}"))
    assert pattern.search(f"/mark/{first}")
    assert not pattern.search(f"/mark/{first}/{second}")
    assert not pattern.search(f"/x/mark/{first}")
    assert not pattern.search("/mark/")
    room = re.compile(offline.route_pattern("/board/room"))
    assert room.search("/board/room")
    assert not room.search(f"/board/room{first}")
