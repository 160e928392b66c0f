"""Each player's figures in one game, kept with the game so that a player's page reads them
instead of replaying his games; and a player's figures over his games, added up from them.

A game's figures are what ``onered.game.stats.Tally`` counts of it (the one definition:
strokes, points, visits and their breaks, fouls, penalties received, points by kind of
score), folded stroke by stroke (:class:`Fold`) so that a change costs what it changed: a
new stroke is added to the figures so far; an undo goes back to the nearest checkpoint
(every :data:`CHECKPOINT` lines) and folds the few lines after it again. The tests check the
fold against ``Tally`` for games marked, undone and imported.

JSON of a game's figures (``games.figures`` in the store): ``{"players": {name: {"strokes",
"points", "visits", "penalties_received", "breaks": {"points": visits}, "fouls": {code: n},
"scored": {kind: points}}}}``; a visit's break is counted once the visit has begun, the open
one with its break so far (as ``Tally`` does).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from onered.game.record import LineKind
from onered.game.session import Judged, Session
from onered.game.stats import PlayerStats, score_group
from onered.rules import Verdict

#: Lines between two kept states of a fold (an undo folds at most this many again).
CHECKPOINT = 64


@dataclass
class _Side:
    """One player's running counts in one game."""

    strokes: int = 0
    points: int = 0
    visits: int = 0
    penalties_received: int = 0
    breaks: Counter[int] = field(default_factory=Counter)
    fouls: Counter[str] = field(default_factory=Counter)
    scored: Counter[str] = field(default_factory=Counter)


@dataclass
class _State:
    """The figures after some lines: each side's counts of closed visits, and the visit
    going on (its player and its break so far: a visit's break is its last stroke's)."""

    sides: dict[str, _Side]
    visit: tuple[str, int] | None = None


class Fold:
    """A game's figures, kept up to date with its session line by line."""

    def __init__(self, game: Session) -> None:
        self.players = game.players
        self._state = _State({p: _Side() for p in self.players})
        self._count = 1  # lines folded (the match line has no figures)
        self._kept: dict[int, _State] = {1: copy.deepcopy(self._state)}
        self.extend(game.entries[1:])

    def extend(self, entries: Iterable[Judged]) -> None:
        """Fold the lines after those folded (in order)."""
        for entry in entries:
            if entry.kind is LineKind.STROKE:
                self._stroke(entry.verdict)
            self._count += 1
            if self._count % CHECKPOINT == 0:
                self._kept[self._count] = copy.deepcopy(self._state)

    def update(self, game: Session, common: int) -> None:
        """Bring the figures to ``game``, whose first ``common`` lines are unchanged since
        the last fold (its low water: an undo or a claim replaced the later ones)."""
        if common < self._count:
            base = max(k for k in self._kept if k <= max(common, 1))
            for k in [k for k in self._kept if k > base]:
                del self._kept[k]
            self._state = copy.deepcopy(self._kept[base])
            self._count = base
        self.extend(game.entries[self._count :])

    def _stroke(self, verdict: Verdict) -> None:
        """One stroke's verdict, counted as ``Tally`` counts its JSON."""
        state = self._state
        name = str(verdict.striker)
        side = state.sides[name]
        side.strokes += 1
        side.points += verdict.points
        for kind, value in verdict.scored:
            side.scored[score_group(kind.value)] += value
        foul = verdict.foul
        if foul is not None:
            for code in foul.codes:
                side.fouls[code.value] += 1
            other = self.players[1] if name == self.players[0] else self.players[0]
            state.sides[other].penalties_received += foul.penalty
        # visits as onered.game.summary.visits reads them (a winning stroke ends its visit)
        if state.visit is not None and state.visit[0] != name:
            self._close()
        state.visit = (name, verdict.break_)
        if verdict.visit_over or verdict.winner is not None:
            self._close()

    def _close(self) -> None:
        state = self._state
        if state.visit is not None:
            name, points = state.visit
            side = state.sides[name]
            side.visits += 1
            side.breaks[points] += 1
        state.visit = None

    def to_json(self) -> dict[str, Any]:
        """The figures as the store keeps them (the visit going on counted as it stands)."""
        state = self._state
        out: dict[str, Any] = {}
        for name, side in state.sides.items():
            visits, breaks = side.visits, Counter(side.breaks)
            if state.visit is not None and state.visit[0] == name:
                visits += 1
                breaks[state.visit[1]] += 1
            out[name] = {
                "strokes": side.strokes,
                "points": side.points,
                "visits": visits,
                "penalties_received": side.penalties_received,
                "breaks": {str(b): n for b, n in sorted(breaks.items())},
                "fouls": dict(sorted(side.fouls.items())),
                "scored": dict(sorted(side.scored.items())),
            }
        return {"players": out}


def figures_json(game: Session) -> dict[str, Any]:
    """A game's figures, folded from its first line."""
    return Fold(game).to_json()


@dataclass(frozen=True, slots=True)
class GameFigures:
    """One player's figures in one game, read from the store's JSON."""

    strokes: int
    points: int
    visits: int
    penalties_received: int
    breaks: Mapping[int, int]
    fouls: Mapping[str, int]
    scored: Mapping[str, int]

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> GameFigures:
        return cls(
            strokes=int(obj["strokes"]),
            points=int(obj["points"]),
            visits=int(obj["visits"]),
            penalties_received=int(obj["penalties_received"]),
            breaks={int(b): int(n) for b, n in obj["breaks"].items()},
            fouls={str(k): int(n) for k, n in obj["fouls"].items()},
            scored={str(k): int(n) for k, n in obj["scored"].items()},
        )

    def breaks_list(self) -> list[int]:
        """Every visit's break, highest first."""
        return [b for b in sorted(self.breaks, reverse=True) for _ in range(self.breaks[b])]

    @property
    def highest_break(self) -> int:
        return max(self.breaks, default=0)

    @property
    def points_per_visit(self) -> float:
        return self.points / self.visits if self.visits else 0.0

    @property
    def foul_count(self) -> int:
        return sum(self.fouls.values())


def player_stats(
    name: str,
    games: Sequence[tuple[GameFigures, bool, str | None]],
) -> PlayerStats:
    """A player's figures over his games: each game's figures, whether he won it, and how
    the game describes him (``human``, ``ai:pro``; ``None``: not said)."""
    fouls: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    breaks: list[int] = []
    for figures, _, _ in games:
        fouls.update(figures.fouls)
        scored.update(figures.scored)
        breaks += figures.breaks_list()
    return PlayerStats(
        name=name,
        descriptions=tuple(sorted({d for _, _, d in games if d is not None})),
        games=len(games),
        wins=sum(1 for _, won, _ in games if won),
        strokes=sum(f.strokes for f, _, _ in games),
        visits=sum(f.visits for f, _, _ in games),
        points=sum(f.points for f, _, _ in games),
        penalties_received=sum(f.penalties_received for f, _, _ in games),
        century_games=sum(1 for f, _, _ in games if f.highest_break >= 100),
        breaks=tuple(breaks),
        fouls=dict(sorted(fouls.items())),
        scored_points=dict(scored),
    )
