"""The referee of Snooker-1-Red: the rules of section 2, exact and physics-free.

Standard library only. ``start`` a game from a ``Match``, then ``judge`` each ``Stroke`` and
``choose`` after a foul; each returns the new ``GameState`` and a ``Verdict``.
"""

from onered.rules.model import (
    BOTH,
    Ball,
    Both,
    CallCode,
    Counters,
    FirstHit,
    Foul,
    FoulCode,
    GameOverError,
    GameState,
    InvalidChoiceError,
    InvalidMatchError,
    InvalidStrokeError,
    Match,
    Option,
    Placement,
    RulesError,
    ScoreKind,
    Stroke,
    Verdict,
)
from onered.rules.referee import choose, judge, opening_verdict, start
from onered.table import Spot

__all__ = [
    "BOTH",
    "Ball",
    "Both",
    "CallCode",
    "Counters",
    "FirstHit",
    "Foul",
    "FoulCode",
    "GameOverError",
    "GameState",
    "InvalidChoiceError",
    "InvalidMatchError",
    "InvalidStrokeError",
    "Match",
    "Option",
    "Placement",
    "RulesError",
    "ScoreKind",
    "Spot",
    "Stroke",
    "Verdict",
    "choose",
    "judge",
    "opening_verdict",
    "start",
]
