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

Two forms, one model. :meth:`LeaveModel.value` values one position in plain Python (about
13 µs: the coach, the placement from hand, a foul's options); :meth:`LeaveModel.values`
values many at once in NumPy (the search: about 2,000 leaves a decision, 10x faster a row,
``benchmarks/bench_leave.py``). The scalar form is not a one-row call of the batch, which
costs some 15 times more for one row (NumPy's overhead per operation); instead what makes
the model is written once and called by both: the error models (``_pot_spread``,
``_deflect_spread``), the options' weights, the least chance counted (``_LEAST``), the value
of the best two options (``_position_value``), the sensitivity table and the from-hand
grid's cells. The geometry is the same steps in the same order in both (the batch's comments
name the scalar step each follows); they agree within 2e-12 (the batch's ``sqrt`` for
``math.hypot`` and an interpolated ``erf``, NumPy having none), which
``tests/players/test_players_leave_batch.py`` holds for generated positions.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from typing import TypeVar

import numpy as np
import numpy.typing as npt

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
from onered.table import BALL_RADIUS, BAULK_Y, EPS, Point, in_baulk

_R2 = 2 * BALL_RADIUS
_REACH2 = (2 * BALL_RADIUS) ** 2
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
#: The least chance of a pot or in-off counted as an option of a position.
_LEAST = 0.01
#: Rows of :meth:`LeaveModel.values` computed together: its temporaries stay in the cache
#: (1024 rows of two balls: 2.3 ms, 2,000 at once: 3.9 ms).
_BLOCK = 1024
#: The batch's erf (:func:`_erf_many`): cubic Hermite interpolation of ``math.erf`` on this
#: many cells per unit, up to :data:`_ERF_TOP` (``math.erf`` rounds to 1.0 from there on).
_ERF_SCALE = 512
_ERF_TOP = 6.0

Floats = npt.NDArray[np.float64]
#: A float or an array of them: the error models below serve the scalar and batch paths.
F = TypeVar("F", float, Floats)


def _position_value(best: F, second: F) -> F:
    """The value of a position from its best two options (a second choice is worth a
    little: the first may be missed)."""
    return best + _SECOND * second


@functools.cache
def _erf_table() -> tuple[Floats, Floats, Floats, Floats]:
    """The cubic of each cell of :func:`_erf_many`, its coefficients of ``t^0`` to ``t^3``
    (one array each): the Hermite interpolation of ``math.erf`` and its derivative at the
    cell's ends (a pure function, built once: a few milliseconds)."""
    xs = np.arange(int(_ERF_TOP * _ERF_SCALE) + 1, dtype=np.float64) / _ERF_SCALE
    f = np.array([math.erf(x) for x in xs.tolist()])
    d = 2.0 / math.sqrt(math.pi) * np.exp(-xs * xs) / _ERF_SCALE  # per cell
    f0, f1, d0, d1 = f[:-1], f[1:], d[:-1], d[1:]
    return (f0, d0, 3.0 * (f1 - f0) - 2.0 * d0 - d1, 2.0 * (f0 - f1) + d0 + d1)


def _erf_many(x: Floats) -> Floats:
    """``math.erf`` of each element of ``x >= 0`` (NumPy has none) within 2e-13: a cubic
    Hermite interpolation between exact values 1/512 apart (error at most
    ``h^4 max|erf^(4)| / 384``); past :data:`_ERF_TOP`, where ``math.erf`` is 1.0, the
    last cell's end (1.0 within 1e-16)."""
    c0, c1, c2, c3 = _erf_table()
    u = np.minimum(x, _ERF_TOP) * _ERF_SCALE
    i = np.clip(u.astype(np.intp), 0, c0.size - 1)
    t = u - i
    out: Floats = ((c3.take(i) * t + c2.take(i)) * t + c1.take(i)) * t + c0.take(i)
    return out


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
        #: the same as arrays (one column per pocket), for :meth:`values`
        self._pocket_columns = np.array(self._rows, dtype=np.float64).T
        self._sensitivity_array = np.array(self._sensitivity)
        # what each option is worth when it succeeds: points and the break's continuation
        # (by the object ball: red or not; after potting the opponent's ball no cannon is
        # on until his visit)
        k = continuation
        self._pot_weight = {True: RED_POINTS + k, False: BALL_POINTS + k * _OPP_POT_SHARE}
        self._inoff_weight = {True: RED_POINTS + k, False: BALL_POINTS + k}
        self._cannon_weight = 2 + k
        # the from-hand grid depends on nothing but these, so players of the same level on
        # the same table share it (a memo of a pure function)
        self._hand = _hand_grid((self.sigma_aim, self.sigma_throw, self.sigma_curve), table)
        #: the same cells as an array for :meth:`values` (NaN: not computed yet), grown as
        #: needed
        self._hand_array: Floats = np.full((0, 0, 2), np.nan)

    # --- the error models (one place: the scalar and the batch paths both call them) ------

    def _pot_spread(self, d1: F, cos_cut: F) -> F:
        """The spread (radians) of the object ball's direction in a pot played from ``d1``
        to the ghost ball at a cut of cosine ``cos_cut``: the aim error magnified by the
        cut, plus throw."""
        return self.sigma_aim * d1 / (_R2 * cos_cut) + self.sigma_throw

    def _deflect_spread(self, d1: F, sens: F) -> F:
        """The spread (radians) of the cue ball's direction off an object ball ``d1``
        away, at a deflection of sensitivity ``sens`` (:func:`_sensitivity_table`): the
        aim error magnified, plus the curve of speed and spin errors."""
        return self.sigma_aim * d1 / _R2 * sens + self.sigma_curve

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
        sens_table = self._sensitivity
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
                    pots[k] = erf(tol / self._pot_spread(d1, cos_cut))
            # the in-off: the cue ball leaves the object ball towards the pocket
            cos_psi = (ix * ux + iy * uy) / d_in
            if cos_psi > 1.0:
                cos_psi = 1.0
            elif cos_psi < -1.0:
                cos_psi = -1.0
            sens = sens_table[int(degrees(acos(cos_psi)) + 0.5)]
            if sens != inf:
                inoffs[k] = erf(tol / self._deflect_spread(d_in, sens))
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
        return math.erf(tol / (_SQRT2 * self._deflect_spread(d1, sens)))

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
                    best_pot = max(best_pot, erf(tol / self._pot_spread(t, cos_cut)))
            for ca, sa, sens in self._hand_deflections:
                back = (-(ux * ca - uy * sa), -(ux * sa + uy * ca))
                t = ray_into_d(obj, back)
                if t is not None:
                    best_in = max(best_in, erf(tol / self._deflect_spread(t, sens)))
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
        options: list[float] = []
        if cue is None:
            live = [(p, red) for p, red in objs if not in_baulk(p)]
            if hazards:
                for p, red in live:
                    pot, inoff = self.hand_hazards(p)
                    options.append(pot * self._pot_weight[red])
                    options.append(inoff * self._inoff_weight[red])
            if cannons and len(objs) == 2:
                for p, _ in live:
                    q = objs[1][0] if p is objs[0][0] else objs[0][0]
                    best = max(self.cannon(c, p, q) for c in self._hand_points[:3])
                    options.append(best * self._cannon_weight)
        else:
            # every option's value first, the clear paths checked from the best down
            pockets = self.pockets
            cands: list[tuple[float, int, Point, int, tuple[Point, ...]]] = []
            points = [p for p, _ in objs]
            for p, red in objs:
                others = tuple(q for q in points if q is not p)
                if hazards:
                    w_pot, w_in = self._pot_weight[red], self._inoff_weight[red]
                    pots, inoffs = self._chances(cue, p, pockets)
                    for j in range(len(pockets)):
                        if pots[j] > _LEAST:
                            cands.append((pots[j] * w_pot, 0, p, j, others))
                        if inoffs[j] > _LEAST:
                            cands.append((inoffs[j] * w_in, 1, p, j, others))
                if cannons and others:
                    options.append(self.cannon(cue, p, others[0]) * self._cannon_weight)
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
        return _position_value(options[0], options[1] if len(options) > 1 else 0.0)

    # --- many positions at once -------------------------------------------------------------

    def values(
        self,
        cues: npt.ArrayLike,
        objects: npt.ArrayLike,
        reds: npt.ArrayLike,
        hazards: npt.ArrayLike,
        cannons: npt.ArrayLike,
    ) -> Floats:
        """:meth:`value` of ``N`` positions at once, row by row (equal within 1e-12).

        - ``cues`` ``(N, 2)``: the player's ball; a row with a NaN: in hand.
        - ``objects`` ``(N, K, 2)``: the object balls, in the order :meth:`value` would be
          given them (the first other ball is the cannon's second); a NaN: off the table.
        - ``reds`` ``(N, K)`` bool: which object balls are red.
        - ``hazards``, ``cannons`` ``(N,)`` bool: :meth:`value`'s flags of each row.

        On-table rows are computed together in NumPy, :data:`_BLOCK` rows at a time; rows
        in hand go through :meth:`value` one by one (its from-hand grid is cached and they
        are few). Bad shapes or flags raise ``ValueError`` naming the argument."""
        cue_a = np.asarray(cues, dtype=np.float64)
        obj_a = np.asarray(objects, dtype=np.float64)
        n = cue_a.shape[0] if cue_a.ndim == 2 else -1
        if cue_a.ndim != 2 or cue_a.shape[1] != 2:
            raise ValueError(f"cues: expected shape (N, 2), got {cue_a.shape}")
        if obj_a.ndim != 3 or obj_a.shape[0] != n or obj_a.shape[2] != 2:
            raise ValueError(f"objects: expected shape ({n}, K, 2), got {obj_a.shape}")
        k = obj_a.shape[1]
        red_a = _flags(reds, "reds", (n, k))
        haz_a = _flags(hazards, "hazards", (n,))
        can_a = _flags(cannons, "cannons", (n,))
        off = np.asarray(np.isnan(obj_a).any(axis=2))
        if off.any():
            obj_a = np.where(off[:, :, None], np.nan, obj_a)
        out = np.zeros(n)
        hand = np.asarray(np.isnan(cue_a).any(axis=1))
        with np.errstate(all="ignore"):  # NaN balls and degenerate strokes are masked
            for part, method in ((~hand, self._table_values), (hand, self._hand_values)):
                at = np.flatnonzero(part)
                for start in range(0, at.size, _BLOCK):
                    rows = at[start : start + _BLOCK]
                    out[rows] = method(
                        cue_a[rows], obj_a[rows], red_a[rows], haz_a[rows], can_a[rows]
                    )
        return out

    def _hand_values(
        self,
        cue: Floats,
        obj: Floats,
        red: npt.NDArray[np.bool_],
        hazards: npt.NDArray[np.bool_],
        cannons: npt.NDArray[np.bool_],
    ) -> Floats:
        """:meth:`values` of rows with the cue ball in hand (``cue`` unused), the same
        steps as :meth:`value`'s: each ball out of baulk by :meth:`hand_hazards` (the cached
        grid, as an array), the cannons from the first three places of the D."""
        n, kk = obj.shape[0], obj.shape[1]
        bx, by = obj[:, :, 0], obj[:, :, 1]  # (n, k)
        live = np.asarray(by > BAULK_Y + EPS)  # not in baulk (a NaN ball is not live)
        pot, inoff = self._hand_grid_at(np.where(live, bx, 0.0), np.where(live, by, 0.0))
        keep = live & hazards[:, None]
        pot_values = np.where(keep, pot * self._weights(red, self._pot_weight), 0.0)
        in_values = np.where(keep, inoff * self._weights(red, self._inoff_weight), 0.0)
        options = [pot_values, in_values]
        if kk >= 2:
            two = (~np.isnan(bx)).sum(axis=1) == 2
            # the other of exactly two balls: the first ball on the table that is not it
            first = np.argmax(~np.isnan(bx), axis=1)
            last = kk - 1 - np.argmax(~np.isnan(bx[:, ::-1]), axis=1)
            rows = np.arange(n)[:, None]
            other = np.where(np.arange(kk) == first[:, None], last[:, None], first[:, None])
            sx, sy = bx[rows, other], by[rows, other]
            # the best of the three places, all in one call (place-major rows)
            places = np.repeat(np.array(self._hand_points[:3]), n, axis=0)
            tiled = [np.tile(a, (3, 1)) for a in (bx, by, sx, sy)]
            best = self._cannons(places, *tiled).reshape(3, n, kk).max(axis=0)
            on = live & (two & cannons)[:, None]
            options.append(np.where(on, best * self._cannon_weight, 0.0))
        return _best_two(np.concatenate([*options, np.zeros((n, 2))], axis=1))

    def _hand_grid_at(self, x: Floats, y: Floats) -> tuple[Floats, Floats]:
        """:meth:`hand_hazards` at each ``(x, y)`` (none in baulk): the cached grid's cells
        as an array, the ones still missing computed (and cached) first."""
        fx, fy = x / _CELL, y / _CELL
        i, j = np.trunc(fx), np.trunc(fy)
        tx, ty = fx - i, fy - j
        ii, jj = i.astype(np.intp), j.astype(np.intp)
        grid = self._hand_array
        need = (
            max(int(ii.max(initial=0)) + 2, grid.shape[0]),
            max(int(jj.max(initial=0)) + 2, grid.shape[1]),
        )
        if need != grid.shape[:2]:
            grown = np.full((*need, 2), np.nan)
            grown[: grid.shape[0], : grid.shape[1]] = grid
            grid = self._hand_array = grown
        corners = [(ii, jj), (ii + 1, jj), (ii, jj + 1), (ii + 1, jj + 1)]
        for ci, cj in corners:
            missing = np.isnan(grid[ci, cj, 0])
            if missing.any():
                for key in set(zip(ci[missing].tolist(), cj[missing].tolist(), strict=True)):
                    grid[key] = self._hand_cell(*key)
        a, b, c, d = (grid[ci, cj] for ci, cj in corners)
        w00, w10, w01, w11 = (1 - tx) * (1 - ty), tx * (1 - ty), (1 - tx) * ty, tx * ty
        return (
            a[..., 0] * w00 + b[..., 0] * w10 + c[..., 0] * w01 + d[..., 0] * w11,
            a[..., 1] * w00 + b[..., 1] * w10 + c[..., 1] * w01 + d[..., 1] * w11,
        )

    def _table_values(
        self,
        cue: Floats,
        obj: Floats,
        red: npt.NDArray[np.bool_],
        hazards: npt.NDArray[np.bool_],
        cannons: npt.NDArray[np.bool_],
    ) -> Floats:
        """:meth:`values` of rows with the cue ball on the table, the same steps as
        :meth:`_chances` and :meth:`value`: first over every (row, ball, pocket), then only
        over the strokes a pocket accepts (flat arrays indexed by ``at``), the pots only
        over those with a cut (``cut``). A NaN ball fails every comparison: it offers no
        stroke and blocks no path."""
        n, kk = obj.shape[0], obj.shape[1]
        if kk == 0:
            return np.zeros(n)
        nj = self._pocket_columns.shape[1]
        px, py, ax, ay, cos_max, half, jaw_loss = self._pocket_columns  # (j,)
        bx, by = obj[:, :, 0], obj[:, :, 1]  # (n, k)
        ox, oy = px - bx[:, :, None], py - by[:, :, None]  # (n, k, j): ball to pocket
        d2 = _norm(ox, oy)
        ux, uy = ox / d2, oy / d2
        cos_a = ux * ax + uy * ay
        h = half * cos_a - jaw_loss
        ix, iy = bx - cue[:, 0, None], by - cue[:, 1, None]  # (n, k): cue to ball
        d_in = _norm(ix, iy)
        ok = (d2 >= 1e-9) & (cos_a >= cos_max) & (h > 0)
        ok &= ((d_in >= 1e-6) & hazards[:, None])[:, :, None]
        at = np.flatnonzero(ok)
        ball = at // nj  # index into (n, k)
        row = ball // kk
        x0, y0 = bx.ravel()[ball], by.ravel()[ball]
        cx, cy = cue[row, 0], cue[row, 1]
        ox, oy, d2 = ox.ravel()[at], oy.ravel()[at], d2.ravel()[at]
        ux, uy = ox / d2, oy / d2
        tol = h.ravel()[at] / d2 / _SQRT2
        reds = red.ravel()[ball]
        # the in-off: the cue ball leaves the object ball towards the pocket
        din = d_in.ravel()[ball]
        cos_psi = np.clip((ix.ravel()[ball] * ux + iy.ravel()[ball] * uy) / din, -1.0, 1.0)
        sens = self._sensitivity_array[(np.degrees(np.arccos(cos_psi)) + 0.5).astype(np.intp)]
        inoffs = _erf_many(np.where(np.isfinite(sens), tol / self._deflect_spread(din, sens), 0.0))
        in_values = np.where(inoffs > _LEAST, inoffs * self._weights(reds, self._inoff_weight), 0.0)
        # the pot: the cue ball to the ghost ball, the object ball to the pocket
        vx, vy = x0 - _R2 * ux - cx, y0 - _R2 * uy - cy
        d1 = _norm(vx, vy)
        cos_cut = (vx * ux + vy * uy) / d1
        cut = np.flatnonzero((d1 > 1e-6) & (cos_cut >= _MAX_CUT_COS))
        pots = _erf_many(tol[cut] / self._pot_spread(d1[cut], cos_cut[cut]))
        pot_values = np.where(pots > _LEAST, pots * self._weights(reds[cut], self._pot_weight), 0.0)
        # the clear paths past every other ball (the next ones in turn; order is no matter)
        j = at - ball * nj
        pxj, pyj = px[j], py[j]
        g = _R2 / d2  # geometry.ghost of the ball and the pocket (d2 >= 1e-9 here)
        gx, gy = x0[cut] - ox[cut] * g[cut], y0[cut] - oy[cut] * g[cut]
        cxc, cyc = cx[cut], cy[cut]
        to_pocket = np.ones(at.size, dtype=np.bool_)
        to_ghost = np.ones(cut.size, dtype=np.bool_)
        to_ball = np.ones((n, kk), dtype=np.bool_)
        for shift in range(1, kk):
            qx, qy = np.roll(bx, -shift, axis=1), np.roll(by, -shift, axis=1)  # (n, k)
            to_ball &= _clear_many(cue[:, 0, None], cue[:, 1, None], bx, by, qx, qy)
            qx, qy = qx.ravel()[ball], qy.ravel()[ball]
            to_pocket &= _clear_many(x0, y0, pxj, pyj, qx, qy)
            to_ghost &= _clear_many(cxc, cyc, gx, gy, qx[cut], qy[cut])
        in_values = np.where(to_ball.ravel()[ball] & to_pocket, in_values, 0.0)
        pot_values = np.where(to_ghost & to_pocket[cut], pot_values, 0.0)
        # the cannons: each ball first, the first other ball on the table second
        present = np.asarray(~np.isnan(bx))
        second = np.full((n, kk), -1)
        for other in range(kk - 1, -1, -1):
            second[:, :other] = np.where(present[:, other, None], other, second[:, :other])
            second[:, other + 1 :] = np.where(
                present[:, other, None], other, second[:, other + 1 :]
            )
        has_second = (second >= 0) & present & cannons[:, None]
        second = np.maximum(second, 0)
        sx = np.take_along_axis(bx, second, axis=1)
        sy = np.take_along_axis(by, second, axis=1)
        cannon = self._cannons(cue, bx, by, sx, sy)
        cannon_values = np.where(has_second, cannon * self._cannon_weight, 0.0)
        # every option of a row, the two best (missing ones count 0: every option is >= 0)
        width = 2 * kk * nj + kk + 2
        options = np.zeros((n, width))
        options[:, 2 * kk * nj : 2 * kk * nj + kk] = cannon_values
        flat = options.reshape(-1)
        slot = row * width + (at - row * (kk * nj))
        flat[slot] = in_values
        flat[slot[cut] + kk * nj] = pot_values
        return _best_two(options)

    @staticmethod
    def _weights(reds: npt.NDArray[np.bool_], weight: dict[bool, float]) -> Floats:
        """The weight of each option by its ball: ``weight[True]`` for a red."""
        return np.where(reds, weight[True], weight[False])

    def _cannons(self, cue: Floats, x1: Floats, y1: Floats, x2: Floats, y2: Floats) -> Floats:
        """:meth:`cannon` of the cue ball at ``cue`` ``(n, 2)`` to the balls at ``(x1, y1)``
        then ``(x2, y2)`` ``(n, k)`` each."""
        cx, cy = cue[:, 0, None], cue[:, 1, None]
        ox, oy = x2 - x1, y2 - y1
        d12 = _norm(ox, oy)
        free = _clear_many(cx, cy, x1, y1, x2, y2)
        # _deflect towards the second ball within 0.85 diameters at its distance
        ix, iy = x1 - cx, y1 - cy
        d1 = _norm(ix, iy)
        ok = free & (d1 >= 1e-6) & (d12 >= 1e-6)
        cos_psi = np.clip(np.where(ok, (ix * ox + iy * oy) / (d1 * d12), 1.0), -1.0, 1.0)
        sens = self._sensitivity_array[(np.degrees(np.arccos(cos_psi)) + 0.5).astype(np.intp)]
        ok &= np.isfinite(sens)
        tol = 0.85 * _R2 / d12
        chance = _erf_many(np.where(ok, tol / (_SQRT2 * self._deflect_spread(d1, sens)), 0.0))
        return np.where(d12 < _R2, 1.0, chance)


def _flags(value: npt.ArrayLike, name: str, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """``value`` as a bool array of ``shape``, or a clear error naming it."""
    flags = np.asarray(value)
    if flags.shape != shape or flags.dtype != np.bool_:
        raise ValueError(
            f"{name}: expected a bool array of shape {shape}, got {flags.dtype} {flags.shape}"
        )
    return flags


def _norm(x: Floats, y: Floats) -> Floats:
    """The length of each vector ``(x, y)``: ``math.hypot`` within an ulp or two (no
    overflow on a table), four times faster than ``np.hypot``."""
    out: Floats = np.sqrt(x * x + y * y)
    return out


def _best_two(options: Floats) -> Floats:
    """:func:`_position_value` of each row's two largest ``options`` (``(n, >= 2)``, all
    ``>= 0``; a row's missing options are zeros). Overwrites ``options``."""
    rows = np.arange(options.shape[0])
    at = options.argmax(axis=1)
    best = options[rows, at]
    options[rows, at] = -1.0
    return _position_value(best, options.max(axis=1))


def _clear_many(
    ax: Floats, ay: Floats, bx: Floats, by: Floats, qx: Floats, qy: Floats
) -> npt.NDArray[np.bool_]:
    """:func:`~onered.players.geometry.clear` elementwise: each segment ``a``-``b`` past
    the ball at ``q`` (broadcast; a NaN ball blocks nothing). A segment of no length reads
    clear here, not as ``clear`` has it: every caller's such strokes are masked already
    (``d_in``, ``d1`` and ``d2`` are at least 1e-9 where the answer is used)."""
    abx, aby = bx - ax, by - ay
    apx, apy = qx - ax, qy - ay
    t = np.clip((apx * abx + apy * aby) / (abx * abx + aby * aby), 0.0, 1.0)
    dx, dy = apx - t * abx, apy - t * aby
    return np.asarray(~(dx * dx + dy * dy < _REACH2), dtype=np.bool_)
