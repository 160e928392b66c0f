"""A match that has just been decided, as the parts that learn from results see it: a
tournament's fixture (``onered.web.tournaments``) and the ratings (``onered.web.ratings``).

One value, made in one place once a stored change decides a match, and handed to each part
that records results; each records it at most once (keyed by ``match_id``), so a repeat
(another worker, a retry) changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FinishedMatch:
    """A decided match: its players (as named in the match), its target and length, the
    handicaps given, the games each won, the winner (0 or 1: an index into ``players``), the
    points each scored over all its games, and when the deciding stroke was stored (Unix
    seconds)."""

    match_id: str
    players: tuple[str, str]
    target: int
    best_of: int
    handicap: tuple[int, int]
    games_won: tuple[int, int]
    winner: int
    points: tuple[int, int]
    finished: float
