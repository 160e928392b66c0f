"""The coach: advice for a position — the best strokes for a player of a given level.

``advise(position, "pro")`` ranks the strokes the AI's search finds by their expected
value under the level's execution noise (Monte Carlo through the physics, the bridge and
the referee), and describes each cue action as a player would (:mod:`onered.coach.action`);
:mod:`onered.coach.words` says it in Russian or English.
"""

from __future__ import annotations

from onered.coach.action import CueAction, Pace, Side, Spin, Thickness
from onered.coach.advice import (
    Advice,
    AdviceError,
    Coach,
    Odds,
    Outcome,
    Reason,
    Stakes,
    Suggestion,
    advise,
    level_strength,
)

__all__ = [
    "Advice",
    "AdviceError",
    "Coach",
    "CueAction",
    "Odds",
    "Outcome",
    "Pace",
    "Reason",
    "Side",
    "Spin",
    "Stakes",
    "Suggestion",
    "Thickness",
    "advise",
    "level_strength",
]
