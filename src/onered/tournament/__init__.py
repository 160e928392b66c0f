"""Tournaments: knockout, round robin, groups then knockout — seeding, the draw, results
advancing it, league tables and fixtures given tables. Standard library only; the store,
the web and the ratings build on it (the readings: docs/tournaments.md)."""

from onered.tournament.model import (
    Entrant,
    Fixture,
    Format,
    Result,
    Stage,
    Standing,
    TournamentError,
)
from onered.tournament.state import Tournament, draw, from_json

__all__ = [
    "Entrant",
    "Fixture",
    "Format",
    "Result",
    "Stage",
    "Standing",
    "Tournament",
    "TournamentError",
    "draw",
    "from_json",
]
