"""``onered serve``: the command, its defaults, and no acknowledged stroke lost to a kill."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import httpx
import pytest

from onered.cli import build_parser, main
from onered.cli import serve as serve_cli
from web_support import P1, P2, Server


def test_serve_is_a_subcommand_with_loopback_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.command == "serve"
    assert (args.host, args.port, args.data) == ("127.0.0.1", 8000, "onered-data")


def test_without_the_web_extra_it_says_which_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(serve_cli, "missing_packages", lambda: ["fastapi", "uvicorn"])
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert "the 'web' extra" in err
    assert "pip install 'onered[web]'" in err
    assert "Traceback" not in err


def test_a_bad_port_or_data_folder_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "--port: 70000 is not a port" in capsys.readouterr().err
    (tmp_path / "file").write_text("x")
    assert main(["serve", "--data", str(tmp_path / "file")]) == 2
    assert "--data:" in capsys.readouterr().err


def test_the_server_says_where_to_open_it(tmp_path: Path) -> None:
    server = Server(tmp_path / "data")
    server.start()
    try:
        assert server.banner[0].strip() == (
            f"onered: open http://127.0.0.1:{server.port}/ in a browser (Ctrl+C stops)"
        )
        assert str(tmp_path / "data") in server.banner[1]
        assert httpx.get(server.base + "/").status_code == 200
    finally:
        server.stop()
    assert server.proc is None
    assert (tmp_path / "data" / "onered.sqlite3").exists()


def test_a_kill_loses_no_acknowledged_stroke(tmp_path: Path) -> None:
    """Strokes are sent as fast as the server takes them while the server is killed with
    SIGKILL; after a restart every acknowledged stroke is there, in order."""
    server = Server(tmp_path / "data")
    server.start()
    created = httpx.post(
        server.base + "/api/games",
        json={"mode": "mark", "players": [P1, P2], "target": 100_000},
    ).json()
    game, token = created["id"], created["token"]
    headers = {"X-Game-Token": token}
    acked: list[int] = []  # the version (number of lines) each acknowledged answer reported
    stop = threading.Event()

    def marker() -> None:
        # Ivanov's opening scores nothing; then Petrov's cannon-and-pot strokes, 5 points
        # each, crossing the baulk line (so the 80-99 rule and the limits never interfere).
        strokes = [{"parts": ["no_score"]}] + [
            {"parts": ["cannon", "pot_red"], "crossed_baulk": True}
        ] * 10_000
        with httpx.Client(base_url=server.base, timeout=5) as client:
            for body in strokes:
                if stop.is_set():
                    return
                try:
                    r = client.post(f"/api/games/{game}/mark", json=body, headers=headers)
                except httpx.HTTPError:
                    return  # the server is gone
                if r.status_code != 200:
                    return
                acked.append(r.json()["game"]["state"]["version"])

    thread = threading.Thread(target=marker)
    thread.start()
    deadline = time.monotonic() + 20
    while len(acked) < 40 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()  # in the middle of the stream of strokes
    stop.set()
    thread.join(timeout=10)
    assert len(acked) >= 40, "the server took too few strokes before the kill"
    assert acked == list(range(2, len(acked) + 2))

    server.start()
    try:
        view = httpx.get(f"{server.base}/api/games/{game}").json()
        version = view["state"]["version"]
        # Every acknowledged line is there; at most the one in flight at the kill is extra.
        assert acked[-1] <= version <= acked[-1] + 1
        assert view["state"]["score"] == [0, 5 * (version - 2)]
        # And the game goes on where it stopped.
        r = httpx.post(
            f"{server.base}/api/games/{game}/mark",
            json={"parts": ["cannon", "pot_red"], "crossed_baulk": True},
            headers=headers,
        )
        assert r.status_code == 200
        assert r.json()["game"]["state"]["version"] == version + 1
    finally:
        server.stop()
