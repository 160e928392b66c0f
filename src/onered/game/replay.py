"""Play a game record again and check it, line by line.

Two checks, both exact:

- **Simulation**: the lag strokes and every stroke are simulated again from the recorded
  actions (placement and strike) on the recorded table, and the game loop writes each line
  anew; the new line must equal the recorded one character for character (the same
  events, rest positions, outcome and verdict — floats are written in their shortest
  round-trip form, so equal text means equal numbers).
- **Referee**: the record's lines are fed, as they are, to the referee protocol (what
  ``onered referee RECORD`` does), and each verdict must equal the recorded one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from onered.game.lag import lag_stroke
from onered.game.loop import Game
from onered.game.model import GameError, StrokeRecord
from onered.game.record import (
    Record,
    RecordedChoice,
    choice_line,
    dumps,
    match_line,
    stroke_line,
)
from onered.game.simulator import PhysicsSimulator, fingerprint
from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import RefereeSession, verdict_json
from onered.rules import RulesError


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Where a replay departs from the record: the record's line number and what differs."""

    line: int
    what: str


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The outcome of :func:`replay`: strokes and choices played again, the first line
    the simulation did not reproduce (``None``: every line identical), the first verdict
    the referee gave differently (``None``: all equal), and the winner."""

    strokes: int
    choices: int
    simulation: Mismatch | None
    referee: Mismatch | None
    winner: str | None

    @property
    def identical(self) -> bool:
        """Both checks passed."""
        return self.simulation is None and self.referee is None


def _first_difference(new: Mapping[str, Any], old: Mapping[str, Any], where: str = "") -> str:
    """The path of the first field that differs between two JSON objects."""
    for key in list(old) + [k for k in new if k not in old]:
        a, b = new.get(key), old.get(key)
        if a == b:
            continue
        path = f"{where}.{key}" if where else key
        if isinstance(a, dict) and isinstance(b, dict):
            return _first_difference(a, b, path)
        return f"{path}: recorded {json.dumps(b)[:80]}, replayed {json.dumps(a)[:80]}"
    return "the same fields, written differently"


def _compare(new_text: str, old_text: str, line: int) -> Mismatch | None:
    if new_text == old_text:
        return None
    return Mismatch(line, _first_difference(json.loads(new_text), json.loads(old_text)))


def check_referee(record: Record) -> Mismatch | None:
    """Feed the record's lines to the referee protocol; the first verdict that differs
    from the recorded one (or the first line the referee refuses)."""
    session = RefereeSession()
    line_numbers = [1] + [e.line_no for e in record.entries]
    datas = [record.header_data] + [e.data for e in record.entries]
    for number, data in zip(line_numbers, datas, strict=True):
        try:
            verdict, players = session.feed(data)
        except (ProtocolError, RulesError) as exc:
            return Mismatch(number, f"the referee refuses the line: {exc}")
        got = verdict_json(verdict, players)
        expected = data.get("opening") if number == 1 else data.get("verdict")
        if got != expected:
            old = expected if isinstance(expected, dict) else {}
            return Mismatch(number, "verdict " + _first_difference(got, old))
    return None


def replay(
    record: Record,
    *,
    on_stroke: Callable[[StrokeRecord], None] | None = None,
    stop_at_first: bool = True,
) -> ReplayReport:
    """Simulate the record again and check it (see the module docstring). ``on_stroke``
    sees every replayed stroke (with its trajectories). Raises ``ValueError`` when the
    record's table description does not fit this engine."""
    header = record.header
    simulator = PhysicsSimulator.from_description(header.physics)
    mismatch: Mismatch | None = None
    recorded = header.physics.get("fingerprint")
    now = fingerprint(simulator.params, simulator.table)
    if recorded is not None and recorded != now:
        mismatch = Mismatch(
            1,
            f"physics.fingerprint: the record was simulated by another version of the physics "
            f"engine ({recorded}, this one is {now}); it cannot be replayed exactly",
        )
    if mismatch is None and header.lag is not None:
        for k, stroke in enumerate(header.lag.strokes):
            again = lag_stroke(simulator, stroke.player, stroke.start, stroke.strike)
            if again != stroke:
                mismatch = Mismatch(
                    1,
                    f"lag.strokes[{k}]: recorded rest {stroke.rest}, replayed {again.rest}",
                )
                break
    game = Game(header.match, simulator, lag=header.lag)
    if mismatch is None:
        rewritten = match_line(
            header.match,
            physics=header.physics,
            opening=game.opening,
            seed=header.seed,
            entrants=header.entrants,
            lag=header.lag,
        )
        # an older format version writes the same fields: the check compares the game
        rewritten["record"] = record.header_data.get("record", rewritten["record"])
        first = dumps(rewritten)
        mismatch = _compare(first, record.lines[0], 1)
    players = header.match.players
    strokes = choices = 0
    for k, entry in enumerate(record.entries):
        if mismatch is not None and stop_at_first:
            break
        try:
            if isinstance(entry, RecordedChoice):
                text = dumps(choice_line(game.choose(entry.option), players))
                choices += 1
            else:
                played = game.play(entry.action)
                strokes += 1
                if on_stroke is not None:
                    on_stroke(played)
                text = dumps(stroke_line(played, players))
        except GameError as exc:
            mismatch = mismatch or Mismatch(entry.line_no, f"cannot be played again: {exc}")
            break
        if mismatch is None:
            mismatch = _compare(text, record.lines[k + 1], entry.line_no)
    return ReplayReport(
        strokes=strokes,
        choices=choices,
        simulation=mismatch,
        referee=check_referee(record),
        winner=game.winner,
    )
