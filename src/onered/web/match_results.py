"""The decided-match hook: once a stored change decides a match, its :class:`FinishedMatch`
goes to the parts that learn from results — the tournament whose fixture the match is
(:meth:`onered.web.tournaments.Tournaments.record_finished`) and the ratings
(:func:`onered.web.ratings.record_finished`; a result withdrawn, by
:func:`onered.web.ratings.withdraw_finished`).

:class:`Outcomes` is told by :meth:`onered.web.games.Games.change` of every change that ends
a game or un-ends one (a take-back of its last stroke); a game of no match costs nothing
(its row's settings say so). Each recorder records a match at most once, keyed by its id, in
its own transaction: a repeat (a retry, another worker told of the same change) changes
nothing, so the hook holds when several worker processes share the database.

A take-back that would un-decide a match is refused before it is stored (409
``result_stands``) once the match's tournament has moved past its fixture; before that, the
result is withdrawn with the take-back (docs/tournaments.md, "Results from marked matches").
A hook that fails after its change was stored does not fail the change: the tournament's
page enters a decided match's result it missed when it is next read
(:func:`reconcile`).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI

from onered.game.series import SeriesError, standing
from onered.game.summary import Summary
from onered.web import ratings
from onered.web.accounts import database_of
from onered.web.finished import FinishedMatch
from onered.web.match_store import MatchRow, MatchStore
from onered.web.store import GameRow, Store, StoreError
from onered.web.tournaments import Tournaments

log = logging.getLogger(__name__)


def matches_of(app: FastAPI) -> MatchStore:
    """The app's matches (``app.state.matches``, made on first use as the matches' routes
    make it)."""
    found = getattr(app.state, "matches", None)
    if isinstance(found, MatchStore):
        return found
    store = app.state.store
    made = MatchStore(getattr(store, "db", None) or store.data_dir)
    app.state.matches = made
    return made


def tournaments_of(app: FastAPI) -> Tournaments:
    """The app's tournaments (``app.state.tournaments``, made on first use)."""
    found = getattr(app.state, "tournaments", None)
    if isinstance(found, Tournaments):
        return found
    made = Tournaments(database_of(app))
    app.state.tournaments = made
    return made


def finished_match(store: Store, match: MatchRow) -> FinishedMatch | None:
    """The match as a :class:`FinishedMatch` once decided (``None`` while it is not, or a
    game of it is gone)."""
    series = match.series
    winners: list[str] = []
    points = [0, 0]
    last = match.created
    for game_id in match.games:
        row = store.game(game_id)
        if row is None:
            return None
        summary = Summary.from_json(row.summary, f"game {row.id}: summary", error=StoreError)
        if summary.winner is None:
            break
        winners.append(summary.winner)
        for name, score in zip(summary.players, summary.score, strict=True):
            if name in series.players:
                points[series.players.index(name)] += score
        last = max(last, row.updated)
    try:
        now = standing(series, winners)
    except SeriesError:
        return None
    if now.winner is None:
        return None
    return FinishedMatch(
        match_id=match.id,
        players=series.players,
        target=series.target,
        best_of=series.best_of,
        handicap=series.handicap,
        games_won=now.wins,
        winner=now.winner,
        points=(points[0], points[1]),
        finished=last,
    )


def _match_id(row: GameRow) -> str | None:
    match = row.settings.get("match")
    if isinstance(match, dict) and isinstance(match.get("id"), str):
        return str(match["id"])
    return None


class Outcomes:
    """The hook :class:`onered.web.games.Games` calls (``games.outcome``)."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def reopening(self, game_id: str) -> None:
        """Before a change that un-ends ``game_id`` is stored: refuse it (409
        ``result_stands``) when its match's result stands in a tournament that moved on."""
        row = self.app.state.store.game(game_id)
        match_id = None if row is None else _match_id(row)
        if match_id is not None:
            tournaments_of(self.app).can_withdraw(match_id)

    def changed(self, row: GameRow) -> None:
        """After a stored change that ended or un-ended the game ``row``: its match, if
        decided now, is handed to the recorders; if not, a result it had entered is
        withdrawn. A recorder's failure is logged, never the change's."""
        match_id = _match_id(row)
        if match_id is None:
            return
        ended = row.summary.get("winner") is not None
        try:
            settle(self.app, match_id, ended)
        except Exception:  # the change is stored: its answer must not fail
            log.exception("match %s: its result could not be handed on", match_id)


def settle(app: FastAPI, match_id: str, ended: bool = True) -> FinishedMatch | None:
    """After a game of ``match_id`` ended (``ended``) or was un-ended: hand the match's
    result on if it is decided now, or withdraw the result it had entered if it is not (a
    game that ended without deciding the match withdraws nothing); each recorder acts at most
    once. Returns the finished match, if it is decided."""
    match = matches_of(app).match(match_id)
    if match is None:
        return None
    finished = finished_match(app.state.store, match)
    if finished is not None:
        hand_on(app, finished)
    elif not ended:
        tournaments_of(app).withdraw_finished(match_id)
        ratings.withdraw_finished(database_of(app), match_id)
    return finished


def hand_on(app: FastAPI, finished: FinishedMatch) -> bool:
    """Give a decided match to each recorder (each records it at most once); returns whether
    its tournament's fixture entered it now."""
    entered = tournaments_of(app).record_finished(finished)
    ratings.record_finished(database_of(app), finished)
    return entered


def reconcile(app: FastAPI, tournament_id: str) -> bool:
    """Enter the result of every decided match of the tournament's fixtures that has not
    come in (its hook failed, or its worker died between the stroke and the hook); returns
    whether any did."""
    row = tournaments_of(app).get(tournament_id)
    if row is None or row.state is None:
        return False
    state = row.state
    missed = [k for k in row.links if k.recorded is None and state.result_of(k.fixture) is None]
    entered = False
    for link in missed:
        match = matches_of(app).match(link.match_id)
        finished = None if match is None else finished_match(app.state.store, match)
        if finished is not None:
            entered = hand_on(app, finished) or entered
    return entered
