"""A study's figures for ``summary.json``, computed from its tables.

Everything comes from the referee's verdicts in the ``strokes`` rows: a *visit* ends on a
stroke with ``visit_end`` (marked by ``onered.game.summary.visits``, the one reading of
visits: the verdict's ``visit_over``, the winning stroke, or the last stroke of a stopped
game) and its *break* is that stroke's ``break``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onered.study.spec import GamesSpec, Physics, ShotsSpec, Spec, SweepSpec, to_json
from onered.study.work import NAMES

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

#: Break lengths counted in the summary (visits whose break reached each).
BREAK_MARKS = (10, 20, 50, 100)


def _round(x: float, digits: int = 4) -> float | None:
    return None if x != x else round(float(x), digits)  # NaN -> None


def visit_figures(strokes: pd.DataFrame, games: int) -> dict[str, Any]:
    """Visits, points, breaks and fouls of ``strokes`` (one player's, or everyone's) over
    ``games`` games. A visit's points are its break, so points per visit is the mean break
    over all visits; ``points_per_visit_se`` is its standard error."""
    visits = strokes[strokes["visit_end"]]
    breaks = visits["break"]
    scoring = breaks[breaks > 0]
    fouls = int((strokes["foul"] != "").sum())
    n = len(visits)
    return {
        "strokes": len(strokes),
        "visits": n,
        "points": int(strokes["points"].sum()),
        "points_per_visit": _round(strokes["points"].sum() / n) if n else None,
        "points_per_visit_se": _round(breaks.std(ddof=1) / n**0.5) if n > 1 else None,
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
        "wins": wins,
        "win_rate": _round(wins / n) if n else None,
        **visit_figures(strokes[strokes["striker"] == name], n),
    }


def params_used(physics: Physics) -> dict[str, Any]:
    """Every physical parameter of a table with the overrides ``physics``, defaults
    included (``Params.as_json``: the cushion model by its name), so a summary says which
    table was played on without the reader knowing this engine's defaults."""
    from onered.physics.params import params_with

    return params_with(dict(physics)).as_json()


def summarise(spec: Spec, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """The summary of a finished study."""
    out: dict[str, Any] = {"study": to_json(spec), "tasks": spec.tasks}
    if not isinstance(spec, SweepSpec):
        out["params"] = params_used(spec.physics)
    if isinstance(spec, GamesSpec):
        games, strokes = tables["games"], tables["strokes"]
        out["games"] = len(games)
        out["finished"] = int(games["finished"].sum())
        out["first_player_wins"] = int((games["winner"] == games["first"]).sum())
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
            rows = pick(3, "p_success")[["x", "y", "p_success"]]
            out[label] = [
                {"x": _round(r.x), "y": _round(r.y), "p_success": _round(r.p_success)}
                for r in rows.itertuples()
            ]
    return out
