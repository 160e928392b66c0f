"""``onered ratings``: rebuild the ratings from the matches a data folder holds, list them."""

from __future__ import annotations

from pathlib import Path

import pytest

from onered.cli import main
from onered.web.db import Database
from web_support import P1, P2, Api


def test_rebuild_records_the_missing_matches_and_list_ranks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from onered.web.app import create_app

    data = tmp_path / "data"
    app = create_app(data)
    api = Api(app)
    made = api.new_match(best_of=1, target=3)
    assert api.mark(made["game"]["id"], made["game"]["token"], parts=["pot_red"]).status == 200
    app.state.db.close()
    db = Database.in_folder(data)
    with db.write() as c:  # as if the hook had failed: the ratings know nothing
        for table in ("rating_history", "ratings", "rating_matches"):
            c.execute(f"DELETE FROM {table}")
    assert main(["ratings", "list", "--data", str(data)]) == 0
    assert "no rated players" in capsys.readouterr().out
    assert main(["ratings", "rebuild", "--data", str(data)]) == 0
    assert capsys.readouterr().out.startswith(
        "1 matches recorded now; ratings worked out again from 1"
    )
    assert main(["ratings", "list", "--data", str(data), "--target", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[1] for line in lines] == [P1, P2]
    assert "1 matches, 1/1 games" in lines[0]
