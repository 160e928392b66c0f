"""The value of a leave: how many points a player may expect from a position, cheaply.

The AI scores a simulated stroke by its points plus the value of the position it leaves —
its own, when the visit goes on, or minus the opponent's, when it ends. Simulating the next
stroke of every candidate would cost a thousand times more, so the value is an estimate
from geometry (the game knowledge of ``docs/players.md``): the best single scoring
stroke on offer, ``p * (points + continuation)``, with ``p`` the chance that the player's
execution noise leaves the stroke good, plus a little for a second choice.

The chances come from the tolerance of each stroke:

- **Pot**: the object ball must leave within ``h / d2`` radians of the pocket line (``h``
  the part of the mouth it may use, ``d2`` its distance to the pocket). An aim error
  ``da`` turns it by ``da * d1 / (2R cos cut)`` (the ghost ball moves ``d1 * da``
  sideways), plus a little throw from speed and spin errors.
- **In-off and cannon**: the cue ball must leave the first object ball within ``h / d2``
  of the pocket (in-off) or within about one diameter of the second ball (cannon). Its
  direction depends on the contact: rolling, ``tan(defl) = sin c cos c / (sin^2 c + 2/5)``
  (cut ``c``), which is flat near the half-ball contact (the reference stroke of the game,
  "by angle"); stunned, ``defl = 90 deg - c``. The sensitivity ``d defl / d aim`` is
  tabulated per deflection; speed and spin errors add a floor.
- The chance is ``erf(tolerance / (sqrt 2 * sigma))``: a Gaussian error inside the window.

From hand the best place in the D is found along the lines that give each stroke its
natural angle (a straight or slightly cut pot, a 22–50 degree in-off), and the result for
one object ball is cached on a 2.5 cm grid (interpolated), as it is asked very often.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable

from onered.physics.cue import squirt_angle
from onered.physics.geometry import TableSpec
from onered.physics.params import Params
from onered.players.geometry import (
    PocketTarget,
    clear,
    d_points,
    pocket_targets,
    ray_into_d,
)
from onered.players.geometry import (
    ghost as _ghost,
)
from onered.players.strength import Noise
from onered.table import BALL_RADIUS, Point, in_baulk

_R2 = 2 * BALL_RADIUS
_SQRT2 = math.sqrt(2.0)
#: Largest cut angle of a pot considered, and its cosine.
_MAX_CUT_COS = math.cos(math.radians(78.0))
#: Deflections tried from hand for in-offs (degrees, both sides), cuts for pots.
_HAND_DEFLECTIONS = (24.0, 32.0, 45.0)
_HAND_CUTS = (0.0, 20.0, 40.0)
#: Grid step of the from-hand cache (metres).
_CELL = 0.025
#: A ball's part of a second-best option in the value of a position.
_SECOND = 0.2
#: The continuation after potting the opponent's ball, as a share of the full one: with it
#: off the table no cannon can be made until its owner's visit.
_OPP_POT_SHARE = 0.6
#: Object balls of these values: red, and the opponent's ball.
RED_POINTS = 3
BALL_POINTS = 2


def _rolling_deflection(cut: float) -> float:
    s, c = math.sin(cut), math.cos(cut)
    return math.atan2(s * c, s * s + 0.4)


@functools.cache
def _sensitivity_table() -> tuple[float, ...]:
    """For each whole degree of deflection 0..180, the smallest ``|d defl / d cut| /
    cos(cut)`` over the ways to get it: a rolling cue ball (up to the natural angle of
    about 33.7 degrees), or a stunned one (``defl = 90 - cut``, harder: 1.4 x). Computed once
    (a pure function that costs tens of milliseconds: every player, coach and shots-study
    task builds a leave model)."""
    cuts = [math.radians(k * 0.25) for k in range(1, 356)]  # 0.25 .. 88.75 degrees
    table = []
    for deg in range(181):
        target = math.radians(deg)
        best = math.inf
        for k in range(len(cuts) - 1):
            a, b = cuts[k], cuts[k + 1]
            da, db = _rolling_deflection(a), _rolling_deflection(b)
            if (da - target) * (db - target) <= 0:
                slope = abs(db - da) / (b - a)
                best = min(best, slope / math.cos(a))
        if 12 <= deg <= 85:
            cut = math.radians(90 - deg)
            best = min(best, 1.4 / math.cos(cut))
        if deg > 33:
            # a little running side or follow widens the natural angle a few degrees
            best = min(best, 0.4 + 0.3 * (deg - 33))
        table.append(best)
    table[0] = table[1]
    return tuple(table)


@functools.lru_cache(maxsize=16)
def _hand_grid(
    sigmas: tuple[float, float, float], table: TableSpec
) -> dict[tuple[int, int], tuple[float, float]]:
    """The from-hand cache of one level of play on one table (filled as it is used)."""
    return {}


def _pocket_rows(
    pockets: tuple[PocketTarget, ...],
) -> list[tuple[float, float, float, float, float, float, float]]:
    """Each pocket's aim, axis, ``cos_max``, ``half`` and ``jaw_loss`` as one flat tuple
    (read in the innermost loop of the leave's chances, once per pocket per object ball)."""
    return [
        (p.aim[0], p.aim[1], p.axis[0], p.axis[1], p.cos_max, p.half, p.jaw_loss) for p in pockets
    ]


class LeaveModel:
    """Estimates of scoring chances and position values for one level of play."""

    def __init__(self, noise: Noise, continuation: float, params: Params, table: TableSpec) -> None:
        self.pockets: tuple[PocketTarget, ...] = pocket_targets(table)
        self.continuation = continuation
        squirt = squirt_angle(min(noise.tip, 0.8), params)
        self.sigma_aim = math.hypot(math.radians(noise.aim), squirt)
        self.sigma_throw = math.radians(0.05 + 2.0 * noise.speed + 3.0 * noise.tip)
        self.sigma_curve = math.radians(0.4 + 12.0 * noise.speed + 8.0 * noise.tip)
        self._sensitivity = _sensitivity_table()
        self._hand_points = d_points(3)
        self._hand_cuts = [
            (math.cos(a), math.sin(a), math.cos(a))
            for cut in _HAND_CUTS
            for a in {math.radians(cut), -math.radians(cut)}
        ]
        self._hand_deflections = [
            (math.cos(a), math.sin(a), self._sensitivity[int(defl)])
            for defl in _HAND_DEFLECTIONS
            for a in (math.radians(defl), -math.radians(defl))
        ]
        #: each pocket's numbers as one tuple, for the loop of :meth:`_chances`
        self._rows = _pocket_rows(self.pockets)
        # the from-hand grid depends on nothing but these, so players of the same level on
        # the same table share it (a memo of a pure function)
        self._hand = _hand_grid((self.sigma_aim, self.sigma_throw, self.sigma_curve), table)

    # --- chances of single strokes --------------------------------------------------------

    def _tolerance(self, start: Point, pocket: PocketTarget) -> float:
        """The angle (radians) within which a ball leaving ``start`` drops in ``pocket``."""
        dx, dy = pocket.aim[0] - start[0], pocket.aim[1] - start[1]
        d = math.hypot(dx, dy)
        if d < 1e-9:
            return math.pi
        cos_a = (dx * pocket.axis[0] + dy * pocket.axis[1]) / d
        if cos_a < pocket.cos_max:
            return 0.0
        h = pocket.half * cos_a - pocket.jaw_loss
        return h / d if h > 0 else 0.0

    def pot(self, cue: Point, obj: Point, pocket: PocketTarget, others: tuple[Point, ...]) -> float:
        """Chance to pot the ball at ``obj`` into ``pocket`` with the cue ball at ``cue``."""
        p = self._hazards(cue, obj, (pocket,))[0]
        if p > 0 and others:
            g = _ghost(obj, pocket.aim)
            if not (clear(cue, g, others) and clear(obj, pocket.aim, others)):
                return 0.0
        return p

    def in_off(
        self, cue: Point, obj: Point, pocket: PocketTarget, others: tuple[Point, ...]
    ) -> float:
        """Chance of an in-off off the ball at ``obj`` into ``pocket``."""
        p = self._hazards(cue, obj, (pocket,))[1]
        if p > 0 and others and not (clear(cue, obj, others) and clear(obj, pocket.aim, others)):
            return 0.0
        return p

    def _hazards(
        self, cue: Point, obj: Point, pockets: tuple[PocketTarget, ...]
    ) -> tuple[float, float]:
        """The best chances of a pot of the ball at ``obj`` and of an in-off off it, over
        ``pockets``, with the cue ball at ``cue`` and nothing in the way."""
        pots, inoffs = self._chances(cue, obj, pockets)
        return (max(pots, default=0.0), max(inoffs, default=0.0))

    def _chances(
        self, cue: Point, obj: Point, pockets: tuple[PocketTarget, ...]
    ) -> tuple[list[float], list[float]]:
        """For each of ``pockets``, the chance of a pot of the ball at ``obj`` and of an
        in-off off it with the cue ball at ``cue``, nothing in the way."""
        cx0, cy0 = cue
        x0, y0 = obj
        ix, iy = x0 - cx0, y0 - cy0
        d_in = math.hypot(ix, iy)
        n = len(pockets)
        pots = [0.0] * n
        inoffs = [0.0] * n
        if d_in < 1e-6:
            return pots, inoffs
        sigma_aim, sens_table = self.sigma_aim, self._sensitivity
        throw, curve = self.sigma_throw, self.sigma_curve
        erf, hypot, acos, degrees, inf = math.erf, math.hypot, math.acos, math.degrees, math.inf
        rows = self._rows if pockets is self.pockets else _pocket_rows(pockets)
        for k, (px, py, ax, ay, cos_max, half, jaw_loss) in enumerate(rows):
            ox, oy = px - x0, py - y0
            d2 = hypot(ox, oy)
            if d2 < 1e-9:
                continue
            ux, uy = ox / d2, oy / d2
            cos_a = ux * ax + uy * ay
            if cos_a < cos_max:
                continue
            h = half * cos_a - jaw_loss
            if h <= 0:
                continue
            tol = h / d2 / _SQRT2
            # the pot: the cue ball to the ghost ball, the object ball to the pocket
            vx, vy = x0 - _R2 * ux - cx0, y0 - _R2 * uy - cy0
            d1 = hypot(vx, vy)
            if d1 > 1e-6:
                cos_cut = (vx * ux + vy * uy) / d1
                if cos_cut >= _MAX_CUT_COS:
                    pots[k] = erf(tol / (sigma_aim * d1 / (_R2 * cos_cut) + throw))
            # the in-off: the cue ball leaves the object ball towards the pocket
            cos_psi = (ix * ux + iy * uy) / d_in
            if cos_psi > 1.0:
                cos_psi = 1.0
            elif cos_psi < -1.0:
                cos_psi = -1.0
            sens = sens_table[int(degrees(acos(cos_psi)) + 0.5)]
            if sens != inf:
                inoffs[k] = erf(tol / (sigma_aim * d_in / _R2 * sens + curve))
        return pots, inoffs

    def _deflect(self, cue: Point, obj: Point, target: Point, tol: float) -> float:
        """Chance that the cue ball, sent at ``obj``, leaves it within ``tol`` radians of
        the line to ``target``."""
        ix, iy = obj[0] - cue[0], obj[1] - cue[1]
        d1 = math.hypot(ix, iy)
        ox, oy = target[0] - obj[0], target[1] - obj[1]
        d2 = math.hypot(ox, oy)
        if d1 < 1e-6 or d2 < 1e-6:
            return 0.0
        cos_psi = max(-1.0, min(1.0, (ix * ox + iy * oy) / (d1 * d2)))
        sens = self._sensitivity[int(math.degrees(math.acos(cos_psi)) + 0.5)]
        if sens == math.inf:
            return 0.0
        sigma = self.sigma_aim * d1 / _R2 * sens + self.sigma_curve
        return math.erf(tol / (_SQRT2 * sigma))

    def cannon(self, cue: Point, first: Point, second: Point) -> float:
        """Chance of a cannon: the cue ball to ``first``, then on to ``second``."""
        d12 = math.hypot(second[0] - first[0], second[1] - first[1])
        if d12 < _R2:
            return 1.0
        if not clear(cue, first, (second,)):
            return 0.0
        return self._deflect(cue, first, second, 0.85 * _R2 / d12)

    # --- from hand ------------------------------------------------------------------------

    def _hand_cell(self, i: int, j: int) -> tuple[float, float]:
        key = (i, j)
        cached = self._hand.get(key)
        if cached is None:
            cached = self._hand_hazards((i * _CELL, j * _CELL))
            self._hand[key] = cached
        return cached

    def _hand_hazards(self, obj: Point) -> tuple[float, float]:
        """The best chances of a pot and of an in-off of one object ball at ``obj`` from
        anywhere in the D (no other ball in the way). Zero for a ball in baulk: it may not
        be played directly from hand (2.6.6).

        Along each line that gives a stroke its cut (pots) or deflection (in-offs), the
        nearest point of the D is the best; the chance there follows from the distance
        alone. A few spread points of the D cover the rest."""
        if in_baulk(obj):
            return (0.0, 0.0)
        best_pot = best_in = 0.0
        sigma_aim, throw, curve = self.sigma_aim, self.sigma_throw, self.sigma_curve
        erf = math.erf
        for pocket in self.pockets:
            ox, oy = pocket.aim[0] - obj[0], pocket.aim[1] - obj[1]
            d2 = math.hypot(ox, oy)
            if d2 < 1e-6:
                continue
            tol = self._tolerance(obj, pocket) / _SQRT2
            if tol <= 0:
                continue
            ux, uy = ox / d2, oy / d2
            ghost = (obj[0] - _R2 * ux, obj[1] - _R2 * uy)
            for ca, sa, cos_cut in self._hand_cuts:
                back = (-(ux * ca - uy * sa), -(ux * sa + uy * ca))
                t = ray_into_d(ghost, back)
                if t is not None:
                    best_pot = max(best_pot, erf(tol / (sigma_aim * t / (_R2 * cos_cut) + throw)))
            for ca, sa, sens in self._hand_deflections:
                back = (-(ux * ca - uy * sa), -(ux * sa + uy * ca))
                t = ray_into_d(obj, back)
                if t is not None:
                    best_in = max(best_in, erf(tol / (sigma_aim * t / _R2 * sens + curve)))
        for cue in self._hand_points[:3]:
            pot, inoff = self._hazards(cue, obj, self.pockets)
            best_pot, best_in = max(best_pot, pot), max(best_in, inoff)
        return (best_pot, best_in)

    def hand_hazards(self, obj: Point) -> tuple[float, float]:
        """:meth:`_hand_hazards`, interpolated on the cached grid."""
        if in_baulk(obj):
            return (0.0, 0.0)
        fx, fy = obj[0] / _CELL, obj[1] / _CELL
        i, j = int(fx), int(fy)
        tx, ty = fx - i, fy - j
        a = self._hand_cell(i, j)
        b = self._hand_cell(i + 1, j)
        c = self._hand_cell(i, j + 1)
        d = self._hand_cell(i + 1, j + 1)
        w00, w10, w01, w11 = (1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty
        return (
            a[0] * w00 + b[0] * w10 + c[0] * w01 + d[0] * w11,
            a[1] * w00 + b[1] * w10 + c[1] * w01 + d[1] * w11,
        )

    # --- positions ------------------------------------------------------------------------

    def value(
        self,
        cue: Point | None,
        objects: Iterable[tuple[Point, bool]],
        *,
        hazards: bool = True,
        cannons: bool = True,
    ) -> float:
        """The points a player may expect from a position: his ball at ``cue`` (``None``:
        in hand), the object balls ``(centre, is_red)`` on the table. ``hazards`` /
        ``cannons`` false when the limits (2.8, 2.9) forbid a stroke of only that kind."""
        objs = list(objects)
        k = self.continuation
        options: list[float] = []
        if cue is None:
            live = [(p, red) for p, red in objs if not in_baulk(p)]
            if hazards:
                for p, red in live:
                    pot, inoff = self.hand_hazards(p)
                    v = RED_POINTS if red else BALL_POINTS
                    options.append(pot * (v + (k if red else k * _OPP_POT_SHARE)))
                    options.append(inoff * (v + k))
            if cannons and len(objs) == 2:
                for p, _ in live:
                    q = objs[1][0] if p is objs[0][0] else objs[0][0]
                    best = max(self.cannon(c, p, q) for c in self._hand_points[:3])
                    options.append(best * (2 + k))
        else:
            # every option's value first, the clear paths checked from the best down
            pockets = self.pockets
            cands: list[tuple[float, int, Point, int, tuple[Point, ...]]] = []
            points = [p for p, _ in objs]
            for p, red in objs:
                others = tuple(q for q in points if q is not p)
                if hazards:
                    v = RED_POINTS if red else BALL_POINTS
                    kp = k if red else k * _OPP_POT_SHARE
                    pots, inoffs = self._chances(cue, p, pockets)
                    for j in range(len(pockets)):
                        if pots[j] > 0.01:
                            cands.append((pots[j] * (v + kp), 0, p, j, others))
                        if inoffs[j] > 0.01:
                            cands.append((inoffs[j] * (v + k), 1, p, j, others))
                if cannons and others:
                    options.append(self.cannon(cue, p, others[0]) * (2 + k))
            cands.sort(key=lambda c: -c[0])
            found = 0
            for val, kind, p, j, others in cands:
                target = pockets[j].aim
                start = _ghost(p, target) if kind == 0 else p
                if not others or (clear(cue, start, others) and clear(p, target, others)):
                    options.append(val)
                    found += 1
                    if found == 2:
                        break
        if not options:
            return 0.0
        options.sort(reverse=True)
        return options[0] + (_SECOND * options[1] if len(options) > 1 else 0.0)
