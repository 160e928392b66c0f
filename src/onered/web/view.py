"""What the pages are sent about a game: its state, the log from a line on (at most the latest
:data:`LOG_PAGE` lines; older pages on demand), the visits and the score's progression; built
from the game's session (``onered.game.session``), so a view costs what it shows: what
changed, or the latest page of a long game, never the whole log."""

from __future__ import annotations

from typing import Any

from onered.game import summary
from onered.game.record import PROTOCOL_FIELDS, LineKind
from onered.game.session import Session
from onered.protocol.json_fields import point_json
from onered.protocol.referee import match_json, verdict_json
from onered.rules import Ball
from onered.web.pad import pad_json
from onered.web.store import GameRow

#: The fields of a line the log shows: the protocol's, and a played stroke's strike.
LOG_FIELDS = frozenset().union(*PROTOCOL_FIELDS.values()) | {"strike"}
#: The most log lines one view or one page of the log carries (the latest in a view; older
#: pages are asked for with ``GET /api/games/{id}/log?before=N``).
LOG_PAGE = 200
#: The most breaks the record page lists.
TOP_BREAKS = 12


def state_json(game: Session) -> dict[str, object]:
    """The position for the pages: score, who plays and how, the balls the referee knows of,
    what is pending. ``table`` maps each ball on the table to ``[x, y]`` or ``null`` (on the
    table, place unknown); balls off the table are absent."""
    state = game.state
    players = game.players
    last = game.last
    verdict = last.verdict
    over = state.winner is not None
    ball = None if over else state.match.balls[state.to_play]
    return {
        "version": len(game),
        "score": list(state.score),
        "to_play": None if over else players[state.to_play],
        "to_play_index": None if over else state.to_play,
        "ball": None if ball is None else ball.value,
        "from_d": (not over) and ball is not None and ball not in state.table,
        "break": state.break_ if not verdict.visit_over else 0,
        "options": [o.value for o in verdict.options] if state.choice_pending else [],
        "winner": None if state.winner is None else players[state.winner],
        "in_hand": [b.value for b in state.in_hand()],
        "table": {
            b.value: (None if p is None else point_json(p))
            for b in (Ball.RED, Ball.WHITE, Ball.YELLOW)
            if b in state.table
            for p in (state.table[b],)
        },
        "counters": state.counters.to_json(),
        "baulk_required": verdict.baulk_required,
        "strokes": state.stroke_no,
        "can_undo": len(game) > 1,
        "can_claim": last.kind is LineKind.STROKE and verdict.foul is None,
        "possible": pad_json(state),  # what the pad may offer now, and why not (web.pad)
    }


def summary_json(game: Session) -> dict[str, object]:
    """The few facts the list of games shows (kept beside the lines in the store)."""
    s = game.state
    return summary.summary(
        game.players, game.match.target, s.score, s.stroke_no, s.winner, s.to_play
    ).to_json()


def verdicts_json(game: Session, since: int = 0) -> list[dict[str, object]]:
    """``{"seq", "in", "out"}`` for each line from ``since`` on (the whole line)."""
    players = game.players
    return [
        {"seq": e.seq, "in": dict(e.line), "out": verdict_json(e.verdict, players)}
        for e in game.entries[since:]
    ]


def log_json(game: Session, since: int, until: int | None = None) -> list[dict[str, object]]:
    """The log of the pages, lines ``since`` to ``until`` (the end): each line's protocol
    fields (a played stroke's bulky simulation left out, its strike kept) and its verdict."""
    players = game.players
    return [
        {
            "seq": e.seq,
            "in": {k: v for k, v in e.line.items() if k in LOG_FIELDS},
            "out": verdict_json(e.verdict, players),
        }
        for e in game.entries[since:until]
    ]


def log_page_json(row: GameRow, game: Session, before: int, limit: int) -> dict[str, Any]:
    """A page of the log: the (at most) ``limit`` lines before line ``before`` (clamped to the
    game's lines), with the game's ``revision`` and number of ``lines`` so that a page that
    asked for lines the game no longer has is told apart."""
    end = max(0, min(before, len(game)))
    start = max(0, end - limit)
    return {
        "id": row.id,
        "revision": row.revision,
        "lines": len(game),
        "log_start": start,
        "log": log_json(game, start, end),
    }


def strokes(game: Session) -> list[Any]:
    """The verdicts of the game's strokes (foul options left out)."""
    entries: list[Any] = list(game.entries[:])  # a list's own iteration, not the view's
    return [e.verdict for e in entries if e.kind is LineKind.STROKE]


def visits_json(game: Session) -> list[dict[str, object]]:
    return [v.to_json() for v in summary.visits(strokes(game), over=game.over)]


def progression_json(game: Session) -> list[dict[str, object]]:
    return summary.progression(game.first.verdict, strokes(game))


def chart_json(row: GameRow, game: Session) -> dict[str, Any]:
    """What the record page draws and lists beside the log: the score's progression (a point
    where the score changed, and the first and last; the steps between are the same) and the
    :data:`TOP_BREAKS` highest breaks (visits that scored), highest first."""
    played = strokes(game)
    points = summary.progression(game.first.verdict, played)
    kept = [
        p
        for k, p in enumerate(points)
        if k == 0 or k == len(points) - 1 or p["score"] != points[k - 1]["score"]
    ]
    found = [v for v in summary.visits(played, over=game.over) if v.points > 0]
    found.sort(key=lambda v: (-v.points, v.first))
    return {
        "id": row.id,
        "revision": row.revision,
        "progression": kept,
        "breaks": [v.to_json() for v in found[:TOP_BREAKS]],
    }


def game_json(row: GameRow, game: Session, since: int, page: int = LOG_PAGE) -> dict[str, Any]:
    """The game as the pages get it: its state, and the log from line ``since`` on but at most
    the latest ``page`` lines. ``log_from``: the first line the answer replaces (a
    client drops the lines it has from there); ``log_start``: the first line of ``log``
    (after ``log_from`` when older lines were left out: the log's earlier pages are asked
    for with ``GET /api/games/{id}/log?before=log_start``)."""
    since = max(0, min(since, len(game)))
    start = max(since, len(game) - page)
    out: dict[str, Any] = {
        "id": row.id,
        "mode": row.mode.value,
        "settings": dict(row.settings),
        "created": row.created,
        "updated": row.updated,
        "revision": row.revision,
        "match": {k: v for k, v in match_json(game.match).items() if k != "type"},
        "state": state_json(game),
        "last": verdict_json(game.last.verdict, game.players),
        "log_from": since,
        "log_start": start,
        "log": log_json(game, start),
    }
    return out
