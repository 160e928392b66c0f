"""The web app: a FastAPI application over the game store, with its static front end.

``create_app(data_dir)`` builds the application; ``onered serve`` runs it with uvicorn.
Pages are static files shipped in the package (``onered/web/static``); they talk to the
JSON API under ``/api``. Reading is open to everyone; changing a game needs its secret, the
token returned once when the game is created, sent in the ``X-Game-Token`` header.

Every change is judged by the referee before it is stored, and stored (committed to disk)
before the response is sent.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from onered import __version__
from onered.game import Action
from onered.physics import TableSpec
from onered.physics.types import Strike
from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import verdict_json
from onered.rules import Ball, FoulCode, Match, Option, RulesError
from onered.table import (
    BALL_RADIUS,
    BAULK_Y,
    D_CENTRE,
    D_RADIUS,
    LENGTH,
    SPOT_POINTS,
    WIDTH,
)
from onered.texts import Lang
from onered.web import api_club, api_find, api_matches, api_players, coach, i18n, marking, play
from onered.web import record as rec
from onered.web.play import Strength
from onered.web.store import ConflictError, GameRow, Mode, Store

#: Where the front end's files are.
STATIC_DIR = Path(__file__).parent / "static"
#: Largest request body accepted (an imported file), and names' length.
MAX_IMPORT_BYTES = 16 * 1024 * 1024
MAX_BODY_BYTES = 256 * 1024
MAX_NAME = 40
TOKEN_HEADER = "X-Game-Token"
#: Sent with every answer: the pages load only their own files, and are not framed.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


# --- request bodies -------------------------------------------------------------------------


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewMode(Enum):
    """The modes a game can be created in (imports have their own endpoint)."""

    MARK = "mark"
    PLAY = "play"


class CueBall(Enum):
    WHITE = "white"
    YELLOW = "yellow"


class Opponent(Enum):
    """Who plays the second player in play mode."""

    HUMAN = "human"
    AI = "ai"


class NewGame(_Body):
    """A new game: ``players[breaker]`` breaks (won the lag) with ``breaker_ball``. In play
    mode against the computer, ``players[1]`` is the computer's name."""

    mode: NewMode = NewMode.MARK
    players: list[str] = Field(min_length=2, max_length=2)
    target: int = Field(default=100, ge=1, le=100_000)
    breaker: int = Field(default=0, ge=0, le=1)
    breaker_ball: CueBall = CueBall.WHITE
    opponent: Opponent = Opponent.HUMAN
    strength: Strength = Strength.AMATEUR


class LineBody(_Body):
    """A referee-protocol ``stroke`` or ``choice`` line; ``after``: the number of lines the
    client saw (a different number is a conflict, so a double tap cannot enter twice)."""

    line: dict[str, Any]
    after: int | None = Field(default=None, ge=1)


class MarkBody(_Body):
    """A stroke as the marker tapped it (see ``onered.web.marking``)."""

    parts: list[marking.Part] = Field(default_factory=list, max_length=8)
    fouls: list[FoulCode] = Field(default_factory=list, max_length=20)
    first_hit: marking.Hit | None = None
    crossed_baulk: bool = False
    touching: bool = False
    off_table: list[marking.Role] = Field(default_factory=list, max_length=3)
    struck: bool = True
    out_of_turn: bool = False
    after: int | None = Field(default=None, ge=1)


class AfterBody(_Body):
    after: int | None = Field(default=None, ge=1)


class ClaimBody(_Body):
    """Fouls claimed on the last stroke before the next one (2.12.4)."""

    fouls: list[FoulCode] = Field(min_length=1, max_length=20)
    after: int | None = Field(default=None, ge=1)


class ChoiceBody(_Body):
    option: Option
    after: int | None = Field(default=None, ge=1)


class StrikeBody(_Body):
    """A cue action (shot protocol): launch speed m/s, aim degrees counter-clockwise from
    +x, tip offset side/height in units of R, cue elevation degrees."""

    speed: float = Field(gt=0, le=10)
    aim: float = Field(ge=-360, le=720)
    side: float = Field(default=0.0, ge=-0.8, le=0.8)
    height: float = Field(default=0.0, ge=-0.8, le=0.8)
    elevation: float = Field(default=0.0, ge=0, le=90)


class PlayBody(_Body):
    strike: StrikeBody
    placed: tuple[float, float] | None = None
    after: int | None = Field(default=None, ge=1)


# --- errors ---------------------------------------------------------------------------------


class ApiError(Exception):
    """An error answered as ``{"error": message}`` with an HTTP status; ``code`` (sent as
    ``"code"`` when given) names the pages' catalogue entry ``error.<code>`` that says it in
    the page's language (``onered.web.i18n``)."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code

    def body(self) -> dict[str, str]:
        """The JSON answer."""
        out = {"error": self.message}
        if self.code is not None:
            out["code"] = self.code
        return out


def _game_over(game: rec.Game) -> ApiError:
    """The answer to a stroke sent after the end of the game."""
    winner = game.players[game.state.winner or 0]
    return ApiError(409, f"the game is over: {winner} has won", "over")


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = [str(x) for x in err.get("loc", ()) if x not in ("body", "query", "path", "header")]
        where = ".".join(loc) or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


# --- the application ------------------------------------------------------------------------


def _clean_name(raw: str, where: str) -> str:
    name = " ".join(raw.split())
    if not name:
        raise ApiError(422, f"{where}: a name must not be empty")
    if len(name) > MAX_NAME:
        raise ApiError(422, f"{where}: a name has at most {MAX_NAME} characters, got {len(name)}")
    if any(ord(c) < 32 for c in name):
        raise ApiError(422, f"{where}: control characters are not allowed")
    return name


def _strike_dict(body: StrikeBody) -> dict[str, float]:
    return {
        "speed": body.speed,
        "aim": body.aim,
        "side": body.side,
        "height": body.height,
        "elevation": body.elevation,
    }


def table_json() -> dict[str, Any]:
    """The table the pages draw, to scale (metres, the frame of RULES.md)."""
    geo = TableSpec().geometry()
    pockets = [
        {
            "name": p.name,
            "jaws": [list(p.jaw_points[0]), list(p.jaw_points[1])],
            "fall": list(p.fall_centre),
            "fall_radius": p.fall_radius,
        }
        for p in geo.pockets
    ]
    return {
        "width": WIDTH,
        "length": LENGTH,
        "ball_radius": BALL_RADIUS,
        "baulk_y": BAULK_Y,
        "d": {"centre": list(D_CENTRE), "radius": D_RADIUS},
        "spots": {s.value: list(p) for s, p in SPOT_POINTS.items()},
        "pockets": pockets,
    }


class _Games:
    """The game operations behind the routes: load, replay, change."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def row(self, game_id: str) -> GameRow:
        row = self.store.game(game_id)
        if row is None:
            raise ApiError(404, f"game {game_id!r}: no such game")
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
                        raise ApiError(409, "nothing to undo: the game has no strokes")
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
                        raise _game_over(game)
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
            raise ApiError(404, f"game {game_id!r}: no such game") from None
        except ConflictError as exc:
            raise ApiError(409, str(exc), "stale") from None
        return self.row(game_id), game, changed

    def changed_view(
        self, game_id: str, after: int | None, lines: list[dict[str, Any]], *, pop: int = 0
    ) -> dict[str, Any]:
        row, game, changed = self.change(game_id, after, lines, pop=pop)
        view = self.view(row, game, changed)
        return {"verdict": view["last"], "game": view}


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


def _authorize(
    request: Request, game_id: str, x_game_token: Annotated[str | None, Header()] = None
) -> str:
    """The game id, once the request has shown the game's secret."""
    store: Store = request.app.state.store
    if store.game(game_id) is None:
        raise ApiError(404, f"game {game_id!r}: no such game")
    if not x_game_token:
        raise ApiError(
            401,
            f"{TOKEN_HEADER}: missing; changing a game needs the secret given to its creator",
        )
    if not store.check_token(game_id, x_game_token):
        raise ApiError(403, f"{TOKEN_HEADER}: this is not the secret of game {game_id!r}")
    return game_id


#: A game id in a changing route: the request must carry the game's secret.
AuthorizedId = Annotated[str, Depends(_authorize)]


def _list_item(row: GameRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "mode": row.mode.value,
        "created": row.created,
        "updated": row.updated,
        **dict(row.summary),
    }


def create_app(data_dir: Path | str) -> FastAPI:
    """The application, with its store in ``data_dir`` (created if missing)."""
    store = Store(Path(data_dir))
    games = _Games(store)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        store.close()

    app = FastAPI(
        title="onered",
        version=__version__,
        description="Snooker-1-Red: play in a browser, mark real matches.",
        docs_url=None,  # the interactive docs load scripts from elsewhere: not offered
        openapi_url="/api/openapi.json",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.store = store
    app.include_router(coach.router)  # the coach page and /api/advise (onered.web.coach)
    api_club.install(app)  # the TV board, seats, take-back, aim check (onered.web.api_club)
    app.include_router(api_matches.router)  # matches, best of N (onered.web.api_matches)
    app.include_router(api_find.router)  # search, my games, delete (onered.web.api_find)
    app.include_router(api_players.router)  # a player's page (onered.web.api_players)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        """A fault of the server's own answered as JSON the pages can show (and retry),
        never as a bare page: the play page must not wait forever on it."""
        message = f"internal error: {type(exc).__name__}: {exc}"
        return JSONResponse(ApiError(500, message, "server").body(), status_code=500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse({"error": _validation_message(exc)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.middleware("http")
    async def limit_body(request: Request, call_next: Any) -> Response:
        length = request.headers.get("content-length")
        is_import = request.url.path == "/api/import"
        limit = MAX_IMPORT_BYTES if is_import else MAX_BODY_BYTES
        if length is None and not is_import and "transfer-encoding" in request.headers:
            return JSONResponse(
                {"error": f"Content-Length: required (a body of at most {limit} bytes)"},
                status_code=411,
            )
        if length is not None and (not length.isdigit() or int(length) > limit):
            return JSONResponse(
                {"error": f"the request body is too large (at most {limit} bytes)"},
                status_code=413,
            )
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    # --- pages ---------------------------------------------------------------------------

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC_DIR / name, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return page("index.html")

    @app.get("/mark/{game_id}", include_in_schema=False)
    def mark_page(game_id: str) -> FileResponse:
        games.row(game_id)
        return page("mark.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    def play_page(game_id: str) -> FileResponse:
        games.row(game_id)
        return page("play.html")

    @app.get("/watch/{game_id}", include_in_schema=False)
    def watch_page(game_id: str) -> FileResponse:
        games.row(game_id)
        return page("watch.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    def record_page(game_id: str) -> FileResponse:
        games.row(game_id)
        return page("game.html")

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    # --- reading -------------------------------------------------------------------------

    @app.get("/api/health")
    def health() -> dict[str, Any]:
        return {"ok": True, "version": __version__, "games": store.count()}

    @app.get("/api/i18n/{lang}")
    def labels(lang: Lang) -> dict[str, Any]:
        """Every label and call of the pages in one language."""
        return i18n.bundle(lang)

    @app.get("/api/table")
    def table() -> dict[str, Any]:
        return table_json()

    @app.get("/api/games")
    def list_games(
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
        offset: Annotated[int, Query(ge=0)] = 0,
    ) -> dict[str, Any]:
        return {
            "games": [_list_item(r) for r in store.games(limit, offset)],
            "total": store.count(),
        }

    @app.get("/api/games/{game_id}")
    def get_game(
        game_id: str,
        since: Annotated[int | None, Query(ge=0)] = None,
        revision: Annotated[int | None, Query(ge=0)] = None,
    ) -> dict[str, Any]:
        """The game: state, last verdict, and the log of lines from ``since`` (with
        ``revision``, the revision the client has: only what changed since is sent)."""
        return games.view_since(game_id, since, revision)

    @app.get("/api/games/{game_id}/export.jsonl")
    def export_jsonl(game_id: str) -> PlainTextResponse:
        _, game = games.replay(game_id)
        return PlainTextResponse(
            rec.export_jsonl(game),
            media_type="application/x-ndjson; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="onered-{game_id}.jsonl"'},
        )

    @app.get("/api/games/{game_id}/record.jsonl")
    def export_record(game_id: str) -> PlainTextResponse:
        row, game = games.replay(game_id)
        entrants = row.settings.get("entrants", {})
        return PlainTextResponse(
            rec.export_record(game, entrants if isinstance(entrants, dict) else {}),
            media_type="application/x-ndjson; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="onered-{game_id}.record.jsonl"'
            },
        )

    # --- creating ------------------------------------------------------------------------

    @app.post("/api/games", status_code=201)
    def new_game(body: NewGame) -> dict[str, Any]:
        names = [_clean_name(n, f"players[{i}]") for i, n in enumerate(body.players)]
        if names[0] == names[1]:
            raise ApiError(422, f"players: the two names must differ, got {names[0]!r} twice")
        order = names if body.breaker == 0 else [names[1], names[0]]
        first_ball = Ball(body.breaker_ball.value)
        second_ball = Ball.YELLOW if first_ball is Ball.WHITE else Ball.WHITE
        match = Match(
            target=body.target, players=(order[0], order[1]), balls=(first_ball, second_ball)
        )
        entrants = dict.fromkeys(names, play.HUMAN)
        if body.mode is NewMode.PLAY and body.opponent is Opponent.AI:
            entrants[names[1]] = play.ai_entrant(body.strength)
        try:
            if body.mode is NewMode.PLAY:
                first: dict[str, Any] = play.match_line(match, entrants)
            else:
                rec.new_match(match.target, match.players, match.balls)
                first = rec.match_line(match)
            game = rec.replay_objects([first])
        except (RulesError, rec.RecordError) as exc:
            raise ApiError(422, str(exc)) from None
        settings = {"entrants": entrants}
        mode = Mode.PLAY if body.mode is NewMode.PLAY else Mode.MARK
        game_id, token = store.create(
            mode, [rec.dumps_line(first)], settings, rec.summary_json(game)
        )
        row = games.row(game_id)
        return {
            "id": game_id,
            "token": token,
            "urls": _urls(game_id, mode),
            "game": games.view(row, game, 0),
        }

    @app.post("/api/import", status_code=201)
    async def import_game(request: Request) -> dict[str, Any]:
        """A game file: the referee protocol's JSON Lines, or a game record."""
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_IMPORT_BYTES:
                raise ApiError(413, f"file: too large (at most {MAX_IMPORT_BYTES} bytes)")
            chunks.append(chunk)
        try:
            text = b"".join(chunks).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(422, f"file: not UTF-8 text ({exc.reason})") from None
        try:
            objects = rec.parse_file(text)
            game = rec.replay_objects(objects)
        except rec.RecordError as exc:
            raise ApiError(422, f"file: {exc}") from None
        raw_entrants = game.entries[0].line.get("entrants")
        entrants = (
            {str(k): str(v) for k, v in raw_entrants.items()}
            if isinstance(raw_entrants, dict)
            else dict.fromkeys(game.players, play.HUMAN)
        )
        lines = [rec.dumps_line(e.line) for e in game.entries]
        mode = Mode.PLAY if play.playable(game) else Mode.IMPORT
        game_id, token = store.create(mode, lines, {"entrants": entrants}, rec.summary_json(game))
        row = games.row(game_id)
        return {
            "id": game_id,
            "token": token,
            "urls": _urls(game_id, mode),
            "game": games.view(row, game, 0),
        }

    # --- changing ------------------------------------------------------------------------

    def markable(game_id: str) -> None:
        if games.row(game_id).mode is Mode.PLAY:
            raise ApiError(
                409,
                "this game is played on the simulated table: strokes come from "
                "/play, not from the marker",
            )

    @app.post("/api/games/{game_id}/check")
    def check(game_id: AuthorizedId) -> dict[str, Any]:
        """Whether the secret sent is this game's (403 if not): changes nothing."""
        return {"ok": True, "id": game_id}

    @app.post("/api/games/{game_id}/lines")
    def add_line(game_id: AuthorizedId, body: LineBody) -> dict[str, Any]:
        """Append a referee-protocol ``stroke`` or ``choice`` line (judged first)."""
        markable(game_id)
        try:
            line = rec.clean_line(body.line)
        except ProtocolError as exc:
            raise ApiError(422, f"line: {exc}") from None
        if line.get("type") == "match":
            raise ApiError(422, "line: a second match line: the match line comes once, first")
        return games.changed_view(game_id, body.after, [line])

    @app.post("/api/games/{game_id}/mark")
    def mark(game_id: AuthorizedId, body: MarkBody) -> dict[str, Any]:
        """Append the stroke the marker tapped."""
        markable(game_id)
        _, game = games.replay(game_id)
        if game.over:
            raise _game_over(game)
        tapped = marking.Mark(
            parts=frozenset(body.parts),
            fouls=frozenset(body.fouls),
            first_hit=body.first_hit,
            crossed_baulk=body.crossed_baulk,
            touching=body.touching,
            off_table=frozenset(body.off_table),
            struck=body.struck,
            out_of_turn=body.out_of_turn,
        )
        try:
            line = marking.compose(game.state, tapped)
        except marking.MarkError as exc:
            raise ApiError(422, str(exc)) from None
        return games.changed_view(game_id, body.after, [line])

    @app.post("/api/games/{game_id}/choice")
    def choice(game_id: AuthorizedId, body: ChoiceBody) -> dict[str, Any]:
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

    @app.post("/api/games/{game_id}/undo")
    def undo(game_id: AuthorizedId, body: AfterBody) -> dict[str, Any]:
        """Take back the last line (a stroke, or a foul option)."""
        return games.changed_view(game_id, body.after, [], pop=1)

    @app.post("/api/games/{game_id}/claim")
    def claim(game_id: AuthorizedId, body: ClaimBody) -> dict[str, Any]:
        """A foul on the last stroke, claimed before the next stroke (2.12.4): the stroke is
        judged again with the foul."""
        markable(game_id)
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

    @app.post("/api/games/{game_id}/play")
    def play_stroke(game_id: AuthorizedId, body: PlayBody) -> dict[str, Any]:
        """Play a stroke on the simulated table; the answer has the shot to animate."""
        row, game = games.replay(game_id)
        if row.mode is not Mode.PLAY:
            raise ApiError(409, "this game is marked, not played on the simulated table")
        _check_turn_is_human(game, row)
        placed = body.placed
        if placed is not None and not all(math.isfinite(c) for c in placed):
            raise ApiError(422, "placed: expected two finite numbers")
        action = Action(strike=Strike(**_strike_dict(body.strike)), placed=placed)
        try:
            played = play.play(game, action)
        except play.PlayError as exc:
            raise ApiError(422, str(exc)) from None
        after = body.after if body.after is not None else len(game.entries)
        result = games.changed_view(game_id, after, [played.line])
        result["shot"] = played.shot
        return result

    def _check_turn_is_human(game: rec.Game, row: GameRow) -> None:
        if game.over:
            raise _game_over(game)
        name = game.players[game.state.to_play]
        entrant = play.entrants(game).get(name)
        if play.ai_strength(entrant) is not None:
            raise ApiError(409, f"it is {name}'s turn, and {name} is the computer")

    @app.post("/api/games/{game_id}/ai")
    def ai_turn(game_id: AuthorizedId, body: AfterBody) -> dict[str, Any]:
        """The computer plays its turn: a foul option or a stroke (with its shot)."""
        row, game = games.replay(game_id)
        if row.mode is not Mode.PLAY:
            raise ApiError(409, "this game is marked, not played on the simulated table")
        if game.over:
            raise _game_over(game)
        try:
            turn = play.ai_turn(game, _seed(game_id, len(game.entries)))
        except ValueError as exc:  # PlayError, or a refusal of the table's (never expected)
            raise ApiError(409, f"the computer cannot play: {exc}", "ai_failed") from None
        after = body.after if body.after is not None else len(game.entries)
        result = games.changed_view(game_id, after, [turn.line])
        result["shot"] = turn.shot
        return result

    return app


def _seed(game_id: str, version: int) -> int:
    """The computer's random seed for its turn at ``version`` of a game: the same position
    of the same game gets the same stroke."""
    return zlib.crc32(f"{game_id}:{version}".encode())


def _urls(game_id: str, mode: Mode) -> dict[str, str]:
    urls = {"watch": f"/watch/{game_id}", "record": f"/games/{game_id}"}
    if mode is Mode.PLAY:
        urls["play"] = f"/play/{game_id}"
    else:
        urls["mark"] = f"/mark/{game_id}"
    return urls
