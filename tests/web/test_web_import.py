"""Import done right: checked as a new game is, a byte-order mark accepted, clear errors with
a code the pages say in their language, and a long file judged off the event loop."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from onered.game import record
from onered.texts import Lang
from onered.web import i18n
from web_support import Api, Server

MATCH = {"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]}
NO_SCORE = {"type": "stroke", "first_hit": "red"}


def jsonl(*objs: object) -> str:
    return "".join(json.dumps(o) + "\n" for o in objs)


@pytest.mark.parametrize(
    ("players", "target", "code"),
    [
        (["x" * 5000, "Petrov"], 100, "name_long"),
        (["Iva\x00nov", "Petrov"], 100, "name_chars"),
        (["Ivanov\u200b", "Petrov"], 100, "name_chars"),
        (["Ivanov", "Petrov"], 10**12, "target"),
    ],
)
def test_an_import_is_refused_what_a_new_game_is(
    api: Api, players: list[str], target: int, code: str
) -> None:
    first = {**MATCH, "players": players, "target": target}
    r = api.post("/api/import", content=jsonl(first, NO_SCORE))
    assert r.status == 422
    assert r.body["code"] == code
    assert r.body["params"]["line"] == 1
    assert r.error.startswith("file: line 1: ")
    assert f"error.{code}" in i18n.UI
    made = api.post("/api/games", json={"players": players, "target": target})
    assert made.status == 422
    assert made.body["code"] == code
    assert api.get("/api/games").body["total"] == 0


def test_a_byte_order_mark_is_accepted(api: Api) -> None:
    text = jsonl(MATCH, NO_SCORE)
    r = api.post("/api/import", content=b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert r.status == 201, r.text
    assert r.body["game"]["state"]["version"] == 2


def test_a_file_over_the_limit_is_refused_before_it_is_read(api: Api) -> None:
    r = api.post(
        "/api/import",
        content=b"x",
        headers={"Content-Length": str(record.MAX_BYTES + 1)},
    )
    assert r.status == 413
    assert r.body["code"] == "too_large"


def test_an_error_names_the_line_and_is_in_the_catalogue(api: Api) -> None:
    r = api.post("/api/import", content=jsonl(MATCH, NO_SCORE, {"type": "stroke", "cannon": 1}))
    assert r.status == 422
    assert r.body["code"] == "bad_line"
    assert r.body["params"]["line"] == 3
    for lang in Lang:
        assert "{detail}" in i18n.UI["error.bad_line"][lang]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "data")
    s.start()
    yield s
    s.stop()


@pytest.mark.slow
def test_a_long_import_does_not_hold_up_the_server(server: Server) -> None:
    """100,000 lines are judged in a worker thread: health checks are answered all through
    the import, while its own request is still waiting. A server whose event loop judged
    the file answers none for most of the import's time (one wait of 96% of it, measured);
    here no wait between answers may be half of it. How fast they are answered is measured
    by ``benchmarks/bench_web.py``, not here."""
    text = jsonl(MATCH, *([NO_SCORE] * (record.MAX_LINES - 1)))
    done: dict[str, float | int] = {}

    def upload() -> None:
        done["start"] = time.monotonic()
        r = httpx.post(server.base + "/api/import", content=text.encode(), timeout=600)
        done["end"] = time.monotonic()
        done["status"] = r.status_code

    worker = threading.Thread(target=upload)
    worker.start()
    answered: list[float] = []  # when each health check's answer came
    while worker.is_alive():
        assert httpx.get(server.base + "/api/health", timeout=600).status_code == 200
        answered.append(time.monotonic())
        time.sleep(0.05)
    worker.join()
    assert done["status"] == 201
    start, end = done["start"], done["end"]
    inside = [t for t in answered if start < t < end]
    assert len(inside) >= 3, f"{len(inside)} health checks answered during the import"
    marks = [start, *inside, end]
    longest = max(b - a for a, b in itertools.pairwise(marks))
    assert longest < (end - start) / 2, f"no answer for {longest:.1f} s of {end - start:.1f} s"


def test_a_record_of_another_engine_and_an_older_version_imports_and_goes_on(api: Api) -> None:
    data = Path(__file__).resolve().parents[1] / "game" / "data"
    for name in ("record-v1.jsonl", "record-other-engine.jsonl"):
        r = api.post("/api/import", content=(data / name).read_bytes())
        assert r.status == 201, r.text
        assert r.body["urls"]["play"].startswith("/play/")
        game, token = r.body["id"], r.body["token"]
        version = r.body["game"]["state"]["version"]
        turn = api.post(f"/api/games/{game}/ai", json={"after": version}, token=token)
        assert turn.status == 200, turn.text
        assert turn.body["game"]["state"]["version"] == version + 1
        exported = api.get(f"/api/games/{game}/record.jsonl").text
        assert json.loads(exported.splitlines()[0])["record"] == record.RECORD_VERSION
