"""How low a player's cue can be: the least elevation the table and the balls allow.

A cue is a tapered rod: from the cue ball back to its butt it must pass over the rail when
the cue ball lies within a cue's length of a cushion, and over any ball near the line
behind the cue ball. A level cue (elevation 0) runs at the height of the point it strikes,
``R (1 + height)``, below the cushion's nose (``Params.cushion_height``, 7R/5): so a player
raises the butt, and the nearer the cushion or the ball behind, the more. The elevation
the AI plays (:class:`Clearance`) is the least that clears every obstacle — players do not
raise the cue without a reason — and its execution error can only raise it further
(:meth:`Clearance.lift`).

The geometry (a derivation in ``docs/players.md``): the cue's axis passes through the
point ``height * R`` above the ball's centre on the ball's vertical section (the tip's
side offset moves it sideways by ``side * R``) and rises backwards at the elevation θ. In
the vertical plane of the cue, an obstacle at a horizontal distance ``d`` behind the
ball's centre whose top edge stands ``k`` above the ball's centre is cleared by the cue's
surface (radius ``r`` there) when ``d sin θ - k cos θ >= r' - height * R``, where ``r'``
is ``r`` for a cushion's edge and, for a ball at ``e`` to the side of the cue's line,
``sqrt((R + r)^2 - e^2)`` with ``k = 0`` (the ball's centre is at the cue ball's height).
So ``θ = atan2(k, d) + asin(m / hypot(d, k))``, ``m = r' - height * R``, a closed form: the
search asks it for every candidate stroke.

The table's edges are the cushions' nose lines (the simulator's outline); the engine's
cushion top and rail are flat at the nose height out to ``Params.rail_width`` beyond it
(``docs/table.md``), so the cue must clear the nose line and the rail's outer edge (the
butt end, where the cue is thickest, when it ends over the rail). Pockets are not gaps:
the rail runs round them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from onered.physics import Params, TableSpec
from onered.physics.cue import MAX_ELEVATION
from onered.physics.types import Strike
from onered.table import Point


@dataclass(frozen=True, slots=True)
class Cue:
    """A snooker cue's shape: ``length`` (m) and the radius at the tip and at the butt
    (m); the radius grows linearly between them (the cue's taper)."""

    length: float = 1.47
    tip_radius: float = 0.00475
    butt_radius: float = 0.015

    def __post_init__(self) -> None:
        for name in ("length", "tip_radius", "butt_radius"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"cue.{name}: expected a positive length in m, got {value!r}")

    def radius_at(self, distance: float) -> float:
        """The cue's radius ``distance`` (m) behind its tip."""
        s = min(max(distance, 0.0), self.length)
        return self.tip_radius + (self.butt_radius - self.tip_radius) * s / self.length


#: A snooker cue: 58 inches long (57-58 in are the standard lengths), a 9.5 mm tip
#: (snooker tips are 9-10.5 mm) and a 30 mm butt.
SNOOKER_CUE = Cue()


def clearing_angle(d: float, k: float, m: float) -> float:
    """The least elevation θ in [0, 90] degrees with ``d sin θ - k cos θ >= m``: the cue
    clears an edge ``k`` above the struck point's level ``d`` behind it by ``m`` (see the
    module docstring); 90 when no elevation does."""
    if -k >= m:
        return 0.0
    rho = math.hypot(d, k)
    if m >= rho:
        return MAX_ELEVATION
    theta = math.degrees(math.atan2(k, d) + math.asin(m / rho))
    return min(MAX_ELEVATION, max(0.0, theta))


class Clearance:
    """The least elevation of a cue striking the ball at ``cue_ball`` with the other balls
    at ``others``, on the table ``table`` with the cushions of ``params``: for each aim and
    tip offset (:meth:`minimum`), and a strike raised to it (:meth:`lift`)."""

    __slots__ = ("_balls", "_cue", "_h", "_r", "_rail", "_size", "_x", "_y")

    def __init__(
        self,
        cue_ball: Point,
        others: Iterable[Point],
        params: Params,
        table: TableSpec,
        cue: Cue = SNOOKER_CUE,
    ) -> None:
        self._x, self._y = cue_ball
        self._balls = [
            (p[0] - self._x, p[1] - self._y)
            for p in others
            if math.dist(p, cue_ball) < cue.length + 2 * params.R
        ]
        self._r = params.R
        self._h = params.cushion_height
        self._rail = params.rail_width
        self._size = (table.width, table.length)
        self._cue = cue

    def minimum(self, aim: float, side: float = 0.0, height: float = 0.0) -> float:
        """The least elevation (degrees) at which a cue aimed at ``aim`` (degrees), striking
        ``side`` and ``height`` (fractions of R) off the ball's centre, clears the rail and
        every ball behind the cue ball."""
        phi = math.radians(aim)
        cx, cy = math.cos(phi), math.sin(phi)
        cue, r_ball = self._cue, self._r
        lift = height * r_ball  # the struck point above the ball's centre (level cue)
        # the cushion behind: the distances back along the cue to the table's outline and
        # to the rail's outer edge (the cue crosses the rail between them)
        theta = 0.0
        offset = side * r_ball  # the cue's line passes this far right of the centre
        ox, oy = self._x + offset * cy, self._y - offset * cx
        # how far behind the centre the level cue's butt reaches (the tip touches the ball
        # ``c R`` behind its vertical section through the struck point)
        tip = math.sqrt(max(0.0, 1.0 - side * side - height * height)) * r_ball
        reach = cue.length + tip
        back = self._back(ox, oy, cx, cy, 0.0)
        if back < reach:
            k = self._h - r_ball
            far = self._back(ox, oy, cx, cy, self._rail)
            for d in (back, min(far, reach)):
                theta = max(theta, clearing_angle(d, k, cue.radius_at(d) - lift))
            t = math.radians(theta)
            if reach * math.cos(t) - lift * math.sin(t) < far:
                # raised so, the butt ends over the rail or short of it: the exact test
                theta = self._over_rail(back, far, k, tip, lift)
        # the balls behind, near the cue's line
        for bx, by in self._balls:
            along = -(bx * cx + by * cy)
            if along <= 0.0 or along >= reach:
                continue
            across = abs(bx * cy - by * cx - offset)
            near = r_ball + cue.radius_at(along)
            if across >= near:
                continue
            m = math.sqrt(near * near - across * across) - lift
            theta = max(theta, clearing_angle(along, 0.0, m))
        return theta

    def _over_rail(self, back: float, far: float, k: float, tip: float, lift: float) -> float:
        """The least elevation (degrees) at which the cue, whose butt may end over the rail
        or short of it, passes over the part of the rail between ``back`` and ``far`` (m
        behind the ball's centre) that it reaches: found by bisection, as whether the cue
        clears is monotone in the elevation (a steeper cue is higher and shorter)."""
        cue = self._cue

        def clears(t: float) -> bool:
            sin, cos = math.sin(t), math.cos(t)
            butt = (cue.length + tip) * cos - lift * sin  # the butt end, behind the centre
            if butt <= back:
                return True
            for d in (back, min(far, butt)):
                along = (d + lift * sin) / cos - tip  # from the tip, along the cue
                if d * sin - k * cos < cue.radius_at(along) - lift:
                    return False
            return True

        lo, hi = 0.0, math.radians(MAX_ELEVATION)
        if clears(lo):
            return 0.0
        for _ in range(30):
            mid = 0.5 * (lo + hi)
            if clears(mid):
                hi = mid
            else:
                lo = mid
        return math.degrees(hi)

    def _back(self, x: float, y: float, cx: float, cy: float, margin: float) -> float:
        """How far (m, horizontally) behind ``(x, y)`` a cue aimed along ``(cx, cy)``
        crosses the table's outline widened by ``margin`` on every side."""
        width, length = self._size
        back = math.inf
        if cx > 1e-12:
            back = (x + margin) / cx
        elif cx < -1e-12:
            back = (x - width - margin) / cx
        if cy > 1e-12:
            back = min(back, (y + margin) / cy)
        elif cy < -1e-12:
            back = min(back, (y - length - margin) / cy)
        return back

    def lift(self, strike: Strike) -> Strike:
        """``strike`` with its elevation raised to the least this position allows (a cue
        cannot pass through the rail or a ball); unchanged when it is already above."""
        least = self.minimum(strike.aim, strike.side, strike.height)
        if strike.elevation >= least:
            return strike
        return replace(strike, elevation=least)
