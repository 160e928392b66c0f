"""A study's report: plots drawn with matplotlib (no display) and an HTML page.

Every plot is saved three times (:func:`save`): PNG for the page, and SVG and PDF for
print, at :data:`DPI` (300 dots per inch: the resolution of the raster parts of the vector
files, such as the maps' cells and the many thin lines of one curve per game, which are
rasterised so that a file of a thousand games stays small). Titles, labels and legends are
words (:func:`param_words`, :func:`player_words`, :func:`outcome_words`), not the code's
names.

Games and sweeps: the score progression of every game and the distribution of breaks in
the classes of ``onered.game.stats``; sweeps: points per visit, mean break, fouls and the
first player's win rate against the value (bars, one group per name, for a categorical
sweep such as the cushion model). Shots: outcome maps drawn on the table (its cushions,
pockets, baulk line, D and spots from ``onered.physics`` and ``onered.table``), one cell per
position. The page shows the figures with their intervals (``onered.study.summary``) in a
table above the plots.
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
#: Dots per inch of the PNG files and of the raster parts of the SVG and PDF files.
DPI = 300
#: The formats every plot is saved in (the page shows the first).
FORMATS = ("png", "svg", "pdf")

#: Words for the physical parameters (``onered.physics.Params``; units where they have one).
PARAM_WORDS = {
    "R": "ball radius (m)",
    "m": "ball mass (kg)",
    "g": "gravity (m/s²)",
    "mu_s": "sliding friction, ball on cloth",
    "mu_r": "rolling resistance",
    "mu_sp": "spin friction",
    "e_b": "restitution between the balls",
    "e_c": "cushion restitution",
    "f_c": "friction between ball and cushion",
    "cushion_height": "height of the cushion's contact (m)",
    "mu_b_a": "ball-ball friction (constant part)",
    "mu_b_b": "ball-ball friction (speed-dependent part)",
    "mu_b_c": "ball-ball friction (decay with speed, s/m)",
    "cue_mass": "cue mass (kg)",
    "cue_end_mass": "mass of the cue's tip end (kg)",
    "cushion_model": "cushion model",
    "e_c_drop": "fall of the cushion restitution at speed",
    "e_c_speed": "speed where the cushion restitution falls (m/s)",
    "e_table": "restitution of the slate",
    "rail_width": "width of the cushion top and rail (m)",
}
#: Words for the player parameters (``onered.players.spec.PLAYER_PARAMS``).
PLAYER_WORDS = {
    "noise.aim": "aim error (degrees)",
    "noise.speed": "speed error (share of the speed)",
    "noise.tip": "tip error (ball radii)",
    "noise.elevation": "cue elevation error (degrees)",
    "noise.pace": "growth of the errors with pace (per m/s)",
    "noise.side": "share of the squirt left uncorrected",
    "continuation": "weight of the next shot (points)",
}
#: Words for the parts of a score and a shot's outcomes (``onered.rules.ScoreKind``).
OUTCOME_WORDS = {
    "cannon": "cannon",
    "pot_red": "pot of the red",
    "pot_white": "pot of the white",
    "pot_yellow": "pot of the yellow",
    "in_off_red": "in-off the red",
    "in_off_white": "in-off the white",
    "in_off_yellow": "in-off the yellow",
    "foul": "foul",
    "no_score": "no score",
}


def param_words(name: str) -> str:
    """A parameter's name in words (the name itself when it has none)."""
    return PARAM_WORDS.get(name) or PLAYER_WORDS.get(name) or name.replace("_", " ")


def player_words(description: str) -> str:
    """A player's description in words: ``ai:pro,noise.aim=0.1`` is
    "the professional level (aim error (degrees) 0.1)"."""
    level, *changes = description.split(",")
    kind, _, name = level.partition(":")
    words = {
        "novice": "novice",
        "beginner": "beginner",
        "amateur": "amateur",
        "club": "club player",
        "pro": "professional",
        "master": "master",
    }
    who = f"the {words.get(name, name)} level" if kind == "ai" else level
    extra = []
    for change in changes:
        key, _, value = change.partition("=")
        extra.append(f"{param_words(key.strip())} {value.strip()}")
    return f"{who} ({', '.join(extra)})" if extra else who


def outcome_words(label: str) -> str:
    """An outcome (``foul``, ``no_score`` or parts joined by ``+``) in words."""
    return " + ".join(OUTCOME_WORDS.get(part, part.replace("_", " ")) for part in label.split("+"))


def pocket_words(pocket: str) -> str:
    """``top_right`` as "the top right pocket"."""
    return f"the {pocket.replace('_', ' ')} pocket"


def _figure(width: float, height: float) -> Figure:
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def save(fig: Figure, folder: Path, stem: str) -> str:
    """``stem.png``, ``stem.svg`` and ``stem.pdf`` in ``folder`` (:data:`FORMATS`, at
    :data:`DPI`); the PNG's name. The SVG's text stays text (searchable, and set in the
    reader's font), the PDF embeds its fonts as TrueType, and the SVG's ids and both
    files' dates are fixed, so a study drawn again gives the same files."""
    import matplotlib

    dates: dict[str, dict[str, Any]] = {
        "png": {},
        "svg": {"Date": None},
        "pdf": {"CreationDate": None, "ModDate": None},
    }
    with matplotlib.rc_context(
        {"svg.fonttype": "none", "svg.hashsalt": "onered", "pdf.fonttype": 42}
    ):
        for fmt in FORMATS:
            fig.savefig(folder / f"{stem}.{fmt}", dpi=DPI, metadata=dates[fmt] or None)
    return f"{stem}.png"


def _player_label(spec: GamesSpec | SweepSpec, name: str) -> str:
    number = "1" if name == "p1" else "2"
    return f"player {number} ({player_words(getattr(spec, name))})"


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
            ax.plot(x, y, color=COLOURS[name], alpha=0.18, linewidth=0.8, rasterized=True)
            padded = np.full(longest, y[-1] if len(y) else 0, dtype=float)
            padded[: len(y)] = y
            curves.append(padded)
        if curves:
            ax.plot(
                np.arange(1, longest + 1),
                np.mean(curves, axis=0),
                color=COLOURS[name],
                linewidth=2.2,
                label=f"{_player_label(spec, name)}: mean (a game over keeps its score)",
            )
    ax.axhline(
        spec.target, color="#555", linestyle=":", linewidth=1, label=f"{spec.target} points to win"
    )
    ax.set_xlabel("stroke of the game")
    ax.set_ylabel("score")
    ax.set_title(
        f"The score after every stroke, {strokes['task'].nunique()} games "
        "(thin lines: each game; thick: the mean)"
    )
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    return save(fig, folder, "score-progression")


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
            label=f"{_player_label(spec, name)}: {total} visits",
        )
    ax.set_xticks(x, labels, rotation=0, fontsize=8)
    ax.set_xlabel("break (points in one visit to the table)")
    ax.set_ylabel("share of the player's visits")
    ax.set_title("How long the breaks were: the share of visits in each class of break")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    return save(fig, folder, "breaks")


# --- sweeps -------------------------------------------------------------------------------


#: The cushion models (``onered.physics.CushionModel``) by their papers.
MODEL_WORDS = {"mathavan2010": "Mathavan et al. 2010", "han2005": "Han 2005"}


def value_label(value: object) -> str:
    """A swept value as a tick label: a number in its shortest form, a cushion model by its
    paper, another name as it is."""
    if isinstance(value, int | float):
        return f"{value:g}"
    return MODEL_WORDS.get(str(value), str(value))


def _sweep_axis(ax: Axes, spec: SweepSpec, slots: Any, values: list[Any]) -> None:
    if spec.categorical:  # every name's slot, with a bar or not (no scoring visit)
        ax.set_xticks(slots, [value_label(v) for v in values])
        ax.set_xlim(-0.5, len(values) - 0.5)
    ax.set_xlabel(param_words(spec.param))
    ax.grid(axis="y" if spec.categorical else "both", alpha=0.3)


def _errors(low: list[float], mid: list[float], high: list[float]) -> list[list[float]]:
    """Error bars (below, above) from an interval's bounds (NaN where there is none)."""
    return [
        [m - lo for lo, m in zip(low, mid, strict=True)],
        [h - m for m, h in zip(mid, high, strict=True)],
    ]


def plot_sweep(spec: SweepSpec, summary: dict[str, Any], folder: Path) -> str:
    """Points per visit (with its 95 % interval from the game-clustered standard error),
    mean break and fouls per visit against the swept value: of both players together when
    the value applies to both players of the same level, else of each player; and player
    1's win rate with its 95 % Wilson interval. Numbers on a numeric axis joined by lines;
    the names of a categorical sweep (the cushion model) as bars side by side, one group
    per name, since nothing lies between two models."""
    import numpy as np

    fig = _figure(14, 3.9)
    axes = fig.subplots(1, 4)
    rows = summary["values"]
    values = [v["value"] for v in rows]
    pooled = spec.who == "both" and spec.p1 == spec.p2
    lines: list[tuple[str, str, Any]] = (
        [("both", f"both players ({player_words(spec.p1)})", [v["both"] for v in rows])]
        if pooled
        else [
            (
                n,
                f"player {n[1]} ({player_words(spec.players_at(spec.values[0])[n].split(',')[0])})",
                [v["players"][n] for v in rows],
            )
            for n in NAMES
        ]
    )
    slots = np.arange(len(values))
    width = 0.8 / len(lines)
    nan = float("nan")
    for ax, key, title in zip(
        axes,
        ("points_per_visit", "mean_break", "fouls_per_visit"),
        (
            "points per visit (95 % interval)",
            "mean break of the scoring visits",
            "fouls per visit",
        ),
        strict=False,
    ):
        for j, (name, label, figures) in enumerate(lines):
            ys = [nan if f[key] is None else f[key] for f in figures]
            colour = COLOURS.get(name, "#1f4e9e")
            errors = None
            if key == "points_per_visit":
                ci = [f["points_per_visit_ci95"] or [nan, nan] for f in figures]
                errors = _errors([c[0] for c in ci], ys, [c[1] for c in ci])
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
        _sweep_axis(ax, spec, slots, values)
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
    # the first player's win rate, with Wilson's interval
    ax = axes[3]
    rates = [
        nan if v["players"]["p1"]["win_rate"] is None else v["players"]["p1"]["win_rate"]
        for v in rows
    ]
    ci = [v["players"]["p1"]["win_rate_ci95"] or [nan, nan] for v in rows]
    errors = _errors([c[0] for c in ci], rates, [c[1] for c in ci])
    where = slots if spec.categorical else values
    ax.errorbar(
        where,
        rates,
        yerr=errors,
        marker="o",
        linestyle="none" if spec.categorical else "-",
        color=COLOURS["p1"],
        capsize=3,
    )
    ax.axhline(0.5, color="#555", linestyle=":", linewidth=1)
    _sweep_axis(ax, spec, slots, values)
    ax.set_ylim(0, 1)
    ax.set_title("player 1's win rate (95 % Wilson interval)", fontsize=10)
    axes[0].legend(fontsize=8)
    fig.suptitle(
        f"Sweep of the {param_words(spec.param)}: {spec.games} games to {spec.target} points "
        "at each value, game k of every value from the same seed",
        fontsize=11,
    )
    return save(fig, folder, "sweep")


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
    ax.set_xlabel(param_words(spec.param))
    ax.set_ylabel("break of a scoring visit (points)")
    ax.set_title(
        f"Breaks at each {param_words(spec.param)}\n(box: quartiles, line: median, triangle: mean)",
        fontsize=10,
    )
    ax.grid(axis="y", alpha=0.3)
    return save(fig, folder, "sweep-breaks")


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


def _what(spec: ShotsSpec) -> tuple[str, str]:
    """The shot in words ("Pots of the red into the top right pocket") and the ball whose
    place the map shows ("red")."""
    shot = "Pots of the red" if spec.shot.value == "pot" else "In-offs off the red"
    moving = "red" if spec.vary is Vary.OBJECT else "cue ball"
    return f"{shot} into {pocket_words(spec.pocket)}", moving


def plot_success_map(spec: ShotsSpec, positions: pd.DataFrame, folder: Path) -> str:
    """The probability of success at each position, on the table."""
    fig = _figure(5.2, 8.6)
    ax = fig.add_subplot()
    draw_table(ax)
    ok = positions[positions["feasible"]]
    values = {(int(r.ix), int(r.iy)): float(r.p_success) for r in ok.itertuples()}
    image = _cells(ax, spec, values, "viridis")
    _balls(ax, spec)
    fig.colorbar(image, ax=ax, shrink=0.6, label="share of the strokes that score the shot")
    shot, moving = _what(spec)
    ax.set_title(
        f"{shot}:\nthe success rate at each place of the {moving}\n"
        f"{player_words(spec.player)}, {spec.samples} strokes at {spec.speed:g} m/s a place\n"
        "(hatched: no stroke scores it from there; ringed: the pocket)",
        fontsize=9,
    )
    return save(fig, folder, "shots-map")


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
        ax.set_title(outcome_words(label) if label else "no strokes", fontsize=9)
    if image is not None:
        fig.colorbar(image, ax=list(axes), shrink=0.7, label="share of the strokes")
    shot, moving = _what(spec)
    fig.suptitle(
        f"{shot}:\nhow often each outcome came, at each place of the {moving}", fontsize=10
    )
    return save(fig, folder, "shots-outcomes")


# --- the page -----------------------------------------------------------------------------


def _rate(figures: dict[str, Any]) -> str:
    rate, ci = figures["win_rate"], figures["win_rate_ci95"]
    if rate is None:
        return "–"
    return f"{figures['wins']} of {figures['games']}: {rate:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]"


def _ppv(figures: dict[str, Any]) -> str:
    ppv, se = figures["points_per_visit"], figures["points_per_visit_se"]
    if ppv is None:
        return "–"
    if se is None:
        return f"{ppv:.2f}"
    low, high = figures["points_per_visit_ci95"]
    return f"{ppv:.2f} ± {se:.2f} [{low:.2f}, {high:.2f}]"


def figures_table(spec: Spec, summary: dict[str, Any]) -> str:
    """The page's table of the main figures with their intervals (empty for shots: the
    positions' intervals are in ``positions.parquet``)."""
    head = (
        "<tr><th>{}</th><th>player</th><th>games won: rate [95 % Wilson interval]</th>"
        "<th>points per visit ± s.e. [95 % interval] (games as clusters)</th>"
        "<th>visits</th></tr>"
    )
    rows: list[str] = []

    def row(first: str, who: str, figures: dict[str, Any], rate: bool = True) -> None:
        cells = (first, who, _rate(figures) if rate else "", _ppv(figures), str(figures["visits"]))
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")

    if isinstance(spec, GamesSpec):
        for n in NAMES:
            row("", f"player {n[1]} ({player_words(getattr(spec, n))})", summary["players"][n])
        first = {
            "wins": summary["first_player_wins"],
            "games": summary["games"],
            "win_rate": summary["first_player_win_rate"],
            "win_rate_ci95": summary["first_player_win_rate_ci95"],
        }
        rows.append(
            f"<tr><td></td><td>whoever played first</td><td>{html.escape(_rate(first))}</td>"
            "<td></td><td></td></tr>"
        )
        return "<table>" + head.format("") + "".join(rows) + "</table>"
    if isinstance(spec, SweepSpec):
        for v in summary["values"]:
            value = value_label(v["value"])
            for n in NAMES:
                who = spec.players_at(spec.values[0])[n].split(",")[0]
                row(value, f"player {n[1]} ({player_words(who)})", v["players"][n])
            row(value, "both", v["both"], rate=False)
        return (
            "<table>"
            + head.format(html.escape(param_words(spec.param)))
            + "".join(rows)
            + "</table>"
        )
    return ""


def write_report(
    spec: Spec, tables: dict[str, pd.DataFrame], summary: dict[str, Any], folder: Path
) -> Path:
    """Draw the plots into ``folder`` (each as PNG, SVG and PDF) and write
    ``folder/index.html``; return the page."""
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
    title = f"onered study: {spec.kind.value}"
    body = "\n".join(
        f'<figure><img src="{html.escape(name)}" alt="{html.escape(name)}">'
        "<figcaption>"
        + ", ".join(
            f'<a href="{html.escape(name[: -len(".png")])}.{fmt}">{fmt.upper()}</a>'
            for fmt in FORMATS
        )
        + "</figcaption></figure>"
        for name in images
    )
    page = folder / "index.html"
    page.write_text(
        f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:1200px;margin:2em auto}}img{{max-width:100%}}
pre{{background:#f4f4f4;padding:1em;overflow:auto;font-size:12px}}
table{{border-collapse:collapse;font-size:14px}}td,th{{border:1px solid #ccc;padding:4px 8px}}
</style></head>
<body><h1>{title}</h1>
<p>Tables: {", ".join(f"<code>{t}.parquet</code>" for t in tables)} in the study's folder.</p>
{figures_table(spec, summary)}
{body}
<h2>Summary</h2><pre>{html.escape(json.dumps(summary, indent=2))}</pre>
</body></html>
""",
        encoding="utf-8",
    )
    return page
