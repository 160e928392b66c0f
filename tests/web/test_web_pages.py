"""The pages share one layout: every page is served with the same head and header (its own
title, stylesheets and heading filled in), and no page's own part repeats them."""

from __future__ import annotations

import re

import pytest

from onered.web.pages import LAYOUT, PAGES, STATIC_DIR, TEMPLATES_DIR, render
from web_support import Api


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_is_the_layout_filled_with_its_own_part(name: str) -> None:
    page = PAGES[name]
    text = render(name)
    assert "$" not in text.split("<body", 1)[0]  # every placeholder of the head filled
    assert text.startswith('<!doctype html>\n<html lang="en">\n<head>\n')
    assert text.count("<head>") == text.count("<header") == 1
    assert f'<title data-i18n-page="{page.title}">{page.fallback}</title>' in text
    for style in ("style.css", *page.styles):
        assert f'href="/static/{style}"' in text
        assert (STATIC_DIR / style).is_file()
    assert 'data-i18n="app.title"' in text
    assert '<select id="lang">' in text
    assert re.search(r'<script type="module" src="/static/\w+\.js"></script>\n</body>', text)
    own = (TEMPLATES_DIR / page.file).read_text(encoding="utf-8")
    for tag in ("<head", "<header", "<body"):
        assert tag not in own


def test_no_page_is_left_out() -> None:
    parts = {p.name for p in TEMPLATES_DIR.glob("*.html")} - {LAYOUT}
    assert parts == {p.file for p in PAGES.values()}


@pytest.mark.parametrize(
    ("path", "name"),
    [("/", "index"), ("/coach", "coach"), ("/players/Ivanov", "player")],
)
def test_the_pages_are_served_put_together(api: Api, path: str, name: str) -> None:
    r = api.get(path)
    assert r.status == 200
    assert r.text == render(name)


def test_a_games_pages_are_served_put_together(api: Api) -> None:
    game, _ = api.new_mark()
    for path, name in (("mark", "mark"), ("watch", "watch"), ("games", "game"), ("board", "board")):
        r = api.get(f"/{path}/{game}")
        assert r.status == 200
        assert r.text == render(name)


@pytest.mark.parametrize("file", sorted({LAYOUT} | {p.file for p in PAGES.values()}))
def test_a_pages_part_is_not_served_alone(api: Api, file: str) -> None:
    """Only the pages put together are served: their parts and the layout live outside the
    served folder, so ``/static/<page>.html`` is no half page."""
    assert not (STATIC_DIR / file).exists()
    assert (TEMPLATES_DIR / file).is_file()
    assert api.get(f"/static/{file}").status == 404
    assert api.get("/static/style.css").status == 200
