"""The ratings' store (``onered.web.ratings``) and their API (``onered.web.api_ratings``),
on both databases: each finished match recorded once and rated in the order matches
finished, handicapped ones unrated, a take-back's withdrawal, the register's starting
rating; the ranking, a player's history and the handicap proposal."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from onered.ratings.glicko2 import Rating
from onered.ratings.handicap import propose
from onered.ratings.ledger import Outcome, Standing, play
from onered.web import ratings
from onered.web.db import Database
from onered.web.finished import FinishedMatch
from web_support import P1, P2, Api

T0 = 1_700_000_000.0


def finished(
    match_id: str,
    players: tuple[str, str],
    games: tuple[int, int],
    at: float,
    target: int = 100,
    handicap: tuple[int, int] = (0, 0),
) -> FinishedMatch:
    return FinishedMatch(
        match_id=match_id,
        players=players,
        target=target,
        best_of=2 * max(games) - 1,
        handicap=handicap,
        games_won=games,
        winner=0 if games[0] > games[1] else 1,
        points=(games[0] * target, games[1] * target),
        finished=at,
    )


MATCHES = [
    finished("m1", ("Ann", "Bob"), (2, 1), T0),
    finished("m2", ("Bob", "Cid"), (2, 0), T0 + 3600, target=200),
    finished("m3", ("Cid", "ann"), (0, 2), T0 + 86_400),
    finished("m4", ("Ann", "Bob"), (1, 2), T0 + 30 * 86_400),
]


def snapshot(db: Database) -> dict[tuple[str, int], tuple[float, float, int]]:
    out = {}
    for target in (0, 100, 200):
        for e in ratings.ranking(db, target):
            s = e.standing
            out[(e.key, target)] = (
                round(s.rating.rating, 6),
                round(s.rating.deviation, 6),
                s.games,
            )
    return out


def expected_overall() -> dict[str, Standing]:
    """The overall standings folded in finish order with the pure ledger."""
    table: dict[str, Standing] = {}
    for m in sorted(MATCHES, key=lambda x: x.finished):
        a, b = (p.casefold() for p in m.players)
        new = play(
            table.get(a, Standing()),
            table.get(b, Standing()),
            Outcome(m.games_won, m.winner, m.handicap, m.finished),
        )
        table[a], table[b] = new
    return table


def test_each_match_is_rated_once_in_the_order_they_finished(database: Database) -> None:
    for m in reversed(MATCHES):  # arriving newest first
        ratings.record_finished(database, m)
    for m in MATCHES:  # and again: a repeat changes nothing
        ratings.record_finished(database, m)
    got = snapshot(database)
    for key, s in expected_overall().items():
        assert got[(key, 0)][:2] == (round(s.rating.rating, 6), round(s.rating.deviation, 6))
        assert got[(key, 0)][2] == s.games
    assert got[("ann", 100)][2] == 3 + 2 + 3  # m1, m3, m4: games at target 100
    assert ("ann", 200) not in got
    assert got[("bob", 200)][2] == 2
    assert ratings.rebuild(database) == len(MATCHES)
    assert snapshot(database) == got


def test_any_order_of_arrival_gives_the_same_ratings(database: Database) -> None:
    seen = []
    for order in itertools.islice(itertools.permutations(MATCHES), 0, 24, 7):
        with database.write() as c:
            for table in ("rating_history", "ratings", "rating_matches"):
                c.execute(f"DELETE FROM {table}")
        for m in order:
            ratings.record_finished(database, m)
        seen.append(snapshot(database))
    assert all(s == seen[0] for s in seen)


def test_a_handicapped_match_is_recorded_but_not_rated(database: Database) -> None:
    ratings.record_finished(database, finished("h", ("Ann", "Bob"), (2, 0), T0, handicap=(0, 30)))
    assert ratings.ranking(database, 0) == []
    with database.read() as c:
        assert c.execute("SELECT COUNT(*) FROM rating_matches").fetchone()[0] == 1


def test_a_withdrawn_result_is_forgotten(database: Database) -> None:
    ratings.record_finished(database, MATCHES[0])
    before = snapshot(database)
    ratings.record_finished(database, MATCHES[1])
    ratings.withdraw_finished(database, "m2")
    ratings.withdraw_finished(database, "never-recorded")
    assert snapshot(database) == before
    ratings.record_finished(database, MATCHES[1])  # decided again: recorded again
    assert ("cid", 200) in snapshot(database)


def test_a_register_rating_is_where_a_player_starts(database: Database) -> None:
    with database.write() as c:
        c.execute(
            "INSERT INTO register_players (id, name, name_key, club_id, rating, created)"
            " VALUES (?, ?, ?, NULL, ?, ?)",
            ("p1", "Ann", "ann", 1900.0, T0),
        )
    name, start, rated = ratings.standing(database, "ANN", 100)
    assert (name, start.rating, rated) == ("ANN", Rating(1900.0, ratings.REGISTER_DEVIATION), False)
    ratings.record_finished(database, MATCHES[0])
    ann = {e.target: e for e in ratings.player_ratings(database, "ann")[0]}
    assert ann[0].standing.rating.rating > 1800.0  # from 1900, not from 1500


def test_catch_up_records_what_is_missing(database: Database) -> None:
    ratings.record_finished(database, MATCHES[0])
    assert ratings.catch_up(database, MATCHES) == len(MATCHES) - 1
    assert ratings.catch_up(database, MATCHES) == 0


# --- the API ------------------------------------------------------------------------------


def record(api: Api, *ms: FinishedMatch) -> None:
    for m in ms:
        ratings.record_finished(api.app.state.db, m)


def test_the_ranking_by_target(api: Api) -> None:
    record(api, *MATCHES)
    r = api.get("/api/ratings")
    assert r.status == 200, r.text
    body: dict[str, Any] = r.body
    assert body["target"] == 0
    assert body["targets"] == [0, 100, 200]
    assert body["total"] == 3
    names = [p["name"] for p in body["players"]]
    assert sorted(names) == ["Ann", "Bob", "Cid"]
    assert [p["rank"] for p in body["players"]] == [1, 2, 3]
    ratings_ = [p["rating"] for p in body["players"]]
    assert ratings_ == sorted(ratings_, reverse=True)
    only = api.get("/api/ratings?target=200").body
    assert [p["name"] for p in only["players"]] == ["Bob", "Cid"]
    assert api.get("/api/ratings?target=-1").status == 422
    assert api.get("/api/ratings?limit=0").status == 422


def test_a_players_ratings_and_history(api: Api) -> None:
    record(api, *MATCHES)
    r = api.get("/api/ratings/ANN")
    assert r.status == 200, r.text
    assert r.body["name"] == "Ann"
    assert [x["target"] for x in r.body["ratings"]] == [0, 100]
    history = r.body["history"]
    assert [h["match"] for h in history if h["target"] == 0] == ["m1", "m3", "m4"]
    assert history[0]["rating_before"] == 1500.0
    assert history[0]["won"] == 2
    assert history[0]["lost"] == 1
    nobody = api.get("/api/ratings/Nobody ")
    assert nobody.status == 200
    assert nobody.body == {"name": "Nobody", "ratings": [], "history": []}


def test_a_handicap_proposal(api: Api) -> None:
    record(api, *MATCHES)
    r = api.get("/api/ratings/handicap?a=Cid&b=Bob&target=100")
    assert r.status == 200, r.text
    body = r.body
    cid, bob = (ratings.standing(api.app.state.db, n, 100)[1] for n in ("Cid", "Bob"))
    now = time.time()
    assert body["handicap"] == list(propose(cid.at(now), bob.at(now), 100).handicap)
    assert body["expected"] < 0.5
    assert body["handicap"][0] > 0
    assert body["handicap"][1] == 0
    assert [p["rated"] for p in body["players"]] == [True, True]
    # Cid never played at 200: his overall rating stands in; a stranger starts at 1500
    other = api.get("/api/ratings/handicap?a=Stranger&b=Ann&target=200").body
    assert other["players"][0] == {
        "name": "Stranger",
        "rating": 1500.0,
        "deviation": 350.0,
        "rated": False,
    }
    assert other["players"][1]["rated"] is True


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("a=Ann&b=ANN&target=100", "rating_same_player"),
        ("a=Ann&b=Bob&target=0", None),
        ("a=Ann&target=100", None),
    ],
)
def test_a_bad_proposal_is_refused_by_name(api: Api, query: str, code: str | None) -> None:
    r = api.get(f"/api/ratings/handicap?{query}")
    assert r.status == 422
    if code is not None:
        assert r.body["code"] == code


def test_the_pages_are_served(api: Api) -> None:
    for path in ("/ratings", "/ratings?target=100", "/ratings/Ann"):
        r = api.get(path)
        assert r.status == 200
        assert "/static/ratings.js" in r.text


def test_a_match_marked_to_its_end_is_rated(api: Api) -> None:
    made = api.new_match(best_of=1, target=3)
    game = made["game"]
    r = api.mark(game["id"], game["token"], parts=["pot_red"])  # 3 points: the match
    assert r.status == 200, r.text
    board = api.get("/api/ratings?target=3").body
    assert {p["name"] for p in board["players"]} == {P1, P2}
    winner = next(p for p in board["players"] if p["name"] == P1)
    assert winner["rating"] > 1500.0
    assert winner["games"] == 1


def test_the_ratings_are_rebuilt_from_the_matches_the_store_holds(api: Api) -> None:
    made = api.new_match(best_of=1, target=3)
    assert api.mark(made["game"]["id"], made["game"]["token"], parts=["pot_red"]).status == 200
    db = api.app.state.db
    found = list(ratings.finished_in_store(db))
    assert [(m.match_id, m.players, m.games_won, m.winner) for m in found] == [
        (made["id"], (P1, P2), (1, 0), 0)
    ]
    before = snapshot_all(db)
    with db.write() as c:
        for table in ("rating_history", "ratings", "rating_matches"):
            c.execute(f"DELETE FROM {table}")
    assert ratings.catch_up(db, ratings.finished_in_store(db)) == 1
    assert snapshot_all(db) == before


def snapshot_all(db: Database) -> list[tuple[str, int, float]]:
    return [(e.key, e.target, e.standing.rating.rating) for e in ratings.ranking(db, 0)] + [
        (e.key, e.target, e.standing.rating.rating) for e in ratings.ranking(db, 3)
    ]


def test_workers_recording_at_once_take_their_turns(database: Database) -> None:
    """Several workers hand on the same matches at once, each match by two of them: each is
    rated once, and the ratings are those of one worker recording them all in order."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(lambda m: ratings.record_finished(database, m), MATCHES * 2))
    got = snapshot(database)
    assert ratings.rebuild(database) == len(MATCHES)
    assert snapshot(database) == got
    with database.read() as c:
        assert c.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0] == 4 * len(MATCHES)
