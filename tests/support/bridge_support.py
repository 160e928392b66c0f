"""Helpers for the tests of the bridge (``onered.bridge``): a hand-made event log in the
compact form, so each reading can be checked in both of the bridge's forms."""

from __future__ import annotations

from collections.abc import Sequence

from onered.physics import DIRECTIONS, EVENT_KINDS
from onered.physics.types import Event
from onered.table import CUSHION_NAMES, POCKET_NAMES

#: The integer-coded events of ``simulate_compact``.
CompactEvents = tuple[tuple[float, int, int, int, int, int, int], ...]


def compact_events(events: Sequence[Event], ids: Sequence[str]) -> CompactEvents:
    """The events in the integer-coded form of ``simulate_compact`` (``ids``: the batch's
    ball names; ``b`` is the second ball of a two-ball event, ``over``'s ball below)."""
    out = []
    for e in events:
        b = ids.index(e.balls[1]) if len(e.balls) > 1 else -1
        c = CUSHION_NAMES.index(e.cushion) if e.cushion not in (None, "jaw") else -1
        k = POCKET_NAMES.index(e.pocket) if e.pocket is not None else -1
        d = DIRECTIONS.index(e.direction)
        out.append((e.t, EVENT_KINDS.index(e.kind), ids.index(e.balls[0]), b, c, k, d))
    return tuple(out)
