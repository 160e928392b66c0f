"""Draw a simulated shot as an SVG picture: the table to scale, the balls where they started
(faded) and where they came to rest, their paths, and the collisions.

Pure standard library: the document is built as text. The picture is seen from the baulk end
(baulk at the bottom, x to the right), in millimetres, one SVG unit a millimetre. Each
trajectory piece of the engine is a quadratic in time, so it is drawn exactly as a quadratic
Bézier curve: for ``p(t) = p0 + v0 τ + a τ²/2`` on ``[t0, t1]`` (``τ = t − t0``,
``T = t1 − t0``) the control points are ``p0``, ``p0 + v0 T/2`` and ``p(t1)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path

from onered.physics.geometry import Knuckle, TableGeometry, TableSpec
from onered.physics.types import EventKind, Segment, ShotResult, Vec2, position_at
from onered.table import BALL_RADIUS, D_CENTRE, D_RADIUS, SPOT_POINTS

#: Widths drawn around the playing surface (metres): cushion rubber and wooden rail, and the
#: band above the table for the title and below it for the caption.
_CUSHION = 0.045
_RAIL = 0.075
_TITLE_BAND = 0.09
_CAPTION_BAND = 0.07

#: Ball fill, path stroke and outline colours by ball name; unknown names get a grey.
BALL_COLOURS: dict[str, str] = {"white": "#f7f5ee", "yellow": "#f4cf1a", "red": "#c4122f"}
_PATH_COLOURS: dict[str, str] = {"white": "#ffffff", "yellow": "#ffe14d", "red": "#ff6b78"}
_OTHER_COLOUR = "#9aa0a6"
#: Pockets in counter-clockwise order around the table (seen from above, baulk at bottom).
_OUTLINE_ORDER = (
    "bottom_left",
    "bottom_right",
    "middle_right",
    "top_right",
    "top_left",
    "middle_left",
)


class _Frame:
    """Table metres to picture millimetres (y flipped so the top cushion is at the top)."""

    def __init__(self, table: TableSpec) -> None:
        self.left = _RAIL + _CUSHION
        self.top = _TITLE_BAND + _RAIL + _CUSHION
        self.length = table.length
        self.width_mm = (table.width + 2 * (_RAIL + _CUSHION)) * 1000
        self.height_mm = (self.top + table.length + _CUSHION + _RAIL + _CAPTION_BAND) * 1000

    def x(self, x: float) -> str:
        return f"{(self.left + x) * 1000:.1f}"

    def y(self, y: float) -> str:
        return f"{(self.top + self.length - y) * 1000:.1f}"

    def xy(self, p: Vec2) -> str:
        return f"{self.x(p[0])},{self.y(p[1])}"


def _path_data(path: Sequence[Segment], frame: _Frame) -> str:
    """SVG path data for a trajectory: one quadratic Bézier per moving segment."""
    parts: list[str] = []
    last: Vec2 | None = None
    for seg in path:
        span = seg.t1 - seg.t0
        if not (math.isfinite(span) and span > 0) or seg.v0 == (0.0, 0.0) == seg.a:
            continue
        end = seg.at(seg.t1)
        control = (seg.p0[0] + seg.v0[0] * span / 2, seg.p0[1] + seg.v0[1] * span / 2)
        if last is None or math.dist(last, seg.p0) > 1e-4:
            parts.append(f"M{frame.xy(seg.p0)}")
        parts.append(f"Q{frame.xy(control)} {frame.xy(end)}")
        last = end
    return " ".join(parts)


def _arc(knuckle: Knuckle, start: Vec2, end: Vec2, frame: _Frame) -> str:
    """SVG arc command along a knuckle's exposed (minor) arc from ``start`` to ``end``."""
    cx, cy = knuckle.centre
    cross = (start[0] - cx) * (end[1] - cy) - (start[1] - cy) * (end[0] - cx)
    sweep = 1 if cross < 0 else 0  # the picture's y axis points down: orientation flips
    r = f"{knuckle.radius * 1000:.1f}"
    return f"A{r},{r} 0 0 {sweep} {frame.xy(end)}"


def _cloth_outline(geometry: TableGeometry, frame: _Frame) -> str:
    """Path data of the cloth: the cushion noses, rounded knuckles and jaw facings of every
    pocket, counter-clockwise from the bottom-left pocket."""
    by_name = {p.name: p for p in geometry.pockets}
    parts: list[str] = []
    for name in _OUTLINE_ORDER:
        pocket = by_name[name]
        k0, k1 = pocket.knuckles
        f0, f1 = pocket.facings
        parts += [
            f"{'L' if parts else 'M'}{frame.xy(k0.start)}",
            _arc(k0, k0.start, k0.end, frame),
            f"L{frame.xy(f0.end)}",
            f"L{frame.xy(f1.end)}",
            f"L{frame.xy(k1.end)}",
            _arc(k1, k1.end, k1.start, frame),
        ]
    return " ".join([*parts, "Z"])


def _table(spec: TableSpec, frame: _Frame) -> list[str]:
    w, length = spec.width, spec.length
    c, r = _CUSHION, _RAIL
    geometry = spec.geometry()
    out = [
        f'<rect x="{frame.x(-c - r)}" y="{frame.y(length + c + r)}" '
        f'width="{(w + 2 * (c + r)) * 1000:.1f}" height="{(length + 2 * (c + r)) * 1000:.1f}" '
        f'rx="40" fill="url(#wood)"/>',
        f'<rect x="{frame.x(-c)}" y="{frame.y(length + c)}" width="{(w + 2 * c) * 1000:.1f}" '
        f'height="{(length + 2 * c) * 1000:.1f}" fill="#0c5a2c"/>',
        f'<path class="cloth" d="{_cloth_outline(geometry, frame)}" fill="url(#cloth)"/>',
    ]
    for pocket in geometry.pockets:
        out.append(
            f'<circle class="pocket" cx="{frame.x(pocket.fall_centre[0])}" '
            f'cy="{frame.y(pocket.fall_centre[1])}" r="{pocket.fall_radius * 1000:.1f}" '
            f'fill="#111"><title>{escape(pocket.name)}</title></circle>'
        )
    baulk_y = spec.baulk_y
    dl, dr = D_CENTRE[0] - D_RADIUS, D_CENTRE[0] + D_RADIUS
    out += [
        f'<line x1="{frame.x(0)}" y1="{frame.y(baulk_y)}" x2="{frame.x(w)}" '
        f'y2="{frame.y(baulk_y)}" stroke="#e8efe6" stroke-opacity="0.7" stroke-width="2.5"/>',
        f'<path d="M{frame.xy((dl, baulk_y))} A{D_RADIUS * 1000:.1f},{D_RADIUS * 1000:.1f} '
        f'0 0 0 {frame.xy((dr, baulk_y))}" fill="none" stroke="#e8efe6" stroke-opacity="0.7" '
        f'stroke-width="2.5"/>',
    ]
    for spot, (sx, sy) in SPOT_POINTS.items():
        out.append(
            f'<circle class="spot" cx="{frame.x(sx)}" cy="{frame.y(sy)}" r="4.5" '
            f'fill="#e8efe6" fill-opacity="0.75"><title>{spot.value} spot</title></circle>'
        )
    return out


def _ball(name: str, p: Vec2, radius: float, frame: _Frame, *, start: bool) -> str:
    fill = BALL_COLOURS.get(name, _OTHER_COLOUR)
    where = "start" if start else "rest"
    style = (
        'fill-opacity="0.35" stroke="#f0f0f0" stroke-opacity="0.8" stroke-dasharray="6 4"'
        if start
        else 'stroke="#1a1a1a"'
    )
    return (
        f'<circle class="ball {where}" cx="{frame.x(p[0])}" cy="{frame.y(p[1])}" '
        f'r="{radius * 1000:.1f}" fill="{fill}" {style} stroke-width="1.6">'
        f"<title>{escape(name)} ({where}) {p[0]:.3f}, {p[1]:.3f}</title></circle>"
    )


def _markers(result: ShotResult, before: Mapping[str, Vec2], frame: _Frame) -> list[str]:
    """Small marks where balls met each other (a ring) or a cushion (a dot)."""
    out: list[str] = []
    for event in result.events:
        where = [
            position_at(result.paths.get(ball, ()), event.t, before.get(ball, (0.0, 0.0)))
            for ball in event.balls
        ]
        if event.kind is EventKind.BALL_BALL and len(where) == 2:
            mid = ((where[0][0] + where[1][0]) / 2, (where[0][1] + where[1][1]) / 2)
            out.append(
                f'<circle class="event ball_ball" cx="{frame.x(mid[0])}" '
                f'cy="{frame.y(mid[1])}" r="13" fill="none" stroke="#ff9f1c" stroke-width="4">'
                f"<title>{' – '.join(map(escape, event.balls))} at {event.t:.3f} s</title>"
                "</circle>"
            )
        elif event.kind is EventKind.CUSHION and where:
            label = event.cushion or "cushion"
            if event.pocket:
                label += f" ({event.pocket})"
            out.append(
                f'<circle class="event cushion" cx="{frame.x(where[0][0])}" '
                f'cy="{frame.y(where[0][1])}" r="7" fill="#ff9f1c">'
                f"<title>{escape(event.balls[0])} off {escape(label)} at {event.t:.3f} s"
                "</title></circle>"
            )
    return out


def _caption(result: ShotResult) -> str:
    potted = [ball for ball, p in result.rest.items() if p is None]
    text = f"{result.duration:.2f} s until all balls are at rest"
    if potted:
        text += " · potted: " + ", ".join(potted)
    return text


def draw_shot(
    positions_before: Mapping[str, Vec2],
    result: ShotResult,
    *,
    table: TableSpec | None = None,
    title: str | None = None,
    ball_radius: float = BALL_RADIUS,
) -> str:
    """An SVG document of a shot: table (the simulator's ``table``, default the standard
    one), start (faded) and rest positions, paths, collisions; ``ball_radius`` as simulated."""
    table = table or TableSpec()
    frame = _Frame(table)
    radius = ball_radius
    names = list(dict.fromkeys([*positions_before, *result.rest, *result.paths]))
    body: list[str] = _table(table, frame)
    for name in names:
        data = _path_data(result.paths.get(name, ()), frame)
        if data:
            colour = _PATH_COLOURS.get(name, _OTHER_COLOUR)
            body.append(
                f'<path class="path" d="{data}" fill="none" stroke="{colour}" '
                f'stroke-opacity="0.9" stroke-width="5" stroke-linecap="round" '
                f'stroke-linejoin="round"><title>{escape(name)}</title></path>'
            )
    body += [_ball(name, p, radius, frame, start=True) for name, p in positions_before.items()]
    body += _markers(result, positions_before, frame)
    body += [
        _ball(name, p, radius, frame, start=False)
        for name, p in result.rest.items()
        if p is not None
    ]
    return _document(frame, title or "onered shot", _caption(result), body)


def _document(frame: _Frame, title: str, caption: str, body: list[str]) -> str:
    """The SVG document around a drawing's ``body``, with its title above the table and
    the caption below."""
    heading = escape(title)
    mid_x = f"{frame.width_mm / 2:.1f}"
    body = [
        *body,
        f'<text x="{mid_x}" y="{_TITLE_BAND * 1000 * 0.62:.1f}" text-anchor="middle" '
        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="34" '
        f'fill="#2b2b2b">{heading}</text>',
        f'<text x="{mid_x}" y="{frame.height_mm - _CAPTION_BAND * 1000 * 0.35:.1f}" '
        f'text-anchor="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
        f'font-size="28" fill="#444">{escape(caption)}</text>',
    ]
    w, h = f"{frame.width_mm:.1f}", f"{frame.height_mm:.1f}"
    defs = (
        "<defs>"
        '<radialGradient id="cloth" cx="50%" cy="50%" r="75%">'
        '<stop offset="0" stop-color="#23904a"/><stop offset="1" stop-color="#17703a"/>'
        "</radialGradient>"
        '<linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">'
        '<stop offset="0" stop-color="#7a4a25"/><stop offset="1" stop-color="#4e2d14"/>'
        "</linearGradient>"
        "</defs>"
    )
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" '
            f'width="{frame.width_mm / 3:.0f}" height="{frame.height_mm / 3:.0f}">',
            f"<title>{heading}</title>",
            defs,
            f'<rect width="{w}" height="{h}" fill="#f4f1ea"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def save_svg(path: str | Path, svg: str) -> None:
    """Write an SVG document (UTF-8)."""
    Path(path).write_text(svg, encoding="utf-8")


def draw_shots(
    positions_before: Mapping[str, Vec2],
    shots: Sequence[tuple[ShotResult, str, str]],
    cue_ball: str,
    *,
    table: TableSpec | None = None,
    title: str | None = None,
    caption: str = "",
    ball_radius: float = BALL_RADIUS,
) -> str:
    """An SVG document of several alternative shots from one position (the coach's
    suggestions): the table, the balls where they stand, and each shot's paths in its own
    colour — ``shots`` is ``(result, colour, label)``, the first drawn on top; the
    ``cue_ball``'s path solid, the object balls' dashed, the label where the cue ball stops."""
    table = table or TableSpec()
    frame = _Frame(table)
    body: list[str] = _table(table, frame)
    for result, colour, label in reversed(shots):
        moved = [name for name in result.paths if _path_data(result.paths[name], frame)]
        cue = cue_ball if cue_ball in moved else None
        for name in moved:
            dash = "" if name == cue else ' stroke-dasharray="14 10"'
            body.append(
                f'<path class="path" d="{_path_data(result.paths[name], frame)}" fill="none" '
                f'stroke="{colour}" stroke-opacity="0.95" stroke-width="6" '
                f'stroke-linecap="round" stroke-linejoin="round"{dash}>'
                f"<title>{escape(label)}: {escape(name)}</title></path>"
            )
        if cue is not None:
            path = result.paths[cue]
            end = position_at(path, path[-1].t1, path[-1].p0)
            body.append(
                f'<circle cx="{frame.x(end[0])}" cy="{frame.y(end[1])}" r="24" '
                f'fill="{colour}" stroke="#1a1a1a" stroke-width="2"/>'
                f'<text x="{frame.x(end[0])}" y="{float(frame.y(end[1])) + 10:.1f}" '
                f'text-anchor="middle" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" '
                f'font-size="28" font-weight="bold" fill="#1a1a1a">{escape(label)}</text>'
            )
    body += [
        _ball(name, p, ball_radius, frame, start=False) for name, p in positions_before.items()
    ]
    return _document(frame, title or "onered", caption, body)
