"""Games you can find: search with paging, "my games", and delete with the secret.

* ``GET /api/find?player&exact&since&until&kind&finished&ids&limit&offset``: the games that
  pass every filter given, newest change first, a page at a time: ``{"games", "total",
  "limit", "offset"}``. ``player``: part of either name, any case (``exact=true``: the whole
  name); ``since``/``until``: created in ``[since, until)``, seconds since the epoch (the page
  sends the local day's bounds); ``kind``: ``mark``, ``play``, ``import``, repeatable;
  ``finished``: ``true`` or ``false``; ``ids``: comma-separated game ids, "my games" (the
  games whose secrets the browser holds: it sends only their ids, never the secrets).
* ``DELETE /api/games/{id}`` with the game's secret in ``X-Game-Token`` deletes the game
  (its row and its lines). Without a secret 401, a wrong one 403, as every change; a game of
  a match is not deleted alone (409).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, Query, Request

from onered.web.api_matches import match_store
from onered.web.errors import ApiError
from onered.web.games import check_secret, list_item
from onered.web.limits import MAX_OFFSET
from onered.web.store import MAX_SEARCH_IDS, Mode, Store

router = APIRouter()


@router.get("/api/find")
def find_games(
    request: Request,
    player: Annotated[str | None, Query(max_length=40)] = None,
    exact: bool = False,
    since: Annotated[float | None, Query(ge=0, le=1e11)] = None,
    until: Annotated[float | None, Query(ge=0, le=1e11)] = None,
    kind: Annotated[list[Mode] | None, Query()] = None,
    finished: bool | None = None,
    ids: Annotated[str | None, Query(max_length=MAX_SEARCH_IDS * 20)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """A page of the games that pass every filter given."""
    store: Store = request.app.state.store
    wanted = None if ids is None else [i for i in ids.split(",") if i]
    if wanted is not None and len(wanted) > MAX_SEARCH_IDS:
        raise ApiError(
            422,
            f"ids: at most {MAX_SEARCH_IDS} games, got {len(wanted)}",
            "too_many_ids",
            {"max": MAX_SEARCH_IDS},
        )
    name = None if player is None else " ".join(player.split()) or None
    rows, total = store.search(
        player=name,
        exact=exact,
        since=since,
        until=until,
        modes=kind or (),
        finished=finished,
        ids=wanted,
        limit=limit,
        offset=offset,
    )
    return {"games": [list_item(r) for r in rows], "total": total, "limit": limit, "offset": offset}


@router.delete("/api/games/{game_id}")
def delete_game(
    request: Request, game_id: str, x_game_token: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Delete a game with its secret: the row and all its lines."""
    store: Store = request.app.state.store
    check_secret(store, game_id, x_game_token, "deleting")
    owner = match_store(request).match_of(game_id)
    if owner is not None:
        raise ApiError(
            409,
            f"game {game_id!r} is game {owner[1] + 1} of match {owner[0]!r}: "
            "a match's games are kept with it",
            "in_match",
            {"match": owner[0], "number": owner[1] + 1},
        )
    store.delete(game_id)
    request.app.state.games.deleted(game_id)  # its live streams end
    return {"deleted": game_id}
