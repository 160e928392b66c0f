"""The web app's errors: every failure is answered as JSON the pages can show.

The body is ``{"error": english text, "code": "...", "params": {...}}``: ``error`` is for
people reading the raw answer and for logs; ``code`` names the pages' catalogue entry
``error.<code>`` (``onered.web.i18n``) and ``params`` fills its ``{placeholders}``, so a page
says it in its own language. ``code`` and ``params`` are left out when there are none.
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from onered.errors import OneredError


class ApiError(OneredError):
    """An error answered with an HTTP status as ``{"error", "code", "params"}``."""

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
        """The JSON answer."""
        out: dict[str, object] = {"error": self.message}
        if self.code is not None:
            out["code"] = self.code
        if self.params:
            out["params"] = self.params
        return out

    def response(self) -> JSONResponse:
        return JSONResponse(self.body(), status_code=self.status)


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
    """Answer every failure of ``app`` as JSON."""

    async def api_error(request: Request, exc: Exception) -> JSONResponse:
        if not isinstance(exc, ApiError):  # pragma: no cover - registered for ApiError only
            raise exc
        return exc.response()

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        """A fault of the server's own answered as JSON the pages can show (and retry),
        never as a bare page: the play page must not wait forever on it."""
        message = f"internal error: {type(exc).__name__}: {exc}"
        return ApiError(500, message, "server").response()

    async def invalid(request: Request, exc: Exception) -> JSONResponse:
        text = validation_message(exc) if isinstance(exc, RequestValidationError) else str(exc)
        return ApiError(422, text, "invalid", {"detail": text}).response()

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        status = exc.status_code if isinstance(exc, StarletteHTTPException) else 500
        detail = exc.detail if isinstance(exc, StarletteHTTPException) else str(exc)
        return JSONResponse({"error": str(detail)}, status_code=status)

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(Exception, unexpected)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, http_error)
