"""The club's routes: the TV board, two players on two devices, take-back, the aim check.

* ``GET /board/{id}``: the full-screen board for a club's TV (``templates/board.html``).
* ``GET /api/games/{id}/aim?x&y&aim``: from hand, whether a straight aim reaches a ball in
  baulk first (``onered.rules.possible.aim_warning``), so the page warns before the strike.
* ``GET /api/games/{id}/shots/{seq}``: the animation of a played stroke, simulated again
  from its stored cue action (the simulation is deterministic), so a second device animates
  the other player's stroke.
* Seats: ``POST /api/games/{id}/seats`` (with the game's secret) gives each of the two
  players of a played game a secret of his own; with it (``X-Seat-Token``) a player strikes
  and chooses only on his own turn (``/seat/play``, ``/seat/choice``).
* Take-back: against the computer, or at one screen, ``POST /api/games/{id}/takeback`` with
  the game's secret takes back the last stroke of the player who asks (and what followed);
  with seats, one player asks and the other agrees (``/takeback/answer``).

Seats and take-back requests are kept in the game database (tables ``seats`` and
``takebacks`` beside the store's own, migration ``0004_club``), only the secrets' SHA-256
as the store does. The rules
of turns and take-back are the game core's (``onered.game.turns``): these routes keep the
seats and the requests, and let the game core's refusals rise to the one handler
(``onered.web.errors``).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import Field

from onered.game import Action, turns
from onered.game.session import Ruled, Session
from onered.game.shots import stroke_again
from onered.players.spec import ai_level
from onered.rules.possible import aim_warning, first_ball_ahead
from onered.web.db import Conn
from onered.web.errors import ApiError, not_found
from onered.web.games import check_secret, games_of
from onered.web.models import AfterBody, Body, ChoiceBody, PlayBody
from onered.web.pad import why_json
from onered.web.pages import page
from onered.web.play import shot_json
from onered.web.store import Mode, Store, hash_token

SEAT_HEADER = "X-Seat-Token"

# --- the club's tables ------------------------------------------------------------------------


def _db(store: Store) -> AbstractContextManager[Conn]:
    """A connection to the game database, in one committed transaction."""
    return store.db.write()


def seat_of(store: Store, game_id: str, token: str | None) -> int | None:
    """The player (0 or 1) whose seat secret ``token`` is, or ``None``."""
    if not token:
        return None
    with store.db.read() as conn:
        row = conn.execute(
            "SELECT player FROM seats WHERE game_id = ? AND token_hash = ?",
            (game_id, hash_token(token)),
        ).fetchone()
    return None if row is None else int(row[0])


def has_seats(store: Store, game_id: str) -> bool:
    with store.db.read() as conn:
        row = conn.execute("SELECT 1 FROM seats WHERE game_id = ?", (game_id,)).fetchone()
    return row is not None


# --- request bodies ---------------------------------------------------------------------------


class SeatsBody(Body):
    """``player``: the index of the player the caller (the game's creator) plays."""

    player: int = Field(ge=0, le=1)


class AnswerBody(AfterBody):
    agree: bool


# --- helpers ----------------------------------------------------------------------------------


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _game(request: Request, game_id: str) -> Session:
    return games_of(request).replay(game_id)[1]


def _played(request: Request, game_id: str) -> Session:
    row, game = games_of(request).replay(game_id)
    if row.mode is not Mode.PLAY:
        raise ApiError(409, "this game is marked, not played on the simulated table", "not_played")
    return game


def _commit(
    request: Request,
    game_id: str,
    after: int | None,
    lines: Sequence[Mapping[str, Any] | Ruled],
    *,
    pop: int = 0,
) -> dict[str, Any]:
    """Drop ``pop`` lines, judge and append ``lines`` (a :class:`Ruled` line as judged),
    store (the games' one way to change a game); a pending take-back request goes with any
    change. The answer is the change's (``verdict``, ``game``) with the game's new
    ``version``."""
    answer = games_of(request).changed_view(game_id, after, lines, pop=pop)
    with _db(_store(request)) as conn:
        conn.execute("DELETE FROM takebacks WHERE game_id = ?", (game_id,))
    return {**answer, "version": answer["game"]["state"]["version"]}


def _seat(store: Store, game_id: str, token: str | None) -> int:
    if not token:
        raise ApiError(
            401, f"{SEAT_HEADER}: missing; a player's seat needs his own secret", "no_secret"
        )
    player = seat_of(store, game_id, token)
    if player is None:
        raise ApiError(
            403, f"{SEAT_HEADER}: not a player's secret of game {game_id!r}", "bad_secret"
        )
    return player


def _computer(game: Session) -> tuple[int, ...]:
    """The players (indices) the computer plays, from the game's entrants."""
    kinds = game.entrants
    return tuple(i for i, n in enumerate(game.players) if ai_level(kinds.get(n)) is not None)


def _seated_turn(request: Request, game_id: str, token: str | None) -> Session:
    """The played game, once the seat's secret is shown and it is that player's turn."""
    player = _seat(_store(request), game_id, token)
    game = _played(request, game_id)
    turns.check_turn(game, player)
    return game


def shot_of(game: Session, seq: int) -> dict[str, Any]:
    """The animation of stroke line ``seq`` of a played game (``onered.game.shots``)."""
    stroke = stroke_again(game, seq)
    return shot_json(stroke.result, stroke.before)


# --- the routes -------------------------------------------------------------------------------


router = APIRouter()


@router.get("/board/{game_id}", include_in_schema=False)
def board_page(request: Request, game_id: str) -> HTMLResponse:
    """The club's TV board for one game."""
    if _store(request).game(game_id) is None:
        raise not_found(game_id)
    return page("board")


@router.get("/api/games/{game_id}/aim")
def aim_check(
    request: Request,
    game_id: str,
    x: Annotated[float, Query(ge=-1, le=5)],
    y: Annotated[float, Query(ge=-1, le=5)],
    aim: Annotated[float, Query(ge=-720, le=720)],
) -> dict[str, Any]:
    """From hand, at ``(x, y)`` aiming ``aim`` degrees: the first ball the straight line
    reaches (``first``) and the warning when it is a ball in baulk (2.6.6)."""
    if not (math.isfinite(x) and math.isfinite(y) and math.isfinite(aim)):
        raise ApiError(422, "x, y, aim: expected finite numbers", "bad_input")
    game = _game(request, game_id)
    state = game.state
    first = None if game.over else first_ball_ahead(state, (x, y), aim)
    return {
        "first": None if first is None else first.value,
        "warning": why_json(aim_warning(state, (x, y), aim)),
    }


@router.get("/api/games/{game_id}/shots/{seq}")
def shot(request: Request, game_id: str, seq: int) -> dict[str, Any]:
    """The animation of a played stroke (for the other player's device)."""
    return shot_of(_played(request, game_id), seq)


@router.get("/api/games/{game_id}/club")
def club_state(request: Request, game_id: str) -> dict[str, Any]:
    """Whether the players have seats, and a pending take-back request."""
    store = _store(request)
    if store.game(game_id) is None:
        raise not_found(game_id)
    with store.db.snapshot() as conn:
        seats = conn.execute("SELECT 1 FROM seats WHERE game_id = ?", (game_id,)).fetchone()
        tb = conn.execute(
            "SELECT player, version FROM takebacks WHERE game_id = ?", (game_id,)
        ).fetchone()
    return {
        "seats": seats is not None,
        "takeback": None if tb is None else {"player": int(tb[0]), "version": int(tb[1])},
    }


@router.post("/api/games/{game_id}/seats")
def make_seats(
    request: Request,
    game_id: str,
    body: SeatsBody,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Give both players of a played game between two people a secret of their own; the
    caller plays ``player``. Asked again, it gives new secrets (the old ones stop working)."""
    store = _store(request)
    check_secret(store, game_id, x_game_token)
    game = _played(request, game_id)
    turns.check_two_people(_computer(game))
    tokens = [secrets.token_urlsafe(24), secrets.token_urlsafe(24)]
    with _db(store) as conn:
        conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
        conn.executemany(
            "INSERT INTO seats (game_id, player, token_hash) VALUES (?, ?, ?)",
            [(game_id, i, hash_token(tok)) for i, tok in enumerate(tokens)],
        )
    other = 1 - body.player
    return {
        "player": body.player,
        "mine": tokens[body.player],
        "theirs": tokens[other],
        "url": f"/play/{game_id}#seat={tokens[other]}",
    }


@router.get("/api/games/{game_id}/seat")
def my_seat(
    request: Request, game_id: str, x_seat_token: Annotated[str | None, Header()] = None
) -> dict[str, Any]:
    """Whose seat a secret is."""
    store = _store(request)
    game = _game(request, game_id)
    player = _seat(store, game_id, x_seat_token)
    return {"player": player, "name": game.players[player]}


@router.post("/api/games/{game_id}/seat/play")
def seat_play(
    request: Request,
    game_id: str,
    body: PlayBody,
    x_seat_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """A stroke by the player of this seat, on his own turn only."""
    game = _seated_turn(request, game_id, x_seat_token)
    action = Action(strike=body.strike.strike(), placed=body.placed)  # checked by the game
    with games_of(request).lock:  # the shared session is read while simulating
        played = game.plan_play(action)
    after = body.after if body.after is not None else len(game.entries)
    shot = shot_json(played.stroke.result, played.stroke.before)
    return {**_commit(request, game_id, after, [played.ruled]), "shot": shot}


@router.post("/api/games/{game_id}/seat/choice")
def seat_choice(
    request: Request,
    game_id: str,
    body: ChoiceBody,
    x_seat_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The foul option of the player of this seat (his turn only)."""
    game = _seated_turn(request, game_id, x_seat_token)
    with games_of(request).lock:
        line = dict(game.plan_choice(body.option))
    after = body.after if body.after is not None else len(game.entries)
    return _commit(request, game_id, after, [line])


@router.post("/api/games/{game_id}/takeback")
def takeback(
    request: Request,
    game_id: str,
    body: AfterBody,
    x_game_token: Annotated[str | None, Header()] = None,
    x_seat_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Take back a stroke. With a seat's secret: ask the opponent (he agrees with
    ``/takeback/answer``). With the game's secret (against the computer, or both players at
    one screen): the last stroke of the person to ask — the human against the computer,
    else the last stroke played — and everything after it is taken back at once."""
    store = _store(request)
    if x_seat_token:
        player = _seat(store, game_id, x_seat_token)
        game = _played(request, game_id)
        asked = turns.ask_takeback(game, player)
        with _db(store) as conn:
            conn.execute(
                "INSERT INTO takebacks (game_id, player, version) VALUES (?, ?, ?)"
                " ON CONFLICT (game_id) DO UPDATE SET player = excluded.player,"
                " version = excluded.version",
                (game_id, asked.player, asked.lines),
            )
        return {"version": asked.lines, "requested": True}
    check_secret(store, game_id, x_game_token)
    game = _played(request, game_id)
    who = turns.takeback_player(game, _computer(game))
    pop = turns.takeback_lines(game, who)
    return {**_commit(request, game_id, body.after, [], pop=pop), "taken": pop}


@router.post("/api/games/{game_id}/takeback/answer")
def takeback_answer(
    request: Request,
    game_id: str,
    body: AnswerBody,
    x_seat_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """The opponent's answer to a take-back request: agreed, the asker's last stroke and
    what followed are taken back; refused, the request is dropped."""
    store = _store(request)
    player = _seat(store, game_id, x_seat_token)
    game = _played(request, game_id)
    with _db(store) as conn:
        tb = conn.execute(
            "SELECT player, version FROM takebacks WHERE game_id = ?", (game_id,)
        ).fetchone()
        asked = None if tb is None else turns.TakebackRequest(int(tb[0]), int(tb[1]))
        if asked is not None and (not body.agree or asked.player == player):
            conn.execute("DELETE FROM takebacks WHERE game_id = ?", (game_id,))
    if not body.agree and asked is not None and asked.player != player:
        return {"version": len(game.entries), "taken": 0}
    pop = turns.agreed_takeback(game, asked, player)
    return {**_commit(request, game_id, body.after, [], pop=pop), "taken": pop}


def install(app: FastAPI) -> None:
    """Add these routes to ``app`` (once)."""
    if getattr(app.state, "club_installed", False):
        return
    app.state.club_installed = True
    app.include_router(router)
