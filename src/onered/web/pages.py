"""The pages: static HTML files of the package, each talking to the JSON API."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from onered.web.games import Games, GamesDep

#: Where the front end's files are.
STATIC_DIR = Path(__file__).parent / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    """A page of the front end."""
    return FileResponse(STATIC_DIR / name, media_type="text/html")


@router.get("/")
def home() -> FileResponse:
    return page("index.html")


def _game_page(name: str) -> Callable[[str, Games], FileResponse]:
    def show(game_id: str, games: GamesDep) -> FileResponse:
        games.row(game_id)  # 404 for no such game
        return page(name)

    return show


#: A game's pages: the marker's pad, play, the spectators' view, the record.
for _path, _file in (
    ("/mark/{game_id}", "mark.html"),
    ("/play/{game_id}", "play.html"),
    ("/watch/{game_id}", "watch.html"),
    ("/games/{game_id}", "game.html"),
):
    router.add_api_route(_path, _game_page(_file), methods=["GET"])
