"""Helpers of the tournament tests: a field of entrants and results played to the end."""

from __future__ import annotations

import random

from onered.tournament import Entrant, Fixture, Result, Tournament


def field(n: int, rated: int | None = None) -> list[Entrant]:
    """``n`` entrants ``p1..pn``; the first ``rated`` (all by default) rated, p1 highest."""
    rated = n if rated is None else rated
    return [
        Entrant(f"p{i}", f"Player {i}", f"club {i % 3}", 2000.0 - i if i <= rated else None)
        for i in range(1, n + 1)
    ]


def result_for(fixture: Fixture, winner: str, rng: random.Random | None = None) -> Result:
    """A valid result of ``fixture`` won by ``winner`` (the loser's games drawn by ``rng``)."""
    need = fixture.best_of // 2 + 1
    other = rng.randrange(need) if rng is not None else 0
    if winner == fixture.a:
        return Result(fixture.key, winner, need, other)
    return Result(fixture.key, winner, other, need)


def play_out(tournament: Tournament, seed: int, limit: int = 10_000) -> Tournament:
    """``tournament`` played to its end with random winners (seeded), the ready fixtures in
    order."""
    rng = random.Random(seed)
    for _ in range(limit):
        ready = tournament.ready()
        if not ready:
            return tournament
        fixture = ready[0]
        winner = rng.choice([fixture.a, fixture.b])
        assert winner is not None
        tournament = tournament.record(result_for(fixture, winner, rng))
    return tournament
