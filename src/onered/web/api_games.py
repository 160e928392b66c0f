"""Reading and creating games: health, labels, the table, the list, one game, exports,
a new game, an import."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool

from onered import __version__
from onered.game import PhysicsSimulator, record, validate
from onered.game.record import RecordError
from onered.game.series import Series, game_match
from onered.game.session import HUMAN, Session
from onered.physics import Params, TableSpec
from onered.physics.cue import strike_limits
from onered.players.spec import ai_entrant
from onered.rules import Ball
from onered.table import BALL_RADIUS, BAULK_Y, D_CENTRE, D_RADIUS, LENGTH, SPOT_POINTS, WIDTH
from onered.texts import Lang
from onered.web import i18n
from onered.web.errors import ApiError
from onered.web.games import Games, GamesDep, list_item, urls
from onered.web.limits import MAX_OFFSET, MAX_VERSION, Gate
from onered.web.models import NewGame, NewMode, Opponent
from onered.web.store import Mode
from onered.web.view import LOG_PAGE, game_json, summary_json

#: Largest imported file (the record format's limit).
MAX_IMPORT_BYTES = record.MAX_BYTES
#: A record's judged fields (``docs/record-format.md``): dropped from an imported line.
JUDGED = frozenset({"verdict", "opening"})

router = APIRouter()


def table_json() -> dict[str, Any]:
    """The table the pages draw, to scale (metres, the frame of docs/rules.md), and the
    limits of a strike (the engine's: the play page's controls keep within them)."""
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
        "cushion_height": Params().cushion_height,  # the nose's height: the side view's line
        "baulk_y": BAULK_Y,
        "d": {"centre": list(D_CENTRE), "radius": D_RADIUS},
        "spots": {s.value: list(p) for s, p in SPOT_POINTS.items()},
        "pockets": pockets,
        "strike_limits": strike_limits(),
    }


@router.get("/api/health")
def health(request: Request) -> dict[str, Any]:
    return {"ok": True, "version": __version__, "games": request.app.state.store.count()}


@router.get("/api/i18n/{lang}")
def labels(lang: Lang) -> dict[str, Any]:
    """Every label and call of the pages in one language."""
    return i18n.bundle(lang)


@router.get("/api/table")
def table() -> dict[str, Any]:
    return table_json()


@router.get("/api/games")
def list_games(
    games: GamesDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    return {
        "games": [list_item(r) for r in games.store.games(limit, offset)],
        "total": games.store.count(),
    }


@router.get("/api/games/{game_id}")
def get_game(
    game_id: str,
    games: GamesDep,
    since: Annotated[int | None, Query(ge=0, le=MAX_VERSION)] = None,
    revision: Annotated[int | None, Query(ge=0, le=MAX_VERSION)] = None,
) -> dict[str, Any]:
    """The game: state, last verdict, and the log of lines from ``since`` (with
    ``revision``, the revision the client has: only what changed since is sent), at most
    the latest ``LOG_PAGE`` lines of it (``log_start``: the first line sent; older lines
    from ``GET /api/games/{id}/log``)."""
    return games.view_since(game_id, since, revision)


@router.get("/api/games/{game_id}/log")
def get_log(
    game_id: str,
    games: GamesDep,
    before: Annotated[int | None, Query(ge=0, le=MAX_VERSION)] = None,
    limit: Annotated[int, Query(ge=1, le=LOG_PAGE)] = LOG_PAGE,
) -> dict[str, Any]:
    """A page of the game's log: the ``limit`` lines before line ``before`` (by default the
    latest), oldest first, with the game's ``revision`` and number of ``lines``."""
    return games.log_page(game_id, before, limit)


@router.get("/api/games/{game_id}/chart")
def get_chart(game_id: str, games: GamesDep) -> dict[str, Any]:
    """What the record page draws beside the log: the score's progression (the strokes
    that changed it) and the highest breaks."""
    return games.chart(game_id)


def _download(text: str, filename: str) -> Any:
    from fastapi.responses import PlainTextResponse

    return PlainTextResponse(
        text,
        media_type="application/x-ndjson; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/api/games/{game_id}/export.jsonl")
def export_jsonl(game_id: str, games: GamesDep) -> Any:
    """The referee protocol's lines of the game."""
    _, game = games.replay(game_id)
    with games.lock:
        text = game.export_protocol()
    return _download(text, f"onered-{game_id}.jsonl")


@router.get("/api/games/{game_id}/record.jsonl")
def export_record(game_id: str, games: GamesDep) -> Any:
    """The game record of the game (``docs/record-format.md``)."""
    row, game = games.replay(game_id)
    entrants = row.settings.get("entrants", {})
    with games.lock:
        text = game.export_record(entrants if isinstance(entrants, dict) else {})
    return _download(text, f"onered-{game_id}.record.jsonl")


def _created(
    games: Games, mode: Mode, session: Session, entrants: dict[str, str]
) -> dict[str, Any]:
    game_id, token = games.store.create(
        mode,
        session.texts(),
        {"entrants": entrants},
        summary_json(session),
        games.figures(session),
    )
    row = games.row(game_id)
    games.keep(game_id, row.revision, session)
    return {
        "id": game_id,
        "token": token,
        "urls": urls(game_id, mode),
        "game": game_json(row, session, 0),
    }


@router.post("/api/games", status_code=201)
def new_game(body: NewGame, games: GamesDep) -> dict[str, Any]:
    """A new game, marked or played; the answer carries its secret (shown once)."""
    names = validate.names(body.players)
    target = validate.target(body.target)
    # one game is a match of one: the lag's winner breaks with the ball he took
    lag = Series.after_lag(
        names, body.breaker, Ball(body.breaker_ball.value), best_of=1, target=target
    )
    match = game_match(lag, 0)
    entrants = dict.fromkeys(names, HUMAN)
    if body.mode is NewMode.PLAY and body.opponent is Opponent.AI:
        entrants[names[1]] = ai_entrant(body.strength)
    played = body.mode is NewMode.PLAY
    session = Session.new(
        match, simulator=PhysicsSimulator() if played else None, entrants=entrants
    )
    return _created(games, Mode.PLAY if played else Mode.MARK, session, entrants)


def _import(games: Games, data: bytes) -> dict[str, Any]:
    """Read, check and judge an imported file, then store it (run in a worker thread: a
    long file must not hold up the server's other requests)."""
    try:
        lines = record.parse_text(record.decode(data))
        # the file's verdicts are never kept: the referee judges every line afresh, and a
        # line's stored verdict would otherwise be read back as if it were the referee's
        session = Session.read(
            ((n, {k: v for k, v in obj.items() if k not in JUDGED}) for n, obj in lines),
            check=True,
        )
    except RecordError as exc:
        raise ApiError(422, f"file: {exc}", exc.code, exc.params) from None
    entrants = session.entrants or dict.fromkeys(session.players, HUMAN)
    mode = Mode.PLAY if session.playable else Mode.IMPORT
    return _created(games, mode, session, entrants)


def same_site(request: Request) -> bool:
    """Whether a request comes from this site's own pages or from no browser page at all.

    A browser says where a request comes from: ``Sec-Fetch-Site`` (every current browser),
    else ``Origin`` (sent with every cross-site POST) compared with the host asked. A
    program (curl, a script) sends neither and is let through: it is no other site's page
    acting with the user's browser. This stops another site's page from posting a file
    as a form or ``text/plain`` (a "simple" request, sent without asking first)."""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("x-forwarded-host") or request.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.split(",")[0].strip().lower()


@router.post("/api/import", status_code=201)
async def import_game(request: Request, games: GamesDep) -> dict[str, Any]:
    """A game file (``docs/record-format.md``): a game record, the referee protocol's JSON
    Lines, or in/out pairs; a UTF-8 byte-order mark is accepted. At most
    ``record.MAX_BYTES``; checked as a new game is (names, target, table), judged line by
    line, off the event loop. Only from this site's own pages or from a program, never
    from another site's page (:func:`same_site`)."""
    if not same_site(request):
        raise ApiError(
            403, "import: only from this site's own pages", "cross_site", {"what": "import"}
        )
    gate: Gate = request.app.state.import_gate
    with gate.hold():  # a few at a time: each holds its file and its game in memory
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > record.MAX_BYTES:
                raise ApiError(
                    413,
                    f"file: too large (at most {record.MAX_BYTES} bytes)",
                    "file_too_large",
                    {"max": record.MAX_BYTES},
                )
            chunks.append(chunk)
        return await run_in_threadpool(_import, games, b"".join(chunks))
