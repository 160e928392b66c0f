"""QR codes (segno) of this server's pages: to follow a table's game from a phone, to take a
game's marking or a seat on a phone, printed on score sheets and shown on the pages.

* ``GET /api/qr.svg?path=/tournaments/…/tables/3`` draws a public page's address (no
  ``#``: a secret never travels in a query, where logs keep it);
* ``POST /api/qr`` with ``{"path": "/mark/…#token=…"}`` draws an address that carries a
  secret in its fragment (the marker's or a seat's link), the answer never cached.

The address is this server's as the request reached it (its scheme and host) followed by the
``path``, which must be a path of this server (it starts with one ``/``).
"""

from __future__ import annotations

import io
from typing import Annotated

import segno
from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from onered.web.errors import ApiError

router = APIRouter()

#: Longest path drawn (a page's address with a secret is about 80 characters).
MAX_PATH = 300
SVG = "image/svg+xml"


def svg(text: str, title: str = "") -> str:
    """``text`` as a QR code, an SVG of black modules on white (error correction M, a
    quiet zone of 4 modules: what phones read from paper and screens)."""
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, xmldecl=False, title=title or None)
    return out.getvalue().decode("utf-8")


def address(request: Request, path: str) -> str:
    """This server's address of ``path`` (a path of this server, checked)."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        raise ApiError(
            422, f"path {path[:40]!r}: a path of this server, starting with /", "bad_path"
        )
    if any(ord(c) < 33 for c in path):
        raise ApiError(422, "path: no spaces or control characters", "bad_path")
    return str(request.base_url).rstrip("/") + path


@router.get("/api/qr.svg", response_class=Response)
def qr_of_page(
    request: Request, path: Annotated[str, Query(min_length=1, max_length=MAX_PATH)]
) -> Response:
    """A QR code of a public page of this server (SVG)."""
    if "#" in path:
        raise ApiError(
            422, "path: a secret (#…) is drawn by POST /api/qr, not in a query", "bad_path"
        )
    return Response(
        svg(address(request, path)),
        media_type=SVG,
        headers={"Cache-Control": "public, max-age=86400"},
    )


class QrBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    path: str = Field(min_length=1, max_length=MAX_PATH)


@router.post("/api/qr", response_class=Response)
def qr_of_secret(request: Request, body: QrBody) -> Response:
    """A QR code of a page of this server whose address may carry a secret (SVG)."""
    return Response(
        svg(address(request, body.path)), media_type=SVG, headers={"Cache-Control": "no-store"}
    )
