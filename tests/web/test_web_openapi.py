"""The OpenAPI schema describes every answer (issue 18 item 5): schemathesis generates
requests for every operation of ``/api/openapi.json`` and sends them to the app in-process
(ASGI); no answer may be a server's fault, nor differ from the schema (its status, content
type, headers and body). Bounded by a few examples an operation for the fast tier."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from starlette.types import Receive, Scope, Send

from onered.web import openapi
from onered.web.app import create_app
from onered.web.games import TOKEN_HEADER
from onered.web.limits import Limits
from web_support import P1, P2, REPO, Api

#: Generous limits: the run is not a client to be slowed down.
LIMITS = Limits(creations_per_minute=10_000, imports_per_minute=10_000)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
#: Examples an operation: enough to reach each answer's shape, few enough for the fast tier.
EXAMPLES = int(os.environ.get("ONERED_OPENAPI_EXAMPLES", "12"))


def _app(data: Path) -> Any:
    return create_app(data, LIMITS)


@dataclass(frozen=True)
class Known:
    """Things the store holds, so that generated requests reach the answers of success
    too: games by kind with their secrets, a match with its secret, a player's name."""

    games: tuple[tuple[str, str], ...]
    match: tuple[str, str]
    player: str = P1


def _seed(app: Any) -> Known:
    api = Api(app)
    marked, marked_token = api.new_mark()
    for parts in (["pot_red"], ["no_score"], ["cannon"]):
        r = api.post(f"/api/games/{marked}/mark", json={"parts": parts}, token=marked_token)
        assert r.status == 200, r.text
    played = api.post("/api/games", json={"mode": "play", "players": [P1, P2]})
    assert played.status == 201, played.text
    imported = api.post("/api/import", content=(REPO / "examples" / "game.jsonl").read_bytes())
    assert imported.status == 201, imported.text
    match = api.new_match()
    return Known(
        games=(
            (marked, marked_token),
            (played.body["id"], played.body["token"]),
            (imported.body["id"], imported.body["token"]),
            (match["game"]["id"], match["game"]["token"]),
        ),
        match=(match["id"], match["token"]),
    )


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    made = _app(tmp_path_factory.mktemp("openapi") / "data")
    made.state.known = _seed(made)
    yield made
    made.state.store.close()


#: Operations left to generated ids only: a stream of a game that exists never ends, a
#: deletion would take the known games from the others.
UNKNOWN_ONLY = {"GET /api/games/{game_id}/events", "DELETE /api/games/{game_id}"}


def _cases(operation: Any, known: Known, label: str) -> st.SearchStrategy[Any]:
    """Generated requests of ``operation``, most naming a known game (match, player) with
    its secret."""
    generated = operation.as_strategy()
    if label in UNKNOWN_ONLY:
        return generated

    def name_known(pair: tuple[Any, tuple[int, bool]]) -> Any:
        case, (pick, secret) = pair
        params = case.path_parameters or {}
        game, token = known.games[pick]
        if "game_id" in params:
            params["game_id"] = game
        if "match_id" in params:
            params["match_id"], token = known.match
        if "name" in params:
            params["name"] = known.player
        if case.query and "game" in case.query:
            case.query["game"] = game
        if secret and params:
            case.headers = {**(case.headers or {}), TOKEN_HEADER: token}
        return case

    picks = st.tuples(st.integers(0, len(known.games) - 1), st.booleans())
    return st.one_of(generated, st.tuples(generated, picks).map(name_known))


def _without_lifespan(app: Any) -> Any:
    """``app`` whose lifespan is answered without running it: schemathesis's client starts
    and stops the app around every request, and stopping closes its store."""

    async def asgi(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        while True:
            message = await receive()
            await send({"type": message["type"] + ".complete"})
            if message["type"] == "lifespan.shutdown":
                return

    return asgi


def _labels() -> list[str]:
    """Every operation of the schema, ``METHOD /path`` (read from an app on a folder of
    its own, at collection)."""
    with tempfile.TemporaryDirectory() as folder:
        described = _app(Path(folder) / "data").openapi()
    return [f"{m.upper()} {p}" for p, ops in described["paths"].items() for m in ops]


@pytest.mark.parametrize("label", _labels())
def test_every_answer_is_described(app: Any, label: str) -> None:
    schema = schemathesis.openapi.from_asgi("/api/openapi.json", _without_lifespan(app))
    operation = schema.find_operation_by_label(label)
    assert operation is not None

    @given(case=_cases(operation, app.state.known, label))
    @settings(
        max_examples=EXAMPLES,
        suppress_health_check=list(HealthCheck),
        deadline=None,
        derandomize=True,
        database=None,
    )
    def answers(case: schemathesis.Case) -> None:
        case.call_and_validate(checks=CHECKS)

    answers()


def test_every_operation_describes_its_errors(app: Any) -> None:
    described = app.openapi()  # type: ignore[attr-defined]
    assert "ErrorBody" in described["components"]["schemas"]
    for path, operations in described["paths"].items():
        for method, operation in operations.items():
            answers = operation["responses"]
            for status in openapi.statuses(method, path):
                body = answers[str(status)]["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/ErrorBody"}
