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

from onered.web.api_matches import fail, match_store
from onered.web.store import MAX_SEARCH_IDS, GameRow, Mode, Store

TOKEN_HEADER = "X-Game-Token"

router = APIRouter()


def list_item(row: GameRow) -> dict[str, Any]:
    """A game as the lists show it (the summary kept beside its lines)."""
    return {
        "id": row.id,
        "mode": row.mode.value,
        "created": row.created,
        "updated": row.updated,
        **dict(row.summary),
    }


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
    offset: Annotated[int, Query(ge=0)] = 0,
) -> dict[str, Any]:
    """A page of the games that pass every filter given."""
    store: Store = request.app.state.store
    wanted = None if ids is None else [i for i in ids.split(",") if i]
    if wanted is not None and len(wanted) > MAX_SEARCH_IDS:
        raise fail(422, f"ids: at most {MAX_SEARCH_IDS} games, got {len(wanted)}")
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
    if store.game(game_id) is None:
        raise fail(404, f"game {game_id!r}: no such game", "no_game")
    if not x_game_token:
        raise fail(
            401, f"{TOKEN_HEADER}: missing; deleting a game needs the secret given to its creator"
        )
    if not store.check_token(game_id, x_game_token):
        raise fail(403, f"{TOKEN_HEADER}: this is not the secret of game {game_id!r}")
    owner = match_store(request).match_of(game_id)
    if owner is not None:
        raise fail(
            409,
            f"game {game_id!r} is game {owner[1] + 1} of match {owner[0]!r}: "
            "a match's games are kept with it",
            "in_match",
        )
    store.delete(game_id)
    return {"deleted": game_id}
