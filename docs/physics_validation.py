"""Draw the figures of ``docs/physics-validation.md`` into ``docs/validation/*.png``.

Every number comes from ``onered.physics.validation`` (the engine's measurements, the
Mathavan reference and the closed forms: the same functions the tests hold to tolerances)
and from the stored reference data in ``docs/data/``: pooltool 0.3.3's numbers
(``pooltool-0.3.3.json``, made by ``docs/pooltool_reference.py``), a digitization of
Mathavan et al. (2010) Fig. 7a (``mathavan2010-fig7a.csv``) and Alciatore's effective pocket
sizes (``alciatore-pockets.csv``). "onered after" is the engine with its defaults,
"onered before" the engine with the defaults it had before the real table
(``LEGACY_DEFAULTS`` and ``LEGACY_TABLE``).

Run from the repository root with the project's environment (matplotlib is in the
``study`` and ``test`` extras):

    .venv/bin/python docs/physics_validation.py           # every figure
    .venv/bin/python docs/physics_validation.py flight    # only balls in the air

It prints the numbers the page quotes and the time it took (about ten seconds).
"""

from __future__ import annotations

import csv
import json
import math
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from onered.physics import Params, TableSpec
from onered.physics import validation as val

HERE = Path(__file__).resolve().parent
OUT = HERE / "validation"
DATA = HERE / "data"
DPI = 130

AFTER = Params()
BEFORE, BEFORE_TABLE = val.legacy()
POOLTOOL: dict[str, Any] = json.loads((DATA / "pooltool-0.3.3.json").read_text())

#: The cushion cases: title, topspin k, side s (module conventions), pooltool's case name.
CASES = [
    ("rolling (k = 1)", 1.0, 0.0, "rolling"),
    ("stun (k = 0)", 0.0, 0.0, "stun"),
    ("backspin (k = -1)", -1.0, 0.0, "backspin"),
    ("topspin x2 (k = 2)", 2.0, 0.0, "topspin2"),
    ("rolling, running side (s = +1)", 1.0, 1.0, "running_side"),
    ("rolling, check side (s = -1)", 1.0, -1.0, "check_side"),
]
INCIDENCES = list(range(5, 91, 5))

COLOURS = {
    "after": "#1f5fbf",
    "before": "#e07b00",
    "reference": "black",
    "pooltool": "#2a9d3a",
    "pooltool_issue": "#8fcf98",
    "published": "#b0002a",
    "closed": "#555555",
}
SOURCE_MATHAVAN = "Mathavan, Jackson & Parkin (2010), Proc. IMechE C 224(9) 1863-1873"


def _save(fig: Figure, name: str, source: str) -> None:
    width = int(fig.get_size_inches()[0] * 14.5)
    fig.text(
        0.005,
        0.005,
        textwrap.fill("Sources: " + source, width),
        fontsize=7.5,
        color="#444444",
        va="bottom",
    )
    OUT.mkdir(exist_ok=True)
    fig.savefig(OUT / name, dpi=DPI)
    plt.close(fig)
    print(f"wrote {OUT / name}")


def _pooltool_grid(block: str, case: str) -> list[dict[str, Any]]:
    grid: list[dict[str, Any]] = POOLTOOL[block]["A_cushion"]["cases"][case]["grid"]
    return grid


# ------------------------------------------------------------------ cushions


def cushion_data() -> dict[str, Any]:
    """Every cushion curve: for each case, per incidence, onered after / before and the
    Mathavan reference."""
    out: dict[str, Any] = {}
    for title, k, s, _ in CASES:
        rows = []
        for alpha in INCIDENCES:
            rows.append(
                {
                    "alpha": alpha,
                    "after": val.cushion_rebound(alpha, 1.0, k, s),
                    "before": val.cushion_rebound(alpha, 1.0, k, s, BEFORE, BEFORE_TABLE),
                    "reference": val.mathavan_reference(alpha, 1.0, k, s),
                }
            )
        out[title] = rows
    return out


def _tolerance_band(ax: Axes, rows: list[dict[str, Any]], field: str, tol: float) -> None:
    xs = [r["alpha"] for r in rows if 15 <= r["alpha"] <= 75]
    ref = [getattr(r["reference"], field) for r in rows if 15 <= r["alpha"] <= 75]
    ax.fill_between(
        xs,
        [y - tol for y in ref],
        [y + tol for y in ref],
        color="#cccccc",
        alpha=0.5,
        lw=0,
        label=f"test tolerance (+-{tol:g})",
    )


def draw_cushion(data: dict[str, Any], field: str, name: str) -> None:
    """Rebound angle (``field`` = ``angle`` or ``rolling_angle``) or speed ratio against
    incidence, one panel a case."""
    fig, axes = plt.subplots(2, 3, figsize=(14, 8.6), sharex=True)
    angle = field != "speed_ratio"
    pool_field = {
        "angle": "rebound_angle_from_cushion",
        "speed_ratio": "speed_ratio",
        "rolling_angle": "angle_from_cushion",
    }[field]
    for ax, (title, _, _, case) in zip(axes.flat, CASES, strict=True):
        rows = data[title]
        if field != "rolling_angle":
            _tolerance_band(ax, rows, field, 2.0 if angle else 0.03)
        xs = [r["alpha"] for r in rows]

        def series(key: str, rows: list[dict[str, Any]] = rows) -> list[float]:
            return [
                math.nan if getattr(r[key], field) is None else getattr(r[key], field) for r in rows
            ]

        ax.plot(xs, series("reference"), "k--", lw=1.6, label="Mathavan 2010 model (reference)")
        ax.plot(
            xs, series("after"), "-o", color=COLOURS["after"], ms=3.5, lw=1.6, label="onered after"
        )
        ax.plot(
            xs,
            series("before"),
            "-s",
            color=COLOURS["before"],
            ms=3,
            lw=1.1,
            label="onered before (Han 2005, e 0.85)",
        )
        for block, colour, label in (
            ("matched", COLOURS["pooltool"], "pooltool 0.3.3, same parameters"),
            ("issue", COLOURS["pooltool_issue"], "pooltool 0.3.3, old parameters"),
        ):
            grid = _pooltool_grid(block, case)
            if field == "rolling_angle":
                pts = [
                    (g["alpha"], g["after_slide"]["angle_from_cushion"])
                    for g in grid
                    if "angle_from_cushion" in g["after_slide"]
                    and g["after_slide"]["angle_from_cushion"] > 0
                ]
            else:
                pts = [(g["alpha"], g[pool_field]) for g in grid]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "^", color=colour, ms=4, label=label)
        if angle:
            ax.plot([0, 90], [0, 90], ":", color="#999999", lw=1, label="mirror (angle in = out)")
            ax.set_ylim(0, 120)
        else:
            ax.set_ylim(0.35, 1.1)
        ax.set_title(title, fontsize=11)
        ax.grid(alpha=0.3)
        ax.set_xlim(0, 92)
    for ax in axes[1]:
        ax.set_xlabel("incidence, degrees from the cushion line (90 = square on)")
    ylabel = {
        "angle": "rebound angle just after impact, deg from cushion",
        "rolling_angle": "angle once rolling again, deg from cushion",
        "speed_ratio": "rebound speed / incident speed",
    }[field]
    fig.supylabel(ylabel)
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="upper center",
        ncol=4,
        fontsize=9,
        frameon=False,
        bbox_to_anchor=(0.5, 0.955),
    )
    what = {
        "angle": "Cushion rebound angle just after the impact",
        "rolling_angle": "Cushion rebound: the direction once the cloth makes the ball roll again",
        "speed_ratio": "Cushion rebound speed ratio just after the impact",
    }[field]
    fig.suptitle(f"{what}, ball at 1 m/s", y=0.99, fontsize=13)
    fig.tight_layout(rect=(0, 0.04, 1, 0.91))
    _save(
        fig,
        name,
        f"reference: {SOURCE_MATHAVAN} (our implementation of its equations, 5,000 steps "
        "a phase); pooltool 0.3.3 (Han 2005 cushion, docs/data/pooltool-0.3.3.json). "
        "Side s: R w_z = s v, + running, - check; topspin k: R w = k v.",
    )


def draw_square_on() -> dict[str, Any]:
    speeds = [0.2 + 0.05 * i for i in range(69)]
    after = [val.cushion_rebound(90, v).speed_ratio for v in speeds]
    before = [
        val.cushion_rebound(90, v, params=BEFORE, table=BEFORE_TABLE).speed_ratio for v in speeds
    ]
    model = val.mathavan_reference(90, 1.0, steps=5000).speed_ratio  # the paper's constant e
    fig, ax = plt.subplots(figsize=(10, 6.2))
    for k, (lo, hi, rlo, rhi) in enumerate(val.MEASURED_SQUARE_ON_BANDS):
        ax.fill_between(
            [lo, hi],
            [rlo, rlo],
            [rhi, rhi],
            color=COLOURS["published"],
            alpha=0.12,
            lw=0,
            label="measured band (tests)" if k == 0 else None,
        )
    with (DATA / "mathavan2010-fig7a.csv").open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    for split, marker, label in (
        ("0", "o", "Fig. 7a, digitized"),
        ("1", "o", "Fig. 7a, digitized (overlapping markers split)"),
    ):
        pts = [
            (float(r["v_in"]), float(r["v_out"]) / float(r["v_in"]))
            for r in rows
            if r["split"] == split
        ]
        ax.plot(
            [p[0] for p in pts],
            [p[1] for p in pts],
            marker,
            ms=6,
            mfc=COLOURS["published"] if split == "0" else "none",
            mec=COLOURS["published"],
            ls="none",
            label=label,
        )
    fit_x = [0.28 + 0.02 * i for i in range(162)]
    fit = [(-0.0877 * x * x + 1.131 * x - 0.0953) / x for x in fit_x]
    ax.plot(
        fit_x,
        fit,
        ":",
        color=COLOURS["published"],
        lw=1.5,
        label="Mathavan 2009 quadratic fit to the same shots",
    )
    ax.plot(speeds, after, "-", color=COLOURS["after"], lw=2.2, label="onered after")
    ax.axhline(
        model,
        color="black",
        ls="--",
        lw=1.3,
        label=f"Mathavan 2010 model, e = 0.98 at every speed ({model:.3f})",
    )
    ax.plot(
        speeds,
        before,
        "-",
        color=COLOURS["before"],
        lw=1.6,
        label="onered before (Han 2005, e 0.85)",
    )
    for block, colour, label in (
        ("matched", COLOURS["pooltool"], "pooltool 0.3.3, same parameters"),
        ("issue", COLOURS["pooltool_issue"], "pooltool 0.3.3, old parameters"),
    ):
        pts = POOLTOOL[block]["A_cushion"]["square_on_rolling_vs_speed"]
        ax.plot(
            [p["v_in"] for p in pts],
            [p["speed_ratio"] for p in pts],
            "^-",
            color=colour,
            ms=5,
            lw=0.8,
            label=label,
        )
    ax.set_xlabel("incident speed, m/s (rolling ball, square on)")
    ax.set_ylabel("rebound speed / incident speed")
    ax.set_title("A rolling ball square onto a cushion: rebound against speed")
    ax.set_xlim(0, 3.7)
    ax.set_ylim(0.6, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8.5, loc="lower left", ncol=2)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "cushion-square-on.png",
        f"{SOURCE_MATHAVAN}, Fig. 7a (p. 1870; our digitization, "
        "docs/data/mathavan2010-fig7a.csv); Mathavan et al. (2009), Am. J. Phys. 77(9), "
        "Fig. 9 fit (p. 791); pooltool 0.3.3.",
    )
    slow = [r for v, r in zip(speeds, after, strict=True) if 0.26 <= v <= 2.3]
    fast = [r for v, r in zip(speeds, after, strict=True) if 2.7 <= v <= 3.4]
    return {
        "slow": (min(slow), max(slow)),
        "fast": (min(fast), max(fast)),
        "before": before[len(before) // 2],
        "model": model,
    }


# ------------------------------------------------------------------ slide and roll


def draw_slide_roll() -> None:
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.4))
    times = [0.005 * i for i in range(101)]
    lo, hi = val.MEASURED_SLIDING_RANGE
    for k, v0 in enumerate((1.0, 2.0, 3.0)):
        prof = val.run_profile(v0, 0.0, times)
        left.plot(
            times[::4],
            [p[1] for p in prof][::4],
            "o",
            color=COLOURS["after"],
            ms=3.5,
            label="onered after" if k == 0 else None,
        )

        def closed(a_s: float, v0: float = v0) -> list[float]:
            t_s = 2 * v0 / (7 * a_s)
            return [
                v0 - a_s * t if t < t_s else 5 * v0 / 7 - val.MEASURED_ROLLING * (t - t_s)
                for t in times
            ]

        left.plot(
            times,
            closed(val.MEASURED_SLIDING),
            "-",
            color=COLOURS["published"],
            lw=1.2,
            label="closed form, measured 2.075 m/s^2" if k == 0 else None,
        )
        left.fill_between(
            times,
            closed(lo),
            closed(hi),
            color=COLOURS["published"],
            alpha=0.12,
            lw=0,
            label="measured range 1.75-2.40 m/s^2" if k == 0 else None,
        )
        before = val.run_profile(v0, 0.0, times, BEFORE)
        left.plot(
            times,
            [p[1] for p in before],
            "--",
            color=COLOURS["before"],
            lw=1.1,
            label="onered before (mu_s 0.2)" if k == 0 else None,
        )
        left.annotate(f"stun at {v0:g} m/s", (0.5, 5 * v0 / 7 + 0.06), fontsize=9, ha="right")
    left.set_xlabel("time, s")
    left.set_ylabel("speed, m/s")
    left.set_title("Stun ball: sliding, then rolling at 5/7 of the speed")
    left.grid(alpha=0.3)
    left.legend(fontsize=8.5)

    t_end = 10.5
    times = [t_end * i / 200 for i in range(201)]
    after = val.run_profile(1.0, 1.0, times)
    before = val.run_profile(1.0, 1.0, times, BEFORE)
    right.plot(
        times[::8],
        [p[0] for p in after][::8],
        "o",
        color=COLOURS["after"],
        ms=3.5,
        label=f"onered after (rests at {val.slide_and_roll(1.0, 1.0).distance_to_rest:.2f} m)",
    )

    def roll(a: float) -> list[float]:
        return [(t - 0.5 * a * t * t) if t < 1 / a else 0.5 / a for t in times]

    right.plot(
        times,
        roll(val.MEASURED_ROLLING),
        "-",
        color=COLOURS["published"],
        lw=1.2,
        label="closed form, measured 0.125 m/s^2 (4.00 m)",
    )
    rlo, rhi = val.MEASURED_ROLLING_RANGE
    right.fill_between(
        times,
        roll(rhi),
        roll(rlo),
        color=COLOURS["published"],
        alpha=0.15,
        lw=0,
        label="measured range 0.124-0.126 m/s^2",
    )
    right.plot(
        times,
        [p[0] for p in before],
        "--",
        color=COLOURS["before"],
        lw=1.3,
        label=f"onered before ({val.slide_and_roll(1.0, 1.0, BEFORE).distance_to_rest:.2f} m)",
    )
    for block, colour, label in (
        ("matched", COLOURS["pooltool"], "same parameters"),
        ("issue", COLOURS["pooltool_issue"], "old parameters"),
    ):
        r = POOLTOOL[block]["B_slide_roll"]["rolling_1mps"]
        right.plot(
            [r["time_to_rest"]],
            [r["distance_to_rest"]],
            "^",
            color=colour,
            ms=8,
            label=f"pooltool 0.3.3 rest, {label} ({r['distance_to_rest']:.2f} m)",
        )
    right.set_xlabel("time, s")
    right.set_ylabel("distance, m")
    right.set_title("A ball rolling from 1 m/s: roll-out")
    right.grid(alpha=0.3)
    right.legend(fontsize=8.5, loc="lower right")
    fig.suptitle("Slide and roll on the cloth", fontsize=13)
    fig.tight_layout(rect=(0, 0.03, 1, 0.97))
    _save(
        fig,
        "slide-roll.png",
        "Mathavan, Jackson & Parkin (2009), Am. J. Phys. 77(9) 788-794, p. 790 "
        "(sliding 1.75-2.40 m/s^2, rolling 0.124-0.126 m/s^2, Riley 10 ft table); "
        "pooltool 0.3.3.",
    )


# ------------------------------------------------------------------ ball-ball


def draw_throw() -> float:
    cuts = list(range(0, 61, 5))
    fine = [0.5 * i for i in range(121)]
    fig, ax = plt.subplots(figsize=(10, 6))
    worst = 0.0
    styles = [
        (1.0, 0.0, "#1f5fbf"),
        (3.0, 0.0, "#7fa8e6"),
        (1.0, 1.0, "#b0002a"),
        (3.0, 1.0, "#e88c9e"),
    ]
    for v, k, colour in styles:
        what = "stun" if k == 0 else "rolling"
        ax.plot(
            fine,
            [val.throw_closed_form(c, v, k) for c in fine],
            "-",
            color=colour,
            lw=1.3,
            label=f"{what} {v:g} m/s: Alciatore TP A-14 closed form",
        )
        meas = [val.cut_shot(c, v, k).throw for c in cuts]
        worst = max(
            worst,
            *(abs(m - val.throw_closed_form(c, v, k)) for c, m in zip(cuts, meas, strict=True)),
        )
        ax.plot(cuts, meas, "o", color=colour, ms=5, mfc="none", label=f"{what} {v:g} m/s: onered")
    ax.axhline(
        0,
        color=COLOURS["pooltool"],
        lw=2,
        alpha=0.7,
        label="pooltool 0.3.3: frictionless ball-ball, no throw",
    )
    ax.set_xlabel("cut angle, degrees (0 = full ball)")
    ax.set_ylabel("throw: object ball turned towards the cue ball's path, degrees")
    ax.set_title(
        "Cut-induced throw (ball-ball friction mu = 0.00995 + 0.108 exp(-1.088 v_rel), e_b 0.95)"
    )
    ax.grid(alpha=0.3)
    ax.set_ylim(-0.2, 6.3)
    ax.legend(fontsize=8.5, ncol=2, loc="upper center")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "throw.png",
        "D. G. Alciatore, technical proof TP A-14 (the throw formula and the fit of ball-ball "
        "friction to sliding speed; here with restitution e_b); pooltool 0.3.3.",
    )
    return worst


def draw_rules() -> dict[str, float]:
    cuts = list(range(5, 61, 5))
    fine = [1 + 0.5 * i for i in range(119)]
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.6))
    sep = [val.cut_shot(c, 1.0, 0.0).separation for c in cuts]
    left.plot(
        fine,
        [val.separation_angle_closed_form(c) for c in fine],
        "-",
        color=COLOURS["closed"],
        lw=1.4,
        label="closed form: e_b 0.95 and friction (TP A-14)",
    )
    left.plot(
        fine,
        [val.separation_angle_closed_form(c, friction=False) for c in fine],
        "--",
        color=COLOURS["closed"],
        lw=1.1,
        label="closed form: e_b 0.95, no friction",
    )
    left.axhline(
        90, color=COLOURS["published"], lw=1.2, label="90-degree rule (e = 1, no friction)"
    )
    left.plot(cuts, sep, "o", color=COLOURS["after"], ms=5, label="onered")
    pool = POOLTOOL["matched"]["D_30_90_rules"]["stun_1mps"]
    left.plot(
        [p["cut"] for p in pool],
        [p["separation_angle_deg"] for p in pool],
        "^",
        color=COLOURS["pooltool"],
        ms=5,
        label="pooltool 0.3.3 (e = 1, no friction)",
    )
    left.set_ylim(70, 92)
    left.set_xlabel("cut angle, degrees")
    left.set_ylabel("angle between the balls' paths just after contact, degrees")
    left.set_title("90-degree rule: stun cue ball at 1 m/s")
    left.grid(alpha=0.3)
    left.legend(fontsize=8.5, loc="lower right")

    defl = [val.cut_shot(c, 1.0, 1.0).deflection for c in cuts]
    right.plot(
        fine,
        [val.rolling_deflection_closed_form(c) for c in fine],
        "-",
        color=COLOURS["closed"],
        lw=1.4,
        label="closed form: e_b 0.95 and friction",
    )
    right.plot(
        fine,
        [val.ideal_rolling_deflection(c) for c in fine],
        "--",
        color=COLOURS["published"],
        lw=1.2,
        label="30-degree rule curve (e = 1, no friction; 33.7 at half-ball)",
    )
    right.plot(
        cuts,
        [math.nan if d is None else d for d in defl],
        "o",
        color=COLOURS["after"],
        ms=5,
        label="onered",
    )
    pool = POOLTOOL["matched"]["D_30_90_rules"]["rolling_1mps"]
    right.plot(
        [p["cut"] for p in pool],
        [p["final_deflection_deg"] for p in pool],
        "^",
        color=COLOURS["pooltool"],
        ms=5,
        label="pooltool 0.3.3 (e = 1, no friction)",
    )
    right.axvspan(
        14.48, 48.59, color="#dddddd", alpha=0.5, lw=0, label="quarter- to three-quarter-ball hits"
    )
    right.set_xlabel("cut angle, degrees")
    right.set_ylabel("cue ball's final deflection from its line, degrees")
    right.set_title("30-degree rule: rolling cue ball at 1 m/s")
    right.grid(alpha=0.3)
    right.legend(fontsize=8.5, loc="lower center")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "rules-30-90.png",
        "D. G. Alciatore, The Illustrated Principles of Pool and Billiards (2004) and "
        "'90-degree and 30-degree rule follow-up', Billiards Digest (the rules); TP A-14 "
        "(friction); pooltool 0.3.3.",
    )
    half = val.cut_shot(30.0, 1.0, 1.0).deflection
    return {"sep30": val.cut_shot(30.0, 1.0, 0.0).separation, "defl30": half or math.nan}


def draw_screw() -> None:
    fig, ax = plt.subplots(figsize=(10, 6))
    for v, colour, ks in (
        (1.0, "#1f5fbf", [-0.25 * i for i in range(1, 9)]),
        (2.0, "#b0002a", [-0.25 * i for i in range(1, 7)]),
    ):
        fine = [-0.02 * i for i in range(5, 101 if v == 1 else 76)]
        ax.plot(
            [-k for k in fine],
            [val.screw_back_closed_form(v, k) for k in fine],
            "-",
            color=colour,
            lw=1.3,
            label=f"{v:g} m/s: closed form",
        )
        ax.plot(
            [-k for k in ks],
            [val.screw_back(v, k) for k in ks],
            "o",
            color=colour,
            ms=5,
            mfc="none",
            label=f"{v:g} m/s: onered after",
        )
        ax.plot(
            [-k for k in ks],
            [val.screw_back(v, k, BEFORE) for k in ks],
            "s--",
            color=colour,
            ms=3.5,
            lw=0.8,
            alpha=0.6,
            label=f"{v:g} m/s: onered before",
        )
        pool = [p for p in POOLTOOL["matched"]["E_draw"] if p["v"] == v]
        ax.plot(
            [-p["k"] for p in pool],
            [p["draw_distance"] for p in pool],
            "^",
            color=colour,
            mec=COLOURS["pooltool"],
            mew=1.5,
            ms=7,
            label=f"{v:g} m/s: pooltool 0.3.3, same cloth (e = 1, no friction)",
        )
    ax.set_xlabel("backspin at contact, -k (R w = k v)")
    ax.set_ylabel("screw-back: distance the cue ball comes back, m")
    ax.set_title("Screw-back after a full-ball hit (cue ball's centre at contact to rest)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8.5)
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "screw-back.png",
        "closed form: TP A-14 impulse with e_b 0.95, then the cloth's slide and roll "
        "(Leckie & Greenspan); pooltool 0.3.3.",
    )


# ------------------------------------------------------------------ pockets


def _alciatore() -> dict[str, list[tuple[float, float]]]:
    with (DATA / "alciatore-pockets.csv").open() as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    out: dict[str, list[tuple[float, float]]] = {}
    for key in ("corner_slow", "corner_fast", "side_slow", "side_fast"):
        clean = val.ALCIATORE_MOUTH[key] - 2 * val.ALCIATORE_BALL_RADIUS
        out[key] = [(float(r["theta"]), float(r[key]) / clean) for r in rows if r[key]]
    return out


def draw_pockets() -> dict[str, Any]:
    angles = [2.5 * i for i in range(19)]
    alc = _alciatore()
    fig, axes = plt.subplots(1, 2, figsize=(14, 6.2))
    numbers: dict[str, Any] = {}
    for ax, name, kind, title in (
        (axes[0], "bottom_left", "corner", "Corner pocket"),
        (axes[1], "middle_left", "side", "Middle pocket"),
    ):
        for label, params, table, style in (
            ("after", AFTER, None, "-"),
            ("before", BEFORE, BEFORE_TABLE, "--"),
        ):
            clean = val.mouth_width(name, table) - 2 * params.R
            for speed, colour in ((0.5, "#1f5fbf"), (3.0, "#b0002a")):
                sizes = [
                    val.pocket_window(name, a, speed, params, table).size / clean for a in angles
                ]
                numbers[f"{kind}_{label}_{speed:g}"] = dict(zip(angles, sizes, strict=True))
                ax.plot(
                    angles,
                    sizes,
                    style,
                    color=colour,
                    alpha=1.0 if label == "after" else 0.55,
                    lw=2 if label == "after" else 1.2,
                    marker="o" if label == "after" else None,
                    ms=3,
                    label=f"onered {label}, {'slow' if speed < 1 else 'fast'} "
                    f"({speed:g} m/s at the mouth)",
                )
        for key, colour, label in (
            (f"{kind}_slow", "#1f5fbf", "slow (TP 3.6 corner, 3.5 side)"),
            (f"{kind}_fast", "#b0002a", "fast (TP 3.8 corner, 3.7 side)"),
        ):
            pts = alc[key]
            ax.plot(
                [p[0] for p in pts],
                [p[1] for p in pts],
                ":",
                marker="x",
                color=colour,
                ms=6,
                lw=1.3,
                label=f"Alciatore {label}, pool pocket",
            )
        ax.axhline(1.0, color="#888888", lw=0.8)
        p_after = val.mouth_width(name) * 1000
        facing = AFTER_TABLE_FACINGS[kind]
        ax.text(
            0.01,
            0.985,
            f"onered: mouth {p_after:.0f} mm, {facing}; "
            f"clean window p - 2R = {p_after - 52.5:.1f} mm\n"
            + (
                "Alciatore: pool corner, mouth 116.5 mm, 7-deg facings, ball 57.2 mm"
                if kind == "corner"
                else "Alciatore: pool side, mouth 128.6 mm, 14-deg facings, ball 57.2 mm"
            ),
            transform=ax.transAxes,
            fontsize=8,
            va="top",
            bbox={"fc": "white", "ec": "#cccccc", "alpha": 0.9},
        )
        ax.set_title(f"{title}: effective target size (Alciatore's method)")
        ax.set_xlabel("approach angle, degrees from the pocket's axis")
        ax.set_ylabel("effective target size / (p - 2R)")
        ax.set_xlim(0, 46)
        ax.set_ylim(0, 3.7 if kind == "corner" else 2.4)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=3, fontsize=9, frameon=False)
    fig.tight_layout(rect=(0, 0.03, 1, 0.88))
    _save(
        fig,
        "pocket-size.png",
        "D. G. Alciatore, TP 3.5-3.8 (effective target sizes, pool; "
        "docs/data/alciatore-pockets.csv). onered: offsets that pot for a rolling ball "
        "starting 0.5 m before the mouth; p - 2R scales each curve by its own pocket.",
    )
    return numbers


def _facings(kind: str) -> str:
    """The default pocket's facings and knuckles, as the figure's note says them."""
    spec = TableSpec()
    angle = getattr(spec, f"{kind}_facing_angle")
    knuckle = getattr(spec, f"{kind}_knuckle_radius") * 1000
    return f"{angle:g}-deg facings, {knuckle:g} mm knuckles"


AFTER_TABLE_FACINGS = {"corner": _facings("corner"), "side": _facings("middle")}


def draw_straight_pot() -> dict[str, Any]:
    speeds = [0.3, 0.4, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0]
    fig, ax = plt.subplots(figsize=(10, 6))
    clean = val.clean_window("bottom_left") * 1000
    ax.axhspan(
        -clean,
        clean,
        color="#cccccc",
        alpha=0.5,
        lw=0,
        label=f"clean window between the jaw points, +-{clean:.2f} mm",
    )
    numbers: dict[str, Any] = {}
    for label, params, table, colour in (
        ("after", AFTER, None, COLOURS["after"]),
        ("before", BEFORE, BEFORE_TABLE, COLOURS["before"]),
    ):
        wins = [val.straight_pot_window(v, params, table) for v in speeds]
        numbers[label] = dict(zip(speeds, wins, strict=True))
        ax.plot(
            speeds,
            [w.high * 1000 for w in wins],
            "-o",
            color=colour,
            ms=4,
            label=f"onered {label}: widest offsets that pot",
        )
        ax.plot(speeds, [w.low * 1000 for w in wins], "-o", color=colour, ms=4)
    for key, style in (("corner_slow", "--"), ("corner_fast", ":")):
        half = val.ALCIATORE_STRAIGHT_IN[key] * clean
        ax.axhline(
            half,
            ls=style,
            color=COLOURS["published"],
            lw=1.2,
            label=f"Alciatore {key.split('_')[1]} straight in, scaled: +-{half:.1f} mm",
        )
        ax.axhline(-half, ls=style, color=COLOURS["published"], lw=1.2)
    ax.set_xlabel("speed at the mouth, m/s (rolling)")
    ax.set_ylabel("offset of the ball's path from the pocket's axis, mm")
    ax.set_title("Straight pot along a corner pocket's 45-degree axis from 0.6 m: offsets that pot")
    ax.set_ylim(-36, 36)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8.5, loc="center right")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "straight-pot.png",
        "D. G. Alciatore, TP 3.6 and TP 3.8 (straight-in target size, 1.14 and 1.01 of p - 2R)"
        "; onered: corner mouth 86 mm.",
    )
    return numbers


# ------------------------------------------------------------------ balls in the air

#: The jump strokes of the flight figure: a centre-ball stroke at JUMP_SPEED, elevations.
JUMP_SPEED = 5.0
JUMP_ELEVATIONS = (15.0, 30.0, 45.0, 60.0, 75.0)
#: Mike Roque's practice figure: 45 degrees jumps a ball about 12 in away (pool balls,
#: 2.25 in), scaled to snooker balls by the diameter.
ROQUE_DISTANCE = 12 * 0.0254 * AFTER.R / (1.125 * 0.0254)


def _centre_heights(path: list[Any], t_end: float, n: int = 400) -> tuple[list[float], list[float]]:
    """(distance along +x from the start, height of the centre) along a path up to t_end."""
    xs, zs = [], []
    for i in range(n + 1):
        t = t_end * i / n
        seg = next((s for s in path if s.t0 <= t <= s.t1), path[-1])
        xs.append(seg.at(t)[0] - val.FLIGHT_START[0])
        zs.append(seg.height_at(t) + AFTER.R)
    return xs, zs


def draw_flight() -> dict[str, Any]:
    """Left: the centre's height against distance for jump strokes at several elevations
    (engine paths, closed-form flights as markers), with a ball to jump. Right: the lowest
    elevation that jumps a ball against its distance, at three speeds."""
    fig, (left, right) = plt.subplots(
        2, 1, figsize=(12, 10.5), gridspec_kw={"height_ratios": [1.0, 1.25]}
    )
    colours = ["#1f5fbf", "#2a9d3a", "#b0002a", "#e07b00", "#7b3fbf"]
    r = AFTER.R
    numbers: dict[str, Any] = {"jumps": {}, "minimum": {}}
    for elevation, colour in zip(JUMP_ELEVATIONS, colours, strict=True):
        launch = val.jump_launch(JUMP_SPEED, elevation)
        closed = val.flights_closed_form(launch.v, launch.w, launch.vz, AFTER)
        result = val.jump(JUMP_SPEED, elevation)
        engine = val.flights(list(result.paths["white"]))
        numbers["jumps"][elevation] = (closed[0], engine[0], len(engine))
        t_end = closed[min(2, len(closed) - 1)].t1
        xs, zs = _centre_heights(list(result.paths["white"]), t_end)
        first = closed[0]
        left.plot(
            xs,
            zs,
            "-",
            color=colour,
            lw=1.8,
            label=f"{elevation:g} deg: onered (launch {first.angle:.1f} deg, "
            f"apex {first.apex * 100:.1f} cm, lands at {first.distance:.2f} m)",
        )
        for f in closed[:3]:
            ts = [f.t0 + (f.t1 - f.t0) * k / 8 for k in range(9)]
            px = [f.start[0] - val.FLIGHT_START[0] + math.hypot(*f.v) * (t - f.t0) for t in ts]
            pz = [r + f.vz * (t - f.t0) - 0.5 * AFTER.g * (t - f.t0) ** 2 for t in ts]
            left.plot(px, pz, "o", color=colour, ms=3.2, mfc="none")
    left.plot([], [], "ko", ms=3.2, mfc="none", label="closed form (projectile, slate bounce)")
    d = ROQUE_DISTANCE
    left.add_patch(plt.Circle((d, r), r, color="#cc2222", alpha=0.85))
    left.add_patch(plt.Circle((d, r), 2 * r, fill=False, ls=":", color="#cc2222", lw=1.2))
    left.text(
        d,
        3.3 * r,
        f"where a red {d * 100:.0f} cm ahead stands\n"
        "(strokes drawn without it; dotted: centres 2R apart)",
        ha="center",
        fontsize=8.5,
        color="#aa1111",
        bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 1},
    )
    left.axhline(AFTER.cushion_height, color="#888888", lw=0.9, ls="--")
    left.text(
        1.55,
        AFTER.cushion_height + 0.004,
        "cushion nose height 7R/5",
        fontsize=8,
        ha="right",
        color="#555555",
    )
    left.set_xlim(0, 1.6)
    left.set_ylim(0, 0.36)
    left.set_aspect("equal")
    left.set_xlabel("distance from the start along the stroke, m")
    left.set_ylabel("height of the ball's centre above the slate, m")
    left.set_title(f"Centre-ball jump strokes at {JUMP_SPEED:g} m/s: the first three flights")
    left.grid(alpha=0.3)
    left.legend(fontsize=8.5, loc="upper right", framealpha=0.95)

    distances = [0.06 + 0.02 * k for k in range(23)]
    marks = [0.08, 0.12, 0.16, 0.2, 0.28, 0.36, 0.44, 0.5]
    for speed, colour in ((3.0, "#1f5fbf"), (5.0, "#2a9d3a"), (8.0, "#b0002a")):
        closed_min = [
            val.minimum_elevation(speed, x, AFTER, engine=False, tolerance=1e-3) for x in distances
        ]
        engine_min = [val.minimum_elevation(speed, x, AFTER, tolerance=1e-3) for x in marks]
        numbers["minimum"][speed] = dict(zip(marks, engine_min, strict=True))
        right.plot(
            distances,
            [math.nan if a is None else a for a in closed_min],
            "-",
            color=colour,
            lw=1.5,
            label=f"{speed:g} m/s: closed form",
        )
        right.plot(
            marks,
            [math.nan if a is None else a for a in engine_min],
            "o",
            color=colour,
            ms=5,
            mfc="none",
            label=f"{speed:g} m/s: onered",
        )
    roque = val.minimum_speed(45.0, d, AFTER)
    numbers["roque"] = roque
    right.plot(
        [d],
        [45.0],
        "k*",
        ms=12,
        label=f"practice: 45 deg for a ball 12 in away (pool), scaled: {d:.2f} m "
        f"(onered: from {roque:.2f} m/s)",
    )
    right.axvline(2 * r, color="#888888", lw=0.8)
    right.set_xlim(0.04, 0.52)
    right.set_ylim(0, 80)
    right.set_xlabel(
        "distance to the ball to jump, centre to centre, m (snooker balls, R = 26.25 mm)"
    )
    right.set_ylabel("lowest cue elevation that jumps it, degrees")
    right.set_title("The lowest elevation that jumps a ball (centre-ball stroke)")
    right.grid(alpha=0.3)
    right.legend(fontsize=8, loc="upper right")
    fig.tight_layout(rect=(0, 0.03, 1, 1))
    _save(
        fig,
        "flight-jumps.png",
        f"onered: the slate returns e_table = {AFTER.e_table:g} of the vertical speed "
        f"(pooltool's e_t, after Alciatore's physical properties) with the cloth's friction "
        f"mu_s = {AFTER.mu_s:g}; the cue's vertical part is -v sin(elevation). Practice "
        "figure: M. Roque, Build Your Game (Viking Cues tip of the week, 2017).",
    )
    return numbers


def report_flight(numbers: dict[str, Any]) -> None:
    print(f"\n== jump strokes at {JUMP_SPEED:g} m/s: closed form / engine (first flight)")
    for elevation, (closed, engine, hops) in numbers["jumps"].items():
        print(
            f"{elevation:4.0f} deg  launch {closed.angle:6.2f} / {engine.angle:6.2f} deg"
            f"  apex {closed.apex * 1000:7.2f} / {engine.apex * 1000:7.2f} mm"
            f"  time {closed.t1:.4f} / {engine.t1:.4f} s"
            f"  lands {closed.distance:.4f} / {engine.distance:.4f} m  hops {hops}"
        )
    for speed, row in numbers["minimum"].items():
        print(speed, {x: (None if a is None else round(a, 2)) for x, a in row.items()})
    print(f"45 deg jumps a ball {ROQUE_DISTANCE:.3f} m ahead from {numbers['roque']:.3f} m/s")


# ------------------------------------------------------------------ the page's numbers


def report(
    cushion: dict[str, Any],
    square: dict[str, Any],
    throw_worst: float,
    rules: dict[str, float],
    pockets: dict[str, Any],
    straight: dict[str, Any],
) -> None:
    print("\n== cushion, 1 m/s: after / before / reference (angle deg, ratio)")
    for title, rows in cushion.items():
        for r in rows:
            if r["alpha"] in (15, 30, 45, 60, 75, 90):
                a, b, m = r["after"], r["before"], r["reference"]
                print(
                    f"{title:32s} {r['alpha']:3d}  after {a.angle:6.2f} {a.speed_ratio:.3f}"
                    f"  before {b.angle:6.2f} {b.speed_ratio:.3f}"
                    f"  reference {m.angle:6.2f} {m.speed_ratio:.3f}"
                    f"  rolling after {a.rolling_angle} ref {m.rolling_angle}"
                )
    worst_a = worst_r = 0.0
    for rows in cushion.values():
        for r in rows:
            if 15 <= r["alpha"] <= 75:
                worst_a = max(worst_a, abs(r["after"].angle - r["reference"].angle))
                worst_r = max(worst_r, abs(r["after"].speed_ratio - r["reference"].speed_ratio))
    print(f"worst over 15-75 deg, all six cases: angle {worst_a:.3f} deg, ratio {worst_r:.4f}")
    print(
        f"square on: slow {square['slow']}, fast {square['fast']}, before {square['before']:.3f},"
        f" model {square['model']:.4f}"
    )
    print(f"throw: worst |onered - closed form| {throw_worst:.2e} deg")
    print(f"rules: {rules}")
    for key, sizes in pockets.items():
        print(key, {a: round(s, 3) for a, s in sizes.items() if a % 5 == 0})
    for key, wins in straight.items():
        print(
            "straight",
            key,
            {v: (round(w.low * 1e3, 2), round(w.high * 1e3, 2)) for v, w in wins.items()},
        )


def main() -> int:
    start = time.perf_counter()
    if sys.argv[1:] == ["flight"]:  # only the flight's figure and numbers
        report_flight(draw_flight())
        print(f"\ndone in {time.perf_counter() - start:.1f} s")
        return 0
    cushion = cushion_data()
    draw_cushion(cushion, "angle", "cushion-angle.png")
    draw_cushion(cushion, "speed_ratio", "cushion-speed.png")
    draw_cushion(cushion, "rolling_angle", "cushion-rolling-angle.png")
    square = draw_square_on()
    draw_slide_roll()
    throw_worst = draw_throw()
    rules = draw_rules()
    draw_screw()
    pockets = draw_pockets()
    straight = draw_straight_pot()
    report(cushion, square, throw_worst, rules, pockets, straight)
    report_flight(draw_flight())
    print(f"\ndone in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
