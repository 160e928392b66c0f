"""The games behind the routes: load a game's session, show it, change it, check secrets.

The routers (``api_games``, ``api_play``, ``pages``) reach the one :class:`Games` of the
app through :func:`games_of` and the game-changing routes check the secret with
:data:`AuthorizedId`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Header, Request

from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import verdict_json
from onered.rules import RulesError
from onered.web import record as rec
from onered.web.errors import ApiError, not_found
from onered.web.store import ConflictError, GameRow, Mode, Store

TOKEN_HEADER = "X-Game-Token"


def game_over(game: rec.Game) -> ApiError:
    """The answer to a stroke sent after the end of the game."""
    winner = game.players[game.state.winner or 0]
    return ApiError(409, f"the game is over: {winner} has won", "over", {"winner": winner})


def _brief(entry: dict[str, Any]) -> dict[str, Any]:
    """A log entry for the pages: the protocol fields of the line (the simulation's bulky
    fields left out, the strike kept), and the verdict."""
    line = entry["in"]
    keep = rec.STROKE_FIELDS | rec.CHOICE_FIELDS | rec.MATCH_FIELDS | {"strike"}
    return {
        "seq": entry["seq"],
        "in": {k: v for k, v in line.items() if k in keep},
        "out": entry["out"],
    }


def list_item(row: GameRow) -> dict[str, Any]:
    """A game in the list of games."""
    return {
        "id": row.id,
        "mode": row.mode.value,
        "created": row.created,
        "updated": row.updated,
        **dict(row.summary),
    }


def urls(game_id: str, mode: Mode) -> dict[str, str]:
    """The pages of a game."""
    out = {"watch": f"/watch/{game_id}", "record": f"/games/{game_id}"}
    if mode is Mode.PLAY:
        out["play"] = f"/play/{game_id}"
    else:
        out["mark"] = f"/mark/{game_id}"
    return out


class Games:
    """The game operations behind the routes: load, show, change."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def row(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise not_found(game_id)
        return row

    def replay(self, game_id: str) -> tuple[GameRow, rec.Game]:
        row = self.row(game_id)
        lines = self.store.lines(game_id)
        try:
            return row, rec.replay(lines)
        except rec.RecordError as exc:  # pragma: no cover - only judged lines are stored
            raise ApiError(500, f"game {game_id!r} cannot be replayed: {exc}", "broken") from None

    def view(self, row: GameRow, game: rec.Game, since: int) -> dict[str, Any]:
        since = max(0, min(since, len(game.entries)))
        out: dict[str, Any] = {
            "id": row.id,
            "mode": row.mode.value,
            "settings": dict(row.settings),
            "created": row.created,
            "updated": row.updated,
            "revision": row.revision,
            "match": {
                "target": game.match.target,
                "players": list(game.players),
                "balls": [b.value for b in game.match.balls],
            },
            "state": rec.state_json(game),
            "last": verdict_json(game.last.verdict, game.players),
            "log_from": since,
            "log": [_brief(e) for e in rec.verdicts_json(game, since)],
        }
        if since == 0:
            out["progression"] = rec.progression(game)
            out["visits"] = [rec.visit_json(v) for v in rec.visits(game)]
        return out

    def view_since(self, game_id: str, since: int | None, revision: int | None) -> dict[str, Any]:
        row, game = self.replay(game_id)
        start = 0 if since is None else since
        if revision is not None and since is not None:
            if revision == row.revision:
                start = len(game.entries)
            elif revision == row.revision - 1:
                start = min(since, row.changed_from)
            else:
                start = 0
        return self.view(row, game, start)

    def change(
        self,
        game_id: str,
        after: int | None,
        new_lines: list[dict[str, Any]],
        *,
        pop: int = 0,
    ) -> tuple[GameRow, rec.Game, int]:
        """Drop ``pop`` lines, judge and append ``new_lines``, store; return the new row,
        game and the first line number changed."""
        try:
            with self.store.edit(game_id, after) as edit:
                lines = list(edit.lines)
                if pop:
                    if len(lines) - pop < 1:
                        raise ApiError(409, "nothing to undo: the game has no strokes", "no_undo")
                    lines = lines[: len(lines) - pop]
                try:
                    game = rec.replay(lines)
                except rec.RecordError as exc:  # pragma: no cover - stored lines are judged
                    raise ApiError(
                        500, f"game {game_id!r} cannot be replayed: {exc}", "broken"
                    ) from None
                texts = []
                for obj in new_lines:
                    if game.over:
                        raise game_over(game)
                    try:
                        game = rec.extend(game, obj)
                    except (ProtocolError, RulesError) as exc:
                        raise ApiError(422, str(exc)) from None
                    texts.append(rec.dumps_line(obj))
                for _ in range(pop):
                    edit.pop()
                for text in texts:
                    if len(text) > rec.MAX_LINE_CHARS:
                        raise ApiError(413, "line: too long")
                    edit.push(text)
                edit.set_summary(rec.summary_json(game))
                changed = edit.changed_from
        except KeyError:
            raise not_found(game_id) from None
        except ConflictError as exc:
            raise ApiError(409, str(exc), "stale") from None
        return self.row(game_id), game, changed

    def changed_view(
        self, game_id: str, after: int | None, lines: list[dict[str, Any]], *, pop: int = 0
    ) -> dict[str, Any]:
        row, game, changed = self.change(game_id, after, lines, pop=pop)
        view = self.view(row, game, changed)
        return {"verdict": view["last"], "game": view}


def games_of(request: Request) -> Games:
    """The app's games."""
    found: Games = request.app.state.games
    return found


#: The app's games, as a route's parameter.
GamesDep = Annotated[Games, Depends(games_of)]


def _authorize(
    request: Request, game_id: str, x_game_token: Annotated[str | None, Header()] = None
) -> str:
    """The game id, once the request has shown the game's secret."""
    store: Store = request.app.state.store
    if store.game(game_id) is None:
        raise not_found(game_id)
    if not x_game_token:
        raise ApiError(
            401,
            f"{TOKEN_HEADER}: missing; changing a game needs the secret given to its creator",
            "no_token",
        )
    if not store.check_token(game_id, x_game_token):
        raise ApiError(
            403, f"{TOKEN_HEADER}: this is not the secret of game {game_id!r}", "bad_token"
        )
    return game_id


#: A game id in a changing route: the request must carry the game's secret.
AuthorizedId = Annotated[str, Depends(_authorize)]
