"""Changing a game (each route needs the game's secret): a referee line, a marked stroke,
the foul option, undo, a late claim, a played stroke, the computer's turn. The rules are the
game core's (``onered.game.session``); a route reads the request and answers, and the game
core's refusals rise to ``onered.web.errors``' one handler."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from onered.game import Action
from onered.game.session import Played, Ruled, Session
from onered.players.turn import Turn, plan_ai_turn, plan_human
from onered.web import workers
from onered.web.errors import ApiError
from onered.web.games import AuthorizedId, Games, GamesDep
from onered.web.models import AfterBody, ChoiceBody, ClaimBody, LineBody, MarkBody, PlayBody
from onered.web.play import shot_json
from onered.web.store import Mode

router = APIRouter()


def _seed(game_id: str, version: int) -> int:
    """The computer's random seed for its turn at ``version`` of a game: the same position
    of the same game gets the same stroke."""
    return zlib.crc32(f"{game_id}:{version}".encode())


def _played_game(games: Games, game_id: str) -> Session:
    row, session = games.replay(game_id)
    if row.mode is not Mode.PLAY:
        raise ApiError(409, "this game is marked, not played on the simulated table", "not_played")
    return session


def _stored(games: Games, game_id: str, after: int | None, ruled: Ruled) -> dict[str, Any]:
    """Keep a line computed and judged from the game's current position (``after``: the
    lines it was computed on, so a change in between is a conflict, not a stroke from a
    stale table); it is kept as judged, not judged again."""
    return games.answer(*games.change(game_id, after, lambda s: s.keep(ruled))[:3])


async def _changed(
    games: Games, game_id: str, after: int | None, act: Callable[[Session], object]
) -> dict[str, Any]:
    """The answer to a change of the game by ``act``: the change is made in a worker thread
    (it judges, then waits for its commit; ``onered.web.workers``: a leaner round trip than
    anyio's), its answer is serialised on the event loop (a plain route would take a second
    worker-thread round trip for that)."""
    return await workers.run(lambda: games.answer(*games.change(game_id, after, act)[:3]))


@router.post("/api/games/{game_id}/check")
def check(game_id: AuthorizedId) -> dict[str, Any]:
    """Whether the secret sent is this game's (403 if not): changes nothing."""
    return {"ok": True, "id": game_id}


@router.post("/api/games/{game_id}/lines")
async def add_line(game_id: AuthorizedId, body: LineBody, games: GamesDep) -> dict[str, Any]:
    """Append a referee-protocol ``stroke`` or ``choice`` line (judged first)."""
    return await _changed(games, game_id, body.after, lambda s: s.enter(body.line))


@router.post("/api/games/{game_id}/mark")
async def mark(game_id: AuthorizedId, body: MarkBody, games: GamesDep) -> dict[str, Any]:
    """Append the stroke the marker tapped."""
    tapped = body.mark()
    return await _changed(games, game_id, body.after, lambda s: s.mark(tapped))


@router.post("/api/games/{game_id}/choice")
async def choice(game_id: AuthorizedId, body: ChoiceBody, games: GamesDep) -> dict[str, Any]:
    """The incoming player's foul option (2.12.3)."""
    return await _changed(games, game_id, body.after, lambda s: s.choose(body.option))


@router.post("/api/games/{game_id}/undo")
async def undo(game_id: AuthorizedId, body: AfterBody, games: GamesDep) -> dict[str, Any]:
    """Take back the last line (a stroke, or a foul option)."""
    return await _changed(games, game_id, body.after, lambda s: s.undo())


@router.post("/api/games/{game_id}/claim")
async def claim(game_id: AuthorizedId, body: ClaimBody, games: GamesDep) -> dict[str, Any]:
    """A foul on the last stroke, claimed before the next stroke (2.12.4): the stroke is
    judged again with the foul."""
    return await _changed(games, game_id, body.after, lambda s: s.claim(body.fouls))


@router.post("/api/games/{game_id}/play")
def play_stroke(game_id: AuthorizedId, body: PlayBody, games: GamesDep) -> dict[str, Any]:
    """Play a stroke on the simulated table; the answer has the shot to animate. The shot
    is simulated from the current position before the game is locked, then kept."""
    session = _played_game(games, game_id)
    action = Action(strike=body.strike.strike(), placed=body.placed)  # checked by the game
    with games.lock:
        after = body.after if body.after is not None else len(session)
        played: Played = plan_human(session, action)
    result = _stored(games, game_id, after, played.ruled)
    result["shot"] = shot_json(played.stroke.result, played.stroke.before)
    return result


@router.post("/api/games/{game_id}/ai")
def ai_turn(game_id: AuthorizedId, body: AfterBody, games: GamesDep) -> dict[str, Any]:
    """The computer plays its turn: a foul option or a stroke (with its shot). The search
    runs on the current position outside the game's lock."""
    session = _played_game(games, game_id)
    after = body.after if body.after is not None else len(session)
    turn: Turn = plan_ai_turn(session, _seed(game_id, after))
    result = _stored(games, game_id, after, turn.ruled)
    stroke = turn.stroke
    result["shot"] = None if stroke is None else shot_json(stroke.result, stroke.before)
    return result
