"""A study's figures for ``summary.json``, computed from its tables.

Everything comes from the referee's verdicts in the ``strokes`` rows: a *visit* ends on a
stroke with ``visit_end`` (marked by ``onered.game.summary.visits``, the one reading of
visits: the verdict's ``visit_over``, the winning stroke, or the last stroke of a stopped
game) and its *break* is that stroke's ``break``.

Intervals (``onered.study.intervals``): every win rate has its 95 % Wilson score interval
(``win_rate_ci95``); points per visit, a ratio of sums over the games, has a standard error
clustered by game (``points_per_visit_se``: the games, not the visits, are the independent
units drawn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onered.study.intervals import Z95, paired_ratio_diff_se, ratio_se, wilson
from onered.study.spec import GamesSpec, Physics, ShotsSpec, Spec, SweepSpec, to_json
from onered.study.work import NAMES

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

#: Break lengths counted in the summary (visits whose break reached each).
BREAK_MARKS = (10, 20, 50, 100)


def _round(x: float, digits: int = 4) -> float | None:
    return None if x != x else round(float(x), digits)  # NaN -> None


def _interval(pair: tuple[float, float] | None) -> list[float | None] | None:
    return None if pair is None else [_round(pair[0]), _round(pair[1])]


def win_figures(wins: int, games: int) -> dict[str, Any]:
    """``wins`` of ``games`` as a rate with its 95 % Wilson score interval."""
    return {
        "wins": wins,
        "win_rate": _round(wins / games) if games else None,
        "win_rate_ci95": _interval(wilson(wins, games)),
    }


def clustered_se(strokes: pd.DataFrame) -> float | None:
    """The standard error of points per visit with the games as clusters
    (:func:`~onered.study.intervals.ratio_se` of each game's points over its visits; the
    games are those with a visit among ``strokes``)."""
    per_game = strokes.groupby("task").agg(points=("points", "sum"), visits=("visit_end", "sum"))
    per_game = per_game[per_game["visits"] > 0]
    return ratio_se(per_game["points"].tolist(), per_game["visits"].tolist())


def visit_figures(strokes: pd.DataFrame, games: int) -> dict[str, Any]:
    """Visits, points, breaks and fouls of ``strokes`` (one player's, or everyone's) over
    ``games`` games. A visit's points are its break, so points per visit is the mean break
    over all visits; ``points_per_visit_se`` is its standard error clustered by game
    (:func:`clustered_se`), ``points_per_visit_ci95`` the interval of 1.96 of them."""
    visits = strokes[strokes["visit_end"]]
    breaks = visits["break"]
    scoring = breaks[breaks > 0]
    fouls = int((strokes["foul"] != "").sum())
    n = len(visits)
    ppv = strokes["points"].sum() / n if n else None
    se = clustered_se(strokes) if n else None
    return {
        "strokes": len(strokes),
        "visits": n,
        "points": int(strokes["points"].sum()),
        "points_per_visit": None if ppv is None else _round(ppv),
        "points_per_visit_se": None if se is None else _round(se),
        "points_per_visit_ci95": None
        if se is None or ppv is None
        else [_round(ppv - Z95 * se), _round(ppv + Z95 * se)],
        "mean_break": _round(scoring.mean()) if len(scoring) else None,
        "highest_break": int(breaks.max()) if n else 0,
        "breaks_at_least": {str(m): int((breaks >= m).sum()) for m in BREAK_MARKS},
        "fouls": fouls,
        "fouls_per_game": _round(fouls / games) if games else None,
        "fouls_per_visit": _round(fouls / n) if n else None,
    }


def player_figures(games: pd.DataFrame, strokes: pd.DataFrame, name: str) -> dict[str, Any]:
    """One player's figures over ``games`` (``strokes`` their strokes)."""
    n = len(games)
    wins = int((games["winner"] == name).sum())
    return {
        "players": sorted(set(games[name])),
        "games": n,
        **win_figures(wins, n),
        **visit_figures(strokes[strokes["striker"] == name], n),
    }


def params_used(physics: Physics) -> dict[str, Any]:
    """Every physical parameter of a table with the overrides ``physics``, defaults
    included (``Params.as_json``: the cushion model by its name), so a summary says which
    table was played on without the reader knowing this engine's defaults."""
    from onered.physics.params import params_with

    return params_with(dict(physics)).as_json()


def _difference(diff: float, se: float | None) -> dict[str, Any]:
    return {
        "diff": _round(diff),
        "se": None if se is None else _round(se),
        "ci95": None if se is None else [_round(diff - Z95 * se), _round(diff + Z95 * se)],
    }


def _game_sums(strokes: pd.DataFrame, numbers: list[int]) -> list[tuple[float, float]]:
    """Points and visits of each game number in ``numbers`` (0, 0 for a game without)."""
    sums = strokes.groupby("game").agg(points=("points", "sum"), visits=("visit_end", "sum"))
    return [
        (float(sums.at[k, "points"]), float(sums.at[k, "visits"])) if k in sums.index else (0, 0)
        for k in numbers
    ]


def against_first(games: pd.DataFrame, strokes: pd.DataFrame, k: int) -> dict[str, Any] | None:
    """Value ``k`` of a sweep against its first value, game by game (game ``g`` of both
    played from one seed: common random numbers): the difference of player 1's win rate
    and of points per visit (each player's and both together), each with its standard
    error over the paired games (:func:`~onered.study.intervals.paired_ratio_diff_se`) and
    95 % interval. ``None`` for the first value itself."""
    if k == 0:
        return None
    at = {v: games[games["value_index"] == v] for v in (0, k)}
    numbers = sorted(set(at[0]["game"]) & set(at[k]["game"]))
    if not numbers:
        return None
    wins = {
        v: [float(w) for w in (g.set_index("game").loc[numbers, "winner"] == NAMES[0])]
        for v, g in at.items()
    }
    ones = [1.0] * len(numbers)
    win_diff = (sum(wins[k]) - sum(wins[0])) / len(numbers)
    out: dict[str, Any] = {
        "games": len(numbers),
        "p1_win_rate": _difference(
            win_diff,
            paired_ratio_diff_se(
                list(zip(wins[0], ones, strict=True)), list(zip(wins[k], ones, strict=True))
            ),
        ),
        "points_per_visit": {},
    }
    for who in (*NAMES, "both"):
        pick = strokes if who == "both" else strokes[strokes["striker"] == who]
        a = _game_sums(pick[pick["value_index"] == 0], numbers)
        b = _game_sums(pick[pick["value_index"] == k], numbers)
        ma, mb = sum(m for _, m in a), sum(m for _, m in b)
        if not (ma and mb):
            out["points_per_visit"][who] = None
            continue
        diff = sum(y for y, _ in b) / mb - sum(y for y, _ in a) / ma
        out["points_per_visit"][who] = _difference(diff, paired_ratio_diff_se(a, b))
    return out


def summarise(spec: Spec, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """The summary of a finished study."""
    out: dict[str, Any] = {"study": to_json(spec), "tasks": spec.tasks}
    if not isinstance(spec, SweepSpec):
        out["params"] = params_used(spec.physics)
    if isinstance(spec, GamesSpec):
        games, strokes = tables["games"], tables["strokes"]
        out["games"] = len(games)
        out["finished"] = int(games["finished"].sum())
        first = win_figures(int((games["winner"] == games["first"]).sum()), len(games))
        out["first_player_wins"] = first["wins"]
        out["first_player_win_rate"] = first["win_rate"]
        out["first_player_win_rate_ci95"] = first["win_rate_ci95"]
        out["players"] = {n: player_figures(games, strokes, n) for n in NAMES}
    elif isinstance(spec, SweepSpec):
        games, strokes = tables["games"], tables["strokes"]
        out["param"] = spec.param
        out["categorical"] = spec.categorical
        out["values"] = []
        for k, value in enumerate(spec.values):
            g = games[games["value_index"] == k]
            s = strokes[strokes["value_index"] == k]
            out["values"].append(
                {
                    "value": str(value) if isinstance(value, str) else value,
                    "params": params_used(spec.physics_at(value)),
                    "games": len(g),
                    "players": {n: player_figures(g, s, n) for n in NAMES},
                    "both": visit_figures(s, len(g)),
                    "against_first": against_first(games, strokes, k),
                }
            )
    elif isinstance(spec, ShotsSpec):
        positions, shots = tables["positions"], tables["shots"]
        feasible = positions[positions["feasible"]]
        out["positions"] = len(positions)
        out["feasible"] = len(feasible)
        out["samples"] = len(shots)
        out["mean_success"] = _round(feasible["p_success"].mean()) if len(feasible) else None
        counts = shots["outcome"].value_counts()
        out["outcomes"] = (
            {str(k): _round(v / len(shots)) for k, v in counts.items()} if len(shots) else {}
        )
        for label, pick in (("easiest", feasible.nlargest), ("hardest", feasible.nsmallest)):
            rows = pick(3, "p_success")
            out[label] = [
                {
                    "x": _round(r.x),
                    "y": _round(r.y),
                    "p_success": _round(r.p_success),
                    "p_success_ci95": [_round(r.p_success_low), _round(r.p_success_high)],
                }
                for r in rows.itertuples()
            ]
    return out
