"""A study's report: PNG plots drawn with matplotlib (Agg, no display) and an HTML page.

Games and sweeps: the score progression of every game and the distribution of breaks in
the classes of ``onered.game.stats``; sweeps: points per visit, mean break and fouls against the
value (bars, one group per name, for a categorical sweep such as the cushion model).
Shots: outcome maps drawn on the table (its cushions, pockets, baulk line, D and spots
from ``onered.physics`` and ``onered.table``), one cell per position.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from onered.study.spec import GamesSpec, ShotsSpec, Spec, SweepSpec, Vary
from onered.study.work import NAMES

if TYPE_CHECKING:
    import pandas as pd  # type: ignore[import-untyped]
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

COLOURS = {"p1": "#1f6f43", "p2": "#c4122f"}
CLOTH = "#2e7d4f"
DPI = 110


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _save(fig: Figure, folder: Path, name: str) -> str:
    fig.savefig(folder / name)
    return name


def _label(spec: GamesSpec | SweepSpec, name: str) -> str:
    return f"{name} ({getattr(spec, name)})"


# --- games --------------------------------------------------------------------------------


def plot_progression(spec: GamesSpec, strokes: pd.DataFrame, folder: Path) -> str:
    """Each game's score after every stroke (thin lines), and the mean over games."""
    import numpy as np

    fig = _figure(8, 4.5)
    ax = fig.add_subplot()
    longest = int(strokes.groupby("task")["stroke"].max().max()) if len(strokes) else 0
    for name in NAMES:
        col = f"score_{name}"
        curves = []
        for _, game in strokes.groupby("task"):
            x = game["stroke"].to_numpy()
            y = game[col].to_numpy()
            ax.plot(x, y, color=COLOURS[name], alpha=0.18, linewidth=0.8)
            padded = np.full(longest, y[-1] if len(y) else 0, dtype=float)
            padded[: len(y)] = y
            curves.append(padded)
        if curves:
            ax.plot(
                np.arange(1, longest + 1),
                np.mean(curves, axis=0),
                color=COLOURS[name],
                linewidth=2.2,
                label=f"{_label(spec, name)}: mean (a game over keeps its score)",
            )
    ax.axhline(spec.target, color="#555", linestyle=":", linewidth=1, label=f"target {spec.target}")
    ax.set_xlabel("stroke")
    ax.set_ylabel("score")
    ax.set_title(f"Score progression, {strokes['task'].nunique()} games (thin: each game)")
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return _save(fig, folder, "score-progression.png")


def plot_breaks(spec: GamesSpec, strokes: pd.DataFrame, folder: Path) -> str:
    """Visits per class of break (``onered.game.stats.BREAK_BINS``), for each player."""
    import numpy as np

    from onered.game.stats import BREAK_BINS

    labels = [
        str(lo) if lo == hi else f"{lo}+" if hi is None else f"{lo}-{hi}" for lo, hi in BREAK_BINS
    ]
    fig = _figure(8, 4)
    ax = fig.add_subplot()
    x = np.arange(len(BREAK_BINS))
    for k, name in enumerate(NAMES):
        breaks = strokes[(strokes["striker"] == name) & strokes["visit_end"]]["break"]
        counts = [
            int(((breaks >= lo) & (breaks <= (hi if hi is not None else 10**9))).sum())
            for lo, hi in BREAK_BINS
        ]
        total = max(1, sum(counts))
        ax.bar(
            x + (k - 0.5) * 0.4,
            [c / total for c in counts],
            width=0.4,
            color=COLOURS[name],
            label=f"{_label(spec, name)}: {total} visits",
        )
    ax.set_xticks(x, labels, rotation=0, fontsize=8)
    ax.set_xlabel("break (points in one visit)")
    ax.set_ylabel("share of visits")
    ax.set_title("Break distribution")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, folder, "breaks.png")


# --- sweeps -------------------------------------------------------------------------------


def value_label(value: object) -> str:
    """A swept value as a tick label: a number in its shortest form, a name as it is."""
    return f"{value:g}" if isinstance(value, int | float) else str(value)


def plot_sweep(spec: SweepSpec, summary: dict[str, Any], folder: Path) -> str:
    """Points per visit (with its standard error), mean break and fouls per visit against
    the swept value: of both players together when the value applies to both players of
    the same level, else of each player. Numbers on a numeric axis joined by lines; the
    names of a categorical sweep (the cushion model) as bars side by side, one group per
    name, since nothing lies between two models."""
    import numpy as np

    fig = _figure(11, 3.8)
    axes = fig.subplots(1, 3)
    rows = summary["values"]
    values = [v["value"] for v in rows]
    pooled = spec.who == "both" and spec.p1 == spec.p2
    lines: list[tuple[str, str, Any]] = (
        [("both", f"both players ({spec.p1})", [v["both"] for v in rows])]
        if pooled
        else [
            (
                n,
                f"{n} ({spec.players_at(spec.values[0])[n].split(',')[0]})",
                [v["players"][n] for v in rows],
            )
            for n in NAMES
        ]
    )
    slots = np.arange(len(values))
    width = 0.8 / len(lines)
    for ax, key, title in zip(
        axes,
        ("points_per_visit", "mean_break", "fouls_per_visit"),
        ("points per visit (± s.e.)", "mean break (scoring visits)", "fouls per visit"),
        strict=True,
    ):
        for j, (name, label, figures) in enumerate(lines):
            ys = [float("nan") if f[key] is None else f[key] for f in figures]
            colour = COLOURS.get(name, "#1f4e9e")
            errors = (
                [
                    0.0 if f["points_per_visit_se"] is None else f["points_per_visit_se"]
                    for f in figures
                ]
                if key == "points_per_visit"
                else None
            )
            if spec.categorical:
                ax.bar(
                    slots + (j - (len(lines) - 1) / 2) * width,
                    ys,
                    width=width,
                    yerr=errors,
                    capsize=3,
                    color=colour,
                    label=label,
                )
            elif errors is not None:
                ax.errorbar(
                    values, ys, yerr=errors, marker="o", color=colour, capsize=3, label=label
                )
            else:
                ax.plot(values, ys, marker="o", color=colour, label=label)
        if spec.categorical:  # every name's slot, with a bar or not (no scoring visit)
            ax.set_xticks(slots, [value_label(v) for v in values])
            ax.set_xlim(-0.5, len(values) - 0.5)
        ax.set_xlabel(spec.param)
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(axis="y" if spec.categorical else "both", alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.suptitle(
        f"Sweep of {spec.param}: {spec.games} games to {spec.target} per value", fontsize=11
    )
    return _save(fig, folder, "sweep.png")


def plot_sweep_breaks(spec: SweepSpec, strokes: pd.DataFrame, folder: Path) -> str:
    """The breaks of scoring visits at each value (box plots, both players)."""
    fig = _figure(8, 4)
    ax = fig.add_subplot()
    data = []
    for k in range(len(spec.values)):
        s = strokes[(strokes["value_index"] == k) & strokes["visit_end"] & (strokes["break"] > 0)]
        data.append(s["break"].to_numpy())
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(spec.values) + 1), [value_label(v) for v in spec.values])
    ax.set_xlabel(spec.param)
    ax.set_ylabel("break (scoring visits)")
    ax.set_title(f"Breaks against {spec.param} (box: quartiles, line: median, triangle: mean)")
    ax.grid(axis="y", alpha=0.3)
    return _save(fig, folder, "sweep-breaks.png")


# --- shots --------------------------------------------------------------------------------


def draw_table(ax: Axes) -> None:
    """The table seen from the baulk end: cloth, cushion noses and jaws, pockets (their
    fall circles), the baulk line, the D and the spots."""
    from matplotlib.patches import Arc, Circle, Polygon, Rectangle

    from onered.physics import TableSpec
    from onered.table import BAULK_Y, D_CENTRE, D_RADIUS, LENGTH, SPOT_POINTS, WIDTH

    geometry = TableSpec().geometry()
    rail = 0.06
    ax.add_patch(
        Rectangle((-rail, -rail), WIDTH + 2 * rail, LENGTH + 2 * rail, facecolor="#5b3a1e")
    )
    ax.add_patch(Polygon(geometry.outline, closed=True, facecolor=CLOTH, edgecolor="#143d26"))
    for pocket in geometry.pockets:
        ax.add_patch(Circle(pocket.fall_centre, pocket.fall_radius, color="#111", zorder=3))
    ax.plot([0, WIDTH], [BAULK_Y, BAULK_Y], color="white", linewidth=0.8, zorder=4)
    ax.add_patch(
        Arc(
            D_CENTRE,
            2 * D_RADIUS,
            2 * D_RADIUS,
            theta1=180,
            theta2=360,
            color="white",
            lw=0.8,
            zorder=4,
        )
    )
    for p in SPOT_POINTS.values():
        ax.plot(*p, marker="o", markersize=1.5, color="white", zorder=4)
    ax.set_xlim(-0.08, WIDTH + 0.08)
    ax.set_ylim(-0.08, LENGTH + 0.08)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])


def _cells(ax: Axes, spec: ShotsSpec, values: Any, cmap: str, vmax: float = 1.0) -> Any:
    """Each grid cell coloured by ``values`` (NaN: the shot is not on there, left hatched)."""
    import numpy as np
    from matplotlib.colors import Normalize
    from matplotlib.patches import Rectangle

    x0, x1, y0, y1 = spec.region
    nx, ny = spec.grid
    grid = np.full((ny, nx), np.nan)
    for (ix, iy), v in values.items():
        grid[iy, ix] = v
    image = ax.imshow(
        np.ma.masked_invalid(grid),
        origin="lower",
        extent=(x0, x1, y0, y1),
        cmap=cmap,
        norm=Normalize(0.0, vmax),
        zorder=2,
        interpolation="nearest",
    )
    ax.add_patch(
        Rectangle(
            (x0, y0), x1 - x0, y1 - y0, fill=False, hatch="//", edgecolor="#9fb8a8", lw=0, zorder=1
        )
    )
    return image


def _balls(ax: Axes, spec: ShotsSpec) -> None:
    from matplotlib.patches import Circle

    from onered.table import BALL_RADIUS, POCKET_POINTS

    colour = "#f7f5ee" if spec.vary is Vary.OBJECT else "#c4122f"
    ax.add_patch(
        Circle(spec.fixed, BALL_RADIUS * 1.6, facecolor=colour, edgecolor="black", zorder=5)
    )
    px, py = POCKET_POINTS[spec.pocket]
    ax.add_patch(Circle((px, py), 0.07, fill=False, edgecolor="#ffd400", linewidth=2, zorder=5))


def _what(spec: ShotsSpec) -> str:
    shot = "pot of the red" if spec.shot.value == "pot" else "in-off the red"
    moving = "red" if spec.vary is Vary.OBJECT else "white"
    return f"{shot} into {spec.pocket.replace('_', ' ')}; the {moving} on the grid"


def plot_success_map(spec: ShotsSpec, positions: pd.DataFrame, folder: Path) -> str:
    """The probability of success at each position, on the table."""
    fig = _figure(5.2, 8.6)
    ax = fig.add_subplot()
    draw_table(ax)
    ok = positions[positions["feasible"]]
    values = {(int(r.ix), int(r.iy)): float(r.p_success) for r in ok.itertuples()}
    image = _cells(ax, spec, values, "viridis")
    _balls(ax, spec)
    fig.colorbar(image, ax=ax, shrink=0.6, label="probability of success")
    ax.set_title(
        f"{_what(spec)}\n{spec.player}, {spec.samples} strokes per position at {spec.speed:g} m/s"
        "\n(hatched: no stroke scores it there)",
        fontsize=9,
    )
    return _save(fig, folder, "shots-map.png")


def plot_outcome_maps(spec: ShotsSpec, shots: pd.DataFrame, folder: Path) -> str:
    """The probability of each of the commonest outcomes, one small table each."""
    top = list(shots["outcome"].value_counts().index[:6]) if len(shots) else []
    fig = _figure(2.4 * max(1, len(top)), 5.2)
    axes = fig.subplots(1, max(1, len(top)), squeeze=False)[0]
    counts = shots.groupby(["ix", "iy"])["outcome"].value_counts(normalize=True)
    image = None
    for ax, label in zip(axes, top or [""], strict=True):
        draw_table(ax)
        values = {
            (int(ix), int(iy)): float(counts.get((ix, iy, label), 0.0))
            for ix, iy in shots[["ix", "iy"]].drop_duplicates().itertuples(index=False)
        }
        image = _cells(ax, spec, values, "magma")
        _balls(ax, spec)
        ax.set_title(label.replace("+", " + ") or "no samples", fontsize=9)
    if image is not None:
        fig.colorbar(image, ax=list(axes), shrink=0.7, label="probability")
    fig.suptitle(f"Outcomes: {_what(spec)}", fontsize=10)
    return _save(fig, folder, "shots-outcomes.png")


# --- the page -----------------------------------------------------------------------------


def write_report(
    spec: Spec, tables: dict[str, pd.DataFrame], summary: dict[str, Any], folder: Path
) -> Path:
    """Draw the plots into ``folder`` and write ``folder/index.html``; return the page."""
    folder.mkdir(parents=True, exist_ok=True)
    images: list[str] = []
    if isinstance(spec, GamesSpec):
        images.append(plot_progression(spec, tables["strokes"], folder))
        images.append(plot_breaks(spec, tables["strokes"], folder))
    elif isinstance(spec, SweepSpec):
        images.append(plot_sweep(spec, summary, folder))
        images.append(plot_sweep_breaks(spec, tables["strokes"], folder))
    else:
        images.append(plot_success_map(spec, tables["positions"], folder))
        images.append(plot_outcome_maps(spec, tables["shots"], folder))
    title = f"onered study {spec.kind.value}"
    body = "\n".join(
        f'<figure><img src="{html.escape(name)}" alt="{html.escape(name)}"></figure>'
        for name in images
    )
    page = folder / "index.html"
    page.write_text(
        f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:1200px;margin:2em auto}}img{{max-width:100%}}
pre{{background:#f4f4f4;padding:1em;overflow:auto;font-size:12px}}</style></head>
<body><h1>{title}</h1>
<p>Tables: {", ".join(f"<code>{t}.parquet</code>" for t in tables)} in the study's folder.</p>
{body}
<h2>Summary</h2><pre>{html.escape(json.dumps(summary, indent=2))}</pre>
</body></html>
""",
        encoding="utf-8",
    )
    return page
