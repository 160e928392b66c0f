"""The ratings on the web: the ranking, a player's ratings and history, handicap proposals.

* ``GET /api/ratings?target=N``: the players rated at target ``N`` (0 or none: over all
  targets), best first, with the targets anyone is rated at.
* ``GET /api/ratings/handicap?a=NAME&b=NAME&target=N``: the start that makes a game to
  ``N`` between the two even (``onered.ratings.handicap``), from their ratings at ``N``
  (else over all targets, else where they would start).
* ``GET /api/ratings/{player}``: his ratings (per target and overall) and his history
  (both empty for a name no rated match has).
* ``GET /ratings`` and ``GET /ratings/{player}``: the ranking page and a player's
  (``templates/ratings.html``), in Russian and English.

The ratings are kept by ``onered.web.ratings`` from every finished match; reading them is
open to everyone, as the games are.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from onered.ratings.handicap import UNIT, propose
from onered.ratings.ledger import ALL_TARGETS
from onered.web import ratings
from onered.web.accounts import database_of
from onered.web.api_register import name_key
from onered.web.errors import ApiError
from onered.web.pages import page

#: A rating whose deviation is this or more is shown as provisional (not yet settled).
PROVISIONAL = 110.0
#: The most players one page of the ranking lists.
MAX_LIMIT = 500
#: The furthest a ranking's page starts (a bound keeps the number within the databases').
MAX_OFFSET = 1_000_000
#: The highest target a proposal is made for (as a match's own settings allow any, a
#: bound keeps the solver's work small).
MAX_TARGET = 10_000

router = APIRouter()
Name = Annotated[str, PathParam(min_length=1, max_length=40)]
QueryName = Annotated[str, Query(min_length=1, max_length=40)]


def _entry(entry: ratings.Entry, now: float, rank: int | None = None) -> dict[str, Any]:
    out = entry.json(now)
    out["provisional"] = float(out["deviation"]) >= PROVISIONAL  # type: ignore[arg-type]
    if rank is not None:
        out["rank"] = rank
    return out


@router.get("/api/ratings")
def get_ranking(
    request: Request,
    target: Annotated[int, Query(ge=0, le=MAX_TARGET)] = ALL_TARGETS,
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """The ranking at ``target`` (0: over all targets), best first."""
    db = database_of(request.app)
    now = time.time()
    found = ratings.ranking(db, target, limit, offset)
    return {
        "target": target,
        "targets": ratings.targets(db),
        "total": ratings.count(db, target),
        "offset": offset,
        "players": [_entry(e, now, offset + i + 1) for i, e in enumerate(found)],
    }


@router.get("/api/ratings/handicap")
def get_handicap(
    request: Request,
    a: QueryName,
    b: QueryName,
    target: Annotated[int, Query(ge=1, le=MAX_TARGET)],
) -> dict[str, Any]:
    """The handicap start proposed for a game to ``target`` between ``a`` and ``b``."""
    if name_key(a) == name_key(b) or not name_key(a) or not name_key(b):
        raise ApiError(
            422,
            f"a and b: expected two different players, got {a!r} and {b!r}",
            "rating_same_player",
            {"a": a, "b": b},
        )
    db = database_of(request.app)
    now = time.time()
    sides = [ratings.standing(db, name, target) for name in (a, b)]
    current = [s.at(now, ratings.POLICY) for _, s, _ in sides]
    proposal = propose(current[0], current[1], target)
    return {
        "target": target,
        "players": [
            {
                "name": name,
                "rating": round(r.rating, 1),
                "deviation": round(r.deviation, 1),
                "rated": rated,
            }
            for (name, _, rated), r in zip(sides, current, strict=True)
        ],
        "expected": round(proposal.level, 4),
        "handicap": list(proposal.handicap),
        "expected_with_handicap": round(proposal.with_handicap, 4),
        "unit": UNIT,
    }


@router.get("/api/ratings/{player}")
def get_player_ratings(request: Request, player: Name) -> dict[str, Any]:
    """A player's ratings (per target, 0 first: over all targets) and his history; none
    for a name no rated match has (not an error: any name may be asked about, and the
    player's page asks for everyone's)."""
    db = database_of(request.app)
    entries, history = ratings.player_ratings(db, player)
    now = time.time()
    return {
        "name": entries[0].name if entries else " ".join(player.split()),
        "ratings": [_entry(e, now) for e in entries],
        "history": [c.json() for c in history],
    }


@router.get("/ratings", include_in_schema=False)
def ranking_page() -> HTMLResponse:
    return page("ratings")


@router.get("/ratings/{name}", include_in_schema=False)
def player_ratings_page(name: Name) -> HTMLResponse:
    return page("ratings")
