"""The OpenAPI schema describing every answer (``GET /api/openapi.json``), errors included.

FastAPI documents a route's success and its own 422 (a shape onered never sends); the
error answers — every one ``{"error", "message", "code", "params"}`` (``onered.web.errors``)
— are added here, in one place, to every operation: :class:`ErrorBody` as the shape, and
for each operation the statuses it can answer (:func:`statuses`), each described by the
error codes :data:`errors.STATUS` maps to it. A schemathesis run in the tests checks the
app against it (``tests/web/test_web_openapi.py``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel

from onered.web import errors, idempotency


class ErrorBody(BaseModel):
    """Every error answer: English ``error`` for logs, ``message`` in the request's
    language, the error's ``code`` and its ``params`` (left out when it has none)."""

    error: str
    message: str
    code: str | None = None  # always sent by onered; absent only from a bare HTTP error
    params: dict[str, Any] | None = None


#: Statuses every operation can answer: its input refused (422), a fault of the server's.
ALWAYS = (422, 500)
#: Statuses of a request with a body: too large (413), chunked where a length is needed
#: (411), a body that stalled (408).
WITH_BODY = (408, 411, 413)
#: Statuses by operation beyond those: ``(method, path)`` -> statuses.
SPECIAL: Mapping[tuple[str, str], tuple[int, ...]] = {
    ("post", "/api/games"): (429,),
    ("post", "/api/matches"): (429,),
    ("post", "/api/tournaments"): (401, 403),  # a club's tournament: its admin, signed in
    ("post", "/api/import"): (403, 429, 503),
    ("get", "/api/games/{game_id}/events"): (429,),
    ("get", "/api/games/{game_id}/seat"): (401, 403),
    ("get", "/api/games/{game_id}/shots/{seq}"): (409,),  # a stroke not played here
    ("get", "/api/coach/position"): (404,),  # ?game= names no game
    ("post", "/api/account/signin"): (429,),  # too many sign-ins (web.accounts)
    ("post", "/api/account/password"): (429,),
}
#: The accounts' and the register's paths (``onered.web.api_accounts``, ``api_register``).
ACCOUNT_PATHS = ("/api/account/", "/api/clubs", "/api/register")
#: Operations whose success is not JSON: ``(method, path)`` -> its media type.
MEDIA: Mapping[tuple[str, str], str] = {
    ("get", "/api/games/{game_id}/export.jsonl"): "application/x-ndjson",
    ("get", "/api/games/{game_id}/record.jsonl"): "application/x-ndjson",
    ("get", "/api/games/{game_id}/events"): "text/event-stream",
    ("get", "/api/qr.svg"): "image/svg+xml",
    ("post", "/api/qr"): "image/svg+xml",
}
#: The header that makes a change safe to send again (``onered.web.idempotency``).
IDEMPOTENCY_KEY: Mapping[str, Any] = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "a key made once per change (a UUID): a repeat gets the first answer",
    "schema": {"type": "string", "maxLength": idempotency.MAX_KEY},
}
#: Sent with a kept answer given again.
REPLAYED: Mapping[str, Any] = {
    "description": "true: the kept answer to an earlier request with this key",
    "required": False,
    "schema": {"type": "string", "enum": ["true"]},
}
#: A path naming a thing that may not exist: 404.
_NAMED = re.compile(r"\{[^}]+\}")


def statuses(method: str, path: str) -> list[int]:
    """The error statuses operation ``method path`` can answer."""
    found = set(ALWAYS)
    if method in ("post", "put", "patch", "delete"):
        found.update(WITH_BODY)
    if _NAMED.search(path):
        found.add(404)
    changes = path.startswith(
        ("/api/games/{game_id}", "/api/matches/{match_id}", "/api/tournaments/{tournament_id}")
    )
    if method in ("post", "delete") and changes:
        found.update((401, 403, 409))  # a secret wanted, or wrong; the game not in a state
    if path.startswith(ACCOUNT_PATHS) and (method != "get" or path.endswith("/accounts")):
        found.update((401, 403))  # signed out, not allowed, no CSRF token (web.accounts)
        if method in ("post", "patch"):
            found.add(409)  # the e-mail, the club's or the player's name is taken
    found.update(SPECIAL.get((method, path), ()))
    return sorted(found)


def _description(status: int) -> str:
    """The status's name and the error codes answered with it."""
    codes = sorted(code for code, s in errors.STATUS.items() if s == status)
    if status == 422:
        codes = sorted({*codes, "invalid", "... (a refusal of the game's rules)"})
    name = HTTPStatus(status).phrase
    return f"{name}: " + ", ".join(codes) if codes else name


def describe(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (FastAPI's) with :class:`ErrorBody` and every operation's error answers."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["ErrorBody"] = ErrorBody.model_json_schema(
        ref_template="#/components/schemas/{model}"
    )
    for name in ("HTTPValidationError", "ValidationError"):
        components.pop(name, None)  # FastAPI's 422 shape: onered answers ErrorBody instead
    ref = {"$ref": "#/components/schemas/ErrorBody"}
    for path, operations in schema.get("paths", {}).items():
        for method, operation in operations.items():
            if method == "post" and idempotency.CHANGE.match(
                path.replace("{", "").replace("}", "")
            ):
                operation.setdefault("parameters", []).append(IDEMPOTENCY_KEY)
                for answer in operation.get("responses", {}).values():
                    answer.setdefault("headers", {})["Idempotent-Replayed"] = REPLAYED
            answers = operation.setdefault("responses", {})
            media = MEDIA.get((method, path))
            if media is not None:  # FastAPI says JSON for every route without a model
                answers["200"]["content"] = {media: {"schema": {"type": "string"}}}
            for status in statuses(method, path):
                answers[str(status)] = {
                    "description": _description(status),
                    "content": {"application/json": {"schema": ref}},
                }
    return schema


def install(app: FastAPI) -> None:
    """Serve ``app``'s schema with every answer described (made once, on first request)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = describe(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    description=app.description,
                    routes=app.routes,
                )
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
