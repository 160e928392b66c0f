"""The ratings' store: every finished match recorded once, each player's Glicko-2 rating per
target and overall, and his history (the tables of migration ``0030_ratings``).

* :func:`record_finished` is handed each decided match (``onered.web.match_results``): it
  records it at most once, keyed by its id (a repeat, from a retry or another worker,
  changes nothing), and rates it in the order the matches finished — one that finished
  before the last one rated makes the ratings be worked out again from the start
  (:func:`rebuild`), so the order of arrival never matters.
* :func:`withdraw_finished` forgets a match a take-back un-decided, and rebuilds.
* :func:`catch_up` records the matches that are missing (from :func:`finished_in_store`: every
  decided match the store holds) and rebuilds: ``onered ratings rebuild``.
* :func:`ranking`, :func:`player_ratings` and :func:`standing` read them.

The readings (per game, a match a rating period, idle weeks, handicapped matches unrated):
``onered.ratings.ledger`` and ``docs/ratings.md``. A player is his name casefolded
(``api_register.name_key``, as the register keeps names unique); a player with a rating in
the register starts from it (deviation :data:`REGISTER_DEVIATION`), anyone else from 1500.
Writers take their turns on the one row of ``rating_lock``, on PostgreSQL as on SQLite.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from onered.ratings.glicko2 import DEFAULT_VOLATILITY, Rating
from onered.ratings.ledger import ALL_TARGETS, Outcome, Policy, Standing, play
from onered.web.api_register import name_key
from onered.web.db import Conn, Database
from onered.web.finished import FinishedMatch

#: The deviation of a player who starts from the rating the register gives him: a rating
#: someone vouched for, less sure than one earned in games (Glickman's example player has
#: 200).
REGISTER_DEVIATION = 200.0
#: The ratings' policy (``onered.ratings.ledger``): Glickman's tau of 0.5, idle weeks.
POLICY = Policy()

_MATCH_COLUMNS = (
    "match_id, finished, target, best_of, player_a, player_b, games_a, games_b, winner,"
    " handicap_a, handicap_b, points_a, points_b"
)
_RATING_COLUMNS = (
    "player_key, target, name, rating, deviation, volatility, matches, games, wins, last"
)


@dataclass(frozen=True, slots=True)
class Entry:
    """A player's standing at one ``target`` (0: all), under the ``name`` he last played
    as."""

    key: str
    target: int
    name: str
    standing: Standing

    def json(self, now: float | None = None) -> dict[str, object]:
        """The entry for the API: the rating as it stands ``now`` (the deviation grown
        over his idle time) and as his last match left it."""
        s = self.standing
        current = s.rating if now is None else s.at(now, POLICY)
        return {
            "name": self.name,
            "target": self.target,
            "rating": round(current.rating, 1),
            "deviation": round(current.deviation, 1),
            "volatility": round(current.volatility, 6),
            "matches": s.matches,
            "games": s.games,
            "wins": s.wins,
            "last": s.last,
        }


@dataclass(frozen=True, slots=True)
class Change:
    """What one match did to one player's rating at one target (his history)."""

    match_id: str
    target: int
    finished: float
    opponent: str
    won: int
    lost: int
    before: Rating
    after: Rating

    def json(self) -> dict[str, object]:
        return {
            "match": self.match_id,
            "target": self.target,
            "finished": self.finished,
            "opponent": self.opponent,
            "won": self.won,
            "lost": self.lost,
            "rating_before": round(self.before.rating, 1),
            "deviation_before": round(self.before.deviation, 1),
            "rating": round(self.after.rating, 1),
            "deviation": round(self.after.deviation, 1),
        }


def _lock(c: Conn) -> None:
    """Wait for the other writers of ratings (a row lock on PostgreSQL; SQLite's writers
    already wait for each other)."""
    c.execute("UPDATE rating_lock SET version = version + 1 WHERE id = 1")


def _finished_of(row: Any) -> FinishedMatch:
    """A row of ``rating_matches`` as the match it records."""
    return FinishedMatch(
        match_id=str(row[0]),
        finished=float(row[1]),
        target=int(row[2]),
        best_of=int(row[3]),
        players=(str(row[4]), str(row[5])),
        games_won=(int(row[6]), int(row[7])),
        winner=int(row[8]),
        handicap=(int(row[9]), int(row[10])),
        points=(int(row[11]), int(row[12])),
    )


def _entry_of(row: Any) -> Entry:
    """A row of ``ratings``."""
    last = row[9]
    return Entry(
        key=str(row[0]),
        target=int(row[1]),
        name=str(row[2]),
        standing=Standing(
            Rating(float(row[3]), float(row[4]), float(row[5])),
            matches=int(row[6]),
            games=int(row[7]),
            wins=int(row[8]),
            last=None if last is None else float(last),
        ),
    )


def _start(c: Conn, key: str) -> Standing:
    """An unrated player's standing: from the register's rating, if it gives one."""
    row = c.execute(
        "SELECT rating FROM register_players WHERE name_key = ? AND rating IS NOT NULL", (key,)
    ).fetchone()
    if row is None:
        return Standing()
    return Standing(Rating(float(row[0]), REGISTER_DEVIATION, DEFAULT_VOLATILITY))


def _current(c: Conn, key: str, target: int) -> Standing:
    row = c.execute(
        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_key = ? AND target = ?",
        (key, target),
    ).fetchone()
    return _start(c, key) if row is None else _entry_of(row).standing


def _values(s: Standing) -> tuple[object, ...]:
    """A standing's columns of ``ratings`` after the name."""
    r = s.rating
    return (r.rating, r.deviation, r.volatility, s.matches, s.games, s.wins, s.last)


def _save(c: Conn, key: str, target: int, name: str, s: Standing) -> None:
    values = (name, *_values(s))
    done = c.execute(
        "UPDATE ratings SET name = ?, rating = ?, deviation = ?, volatility = ?, matches = ?,"
        " games = ?, wins = ?, last = ? WHERE player_key = ? AND target = ?",
        (*values, key, target),
    )
    if done.rowcount == 0:
        c.execute(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (key, target, *values),
        )


_HISTORY_INSERT = (
    "INSERT INTO rating_history (match_id, player_key, target, finished, opponent,"
    " won, lost, rating_before, deviation_before, rating, deviation)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: A player at a target: his name key and the target (0: all).
Slot = tuple[str, int]


def _rate(
    m: FinishedMatch, get: Callable[[str, int], Standing]
) -> tuple[list[tuple[Slot, str, Standing]], list[tuple[object, ...]]]:
    """What ``m`` does, from the standings ``get`` gives (its players', per its target and
    overall): the new standings (slot, name, standing) and the history rows."""
    outcome = Outcome(m.games_won, m.winner, m.handicap, m.finished)
    if not outcome.rated:
        return [], []
    keys = (name_key(m.players[0]), name_key(m.players[1]))
    names = (" ".join(m.players[0].split()), " ".join(m.players[1].split()))
    won = outcome.results
    standings: list[tuple[Slot, str, Standing]] = []
    history: list[tuple[object, ...]] = []
    for target in (m.target, ALL_TARGETS):
        a, b = get(keys[0], target), get(keys[1], target)
        before = (a.at(m.finished, POLICY), b.at(m.finished, POLICY))
        after = play(a, b, outcome, POLICY)
        for i in (0, 1):
            standings.append(((keys[i], target), names[i], after[i]))
            history.append(
                (
                    m.match_id,
                    keys[i],
                    target,
                    m.finished,
                    names[1 - i],
                    won[i],
                    won[1 - i],
                    before[i].rating,
                    before[i].deviation,
                    after[i].rating.rating,
                    after[i].rating.deviation,
                )
            )
    return standings, history


def _apply(c: Conn, m: FinishedMatch) -> None:
    """Rate ``m`` on the ratings as they stand in the database."""
    standings, history = _rate(m, lambda key, target: _current(c, key, target))
    for (key, target), name, standing in standings:
        _save(c, key, target, name, standing)
    if history:
        c.executemany(_HISTORY_INSERT, history)


def _insert(c: Conn, m: FinishedMatch) -> bool:
    """Record ``m``; ``False`` when a match of its id is recorded already."""
    done = c.execute(
        f"INSERT INTO rating_matches ({_MATCH_COLUMNS}, recorded)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
        (
            m.match_id,
            m.finished,
            m.target,
            m.best_of,
            m.players[0],
            m.players[1],
            m.games_won[0],
            m.games_won[1],
            m.winner,
            m.handicap[0],
            m.handicap[1],
            m.points[0],
            m.points[1],
            time.time(),
        ),
    )
    return done.rowcount > 0


def _rebuild(c: Conn) -> int:
    """Work every rating out again from the matches recorded, in the order they finished:
    folded in memory, then written at once (a query per match would cost a round trip
    each on PostgreSQL)."""
    c.execute("DELETE FROM rating_history")
    c.execute("DELETE FROM ratings")
    rows = c.execute(
        f"SELECT {_MATCH_COLUMNS} FROM rating_matches ORDER BY finished, match_id"
    ).fetchall()
    starts = {
        str(r[0]): Standing(Rating(float(r[1]), REGISTER_DEVIATION, DEFAULT_VOLATILITY))
        for r in c.execute(
            "SELECT name_key, rating FROM register_players WHERE rating IS NOT NULL"
        ).fetchall()
    }
    table: dict[Slot, tuple[str, Standing]] = {}
    history: list[tuple[object, ...]] = []

    def get(key: str, target: int) -> Standing:
        found = table.get((key, target))
        return found[1] if found is not None else starts.get(key, Standing())

    for r in rows:
        standings, rows_of_match = _rate(_finished_of(r), get)
        for slot, name, standing in standings:
            table[slot] = (name, standing)
        history += rows_of_match
    if table:
        c.executemany(
            f"INSERT INTO ratings ({_RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(key, target, name, *_values(s)) for (key, target), (name, s) in table.items()],
        )
    if history:
        c.executemany(_HISTORY_INSERT, history)
    return len(rows)


def record_finished(db: Database, finished: FinishedMatch) -> None:
    """Record a decided match and rate it, at most once by its id; a match that finished
    before the last one recorded makes the ratings be worked out again in order."""
    with db.write() as c:
        _lock(c)
        latest = c.execute(
            "SELECT finished, match_id FROM rating_matches ORDER BY finished DESC, match_id DESC"
            " LIMIT 1"
        ).fetchone()
        if not _insert(c, finished):
            return
        if latest is None or (float(latest[0]), str(latest[1])) < (
            finished.finished,
            finished.match_id,
        ):
            _apply(c, finished)
        else:
            _rebuild(c)


def withdraw_finished(db: Database, match_id: str) -> None:
    """Forget a match whose result a take-back withdrew (nothing if it was not recorded),
    and work the ratings out again without it."""
    with db.write() as c:
        _lock(c)
        if c.execute("DELETE FROM rating_matches WHERE match_id = ?", (match_id,)).rowcount:
            _rebuild(c)


def rebuild(db: Database) -> int:
    """Work every rating out again from the matches recorded, in the order they finished
    (after a change of the readings, or of a register's starting rating); returns the
    matches read."""
    with db.write() as c:
        _lock(c)
        return _rebuild(c)


def catch_up(db: Database, matches: Iterable[FinishedMatch]) -> int:
    """Record the ``matches`` not recorded yet and rebuild; returns how many were new."""
    new = 0
    with db.write() as c:
        _lock(c)
        for m in matches:
            new += _insert(c, m)
        _rebuild(c)
    return new


def finished_in_store(db: Database) -> Iterator[FinishedMatch]:
    """Every decided match the database holds (its matches and their games)."""
    # here, not at the top: the match hook imports this module's neighbours
    from onered.web.match_results import finished_match
    from onered.web.match_store import MatchStore
    from onered.web.store import Store

    store, matches = Store(db), MatchStore(db)
    with db.read() as c:
        rows = c.execute("SELECT id FROM matches ORDER BY created, id").fetchall()
        ids = [str(r[0]) for r in rows]
    for match_id in ids:
        row = matches.match(match_id)
        found = None if row is None else finished_match(store, row)
        if found is not None:
            yield found


def ranking(db: Database, target: int, limit: int = 100, offset: int = 0) -> list[Entry]:
    """The players rated at ``target`` (0: all), best first (then the surest, then by
    name)."""
    with db.read() as c:
        rows = c.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE target = ?"
            " ORDER BY rating DESC, deviation, player_key LIMIT ? OFFSET ?",
            (target, limit, offset),
        ).fetchall()
    return [_entry_of(r) for r in rows]


def count(db: Database, target: int) -> int:
    """How many players are rated at ``target``."""
    with db.read() as c:
        return int(
            c.execute("SELECT COUNT(*) FROM ratings WHERE target = ?", (target,)).fetchone()[0]
        )


def targets(db: Database) -> list[int]:
    """The targets some player is rated at (0 first: all targets)."""
    with db.read() as c:
        rows = c.execute("SELECT DISTINCT target FROM ratings ORDER BY target").fetchall()
    return [int(r[0]) for r in rows]


def player_ratings(db: Database, name: str) -> tuple[list[Entry], list[Change]]:
    """``name``'s ratings (one per target he is rated at, 0 first) and his history, oldest
    first."""
    key = name_key(name)
    with db.read() as c:
        entries = c.execute(
            f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_key = ? ORDER BY target",
            (key,),
        ).fetchall()
        history = c.execute(
            "SELECT match_id, target, finished, opponent, won, lost, rating_before,"
            " deviation_before, rating, deviation FROM rating_history WHERE player_key = ?"
            " ORDER BY finished, match_id, target",
            (key,),
        ).fetchall()
    changes = [
        Change(
            str(h[0]),
            int(h[1]),
            float(h[2]),
            str(h[3]),
            int(h[4]),
            int(h[5]),
            Rating(float(h[6]), float(h[7])),
            Rating(float(h[8]), float(h[9])),
        )
        for h in history
    ]
    return [_entry_of(e) for e in entries], changes


def standing(db: Database, name: str, target: int) -> tuple[str, Standing, bool]:
    """``name``'s standing at ``target`` for a proposal: his rating at that target, else
    his overall one, else where he would start (register or 1500). Returns the name he is
    known by, the standing, and whether any match rated him."""
    key = name_key(name)
    with db.read() as c:
        for t in (target, ALL_TARGETS):
            row = c.execute(
                f"SELECT {_RATING_COLUMNS} FROM ratings WHERE player_key = ? AND target = ?",
                (key, t),
            ).fetchone()
            if row is not None:
                entry = _entry_of(row)
                return entry.name, entry.standing, True
        return " ".join(name.split()), _start(c, key), False
