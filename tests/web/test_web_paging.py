"""A game's view carries its state and the latest page of the log; older pages on demand
(``GET /api/games/{id}/log``). The seams: all pages together are the whole log for any game
and page size; a page's model (the pages' ``GameModel.apply``/``loadEarlier``, written here
in Python) fed the view and the older pages holds the whole log, also after changes."""

from __future__ import annotations

import contextlib
import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.game.session import Session, SessionError
from onered.rules import Option
from onered.web.store import GameRow, Mode
from onered.web.view import LOG_PAGE, game_json, log_json, log_page_json
from web_support import TAPS, Api, random_game


def row_of(game: Session, revision: int = 1) -> GameRow:
    return GameRow("g", Mode.MARK, 0.0, 0.0, {}, {}, revision, 0)


class Model:
    """The pages' GameModel (static/common.js): the log by line, holes (None) before
    ``start``."""

    def __init__(self) -> None:
        self.log: list[dict[str, Any] | None] = []
        self.start = 0
        self.view: dict[str, Any] | None = None

    def apply(self, view: dict[str, Any]) -> None:
        start = view["log_start"]
        keep = min(len(self.log), view["log_from"])
        if start > keep:
            self.log = []
            self.start = start
        else:
            self.start = min(self.start, start)
        self.log = (self.log + [None] * start)[:start]
        self.log += view["log"]
        self.view = view

    def load_earlier(self, page: dict[str, Any]) -> None:
        assert self.view is not None
        assert page["revision"] == self.view["revision"]
        for k, entry in enumerate(page["log"]):
            self.log[page["log_start"] + k] = entry
        self.start = min(self.start, page["log_start"])


@settings(max_examples=40)
@given(strokes=st.integers(0, 120), limit=st.integers(1, 60), seed=st.integers(0, 10**6))
def test_all_pages_together_are_the_whole_log(strokes: int, limit: int, seed: int) -> None:
    game = random_game(seed, strokes)
    row = row_of(game)
    pages: list[list[dict[str, object]]] = []
    before = len(game)
    while True:
        page = log_page_json(row, game, before, limit)
        assert len(page["log"]) <= limit
        assert page["lines"] == len(game)
        pages.insert(0, page["log"])
        if page["log_start"] == 0:
            break
        assert len(page["log"]) == limit
        before = page["log_start"]
    assert [e for p in pages for e in p] == log_json(game, 0)


@settings(max_examples=40)
@given(strokes=st.integers(0, 120), page=st.integers(1, 50), seed=st.integers(0, 10**6))
def test_the_views_page_and_the_older_pages_make_the_full_view(
    strokes: int, page: int, seed: int
) -> None:
    game = random_game(seed, strokes)
    row = row_of(game)
    view = game_json(row, game, 0, page)
    assert len(view["log"]) == min(page, len(game))
    assert view["log_start"] == len(game) - len(view["log"])
    model = Model()
    model.apply(view)
    while model.start > 0:
        model.load_earlier(log_page_json(row, game, model.start, page))
    assert model.log == log_json(game, 0)
    # the rest of the view is the full view's (only the log is paged)
    paged = ("log", "log_start")
    full = game_json(row, game, 0, 10**9)
    assert {k: v for k, v in view.items() if k not in paged} == {
        k: v for k, v in full.items() if k not in paged
    }


@settings(max_examples=30)
@given(
    seed=st.integers(0, 10**6),
    page=st.integers(1, 30),
    steps=st.lists(
        st.tuples(st.sampled_from(["mark", "undo", "far"]), st.integers(1, 40)), max_size=8
    ),
)
def test_a_page_following_changes_keeps_a_true_log(
    seed: int, page: int, steps: list[tuple[str, int]]
) -> None:
    """A page that takes the views after changes (one change behind: from the line changed;
    further behind: the whole view again), and older pages when it wants them, holds only
    true lines, and all of them once it has fetched the earlier pages."""
    rng = random.Random(seed)
    game = random_game(seed, 30)
    model = Model()
    model.apply(game_json(row_of(game), game, 0, page))
    revision = 1
    for kind, n in steps:
        game.reset_low_water()
        if kind == "undo":
            for _ in range(min(n, len(game) - 1)):
                game.undo()
        else:
            for _ in range(n):
                if game.over:
                    break
                if game.state.choice_pending:
                    game.choose(Option.AS_THEY_LIE)
                else:
                    with contextlib.suppress(SessionError):
                        game.mark(rng.choice(TAPS))
        revision += 1
        # one change behind: lines from the first changed; "far": the client missed some
        since = 0 if kind == "far" else min(len(model.log), game.low_water)
        model.apply(game_json(row_of(game, revision), game, since, page))
        full = log_json(game, 0)
        assert len(model.log) == len(full)
        assert model.log[model.start :] == full[model.start :]
        assert all(e is None for e in model.log[: model.start])
        if rng.random() < 0.5 and model.start > 0:
            model.load_earlier(log_page_json(row_of(game, revision), game, model.start, page))
            assert model.log[model.start :] == full[model.start :]


def test_a_long_games_view_carries_the_latest_page(api: Api) -> None:
    game, token = api.new_mark()
    for _ in range(LOG_PAGE + 20):
        r = api.mark(game, token, parts=["no_score"])
        assert r.status == 200, r.text
    view = api.game(game)
    lines = view["state"]["version"]
    assert view["log_from"] == 0
    assert view["log_start"] == lines - LOG_PAGE
    assert [e["seq"] for e in view["log"]] == list(range(lines - LOG_PAGE, lines))
    assert "progression" not in view
    assert "visits" not in view
    older = api.get(f"/api/games/{game}/log?before={view['log_start']}")
    assert older.status == 200, older.text
    assert older.body["log_start"] == 0
    assert [e["seq"] for e in older.body["log"]] == list(range(view["log_start"]))
    assert older.body["revision"] == view["revision"]
    latest = api.get(f"/api/games/{game}/log?limit=5").body
    assert [e["seq"] for e in latest["log"]] == list(range(lines - 5, lines))
    # a page one change behind still gets only what changed
    r = api.mark(game, token, parts=["cannon"])
    again = api.get(f"/api/games/{game}?since={lines}&revision={view['revision']}").body
    assert again["log_from"] == again["log_start"] == lines
    assert [e["seq"] for e in again["log"]] == [lines]
    del r


def test_the_chart_draws_the_whole_game(api: Api) -> None:
    game, token = api.new_mark()
    for parts in (["pot_red"], ["no_score"], ["no_score"], ["pot_red"], ["pot_red"]):
        assert api.mark(game, token, parts=parts).status == 200
    chart = api.get(f"/api/games/{game}/chart")
    assert chart.status == 200, chart.text
    points = chart.body["progression"]
    # the strokes that changed the score, and the first and the last
    assert points[0]["stroke"] == 0
    assert points[-1]["stroke"] == 5
    scores = [p["score"] for p in points]
    assert all(a != b for a, b in itertools.pairwise(scores[:-1]))
    breaks = chart.body["breaks"]
    assert breaks
    assert breaks[0]["points"] == max(b["points"] for b in breaks)


def test_the_export_is_the_whole_game(api: Api) -> None:
    game, token = api.new_mark()
    for _ in range(LOG_PAGE + 5):
        assert api.mark(game, token, parts=["no_score"]).status == 200
    text = api.get(f"/api/games/{game}/export.jsonl").text
    assert len(text.strip().splitlines()) == LOG_PAGE + 6


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("before=-1", "before"),
        ("before=9223372036854775808", "before"),
        ("before=x", "before"),
        ("limit=0", "limit"),
        (f"limit={LOG_PAGE + 1}", "limit"),
        ("limit=x", "limit"),
    ],
)
def test_bad_paging_parameters_are_refused_by_name(api: Api, query: str, name: str) -> None:
    game, _ = api.new_mark()
    r = api.get(f"/api/games/{game}/log?{query}")
    assert r.status == 422, r.text
    assert name in r.text
    assert "Traceback" not in r.text


def test_the_log_of_no_game_is_a_404(api: Api) -> None:
    assert api.get("/api/games/nope/log").status == 404
