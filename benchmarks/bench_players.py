"""AI players: a match of many games, and the time a decision takes.

Plays ``--games`` games to ``--target`` between ``--p1`` and ``--p2`` (default: pro against
amateur, 200 games to 100) on the simulated table, each game seeded from ``--seed`` and its
number, and reports for each player: games won, points per visit, average (scoring
visits) and highest break, visits of 100 or more and the games that had one (per 20
games), fouls per game, and the time a decision took (mean, 95th percentile, largest).
Issue targets: the pro averages >= 15 points per visit, makes a 100 break in at least 1
game in 20, and decides in <= 1 s on one core.

    python benchmarks/bench_players.py [--games N] [--jobs J] [--records DIR] [--out FILE]

``--jobs`` plays games in parallel processes (each game on one core, so decision times stay
per core); ``--records DIR`` keeps every game's record.

``--decisions N`` measures the search alone instead: the positions met in seeded games of
``--p1`` against itself (the first N), each decided once more by a fresh ``--p1`` player,
and prints decisions per second of one core's CPU time (the figure to compare before and
after a change of the search, in the same conditions and with the load reported).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from onered.game import Action, Game, PhysicsSimulator, Position
from onered.game.record import game_lines
from onered.game.stats import Stats, Tally
from onered.players import GameSettings, Player, make_player, play_game


class Timed:
    """A player whose decisions are timed (everything else passes through)."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.times: list[float] = []
        self.cpu: list[float] = []

    @property
    def description(self) -> str:
        return self.player.description

    def lag(self, start: tuple[float, float]) -> Any:
        return self.player.lag(start)

    def lag_choice(self) -> Any:
        return self.player.lag_choice()

    def choose(self, options: Mapping[Any, Position]) -> Any:
        return self.player.choose(options)

    def decide(self, position: Position) -> Action:
        t0, c0 = time.perf_counter(), time.thread_time()
        action = self.player.decide(position)
        self.times.append(time.perf_counter() - t0)
        self.cpu.append(time.thread_time() - c0)
        return action


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` of a run seeded ``seed``."""
    return seed * 1_000_003 + number


def play_one(job: tuple[int, int, str, str, int, str | None]) -> dict[str, Any]:
    """Play game ``number``; return its record lines and the decision times by name."""
    number, seed, p1, p2, target, records = job
    simulator = PhysicsSimulator()
    rng = random.Random(game_seed(seed, number))
    names = ("P1 " + p1.partition(":")[2], "P2 " + p2.partition(":")[2])
    players = {
        names[0]: Timed(make_player(p1, rng.getrandbits(32))),
        names[1]: Timed(make_player(p2, rng.getrandbits(32))),
    }
    t0 = time.perf_counter()
    game: Game = play_game(players, GameSettings(target=target, names=names), simulator)
    lines = game_lines(
        game, seed=game_seed(seed, number), entrants={n: players[n].description for n in names}
    )
    if records:
        Path(records, f"game-{number:04d}.jsonl").write_text(
            "\n".join(lines) + "\n", encoding="utf-8"
        )
    return {
        "number": number,
        "lines": lines,
        "times": {n: players[n].times for n in names},
        "cpu": {n: players[n].cpu for n in names},
        "seconds": time.perf_counter() - t0,
        "winner": game.winner,
    }


def decision_rate(level: str, count: int, seed: int) -> dict[str, Any]:
    """Decisions per CPU second of ``level`` over the first ``count`` positions of seeded
    games of ``level`` against itself."""
    positions: list[Position] = []
    number = 0
    while len(positions) < count:
        rng = random.Random(game_seed(seed, number))
        names = ("A", "B")
        players = {n: make_player(level, rng.getrandbits(32)) for n in names}

        def keep(game: Game, entry: object) -> None:
            if len(positions) < count and not game.over:
                positions.append(game.position)

        play_game(players, GameSettings(target=100, names=names), PhysicsSimulator(), on_entry=keep)
        number += 1
    player = make_player(level, seed)
    c0 = time.thread_time()
    for position in positions:
        player.decide(position)
    cpu = time.thread_time() - c0
    return {
        "level": level,
        "decisions": count,
        "cpu_seconds": round(cpu, 3),
        "decisions_per_cpu_second": round(count / cpu, 3),
    }


def _spread(values: list[float]) -> dict[str, Any]:
    t = sorted(values)
    return {
        "mean": round(statistics.fmean(t), 4) if t else None,
        "p95": round(t[int(0.95 * (len(t) - 1))], 4) if t else None,
        "max": round(t[-1], 4) if t else None,
        "decisions": len(t),
    }


def summarise(
    stats: Stats, times: dict[str, list[float]], cpu: dict[str, list[float]], games: int
) -> dict[str, Any]:
    """The figures of the run."""
    out: dict[str, Any] = {"games": games, "finished": stats.finished, "players": {}}
    for name, p in stats.players.items():
        out["players"][name] = {
            **p.to_json(),
            "win_rate": round(p.wins / games, 4) if games else 0.0,
            "games_with_100_break_per_20": round(20 * p.century_games / games, 3) if games else 0.0,
            # CPU time of the deciding thread (one core), and wall time (shared machine)
            "decision_cpu_seconds": _spread(cpu.get(name, [])),
            "decision_wall_seconds": _spread(times.get(name, [])),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--p1", default="ai:pro")
    parser.add_argument("--p2", default="ai:amateur")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--records", metavar="DIR", help="keep every game's record here")
    parser.add_argument("--out", metavar="FILE", help="also write the figures as JSON here")
    parser.add_argument(
        "--decisions", type=int, metavar="N", help="time N decisions of --p1 instead of games"
    )
    args = parser.parse_args(argv)
    if args.decisions is not None:
        if args.decisions < 1:
            print("bench_players: --decisions must be positive", file=sys.stderr)
            return 2
        print(json.dumps(decision_rate(args.p1, args.decisions, args.seed), indent=2))
        return 0
    if args.games < 1 or args.jobs < 1:
        print("bench_players: --games and --jobs must be positive", file=sys.stderr)
        return 2
    if args.records:
        Path(args.records).mkdir(parents=True, exist_ok=True)
    jobs = [(n, args.seed, args.p1, args.p2, args.target, args.records) for n in range(args.games)]
    tally = Tally()
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for k, result in enumerate(pool.map(play_one, jobs)):
            tally.add_game([json.loads(line) for line in result["lines"]], f"game {k}")
            for name, t in result["times"].items():
                times.setdefault(name, []).extend(t)
            for name, t in result["cpu"].items():
                cpu.setdefault(name, []).extend(t)
            print(
                f"game {result['number']:4d}: {result['winner']} wins, {result['seconds']:.1f} s",
                file=sys.stderr,
                flush=True,
            )
    figures = summarise(tally.result(), times, cpu, args.games)
    figures["wall_seconds"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
