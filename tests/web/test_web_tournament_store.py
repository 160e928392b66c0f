"""The tournaments' store on both databases: a decided match's result is entered once however
many workers hand it on at the same time (each its own :class:`Tournaments`, as each worker
process has), and a change made against an old revision is refused."""

from __future__ import annotations

import threading

import pytest

from onered.tournament import Entrant, Format
from onered.web.db import Database
from onered.web.errors import ApiError
from onered.web.finished import FinishedMatch
from onered.web.tournaments import Tournaments


def _drawn(db: Database) -> str:
    t = Tournaments(db)
    row, _ = t.create(
        name="Cup",
        club_id=None,
        target=50,
        best_of=3,
        format=Format.KNOCKOUT,
        groups=0,
        advance=2,
        seed=1,
        tables=[1, 2],
    )
    t.enter(row.id, None, [Entrant("a", "Ivanov", rating=1900.0), Entrant("b", "Petrov")])
    t.make_draw(row.id, None)
    return row.id


def test_a_result_handed_on_by_many_workers_at_once_is_entered_once(database: Database) -> None:
    tid = _drawn(database)
    Tournaments(database).link(tid, "K-R1-1", "m1")
    finished = FinishedMatch(
        match_id="m1",
        players=("Petrov", "Ivanov"),
        target=50,
        best_of=3,
        handicap=(0, 10),
        games_won=(1, 2),
        winner=1,
        points=(80, 120),
        finished=1.0,
    )
    entered: list[bool] = []
    start = threading.Barrier(6)

    def worker() -> None:
        mine = Tournaments(database)  # a worker process's own
        start.wait()
        entered.append(mine.record_finished(finished))

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(entered) == [False] * 5 + [True]
    row = Tournaments(database).known(tid)
    assert row.state is not None
    (result,) = row.state.results
    assert (result.winner, result.games_a, result.games_b) == ("a", 2, 1)  # by name: a's
    assert result.handicap == (10, 0)
    assert row.state.over
    assert row.revision == 3  # made 0, players 1, drawn 2, the result 3: once


def test_a_change_against_an_old_revision_is_stale(database: Database) -> None:
    tid = _drawn(database)
    t = Tournaments(database)
    seen = t.known(tid).revision
    t.play(tid, seen, lambda state, _: state.assign_tables([1]))
    with pytest.raises(ApiError) as error:
        t.play(tid, seen, lambda state, _: state.assign_tables([2]))
    assert error.value.code == "stale"
