"""The offline shell: a service worker keeps the pages, their files and the fixed data they
start from, so a page reloaded while the server cannot be reached still opens (the marker's
page then shows the last score the server confirmed and the taps waiting to be sent).

* ``GET /sw.js``: the worker (``static/sw.js`` after a line with :class:`Shell` as JSON),
  served from the site's root so that its scope is every page. It answers a page, a file of
  ``/static/`` and the fixed data (:data:`SHELL_DATA`) network-first, from its cache when the
  network fails; a game's data (the rest of ``/api/``) it never touches: the server is the
  one source, and the pages keep the last view it confirmed themselves.
* ``GET /shell/{page}``: a page as every URL of it is served (each page is the same HTML for
  every game: it reads the game from its URL), what the worker keeps for that page.

The worker's cache is named after :attr:`Shell.version`, a digest of everything it keeps, so
a changed file changes the worker's text: the browser installs the new worker, which fills a
new cache and drops the old ones.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import asdict, dataclass
from functools import cache

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, Response

from onered import __version__
from onered.texts import Lang
from onered.web import i18n
from onered.web.api_games import table_json
from onered.web.api_grammar import player_spec
from onered.web.pages import PAGES, STATIC_DIR, page, render

router = APIRouter(include_in_schema=False)

#: The worker's own file in ``static/``; served at :data:`WORKER_URL`.
WORKER_FILE = "sw.js"
#: Where the worker is served: the root, so its scope is the whole site.
WORKER_URL = "/sw.js"
#: Each page's URLs (as the routes spell them; ``{x}``: one path segment) and the page they
#: serve, the more particular first (``/board/room`` before ``/board/{game_id}``).
PAGE_ROUTES: tuple[tuple[str, str], ...] = (
    ("/", "index"),
    ("/mark/{game_id}", "mark"),
    ("/play/{game_id}", "play"),
    ("/watch/{game_id}", "watch"),
    ("/games/{game_id}", "game"),
    ("/board/room", "room"),
    ("/board/match/{match_id}", "board"),
    ("/board/{game_id}", "board"),
    ("/coach", "coach"),
    ("/matches/{match_id}", "match"),
    ("/players/{name}", "player"),
    ("/tournaments", "tournaments"),
    ("/tournaments/{tournament_id}/screen", "tournament_screen"),
    ("/tournaments/{tournament_id}/print", "tournament_print"),
    ("/tournaments/{tournament_id}", "tournament"),
    ("/ratings", "ratings"),
    ("/ratings/{name}", "ratings"),
    ("/signin", "signin"),
    ("/account", "account"),
    ("/register", "register"),
)
#: The fixed data the pages start from (their words, the players' grammar, the table): the
#: same for every game, so kept like the pages' files. No game's data is kept.
SHELL_DATA: tuple[str, ...] = (
    *(f"/api/i18n/{lang.value}" for lang in Lang),
    "/api/player-spec",
    "/api/table",
)


@dataclass(frozen=True, slots=True)
class Shell:
    """What the worker keeps: its cache's ``version``, the ``pages`` (``/shell/<name>``),
    the ``assets`` (every file of ``/static/`` but the worker), the fixed ``data``, and the
    ``routes`` (a URL's pattern as a regular expression, the page it serves)."""

    version: str
    pages: tuple[str, ...]
    assets: tuple[str, ...]
    data: tuple[str, ...]
    routes: tuple[tuple[str, str], ...]


def shell_url(name: str) -> str:
    """Where page ``name``'s shell is served."""
    return f"/shell/{name}"


def route_pattern(path: str) -> str:
    """A route's path as an anchored regular expression (``{x}``: one path segment)."""
    parts = re.split(r"\{\w+\}", path)
    return "^" + "[^/]+".join(re.escape(p) for p in parts) + "$"


def _data() -> dict[str, object]:
    """The fixed data by URL, as the API answers it."""
    out: dict[str, object] = {f"/api/i18n/{lang.value}": i18n.bundle(lang) for lang in Lang}
    out["/api/player-spec"] = player_spec()
    out["/api/table"] = table_json()
    return out


@cache
def shell() -> Shell:
    """The shell of this installation (once per process: the files are the package's)."""
    assets = tuple(
        f"/static/{p.name}"
        for p in sorted(STATIC_DIR.iterdir())
        if p.is_file() and p.name != WORKER_FILE
    )
    digest = hashlib.sha256(__version__.encode())
    for p in sorted(STATIC_DIR.iterdir()):
        if p.is_file():
            digest.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    for name in sorted(PAGES):
        digest.update(render(name).encode())
    digest.update(json.dumps(_data(), sort_keys=True).encode())
    return Shell(
        version=digest.hexdigest()[:16],
        pages=tuple(shell_url(name) for name in sorted(PAGES)),
        assets=assets,
        data=SHELL_DATA,
        routes=tuple((route_pattern(path), shell_url(name)) for path, name in PAGE_ROUTES),
    )


@cache
def worker_script() -> str:
    """The worker's text: its shell as JSON, then ``static/sw.js``."""
    head = f"const SHELL = {json.dumps(asdict(shell()), sort_keys=True)};\n"
    return head + (STATIC_DIR / WORKER_FILE).read_text(encoding="utf-8")


@router.get(WORKER_URL)
def worker() -> Response:
    """The service worker, for the whole site (asked again by the browser on every page's
    load: ``no-cache``)."""
    return Response(
        worker_script(),
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/shell/{name}")
def page_shell(name: str) -> HTMLResponse:
    """Page ``name`` as each of its URLs serves it (404 for no such page)."""
    if name not in PAGES:
        raise HTTPException(404, "Not Found")  # as a URL of no route
    return page(name)
