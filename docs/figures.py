"""Draw ``docs/table-pockets.svg``: close-ups of a corner and a middle pocket for
``docs/table.md``.

Each panel shows the cushion nose lines, the jaw facings, the knuckles, the fall circle, the
region where a ball's centre may rest (shaded: sampled from ``onered.physics.check_position``
itself, the one definition, on a 0.4 mm grid) and balls the engine left at rest in the
jaws. Run ``python docs/figures.py`` (writes the SVG; ``--png`` also renders a PNG with
headless chromium through Playwright, to look at it).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable
from pathlib import Path

from onered.physics import PhysicsInputError, TableSpec, check_position
from onered.physics.geometry import Knuckle, Line, PocketShape, TableGeometry
from onered.table import BALL_RADIUS, LENGTH

Point = tuple[float, float]
HERE = Path(__file__).resolve().parent
SCALE = 2400.0  # pixels per metre
GRID = 0.0004  # metres between the samples of the shaded region
PANEL = 0.23  # metres shown across a panel
MARGIN = 40.0  # pixels around each panel (titles)

#: Rest positions the engine produced (centres), drawn as example balls.
CORNER_BALLS: dict[str, Point] = {
    # a 150-stroke AI game on the earlier pockets, stroke 135 (still a rest position now)
    "white": (0.020946637027962074, 0.03416415745026629),
}
MIDDLE_BALLS: dict[str, Point] = {
    # a red rolled from (0.5, 2.2) at 0.4 m/s towards the middle of the pocket's mouth
    "red": (0.007773998779359914, 1.790960192985648),
}
COLOURS = {"white": "#f4f4ee", "yellow": "#f2c200", "red": "#c62828"}


class Panel:
    """One close-up: the table window ``x0..x0+PANEL``, ``y0..y0+PANEL`` placed at pixel
    ``left``, ``top`` (the table's y grows upwards, the picture's downwards)."""

    def __init__(self, x0: float, y0: float, left: float, top: float) -> None:
        self.x0, self.y0, self.left, self.top = x0, y0, left, top

    def px(self, p: Point) -> tuple[float, float]:
        return (
            self.left + (p[0] - self.x0) * SCALE,
            self.top + (self.y0 + PANEL - p[1]) * SCALE,
        )

    def pts(self, points: Iterable[Point]) -> str:
        return " ".join(f"{x:.2f},{y:.2f}" for x, y in map(self.px, points))

    @property
    def size(self) -> float:
        return PANEL * SCALE


def _may_rest(p: Point) -> bool:
    try:
        check_position({"ball": p})
    except PhysicsInputError:
        return False
    return True


def _shaded(panel: Panel) -> list[str]:
    """Rectangles covering the sampled region where a ball's centre may rest: one per run
    of accepted samples along a row."""
    out = []
    n = round(PANEL / GRID)
    for j in range(n):
        y = panel.y0 + (j + 0.5) * GRID
        start: int | None = None
        for i in range(n + 1):
            ok = i < n and _may_rest((panel.x0 + (i + 0.5) * GRID, y))
            if ok and start is None:
                start = i
            elif not ok and start is not None:
                x, top = panel.px((panel.x0 + start * GRID, y + GRID / 2))
                width = (i - start) * GRID * SCALE
                out.append(
                    f'<rect x="{x:.2f}" y="{top:.2f}" width="{width:.2f}" '
                    f'height="{GRID * SCALE:.2f}"/>'
                )
                start = None
    return out


def _line(panel: Panel, line: Line, cls: str) -> str:
    (x1, y1), (x2, y2) = panel.px(line.start), panel.px(line.end)
    return f'<line class="{cls}" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}"/>'


def _knuckle(panel: Panel, k: Knuckle) -> list[str]:
    """The knuckle's whole circle (faint) and its exposed arc, nose to facing (bold)."""
    cx, cy = panel.px(k.centre)
    a0 = math.atan2(k.start[1] - k.centre[1], k.start[0] - k.centre[0])
    a1 = math.atan2(k.end[1] - k.centre[1], k.end[0] - k.centre[0])
    sweep = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    arc = [
        (
            k.centre[0] + k.radius * math.cos(a0 + sweep * s / 24),
            k.centre[1] + k.radius * math.sin(a0 + sweep * s / 24),
        )
        for s in range(25)
    ]
    return [
        f'<circle class="knuckle-circle" cx="{cx:.2f}" cy="{cy:.2f}" r="{k.radius * SCALE:.2f}"/>',
        f'<polyline class="knuckle" points="{panel.pts(arc)}"/>',
    ]


def _ball(panel: Panel, name: str, p: Point) -> list[str]:
    cx, cy = panel.px(p)
    return [
        f'<circle class="ball" cx="{cx:.2f}" cy="{cy:.2f}" r="{BALL_RADIUS * SCALE:.2f}" '
        f'fill="{COLOURS[name]}"/>',
        f'<circle class="centre" cx="{cx:.2f}" cy="{cy:.2f}" r="3"/>',
    ]


def _label(panel: Panel, p: Point, text: str, anchor: str = "start") -> str:
    x, y = panel.px(p)
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}">{text}</text>'


def _panel(
    panel: Panel,
    geometry: TableGeometry,
    pocket: PocketShape,
    balls: dict[str, Point],
    title: str,
    labels: list[tuple[Point, str, str]],
) -> list[str]:
    clip = f"clip-{pocket.name}"
    corners = [
        (panel.x0, panel.y0),
        (panel.x0 + PANEL, panel.y0),
        (panel.x0 + PANEL, panel.y0 + PANEL),
        (panel.x0, panel.y0 + PANEL),
    ]
    out = [
        f'<clipPath id="{clip}"><polygon points="{panel.pts(corners)}"/></clipPath>',
        f'<text class="title" x="{panel.left:.1f}" y="{panel.top - 12:.1f}">{title}</text>',
        f'<g clip-path="url(#{clip})">',
        f'<polygon class="cushion" points="{panel.pts(corners)}"/>',
        f'<polygon class="bed" points="{panel.pts(geometry.outline)}"/>',
        f'<circle class="fall" cx="{panel.px(pocket.fall_centre)[0]:.2f}" '
        f'cy="{panel.px(pocket.fall_centre)[1]:.2f}" r="{pocket.fall_radius * SCALE:.2f}"/>',
        '<g class="rest" shape-rendering="crispEdges">',
        *_shaded(panel),
        "</g>",
    ]
    for cushion in geometry.cushions:
        out.append(_line(panel, cushion, "nose"))
    for facing in pocket.facings:
        out.append(_line(panel, facing, "facing"))
    for knuckle in pocket.knuckles:
        out += _knuckle(panel, knuckle)
    for a, b in (
        ((BALL_RADIUS, panel.y0), (BALL_RADIUS, panel.y0 + PANEL)),
        ((panel.x0, BALL_RADIUS), (panel.x0 + PANEL, BALL_RADIUS)),
    ):
        (x1, y1), (x2, y2) = panel.px(a), panel.px(b)
        out.append(f'<line class="old" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}"/>')
    fx, fy = panel.px(pocket.fall_centre)
    out.append(f'<circle class="centre" cx="{fx:.2f}" cy="{fy:.2f}" r="2.5"/>')
    for name, p in balls.items():
        out += _ball(panel, name, p)
    out.append("</g>")
    out.append(f'<polygon class="frame" points="{panel.pts(corners)}"/>')
    out += [_label(panel, p, text, anchor) for p, text, anchor in labels]
    return out


STYLE = """
text { font: 15px sans-serif; fill: #222; }
text.title { font-weight: bold; font-size: 17px; }
.cushion { fill: #6d4c35; }
.bed { fill: #cfe6cf; }
.rest { fill: #2e7d32; fill-opacity: 0.45; }
.fall { fill: #222; fill-opacity: 0.55; stroke: #000; stroke-width: 1.5; stroke-dasharray: 6 4; }
.nose { stroke: #0d47a1; stroke-width: 3; }
.facing { stroke: #c62828; stroke-width: 3; }
.knuckle { fill: none; stroke: #ef6c00; stroke-width: 4; }
.knuckle-circle { fill: none; stroke: #ef6c00; stroke-width: 1; stroke-dasharray: 3 3; }
.ball { stroke: #000; stroke-width: 1.5; fill-opacity: 0.85; }
.centre { fill: #000; }
.old { stroke: #555; stroke-width: 1.5; stroke-dasharray: 2 5; }
.frame { fill: none; stroke: #444; stroke-width: 1; }
.key rect, .key line { stroke-width: 3; }
"""


def _key(left: float, top: float) -> list[str]:
    """The legend, one line per drawn element."""
    rows = [
        ('<line x1="0" y1="-5" x2="26" y2="-5" stroke="#0d47a1"/>', "cushion nose line"),
        ('<line x1="0" y1="-5" x2="26" y2="-5" stroke="#c62828"/>', "jaw facing"),
        ('<line x1="0" y1="-5" x2="26" y2="-5" stroke="#ef6c00"/>', "knuckle (exposed arc)"),
        ('<circle class="fall" cx="13" cy="-5" r="9"/>', "fall circle: a centre inside is potted"),
        (
            '<rect x="0" y="-14" width="26" height="18" fill="#2e7d32" fill-opacity="0.45"/>',
            "where a ball's centre may rest (check_position)",
        ),
        (
            '<rect x="0" y="-14" width="26" height="18" fill="#cfe6cf"/>',
            "bed where a centre may not rest: the ball would overlap a cushion or jaw",
        ),
        (
            '<rect x="0" y="-14" width="26" height="18" fill="#6d4c35"/>',
            "cushion and pocket (no ball centre)",
        ),
        (
            '<circle class="ball" cx="13" cy="-5" r="9" fill="#f4f4ee"/>',
            "a ball the engine left at rest",
        ),
        (
            '<line class="old" x1="0" y1="-5" x2="26" y2="-5"/>',
            "x = R, y = R: the old rectangle test refused centres beyond these",
        ),
    ]
    out = [f'<g class="key" transform="translate({left:.1f},{top:.1f})">']
    for k, (mark, text) in enumerate(rows):
        out.append(
            f'<g transform="translate(0,{k * 26})">{mark}<text x="36" y="0">{text}</text></g>'
        )
    out.append("</g>")
    return out


def draw() -> str:
    """The whole picture as SVG text."""
    geometry = TableSpec().geometry()
    by_name = {p.name: p for p in geometry.pockets}
    size = PANEL * SCALE
    corner = Panel(-0.1, -0.1, MARGIN, MARGIN + 10)
    middle = Panel(-0.1, LENGTH / 2 - PANEL / 2, 2 * MARGIN + size, MARGIN + 10)
    width = 3 * MARGIN + 2 * size
    height = MARGIN + 10 + size + 270
    r = BALL_RADIUS
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}">',
        f"<style>{STYLE}</style>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fff"/>',
        *_panel(
            corner,
            geometry,
            by_name["bottom_left"],
            CORNER_BALLS,
            "Bottom-left corner pocket (x right, y up; 1 cm grid ticks)",
            [
                ((0.075, 0.11), "centres may rest here", "start"),
                ((-0.095, 0.085), "left cushion", "start"),
                (
                    (0.045, 0.047),
                    f"white ({CORNER_BALLS['white'][0]:.4f}, {CORNER_BALLS['white'][1]:.4f})",
                    "start",
                ),
            ],
        ),
        *_panel(
            middle,
            geometry,
            by_name["middle_left"],
            MIDDLE_BALLS,
            "Middle-left pocket",
            [
                ((-0.095, LENGTH / 2 + 0.1), "left cushion", "start"),
                (
                    (0.055, MIDDLE_BALLS["red"][1] - 0.03),
                    f"red ({MIDDLE_BALLS['red'][0]:.4f}, {MIDDLE_BALLS['red'][1]:.4f})",
                    "start",
                ),
                ((0.075, LENGTH / 2 + 0.09), f"R = {r * 1000:.2f} mm", "start"),
            ],
        ),
        *_ticks(corner),
        *_ticks(middle),
        *_key(MARGIN, MARGIN + 10 + size + 40),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _ticks(panel: Panel) -> list[str]:
    """Centimetre ticks along the panel's bottom and left edges, with the cushion lines'
    coordinate (x = 0, or y = 0) marked."""
    out = []
    for k in range(round(PANEL * 100) + 1):
        x = math.ceil(panel.x0 * 100) / 100 + k / 100
        if x <= panel.x0 + PANEL:
            px, py = panel.px((x, panel.y0))
            out.append(
                f'<line x1="{px:.1f}" y1="{py:.1f}" x2="{px:.1f}" y2="{py + 6:.1f}" stroke="#444"/>'
            )
        y = math.ceil(panel.y0 * 100) / 100 + k / 100
        if y <= panel.y0 + PANEL:
            px, py = panel.px((panel.x0, y))
            out.append(
                f'<line x1="{px - 6:.1f}" y1="{py:.1f}" x2="{px:.1f}" y2="{py:.1f}" stroke="#444"/>'
            )
    return out


def _tick(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#444"/>'


def render_png(svg: Path, png: Path) -> None:
    """Screenshot the SVG with headless chromium (Debian's, never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
            ],
        )
        page = browser.new_page()
        page.goto(svg.as_uri())
        page.locator("svg").screenshot(path=str(png))
        browser.close()


def main(argv: list[str]) -> int:
    svg = HERE / "table-pockets.svg"
    svg.write_text(draw(), encoding="utf-8")
    print(f"wrote {svg}")
    if "--png" in argv:
        png = HERE / "table-pockets.png"
        render_png(svg, png)
        print(f"wrote {png}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
