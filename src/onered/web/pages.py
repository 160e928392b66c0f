"""The pages: static HTML files of the package, each talking to the JSON API."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from onered.web.games import GamesDep

#: Where the front end's files are.
STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    """A page of the front end."""
    return FileResponse(STATIC_DIR / name, media_type="text/html")


@router.get("/")
def home() -> FileResponse:
    return page("index.html")


@router.get("/mark/{game_id}")
def mark_page(game_id: str, games: GamesDep) -> FileResponse:
    games.row(game_id)
    return page("mark.html")


@router.get("/play/{game_id}")
def play_page(game_id: str, games: GamesDep) -> FileResponse:
    games.row(game_id)
    return page("play.html")


@router.get("/watch/{game_id}")
def watch_page(game_id: str, games: GamesDep) -> FileResponse:
    games.row(game_id)
    return page("watch.html")


@router.get("/games/{game_id}")
def record_page(game_id: str, games: GamesDep) -> FileResponse:
    games.row(game_id)
    return page("game.html")
