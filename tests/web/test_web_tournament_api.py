"""Tournaments through the API (issue 23, items 2 and 4): made, players entered, drawn,
tables given, matches started from fixtures and marked stroke by stroke, results arriving by
themselves, walkovers, withdrawals, undoing, the take-back of a deciding stroke, the
organiser's secret, QR codes; and a property: random tournaments played through the API
reach a winner, every state read back equal to the one answered."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_web_accounts import MARKER, Club, club, signed_in

from onered.web.app import create_app
from onered.web.limits import Limits
from onered.web.match_results import reconcile, settle, tournaments_of
from web_support import Api

__all__ = ["club"]  # the accounts' fixture, used here

NAMES = ["Иванов", "Petrov", "Sidorov", "Kozlov", "Smirnov", "Popov", "Volkov", "Orlov"]


def make(api: Api, n: int, **settings_: Any) -> tuple[str, str]:
    """A tournament of ``n`` players (rated, the first highest), drawn; its id and secret."""
    body = {"name": "Cup", "best_of": 1, "target": 3, **settings_}
    r = api.post("/api/tournaments", json=body)
    assert r.status == 201, r.text
    tid, token = r.body["id"], r.body["token"]
    players = [
        {"name": NAMES[i % 8] + ("" if i < 8 else str(i)), "rating": 2000 - i} for i in range(n)
    ]
    r = api.post(f"/api/tournaments/{tid}/players", json={"players": players}, token=token)
    assert r.status == 200, r.text
    r = api.post(f"/api/tournaments/{tid}/draw", json={}, token=token)
    assert r.status == 200, r.text
    return tid, token


def view(api: Api, tid: str) -> dict[str, Any]:
    r = api.get(f"/api/tournaments/{tid}")
    assert r.status == 200, r.text
    body: dict[str, Any] = r.body
    return body


def fixture(t: dict[str, Any], key: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in t["fixtures"] if f["key"] == key)
    return found


def play_game(api: Api, game: str, token: str, first_wins: bool = True) -> dict[str, Any]:
    """Mark a game to its end: the breaker pots reds (or misses, then the other pots)."""
    body: dict[str, Any] = {}
    if not first_wins:
        r = api.mark(game, token, parts=["no_score"])
        assert r.status == 200, r.text
    for _ in range(200):
        r = api.mark(game, token, parts=["pot_red"])
        assert r.status == 200, r.text
        body = r.body
        if body["game"]["state"]["winner"]:
            return body
    raise AssertionError("the game did not end")


def play_match(api: Api, tid: str, token: str, key: str, first_wins: bool = True) -> str:
    """Start fixture ``key``'s match and mark it to its end; the match's id."""
    r = api.post(f"/api/tournaments/{tid}/fixtures/{key}/match", json={}, token=token)
    assert r.status == 201, r.text
    match_id, match_token = r.body["id"], r.body["token"]
    game, game_token = r.body["game"]["id"], r.body["game"]["token"]
    while True:
        play_game(api, game, game_token, first_wins)
        m = api.get(f"/api/matches/{match_id}").body
        if m["over"]:
            return str(match_id)
        r = api.post(f"/api/matches/{match_id}/next", json={}, token=match_token)
        assert r.status == 200, r.text
        game, game_token = r.body["game"]["id"], r.body["game"]["token"]


# --- a tournament from draw to final, every match marked --------------------------------------


def test_a_knockout_marked_stroke_by_stroke_reaches_its_winner(api: Api) -> None:
    tid, token = make(api, 6, best_of=3)
    t = view(api, tid)
    assert [e["name"] for e in t["entrants"]][:2] == ["Иванов", "Petrov"]  # seeded by rating
    while t["status"] != "over":
        r = api.post(f"/api/tournaments/{tid}/tables", json={}, token=token)
        assert r.status == 200, r.text
        ready = [f for f in r.body["tournament"]["fixtures"] if f["state"] == "ready"]
        assert ready
        assert all(f["table"] in (1, 2, 3, 4) for f in ready)
        for f in ready:
            play_match(api, tid, token, f["key"])
        t = view(api, tid)
    final = fixture(t, "K-R3-1")
    assert sorted(final["result"]["games"]) == [1, 2]  # each breaker won his games
    assert t["winner"] == final["result"]["winner"]
    assert t["winner"] in (final["a"], final["b"])


def test_a_result_arrives_once_however_often_it_is_handed_on(api: Api) -> None:
    tid, token = make(api, 2)
    match_id = play_match(api, tid, token, "K-R1-1")
    app = api.app
    t = view(api, tid)
    assert t["status"] == "over"
    revision = t["revision"]
    settle(app, match_id)  # another worker, a retry: nothing changes
    settle(app, match_id)
    assert not reconcile(app, tid)
    assert view(api, tid)["revision"] == revision
    assert len(tournaments_of(app).known(tid).state.results) == 1  # type: ignore[union-attr]


def test_a_result_missed_by_the_hook_comes_in_when_the_tournament_is_read(api: Api) -> None:
    tid, token = make(api, 2)
    games = api.app.state.games
    hook, games.outcome = games.outcome, None  # the worker died between stroke and hook
    try:
        play_match(api, tid, token, "K-R1-1")
    finally:
        games.outcome = hook
    assert view(api, tid)["status"] == "over"


# --- take-back of the deciding stroke --------------------------------------------------------


def test_taking_back_the_deciding_stroke_withdraws_the_result_until_the_tournament_moves_on(
    api: Api,
) -> None:
    tid, token = make(api, 4)
    r = api.post(f"/api/tournaments/{tid}/fixtures/K-R1-1/match", json={}, token=token)
    game, game_token = r.body["game"]["id"], r.body["game"]["token"]
    play_game(api, game, game_token)
    assert fixture(view(api, tid), "K-R1-1")["state"] == "done"
    assert api.post(f"/api/games/{game}/undo", json={}, token=game_token).status == 200
    t = view(api, tid)
    assert fixture(t, "K-R1-1")["state"] == "playing"
    assert fixture(t, "K-R2-1")["a"] is None
    play_game(api, game, game_token)  # the stroke again: the result again
    play_match(api, tid, token, "K-R1-2")
    play_match(api, tid, token, "K-R2-1")  # the final: the tournament has moved on
    before = api.game(game)["revision"]
    r = api.post(f"/api/games/{game}/undo", json={}, token=game_token)
    assert r.status == 409, r.text
    assert r.body["code"] == "result_stands"
    assert api.game(game)["revision"] == before  # nothing stored
    ru = api.post(
        f"/api/games/{game}/undo", json={}, token=game_token, headers={"Accept-Language": "ru"}
    )
    assert "организатор" in ru.body["message"]


# --- the organiser's acts ---------------------------------------------------------------------


def test_walkover_withdrawal_and_undo(api: Api) -> None:
    tid, token = make(api, 4)
    t = view(api, tid)
    f1 = fixture(t, "K-R1-1")
    r = api.post(
        f"/api/tournaments/{tid}/fixtures/K-R1-1/walkover",
        json={"winner": f1["b"]["name"]},
        token=token,
    )
    assert r.status == 200, r.text
    assert fixture(r.body["tournament"], "K-R1-1")["result"]["walkover"] is True
    r = api.post(f"/api/tournaments/{tid}/fixtures/K-R1-1/undo", json={}, token=token)
    assert r.status == 200, r.text
    assert fixture(r.body["tournament"], "K-R1-1")["result"] is None
    f2 = fixture(t, "K-R1-2")
    r = api.post(f"/api/tournaments/{tid}/withdraw", json={"player": f2["a"]["id"]}, token=token)
    assert r.status == 200, r.text
    got = fixture(r.body["tournament"], "K-R1-2")["result"]
    assert got["walkover"] is True
    assert got["winner"] == f2["b"]
    r = api.post(f"/api/tournaments/{tid}/fixtures/K-R1-2/undo", json={}, token=token)
    assert r.status == 422
    assert r.body["code"] == "undo_withdrawal"
    r = api.post(
        f"/api/tournaments/{tid}/fixtures/K-R1-1/result",
        json={"winner": f1["a"]["id"], "games": [1, 0]},
        token=token,
    )
    assert r.status == 200, r.text
    assert fixture(r.body["tournament"], "K-R2-1")["state"] == "ready"
    r = api.post(
        f"/api/tournaments/{tid}/fixtures/K-R2-1/match", json={}, token=token
    )  # the final's match started: the semi-final's result now stands
    assert r.status == 201
    r = api.post(f"/api/tournaments/{tid}/fixtures/K-R1-1/undo", json={}, token=token)
    assert r.status == 409
    assert r.body["code"] == "undo_started"


def test_changes_need_the_organiser_and_the_current_revision(api: Api) -> None:
    tid, token = make(api, 3)
    assert api.post(f"/api/tournaments/{tid}/tables", json={}).status == 401
    assert api.post(f"/api/tournaments/{tid}/tables", json={}, token="nope").status == 403
    revision = view(api, tid)["revision"]
    ok = api.post(f"/api/tournaments/{tid}/tables", json={"revision": revision}, token=token)
    assert ok.status == 200
    r = api.post(f"/api/tournaments/{tid}/tables", json={"revision": revision}, token=token)
    assert r.status == 409
    assert r.body["code"] == "stale"
    r = api.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "X"}]}, token=token)
    assert r.status == 409
    assert r.body["code"] == "drawn_already"
    assert api.get("/api/tournaments/nope").status == 404
    ru = api.post(
        "/api/tournaments",
        json={"name": "Cup", "best_of": 2},
        headers={"Accept-Language": "ru"},
    )
    assert ru.status == 422
    assert "нечётного" in ru.body["message"] or ru.body["code"] == "bad_best_of"


def test_same_name_twice_and_too_few_players_are_refused(api: Api) -> None:
    r = api.post("/api/tournaments", json={"name": "Cup"})
    tid, token = r.body["id"], r.body["token"]
    r = api.post(f"/api/tournaments/{tid}/draw", json={}, token=token)
    assert r.status == 422
    assert r.body["code"] == "too_few_entrants"
    r = api.post(
        f"/api/tournaments/{tid}/players",
        json={"players": [{"name": "Ivanov"}, {"name": "IVANOV"}]},
        token=token,
    )
    assert r.status == 409
    assert r.body["code"] == "entered_twice"


def test_groups_then_knockout_league_tables_then_bracket(api: Api) -> None:
    tid, token = make(api, 6, format="groups_then_knockout", groups=2, advance=1)
    t = view(api, tid)
    assert [s["group"] for s in t["standings"]] == [1, 2]
    while t["status"] != "over":
        ready = [f for f in t["fixtures"] if f["state"] == "ready"]
        for f in ready:
            r = api.post(
                f"/api/tournaments/{tid}/fixtures/{f['key']}/result",
                json={"winner": f["a"]["id"], "games": [1, 0]},
                token=token,
            )
            assert r.status == 200, r.text
        t = view(api, tid)
    assert t["rounds"] == 1
    assert t["winner"] is not None


# --- QR codes ---------------------------------------------------------------------------------


def test_qr_codes_of_public_pages_and_of_secret_links(api: Api) -> None:
    tid, _ = make(api, 2)
    r = api.get(f"/api/qr.svg?path=/tournaments/{tid}/tables/1")
    assert r.status == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
    assert api.get("/api/qr.svg?path=/mark/x%23token=y").status == 422
    assert api.get("/api/qr.svg?path=https://evil.example/").status == 422
    assert api.get("/api/qr.svg?path=//evil.example/").status == 422
    r = api.post("/api/qr", json={"path": "/mark/abc#token=secret"})
    assert r.status == 200
    assert r.headers["cache-control"] == "no-store"
    r = api.get(f"/tournaments/{tid}/tables/1")
    assert r.status == 303
    assert r.headers["location"] == f"/tournaments/{tid}"


# --- the property ------------------------------------------------------------------------------


def _api() -> tuple[Api, Any]:
    folder = tempfile.mkdtemp(prefix="onered-tournament-")
    app = create_app(Path(folder) / "data", Limits(creations_per_minute=100_000))
    return Api(app), app


@given(
    n=st.integers(2, 9),
    kind=st.sampled_from(["knockout", "round_robin", "groups_then_knockout"]),
    seed=st.integers(0, 2**16),
)
@settings(max_examples=12)
def test_random_tournaments_through_the_api_reach_a_winner_and_read_back_equal(
    n: int, kind: str, seed: int
) -> None:
    api, app = _api()
    try:
        rng = random.Random(seed)
        extra: dict[str, Any] = {"format": kind, "seed": seed}
        if kind == "groups_then_knockout":
            extra |= {"groups": max(1, n // 3), "advance": 1 if n // 3 > 1 else 2}
        tid, token = make(api, n, **extra)
        for _ in range(200):
            t = view(api, tid)
            ready = [f for f in t["fixtures"] if f["state"] == "ready"]
            if t["status"] == "over":
                break
            f = rng.choice(ready)
            act = rng.random()
            if act < 0.25:
                play_match(api, tid, token, f["key"], first_wins=rng.random() < 0.5)
                continue
            side = rng.choice(["a", "b"])
            if act < 0.35:
                path, body = "walkover", {"winner": f[side]["id"]}
            elif act < 0.42 and len([e for e in t["entrants"] if not e["withdrawn"]]) > 2:
                path, body = "withdraw", {"player": f[side]["id"]}
            else:
                games = [1, 0] if side == "a" else [0, 1]
                path, body = "result", {"winner": f[side]["name"], "games": games}
            url = f"/api/tournaments/{tid}/" + (
                "withdraw" if path == "withdraw" else f"fixtures/{f['key']}/{path}"
            )
            r = api.post(url, json={**body, "revision": t["revision"]}, token=token)
            assert r.status == 200, r.text
            assert view(api, tid) == r.body["tournament"]  # read back equal
            if rng.random() < 0.15 and r.body["tournament"]["status"] != "over":
                done = [x for x in r.body["tournament"]["fixtures"] if x["state"] == "done"]
                undo = api.post(
                    f"/api/tournaments/{tid}/fixtures/{rng.choice(done)['key']}/undo",
                    json={},
                    token=token,
                )
                assert undo.status in (200, 409, 422), undo.text
        t = view(api, tid)
        assert t["status"] == "over"
        assert t["winner"] is not None
        state = tournaments_of(app).known(tid).state
        assert state is not None
        assert state.winner == t["winner"]["id"]
    finally:
        app.state.store.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pages_are_served(api: Api, lang: str) -> None:
    tid, _ = make(api, 2)
    for path in ("/tournaments", f"/tournaments/{tid}", f"/tournaments/{tid}/screen"):
        r = api.get(path, headers={"Accept-Language": lang})
        assert r.status == 200
        assert "tournament" in r.text
    assert api.get("/tournaments/nope/print").status == 404


# --- a club's tournament, run by its admin signed in -------------------------------------------


def test_a_club_admin_signed_in_runs_the_clubs_tournament_without_its_secret(
    club: Club,
) -> None:
    admin = signed_in(club)
    r = admin.request("POST", "/api/tournaments", json={"name": "Club cup"})
    assert r.status == 201, r.text
    tid = r.body["id"]
    assert r.body["tournament"]["club_id"] == club.club_id
    players = {"players": [{"name": "Ivanov"}, {"name": "Petrov"}]}
    r = admin.request("POST", f"/api/tournaments/{tid}/players", json=players)
    assert r.status == 200, r.text
    r = admin.request("POST", f"/api/tournaments/{tid}/draw", json={}, csrf=False)
    assert (r.status, r.body["code"]) == (403, "csrf")
    marker = signed_in(club, MARKER)
    r = marker.request("POST", f"/api/tournaments/{tid}/draw", json={})
    assert (r.status, r.body["code"]) == (403, "forbidden")
    assert club.api.post(f"/api/tournaments/{tid}/draw", json={}).status == 401
    assert admin.request("POST", f"/api/tournaments/{tid}/draw", json={}).status == 200
    r = club.api.post("/api/tournaments", json={"name": "X", "club": club.club_id})
    assert r.status == 401  # a club's tournament is made by its admin, signed in


def test_undoing_a_marked_matchs_result_lets_the_match_go(api: Api) -> None:
    """The organiser's undo of a result a marked match entered: the fixture is ready again
    (a new match, or a result by hand), the old match no longer entering it when read."""
    tid, token = make(api, 2)
    play_match(api, tid, token, "K-R1-1")
    r = api.post(f"/api/tournaments/{tid}/fixtures/K-R1-1/undo", json={}, token=token)
    assert r.status == 200, r.text
    f = fixture(view(api, tid), "K-R1-1")
    assert (f["state"], f["match"], f["result"]) == ("ready", None, None)
    play_match(api, tid, token, "K-R1-1", first_wins=False)
    t = view(api, tid)
    assert t["winner"] == fixture(t, "K-R1-1")["b"]
