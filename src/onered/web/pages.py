"""The pages: one layout (``templates/layout.html``: the head and the header every page
shares) filled with each page's own part (``templates/<page>.html``: what follows the
header), each page talking to the JSON API. The templates are not served as they are (only
``static/``, the scripts, styles and images, is): a page is only ever the layout filled.

A page's title, its extra stylesheets, its body's class and what its header says besides
the brand are in :data:`PAGES`; :func:`page` answers with the page put together (once per
process: the files are the package's own).
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from string import Template

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from onered.web.games import Games, GamesDep

#: Where the front end's served files are (``/static/...``): scripts, styles, images.
STATIC_DIR = Path(__file__).parent / "static"
#: Where the pages' layout and parts are (not served as they are).
TEMPLATES_DIR = Path(__file__).parent / "templates"
#: The head and the header every page shares.
LAYOUT = "layout.html"

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True, slots=True)
class Page:
    """A page: its own part (``file`` of ``templates/``), its title (the catalogue key
    ``title`` and the English ``fallback`` shown before the words load), its extra
    ``styles`` (files of ``static/``), its body's ``css`` class, and what its header says
    after the brand:
    ``heading`` (a catalogue key; ``None``: nothing) in an element of class
    ``heading_class``, then ``aside`` (HTML of the page's own)."""

    file: str
    title: str
    fallback: str
    heading: str | None = ""
    heading_class: str = "page-title"
    styles: tuple[str, ...] = ()
    css: str = ""
    aside: str = ""

    def header(self) -> str:
        """The header's lines after the brand."""
        key = self.title if self.heading == "" else self.heading
        lines = []
        if key is not None:
            lines.append(
                f'<span class="{html.escape(self.heading_class)}" '
                f'data-i18n="{html.escape(key)}"></span>'
            )
        if self.aside:
            lines.append(self.aside)
        return "".join(f"  {line}\n" for line in lines)


#: Every page, by name.
PAGES: dict[str, Page] = {
    p.file.removesuffix(".html"): p
    for p in (
        Page(
            "index.html",
            "nav.home",
            "Snooker-1-Red",
            heading="app.tagline",
            heading_class="page-title muted",
            styles=("match.css",),
        ),
        Page("mark.html", "mark.title", "Marking", css="mark"),
        Page("play.html", "play.title", "Play"),
        Page(
            "watch.html",
            "watch.title",
            "Live",
            css="watch",
            aside='<span class="page-title muted small">· <span data-i18n="watch.updated">'
            "</span></span>",
        ),
        Page("game.html", "record.title", "Game record"),
        Page("board.html", "board.title", "Club board", heading=None, css="board"),
        Page("room.html", "board.room", "Tables in play", heading=None, css="board"),
        Page("coach.html", "coach.title", "Coach", styles=("coach.css",)),
        Page("match.html", "match.title", "Match", styles=("match.css",)),
        Page("player.html", "player.title", "Player", styles=("player.css",)),
        Page("signin.html", "account.signin", "Sign in", styles=("account.css",)),
        Page("account.html", "account.title", "Account", styles=("account.css",)),
        Page("register.html", "register.title", "Player register", styles=("account.css",)),
        Page("ratings.html", "rating.title", "Ratings", styles=("ratings.css",)),
        # the tournaments' (onered.web.api_tournaments)
        Page(
            "tournaments.html", "tournament.list_title", "Tournaments", styles=("tournament.css",)
        ),
        Page("tournament.html", "tournament.title", "Tournament", styles=("tournament.css",)),
        Page(
            "tournament_screen.html",
            "tournament.screen_title",
            "Tournament",
            heading=None,
            css="board tournament-screen",
            styles=("tournament.css",),
        ),
        Page(
            "tournament_print.html",
            "tournament.print_title",
            "Score sheets",
            styles=("tournament.css",),
            css="tournament-print",
        ),
    )
}


def render(name: str) -> str:
    """Page ``name`` of :data:`PAGES`, put together from the layout and its own part."""
    p = PAGES[name]
    layout = Template((TEMPLATES_DIR / LAYOUT).read_text(encoding="utf-8"))
    styles = "".join(
        f'  <link rel="stylesheet" href="/static/{html.escape(s)}">\n' for s in p.styles
    )
    return layout.substitute(
        title_key=html.escape(p.title),
        title=html.escape(p.fallback),
        styles=styles,
        body_class=f' class="{html.escape(p.css)}"' if p.css else "",
        heading=p.header(),
        body=(TEMPLATES_DIR / p.file).read_text(encoding="utf-8"),
    )


@cache
def _rendered(name: str) -> str:
    return render(name)


def page(name: str) -> HTMLResponse:
    """The answer with page ``name`` (e.g. ``"mark"``)."""
    return HTMLResponse(_rendered(name))


@router.get("/")
def home() -> HTMLResponse:
    return page("index")


def _game_page(name: str) -> Callable[[str, Games], HTMLResponse]:
    def show(game_id: str, games: GamesDep) -> HTMLResponse:
        games.row(game_id)  # 404 for no such game
        return page(name)

    return show


#: A game's pages: the marker's pad, play, the spectators' view, the record.
for _path, _name in (
    ("/mark/{game_id}", "mark"),
    ("/play/{game_id}", "play"),
    ("/watch/{game_id}", "watch"),
    ("/games/{game_id}", "game"),
):
    router.add_api_route(_path, _game_page(_name), methods=["GET"])
