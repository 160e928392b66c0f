"""Calibrate and check the handicap model of ``onered.ratings.handicap`` on the AI's games.

Two AI levels play ``--games`` games to ``--target``, the first level given ``--start``
points at the start of each game (0: level games). Prints, as JSON: the games each won, the
points each scored (the handicap start not counted), the first level's share of the
points and of the games with a 95 % Wilson interval, and for level games the lump size
that fits them (``fit_unit``) and the start the model then proposes.

    python benchmarks/calibrate_handicap.py --pair club:pro --games 40 --start 0
    python benchmarks/calibrate_handicap.py --pair club:pro --games 40 --start 43
    python benchmarks/calibrate_handicap.py --fit 0:34:248 45:16:48
"""

from __future__ import annotations

import argparse
import json
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from bench_players import game_seed

from onered.game import Game, PhysicsSimulator
from onered.game.lag import match_after_lag
from onered.players import make_player, play_lag
from onered.ratings.handicap import Trial, fit_starts, fit_unit, propose_for
from onered.study.intervals import wilson

#: Strokes after which a game is given up (as ``onered.players.match``).
MAX_STROKES = 3000


def one_game(job: tuple[str, str, int, int, int, int]) -> dict[str, Any]:
    """Game ``number``: level ``a`` (given ``start`` points) against level ``b``."""
    a, b, target, start, seed, number = job
    rng = random.Random(game_seed(seed, number))
    names = (a, b if b != a else f"{b}'")
    players = {
        names[0]: make_player(f"ai:{a}", rng.getrandbits(32)),
        names[1]: make_player(f"ai:{b}", rng.getrandbits(32)),
    }
    simulator = PhysicsSimulator()
    lag = play_lag(players, names, simulator)
    loser = names[1] if lag.winner == names[0] else names[0]
    match = match_after_lag(lag, loser, target)
    match = replace(match, handicap=tuple(start if n == names[0] else 0 for n in match.players))
    game = Game(match, simulator, lag=lag)
    strokes = 0
    while not game.over and strokes < MAX_STROKES:
        player = players[game.to_play]
        if game.state.choice_pending:
            game.choose(player.choose(game.option_positions()))
        game.play(player.decide(game.position))
        strokes += 1
    score = dict(zip(match.players, game.state.score, strict=True))
    return {
        "winner": game.winner,
        "points": [score[names[0]] - start, score[names[1]]],
        "names": names,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pair", default="club:pro")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--target", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--fit", nargs="+", metavar="START:WINS:GAMES")
    args = parser.parse_args(argv)
    if args.fit:
        return fit(args.fit, args.target)
    a, b = args.pair.split(":")
    work = [(a, b, args.target, args.start, args.seed, n) for n in range(args.games)]
    wins = [0, 0]
    points = [0, 0]
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(one_game, work):
            if result["winner"] in result["names"]:
                wins[result["names"].index(result["winner"])] += 1
            points[0] += result["points"][0]
            points[1] += result["points"][1]
    n = wins[0] + wins[1]
    share = points[0] / max(1, points[0] + points[1])
    lo, hi = wilson(wins[0], n) or (0.0, 1.0)
    out: dict[str, Any] = {
        "pair": args.pair,
        "target": args.target,
        "start": args.start,
        "games": args.games,
        "wins": wins,
        "points": points,
        "points_share": round(share, 4),
        "wins_share": round(wins[0] / n, 4) if n else None,
        "wilson95": [round(lo, 4), round(hi, 4)],
    }
    if args.start == 0 and n and 0 < wins[0] < n:
        unit = fit_unit(share, wins[0] / n, args.target)
        out["unit"] = round(unit, 2)
        out["proposed_start"] = propose_for(wins[0] / n, args.target, unit).handicap[0]
    print(json.dumps(out, indent=2))
    return 0


def fit(specs: list[str], target: int) -> int:
    """Fit the model to games played with several starts; print the fit and its starts."""
    trials = [Trial(*(int(x) for x in spec.split(":"))) for spec in specs]
    expected, unit = fit_starts(trials, target)
    out = {
        "trials": [[t.start, t.wins, t.games] for t in trials],
        "target": target,
        "expected": round(expected, 4),
        "unit": round(unit, 1),
        "proposed_start": {
            str(t): propose_for(expected, t, unit).handicap[0] for t in (target, 2 * target)
        },
    }
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
