"""Tournaments on the web: the JSON API, the pages, the club's screen and the paper.

* ``POST /api/tournaments`` makes a tournament (201): ``{"id", "token", "urls",
  "tournament"}``. Running it is the organiser's: a club admin signed in (the club's
  tournament; ``onered.web.accounts``), or whoever shows the organiser's secret returned
  here (``X-Game-Token``, as a match's) — a club without accounts runs one so.
* ``POST /api/tournaments/{id}/players`` enters players (by name and rating, or from the
  player register by ``register_id``), ``/draw`` draws it (seeded by rating), ``/tables``
  gives the ready fixtures the free tables, ``/fixtures/{key}/match`` starts a fixture's
  match (a marked best of N, ``onered.web.api_matches``, linked), ``/fixtures/{key}/result``
  and ``/walkover`` enter a result by hand, ``/fixtures/{key}/undo`` takes one out,
  ``/withdraw`` withdraws a player. Each change may name the ``revision`` it was made
  against (another one is refused, 409 ``stale``).
* ``GET /api/tournaments/{id}``: everything the pages show (fixtures, brackets, tables).
* Results of marked matches come in by themselves (``onered.web.match_results``).
* Pages: ``/tournaments`` (the list, a new tournament), ``/tournaments/{id}`` (the bracket
  and league tables, the organiser's buttons), ``/tournaments/{id}/screen`` (the club's
  screen), ``/tournaments/{id}/print`` (score sheets and the bracket on paper), and
  ``/tournaments/{id}/tables/{n}`` (a table's QR code: the game on that table now).
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse
from pydantic import BaseModel, ConfigDict, Field

from onered.game import validate
from onered.tournament import Entrant, Format, Result, Stage, Tournament, TournamentError
from onered.web import api_matches
from onered.web.accounts import Role, current_account, database_of, require
from onered.web.db import ConstraintError
from onered.web.errors import ApiError
from onered.web.games import TOKEN_HEADER
from onered.web.match_results import Outcomes, matches_of, reconcile, tournaments_of
from onered.web.pages import page
from onered.web.qr import router as qr_router
from onered.web.tournaments import TournamentRow, Tournaments, drawn, stale

router = APIRouter()

#: Most players a tournament takes, and most tables.
MAX_PLAYERS = 256
MAX_TABLES = 64


# --- request bodies ---------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Change(_Body):
    """``revision``: the tournament's revision the change was made against (another one is
    refused as ``stale``); without it the change is made on the current one."""

    revision: int | None = Field(default=None, ge=0)


class NewTournament(_Body):
    """A tournament: its ``format``, matches the best of ``best_of`` games to ``target``
    points, ``groups`` and ``advance`` (groups then knockout), the club's ``tables``, the
    draw's ``seed`` (drawn at random when left out) and the ``club`` it belongs to (a
    signed-in club admin's own by default)."""

    name: str = Field(min_length=1, max_length=80)
    format: Format = Format.KNOCKOUT
    best_of: int = Field(default=1, ge=1, le=99)
    target: int = Field(default=100, ge=1, le=100_000)
    groups: int = Field(default=0, ge=0, le=64)
    advance: int = Field(default=2, ge=1, le=64)
    tables: list[int] = Field(default_factory=lambda: [1, 2, 3, 4], max_length=MAX_TABLES)
    seed: int | None = Field(default=None, ge=0, le=2**31)
    club: str | None = Field(default=None, max_length=64)


class PlayerIn(_Body):
    """A player: a ``name`` (and ``rating``, ``club``), or a player of the register by its
    id (``register_id``: its name and rating are taken from there)."""

    name: str | None = Field(default=None, max_length=200)
    rating: float | None = Field(default=None, ge=0, le=10_000)
    club: str = Field(default="", max_length=80)
    register_id: str | None = Field(default=None, max_length=64)


class Players(_Change):
    players: list[PlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS)


class Tables(_Change):
    """``tables``: the free tables (the tournament's own when left out)."""

    tables: list[int] | None = Field(default=None, max_length=MAX_TABLES)


class StartMatch(_Change):
    """The fixture's match: ``breaker`` (0: the fixture's first player) won the lag and
    plays ``breaker_ball``; ``handicap``: each side's start, points."""

    breaker: int = Field(default=0, ge=0, le=1)
    breaker_ball: str = Field(default="white", pattern="^(white|yellow)$")
    handicap: list[int] = Field(default_factory=lambda: [0, 0], min_length=2, max_length=2)


class ResultIn(_Change):
    """A result entered by hand: the ``winner`` (an entrant's id or name) and the games
    each of the fixture's players won (``games``: the first player's, the second's)."""

    winner: str = Field(min_length=1, max_length=200)
    games: list[int] = Field(min_length=2, max_length=2)


class WalkoverIn(_Change):
    """A walkover: the ``winner`` (id or name) goes on without playing."""

    winner: str = Field(min_length=1, max_length=200)


class WithdrawIn(_Change):
    """``player``: the id or name of the player who withdraws."""

    player: str = Field(min_length=1, max_length=200)


# --- helpers ----------------------------------------------------------------------------------


def _tournaments(request: Request) -> Tournaments:
    return tournaments_of(request.app)


def _organiser(request: Request, row: TournamentRow, token: str | None) -> None:
    """Refuse a change by anyone but the tournament's organiser: the secret given when it
    was made, or a signed-in admin of its club (401 without either, 403 with a wrong one)."""
    if token:
        if _tournaments(request).check_token(row.id, token):
            return
        raise ApiError(
            403, f"{TOKEN_HEADER}: this is not the secret of tournament {row.id!r}", "bad_token"
        )
    if row.club_id is None and current_account(request) is None:
        raise ApiError(
            401,
            f"{TOKEN_HEADER}: missing; running a tournament needs its organiser's secret",
            "no_token",
        )
    require(request, Role.CLUB_ADMIN if row.club_id else Role.FEDERATION_ADMIN, row.club_id)


def _known(request: Request, tournament_id: str, token: str | None) -> TournamentRow:
    row = _tournaments(request).known(tournament_id)
    _organiser(request, row, token)
    return row


def _entrant_id(state: Tournament, who: str) -> str:
    """An entrant named by id or by name (casefolded)."""
    for e in state.entrants:
        if who in (e.id, e.name) or e.name.casefold() == who.casefold():
            return e.id
    raise TournamentError(
        f"player {who!r}: not in this tournament", code="unknown_entrant", params={"id": who}
    )


def _register_player(request: Request, register_id: str) -> tuple[str, float | None, str]:
    """The name, rating and club of a player of the register (404 ``no_player``)."""
    with database_of(request.app).read() as conn:
        r = conn.execute(
            "SELECT p.name, p.rating, c.name FROM register_players p"
            " LEFT JOIN clubs c ON c.id = p.club_id WHERE p.id = ?",
            (register_id,),
        ).fetchone()
    if r is None:
        raise ApiError(
            404, f"player {register_id!r}: not in the register", "no_player", {"id": register_id}
        )
    return str(r[0]), None if r[1] is None else float(r[1]), str(r[2] or "")


def _fixture_state(row: TournamentRow, state: Tournament, key: str) -> str:
    f = state.fixture(key)
    if f.bye:
        return "bye"
    if state.result_of(key) is not None:
        return "done"
    if not f.known:
        return "waiting"
    return "playing" if row.link(key) is not None else "ready"


def _person(names: dict[str, str], entrant: str | None) -> dict[str, str] | None:
    return None if entrant is None else {"id": entrant, "name": names.get(entrant, entrant)}


def view(row: TournamentRow) -> dict[str, Any]:
    """The tournament as the pages and the API show it."""
    out: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "club_id": row.club_id,
        "format": row.format.value,
        "best_of": row.best_of,
        "target": row.target,
        "groups": row.groups,
        "advance": row.advance,
        "tables": list(row.tables),
        "status": row.status.value,
        "revision": row.revision,
        "created": row.created,
        "updated": row.updated,
        "urls": {
            "page": f"/tournaments/{row.id}",
            "screen": f"/tournaments/{row.id}/screen",
            "print": f"/tournaments/{row.id}/print",
        },
    }
    state = row.state
    if state is None:
        out["entrants"] = [
            {"id": e.id, "name": e.name, "club": e.club, "rating": e.rating, "seed": None}
            for e in row.entrants
        ]
        out.update(fixtures=[], standings=[], winner=None, rounds=0)
        return out
    names = {e.id: e.name for e in state.entrants}
    out["entrants"] = [
        {
            "id": e.id,
            "name": e.name,
            "club": e.club,
            "rating": e.rating,
            "seed": n,
            "withdrawn": e.id in state.withdrawn,
        }
        for n, e in enumerate(state.entrants, 1)
    ]
    fixtures = []
    for f in state.fixtures:
        result = state.result_of(f.key)
        link = row.link(f.key)
        fixtures.append(
            {
                "key": f.key,
                "stage": f.stage.value,
                "group": f.group,
                "round": f.round,
                "number": f.number,
                "a": _person(names, f.a),
                "b": _person(names, f.b),
                "bye": f.bye,
                "best_of": f.best_of,
                "table": f.table,
                "state": _fixture_state(row, state, f.key),
                "result": None
                if result is None
                else {
                    "winner": _person(names, result.winner),
                    "games": [result.games_a, result.games_b],
                    "walkover": result.walkover,
                    "handicap": list(result.handicap),
                },
                "match": None
                if link is None
                else {"id": link.match_id, "url": f"/matches/{link.match_id}"},
            }
        )
    out["fixtures"] = fixtures
    tables: list[dict[str, Any]] = []
    if state.format is Format.ROUND_ROBIN:
        tables.append({"group": None, "lines": _lines(state, None, names)})
    elif state.format is Format.GROUPS_THEN_KNOCKOUT:
        for g in range(1, state.groups + 1):
            tables.append({"group": g, "lines": _lines(state, g, names)})
    out["standings"] = tables
    knockout = [f.round for f in state.fixtures if f.stage is Stage.KNOCKOUT]
    out["rounds"] = max(knockout, default=0)
    out["winner"] = _person(names, state.winner)
    return out


def _lines(state: Tournament, group: int | None, names: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "place": n,
            "entrant": _person(names, s.entrant),
            "played": s.played,
            "won": s.won,
            "lost": s.lost,
            "games_won": s.games_won,
            "games_lost": s.games_lost,
            "points": s.points,
            "withdrawn": s.entrant in state.withdrawn,
        }
        for n, s in enumerate(state.standings(group), 1)
    ]


def _answer(row: TournamentRow) -> dict[str, Any]:
    return {"tournament": view(row)}


# --- the API ----------------------------------------------------------------------------------


@router.post("/api/tournaments", status_code=201)
def new_tournament(request: Request, body: NewTournament) -> dict[str, Any]:
    """Make a tournament (no players yet): its id, the organiser's secret, its pages."""
    account = current_account(request)
    club = body.club
    if account is not None:
        club = club or account.club_id
        require(request, Role.CLUB_ADMIN, club)
    elif club is not None:
        raise ApiError(401, "a club's tournament is made by its admin, signed in", "signed_out", {})
    tables = list(dict.fromkeys(body.tables))
    if any(t < 1 or t > 999 for t in tables):
        raise ApiError(422, "tables: numbers from 1 to 999", "invalid", {"where": "tables"})
    row, token = _tournaments(request).create(
        name=validate.name(body.name, "name"),
        club_id=club,
        target=validate.target(body.target),
        best_of=body.best_of,
        format=body.format,
        groups=body.groups,
        advance=body.advance,
        seed=secrets.randbelow(2**31) if body.seed is None else body.seed,
        tables=tables,
    )
    return {"id": row.id, "token": token, "urls": view(row)["urls"], "tournament": view(row)}


@router.get("/api/tournaments")
def list_tournaments(
    request: Request,
    club: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """The tournaments (of a club), the latest changed first."""
    rows = _tournaments(request).listed(club, limit)
    return {
        "tournaments": [
            {
                "id": r.id,
                "name": r.name,
                "format": r.format.value,
                "status": r.status.value,
                "players": len(r.state.entrants if r.state else r.entrants),
                "updated": r.updated,
                "url": f"/tournaments/{r.id}",
            }
            for r in rows
        ]
    }


@router.get("/api/tournaments/{tournament_id}")
def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """The tournament: players, fixtures (with their tables, results and matches), league
    tables, the winner. A decided match's result that has not come in is entered first."""
    tournaments = _tournaments(request)
    tournaments.known(tournament_id)
    reconcile(request.app, tournament_id)
    return view(tournaments.known(tournament_id))


@router.post("/api/tournaments/{tournament_id}/players")
def enter_players(
    request: Request,
    tournament_id: str,
    body: Players,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Enter players (before the draw)."""
    row = _known(request, tournament_id, x_game_token)
    made: list[Entrant] = []
    taken = len(row.entrants)
    if taken + len(body.players) > MAX_PLAYERS:
        raise ApiError(422, f"players: at most {MAX_PLAYERS}", "invalid", {"where": "players"})
    for k, p in enumerate(body.players):
        if p.register_id is not None:
            name, rating, club = _register_player(request, p.register_id)
            entrant_id = p.register_id
        else:
            name = validate.name(p.name or "", f"players[{k}].name")
            rating, club, entrant_id = p.rating, p.club, f"e{taken + k + 1}"
        made.append(Entrant(entrant_id, name, club, rating))
    return _answer(_tournaments(request).enter(tournament_id, body.revision, made))


@router.post("/api/tournaments/{tournament_id}/draw")
def make_draw(
    request: Request,
    tournament_id: str,
    body: _Change,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Draw the tournament: the players seeded by rating, the fixtures made."""
    _known(request, tournament_id, x_game_token)
    return _answer(_tournaments(request).make_draw(tournament_id, body.revision))


@router.post("/api/tournaments/{tournament_id}/tables")
def assign_tables(
    request: Request,
    tournament_id: str,
    body: Tables,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Give the ready fixtures the free tables, in the order they are to be played."""
    row = _known(request, tournament_id, x_game_token)
    free = row.tables if body.tables is None else tuple(body.tables)
    return _answer(
        _tournaments(request).play(
            tournament_id, body.revision, lambda state, _: state.assign_tables(free)
        )
    )


@router.post("/api/tournaments/{tournament_id}/fixtures/{key}/match", status_code=201)
def start_match(
    request: Request,
    tournament_id: str,
    key: str,
    body: StartMatch,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Start a ready fixture's match (marked; linked: its result comes in by itself). The
    answer is ``POST /api/matches``'s: the match's and its first game's ids and secrets."""
    row = _known(request, tournament_id, x_game_token)
    if body.revision is not None and body.revision != row.revision:
        raise stale(body.revision, row.revision)
    state = drawn(row)
    fixture = state.fixture(key)
    if not fixture.known or state.result_of(key) is not None:
        raise ApiError(
            409, f"fixture {key}: it is not ready to be played", "not_ready", {"fixture": key}
        )
    if row.link(key) is not None:
        raise ApiError(
            409, f"fixture {key}: its match has started", "fixture_started", {"fixture": key}
        )
    names = {e.id: e.name for e in state.entrants}
    made = api_matches.new_match(
        request,
        api_matches.NewMatch(
            players=[names[str(fixture.a)], names[str(fixture.b)]],
            best_of=fixture.best_of,
            target=row.target,
            handicap=body.handicap,
            breaker=body.breaker,
            breaker_ball=body.breaker_ball,
        ),
    )
    try:
        _tournaments(request).link(tournament_id, key, str(made["id"]))
    except ConstraintError:
        raise ApiError(
            409, f"fixture {key}: its match has started", "fixture_started", {"fixture": key}
        ) from None
    made["tournament"] = view(_tournaments(request).known(tournament_id))
    return made


@router.post("/api/tournaments/{tournament_id}/fixtures/{key}/result")
def enter_result(
    request: Request,
    tournament_id: str,
    key: str,
    body: ResultIn,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Enter a fixture's result by hand (a match played on paper)."""
    _known(request, tournament_id, x_game_token)

    def act(state: Tournament, _: TournamentRow) -> Tournament:
        winner = _entrant_id(state, body.winner)
        return state.record(Result(key, winner, body.games[0], body.games[1]))

    return _answer(_tournaments(request).play(tournament_id, body.revision, act))


@router.post("/api/tournaments/{tournament_id}/fixtures/{key}/walkover")
def walkover(
    request: Request,
    tournament_id: str,
    key: str,
    body: WalkoverIn,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """A walkover: the winner goes on without playing (the other did not come)."""
    _known(request, tournament_id, x_game_token)

    def act(state: Tournament, _: TournamentRow) -> Tournament:
        winner = _entrant_id(state, body.winner)
        return state.record(Result(key, winner, 0, 0, walkover=True))

    return _answer(_tournaments(request).play(tournament_id, body.revision, act))


@router.post("/api/tournaments/{tournament_id}/fixtures/{key}/undo")
def undo_result(
    request: Request,
    tournament_id: str,
    key: str,
    body: _Change,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Take a wrongly entered result out, while the tournament has not moved past it."""
    _known(request, tournament_id, x_game_token)
    return _answer(_tournaments(request).undo(tournament_id, body.revision, key))


@router.post("/api/tournaments/{tournament_id}/withdraw")
def withdraw(
    request: Request,
    tournament_id: str,
    body: WithdrawIn,
    x_game_token: Annotated[str | None, Header()] = None,
) -> dict[str, Any]:
    """Withdraw a player: each match of theirs left is a walkover to the opponent."""
    _known(request, tournament_id, x_game_token)

    def act(state: Tournament, _: TournamentRow) -> Tournament:
        return state.withdraw(_entrant_id(state, body.player))

    return _answer(_tournaments(request).play(tournament_id, body.revision, act))


# --- pages ------------------------------------------------------------------------------------


@router.get("/tournaments", include_in_schema=False)
def tournaments_page() -> HTMLResponse:
    return page("tournaments")


def _page(name: str) -> Any:
    async def show(request: Request, tournament_id: str) -> HTMLResponse:
        await run_in_threadpool(_tournaments(request).known, tournament_id)
        return page(name)

    return show


for _path, _name in (
    ("/tournaments/{tournament_id}", "tournament"),
    ("/tournaments/{tournament_id}/screen", "tournament_screen"),
    ("/tournaments/{tournament_id}/print", "tournament_print"),
):
    router.add_api_route(_path, _page(_name), methods=["GET"], include_in_schema=False)


@router.get(
    "/tournaments/{tournament_id}/tables/{table}",
    include_in_schema=False,
    response_class=RedirectResponse,
)
def follow_table(request: Request, tournament_id: str, table: int) -> RedirectResponse:
    """A table's QR code: the game being played on ``table`` now (its watch page), else
    the tournament's page."""
    row = _tournaments(request).known(tournament_id)
    state = row.state
    target = f"/tournaments/{tournament_id}"
    if state is not None:
        on = [f for f in state.fixtures if f.table == table and state.result_of(f.key) is None]
        link = row.link(on[0].key) if on else None
        match = None if link is None else matches_of(request.app).match(link.match_id)
        if match is not None and match.games:
            target = f"/watch/{match.games[-1]}"
    return RedirectResponse(target, status_code=303)


def install(app: FastAPI) -> None:
    """Add the tournaments' routes to ``app`` and hook decided matches to them."""
    app.include_router(router)
    app.include_router(qr_router)
    app.state.games.outcome = Outcomes(app)
