"""Changing a game (each route needs the game's secret): a referee line, a marked stroke,
the foul option, undo, a late claim, a played stroke, the computer's turn."""

from __future__ import annotations

import math
import zlib
from typing import Any

from fastapi import APIRouter

from onered.game import Action
from onered.physics.types import Strike
from onered.protocol.json_fields import ProtocolError
from onered.web import marking, play
from onered.web import record as rec
from onered.web.errors import ApiError
from onered.web.games import AuthorizedId, GamesDep, game_over
from onered.web.models import AfterBody, ChoiceBody, ClaimBody, LineBody, MarkBody, PlayBody
from onered.web.store import GameRow, Mode

router = APIRouter()


def _seed(game_id: str, version: int) -> int:
    """The computer's random seed for its turn at ``version`` of a game: the same position
    of the same game gets the same stroke."""
    return zlib.crc32(f"{game_id}:{version}".encode())


def _markable(games: GamesDep, game_id: str) -> None:
    if games.row(game_id).mode is Mode.PLAY:
        raise ApiError(
            409,
            "this game is played on the simulated table: strokes come from "
            "/play, not from the marker",
            "played",
        )


@router.post("/api/games/{game_id}/check")
def check(game_id: AuthorizedId) -> dict[str, Any]:
    """Whether the secret sent is this game's (403 if not): changes nothing."""
    return {"ok": True, "id": game_id}


@router.post("/api/games/{game_id}/lines")
def add_line(game_id: AuthorizedId, body: LineBody, games: GamesDep) -> dict[str, Any]:
    """Append a referee-protocol ``stroke`` or ``choice`` line (judged first)."""
    _markable(games, game_id)
    try:
        line = rec.clean_line(body.line)
    except ProtocolError as exc:
        raise ApiError(422, f"line: {exc}") from None
    if line.get("type") == "match":
        raise ApiError(422, "line: a second match line: the match line comes once, first")
    return games.changed_view(game_id, body.after, [line])


@router.post("/api/games/{game_id}/mark")
def mark(game_id: AuthorizedId, body: MarkBody, games: GamesDep) -> dict[str, Any]:
    """Append the stroke the marker tapped."""
    _markable(games, game_id)
    _, game = games.replay(game_id)
    if game.over:
        raise game_over(game)
    try:
        line = marking.compose(game.state, body.mark())
    except marking.MarkError as exc:
        raise ApiError(422, str(exc)) from None
    return games.changed_view(game_id, body.after, [line])


@router.post("/api/games/{game_id}/choice")
def choice(game_id: AuthorizedId, body: ChoiceBody, games: GamesDep) -> dict[str, Any]:
    """The incoming player's foul option (2.12.3)."""
    row, game = games.replay(game_id)
    if row.mode is Mode.PLAY:
        try:
            line = play.choose(game, body.option)
        except play.PlayError as exc:
            raise ApiError(409, str(exc)) from None
    else:
        line = {"type": "choice", "option": body.option.value}
    return games.changed_view(game_id, body.after, [line])


@router.post("/api/games/{game_id}/undo")
def undo(game_id: AuthorizedId, body: AfterBody, games: GamesDep) -> dict[str, Any]:
    """Take back the last line (a stroke, or a foul option)."""
    return games.changed_view(game_id, body.after, [], pop=1)


@router.post("/api/games/{game_id}/claim")
def claim(game_id: AuthorizedId, body: ClaimBody, games: GamesDep) -> dict[str, Any]:
    """A foul on the last stroke, claimed before the next stroke (2.12.4): the stroke is
    judged again with the foul."""
    _markable(games, game_id)
    _, game = games.replay(game_id)
    last = game.last
    if last.kind is not rec.LineKind.STROKE:
        raise ApiError(
            409,
            "claim: there is no stroke to claim a foul on (a claim comes "
            "right after the stroke, before the next one)",
        )
    if last.verdict.foul is not None:
        raise ApiError(409, "claim: the last stroke was already judged a foul")
    line = dict(last.line)
    raw = line.get("fouls", [])
    codes = [c for c in raw if isinstance(c, str)] if isinstance(raw, list) else []
    codes += [f.value for f in body.fouls if f.value not in codes]
    line["fouls"] = codes
    return games.changed_view(game_id, body.after, [line], pop=1)


def _check_turn_is_human(game: rec.Game, row: GameRow) -> None:
    if game.over:
        raise game_over(game)
    name = game.players[game.state.to_play]
    entrant = play.entrants(game).get(name)
    if play.ai_strength(entrant) is not None:
        raise ApiError(409, f"it is {name}'s turn, and {name} is the computer")


@router.post("/api/games/{game_id}/play")
def play_stroke(game_id: AuthorizedId, body: PlayBody, games: GamesDep) -> dict[str, Any]:
    """Play a stroke on the simulated table; the answer has the shot to animate."""
    row, game = games.replay(game_id)
    if row.mode is not Mode.PLAY:
        raise ApiError(409, "this game is marked, not played on the simulated table")
    _check_turn_is_human(game, row)
    placed = body.placed
    if placed is not None and not all(math.isfinite(c) for c in placed):
        raise ApiError(422, "placed: expected two finite numbers")
    action = Action(strike=Strike(**body.strike.as_dict()), placed=placed)
    try:
        played = play.play(game, action)
    except play.PlayError as exc:
        raise ApiError(422, str(exc)) from None
    after = body.after if body.after is not None else len(game.entries)
    result = games.changed_view(game_id, after, [played.line])
    result["shot"] = played.shot
    return result


@router.post("/api/games/{game_id}/ai")
def ai_turn(game_id: AuthorizedId, body: AfterBody, games: GamesDep) -> dict[str, Any]:
    """The computer plays its turn: a foul option or a stroke (with its shot)."""
    row, game = games.replay(game_id)
    if row.mode is not Mode.PLAY:
        raise ApiError(409, "this game is marked, not played on the simulated table")
    if game.over:
        raise game_over(game)
    try:
        turn = play.ai_turn(game, _seed(game_id, len(game.entries)))
    except ValueError as exc:  # PlayError, or a refusal of the table's (never expected)
        raise ApiError(409, f"the computer cannot play: {exc}", "ai_failed") from None
    after = body.after if body.after is not None else len(game.entries)
    result = games.changed_view(game_id, after, [turn.line])
    result["shot"] = turn.shot
    return result
