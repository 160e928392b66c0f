"""One cap on a line's length (issue 18 item 5): an import's line and a line sent to a game
are refused beyond the record format's ``MAX_LINE_CHARS``, with an error naming the line."""

from __future__ import annotations

import json

from onered.game import record
from web_support import Api

MATCH = {"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]}
MISS = {"type": "stroke", "first_hit": "red"}


def _long_stroke() -> dict[str, object]:
    """A stroke whose JSON is longer than the cap (an unknown field padded out)."""
    return {**MISS, "note": "x" * record.MAX_LINE_CHARS}


def test_an_import_with_a_line_too_long_is_refused_naming_the_line(api: Api) -> None:
    text = "".join(json.dumps(o) + "\n" for o in (MATCH, MISS, _long_stroke()))
    r = api.post("/api/import", content=text.encode())
    assert r.status == 422, r.text
    assert r.body["code"] == "line_too_long"
    assert r.body["params"]["line"] == 3
    assert r.body["params"]["max"] == record.MAX_LINE_CHARS
    assert "line 3: the line is too long" in r.body["error"]
    ru = api.post("/api/import", content=text.encode(), headers={"Accept-Language": "ru"})
    assert "Строка 3 " in ru.body["message"]


def test_a_line_at_the_cap_is_read() -> None:
    pad = record.MAX_LINE_CHARS - len(json.dumps({**MISS, "note": ""}))
    line = json.dumps({**MISS, "note": "x" * pad})
    assert len(line) == record.MAX_LINE_CHARS
    read = record.parse_text(json.dumps(MATCH) + "\n" + line + "\n")
    assert [number for number, _ in read] == [1, 2]


def test_a_line_sent_to_a_game_too_long_is_refused_naming_it(api: Api) -> None:
    game, token = api.new_mark()
    r = api.post(f"/api/games/{game}/lines", json={"line": _long_stroke()}, token=token)
    assert r.status == 422, r.text
    assert r.body["code"] == "invalid"
    assert r.body["error"].startswith("line: ")
    assert f"at most {record.MAX_LINE_CHARS}" in r.body["error"]
    assert api.get(f"/api/games/{game}").body["revision"] == 0  # nothing entered
