"""The marker's pad as the pages read it: each tap with why it is impossible now.

What is possible, and the refusal of a tap the position forbids, are the game core's
(:mod:`onered.game.pad`; the session refuses such a stroke itself); this module only writes
them as JSON. The pages show each ``why`` from their catalogue (``reason.<code>``).
"""

from __future__ import annotations

from onered.game.pad import pad, why_params
from onered.rules import GameState
from onered.rules.possible import Why, balls_in_baulk


def why_json(why: Why | None) -> dict[str, object] | None:
    """A reason as the pages read it: ``{"reason": code, "ball": colour}`` or ``null``."""
    return None if why is None else why_params(why)


def pad_json(state: GameState) -> dict[str, object]:
    """``stroke``: why no stroke can be marked (``null``: one can); ``parts``, ``first_hit``
    and ``off_table``: each tap of the pad with why it is impossible now (``null``: it is
    possible); ``in_baulk``: the balls whose centre is in baulk."""
    p = pad(state)
    return {
        "stroke": why_json(p.stroke),
        "parts": {k.value: why_json(v) for k, v in p.parts.items()},
        "first_hit": {k.value: why_json(v) for k, v in p.first_hit.items()},
        "off_table": {k.value: why_json(v) for k, v in p.off_table.items()},
        "in_baulk": [b.value for b in balls_in_baulk(state)],
    }
