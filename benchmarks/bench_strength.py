"""How strong each AI level is, measured: break building, head-to-head games, game sense.

Three measurements, each seeded (``--seed``) and spread over ``--jobs`` processes:

``breaks``
    Break building, no opponent and no target: for each level, ``--visits`` visits, each
    from the opening (the red on its spot, the cue ball in hand, the other ball off the
    table until 15 hazards bring it to the baulk line, 2.9.4) or, with ``--start random``,
    from three balls placed at random; the distribution of break lengths, the average
    and top break, and the decision times (CPU time of one core: mean, 95th percentile).
    Two starts put the rules' tests in front of every visit: ``--start window`` (a
    random position with the break at 70-79, played until the visit ends or the break
    passes 100: the baulk-line window met or not) and ``--start limits`` (14-15 hazards or
    74-75 cannons in a row: the limit fouls).
``games``
    Games to ``--target`` for each pair of ``--pairs`` (``novice:beginner,...``),
    ``--games`` each: wins with a 95 % Wilson interval, each level's points per visit,
    average and highest break and fouls per game (``onered.game.stats``), decision times.
``both`` (in ``games`` and ``breaks``)
    Game sense, counted from the referee's verdicts: fouls of the 75-cannon and 15-hazard
    limits and of the baulk-line rule; baulk-line windows entered (the referee's
    ``baulk_line_required`` call) and met (``baulk_crossed``); runs that reached 15
    hazards or 75 cannons (the limits were put to the test).

    python benchmarks/bench_strength.py breaks --levels novice,pro --visits 40 --jobs 2
    python benchmarks/bench_strength.py games --pairs amateur:club --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from bench_players import Timed, _spread, game_seed

from onered import rules
from onered.game import Game, PhysicsSimulator
from onered.game.model import StrokeRecord
from onered.game.record import game_lines
from onered.game.stats import BREAK_BINS, Tally
from onered.players import STRENGTHS, GameSettings, make_player, play_game
from onered.rules import Ball, CallCode, Counters, FoulCode, Match
from onered.study.intervals import wilson as study_wilson
from onered.table import BALL_DIAMETER, LENGTH, WIDTH

#: The break classes of the distribution (``onered.game.stats``' classes).
BINS = BREAK_BINS
#: A target no visit reaches: break building has none.
NO_TARGET = 100_000


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of ``wins / n`` (``onered.study.intervals``), the
    whole range when no game was played."""
    return study_wilson(wins, n) or (0.0, 1.0)


def sense_counts(records: list[StrokeRecord]) -> dict[str, int]:
    """Game-sense counts of a run of strokes, from the referee's verdicts."""
    out = dict.fromkeys(
        (
            "hazard_limit_fouls",
            "cannon_limit_fouls",
            "baulk_line_fouls",
            "windows_entered",
            "windows_met",
            "runs_of_15_hazards",
            "runs_of_75_cannons",
        ),
        0,
    )
    for record in records:
        verdict = record.verdict
        codes = verdict.foul.codes if verdict.foul is not None else ()
        out["hazard_limit_fouls"] += FoulCode.HAZARD_LIMIT in codes
        out["cannon_limit_fouls"] += FoulCode.CANNON_LIMIT in codes
        out["baulk_line_fouls"] += FoulCode.BAULK_LINE in codes
        out["windows_entered"] += CallCode.BAULK_LINE_REQUIRED in verdict.calls
        out["windows_met"] += verdict.baulk_crossed
        out["runs_of_15_hazards"] += verdict.foul is None and verdict.counters.hazards == 15
        out["runs_of_75_cannons"] += verdict.foul is None and verdict.counters.cannons == 75
    return out


def _add(total: dict[str, int], more: dict[str, int]) -> None:
    for k, v in more.items():
        total[k] = total.get(k, 0) + v


# --- break building ------------------------------------------------------------------------


def random_balls(rng: random.Random) -> dict[Ball, tuple[float, float]]:
    """Three balls at random on the bed, apart from each other and clear of the cushions."""
    margin = 0.08
    while True:
        balls = {
            b: (rng.uniform(margin, WIDTH - margin), rng.uniform(margin, LENGTH - margin))
            for b in (Ball.WHITE, Ball.YELLOW, Ball.RED)
        }
        pts = list(balls.values())
        if all(
            math.dist(pts[i], pts[j]) > 2 * BALL_DIAMETER for i in range(3) for j in range(i + 1, 3)
        ):
            return balls


#: The starts of a break run: the opening, three balls at random, a random position with
#: the break at 70-79 (the baulk-line window ahead: the visit is played until it ends or
#: the break passes 100), or with 14-15 hazards or 74-75 cannons in a row (the limit at
#: the next stroke or the one after: played until it ends or :data:`LIMIT_STROKES`
#: strokes are played).
STARTS = ("opening", "random", "window", "limits")
LIMIT_STROKES = 8


def start_state(start: str, match: Match, rng: random.Random) -> tuple[rules.GameState, Any]:
    """The referee's state and the balls of a break run's ``start`` (not the opening)."""
    balls = random_balls(rng)
    state = replace(rules.start(match), table=dict(balls), red_spot=None)
    if start == "window":
        brk = 70 + rng.randrange(10)
        state = replace(state, break_=brk, score=(brk, 0), stroke_no=brk // 3)
    elif start == "limits":
        if rng.random() < 0.5:
            counters = Counters(hazards=14 + rng.randrange(2))
        else:
            counters = Counters(cannons=74 + rng.randrange(2))
        state = replace(state, counters=counters, break_=40, score=(40, 0), stroke_no=40)
    return state, balls


def one_visit(job: tuple[str, int, int, str]) -> dict[str, Any]:
    """One visit of ``level`` from the start ``start`` (:data:`STARTS`), to its end."""
    level, seed, number, start = job
    rng = random.Random(game_seed(seed, number))
    simulator = PhysicsSimulator()
    player = Timed(make_player(f"ai:{level}", rng.getrandbits(32)))
    match = Match(target=NO_TARGET, players=("A", "B"))
    if start == "opening":
        game = Game(match, simulator)
    else:
        state, balls = start_state(start, match, rng)
        game = Game.resume(state, balls, simulator)
    records: list[StrokeRecord] = []
    while True:
        record = game.play(player.decide(game.position))
        records.append(record)
        verdict = record.verdict
        if verdict.visit_over:
            break
        if start == "window" and verdict.break_ >= 100:
            break
        if start == "limits" and len(records) >= LIMIT_STROKES:
            break
    last = records[-1].verdict
    return {
        "level": level,
        "break": last.break_,
        "strokes": len(records),
        "foul": last.foul is not None,
        "cpu": player.cpu,
        "sense": sense_counts(records),
    }


def distribution(breaks: list[int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for lo, hi in BINS:
        label = f"{lo}+" if hi is None else (str(lo) if lo == hi else f"{lo}-{hi}")
        out[label] = sum(1 for b in breaks if b >= lo and (hi is None or b <= hi))
    return out


def run_breaks(levels: list[str], visits: int, seed: int, jobs: int, start: str) -> dict[str, Any]:
    work = [(level, seed, n, start) for level in levels for n in range(visits)]
    results: dict[str, list[dict[str, Any]]] = {level: [] for level in levels}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(one_visit, work):
            results[result["level"]].append(result)
    out: dict[str, Any] = {"start": start, "visits": visits, "levels": {}}
    for level, rows in results.items():
        breaks = sorted(r["break"] for r in rows)
        sense: dict[str, int] = {}
        cpu: list[float] = []
        for r in rows:
            _add(sense, r["sense"])
            cpu += r["cpu"]
        out["levels"][level] = {
            "mean_break": round(sum(breaks) / len(breaks), 2),
            "median_break": breaks[len(breaks) // 2],
            "p90_break": breaks[int(0.9 * (len(breaks) - 1))],
            "top_break": breaks[-1],
            "visits_ending_in_a_foul": sum(r["foul"] for r in rows),
            "distribution": distribution(breaks),
            "decision_cpu_seconds": _spread(cpu),
            "sense": sense,
        }
    return out


# --- games ----------------------------------------------------------------------------------


def one_game(job: tuple[str, str, int, int, int]) -> dict[str, Any]:
    """Game ``number`` between levels ``a`` and ``b`` (names: the levels; ``b'`` when the
    same); returns its record lines, the decision times and the game-sense counts."""
    a, b, target, seed, number = job
    rng = random.Random(game_seed(seed, number))
    names = (a, b if b != a else f"{b}'")
    players = {
        names[0]: Timed(make_player(f"ai:{a}", rng.getrandbits(32))),
        names[1]: Timed(make_player(f"ai:{b}", rng.getrandbits(32))),
    }
    simulator = PhysicsSimulator()
    game = play_game(players, GameSettings(target=target, names=names), simulator)
    lines = game_lines(
        game, seed=game_seed(seed, number), entrants={n: players[n].description for n in names}
    )
    strokes = [e for e in game.entries if isinstance(e, StrokeRecord)]
    lag = game.lag
    return {
        "pair": f"{a}:{b}",
        "lines": lines,
        "winner": game.winner,
        "names": names,
        "cpu": {n: players[n].cpu for n in names},
        "sense": sense_counts(strokes),
        "lag": None
        if lag is None
        else {"winner": lag.winner, "first": lag.choice.play_first, "ball": lag.choice.ball.value},
    }


def run_games(
    pairs: list[tuple[str, str]],
    games: int,
    target: int,
    seed: int,
    jobs: int,
    interim: Path | None = None,
) -> dict[str, Any]:
    """The head-to-head games; with ``interim``, the figures so far are written there every
    ten games (a long run stopped early still leaves what it measured)."""
    work = [(a, b, target, seed, n) for a, b in pairs for n in range(games)]
    tally = Tally()
    cpu: dict[str, list[float]] = {}
    sense: dict[str, int] = {}
    wins: dict[str, list[int]] = {f"{a}:{b}": [0, 0, 0] for a, b in pairs}
    lags = {"white": 0, "yellow": 0, "first": 0, "second": 0}
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(one_game, work):
            tally.add_game([json.loads(line) for line in result["lines"]], result["pair"])
            names = result["names"]
            row = wins[result["pair"]]
            row[
                0 if result["winner"] == names[0] else 1 if result["winner"] == names[1] else 2
            ] += 1
            for name, t in result["cpu"].items():
                cpu.setdefault(name.rstrip("'"), []).extend(t)
            _add(sense, result["sense"])
            if result["lag"] is not None:
                lags[result["lag"]["ball"]] += 1
                lags["first" if result["lag"]["first"] else "second"] += 1
            done += 1
            if done % 10 == 0:
                print(f"{done} games", file=sys.stderr, flush=True)
                if interim is not None:
                    so_far = _game_figures(tally, wins, cpu, sense, lags, target, games)
                    so_far["games_done"] = done
                    interim.write_text(json.dumps(so_far, indent=2) + "\n", encoding="utf-8")
    return _game_figures(tally, wins, cpu, sense, lags, target, games)


def _game_figures(
    tally: Tally,
    wins: dict[str, list[int]],
    cpu: dict[str, list[float]],
    sense: dict[str, int],
    lags: dict[str, int],
    target: int,
    games: int,
) -> dict[str, Any]:
    """The figures of the games played so far."""
    stats = tally.result()
    head: dict[str, Any] = {}
    for pair, (wa, wb, unfinished) in wins.items():
        n = wa + wb
        lo, hi = wilson(wa, n)
        head[pair] = {
            "games": n + unfinished,
            "wins": [wa, wb],
            "unfinished": unfinished,
            "first_wins_share": round(wa / n, 4) if n else None,
            "wilson95": [round(lo, 4), round(hi, 4)],
        }
    levels: dict[str, Any] = {}
    for name, p in stats.players.items():
        levels[name] = {
            "games": p.games,
            "visits": p.visits,
            "points_per_visit": round(p.points_per_visit, 2),
            "average_break": round(p.average_break, 2),
            "top_break": p.highest_break,
            "break_distribution": distribution(list(p.breaks)),
            "fouls_per_game": round(p.fouls_per_game, 3),
            "fouls": dict(p.fouls),
            "decision_cpu_seconds": _spread(cpu.get(name.rstrip("'"), [])),
        }
    return {
        "target": target,
        "games_per_pair": games,
        "head_to_head": head,
        "levels": levels,
        "sense": sense,
        "lag_choices": lags,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("breaks", "games"))
    parser.add_argument("--levels", default=",".join(STRENGTHS))
    parser.add_argument("--visits", type=int, default=40)
    parser.add_argument("--start", choices=STARTS, default="opening")
    parser.add_argument("--pairs", default="novice:beginner")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", metavar="FILE", help="also write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or args.visits < 1:
        print("bench_strength: --games, --visits and --jobs must be positive", file=sys.stderr)
        return 2
    names = [*args.levels.split(","), *args.pairs.replace(":", ",").split(",")]
    unknown = [n for n in names if n not in STRENGTHS]
    if unknown:
        print(f"bench_strength: unknown level {unknown[0]!r}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    if args.mode == "breaks":
        figures = run_breaks(args.levels.split(","), args.visits, args.seed, args.jobs, args.start)
    else:
        pairs = [(p.split(":")[0], p.split(":")[1]) for p in args.pairs.split(",")]
        interim = Path(args.out) if args.out else None
        figures = run_games(pairs, args.games, args.target, args.seed, args.jobs, interim)
    figures["wall_seconds"] = round(time.perf_counter() - t0, 1)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
