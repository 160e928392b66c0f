"""``onered backup`` / ``onered restore``: a whole club in one file, from and into SQLite
or PostgreSQL; refused: a file of a newer schema, a database with rows (unless
``--replace``), a file cut short."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from onered.cli import main
from onered.game.series import Series
from onered.web.db import Database, latest_version
from onered.web.match_store import MatchStore
from onered.web.store import Answered, Mode, Store

SQLITE = "sqlite"
POSTGRESQL = "postgresql"


def target_args(kind: str, tmp_path: Path, request: pytest.FixtureRequest, name: str) -> list[str]:
    """The CLI flags naming a database of ``kind``: a data folder, or a fresh PostgreSQL one."""
    if kind == POSTGRESQL:
        url: str = request.getfixturevalue("postgres_url")
        if name != "source":  # a second database on the server
            from postgres_support import fresh_database

            url = fresh_database(request.getfixturevalue("postgres_server"))
        return ["--database", url]
    return ["--data", str(tmp_path / name)]


def open_db(args: list[str]) -> Database:
    return Database(args[1]) if args[0] == "--database" else Database.in_folder(args[1])


def fill(db: Database) -> dict[str, object]:
    """A club's worth of rows in ``db``: games with lines, a match, a kept answer, a seat."""
    store = Store(db)
    a, token = store.create(Mode.MARK, ["m0", "m1"], {"s": 1}, {"players": ["Ёжик", "Bob"]})
    with store.edit(a) as edit:
        edit.push("m2")
    b, _ = store.create(Mode.PLAY, ["p0"], {}, {"players": ["Ann", "Bob"], "winner": 0})
    store.keep_answer(a, "key-1", Answered("f", 200, b"\x00\xffbody"))
    matches = MatchStore(db)
    match_id, _ = matches.create(Series(best_of=3, players=("Ann", "Bob"), target=100))
    matches.add_game(match_id, 0, b)
    with db.write() as conn:
        conn.execute(
            "INSERT INTO seats (game_id, player, token_hash) VALUES (?, ?, ?)", (b, 0, "h")
        )
    return {"a": a, "b": b, "token": token, "match": match_id}


def dump(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, sorted (to compare two databases)."""
    out = {}
    with db.read() as conn:
        for table in db.tables():
            rows = conn.execute(f'SELECT * FROM "{table}"').fetchall()
            out[table] = sorted(
                (tuple(bytes(v) if isinstance(v, memoryview) else v for v in r) for r in rows),
                key=repr,
            )
    return out


@pytest.mark.parametrize(
    ("source", "target"),
    [(SQLITE, POSTGRESQL), (POSTGRESQL, SQLITE), (SQLITE, SQLITE)],
)
def test_a_club_is_backed_up_and_restored_whole(
    source: str,
    target: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
    capsys: pytest.CaptureFixture[str],
) -> None:
    src_args = target_args(source, tmp_path, request, "source")
    src = open_db(src_args)
    src.migrate()
    made = fill(src)
    file = tmp_path / "club.jsonl.gz"
    assert main(["backup", str(file), *src_args]) == 0
    assert "written to" in capsys.readouterr().out
    dst_args = target_args(target, tmp_path, request, "target")
    assert main(["restore", str(file), *dst_args]) == 0
    dst = open_db(dst_args)
    try:
        assert dump(dst) == dump(src)
        assert dst.version() == latest_version()
        store = Store(dst)
        assert store.lines(str(made["a"])) == ["m0", "m1", "m2"]
        assert store.check_token(str(made["a"]), str(made["token"]))
        kept = store.answered(str(made["a"]), "key-1")
        assert kept is not None
        assert kept.body == b"\x00\xffbody"
        assert store.search(player="ёжик")[1] == 1
        with store.edit(str(made["a"]), 3) as edit:  # the restored club goes on
            edit.push("m3")
        assert MatchStore(dst).match(str(made["match"])) is not None
    finally:
        dst.close()
        src.close()


def test_a_database_with_rows_is_refused_unless_replaced(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fill(database)
    file = tmp_path / "club.jsonl.gz"
    args = (
        ["--database", database.url]
        if database.path is None
        else ["--data", str(Path(database.url).parent)]
    )
    assert main(["backup", str(file), *args]) == 0
    assert main(["restore", str(file), *args]) == 1
    assert "not empty" in capsys.readouterr().err
    Store(database).create(Mode.MARK, ["extra"], {}, {})
    assert main(["restore", str(file), *args, "--replace"]) == 0
    assert Store(database).count() == 2  # the extra game is gone


def _rewrite(file: Path, change: object) -> None:
    with gzip.open(file, "rt", encoding="utf-8") as f:
        lines = f.read().splitlines()
    lines = change(lines)  # type: ignore[operator]
    with gzip.open(file, "wt", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def test_a_file_of_a_newer_schema_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = Database.in_folder(tmp_path / "a")
    src.migrate()
    fill(src)
    file = tmp_path / "club.jsonl.gz"
    assert main(["backup", str(file), "--data", str(tmp_path / "a")]) == 0

    def newer(lines: list[str]) -> list[str]:
        header = json.loads(lines[0])
        header["schema"] = 9999
        return [json.dumps(header), *lines[1:]]

    _rewrite(file, newer)
    assert main(["restore", str(file), "--data", str(tmp_path / "b")]) == 1
    assert "schema version 9999 is newer than this onered's" in capsys.readouterr().err


def test_a_file_cut_short_restores_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = Database.in_folder(tmp_path / "a")
    src.migrate()
    fill(src)
    file = tmp_path / "club.jsonl.gz"
    assert main(["backup", str(file), "--data", str(tmp_path / "a")]) == 0
    _rewrite(file, lambda lines: lines[:-2])
    assert main(["restore", str(file), "--data", str(tmp_path / "b")]) == 1
    assert "ends early" in capsys.readouterr().err
    assert Store(tmp_path / "b").count() == 0


def test_not_a_backup_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = tmp_path / "x.gz"
    file.write_bytes(b"plain text, not gzip")
    assert main(["restore", str(file), "--data", str(tmp_path / "b")]) == 1
    assert "not a readable onered backup" in capsys.readouterr().err
    assert main(["backup", str(file), "--data", str(tmp_path / "none")]) == 2
    assert "no onered database there" in capsys.readouterr().err
