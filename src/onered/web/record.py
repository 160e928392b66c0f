"""The names the web's feature modules used for a game's lines, now all defined once in the
game core: ``onered.game.session`` (a game and its judged lines), ``onered.game.record`` (the
format, its one version and its one error) and ``onered.web.view`` (what the pages get).

Kept so the feature routers keep working while they move to the core's names; new code
imports from the core. (``Game`` is a :class:`~onered.game.session.Session`.)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from onered.game.record import LineKind, RecordError
from onered.game.record import dumps as dumps_line
from onered.game.session import Judged as Entry
from onered.game.session import Session as Game
from onered.web.view import state_json, summary_json, verdicts_json

__all__ = [
    "Entry",
    "Game",
    "LineKind",
    "RecordError",
    "dumps_line",
    "replay",
    "replay_objects",
    "state_json",
    "summary_json",
    "verdicts_json",
]


def replay_objects(objects: Iterable[Mapping[str, Any]]) -> Game:
    """A game from parsed lines (``RecordError`` names the first bad line)."""
    return Game.read(enumerate(objects, start=1), check=False)


def replay(lines: Sequence[str]) -> Game:
    """A game from stored lines (JSON text each)."""
    return Game.from_lines(lines)
