"""The players' figures kept with each game (``onered.web.figures``, ``games.figures``) are
what ``onered.game.stats.Tally`` counts of the game: after marking, undoing, a cache miss,
an import and a database of schema 2 brought up to date; a player's page reads them (never
replaying a game) and shows what counting his games would."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from legacy_support import to_legacy
from onered.game.session import Session
from onered.game.stats import Tally
from onered.web.api_players import player_view
from onered.web.app import create_app
from onered.web.db import latest_version
from onered.web.games import Games
from onered.web.store import DB_NAME, Mode, Store
from onered.web.view import summary_json
from web_support import P1, P2, Api, random_game, random_tap


def counted(game: Session) -> dict[str, Any]:
    """A game's figures as ``Tally`` counts them, in the store's shape."""
    tally = Tally()
    tally.add_session(game)
    return {
        "players": {
            name: {
                "strokes": p.strokes,
                "points": p.points,
                "visits": p.visits,
                "penalties_received": p.penalties_received,
                "breaks": {str(b): n for b, n in sorted(Counter(p.breaks).items())},
                "fouls": dict(sorted(p.fouls.items())),
                "scored": dict(sorted(p.scored_points.items())),
            }
            for name, p in tally.result().players.items()
        }
    }


def kept(store: Store, game_id: str) -> dict[str, Any] | None:
    with store.db.read() as conn:
        r = conn.execute("SELECT figures FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if r[0] is None else json.loads(r[0])


def replayed(store: Store, game_id: str) -> Session:
    return Session.from_lines(store.lines(game_id))


@pytest.fixture
def games(tmp_path: Path) -> Iterator[Games]:
    app = create_app(tmp_path / "data")
    yield app.state.games
    app.state.store.close()


def new_game(games: Games, first: Session | None = None) -> str:
    session = first or Session.new(random_game(0, 0).match)
    game_id, _ = games.store.create(
        Mode.MARK, session.texts(), {"entrants": {}}, summary_json(session), games.figures(session)
    )
    games.keep(game_id, games.row(game_id).revision, session)
    return game_id


def marks(rng: random.Random, n: int) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        for _ in range(n):
            if session.over:
                return
            random_tap(session, rng)

    return act


def undos(n: int) -> Callable[[Session], None]:
    def act(session: Session) -> None:
        for _ in range(min(n, len(session) - 1)):
            session.undo()

    return act


@settings(max_examples=15)
@given(
    seed=st.integers(0, 10**6),
    steps=st.lists(
        st.tuples(st.sampled_from(["mark", "undo", "forget"]), st.integers(1, 70)),
        min_size=1,
        max_size=10,
    ),
)
def test_kept_figures_are_the_tallys_after_marking_and_undoing(
    tmp_path_factory: pytest.TempPathFactory, seed: int, steps: list[tuple[str, int]]
) -> None:
    app = create_app(tmp_path_factory.mktemp("figures") / "data")
    games: Games = app.state.games
    try:
        rng = random.Random(seed)
        game_id = new_game(games)
        assert kept(games.store, game_id) == counted(replayed(games.store, game_id))
        for kind, n in steps:
            if kind == "forget":  # the next change reads the game again: figures from scratch
                games.forget(game_id)
                continue
            games.change(game_id, None, marks(rng, n) if kind == "mark" else undos(n))
            assert kept(games.store, game_id) == counted(replayed(games.store, game_id))
    finally:
        app.state.store.close()


def test_figures_of_a_long_game_undone_past_checkpoints(games: Games) -> None:
    rng = random.Random(5)
    game_id = new_game(games)
    games.change(game_id, None, marks(rng, 300))
    for n in (1, 63, 64, 65, 130):
        games.change(game_id, None, undos(n))
        games.change(game_id, None, marks(rng, n // 2 + 1))
        assert kept(games.store, game_id) == counted(replayed(games.store, game_id))


def test_an_imported_games_figures_are_the_referees(tmp_path: Path) -> None:
    app = create_app(tmp_path / "data")
    api = Api(app)
    try:
        game = random_game(11, 150, target=100)
        text = game.export_record({})
        # a forged verdict in the file is not counted: the referee judges every line again
        lines = text.splitlines()
        forged = json.loads(lines[2])
        if "verdict" in forged:
            forged["verdict"]["points"] = 99
            lines[2] = json.dumps(forged)
        r = api.post("/api/import", content="\n".join(lines) + "\n")
        assert r.status == 201, r.text
        store: Store = app.state.store
        assert kept(store, r.body["id"]) == counted(game)
    finally:
        app.state.store.close()


def make_players_games(games: Games, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    ids = []
    for k in range(count):
        game_id = new_game(games)
        games.change(game_id, None, marks(rng, rng.randint(0, 120)))
        if k % 3 == 1:
            games.change(game_id, None, undos(rng.randint(1, 5)))
        ids.append(game_id)
    return ids


def expected_page(store: Store, ids: list[str], me: str) -> dict[str, Any]:
    """The player's totals and per-game figures by replaying and counting his games (what
    the page did before the figures were kept)."""
    overall = Tally()
    per_game = {}
    for game_id in ids:
        game = replayed(store, game_id)
        overall.add_session(game)
        one = Tally()
        one.add_session(game)
        per_game[game_id] = one.result().players[me]
    return {"totals": overall.result().players[me].to_json(), "games": per_game}


def check_page(store: Store, ids: list[str]) -> None:
    for me in (P1, P2):
        page = player_view(store, me.upper(), lambda ids: {})
        want = expected_page(store, ids, me)
        assert page["name"] == me
        assert page["totals"] == want["totals"]
        assert [g["id"] for g in page["games"]] == ids
        for g in page["games"]:
            p = want["games"][g["id"]]
            assert (g["strokes"], g["visits"], g["points"], g["top_break"], g["fouls"]) == (
                p.strokes,
                p.visits,
                p.points,
                p.highest_break,
                sum(p.fouls.values()),
            )
            assert g["points_per_visit"] == round(p.points_per_visit, 3)
        tops = sorted((b for p in want["games"].values() for b in p.breaks if b > 0), reverse=True)[
            :10
        ]
        assert [b["points"] for b in page["top_breaks"]] == tops


def test_a_players_page_is_his_games_counted(games: Games) -> None:
    ids = make_players_games(games, 7, seed=3)
    check_page(games.store, ids)


def test_a_players_page_reads_no_line(games: Games, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = make_players_games(games, 3, seed=4)

    def no_lines(game_id: str) -> list[str]:
        raise AssertionError(f"the page read the lines of {game_id}")

    monkeypatch.setattr(games.store, "lines", no_lines)
    page = player_view(games.store, P1, lambda ids: {})
    assert len(page["games"]) == len(ids)


def to_schema_2(path: Path) -> None:
    """Make a database of schema 3 what schema 2 was (before the migrations): no figures, no
    index of players."""
    to_legacy(path, 2)
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE game_players")
        conn.execute("ALTER TABLE games DROP COLUMN figures")
    conn.close()


def test_a_schema_2_database_is_brought_up_to_date(tmp_path: Path) -> None:
    data = tmp_path / "data"
    app = create_app(data)
    ids = make_players_games(app.state.games, 5, seed=8)
    app.state.db.close()
    to_schema_2(data / DB_NAME)
    store = Store(data)
    try:
        assert store.db.version() == latest_version()
        assert all(kept(store, i) is None for i in ids)  # counted when first read
        check_page(store, ids)
        for game_id in ids:  # and kept
            assert kept(store, game_id) == counted(replayed(store, game_id))
    finally:
        store.close()
    store = Store(data)  # opened again: nothing to bring up to date
    try:
        check_page(store, ids)
    finally:
        store.close()


def test_a_deleted_game_leaves_the_players_page(api: Api) -> None:
    one, token = api.new_mark()
    two, _ = api.new_mark()
    r = api.request("DELETE", f"/api/games/{one}", token=token)
    assert r.status in (200, 204), r.text
    page = api.get(f"/api/players/{P1}").body
    assert [g["id"] for g in page["games"]] == [two]
    assert page["games_total"] == 1
