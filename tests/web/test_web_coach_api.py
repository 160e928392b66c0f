"""The coach's web routes: POST /api/advise, the position before a stroke of a stored game,
the levels, and the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from onered.players import STRENGTHS
from onered.web.app import TOKEN_HEADER, create_app

POSITION = {"balls": {"white": [0.6, 2.2], "red": [1.5, 3.0], "yellow": [0.4, 1.2]}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(tmp_path / "data")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        yield c


def advise(client: TestClient, **body: Any) -> Any:
    return client.post("/api/advise", json={"position": POSITION, "samples": 20, **body})


def test_advise_answers_the_suggestions_with_words_in_the_language(client: TestClient) -> None:
    r = advise(client, level="beginner", lang="ru", count=3)
    assert r.status_code == 200
    data = r.json()
    assert data["level"] == "beginner"
    assert data["lang"] == "ru"
    assert data["samples"] == 20
    items = data["suggestions"]
    assert [s["rank"] for s in items] == [1, 2, 3]
    values = [s["odds"]["value"] for s in items]
    assert values == sorted(values, reverse=True)
    reason = items[0]["words"]["reason"]
    assert reason.startswith(("лучше № 2: ", "равноценен № 2 "))  # equal ones: neither beats
    assert items[-1]["words"]["reason"] is None
    assert data["position"]["balls"] == POSITION["balls"]


def test_the_words_name_pockets_as_the_pages_table_shows_them(client: TestClient) -> None:
    # the page draws the baulk end on the left: the table's top-right pocket (far from
    # baulk, on the right seen from it) is drawn at the bottom right
    hanging = {"white": [1.3, 3.2], "red": [1.66, 3.45], "yellow": [0.4, 1.2]}
    r = client.post(
        "/api/advise", json={"position": {"balls": hanging}, "samples": 20, "level": "pro"}
    )
    data = r.json()
    assert data["view"] == "landscape"
    assert data["stakes"] == {"baulk_owed": False, "hazards_near": False, "cannons_near": False}
    for s in data["suggestions"]:
        head = s["headline"]
        assert head["share"] == max(o["share"] for o in s["odds"]["outcomes"])
        if ["red", "top_right"] in head["pockets"]:
            assert "bottom-right pocket" in s["words"]["stroke"]
            break
    else:
        pytest.fail("no suggestion pots the red hanging over the top-right pocket")


def test_advise_names_a_bad_position(client: TestClient) -> None:
    r = client.post("/api/advise", json={"position": {"balls": {"white": [0.6, 2.2]}}})
    assert r.status_code == 422
    assert r.json()["error"] == "balls.red: the red must be on the table"
    assert r.json()["code"] == "advice"  # the pages' words: error.advice
    r = advise(client, level="god")
    assert r.status_code == 422
    assert "unknown level 'god'" in r.json()["error"]
    r = advise(client, samples=5)
    assert r.status_code == 422
    assert "samples" in r.json()["error"]


def test_levels_are_the_players_levels(client: TestClient) -> None:
    data = client.get("/api/coach/levels").json()
    assert data["levels"] == list(STRENGTHS)
    assert data["default"] in data["levels"]
    assert len(data["colours"]) == 5
    assert 0 < data["lane"] < 0.05  # metres between the ranks' paths


def test_the_coach_page_is_served(client: TestClient) -> None:
    r = client.get("/coach")
    assert r.status_code == 200
    assert 'src="/static/coach.js"' in r.text
    assert client.get("/static/coach.js").status_code == 200


def new_game(client: TestClient, mode: str) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"mode": mode, "players": ["Ivanov", "Petrov"]}
    if mode == "play":
        body.update(opponent="ai", strength="beginner", breaker=1)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], {TOKEN_HEADER: r.json()["token"]}


def test_the_position_before_a_stroke_of_a_played_game(client: TestClient) -> None:
    game, token = new_game(client, "play")
    r = client.post(f"/api/games/{game}/ai", json={}, headers=token)  # the computer breaks
    assert r.status_code == 200, r.text
    lines = client.get(f"/api/games/{game}/record.jsonl").text.splitlines()
    assert len(lines) >= 2
    r = client.get("/api/coach/position", params={"game": game, "stroke": 1})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["position"]["balls"] == {"red": [0.889, 3.245]}  # the opening: in hand
    assert data["played"]["placed"] is not None
    assert "strike" in data["played"]
    advice = client.post("/api/advise", json={"position": data["position"], "samples": 10})
    assert advice.status_code == 200
    assert advice.json()["from_hand"] is True


def test_a_marked_game_gives_the_balls_it_knows(client: TestClient) -> None:
    game, token = new_game(client, "mark")
    line = {"type": "stroke", "first_hit": "red", "potted": ["white"]}
    r = client.post(f"/api/games/{game}/lines", json={"line": line}, headers=token)
    assert r.status_code == 200, r.text
    r = client.post(f"/api/games/{game}/lines", json={"line": {"type": "stroke"}}, headers=token)
    assert r.status_code == 200, r.text
    data = client.get("/api/coach/position", params={"game": game, "stroke": 2}).json()
    assert data["position"]["balls"] == {"red": None}
    assert data["position"]["to_play"] == "white"


def test_the_position_of_a_missing_game_or_stroke_is_named(client: TestClient) -> None:
    r = client.get("/api/coach/position", params={"game": "nope", "stroke": 1})
    assert r.status_code == 404
    assert "no such game" in r.json()["error"]
    game, _ = new_game(client, "mark")
    r = client.get("/api/coach/position", params={"game": game, "stroke": 3})
    assert r.status_code == 422
    assert "there is no stroke 3" in r.json()["error"]


def test_advise_on_a_written_position(client: TestClient) -> None:
    text = 'W0.6,2.2/Y0.4,1.2/R1.5,3.0 W 10:4 6 0/0/0 - - play 1 100 0:0 WY ["A","B"]'
    r = client.post("/api/advise", json={"position": text, "samples": 10, "count": 2})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["written"] == text
    assert data["position"]["balls"] == POSITION["balls"]
    assert data["position"]["score"] == [10, 4]
    r = client.post("/api/advise", json={"position": "R0.9,3.2 Q", "samples": 10})
    assert r.status_code == 422
    assert "position: expected 13 fields" in r.json()["error"]
