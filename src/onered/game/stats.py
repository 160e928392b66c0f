"""Statistics of games from their records: points per visit, breaks, fouls, kinds of score.

Everything is read from the referee's verdicts (no simulation): those written in a record's
lines (:meth:`Tally.add_game`), or those of a game read by the one reader of game files,
``onered.game.session`` (:meth:`Tally.add_session`, :func:`read_games`: a game record, the
web's export of a marked game in the referee protocol, a pairs file). Visits and
their breaks are ``onered.game.summary``'s (one reading for every interface): a *visit* is
a player's turn at the table, its *break* the points his strokes scored in it; penalty
points received are not part of any break. Players are told apart
by name; several records may be read together.

:func:`break_histogram_svg` draws the distribution of breaks as an SVG document, built as
text with the standard library.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from onered.errors import OneredError
from onered.game.record import LineKind, RecordError, parse_text
from onered.game.session import Session
from onered.game.summary import RecordedVerdict, visits
from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import parse_match, verdict_json

#: Break classes of the distribution: 0, 1-9, 10-19, ..., 90-99, 100 and more.
BREAK_BINS: tuple[tuple[int, int | None], ...] = (
    (0, 0),
    *((max(1, k), k + 9) for k in range(0, 100, 10)),
    (100, None),
)
#: Kinds of score, by the prefix of the verdict's ``scored`` keys.
SCORE_GROUPS = ("cannon", "pot", "in_off")


class StatsError(OneredError, ValueError):
    """A record that cannot be read for statistics; the message names the file and line."""

    default_code = "stats"


@dataclass(frozen=True)
class PlayerStats:
    """One player's figures over the games read."""

    name: str
    descriptions: tuple[str, ...]
    games: int
    wins: int
    strokes: int
    visits: int
    points: int
    penalties_received: int
    #: Games in which he made a break of 100 or more.
    century_games: int
    breaks: tuple[int, ...]
    fouls: Mapping[str, int]
    scored_points: Mapping[str, int]

    @property
    def points_per_visit(self) -> float:
        """Points scored by his own strokes per visit."""
        return self.points / self.visits if self.visits else 0.0

    @property
    def highest_break(self) -> int:
        return max(self.breaks, default=0)

    @property
    def average_break(self) -> float:
        """The mean of his scoring visits' breaks (visits that scored nothing left out)."""
        scoring = [b for b in self.breaks if b > 0]
        return sum(scoring) / len(scoring) if scoring else 0.0

    @property
    def fouls_per_game(self) -> float:
        return sum(self.fouls.values()) / self.games if self.games else 0.0

    def share(self, group: str) -> float:
        """The share of his scored points made by ``group`` (cannon, pot or in_off)."""
        total = sum(self.scored_points.values())
        return self.scored_points.get(group, 0) / total if total else 0.0

    def breaks_at_least(self, points: int) -> int:
        """Visits whose break reached ``points``."""
        return sum(1 for b in self.breaks if b >= points)

    def distribution(self) -> list[int]:
        """Visits per class of :data:`BREAK_BINS`."""
        counts = [0] * len(BREAK_BINS)
        for b in self.breaks:
            for k, (lo, hi) in enumerate(BREAK_BINS):
                if b >= lo and (hi is None or b <= hi):
                    counts[k] += 1
                    break
        return counts

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON data."""
        return {
            "name": self.name,
            "players": list(self.descriptions),
            "games": self.games,
            "wins": self.wins,
            "strokes": self.strokes,
            "visits": self.visits,
            "points": self.points,
            "penalties_received": self.penalties_received,
            "points_per_visit": round(self.points_per_visit, 3),
            "highest_break": self.highest_break,
            "average_break": round(self.average_break, 3),
            "centuries": self.breaks_at_least(100),
            "century_games": self.century_games,
            "break_distribution": {
                _bin_label(lo, hi): n
                for (lo, hi), n in zip(BREAK_BINS, self.distribution(), strict=True)
            },
            "fouls": dict(sorted(self.fouls.items())),
            "fouls_per_game": round(self.fouls_per_game, 3),
            "share": {g: round(self.share(g), 4) for g in SCORE_GROUPS},
        }


@dataclass(frozen=True)
class Stats:
    """Figures of every player (by name, in the order first met), and the games read."""

    games: int
    finished: int
    players: Mapping[str, PlayerStats]


@dataclass
class _PlayerTally:
    """One player's running counts while games are added."""

    name: str
    games: int = 0
    wins: int = 0
    strokes: int = 0
    visits: int = 0
    points: int = 0
    penalties_received: int = 0
    century_games: int = 0
    breaks: list[int] = field(default_factory=list)
    fouls: Counter[str] = field(default_factory=Counter)
    scored_points: Counter[str] = field(default_factory=Counter)
    descriptions: set[str] = field(default_factory=set)

    def freeze(self) -> PlayerStats:
        return PlayerStats(
            name=self.name,
            descriptions=tuple(sorted(self.descriptions)),
            games=self.games,
            wins=self.wins,
            strokes=self.strokes,
            visits=self.visits,
            points=self.points,
            penalties_received=self.penalties_received,
            century_games=self.century_games,
            breaks=tuple(self.breaks),
            fouls=dict(sorted(self.fouls.items())),
            scored_points=dict(self.scored_points),
        )


def _bin_label(lo: int, hi: int | None) -> str:
    if hi is None:
        return f"{lo}+"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def score_group(kind: str) -> str:
    """The group of :data:`SCORE_GROUPS` a kind of score (``pot_red``, ``cannon`` ...) is
    counted in; the kind itself when none."""
    for group in SCORE_GROUPS:
        if kind.startswith(group):
            return group
    return kind


class Tally:
    """Adds games up one at a time (an accumulator, not a value); :meth:`result` gives the
    figures so far."""

    def __init__(self) -> None:
        self._games = 0
        self._finished = 0
        self._players: dict[str, _PlayerTally] = {}

    def _player(self, name: str) -> _PlayerTally:
        if name not in self._players:
            self._players[name] = _PlayerTally(name)
        return self._players[name]

    def result(self) -> Stats:
        """The figures of the games added so far."""
        return Stats(
            games=self._games,
            finished=self._finished,
            players={name: t.freeze() for name, t in self._players.items()},
        )

    def add_game(self, lines: Sequence[Mapping[str, Any]], where: str = "record") -> None:
        """Add one game (its record's lines, parsed); :class:`StatsError` names the line of
        a fault."""
        if not lines or lines[0].get("type") != "match":
            raise StatsError(f"{where}: line 1: a record starts with its match line")
        header = lines[0]
        try:
            players = parse_match(header).players  # the one reader of a match line
        except ProtocolError as exc:
            raise StatsError(f"{where}: line 1: {exc}") from None
        entrants = header.get("entrants") or {}
        verdicts: list[tuple[int, Mapping[str, Any]]] = []
        for number, line in enumerate(lines[1:], start=2):
            if line.get("type") != "stroke":
                continue
            verdict = line.get("verdict")
            if not isinstance(verdict, dict):
                raise StatsError(f"{where}: line {number}: verdict: missing (not a game record?)")
            verdicts.append((number, verdict))
        self._add(list(players), entrants if isinstance(entrants, dict) else {}, verdicts, where)

    def add_session(self, game: Session, where: str = "game") -> None:
        """Add one game as read and judged by ``onered.game.session`` (any file it reads)."""
        players = game.players
        verdicts = [
            (e.seq + 1, verdict_json(e.verdict, players))
            for e in game.entries
            if e.kind is LineKind.STROKE
        ]
        self._add(list(players), game.entrants, verdicts, where)

    def _add(
        self,
        players: Sequence[str],
        entrants: Mapping[str, Any],
        verdicts: Sequence[tuple[int, Mapping[str, Any]]],
        where: str,
    ) -> None:
        """One game: its players, who they are, and its strokes' verdicts (JSON, each with
        the line it came from)."""
        for name in players:
            p = self._player(name)
            p.games += 1
            if isinstance(entrants.get(name), str):
                p.descriptions.add(entrants[name])
        self._games += 1
        facts: list[RecordedVerdict] = []
        last: Mapping[str, Any] | None = None
        for number, verdict in verdicts:
            try:
                facts.append(RecordedVerdict.from_json(verdict, len(facts) + 1))
                name = verdict["striker"]
                p = self._player(name)
                p.strokes += 1
                p.points += int(verdict["points"])
                for kind, value in verdict["scored"].items():
                    p.scored_points[score_group(kind)] += int(value)
                foul = verdict["foul"]
                if foul is not None:
                    for code in foul["codes"]:
                        p.fouls[code] += 1
                    other = players[1] if name == players[0] else players[0]
                    self._player(other).penalties_received += int(foul["penalty"])
            except (KeyError, TypeError, ValueError) as exc:
                raise StatsError(f"{where}: line {number}: verdict: unreadable ({exc!r})") from None
            last = verdict
        winner = None if last is None else last.get("winner")
        centuries: set[str] = set()
        for visit in visits(facts, over=winner is not None):  # one reading of visits
            p = self._player(visit.player)
            p.visits += 1
            p.breaks.append(visit.points)
            if visit.points >= 100:
                centuries.add(visit.player)
        if winner is not None:
            self._finished += 1
            self._player(winner).wins += 1
        for name in centuries:
            self._player(name).century_games += 1


def read_games(sources: Iterable[tuple[str, Iterable[str]]]) -> Stats:
    """Statistics of the games given as ``(name, lines)``, each file read by the one reader
    of game files (``onered.game.record.parse_text``: a game record, the web's export of a
    marked game in the referee protocol, a pairs file): a record's verdicts are read as
    written (:meth:`Tally.add_game`); lines without verdicts are judged by
    ``onered.game.session`` (:meth:`Tally.add_session`). :class:`StatsError` names the
    file and the line at fault."""
    tally = Tally()
    for where, raw_lines in sources:
        try:
            numbered = parse_text("\n".join(raw_lines))
            lines = [obj for _, obj in numbered]
            if _recorded(lines):
                tally.add_game(lines, where)
            else:
                tally.add_session(Session.read(numbered, check=False), where)
        except RecordError as exc:
            raise StatsError(f"{where}: {exc}") from None
    return tally.result()


def _recorded(lines: Sequence[Mapping[str, Any]]) -> bool:
    """The lines are a game record's (its header, or verdicts written on its strokes), not
    the referee's lines alone."""
    return bool(lines) and ("record" in lines[0] or any("verdict" in line for line in lines))


def report(stats: Stats) -> str:
    """The figures as a text table."""
    out = [f"games: {stats.games} ({stats.finished} finished)"]
    for p in stats.players.values():
        who = f"{p.name} ({', '.join(sorted(p.descriptions))})" if p.descriptions else p.name
        out.append("")
        out.append(who)
        out.append(f"  wins                {p.wins} of {p.games}")
        out.append(f"  visits              {p.visits}, strokes {p.strokes}")
        out.append(f"  points per visit    {p.points_per_visit:.2f}")
        out.append(f"  highest break       {p.highest_break}")
        out.append(f"  average break       {p.average_break:.2f} (scoring visits)")
        out.append(
            f"  breaks of 100+      {p.breaks_at_least(100)}, of 50+ {p.breaks_at_least(50)}"
        )
        dist = ", ".join(
            f"{_bin_label(lo, hi)}: {n}"
            for (lo, hi), n in zip(BREAK_BINS, p.distribution(), strict=True)
            if n
        )
        out.append(f"  breaks              {dist}")
        fouls = ", ".join(f"{code} {n}" for code, n in sorted(p.fouls.items())) or "none"
        out.append(f"  fouls per game      {p.fouls_per_game:.2f} ({fouls})")
        shares = ", ".join(f"{g} {100 * p.share(g):.1f}%" for g in SCORE_GROUPS)
        out.append(f"  points from         {shares}")
    return "\n".join(out)


_COLOURS = ("#1f6f43", "#c4122f", "#2b5fb3", "#d9a400")


def break_histogram_svg(stats: Stats, title: str = "Breaks per visit") -> str:
    """The break distribution of every player as a grouped bar chart (SVG text): the
    share of his visits in each class of :data:`BREAK_BINS`."""
    players = list(stats.players.values())
    width, height = 900, 420
    left, right, top, bottom = 60, 20, 50, 70
    plot_w, plot_h = width - left - right, height - top - bottom
    bins = len(BREAK_BINS)
    shares = [[n / p.visits if p.visits else 0.0 for n in p.distribution()] for p in players]
    # the scale's top: the largest share rounded up to a multiple of 4 % (ticks every 1/4)
    peak = max((s for row in shares for s in row), default=0.0)
    peak = max(0.04, math.ceil(peak * 25 - 1e-9) / 25)
    slot = plot_w / bins
    bar = slot * 0.8 / max(1, len(players))
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{width / 2}" y="28" text-anchor="middle" font-size="18">{escape(title)}</text>',
    ]
    for k in range(5):
        frac = k / 4
        y = top + plot_h * (1 - frac)
        parts.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#dddddd"/>'
        )
        parts.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11">'
            f"{100 * peak * frac:.0f}%</text>"
        )
    for b, (lo, hi) in enumerate(BREAK_BINS):
        x0 = left + b * slot + slot * 0.1
        for i, row in enumerate(shares):
            h = plot_h * row[b] / peak
            x = x0 + i * bar
            parts.append(
                f'<rect x="{x:.1f}" y="{top + plot_h - h:.1f}" width="{bar:.1f}" '
                f'height="{h:.1f}" fill="{_COLOURS[i % len(_COLOURS)]}">'
                f"<title>{escape(players[i].name)} {_bin_label(lo, hi)}: "
                f"{100 * row[b]:.1f}%</title></rect>"
            )
        parts.append(
            f'<text x="{left + (b + 0.5) * slot:.1f}" y="{top + plot_h + 18}" '
            f'text-anchor="middle" font-size="11">{_bin_label(lo, hi)}</text>'
        )
    parts.append(
        f'<line x1="{left}" y1="{top + plot_h}" x2="{width - right}" '
        f'y2="{top + plot_h}" stroke="#333333"/>'
    )
    parts.append(
        f'<text x="{left + plot_w / 2}" y="{height - 30}" text-anchor="middle" '
        f'font-size="12">break (points in one visit)</text>'
    )
    for i, p in enumerate(players):
        x = left + i * 220
        parts.append(
            f'<rect x="{x}" y="{height - 18}" width="12" height="12" '
            f'fill="{_COLOURS[i % len(_COLOURS)]}"/>'
        )
        parts.append(
            f'<text x="{x + 18}" y="{height - 8}" font-size="12">'
            f"{escape(p.name)} ({p.visits} visits)</text>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
