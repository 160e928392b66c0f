"""The coach's routes: the coach page, advice for a position, and the position before any
stroke of a stored game.

``POST /api/advise`` takes a position — the coach's JSON form (``onered.coach.position``) or
the written one (``onered.rules.position``) — and a level, and answers the suggestions as
``onered.coach.report.advice_json`` writes them, with their words in the page's language
(and the position in both forms). The advice takes a fraction of a second of CPU, so it
runs in a worker thread, off the event loop. ``GET /api/coach/position?game=ID&stroke=N``
gives the position before stroke N of a played or marked game (balls a marked game never
placed are ``null``: the page asks for them to be set up).
"""

from __future__ import annotations

import threading
from typing import Any

from fastapi import APIRouter, Query
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from onered.coach import Coach, level_strength
from onered.coach.position import (
    action_from_json,
    position_from_json,
    position_from_text,
    position_json,
    state_before,
    stroke_entry,
)
from onered.coach.report import PATH_LANE, RANK_COLOURS, advice_json
from onered.coach.words import View
from onered.players.strength import STRENGTHS
from onered.rules import position as written
from onered.texts import Lang
from onered.web.games import GamesDep
from onered.web.pages import page

router = APIRouter()
#: The level the page offers first.
DEFAULT_LEVEL = "pro"

_coaches: dict[str, Coach] = {}
_coaches_lock = threading.Lock()


def _coach(level: str) -> Coach:
    """One coach per level, kept between requests (its search caches leave values)."""
    with _coaches_lock:
        coach = _coaches.get(level)
        if coach is None:
            coach = _coaches[level] = Coach(level_strength(level))
        return coach


class AdviseBody(BaseModel):
    """A position in the coach's JSON form, the player's level, the language of the words,
    how many suggestions and noise samples per stroke."""

    model_config = ConfigDict(extra="forbid")

    position: dict[str, Any] | str = Field(max_length=2000)
    level: str = DEFAULT_LEVEL
    lang: Lang = Lang.EN
    count: int = Field(default=5, ge=1, le=10)
    samples: int = Field(default=200, ge=10, le=1000)
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    played: dict[str, Any] | None = None


@router.get("/coach", include_in_schema=False)
def coach_page() -> HTMLResponse:
    return page("coach")


@router.get("/api/coach/levels")
def levels() -> dict[str, Any]:
    """The levels the coach advises for, the colours of the ranks and the space between
    the lanes of their paths (metres)."""
    default = DEFAULT_LEVEL if DEFAULT_LEVEL in STRENGTHS else next(iter(STRENGTHS))
    return {
        "levels": list(STRENGTHS),
        "default": default,
        "colours": list(RANK_COLOURS),
        "lane": PATH_LANE,
    }


@router.post("/api/advise")
async def advise(body: AdviseBody) -> dict[str, Any]:
    """The best strokes for the position at the level, ranked by expected value."""
    if isinstance(body.position, str):
        position = position_from_text(body.position)
    else:
        position = position_from_json(body.position)
    coach = _coach(body.level)
    played = None if body.played is None else action_from_json(body.played, "played")

    def work() -> dict[str, Any]:
        advice = coach.advise(
            position, count=body.count, samples=body.samples, seed=body.seed, played=played
        )
        # pockets named as the page's table shows them (baulk end on the left)
        out = advice_json(advice, body.lang, View.LANDSCAPE)
        out["position"] = position_json(position.state)
        out["written"] = written.write(position.state)
        return out

    return await run_in_threadpool(work)


@router.get("/api/coach/position")
def game_position(
    games: GamesDep,
    game: str = Query(min_length=1, max_length=64),
    stroke: int = Query(ge=1, le=1_000_000),
) -> dict[str, Any]:
    """The position before stroke ``stroke`` of stored game ``game``, in the coach's JSON
    form (a ball whose place the game does not know is ``null``), and the stroke played
    there (its strike and placement, when the game was played on the simulated table)."""
    _, session = games.replay(game)
    state = state_before(session, stroke)
    line = stroke_entry(session, stroke).line
    played = {k: line[k] for k in ("placed", "strike", "before") if line.get(k) is not None}
    return {
        "game": game,
        "stroke": stroke,
        "position": position_json(state),
        "played": played,
    }
