"""The draw: seeding, the knockout bracket, the round robin and the groups.

Pure functions on entrants' ids; the readings are in docs/tournaments.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from onered.tournament.model import Entrant


def seeded_order(entrants: Sequence[Entrant], seed: int) -> list[Entrant]:
    """The entrants in seed order: rated ones by rating, highest first, then the unrated; a
    random order drawn from ``seed`` orders the unrated and breaks equal ratings."""
    shuffled = sorted(entrants, key=lambda e: e.id)
    random.Random(f"seeding:{seed}").shuffle(shuffled)
    return sorted(
        shuffled, key=lambda e: (e.rating is None, -(e.rating if e.rating is not None else 0.0))
    )


def bracket_size(n: int) -> int:
    """The knockout's size: the least power of two at least ``n`` (and at least 2)."""
    size = 2
    while size < n:
        size *= 2
    return size


def bracket_seeds(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a bracket of ``size`` slots: slots 2k and
    2k+1 meet in round one. Seed s meets seed size+1-s, and seeds 1 and 2 are in opposite
    halves (1, 8, 4, 5, 2, 7, 3, 6 for eight)."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, mirror - first)]
    return order


def knockout_pairs(
    ids: Sequence[str], groups: Mapping[str, int] | None = None
) -> list[tuple[str, str | None]]:
    """Round one of a knockout of ``ids`` (in seed order): the standard placement, seeds past
    the field being byes (so the top seeds get them). With ``groups`` (an entrant's group),
    the second entrants of round one are swapped so that no pair comes from one group, where
    a swap can do it."""
    size = bracket_size(len(ids))
    slots = [ids[s - 1] if s <= len(ids) else None for s in bracket_seeds(size)]
    pairs: list[list[str | None]] = [[slots[i], slots[i + 1]] for i in range(0, size, 2)]
    # a bye's entrant stands first
    for pair in pairs:
        if pair[0] is None:
            pair.reverse()
    if groups is not None:
        _keep_groups_apart(pairs, groups)
    return [(str(a), b) for a, b in pairs]


def _keep_groups_apart(pairs: list[list[str | None]], groups: Mapping[str, int]) -> None:
    """Swap second entrants between round-one pairs until none pairs two of one group."""

    def clash(first: str | None, second: str | None) -> bool:
        return first is not None and second is not None and groups[first] == groups[second]

    for i, pair in enumerate(pairs):
        if not clash(pair[0], pair[1]):
            continue
        for j, other in enumerate(pairs):
            if j == i or other[1] is None:
                continue
            if not clash(pair[0], other[1]) and not clash(other[0], pair[1]):
                pair[1], other[1] = other[1], pair[1]
                break


def round_robin_rounds(ids: Sequence[str]) -> list[list[tuple[str | None, str | None]]]:
    """The circle method: every pair once; with an odd field one entrant a round sits out
    (paired with ``None``). The first entrant stays, the others turn one place a round."""
    circle: list[str | None] = list(ids)
    if len(circle) % 2:
        circle.append(None)
    n = len(circle)
    rounds = []
    for _ in range(n - 1):
        rounds.append([(circle[i], circle[n - 1 - i]) for i in range(n // 2)])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def snake_groups(ids: Sequence[str], count: int) -> list[list[str]]:
    """``ids`` (in seed order) dealt into ``count`` groups by snake seeding: seeds 1..g into
    groups 1..g, the next g back from group g to 1, and so on."""
    groups: list[list[str]] = [[] for _ in range(count)]
    for index, entrant in enumerate(ids):
        lap, place = divmod(index, count)
        groups[place if lap % 2 == 0 else count - 1 - place].append(entrant)
    return groups
