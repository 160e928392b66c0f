"""Draw a simulated shot as an SVG picture: the table to scale, the balls where they started
(faded) and where they came to rest, their paths, and the collisions.

Pure standard library: the document is built as text. The picture is seen from the baulk end
(baulk at the bottom, x to the right), in millimetres, one SVG unit a millimetre. Each
trajectory piece of the engine is a quadratic in time, so it is drawn exactly as a quadratic
Bézier curve: for ``p(t) = p0 + v0 τ + a τ²/2`` on ``[t0, t1]`` (``τ = t − t0``,
``T = t1 − t0``) the control points are ``p0``, ``p0 + v0 T/2`` and ``p(t1)``.

A ball in the air (a segment with ``az != 0``) is drawn dashed, over its shadow on the cloth:
the shadow of a light from the upper left falls ``_SHADOW_SHIFT`` times the ball's height to
the lower right, so it leaves and meets the path where the ball leaves and lands; being the
path plus a quadratic in time, it too is one exact Bézier a piece. Landings, balls passed over
and balls that left the table are marked; a ball off the table is drawn where it left.
:func:`draw_side_view` draws one ball's height against the distance it travelled.
Words (captions, labels) come from :mod:`onered.texts` in the caller's language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape
from itertools import pairwise
from pathlib import Path

from onered.physics.geometry import Knuckle, TableGeometry, TableSpec
from onered.physics.params import Params
from onered.physics.types import Event, EventKind, Segment, ShotResult, Vec2, position_at
from onered.rules import Ball
from onered.table import BALL_RADIUS, D_CENTRE, D_RADIUS, SPOT_POINTS
from onered.texts import Case, Lang, ball_name, word

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


#: How far a flying ball's shadow falls from it on the picture, per metre of height, towards
#: the lower right of the page (a light from the upper left, a little steeper than 45°).
_SHADOW_SHIFT = 0.8
#: The shadow's direction in table coordinates (the page's y points down the table's y).
_SHADOW_DIR = (_SHADOW_SHIFT * math.sqrt(0.5), -_SHADOW_SHIFT * math.sqrt(0.5))
#: The dashes of a path in the air: long enough to read the colour, short enough to tell
#: from the coach's dashed object balls (``draw_shots``' 14/10).
AIR_DASH = "10 7"
_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _moves(seg: Segment) -> bool:
    """Whether a piece moves the ball across the table (a ball at rest, or bouncing in one
    place, draws no line seen from above)."""
    span = seg.t1 - seg.t0
    return math.isfinite(span) and span > 0 and not seg.v0 == (0.0, 0.0) == seg.a


def _bezier(seg: Segment, shadow: bool = False) -> tuple[Vec2, Vec2, Vec2]:
    """A piece's start, control point and end (table metres); its shadow's when ``shadow``:
    the centre moved by ``_SHADOW_DIR`` times the height, itself a quadratic in time."""
    span = seg.t1 - seg.t0
    d = _SHADOW_DIR if shadow else (0.0, 0.0)
    p0 = (seg.p0[0] + d[0] * seg.z0, seg.p0[1] + d[1] * seg.z0)
    v0 = (seg.v0[0] + d[0] * seg.vz, seg.v0[1] + d[1] * seg.vz)
    a = (seg.a[0] + d[0] * seg.az, seg.a[1] + d[1] * seg.az)
    control = (p0[0] + v0[0] * span / 2, p0[1] + v0[1] * span / 2)
    end = (
        p0[0] + v0[0] * span + a[0] * span * span / 2,
        p0[1] + v0[1] * span + a[1] * span * span / 2,
    )
    return p0, control, end


def _path_data(
    path: Sequence[Segment],
    frame: _Frame,
    *,
    airborne: bool | None = None,
    shadow: bool = False,
    lane: float = 0.0,
) -> str:
    """SVG path data for a trajectory: one quadratic Bézier per moving segment; only the
    pieces on the bed (``airborne=False``) or in the air (``True``) when asked, their
    shadow's when ``shadow``; moved ``lane`` metres to the left of its travel when not 0
    (:func:`_lane_data`)."""
    if lane:
        return _lane_data(path, frame, airborne, shadow, lane)
    parts: list[str] = []
    last: Vec2 | None = None
    for seg in path:
        if not _moves(seg) or (airborne is not None and seg.airborne != airborne):
            continue
        start, control, end = _bezier(seg, shadow)
        if last is None or math.dist(last, start) > 1e-4:
            parts.append(f"M{frame.xy(start)}")
        parts.append(f"Q{frame.xy(control)} {frame.xy(end)}")
        last = end
    return " ".join(parts)


#: The spacing of the coach's polyline samples along a piece (metres), for its lanes.
_LANE_STEP = 0.01


def _polyline(path: Sequence[Segment], shadow: bool = False) -> tuple[list[Vec2], list[bool]]:
    """A trajectory's moving pieces sampled about every :data:`_LANE_STEP` (their shadow's
    when ``shadow``), as one polyline; and whether the piece ending at each point is in
    the air (the first point's own)."""
    points: list[Vec2] = []
    flags: list[bool] = []
    for seg in path:
        if not _moves(seg):
            continue
        p0, c, p1 = _bezier(seg, shadow)
        n = max(2, min(200, math.ceil((math.dist(p0, c) + math.dist(c, p1)) / _LANE_STEP)))
        if not points or math.dist(points[-1], p0) > 1e-4:
            points.append(p0)
            flags.append(seg.airborne)
        for k in range(1, n + 1):
            u = k / n
            points.append(
                (
                    (1 - u) ** 2 * p0[0] + 2 * u * (1 - u) * c[0] + u * u * p1[0],
                    (1 - u) ** 2 * p0[1] + 2 * u * (1 - u) * c[1] + u * u * p1[1],
                )
            )
            flags.append(seg.airborne)
    return points, flags


def _in_lane(points: Sequence[Vec2], lane: float) -> list[Vec2]:
    """A polyline moved ``lane`` metres to the left of its travel: each point along the
    normal of the chord through its neighbours (at a cushion, the bisector of the two
    directions)."""
    moved: list[Vec2] = []
    # where the chord is nought (a point repeated, a reversal straight back), the last
    # normal holds; before any, the first piece's
    normal = next(
        (
            (-(b[1] - a[1]) / d, (b[0] - a[0]) / d)
            for a, b in pairwise(points)
            if (d := math.dist(a, b)) > 1e-9
        ),
        (0.0, 0.0),
    )
    for i, p in enumerate(points):
        a, b = points[max(0, i - 1)], points[min(len(points) - 1, i + 1)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        norm = math.hypot(tx, ty)
        if norm > 1e-9:
            normal = (-ty / norm, tx / norm)
        moved.append((p[0] + lane * normal[0], p[1] + lane * normal[1]))
    return moved


def _lane_data(
    path: Sequence[Segment], frame: _Frame, airborne: bool | None, shadow: bool, lane: float
) -> str:
    """SVG path data for a trajectory in its own lane, ``lane`` metres to the left of its
    travel (so that paths over the same line are drawn side by side): a polyline
    (:func:`_polyline`, :func:`_in_lane`); only the pieces on the bed or in the air when
    ``airborne`` says."""
    points, flags = _polyline(path, shadow)
    moved = _in_lane(points, lane)
    parts: list[str] = []
    drawing = False
    for i in range(1, len(moved)):
        if airborne is not None and flags[i] != airborne:
            drawing = False
            continue
        if not drawing:
            parts.append(f"M{frame.xy(moved[i - 1])}")
            drawing = True
        parts.append(f"L{frame.xy(moved[i])}")
    return " ".join(parts)


def _along(points: Sequence[Vec2], distance: float) -> Vec2:
    """The point ``distance`` metres along a polyline (its end when it is shorter)."""
    for a, b in pairwise(points):
        step = math.dist(a, b)
        if step >= distance > 0:
            u = distance / step
            return (a[0] + u * (b[0] - a[0]), a[1] + u * (b[1] - a[1]))
        distance -= step
    return points[-1]


def _ball_path(
    path: Sequence[Segment],
    frame: _Frame,
    colour: str,
    width: float,
    tip: str,
    dash: str = "",
    lane: float = 0.0,
) -> list[str]:
    """A ball's path: on the bed in ``colour`` (dashed when ``dash``), in the air over its
    shadow and dashed with :data:`AIR_DASH` (class ``path airborne``); moved ``lane``
    metres to the left of its travel when not 0."""

    def line(w: float) -> str:
        return f'fill="none" stroke-width="{w:g}" stroke-linecap="round" stroke-linejoin="round"'

    out: list[str] = []
    ground = _path_data(path, frame, airborne=False, lane=lane)
    if ground:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(
            f'<path class="path" d="{ground}" stroke="{colour}" stroke-opacity="0.9" '
            f"{line(width)}{extra}><title>{tip}</title></path>"
        )
    air = _path_data(path, frame, airborne=True, lane=lane)
    if air:
        shade = _path_data(path, frame, airborne=True, shadow=True, lane=lane)
        out.append(
            f'<path class="shadow" d="{shade}" stroke="#0a2a14" stroke-opacity="0.4" '
            f"{line(width * 1.6)}/>"
        )
        out.append(
            f'<path class="path airborne" d="{air}" stroke="{colour}" stroke-opacity="0.95" '
            f'{line(width)} stroke-dasharray="{AIR_DASH}"><title>{tip}</title></path>'
        )
    return out


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


def _number(x: float, spec: str, lang: Lang) -> str:
    """A number as ``lang`` writes it (a decimal comma in Russian)."""
    text = format(x, spec)
    return text.replace(".", ",") if lang is Lang.RU else text


def _name(ball: str, lang: Lang, case: Case = Case.NOM) -> str:
    """A ball's name in ``lang`` (its colour), or the name as given for another ball."""
    try:
        return ball_name(Ball(ball), lang, case)
    except ValueError:
        return ball


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


def _off_ball(name: str, p: Vec2, radius: float, frame: _Frame, tip: str) -> str:
    """A ball that left the table, drawn where it left: its colour under a red cross."""
    x, y = float(frame.x(p[0])), float(frame.y(p[1]))
    r = radius * 1000
    fill = BALL_COLOURS.get(name, _OTHER_COLOUR)
    arm = r * 1.15
    return (
        f'<g class="ball off"><title>{tip}</title>'
        f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}" stroke="#1a1a1a" '
        'stroke-width="1.6" stroke-dasharray="5 3"/>'
        f'<path d="M{x - arm:.1f},{y - arm:.1f} L{x + arm:.1f},{y + arm:.1f} '
        f'M{x - arm:.1f},{y + arm:.1f} L{x + arm:.1f},{y - arm:.1f}" stroke="#d7263d" '
        'stroke-width="5" stroke-linecap="round"/></g>'
    )


def off_table(result: ShotResult) -> dict[str, Event]:
    """The balls that left the table in a shot, each with its ``off_table`` event (a ball
    whose rest is ``None`` without one fell into a pocket)."""
    return {e.balls[0]: e for e in result.events if e.kind is EventKind.OFF_TABLE and e.balls}


def _at(result: ShotResult, before: Mapping[str, Vec2], ball: str, t: float) -> Vec2:
    return position_at(result.paths.get(ball, ()), t, before.get(ball, (0.0, 0.0)))


def _markers(
    result: ShotResult, before: Mapping[str, Vec2], frame: _Frame, lang: Lang = Lang.EN
) -> list[str]:
    """Small marks where balls met each other (a ring) or a cushion (a dot), where a ball in
    the air came down (a shadow ringed with dashes) and which ball one passed over (a
    dashed ring round the ball below)."""
    out: list[str] = []
    for event in result.events:
        where = [_at(result, before, ball, event.t) for ball in event.balls]
        names = [escape(_name(b, lang)) for b in event.balls]
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
        elif event.kind is EventKind.LAND and where:
            tip = word("drawing.lands", lang, ball=names[0], t=_number(event.t, ".3f", lang))
            out.append(
                f'<circle class="event land" cx="{frame.x(where[0][0])}" '
                f'cy="{frame.y(where[0][1])}" r="11" fill="#0a2a14" fill-opacity="0.35" '
                f'stroke="#ffffff" stroke-width="2.5" stroke-dasharray="4 3">'
                f"<title>{escape(tip)}</title></circle>"
            )
        elif event.kind is EventKind.OVER and len(where) == 2:
            below = escape(_name(event.balls[1], lang, Case.INS))
            tip = word(
                "drawing.over", lang, ball=names[0], below=below, t=_number(event.t, ".3f", lang)
            )
            out.append(
                f'<circle class="event over" cx="{frame.x(where[1][0])}" '
                f'cy="{frame.y(where[1][1])}" r="{BALL_RADIUS * 1000 * 1.6:.1f}" fill="none" '
                f'stroke="#ffffff" stroke-width="3" stroke-dasharray="6 5">'
                f"<title>{escape(tip)}</title></circle>"
            )
    return out


def _caption(result: ShotResult, lang: Lang = Lang.EN) -> str:
    off = off_table(result)
    potted = [_name(b, lang) for b, p in result.rest.items() if p is None and b not in off]
    text = word("drawing.caption", lang, seconds=_number(result.duration, ".2f", lang))
    if potted:
        text += " · " + word("drawing.potted", lang, balls=", ".join(potted))
    if off:
        text += " · " + word(
            "drawing.off_table", lang, balls=", ".join(_name(b, lang) for b in off)
        )
    return text


def draw_shot(
    positions_before: Mapping[str, Vec2],
    result: ShotResult,
    *,
    table: TableSpec | None = None,
    title: str | None = None,
    ball_radius: float = BALL_RADIUS,
    lang: Lang = Lang.EN,
) -> str:
    """An SVG document of a shot: table (the simulator's ``table``, default the standard
    one), start (faded) and rest positions, paths (dashed over a shadow in the air),
    collisions, landings, balls passed over, and a ball that left the table where it left
    (on the edge of the rail drawn when it left beyond it);
    ``ball_radius`` as simulated; the caption in ``lang``."""
    table = table or TableSpec()
    frame = _Frame(table)
    radius = ball_radius
    names = list(dict.fromkeys([*positions_before, *result.rest, *result.paths]))
    body: list[str] = _table(table, frame)
    for name in names:
        colour = _PATH_COLOURS.get(name, _OTHER_COLOUR)
        body += _ball_path(result.paths.get(name, ()), frame, colour, 5, escape(name))
    body += [_ball(name, p, radius, frame, start=True) for name, p in positions_before.items()]
    body += _markers(result, positions_before, frame, lang)
    body += [
        _ball(name, p, radius, frame, start=False)
        for name, p in result.rest.items()
        if p is not None
    ]
    for name, event in off_table(result).items():
        tip = escape(
            word(
                "drawing.left_table", lang, ball=_name(name, lang), t=_number(event.t, ".3f", lang)
            )
        )
        x, y = _at(result, positions_before, name, event.t)
        # beyond the rail drawn, it is drawn on the rail's edge, where it went out of sight
        edge = _CUSHION + _RAIL - radius
        at = (min(max(x, -edge), table.width + edge), min(max(y, -edge), table.length + edge))
        body.append(_off_ball(name, at, radius, frame, tip))
    return _document(frame, title or "onered shot", _caption(result, lang), body)


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
    lane: float = 0.0,
) -> str:
    """An SVG document of several alternative shots from one position (the coach's
    suggestions): the table, the balls where they stand, and each shot's paths in its own
    colour — ``shots`` is ``(result, colour, label)``, the first drawn on top; the
    ``cue_ball``'s path solid, the object balls' dashed, the label where the cue ball stops;
    a path in the air with short dashes over its shadow, as in :func:`draw_shot`.

    With ``lane`` (metres), paths that run over the same line stay apart: each shot's in
    its own lane, the first's on the true line and the others ``lane``, ``-lane``,
    ``2 lane`` … to the left of their travel; the label is also on a small disc where
    the cue ball's path leaves it and where each object ball stops; no label covers
    another (a label pushed aside has a line back to its place)."""
    table = table or TableSpec()
    frame = _Frame(table)
    body: list[str] = _table(table, frame)
    layers: list[list[str]] = []
    labels: list[_Label] = []
    for k, (result, colour, label) in enumerate(shots):
        offset = lane * ((k + 1) // 2) * (1 if k % 2 else -1)  # 0, +1, -1, +2, -2 lanes
        moved = [name for name in result.paths if _path_data(result.paths[name], frame)]
        cue = cue_ball if cue_ball in moved else None
        layer: list[str] = []
        for name in moved:
            tip = f"{escape(label)}: {escape(name)}"
            dash = "" if name == cue else "14 10"
            layer += _ball_path(result.paths[name], frame, colour, 6, tip, dash, offset)
            points = _in_lane(_polyline(result.paths[name])[0], offset)
            if name == cue:
                if lane and len(points) > 1:  # where the paths leave the cue ball together
                    labels.append(_Label(_along(points, _START_TAG), colour, label, 20))
                labels.append(_Label(points[-1], colour, label, 28))  # where it stops
            elif lane and points:
                labels.append(_Label(points[-1], colour, label, 20))
        layers.append(layer)
    for layer in reversed(layers):  # the first shot on top
        body += layer
    body += _labels(labels, frame)
    body += [
        _ball(name, p, ball_radius, frame, start=False) for name, p in positions_before.items()
    ]
    return _document(frame, title or "onered", caption, body)


#: How far along the cue ball's path (metres) the coach's small rank tag stands, where the
#: paths leave the cue ball together.
_START_TAG = 0.16


@dataclass(frozen=True, slots=True)
class _Label:
    """A rank's label: where it belongs on the table (metres), its colour, its text, and
    its radius on the picture (millimetres)."""

    at: Vec2
    colour: str
    text: str
    radius: float


def _labels(labels: Sequence[_Label], frame: _Frame) -> list[str]:
    """The labels as numbered discs, none over another: each in turn where it belongs or,
    when that is taken, at the nearest free place of rings around it, with a thin line
    back to its place; the first given are placed first and drawn on top."""
    placed: list[tuple[float, float, float]] = []
    out: list[str] = []
    for lab in labels:
        ax, ay = float(frame.x(lab.at[0])), float(frame.y(lab.at[1]))
        r = lab.radius
        spots = [(ax, ay)] + [
            (ax + d * math.cos(t * math.pi / 4), ay + d * math.sin(t * math.pi / 4))
            for d in (2.2 * r, 3.4 * r, 4.6 * r)
            for t in range(8)
        ]
        x, y = next(
            (
                (x, y)
                for x, y in spots
                if all(math.hypot(x - px, y - py) >= r + pr + 2 for px, py, pr in placed)
            ),
            spots[0],
        )
        placed.append((x, y, r))
        leader = ""
        if (x, y) != (ax, ay):
            leader = (
                f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                f'stroke="{lab.colour}" stroke-width="3"/>'
            )
        out.append(
            f'<g class="rank">{leader}<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:g}" '
            f'fill="{lab.colour}" stroke="#1a1a1a" stroke-width="2"/>'
            f'<text x="{x:.1f}" y="{y + 0.42 * r:.1f}" text-anchor="middle" '
            f'font-family="{_FONT}" font-size="{1.17 * r:.0f}" font-weight="bold" '
            f'fill="#1a1a1a">{escape(lab.text)}</text></g>'
        )
    return out[::-1]


# --- the side view ------------------------------------------------------------------------

#: Vertical exaggerations the side view may use (heights of centimetres along metres).
_EXAGGERATIONS = (1, 2, 5, 10, 20, 50, 100, 200)


@dataclass(frozen=True, slots=True)
class SidePoint:
    """One sample of a ball's side view: the time ``t`` (s), the distance its centre has
    travelled across the table since the strike (m, along its path seen from above) and the
    height of its lowest point above the slate (m)."""

    t: float
    distance: float
    height: float


def _samples(seg: Segment) -> int:
    """How many intervals a piece is sampled in: a flight finely (its parabola), a move on
    the bed enough to measure a curve's length, a ball standing still not at all."""
    span = seg.t1 - seg.t0
    if seg.airborne:
        return min(200, max(8, math.ceil(span / 0.004)))
    if _moves(seg):
        return min(40, max(1, math.ceil(span / 0.05)))
    return 1


def side_profile(path: Sequence[Segment]) -> tuple[SidePoint, ...]:
    """A ball's height against the distance it travelled: each piece of ``path`` sampled
    from its start to its end (``Segment.height_at`` at each sample, the distance the length
    of the polyline through the samples' centres). A ball that never moved: one point."""
    points: list[SidePoint] = []
    distance = 0.0
    last: Vec2 | None = None
    for seg in path:
        span = seg.t1 - seg.t0
        if not (math.isfinite(span) and span >= 0):
            continue
        n = _samples(seg)
        for i in range(n + 1):
            t = seg.t1 if i == n else seg.t0 + span * i / n
            xy = seg.at(t)
            if last is not None:
                distance += math.dist(last, xy)
            last = xy
            point = SidePoint(t, distance, seg.height_at(t))
            if points and point == points[-1]:
                continue
            points.append(point)
    return tuple(points) or (SidePoint(0.0, 0.0, 0.0),)


def _distance_at(profile: Sequence[SidePoint], t: float) -> float:
    """The distance travelled at time ``t`` (linear between samples)."""
    if t <= profile[0].t:
        return profile[0].distance
    for a, b in pairwise(profile):
        if a.t <= t <= b.t:
            f = 0.0 if b.t == a.t else (t - a.t) / (b.t - a.t)
            return a.distance + f * (b.distance - a.distance)
    return profile[-1].distance


def _nice_step(top: float) -> float:
    """A round step for about five grid lines up to ``top``."""
    raw = max(top, 1e-9) / 5
    p = 10.0 ** math.floor(math.log10(raw))
    return next(m * p for m in (1, 2, 5, 10) if m * p >= raw)


def _flights(profile: Sequence[SidePoint]) -> list[SidePoint]:
    """The highest sample of each flight (a run of samples above the slate)."""
    out: list[SidePoint] = []
    best: SidePoint | None = None
    for p in profile:
        if p.height > 1e-6:
            best = p if best is None or p.height > best.height else best
        elif best is not None:
            out.append(best)
            best = None
    if best is not None:
        out.append(best)
    return out


def draw_side_view(
    positions_before: Mapping[str, Vec2],
    result: ShotResult,
    ball: str,
    *,
    cushion_height: float | None = None,
    ball_radius: float = BALL_RADIUS,
    title: str | None = None,
    lang: Lang = Lang.EN,
) -> str:
    """An SVG document of one ball's path seen from the side: the height of its lowest
    point against the distance it travelled (:func:`side_profile`), the slate, the height
    of the cushions' nose (``cushion_height``, default the engine's ``Params``: a ball whose
    lowest point is above it crosses the cushion), the balls it passed over (``over``
    events: drawn where it came closest above them), its landings, cushions and where it
    left the table. Heights are drawn larger than distances when they would be too flat to
    read; the caption says by how much. Words in ``lang``."""
    h = Params().cushion_height if cushion_height is None else cushion_height
    r = ball_radius
    profile = side_profile(result.paths.get(ball, ()))
    flights = _flights(profile)
    top_d = max(profile[-1].distance, 0.05)
    top_z = max(max(p.height for p in profile), 2 * r, h) * 1.3
    width, left, right, head, foot = 1600.0, 150.0, 60.0, 90.0, 170.0
    sx = (width - left - right) / top_d
    ex = next((e for e in _EXAGGERATIONS if top_z * sx * e >= 240), _EXAGGERATIONS[-1])
    if ex == 1 and top_z * sx > 560:
        sx = 560 / top_z
    sz = sx * ex
    plot_h = max(240.0, min(560.0, top_z * sz))
    top_z = plot_h / sz
    base = head + plot_h
    height = base + foot

    def px(d: float) -> float:
        return left + d * sx

    def py(z: float) -> float:
        return base - z * sz

    def text(x: float, y: float, words: str, size: int = 24, anchor: str = "middle") -> str:
        return (
            f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-family="{_FONT}" '
            f'font-size="{size}" fill="#2b2b2b" stroke="#f4f1ea" stroke-width="5" '
            f'paint-order="stroke">{escape(words)}</text>'
        )

    colour = _PATH_COLOURS.get(ball, _OTHER_COLOUR)
    plot_right = px(top_d)
    body: list[str] = [
        f'<rect x="{left:.1f}" y="{head:.1f}" width="{plot_right - left:.1f}" '
        f'height="{plot_h:.1f}" fill="#eef2f4"/>',
        f'<rect class="slate" x="{left:.1f}" y="{base:.1f}" width="{plot_right - left:.1f}" '
        'height="18" fill="#1f8a4c"/>',
    ]
    step = _nice_step(top_d)
    for i in range(int(top_d / step + 1e-9) + 1):
        d = i * step
        body.append(
            f'<line x1="{px(d):.1f}" y1="{head:.1f}" x2="{px(d):.1f}" y2="{base:.1f}" '
            'stroke="#d3dade" stroke-width="1.5"/>'
        )
        body.append(text(px(d), base + 68, _number(d, "g", lang)))
    zstep = _nice_step(top_z * 100) / 100
    for i in range(int(top_z / zstep + 1e-9) + 1):
        z = i * zstep
        body.append(
            f'<line x1="{left:.1f}" y1="{py(z):.1f}" x2="{plot_right:.1f}" y2="{py(z):.1f}" '
            'stroke="#d3dade" stroke-width="1.5"/>'
        )
        body.append(text(left - 12, py(z) + 8, _number(z * 100, "g", lang), anchor="end"))
    body += [
        text((left + plot_right) / 2, base + 104, word("drawing.side_distance", lang)),
        f'<text transform="translate(40 {(head + base) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" font-family="{_FONT}" font-size="24" fill="#2b2b2b">'
        f"{escape(word('drawing.side_height', lang))}</text>",
        text(plot_right - 8, base - 10, word("drawing.slate", lang), 22, "end"),
        f'<line class="cushion-height" x1="{left:.1f}" y1="{py(h):.1f}" x2="{plot_right:.1f}" '
        f'y2="{py(h):.1f}" stroke="#7a4a25" stroke-width="3" stroke-dasharray="12 8"/>',
        text(
            plot_right - 8,
            py(h) - 10,
            word("drawing.cushion", lang, cm=_number(h * 100, ".1f", lang)),
            22,
            "end",
        ),
    ]
    before = dict(positions_before)
    for event in result.events:
        if event.kind is not EventKind.OVER or len(event.balls) != 2 or event.balls[0] != ball:
            continue
        below = event.balls[1]
        flight_end = next(
            (
                e.t
                for e in result.events
                if e.t > event.t
                and ball in e.balls
                and e.kind in (EventKind.LAND, EventKind.POCKET, EventKind.OFF_TABLE)
            ),
            profile[-1].t,
        )
        near = min(
            (p for p in profile if event.t <= p.t <= flight_end),
            key=lambda p: math.dist(
                _at(result, before, ball, p.t), _at(result, before, below, p.t)
            ),
            default=None,
        )
        d = _distance_at(profile, event.t) if near is None else near.distance
        tip = word(
            "drawing.over",
            lang,
            ball=_name(ball, lang),
            below=_name(below, lang, Case.INS),
            t=_number(event.t, ".3f", lang),
        )
        body.append(
            f'<ellipse class="passed-over" cx="{px(d):.1f}" cy="{py(r):.1f}" rx="{r * sx:.1f}" '
            f'ry="{r * sz:.1f}" fill="{BALL_COLOURS.get(below, _OTHER_COLOUR)}" '
            f'fill-opacity="0.85" stroke="#1a1a1a" stroke-width="2">'
            f"<title>{escape(tip)}</title></ellipse>"
        )
        body.append(text(px(d), base + 40, _name(below, lang), 20))
    labelled = -1e9  # the right end of the last height written: none may overlap it
    tallest = max((p.height for p in flights), default=0.0)
    for apex in flights:
        body.append(
            f'<circle class="apex" cx="{px(apex.distance):.1f}" cy="{py(apex.height):.1f}" '
            f'r="5" fill="#1a1a1a"/>'
        )
        x = px(apex.distance)
        if apex.height < 0.15 * tallest or x - 45 < labelled:
            continue  # a small bounce, or too close to the last label: its dot says enough
        labelled = x + 45
        label = word("drawing.cm", lang, cm=_number(apex.height * 100, ".1f", lang))
        body.append(text(x, py(apex.height) - 16, label, 22))
    for event in result.events:
        if ball not in event.balls[:1] or event.kind not in (
            EventKind.LAND,
            EventKind.CUSHION,
            EventKind.OFF_TABLE,
        ):
            continue
        x = px(_distance_at(profile, event.t))
        if event.kind is EventKind.LAND:
            tip = word(
                "drawing.lands", lang, ball=_name(ball, lang), t=_number(event.t, ".3f", lang)
            )
            body.append(
                f'<path class="mark land" d="M{x - 10:.1f},{base + 16:.1f} L{x + 10:.1f},'
                f'{base + 16:.1f} L{x:.1f},{base:.1f} Z" fill="#1a1a1a">'
                f"<title>{escape(tip)}</title></path>"
            )
        elif event.kind is EventKind.CUSHION:
            label = event.cushion or "cushion"
            body.append(
                f'<line class="mark cushion" x1="{x:.1f}" y1="{base:.1f}" x2="{x:.1f}" '
                f'y2="{py(h):.1f}" stroke="#ff9f1c" stroke-width="5">'
                f"<title>{escape(label)} {event.t:.3f} s</title></line>"
            )
        else:
            z = _height_at(result.paths.get(ball, ()), event.t)
            y = py(z)
            tip = word(
                "drawing.left_table", lang, ball=_name(ball, lang), t=_number(event.t, ".3f", lang)
            )
            body.append(
                f'<g class="mark off_table"><title>{escape(tip)}</title>'
                f'<path d="M{x - 14:.1f},{y - 14:.1f} L{x + 14:.1f},{y + 14:.1f} '
                f'M{x - 14:.1f},{y + 14:.1f} L{x + 14:.1f},{y - 14:.1f}" stroke="#d7263d" '
                'stroke-width="6" stroke-linecap="round"/></g>'
            )
    points = " ".join(f"{px(p.distance):.1f},{py(p.height):.1f}" for p in profile)
    body += [
        f'<g class="plot" data-x0="{left:.3f}" data-y0="{base:.3f}" data-sx="{sx:.6f}" '
        f'data-sz="{sz:.6f}">'
        f'<polyline points="{points}" fill="none" stroke="#1a1a1a" stroke-width="7" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
        f'<polyline class="side-path" points="{points}" fill="none" stroke="{colour}" '
        'stroke-width="4" stroke-linejoin="round" stroke-linecap="round">'
        f"<title>{escape(_name(ball, lang))}</title></polyline></g>",
    ]
    notes = []
    if flights:
        notes.append(
            word(
                "drawing.highest",
                lang,
                cm=_number(max(p.height for p in flights) * 100, ".1f", lang),
            )
        )
    else:
        notes.append(word("drawing.on_bed", lang))
    if ex > 1:
        notes.append(word("drawing.exaggerated", lang, times=ex))
    heading = title or word("drawing.side_title", lang, ball=_name(ball, lang))
    body += [
        text(width / 2, 56, heading, 32),
        text(width / 2, height - 18, " · ".join(notes), 24),
    ]
    w, hh = f"{width:.1f}", f"{height:.1f}"
    return "\n".join(
        [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<svg xmlns="http://www.w3.org/2000/svg" class="side-view" viewBox="0 0 {w} {hh}" '
            f'width="{width / 2:.0f}" height="{height / 2:.0f}">',
            f"<title>{escape(heading)}</title>",
            f'<rect width="{w}" height="{hh}" fill="#f4f1ea"/>',
            *body,
            "</svg>",
            "",
        ]
    )


def _height_at(path: Sequence[Segment], t: float) -> float:
    """The height of a ball's lowest point at ``t`` on its path (0 off its pieces)."""
    for seg in path:
        if seg.t0 <= t <= seg.t1:
            return seg.height_at(t)
    return 0.0
