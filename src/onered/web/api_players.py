"""A player's page: his games, points per visit, top breaks and fouls, game by game.

* ``GET /api/players/{name}``: the newest :data:`MAX_GAMES` games in which ``name`` played
  (the exact name, any case), oldest first, each with its figures; his figures over them all;
  his top breaks. 404 when no game has that player.
* ``GET /players/{name}``: the page (``templates/player.html``), which plots the figures over
  time.

Every figure is what ``onered.game.stats`` counts of the games' verdicts (visits, breaks,
points, fouls), kept with each game when it changes (``onered.web.figures``, the store's
``games.figures``): the page reads the games through the store's index of players and adds
their figures up, never replaying a game, but one whose figures are not kept yet (a
database from before they were, a game made without them): that one is counted once, and
its figures kept.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from onered.game.session import Session
from onered.web.api_matches import game_summary, match_store
from onered.web.errors import ApiError
from onered.web.figures import GameFigures, figures_json, player_stats
from onered.web.pages import page
from onered.web.store import PlayerGame, Store

#: Games read for one page (the newest), and breaks listed.
MAX_GAMES = 200
TOP_BREAKS = 10

router = APIRouter()
Name = Annotated[str, PathParam(min_length=1, max_length=40)]


def _figures(store: Store, found: PlayerGame) -> dict[str, Any]:
    """The players' figures of a game: as kept, else counted from its lines (and kept)."""
    if found.figures is not None:
        return dict(found.figures)
    row = found.row
    # read here, not through the app's cache of sessions: it would push out the games being
    # marked
    figures = figures_json(Session.from_lines(store.lines(row.id)))
    store.keep_figures(row.id, row.revision, figures)
    return figures


def player_view(store: Store, name: str, matches_of: Any) -> dict[str, Any]:
    """Everything the player's page shows (``matches_of``: game ids to the matches of those
    that belong to one)."""
    clean = " ".join(name.split())
    found, total = store.player_games(clean, MAX_GAMES)
    if not found:
        raise ApiError(
            404, f"player {clean!r}: no games with this player", "no_player", {"name": clean}
        )
    found.sort(key=lambda f: (f.row.created, f.row.id))  # oldest first: the plots run left to right
    owners: dict[str, str] = matches_of([f.row.id for f in found])
    games: list[dict[str, Any]] = []
    breaks: list[dict[str, Any]] = []
    mine: list[tuple[GameFigures, bool, str | None]] = []
    me = clean
    for one in found:
        row = one.row
        summary = game_summary(row)
        me = next(p for p in summary.players if p.casefold() == clean.casefold())
        opponent = summary.players[1] if summary.players[0] == me else summary.players[0]
        players = _figures(store, one)["players"]
        figures = GameFigures.from_json(players[me])
        entrants = row.settings.get("entrants")
        said = entrants.get(me) if isinstance(entrants, dict) else None
        mine.append((figures, summary.winner == me, said if isinstance(said, str) else None))
        score = dict(zip(summary.players, summary.score, strict=True))
        games.append(
            {
                "id": row.id,
                "mode": row.mode.value,
                "created": row.created,
                "opponent": opponent,
                "score": [score.get(me, 0), score.get(opponent, 0)],
                "target": summary.target,
                "result": None
                if summary.winner is None
                else ("won" if summary.winner == me else "lost"),
                "strokes": figures.strokes,
                "visits": figures.visits,
                "points": figures.points,
                "points_per_visit": round(figures.points_per_visit, 3),
                "top_break": figures.highest_break,
                "fouls": figures.foul_count,
                "match": owners.get(row.id),
            }
        )
        breaks += [
            {"points": b, "game": row.id, "created": row.created, "opponent": opponent}
            for b in figures.breaks_list()[:TOP_BREAKS]
            if b > 0
        ]
    breaks.sort(key=lambda b: (-b["points"], b["created"]))
    return {
        "name": me,
        "games": games,
        "games_total": total,
        "games_read": len(games),
        "totals": player_stats(me, mine).to_json(),
        "top_breaks": breaks[:TOP_BREAKS],
    }


@router.get("/players/{name}", include_in_schema=False)
def player_page(name: Name) -> HTMLResponse:
    return page("player")


@router.get("/api/players/{name}")
def get_player(request: Request, name: Name) -> dict[str, Any]:
    """A player's games and figures."""
    store: Store = request.app.state.store
    return player_view(store, name, match_store(request).matches_of)
