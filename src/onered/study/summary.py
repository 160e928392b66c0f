"""A study's figures for ``summary.json``, computed from its tables.

Everything comes from the referee's verdicts in the ``strokes`` rows: a *visit* ends on a
stroke with ``visit_end`` (the verdict's ``visit_over``, the winning stroke, or the last
stroke of a stopped game) and its *break* is that stroke's ``break`` — as ``onered.stats``
reads game records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onered.study.spec import GamesSpec, ShotsSpec, Spec, SweepSpec, to_json
from onered.study.work import NAMES

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]

#: Break lengths counted in the summary (visits whose break reached each).
BREAK_MARKS = (10, 20, 50, 100)


def _round(x: float, digits: int = 4) -> float | None:
    return None if x != x else round(float(x), digits)  # NaN -> None


def player_figures(games: pd.DataFrame, strokes: pd.DataFrame, name: str) -> dict[str, Any]:
    """One player's figures over ``games`` (``strokes`` their strokes)."""
    mine = strokes[strokes["striker"] == name]
    visits = mine[mine["visit_end"]]
    breaks = visits["break"]
    scoring = breaks[breaks > 0]
    n = len(games)
    return {
        "players": sorted(set(games[name])),
        "games": n,
        "wins": int((games["winner"] == name).sum()),
        "win_rate": _round((games["winner"] == name).sum() / n) if n else None,
        "strokes": len(mine),
        "visits": len(visits),
        "points": int(mine["points"].sum()),
        "points_per_visit": _round(mine["points"].sum() / len(visits)) if len(visits) else None,
        "mean_break": _round(scoring.mean()) if len(scoring) else None,
        "highest_break": int(breaks.max()) if len(breaks) else 0,
        "breaks_at_least": {str(m): int((breaks >= m).sum()) for m in BREAK_MARKS},
        "fouls": int((mine["foul"] != "").sum()),
        "fouls_per_game": _round((mine["foul"] != "").sum() / n) if n else None,
        "fouls_per_visit": _round((mine["foul"] != "").sum() / len(visits))
        if len(visits)
        else None,
    }


def summarise(spec: Spec, tables: dict[str, pd.DataFrame]) -> dict[str, Any]:
    """The summary of a finished study."""
    out: dict[str, Any] = {"study": to_json(spec), "tasks": spec.tasks}
    if isinstance(spec, GamesSpec):
        games, strokes = tables["games"], tables["strokes"]
        out["games"] = len(games)
        out["finished"] = int(games["finished"].sum())
        out["first_player_wins"] = int((games["winner"] == games["first"]).sum())
        out["players"] = {n: player_figures(games, strokes, n) for n in NAMES}
    elif isinstance(spec, SweepSpec):
        games, strokes = tables["games"], tables["strokes"]
        out["param"] = spec.param
        out["values"] = []
        for k, value in enumerate(spec.values):
            g = games[games["value_index"] == k]
            s = strokes[strokes["value_index"] == k]
            out["values"].append(
                {
                    "value": value,
                    "games": len(g),
                    "players": {n: player_figures(g, s, n) for n in NAMES},
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
