"""League tables of a round robin or a group (the reading: docs/tournaments.md)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from itertools import groupby

from onered.tournament.model import Fixture, Result, Standing

#: Points for a won match (a match has no draws: it is the best of an odd number of games).
POINTS_FOR_A_WIN = 1


def draw_rank(ids: Sequence[str], seed: int) -> dict[str, int]:
    """The last tie-break: a place per entrant in an order drawn from ``seed``."""
    order = sorted(ids)
    random.Random(f"tie-break:{seed}").shuffle(order)
    return {entrant: place for place, entrant in enumerate(order)}


def league_table(
    ids: Sequence[str],
    fixtures: Sequence[Fixture],
    results: Mapping[str, Result],
    seed: int,
) -> tuple[Standing, ...]:
    """The table of the entrants ``ids`` from the results of the fixtures between them:
    by points, then among entrants level on points their points in the matches between
    them (head to head), then games difference, then games won, then a drawn order."""
    members = set(ids)
    lines = {entrant: Standing(entrant) for entrant in ids}
    played: list[tuple[Fixture, Result]] = []
    for fixture in fixtures:
        result = results.get(fixture.key)
        if result is None or fixture.a not in members or fixture.b not in members:
            continue
        played.append((fixture, result))
        for side, own, other in (
            (fixture.a, result.games_a, result.games_b),
            (fixture.b, result.games_b, result.games_a),
        ):
            line = lines[side]
            won = result.winner == side
            lines[side] = replace(
                line,
                played=line.played + 1,
                won=line.won + won,
                lost=line.lost + (not won),
                games_won=line.games_won + own,
                games_lost=line.games_lost + other,
                points=line.points + POINTS_FOR_A_WIN * won,
            )
    rank = draw_rank(ids, seed)
    by_points = sorted(lines.values(), key=lambda line: -line.points)
    table: list[Standing] = []
    for _, level in groupby(by_points, key=lambda line: line.points):
        tied = list(level)
        names = {line.entrant for line in tied}
        mutual = dict.fromkeys(names, 0)
        for fixture, result in played:
            if fixture.a in names and fixture.b in names:
                mutual[result.winner] += POINTS_FOR_A_WIN
        tied.sort(
            key=lambda line: (
                -mutual[line.entrant],
                -line.games_difference,
                -line.games_won,
                rank[line.entrant],
            )
        )
        table.extend(tied)
    return tuple(table)
