"""Matches: best of N marked games between two players, with a handicap start and a clock.

* ``POST /api/matches`` starts a match and its first game: ``{"id", "token", "urls",
  "game": {"id", "token", "urls"}}`` (201). The match's secret changes the match (starts its
  next game); each game has its own secret, as any game.
* ``GET /api/matches/{id}``: the settings, the games (each one's breaker, score, winner and
  time), the score in games, the winner once decided, and the match clock.
* ``POST /api/matches/{id}/next`` (the match's secret in ``X-Game-Token``, ``after``: the
  games the client saw) starts the next game once the last one is over.
* ``GET /matches/{id}``: the match page (``templates/match.html``).

The match logic (who has won, who breaks, the handicap of each game, whether the next game
may start, the clock) and the settings' JSON are ``onered.game.series``'s; the matches are
stored by ``onered.web.match_store``. A refusal rises as the game core's error and is
answered by ``onered.web.errors``. The clock is the
server's: a game runs from its creation to its last stroke (``updated``), to now while it is
being played.
"""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from onered.game import series as match_rules
from onered.game import validate
from onered.game.series import (
    GameTime,
    Series,
    SeriesError,
    can_start_next,
    clock,
    game_match,
    standing,
)
from onered.game.session import HUMAN, Session
from onered.game.summary import Summary
from onered.rules import Ball, Match
from onered.web.errors import ApiError
from onered.web.games import TOKEN_HEADER
from onered.web.match_store import MatchConflictError, MatchRow, MatchStore
from onered.web.pages import page
from onered.web.store import GameRow, Mode, Store, StoreError
from onered.web.view import summary_json

router = APIRouter()


# --- request bodies ---------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewMatch(_Body):
    """A match: ``players[breaker]`` won the lag, breaks the first game and plays
    ``breaker_ball`` all match; ``handicap[i]``: points ``players[i]`` is given at the start
    of every game."""

    players: list[str] = Field(min_length=2, max_length=2)
    best_of: int = Field(default=3, ge=1, le=99)
    target: int = Field(default=100, ge=1, le=100_000)
    handicap: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)
    breaker: int = Field(default=0, ge=0, le=1)
    breaker_ball: str = Field(default="white", pattern="^(white|yellow)$")


class NextBody(_Body):
    """``after``: the number of games the client saw (another number is a conflict)."""

    after: int | None = Field(default=None, ge=1)


# --- helpers ----------------------------------------------------------------------------------


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def match_store(request: Request) -> MatchStore:
    """The matches beside the app's games (one per app, made on first use)."""
    found = getattr(request.app.state, "matches", None)
    if isinstance(found, MatchStore):
        return found
    made = MatchStore(_store(request).db)
    request.app.state.matches = made
    return made


def _new_game(store: Store, match: Match, match_id: str, number: int) -> tuple[str, str]:
    """A marked game of the match: its match line (with the handicap) judged and stored."""
    session = Session.new(match)
    settings = {
        "entrants": dict.fromkeys(match.players, HUMAN),
        "match": {"id": match_id, "number": number},
    }
    return store.create(Mode.MARK, session.texts(), settings, summary_json(session))


def _game_urls(game_id: str) -> dict[str, str]:
    return {"mark": f"/mark/{game_id}", "watch": f"/watch/{game_id}", "record": f"/games/{game_id}"}


def _known(matches: MatchStore, match_id: str) -> MatchRow:
    row = matches.match(match_id)
    if row is None:
        raise ApiError(404, f"match {match_id!r}: no such match", "no_match", {"id": match_id})
    return row


def game_summary(row: GameRow) -> Summary:
    """A stored game's summary (``Summary.to_json`` as the store keeps it), read by the game
    core's one reader; one that does not read is the store's fault (``StoreError``, 500)."""
    return Summary.from_json(row.summary, f"game {row.id}: summary", error=StoreError)


def _game_json(number: int, row: GameRow | None, game_id: str, series: Series) -> dict[str, Any]:
    if row is None:  # deleted behind the app's back: shown as such, counted as unfinished
        return {"number": number, "id": game_id, "missing": True}
    summary = game_summary(row)
    players = summary.players
    return {
        "number": number,
        "id": game_id,
        "breaker": players[0],
        "players": list(players),
        "score": dict(zip(players, summary.score, strict=True)),
        "winner": summary.winner,
        "strokes": summary.strokes,
        "started": row.created,
        "last": row.updated,
        "over": summary.winner is not None,
        "handicap": {
            name: series.handicap[series.players.index(name)]
            for name in players
            if name in series.players
        },
        "urls": _game_urls(game_id),
    }


def _results(games: list[dict[str, Any]]) -> list[str | None]:
    """Each game's winner, ``None`` for a game not over (or deleted)."""
    return [None if g.get("winner") is None else str(g["winner"]) for g in games]


def match_view(store: Store, match: MatchRow) -> dict[str, Any]:
    """The match as the page shows it."""
    series = match.series
    games = [_game_json(k, store.game(g), g, series) for k, g in enumerate(match.games)]
    results = _results(games)
    try:
        now_standing = standing(series, [w for w in results if w is not None])
    except SeriesError as exc:  # pragma: no cover - games are added only while undecided
        raise ApiError(500, f"match {match.id!r}: {exc}", "broken") from None
    now = time.time()
    times = [
        GameTime(started=g["started"], last=g["last"], over=bool(g["over"]))
        for g in games
        if not g.get("missing")
    ]
    c = clock(times, now)
    last = games[-1] if games else None
    running = last is not None and not last.get("missing") and not last["over"]
    can_start = can_start_next(series, results)
    for g, seconds in zip((g for g in games if not g.get("missing")), c.games, strict=True):
        g["seconds"] = seconds
    return {
        "id": match.id,
        "created": match.created,
        "settings": series.to_json(),
        "players": list(series.players),
        "best_of": series.best_of,
        "wins_needed": series.wins_needed,
        "wins": dict(zip(series.players, now_standing.wins, strict=True)),
        "winner": None if now_standing.winner is None else series.players[now_standing.winner],
        "over": now_standing.over,
        "next_game": now_standing.next_game,
        "can_start_next": can_start,
        "games": games,
        "clock": {"games": list(c.games), "total": c.total, "running": running},
        "now": now,
        "urls": {"match": f"/matches/{match.id}"},
    }


# --- routes -----------------------------------------------------------------------------------


@router.get("/matches/{match_id}", include_in_schema=False)
def match_page(request: Request, match_id: str) -> HTMLResponse:
    _known(match_store(request), match_id)
    return page("match")


@router.post("/api/matches", status_code=201)
def new_match(request: Request, body: NewMatch) -> dict[str, Any]:
    """Start a match and its first game (marked)."""
    names = validate.names(body.players)
    series = Series.after_lag(
        (names[0], names[1]),
        body.breaker,
        Ball(body.breaker_ball),
        best_of=body.best_of,
        target=validate.target(body.target),
        handicap=(body.handicap[0], body.handicap[1]),
    )
    store = _store(request)
    matches = match_store(request)
    match_id, token = matches.create(series)
    game_id, game_token = _new_game(store, game_match(series, 0), match_id, 0)
    matches.add_game(match_id, 0, game_id)
    return {
        "id": match_id,
        "token": token,
        "urls": {"match": f"/matches/{match_id}"},
        "game": {"id": game_id, "token": game_token, "urls": _game_urls(game_id)},
        "match": match_view(store, _known(matches, match_id)),
    }


@router.get("/api/matches/{match_id}")
def get_match(request: Request, match_id: str) -> dict[str, Any]:
    return match_view(_store(request), _known(match_store(request), match_id))


@router.post("/api/matches/{match_id}/next")
def next_game(
    request: Request,
    match_id: str,
    body: NextBody,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Start the match's next game (the last one must be over, the match undecided)."""
    matches = match_store(request)
    row = _known(matches, match_id)
    if not x_game_token:
        raise ApiError(
            401,
            f"{TOKEN_HEADER}: missing; starting a game needs the match's secret",
            "no_match_token",
        )
    if not matches.check_token(match_id, x_game_token):
        raise ApiError(
            403, f"{TOKEN_HEADER}: this is not the secret of match {match_id!r}", "bad_match_token"
        )
    store = _store(request)
    games = [_game_json(k, store.game(g), g, row.series) for k, g in enumerate(row.games)]
    number = match_rules.next_game(row.series, _results(games))
    if body.after is not None and body.after != len(row.games):
        raise MatchConflictError(body.after, len(row.games))
    game_id, game_token = _new_game(store, game_match(row.series, number), match_id, number)
    try:
        matches.add_game(match_id, number, game_id)
    except MatchConflictError:
        store.delete(game_id)
        raise
    return {
        "game": {"id": game_id, "token": game_token, "urls": _game_urls(game_id)},
        "match": match_view(store, _known(matches, match_id)),
    }
