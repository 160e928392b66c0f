"""A played stroke simulated again: its shot (trajectories and all) from its stored line.

A played game stores each stroke's cue action (``strike``, and ``placed`` from hand) with
the line; the simulation is deterministic, so the shot is the same when simulated again
from the position before it. A second device animates the other player's stroke so
(``GET /api/games/<id>/shots/<seq>``), without the shot ever being stored.
"""

from __future__ import annotations

from onered.game.model import StrokeRecord
from onered.game.record import LineKind, RecordError, read_action
from onered.game.session import Session, SessionError


def _no_line(seq: int, why: str) -> SessionError:
    return SessionError("no_line", f"seq: {why}", {"seq": seq})


def stroke_again(session: Session, seq: int) -> StrokeRecord:
    """Stroke line ``seq`` of a played game simulated again from the position before it
    with its stored cue action; refused (code ``no_line``) for a line that is no played
    stroke."""
    if not 1 <= seq < len(session.entries):
        raise _no_line(seq, f"no line {seq} in this game")
    entry = session.entries[seq]
    if entry.kind is not LineKind.STROKE or "strike" not in entry.line:
        raise _no_line(seq, f"line {seq} is no simulated stroke")
    try:
        action = read_action(entry.line, f"line {seq}", sep=".")  # the record's one reader
    except RecordError as exc:
        raise _no_line(seq, str(exc)) from None
    before = Session.from_lines(session.texts()[:seq])
    try:
        return before.plan_play(action).stroke
    except SessionError as exc:  # pragma: no cover - a stored stroke is played again
        raise _no_line(seq, f"line {seq} cannot be simulated again: {exc}") from None
