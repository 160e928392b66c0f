"""The web app's errors, mapped to HTTP in one place: every failure is answered as JSON.

Every error onered raises on purpose derives from :class:`onered.errors.OneredError` (a
``code``, an English ``message``, ``params``); :func:`install` registers one handler for
that root, so a route lets the game core's refusals rise and never re-wraps them. The
status comes from the error's code (:data:`STATUS`; a refusal of bad input is 422 unless
the table says otherwise); :class:`ApiError`, the web's own errors (a missing secret, no
such game), carries its status itself.

The body is ``{"error": english text, "message": text in the user's language, "code": ...,
"params": {...}}``: ``error`` is for logs and for people reading the raw answer; ``message``
is the catalogue's ``error.<code>`` (``onered.web.i18n``) in the language the request's
``Accept-Language`` prefers, filled with ``params`` as the pages fill it, or ``error`` when
the catalogue has no such entry; ``code`` and ``params`` let a page say it in its own
language (``params`` is left out when there are none).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from onered.errors import OneredError
from onered.texts import Lang
from onered.web import i18n

#: HTTP status of each error code that is not a plain refusal of bad input (422).
STATUS: Mapping[str, int] = {
    # the game or the match is not in a state to take this change
    **dict.fromkeys(
        (
            "over",
            "no_undo",
            "claim_none",
            "claim_foul",
            "played",
            "not_played",
            "computer_turn",
            "not_computer",
            "ai_failed",
            "not_your_turn",
            "not_two_players",
            "no_takeback",
            "stale",
            "match_over",
            "game_on",
            "in_match",
        ),
        409,
    ),
    **dict.fromkeys(("no_game", "no_match", "no_line", "no_player"), 404),
    **dict.fromkeys(("no_token", "no_secret", "no_match_token"), 401),
    **dict.fromkeys(("bad_token", "bad_secret", "bad_match_token", "cross_site"), 403),
    "rate_limited": 429,  # too many creations or imports from one client: Retry-After
    "busy": 503,  # as many imports as the server judges at once: Retry-After
    **dict.fromkeys(("too_large", "file_too_large"), 413),
    "length_required": 411,
    "body_timeout": 408,  # a request body that stalled (onered.web.limits.BodyTimeout)
    "idempotency_mismatch": 422,  # an Idempotency-Key sent again with another request
    **dict.fromkeys(("server", "broken", "store"), 500),
}


class ApiError(OneredError):
    """An error of the web layer's own, answered with its HTTP ``status``."""

    default_code = "api"

    def __init__(
        self,
        status: int,
        message: str,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message, code=code, params=params)
        self.status = status

    def body(self) -> dict[str, object]:
        """The JSON answer in English."""
        return body(self, Lang.EN)

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status)


def status_of(error: OneredError) -> int:
    """The HTTP status an error is answered with."""
    if isinstance(error, ApiError):
        return error.status
    return STATUS.get(error.code, 422)


@cache
def _catalogue(lang: Lang) -> tuple[Mapping[str, str], Mapping[str, str], Mapping[str, str]]:
    """The pages' error texts, ball names and reasons in ``lang`` (``i18n.bundle``)."""
    b = i18n.bundle(lang)
    ui, balls, reasons = b["ui"], b["balls"], b["reasons"]
    if not (isinstance(ui, dict) and isinstance(balls, dict) and isinstance(reasons, dict)):
        raise TypeError("i18n.bundle: expected ui, balls and reasons tables")  # pragma: no cover
    return ui, balls, reasons


class _Params(dict[str, object]):
    """A template's values; a placeholder without one is left as written."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def error_text(code: str, params: Mapping[str, object], lang: Lang) -> str | None:
    """The catalogue's words for error ``code`` in ``lang``, filled with ``params`` as the
    pages fill them (balls named, ``{why}`` from a rules' reason), or ``None`` when the
    catalogue has no entry ``error.<code>``."""
    ui, balls, reasons = _catalogue(lang)
    template = ui.get(f"error.{code}")
    if template is None:
        return None
    values = _Params({k: balls.get(v, v) if isinstance(v, str) else v for k, v in params.items()})
    reason = params.get("reason")
    if isinstance(reason, str) and reason in reasons:
        ball = balls.get(str(params.get("ball", "")), "")
        values["why"] = reasons[reason].format(ball=ball, ball_cap=ball[:1].upper() + ball[1:])
    return template.format_map(values)


def body(error: OneredError, lang: Lang) -> dict[str, object]:
    """The JSON answer to ``error`` for a user of ``lang``."""
    english = str(error)  # the message with the prefix some families add (``line 3:``)
    params = dict(error.params)
    words = _catalogue(Lang.EN)[0].get(f"error.{error.code}", "")
    if "detail" not in params and "{detail}" in words:
        params["detail"] = english  # the English words where the catalogue wants them
    text = error_text(error.code, params, lang)
    out: dict[str, object] = {
        "error": english,
        "message": english if text is None else text,
        "code": error.code,
    }
    if params:
        out["params"] = params
    return out


def lang_of(request: Request) -> Lang:
    """The language the request's ``Accept-Language`` prefers among the pages' (English
    when it names none of them)."""
    known = {lang.value: lang for lang in Lang}
    ranked: list[tuple[float, int, Lang]] = []
    for k, item in enumerate(request.headers.get("accept-language", "").split(",")):
        tag, _, rest = item.strip().partition(";")
        q = 1.0
        if rest.strip().startswith("q="):
            try:
                q = float(rest.strip()[2:])
            except ValueError:
                q = 0.0
        lang = known.get(tag.strip().split("-")[0].lower())
        if lang is not None and q > 0:
            ranked.append((-q, k, lang))
    return min(ranked)[2] if ranked else Lang.EN


def answer(request: Request, error: OneredError) -> JSONResponse:
    """The HTTP answer to ``error`` (with ``Retry-After`` when it says when to try again)."""
    retry = getattr(error, "retry_after", None)
    headers = {"Retry-After": str(retry)} if isinstance(retry, int) else None
    return JSONResponse(
        body(error, lang_of(request)), status_code=status_of(error), headers=headers
    )


def not_found(game_id: str) -> ApiError:
    """The answer for a game id that names no game."""
    return ApiError(404, f"game {game_id!r}: no such game", "no_game", {"id": game_id})


def validation_message(exc: RequestValidationError) -> str:
    """Pydantic's complaints about a request, one ``field: message`` each."""
    parts = []
    for err in exc.errors():
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path", "header")]
        where = ".".join(loc) or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


def install(app: FastAPI) -> None:
    """Answer every failure of ``app`` as JSON: onered's errors by their code, a request
    the models refuse as ``invalid``, anything else as the server's own fault."""

    async def onered_error(request: Request, exc: Exception) -> JSONResponse:
        if not isinstance(exc, OneredError):  # pragma: no cover - registered for it only
            raise exc
        return answer(request, exc)

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        """A fault of the server's own answered as JSON the pages can show (and retry),
        never as a bare page: the play page must not wait forever on it."""
        # the exception's own words stay in the server's log: they may tell too much
        message = f"internal error: {type(exc).__name__}"
        return answer(request, ApiError(500, message, "server"))

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        text = validation_message(exc) if isinstance(exc, RequestValidationError) else str(exc)
        return answer(request, ApiError(422, text, "invalid", {"detail": text}))

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        status = exc.status_code if isinstance(exc, StarletteHTTPException) else 500
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else str(exc)
        return JSONResponse({"error": str(detail), "message": str(detail)}, status_code=status)

    app.add_exception_handler(OneredError, onered_error)
    app.add_exception_handler(Exception, unexpected)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
