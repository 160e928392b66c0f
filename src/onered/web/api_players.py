"""A player's page: his games, points per visit, top breaks and fouls, game by game.

* ``GET /api/players/{name}``: the newest :data:`MAX_GAMES` games in which ``name`` played
  (the exact name, any case), oldest first, each with its figures; his figures over them all;
  his top breaks. 404 when no game has that player.
* ``GET /players/{name}``: the page (``templates/player.html``), which plots the figures over
  time.

Every figure is counted by ``onered.game.stats`` from the games' verdicts (visits, breaks,
points, fouls): one place for what a visit and a break are.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse

from onered.game.session import Session
from onered.game.stats import PlayerStats, Tally
from onered.web.api_matches import game_summary, match_store
from onered.web.errors import ApiError
from onered.web.pages import page
from onered.web.store import GameRow, Store
from onered.web.view import verdicts_json

#: Games read for one page (the newest), and breaks listed.
MAX_GAMES = 200
TOP_BREAKS = 10

router = APIRouter()
Name = Annotated[str, PathParam(min_length=1, max_length=40)]


def _record_lines(row: GameRow, game: Session) -> list[dict[str, Any]]:
    """The game's lines with their verdicts, as ``onered.game.stats`` reads a record."""
    # the referee's verdict, never one a stored line carries (an imported file's own)
    lines = [{**_object(e["in"]), "verdict": e["out"]} for e in verdicts_json(game)]
    entrants = row.settings.get("entrants")
    if isinstance(entrants, dict):
        lines[0]["entrants"] = entrants
    return lines


def _object(value: object) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _game_figures(row: GameRow, me: str, figures: PlayerStats, opponent: str) -> dict[str, Any]:
    summary = game_summary(row)
    score = dict(zip(summary.players, summary.score, strict=True))
    winner = summary.winner
    return {
        "id": row.id,
        "mode": row.mode.value,
        "created": row.created,
        "opponent": opponent,
        "score": [score.get(me, 0), score.get(opponent, 0)],
        "target": summary.target,
        "result": None if winner is None else ("won" if winner == me else "lost"),
        "strokes": figures.strokes,
        "visits": figures.visits,
        "points": figures.points,
        "points_per_visit": round(figures.points_per_visit, 3),
        "top_break": figures.highest_break,
        "fouls": sum(figures.fouls.values()),
    }


def player_view(store: Store, name: str, match_of: Any) -> dict[str, Any]:
    """Everything the player's page shows (``match_of``: a game id to its match, or None)."""
    clean = " ".join(name.split())
    rows, total = store.search(player=clean, exact=True, limit=MAX_GAMES)
    if not rows:
        raise ApiError(
            404, f"player {clean!r}: no games with this player", "no_player", {"name": clean}
        )
    rows.sort(key=lambda r: (r.created, r.id))  # oldest first: the plots run left to right
    overall = Tally()
    games: list[dict[str, Any]] = []
    breaks: list[dict[str, Any]] = []
    me = clean
    for row in rows:
        # read here, not through the app's cache of sessions: 200 games would push out the
        # games being marked
        game = Session.from_lines(store.lines(row.id))
        lines = _record_lines(row, game)
        me = next(p for p in game.players if p.casefold() == clean.casefold())
        opponent = game.players[1] if game.players[0] == me else game.players[0]
        one = Tally()
        one.add_game(lines, row.id)
        overall.add_game(lines, row.id)
        figures = one.result().players[me]
        item = _game_figures(row, me, figures, opponent)
        owner = match_of(row.id)
        item["match"] = None if owner is None else owner[0]
        games.append(item)
        breaks += [
            {"points": b, "game": row.id, "created": row.created, "opponent": opponent}
            for b in figures.breaks
            if b > 0
        ]
    breaks.sort(key=lambda b: (-b["points"], b["created"]))
    mine = overall.result().players[me]
    return {
        "name": me,
        "games": games,
        "games_total": total,
        "games_read": len(games),
        "totals": mine.to_json(),
        "top_breaks": breaks[:TOP_BREAKS],
    }


@router.get("/players/{name}", include_in_schema=False)
def player_page(name: Name) -> HTMLResponse:
    return page("player")


@router.get("/api/players/{name}")
def get_player(request: Request, name: Name) -> dict[str, Any]:
    """A player's games and figures."""
    store: Store = request.app.state.store
    return player_view(store, name, match_store(request).match_of)
