"""Tournaments as the web keeps them: a row of ``tournaments`` (the settings, the players
entered and, once drawn, the whole state as :mod:`onered.tournament`'s JSON form) and the
fixtures' matches in ``tournament_matches`` (migration ``0020_tournaments``), in the app's
database (:class:`onered.web.db.Database`: SQLite or PostgreSQL).

Every change is one write transaction that reads the row, changes the state through the
domain (which refuses what the rules refuse) and writes it back with ``revision + 1`` only
if the revision is still the one read (optimistic: on PostgreSQL two workers may read the
same revision; the second's write finds it gone and the change is tried again, or refused
as ``stale`` when the client named the revision it saw).

A decided match's result comes in through :meth:`Tournaments.record_finished`, once per
match (the link's ``recorded`` is claimed in the same transaction): a repeat, from a retry
or another worker, changes nothing. A take-back that un-decides the match withdraws the
result (:meth:`Tournaments.withdraw_finished`) while the tournament has not moved past it
(the readings: docs/tournaments.md).
"""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from onered.tournament import (
    Entrant,
    Format,
    Result,
    Tournament,
    TournamentError,
    draw,
    from_json,
)
from onered.web.db import Conn, Database
from onered.web.errors import ApiError
from onered.web.finished import FinishedMatch
from onered.web.store import hash_token

#: Tries of a change that lost a race to another worker before it gives up (409 ``stale``).
TRIES = 8


class _LostRaceError(Exception):
    """Another worker changed the tournament between this change's read and its write."""


class Status(Enum):
    """Where a tournament is: players being entered, drawn and being played, over."""

    ENTRY = "entry"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Link:
    """A fixture's match, and when its result was entered (``None``: not entered)."""

    fixture: str
    match_id: str
    recorded: float | None


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament as stored: its settings, the players entered (in the order entered,
    before the draw; the state's seed order after), the state once drawn, and the fixtures'
    matches."""

    id: str
    club_id: str | None
    name: str
    target: int
    best_of: int
    format: Format
    groups: int
    advance: int
    seed: int
    tables: tuple[int, ...]
    entrants: tuple[Entrant, ...]
    state: Tournament | None
    created: float
    updated: float
    revision: int
    links: tuple[Link, ...] = ()

    @property
    def status(self) -> Status:
        if self.state is None:
            return Status.ENTRY
        return Status.OVER if self.state.over else Status.PLAYING

    def link(self, fixture: str) -> Link | None:
        return next((k for k in self.links if k.fixture == fixture), None)


def stale(expected: int, found: int) -> ApiError:
    """The refusal of a change made against revision ``expected`` (it is ``found`` now)."""
    return ApiError(
        409,
        f"the tournament is at revision {found}, not {expected}: reload and try again",
        "stale",
        {"expected": expected, "found": found},
    )


def no_tournament(tournament_id: str) -> ApiError:
    return ApiError(
        404,
        f"tournament {tournament_id!r}: no such tournament",
        "no_tournament",
        {"id": tournament_id},
    )


def _entrants_json(entrants: Sequence[Entrant]) -> str:
    return json.dumps(
        [{"id": e.id, "name": e.name, "club": e.club, "rating": e.rating} for e in entrants]
    )


def _entrants(text: str) -> tuple[Entrant, ...]:
    return tuple(
        Entrant(str(e["id"]), str(e["name"]), str(e.get("club") or ""), e.get("rating"))
        for e in json.loads(text)
    )


def _row(r: Any, links: Sequence[Link]) -> TournamentRow:
    state = None if r["state"] is None else from_json(json.loads(r["state"]))
    return TournamentRow(
        id=str(r["id"]),
        club_id=r["club_id"],
        name=str(r["name"]),
        target=int(r["target"]),
        best_of=int(r["best_of"]),
        format=Format(r["format"]),
        groups=int(r["groups_count"]),
        advance=int(r["advance"]),
        seed=int(r["seed"]),
        tables=tuple(int(t) for t in json.loads(r["tables"])),
        entrants=_entrants(str(r["entrants"])),
        state=state,
        created=float(r["created"]),
        updated=float(r["updated"]),
        revision=int(r["revision"]),
        links=tuple(links),
    )


def _links(conn: Conn, tournament_id: str) -> list[Link]:
    rows = conn.execute(
        "SELECT fixture, match_id, recorded FROM tournament_matches WHERE tournament_id = ?",
        (tournament_id,),
    ).fetchall()
    return [Link(str(r[0]), str(r[1]), None if r[2] is None else float(r[2])) for r in rows]


def _read(conn: Conn, tournament_id: str) -> TournamentRow | None:
    r = conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return None if r is None else _row(r, _links(conn, tournament_id))


def result_of(state: Tournament, fixture: str, finished: FinishedMatch) -> Result:
    """The fixture's result from its decided match: the match's players are the fixture's
    entrants by name (names are unique in a tournament)."""
    f = state.fixture(fixture)
    names = {e.id: e.name for e in state.entrants}
    a_name, b_name = names.get(str(f.a)), names.get(str(f.b))
    if {a_name, b_name} != set(finished.players):
        raise TournamentError(
            f"fixture {fixture}: the match's players {list(finished.players)} are not its entrants",
            code="match_players",
            params={"fixture": fixture},
        )
    ia = finished.players.index(str(a_name))
    ib = 1 - ia
    winner_name = finished.players[finished.winner]
    winner = str(f.a) if winner_name == a_name else str(f.b)
    return Result(
        fixture,
        winner,
        finished.games_won[ia],
        finished.games_won[ib],
        (finished.handicap[ia], finished.handicap[ib]),
    )


class Tournaments:
    """The tournaments of one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- reading ------------------------------------------------------------------------

    def get(self, tournament_id: str) -> TournamentRow | None:
        with self.db.snapshot() as conn:
            return _read(conn, tournament_id)

    def known(self, tournament_id: str) -> TournamentRow:
        row = self.get(tournament_id)
        if row is None:
            raise no_tournament(tournament_id)
        return row

    def listed(self, club_id: str | None = None, limit: int = 50) -> list[TournamentRow]:
        """The tournaments (of ``club_id`` when given), the latest changed first."""
        with self.db.snapshot() as conn:
            if club_id is None:
                rows = conn.execute(
                    "SELECT * FROM tournaments ORDER BY updated DESC LIMIT ?", (limit,)
                ).fetchall()
            else:
                rows = conn.execute(
                    "SELECT * FROM tournaments WHERE club_id = ? ORDER BY updated DESC LIMIT ?",
                    (club_id, limit),
                ).fetchall()
            return [_row(r, ()) for r in rows]

    def check_token(self, tournament_id: str, token: str) -> bool:
        """Whether ``token`` is the organiser's secret (compared in constant time)."""
        with self.db.read() as conn:
            r = conn.execute(
                "SELECT token_hash FROM tournaments WHERE id = ?", (tournament_id,)
            ).fetchone()
        return r is not None and hmac.compare_digest(str(r[0]), hash_token(token))

    def tournament_of(self, match_id: str) -> tuple[str, str] | None:
        """The tournament and fixture a match was started for, if any."""
        with self.db.read() as conn:
            r = conn.execute(
                "SELECT tournament_id, fixture FROM tournament_matches WHERE match_id = ?",
                (match_id,),
            ).fetchone()
        return None if r is None else (str(r[0]), str(r[1]))

    # --- changing -----------------------------------------------------------------------

    def create(
        self,
        *,
        name: str,
        club_id: str | None,
        target: int,
        best_of: int,
        format: Format,
        groups: int,
        advance: int,
        seed: int,
        tables: Sequence[int],
    ) -> tuple[TournamentRow, str]:
        """A new tournament with no players yet; returns it and the organiser's secret."""
        if best_of < 1 or best_of % 2 == 0:
            raise TournamentError(
                f"best_of: a match is the best of an odd number of games, got {best_of}",
                code="bad_best_of",
                params={"best_of": best_of},
            )
        token = secrets.token_urlsafe(24)
        now = time.time()
        tournament_id = "t" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO tournaments (id, club_id, name, target, best_of, format,"
                " groups_count, advance, seed, tables, token_hash, entrants, state, created,"
                " updated, revision) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0)",
                (
                    tournament_id,
                    club_id,
                    name,
                    target,
                    best_of,
                    format.value,
                    groups,
                    advance,
                    seed,
                    json.dumps(list(tables)),
                    hash_token(token),
                    "[]",
                    now,
                    now,
                ),
            )
            row = _read(conn, tournament_id)
        if row is None:  # pragma: no cover - written in this transaction
            raise no_tournament(tournament_id)
        return row, token

    def change(
        self,
        tournament_id: str,
        revision: int | None,
        act: Callable[[Conn, TournamentRow], TournamentRow],
    ) -> TournamentRow:
        """Change a tournament by ``act`` (given the row as it is, it returns the row as it is
        to be: entrants, state, tables; it may write links on ``conn``), in one transaction,
        the revision checked: a ``revision`` the client saw that is not the current one is
        ``stale``; a race lost to another worker is tried again."""
        for _ in range(TRIES):
            try:
                with self.db.write() as conn:
                    row = _read(conn, tournament_id)
                    if row is None:
                        raise no_tournament(tournament_id)
                    if revision is not None and revision != row.revision:
                        raise stale(revision, row.revision)
                    after = act(conn, row)
                    if after is row:
                        return row
                    done = conn.execute(
                        "UPDATE tournaments SET entrants = ?, state = ?, tables = ?,"
                        " updated = ?, revision = ? WHERE id = ? AND revision = ?",
                        (
                            _entrants_json(after.entrants),
                            None if after.state is None else json.dumps(after.state.to_json()),
                            json.dumps(list(after.tables)),
                            time.time(),
                            row.revision + 1,
                            tournament_id,
                            row.revision,
                        ),
                    ).rowcount
                    fresh = _read(conn, tournament_id) if done == 1 else None
                    if fresh is None:
                        raise _LostRaceError  # rolled back, links too: tried again
                    return fresh
            except _LostRaceError:
                continue
        current = self.known(tournament_id)
        raise stale(revision if revision is not None else current.revision, current.revision)

    def enter(
        self, tournament_id: str, revision: int | None, entrants: Sequence[Entrant]
    ) -> TournamentRow:
        """Enter players (before the draw): names unique (casefolded), ids unique."""

        def act(conn: Conn, row: TournamentRow) -> TournamentRow:
            if row.state is not None:
                raise ApiError(
                    409,
                    f"tournament {row.id!r}: it is drawn, no player can be entered now",
                    "drawn_already",
                    {"id": row.id},
                )
            names = {e.name.casefold() for e in row.entrants}
            for entrant in entrants:
                if entrant.name.casefold() in names:
                    raise ApiError(
                        409,
                        f"player {entrant.name!r}: entered already",
                        "entered_twice",
                        {"id": entrant.name},
                    )
                names.add(entrant.name.casefold())
            return replace(row, entrants=(*row.entrants, *entrants))

        return self.change(tournament_id, revision, act)

    def make_draw(self, tournament_id: str, revision: int | None) -> TournamentRow:
        """Draw the tournament from the players entered (seeded by rating)."""

        def act(conn: Conn, row: TournamentRow) -> TournamentRow:
            if row.state is not None:
                raise ApiError(
                    409, f"tournament {row.id!r}: drawn already", "drawn_already", {"id": row.id}
                )
            state = draw(
                row.entrants,
                row.format,
                seed=row.seed,
                best_of=row.best_of,
                groups=row.groups,
                advance=row.advance,
            )
            return replace(row, state=state)

        return self.change(tournament_id, revision, act)

    def play(
        self,
        tournament_id: str,
        revision: int | None,
        act: Callable[[Tournament, TournamentRow], Tournament],
    ) -> TournamentRow:
        """Change a drawn tournament's state by ``act``."""

        def step(conn: Conn, row: TournamentRow) -> TournamentRow:
            state = drawn(row)
            after = act(state, row)
            return row if after == state else replace(row, state=after)

        return self.change(tournament_id, revision, step)

    def undo(self, tournament_id: str, revision: int | None, fixture: str) -> TournamentRow:
        """Take a fixture's result out (the organiser's correction), while the tournament
        has not moved past it: refused too when a fixture it changes has a match started.
        The fixture's match, if it had one, is let go (it stays in the records, and in the
        ratings): the fixture is ready again, for a new match or a result by hand."""

        def step(conn: Conn, row: TournamentRow) -> TournamentRow:
            after = _undone(row, fixture)
            conn.execute(
                "DELETE FROM tournament_matches WHERE tournament_id = ? AND fixture = ?",
                (row.id, fixture),
            )
            return replace(
                row, state=after, links=tuple(k for k in row.links if k.fixture != fixture)
            )

        return self.change(tournament_id, revision, step)

    def link(self, tournament_id: str, fixture: str, match_id: str) -> None:
        """Keep ``match_id`` as the match of ``fixture`` (one per fixture)."""
        with self.db.write() as conn:
            conn.execute(
                "INSERT INTO tournament_matches (tournament_id, fixture, match_id, created,"
                " recorded) VALUES (?, ?, ?, ?, NULL)",
                (tournament_id, fixture, match_id, time.time()),
            )

    # --- results from matches -------------------------------------------------------------

    def record_finished(self, finished: FinishedMatch) -> bool:
        """Enter a decided match's result in its fixture, once: returns whether it was
        entered now (``False``: no tournament's match, or entered already)."""
        found = self.tournament_of(finished.match_id)
        if found is None:
            return False
        tournament_id, fixture = found
        entered = False

        def step(conn: Conn, row: TournamentRow) -> TournamentRow:
            nonlocal entered
            entered = False
            link = row.link(fixture)
            state = row.state
            if link is None or link.recorded is not None or state is None:
                return row
            if state.result_of(fixture) is not None:  # the organiser entered it by hand
                return row
            after = state.record(result_of(state, fixture, finished))
            conn.execute(
                "UPDATE tournament_matches SET recorded = ? WHERE match_id = ?"
                " AND recorded IS NULL",
                (time.time(), finished.match_id),
            )
            entered = True
            return replace(row, state=after)

        self.change(tournament_id, None, step)
        return entered

    def can_withdraw(self, match_id: str) -> None:
        """Refuse (409 ``result_stands``) a take-back that would un-decide ``match_id``
        once its tournament has moved past its fixture's result."""
        found = self.tournament_of(match_id)
        if found is None:
            return
        row = self.get(found[0])
        if row is None or row.state is None:
            return
        link = row.link(found[1])
        if link is None or link.recorded is None:
            return
        try:
            _undone(row, found[1])
        except (TournamentError, ApiError) as error:
            raise ApiError(
                409,
                f"the match's result stands: its tournament has moved past fixture "
                f"{found[1]} ({error})",
                "result_stands",
                {"fixture": found[1]},
            ) from None

    def withdraw_finished(self, match_id: str) -> bool:
        """Take out the result a match had entered, now that a take-back un-decided it;
        returns whether it was taken out (``False``: nothing entered, or it stands)."""
        found = self.tournament_of(match_id)
        if found is None:
            return False
        tournament_id, fixture = found
        taken = False

        def step(conn: Conn, row: TournamentRow) -> TournamentRow:
            nonlocal taken
            taken = False
            link = row.link(fixture)
            if link is None or link.recorded is None or row.state is None:
                return row
            after = _undone(row, fixture)
            conn.execute(
                "UPDATE tournament_matches SET recorded = NULL WHERE match_id = ?", (match_id,)
            )
            taken = True
            return replace(row, state=after)

        try:
            self.change(tournament_id, None, step)
        except (TournamentError, ApiError):
            return False
        return taken


def drawn(row: TournamentRow) -> Tournament:
    """The state of a drawn tournament (409 ``not_drawn`` before the draw)."""
    if row.state is None:
        raise ApiError(
            409, f"tournament {row.id!r}: it is not drawn yet", "not_drawn", {"id": row.id}
        )
    return row.state


def _undone(row: TournamentRow, fixture: str) -> Tournament:
    """The state with ``fixture``'s result undone; refused (409 ``undo_started``) when a
    fixture whose players it changes already has its match."""
    state = drawn(row)
    after = state.undo(fixture)
    now = {f.key: (f.a, f.b) for f in after.fixtures}
    for link in row.links:
        if link.fixture == fixture:
            continue
        before = state.fixture(link.fixture)
        if now.get(link.fixture) != (before.a, before.b):
            raise ApiError(
                409,
                f"fixture {fixture}: its result cannot be undone, {link.fixture}'s match has "
                f"started",
                "undo_started",
                {"fixture": fixture, "later": link.fixture},
            )
    return after
