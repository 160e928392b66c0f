"""The player register: the players a federation's clubs enter in games, matches,
tournaments and ratings, each under one name.

A player is ``{id, name, club_id, rating, created}``: the name is checked as a game checks
a player's name (``onered.game.validate.name``) and is unique in the register, casefolded
(games, matches, tournaments and ratings refer to a player by the name he is entered
under); the club may be none; the rating is optional (a seed, e.g. for a draw).

* ``GET /api/register?q=&club=&offset=&limit=``: players by name (``q``: a part of the
  name, any case), of one club if asked; open to everyone.
* ``GET /api/register/{id}``; ``GET /api/register/by-name/{name}``.
* ``POST /api/register`` ``{name, club_id, rating}`` (the club's admin; a federation admin
  for a player of no club): 201 with the player; 409 ``player_taken`` for a name there.
* ``PATCH /api/register/{id}`` (fields to change; ``null`` clears the club or the rating),
  ``DELETE /api/register/{id}``: the admin of the player's club (and of the new one).
* ``POST /register`` (a form with the hidden ``csrf_token``): adds a player, then back to
  the page; ``GET /register``: the page.
"""

from __future__ import annotations

import contextlib
import math
import urllib.parse
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import Field
from starlette.concurrency import run_in_threadpool

from onered.game import validate
from onered.web.accounts import AccountError, Role, accounts_of, new_id, require
from onered.web.db import Conn, ConstraintError, Database
from onered.web.models import Body
from onered.web.pages import page

#: Lowest and highest rating accepted (Elo's scale and well beyond).
MIN_RATING = 0.0
MAX_RATING = 5000.0
#: Most players in one page of the list.
MAX_LIMIT = 500

router = APIRouter()
Id = Annotated[str, PathParam(min_length=1, max_length=64)]


@dataclass(frozen=True, slots=True)
class Player:
    """A player of the register."""

    id: str
    name: str
    club_id: str | None
    rating: float | None
    created: float

    def json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "club_id": self.club_id,
            "rating": self.rating,
            "created": self.created,
        }


def name_key(name: str) -> str:
    """The form in which two names are the same player (white space made single, casefolded)."""
    return " ".join(name.split()).casefold()


def check_rating(raw: object) -> float | None:
    """A rating: ``None``, or a finite number from :data:`MIN_RATING` to :data:`MAX_RATING`."""
    if raw is None:
        return None
    if (
        isinstance(raw, bool)
        or not isinstance(raw, int | float)
        or not math.isfinite(raw)
        or not MIN_RATING <= raw <= MAX_RATING
    ):
        raise AccountError(
            422,
            f"rating: a number from {MIN_RATING:g} to {MAX_RATING:g}",
            "bad_rating",
            {"min": MIN_RATING, "max": MAX_RATING},
        )
    return float(raw)


def player_taken(name: str) -> AccountError:
    return AccountError(
        409, f"{name}: a player of this name is in the register", "player_taken", {"name": name}
    )


def no_player(player_id: str) -> AccountError:
    return AccountError(
        404, f"player {player_id!r}: not in the register", "not_registered", {"id": player_id}
    )


def _player(r: Any) -> Player:
    rating = r["rating"]
    return Player(
        id=str(r["id"]),
        name=str(r["name"]),
        club_id=None if r["club_id"] is None else str(r["club_id"]),
        rating=None if rating is None else float(rating),
        created=float(r["created"]),
    )


_COLUMNS = "id, name, club_id, rating, created"


class Register:
    """The players of ``db``'s register (table ``register_players``, migration 0010)."""

    def __init__(self, db: Database, clock: Any) -> None:
        self.db = db
        self.clock = clock

    @staticmethod
    def _taken(c: Conn, key: str, name: str, other_than: str = "") -> None:
        r = c.execute(
            "SELECT id FROM register_players WHERE name_key = ? AND id <> ?", (key, other_than)
        ).fetchone()
        if r is not None:
            raise player_taken(name)

    @staticmethod
    def _club_exists(c: Conn, club_id: str | None) -> None:
        if (
            club_id is not None
            and not c.execute("SELECT 1 FROM clubs WHERE id = ?", (club_id,)).fetchone()
        ):
            raise AccountError(404, f"club {club_id!r}: no such club", "no_club", {"id": club_id})

    def add(self, name: object, club_id: str | None, rating: object = None) -> Player:
        """A new player (409 ``player_taken`` when the name, casefolded, is there)."""
        clean = validate.name(name, "name")
        player = Player(new_id(), clean, club_id, check_rating(rating), self.clock())
        with self.db.write() as c:
            self._club_exists(c, club_id)
            self._taken(c, name_key(clean), clean)
            try:
                c.execute(
                    "INSERT INTO register_players (id, name, name_key, club_id, rating, created)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (player.id, clean, name_key(clean), club_id, player.rating, player.created),
                )
            except ConstraintError as exc:  # entered by another process in between
                raise player_taken(clean) from exc
        return player

    def get(self, player_id: str) -> Player:
        with self.db.read() as c:
            r = c.execute(
                f"SELECT {_COLUMNS} FROM register_players WHERE id = ?", (player_id,)
            ).fetchone()
        if r is None:
            raise no_player(player_id)
        return _player(r)

    def named(self, name: str) -> Player | None:
        """The player entered under ``name`` (any case, any runs of white space), if any."""
        with self.db.read() as c:
            r = c.execute(
                f"SELECT {_COLUMNS} FROM register_players WHERE name_key = ?", (name_key(name),)
            ).fetchone()
        return None if r is None else _player(r)

    def find(
        self, q: str = "", club_id: str | None = None, offset: int = 0, limit: int = 100
    ) -> tuple[list[Player], int]:
        """Players whose name holds ``q`` (any case), of club ``club_id`` when given, by
        name: the page from ``offset`` and how many there are in all."""
        where, params = ["1 = 1"], []
        if q.strip():
            pattern = name_key(q).replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append("name_key LIKE ? ESCAPE '\\'")
            params.append(f"%{pattern}%")
        if club_id is not None:
            where.append("club_id = ?")
            params.append(club_id)
        cond = " AND ".join(where)
        with self.db.read() as c:
            total = int(
                c.execute(f"SELECT COUNT(*) FROM register_players WHERE {cond}", params).fetchone()[
                    0
                ]
            )
            rows = c.execute(
                f"SELECT {_COLUMNS} FROM register_players WHERE {cond}"
                " ORDER BY name_key LIMIT ? OFFSET ?",
                [*params, limit, offset],
            ).fetchall()
        return [_player(r) for r in rows], total

    def edit(self, player_id: str, changes: dict[str, Any]) -> Player:
        """The player with ``changes`` made (``name``, ``club_id``, ``rating``)."""
        old = self.get(player_id)
        name = validate.name(changes["name"], "name") if "name" in changes else old.name
        club_id = changes.get("club_id", old.club_id)
        rating = check_rating(changes["rating"]) if "rating" in changes else old.rating
        new = Player(old.id, name, club_id, rating, old.created)
        with self.db.write() as c:
            self._club_exists(c, club_id)
            self._taken(c, name_key(name), name, other_than=old.id)
            try:
                n = c.execute(
                    "UPDATE register_players SET name = ?, name_key = ?, club_id = ?, rating = ?"
                    " WHERE id = ?",
                    (name, name_key(name), club_id, rating, old.id),
                ).rowcount
            except ConstraintError as exc:  # the name entered by another process in between
                raise player_taken(name) from exc
            if n == 0:
                raise no_player(player_id)
        return new

    def remove(self, player_id: str) -> None:
        with self.db.write() as c:
            if c.execute("DELETE FROM register_players WHERE id = ?", (player_id,)).rowcount == 0:
                raise no_player(player_id)


def register_of(request: Request) -> Register:
    """The app's register (over the accounts' database)."""
    accounts = accounts_of(request.app)
    return Register(accounts.db, accounts.clock)


class NewPlayer(Body):
    name: str = Field(max_length=1000)
    club_id: str | None = Field(default=None, max_length=64)
    rating: float | None = None


class PlayerChange(Body):
    name: str | None = Field(default=None, max_length=1000)
    club_id: str | None = Field(default=None, max_length=64)
    rating: float | None = None


def _may_keep(request: Request, club_id: str | None) -> None:
    """Refuse unless the signed-in account keeps the players of ``club_id`` (its admin;
    a player of no club: a federation admin)."""
    if club_id is None:
        require(request, Role.FEDERATION_ADMIN)
    else:
        require(request, Role.CLUB_ADMIN, club_id)


@router.get("/api/register")
def players(
    request: Request,
    q: Annotated[str, Query(max_length=100)] = "",
    club: Annotated[str | None, Query(max_length=64)] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 100,
) -> dict[str, object]:
    found, total = register_of(request).find(q, club, offset, limit)
    return {"players": [p.json() for p in found], "total": total, "offset": offset}


@router.get("/api/register/by-name/{name}")
def player_named(request: Request, name: Annotated[str, PathParam(max_length=100)]) -> Any:
    found = register_of(request).named(name)
    if found is None:
        raise AccountError(404, f"{name}: not in the register", "not_registered", {"name": name})
    return found.json()


@router.get("/api/register/{player_id}")
def player(request: Request, player_id: Id) -> dict[str, object]:
    return register_of(request).get(player_id).json()


@router.post("/api/register", status_code=201)
def add_player(request: Request, body: NewPlayer) -> dict[str, object]:
    _may_keep(request, body.club_id)
    return register_of(request).add(body.name, body.club_id, body.rating).json()


@router.patch("/api/register/{player_id}")
def edit_player(request: Request, player_id: Id, body: PlayerChange) -> dict[str, object]:
    register = register_of(request)
    old = register.get(player_id)
    _may_keep(request, old.club_id)
    changes = {k: getattr(body, k) for k in body.model_fields_set}
    if "name" in changes and changes["name"] is None:
        changes.pop("name")
    if "club_id" in changes and changes["club_id"] != old.club_id:
        _may_keep(request, changes["club_id"])
    return register.edit(player_id, changes).json()


@router.delete("/api/register/{player_id}", status_code=204)
def remove_player(request: Request, player_id: Id) -> Response:
    register = register_of(request)
    _may_keep(request, register.get(player_id).club_id)
    register.remove(player_id)
    return Response(status_code=204)


@router.post("/register", include_in_schema=False)
async def add_player_form(request: Request) -> Response:
    """The page's form without its script: the fields, the hidden ``csrf_token``
    (checked by ``require``); back to the page (303)."""
    # read here (a urlencoded body, parsed by the standard library: no multipart library)
    form = urllib.parse.parse_qs((await request.body()).decode("utf-8", "replace"))
    fields = {k: (form.get(k) or [""])[0].strip() for k in ("name", "club_id", "rating")}
    await run_in_threadpool(_add_from_form, request, fields)
    return RedirectResponse("/register", status_code=303)


def _add_from_form(request: Request, fields: dict[str, str]) -> None:
    rating: object = fields["rating"] or None
    with contextlib.suppress(ValueError):
        rating = float(fields["rating"]) if fields["rating"] else None
    club_id = fields["club_id"] or None
    _may_keep(request, club_id)
    register_of(request).add(fields["name"], club_id, rating)


@router.get("/register", include_in_schema=False)
def register_page() -> HTMLResponse:
    return page("register")
