"""An independent check of a simulated shot: do balls ever overlap, or leave the table?

Every piece of a trajectory is a quadratic in time (in three dimensions: the height of a
ball in the air too), so the distance between two balls over the common time of two
pieces, or from a ball to a cushion, jaw facing or knuckle over one piece, has its minimum
at an end of the interval, at a root of a low-degree derivative, or where the ball passes
the height of the cushion's nose. :func:`audit_shot` finds those minima exactly (the roots
are isolated between the critical points of the derivative and bisected), not by
sampling, and checks every event point on the bed and every rest position with the
engine's own definition of "on the table" (:func:`onered.physics.check_position`).

In the air the walls are solids: a cushion or jaw facing is a vertical face up to the
nose height h with a flat top beyond its nose line; a knuckle (and a line's end) a
vertical cylinder up to h. A ball is clear of a face while its centre is at or below h
and at least R in front of it, of the nose edge while its centre is at least R from the
edge line, of the top while its lowest point is above h. A ball that left the table (an
``off_table`` event) is out of play from then on. Used by the stress benchmark and the
tests; useful to anyone who wants to vet a stored result.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from onered.physics.engine import _context, _table_and_params, check_position
from onered.physics.errors import PhysicsInputError
from onered.physics.geometry import TableSpec
from onered.physics.params import Params
from onered.physics.types import Segment, ShotResult, Vec2

#: A piece of motion: (t0, t1, x, y, vx, vy, ax, ay, z, vz, az) with
#: x(t) = x + vx s + ax s^2 / 2 (and so y, and z the height of the ball's lowest point).
_Piece = tuple[float, float, float, float, float, float, float, float, float, float, float]


@dataclass(frozen=True, slots=True)
class Audit:
    """What :func:`audit_shot` found.

    ``overlap``: the deepest two balls interpenetrate anywhere along their paths, beyond
    how deep they overlapped at the start (m; 0 or less: never). ``excursion``: the deepest
    a ball goes into a cushion, jaw facing or knuckle beyond its start (m). ``problems``:
    event points or rest positions that the engine's own validation refuses.
    ``pieces``: how many trajectory pieces were checked.
    """

    overlap: float
    excursion: float
    problems: tuple[str, ...]
    pieces: int


def _pieces(segments: tuple[Segment, ...]) -> list[_Piece]:
    return [(s.t0, s.t1, *s.p0, *s.v0, *s.a, s.z0, s.vz, s.az) for s in segments]


def _timeline(
    pieces: list[_Piece], start: Vec2, rest: Vec2 | None, duration: float
) -> list[_Piece]:
    """The ball's pieces with its still spells filled in, over [0, duration] (up to the
    fall for a potted ball)."""
    out: list[_Piece] = []
    t, x, y = 0.0, *start
    for piece in pieces:
        if piece[0] > t:
            out.append((t, piece[0], x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
        out.append(piece)
        t = piece[1]
        s = t - piece[0]
        x = piece[2] + (piece[4] + 0.5 * piece[6] * s) * s
        y = piece[3] + (piece[5] + 0.5 * piece[7] * s) * s
    if rest is not None and duration > t:
        out.append((t, duration, *rest, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
    return out


def _state(p: _Piece, t: float) -> tuple[float, float, float, float, float, float]:
    """Position, velocity, height and vertical velocity on a piece at time t."""
    s = t - p[0]
    return (
        p[2] + (p[4] + 0.5 * p[6] * s) * s,
        p[3] + (p[5] + 0.5 * p[7] * s) * s,
        p[4] + p[6] * s,
        p[5] + p[7] * s,
        p[8] + (p[9] + 0.5 * p[10] * s) * s,
        p[9] + p[10] * s,
    )


def _quadratic_roots(c0: float, c1: float, c2: float, span: float) -> list[float]:
    """Real roots in (0, span) of c0 + c1 s + c2 s^2."""
    if c2 == 0:
        return [-c0 / c1] if c1 != 0 and 0 < -c0 / c1 < span else []
    disc = c1 * c1 - 4 * c2 * c0
    if disc < 0:
        return []
    q = -0.5 * (c1 + math.copysign(math.sqrt(disc), c1))
    roots = [q / c2, c0 / q] if q != 0 else [-c1 / (2 * c2)]
    return sorted(r for r in roots if 0 < r < span)


def _cubic_roots(f: tuple[float, float, float, float], span: float) -> Iterator[float]:
    """Roots in (0, span) of f0 + f1 s + f2 s^2 + f3 s^3: the cubic is monotone between the
    roots of its derivative, so each sign change there brackets exactly one root."""
    f0, f1, f2, f3 = f

    def value(s: float) -> float:
        return f0 + s * (f1 + s * (f2 + s * f3))

    knots = [0.0]
    a, b, c = 3 * f3, 2 * f2, f1
    if a != 0:
        disc = b * b - 4 * a * c
        if disc > 0:
            q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
            cands = sorted((q / a, c / q if q != 0 else q / a))
            knots += [k for k in cands if 0 < k < span]
    elif b != 0:
        k = -c / b
        if 0 < k < span:
            knots.append(k)
    knots.append(span)
    for lo, hi in itertools.pairwise(knots):
        flo, fhi = value(lo), value(hi)
        if (flo < 0) == (fhi < 0) or flo == 0 or fhi == 0:
            continue
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if not lo < mid < hi:
                break
            fm = value(mid)
            if (fm < 0) == (flo < 0):
                lo, flo = mid, fm
            else:
                hi = mid
        yield 0.5 * (lo + hi)


def _min_distance(
    dx: float,
    dy: float,
    vx: float,
    vy: float,
    ax: float,
    ay: float,
    span: float,
    dz: float = 0.0,
    vz: float = 0.0,
    az: float = 0.0,
) -> float:
    """Exact minimum over s in [0, span] of |d + v s + a s^2 / 2| (in three dimensions
    when the z parts are given)."""
    hx, hy, hz = 0.5 * ax, 0.5 * ay, 0.5 * az
    f = (
        dx * vx + dy * vy + dz * vz,
        vx * vx + vy * vy + vz * vz + 2 * (dx * hx + dy * hy + dz * hz),
        3 * (vx * hx + vy * hy + vz * hz),
        2 * (hx * hx + hy * hy + hz * hz),
    )  # half the derivative of the squared distance
    best = math.sqrt(dx * dx + dy * dy + dz * dz)
    for s in (span, *_cubic_roots(f, span)):
        ex, ey = dx + (vx + hx * s) * s, dy + (vy + hy * s) * s
        ez = dz + (vz + hz * s) * s
        best = min(best, math.sqrt(ex * ex + ey * ey + ez * ez))
    return best


def _ball_overlap(one: list[_Piece], two: list[_Piece], reach: float) -> float:
    """The deepest overlap (2R - distance; reach = 2R) of two balls' timelines."""
    worst = -math.inf
    i = j = 0
    while i < len(one) and j < len(two):
        p, q = one[i], two[j]
        t0, t1 = max(p[0], q[0]), min(p[1], q[1])
        if t1 >= t0:
            xa, ya, vxa, vya, za, vza = _state(p, t0)
            xb, yb, vxb, vyb, zb, vzb = _state(q, t0)
            dx, dy, vx, vy = xb - xa, yb - ya, vxb - vxa, vyb - vya
            dz, vz = zb - za, vzb - vza
            ax, ay, az = q[6] - p[6], q[7] - p[7], q[10] - p[10]
            span = t1 - t0
            gap = math.hypot(dx, dy) - reach
            bound = math.hypot(vx, vy) * span + 0.5 * math.hypot(ax, ay) * span * span
            if gap - bound < 1e-6:  # else they stay apart over the interval
                closest = _min_distance(dx, dy, vx, vy, ax, ay, span, dz, vz, az)
                worst = max(worst, reach - closest)
        if p[1] <= q[1]:
            i += 1
        else:
            j += 1
    return worst


def wall_distance(ahead: float, above: float) -> float:
    """The distance from a ball's centre to a cushion's (or jaw facing's) solid, the centre
    ``ahead`` of its nose line (negative: behind it, over the top) and ``above`` the nose's
    height: the face below the nose, the nose edge, the flat top behind it."""
    if above <= 0:
        return ahead  # the face
    if ahead >= 0:
        return math.hypot(ahead, above)  # the nose edge
    return above  # the top


def _range(x: float, v: float, a: float, span: float) -> tuple[float, float]:
    """Bounds of x + v s + a s^2 / 2 over [0, span]."""
    end = x + (v + 0.5 * a * span) * span
    lo, hi = min(x, end), max(x, end)
    if a != 0 and 0 < -v / a < span:
        top = x - 0.5 * v * v / a
        lo, hi = min(lo, top), max(hi, top)
    return lo, hi


class _Walls:
    """The table's cushions, facings and knuckles in plain numbers."""

    def __init__(self, params: Params, table: TableSpec) -> None:
        geo = table.geometry()
        self.radius = params.R
        self.nose = params.cushion_height
        # (x0, y0, tx, ty, nx, ny, length) of every cushion and facing
        self.lines: list[tuple[float, float, float, float, float, float, float]] = []
        # (cx, cy, r) of every knuckle (r: its radius plus the ball's) and line end (r = R)
        self.circles: list[tuple[float, float, float]] = []
        for line in (*geo.cushions, *(f for p in geo.pockets for f in p.facings)):
            (x0, y0), (x1, y1) = line.start, line.end
            length = math.hypot(x1 - x0, y1 - y0)
            self.lines.append(
                (x0, y0, (x1 - x0) / length, (y1 - y0) / length, *line.normal, length)
            )
            self.circles += [(x0, y0, params.R), (x1, y1, params.R)]
        for pocket in geo.pockets:
            for k in pocket.knuckles:
                self.circles.append((*k.centre, k.radius + params.R))
        # in the air only the knuckles stand as cylinders (the lines' near ends meet them;
        # their far ends lie over the pockets' holes, where a ball below the nose drops)
        self.knuckles = [c for c in self.circles if c[2] != params.R]
        # every wall lies outside the bed's rectangle: a centre kept this far inside it
        # cannot reach one
        margin = params.R + 1e-4
        self.box = (margin, table.width - margin, margin, table.length - margin)

    def start(self, x: float, y: float) -> float:
        """How deep (m) a ball standing at (x, y) is in a wall or the extension of a
        cushion or facing line near its ends (as the input check allows, up to 1e-6 m)."""
        worst = self.excursion((0.0, 0.0, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0))
        for x0, y0, tx, ty, nx, ny, length in self.lines:
            if -self.radius <= (x - x0) * tx + (y - y0) * ty <= length + self.radius:
                worst = max(worst, min(self.radius - (x - x0) * nx - (y - y0) * ny, 1e-5))
        return worst

    def excursion(self, p: _Piece) -> float:
        """How deep (m) the ball goes into a wall over the piece (negative: its clearance)."""
        if p[10] != 0:
            return self._excursion_in_air(p)
        t0, t1, x, y, vx, vy, ax, ay = p[:8]
        span = t1 - t0
        x_lo, x_hi = _range(x, vx, ax, span)
        y_lo, y_hi = _range(y, vy, ay, span)
        box = self.box
        if box[0] < x_lo and x_hi < box[1] and box[2] < y_lo and y_hi < box[3]:
            return -math.inf
        reach = math.hypot(vx, vy) * span + 0.5 * math.hypot(ax, ay) * span * span
        worst = -math.inf
        for x0, y0, tx, ty, nx, ny, length in self.lines:
            h0 = (x - x0) * nx + (y - y0) * ny
            if h0 - self.radius - reach > 0.01:
                continue
            h1, h2 = vx * nx + vy * ny, 0.5 * (ax * nx + ay * ny)
            u0, u1, u2 = (x - x0) * tx + (y - y0) * ty, vx * tx + vy * ty, 0.5 * (ax * tx + ay * ty)
            times = [0.0, span]
            if h2 != 0 and 0 < -h1 / (2 * h2) < span:
                times.append(-h1 / (2 * h2))
            for s in times:  # the line part: along the normal, where the foot is on it
                if -1e-9 <= u0 + (u1 + u2 * s) * s <= length + 1e-9:
                    worst = max(worst, self.radius - (h0 + (h1 + h2 * s) * s))
        for cx, cy, r in self.circles:
            dx, dy = x - cx, y - cy
            if math.hypot(dx, dy) - r - reach > 0.01:
                continue
            worst = max(worst, r - _min_distance(dx, dy, vx, vy, ax, ay, span))
        return worst

    def _excursion_in_air(self, p: _Piece) -> float:
        """The same for a piece in the air (uniform in x, y; z under gravity): the distance
        to a line's solid (face, nose edge, top) is piecewise smooth in time, so its minimum
        is at the piece's ends, where the centre passes the nose height or the nose line,
        or at a critical point of one smooth part; a cylinder counts only while the ball's
        lowest point is below its top."""
        t0, t1, x, y, vx, vy, _, _, z, vz, az = p
        span = t1 - t0
        rad, h = self.radius, self.nose
        # when the centre passes the nose height, and when the lowest point passes the top
        centre_at_nose = _quadratic_roots(z + rad - h, vz, 0.5 * az, span)
        low_at_top = _quadratic_roots(z - h, vz, 0.5 * az, span)
        reach = math.hypot(vx, vy) * span
        worst = -math.inf
        for x0, y0, tx, ty, nx, ny, length in self.lines:
            c0, c1 = (x - x0) * nx + (y - y0) * ny, vx * nx + vy * ny
            if c0 - rad - reach > 0.01:
                continue
            u0, u1 = (x - x0) * tx + (y - y0) * ty, vx * tx + vy * ty
            d0, d1, d2 = z + rad - h, vz, 0.5 * az  # the centre's height above the nose
            times = [0.0, span, *centre_at_nose]
            if c1 != 0 and 0 < -c0 / c1 < span:
                times.append(-c0 / c1)
            # the edge: half the derivative of c^2 + d^2 (a cubic)
            edge = (c0 * c1 + d0 * d1, c1 * c1 + d1 * d1 + 2 * d0 * d2, 3 * d1 * d2, 2 * d2 * d2)
            times += list(_cubic_roots(edge, span))
            if d2 != 0 and 0 < -d1 / (2 * d2) < span:
                times.append(-d1 / (2 * d2))  # the top: the apex
            for s in times:
                if not -1e-9 <= u0 + u1 * s <= length + 1e-9:
                    continue
                c, d = c0 + c1 * s, d0 + (d1 + d2 * s) * s
                worst = max(worst, rad - wall_distance(c, d))
        for cx, cy, r in self.knuckles:
            dx, dy = x - cx, y - cy
            if math.hypot(dx, dy) - r - reach > 0.01:
                continue
            # while the lowest point is below the top: the parts of the piece between the
            # times it passes the top's height
            cuts = [0.0, *low_at_top, span]
            for lo, hi in itertools.pairwise(cuts):
                mid = 0.5 * (lo + hi)
                if z + (vz + 0.5 * az * mid) * mid >= h - 1e-9:
                    continue  # above the top (a ball just off a knuckle's top: to rounding)
                ex, ey = dx + vx * lo, dy + vy * lo
                worst = max(worst, r - _min_distance(ex, ey, vx, vy, 0.0, 0.0, hi - lo))
        return worst


@dataclass(frozen=True, slots=True)
class _Checker:
    params: Params
    table: TableSpec
    walls: _Walls


_CHECKERS: dict[tuple[Params, TableSpec], _Checker] = {}


def _checker(params: Params, table: TableSpec) -> _Checker:
    key = (params, table)
    if key not in _CHECKERS:
        if len(_CHECKERS) > 64:
            _CHECKERS.clear()
        _CHECKERS[key] = _Checker(params, table, _Walls(params, table))
    return _CHECKERS[key]


def audit_shot(
    result: ShotResult,
    start: Mapping[str, Vec2],
    params: Params | None = None,
    table: TableSpec | None = None,
) -> Audit:
    """Check a simulated shot from the position ``start`` (the balls' positions before
    the stroke): exact minimum distances between balls and from balls to the walls over
    every piece of the paths, the engine's validation at every event point (centre not
    over a pocket, inside the outline, ...) and :func:`check_position` on the rest
    positions."""
    params, table = _table_and_params(params, table)
    check = _checker(params, table)
    ctx = _context(params, table)
    names = list(start)
    lines: dict[str, list[_Piece]] = {}
    problems: list[str] = []
    pieces = 0
    excursion = -math.inf
    for name in names:
        own = _pieces(result.paths.get(name, ()))
        pieces += len(own)
        line = _timeline(own, start[name], result.rest[name], result.duration)
        lines[name] = line
        base = check.walls.start(*start[name])
        for p in own:
            excursion = max(excursion, check.walls.excursion(p) - max(base, 0.0))
            for t in (p[0], p[1]):
                x, y, _, _, z, _ = _state(p, t)
                if z > 0 or p[10] != 0:
                    continue  # in the air: the walls above say whether it is clear
                if ctx.validate((x, y)) is not None and not _falling(result, name, t):
                    problems.append(f"{name} off the table at t={t!r}: ({x!r}, {y!r})")
    overlap = -math.inf
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            one, two = lines[names[a]], lines[names[b]]
            first = 2 * params.R - math.dist(start[names[a]], start[names[b]])
            overlap = max(overlap, _ball_overlap(one, two, 2 * params.R) - max(first, 0.0))
    rest = {k: v for k, v in result.rest.items() if v is not None}
    if rest:
        try:
            check_position(rest, params, table)
        except PhysicsInputError as exc:
            problems.append(f"rest position refused: {exc}")
    return Audit(overlap, excursion, tuple(problems), pieces)


def _falling(result: ShotResult, ball: str, t: float) -> bool:
    """Whether ``ball`` falls into a pocket at ``t`` (its centre then lies on the fall
    circle, which the validation calls "over the pocket")."""
    return result.rest.get(ball, ()) is None and any(
        e.t == t and e.kind.value in ("pocket", "off_table") and e.balls == (ball,)
        for e in result.events
    )
