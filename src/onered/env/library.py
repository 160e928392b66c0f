"""A shot library: a few candidate strokes a decision, chosen by index with a mask.

The continuous action space asks a learner to find, in eight dimensions, the narrow aims
that pot a ball; a random policy almost never does (the issue's PPO learned to wait for the
opponent's fouls instead). :class:`ShotLibrary` offers what the AI's search starts from
(``onered.players.search``'s scan: ghost-ball aims for pots, aims across a ball for in-offs
and cannons, at a few paces), built from the players' public geometry
(:mod:`onered.players.geometry`) and ranked by their leave model's chances
(:class:`onered.players.leave.LeaveModel`: the chance of a pot, an in-off, a cannon under a
player's execution noise). Nothing is simulated here: a candidate is geometry, its chance
an estimate; the environment plays the stroke the agent picks.

The candidates fill fixed **slots**, so an index means the same kind of stroke in every
position (see :data:`SLOTS`): the easiest pot at a medium pace first, then the pots ranked
by chance at each pace, the best in-offs and cannons, a thin safety on each ball and a
full-ball stroke; a slot with no candidate is masked. The last slot is always available
(a stroke that hits a ball, or, from hand with every ball in baulk, one off the top
cushion), so the mask is never all zeros.

From hand a candidate carries its place in the D: on the line of a straight pot or of a
natural in-off angle (as the search's placements), or one of a few spread places. When a
foul option is pending the option is chosen first (the leave model's value of each
option's position, as the AI chooses) and the candidates are those of the position it
gives. Everything is a pure function of the position: the same seed gives the same
candidates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

import numpy as np

from onered.game.loop import placement_problem
from onered.game.model import Action, Position
from onered.physics import Params, TableSpec
from onered.physics.types import Strike
from onered.players import LEVELS, Level
from onered.players.geometry import (
    PocketTarget,
    angle_of,
    clear,
    d_points,
    ghost,
    places_on_lines,
    pocket_targets,
)
from onered.players.leave import LeaveModel
from onered.rules import Ball, Option
from onered.table import BALL_RADIUS, BAULK_Y, D_CENTRE, Point, in_baulk

#: Launch speeds of the library's strokes (m/s): soft, medium, firm.
PACES = (1.0, 2.0, 3.2)
SOFT, MEDIUM, FIRM = PACES
#: The noise by which candidates are ranked (a beginner's: the chances separate easy pots
#: from hard ones without being all near one or near zero).
RANK_LEVEL = Level.BEGINNER
#: Offsets across a ball (fractions of a diameter) scanned for in-offs and cannons.
_OFFSETS = np.linspace(-0.97, 0.97, 49)
#: An in-off or cannon candidate must point the cue ball's rolling path within this angle
#: (radians) of its target.
_MAX_DEFLECTION_ERROR = math.radians(4.0)
#: Lines into the D from hand (:func:`~onered.players.geometry.places_on_lines`): the
#: straight pot, and the natural in-off angles of 28 and 34 degrees either way.
_PLACE_LINES = ((True, 0.0), (False, 28.0), (False, -28.0), (False, 34.0), (False, -34.0))
_R2 = 2 * BALL_RADIUS


class Kind(Enum):
    """What a slot's stroke is meant to do."""

    POT = "pot"
    IN_OFF = "in_off"
    CANNON = "cannon"
    SAFETY = "safety"
    FULL = "full"
    ANY = "any"


@dataclass(frozen=True, slots=True)
class Slot:
    """One index of the library: the kind, the rank among candidates of that kind (0 is
    the most likely), the pace and, for safeties, the side of the ball (-1 left, +1 right)."""

    kind: Kind
    rank: int
    speed: float
    side: int = 0


def _slots() -> tuple[Slot, ...]:
    slots = [Slot(Kind.POT, 0, MEDIUM)]
    slots += [Slot(Kind.POT, r, p) for r in range(3) for p in PACES if (r, p) != (0, MEDIUM)]
    slots += [Slot(Kind.IN_OFF, r, p) for r in range(2) for p in (SOFT, MEDIUM)]
    slots += [Slot(Kind.CANNON, 0, p) for p in (SOFT, MEDIUM)]
    slots += [Slot(Kind.SAFETY, 0, SOFT, side) for side in (-1, 1)]
    slots += [Slot(Kind.FULL, 0, MEDIUM), Slot(Kind.ANY, 0, SOFT)]
    return tuple(slots)


#: The library's slots, in index order (slot 0: the easiest pot at a medium pace).
SLOTS: tuple[Slot, ...] = _slots()
#: How many candidates a decision offers (the size of the ``Discrete`` action space).
K = len(SLOTS)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stroke of the library: the strike, the place in the D (from hand, else ``None``),
    the slot it fills and its estimated chance of scoring (0 for safeties)."""

    strike: Strike
    placed: Point | None
    slot: int
    chance: float

    def action(self) -> Action:
        return Action(self.strike, self.placed)


@dataclass(frozen=True, slots=True)
class _Found:
    """A candidate before pacing: its kind, chance, aim (degrees), object ball and place."""

    chance: float
    aim: float
    ball: Ball
    placed: Point | None


class Library:
    """The candidate strokes of positions on one table (:meth:`candidates`) and the foul
    option the library takes (:meth:`option`)."""

    def __init__(self, params: Params | None = None, table: TableSpec | None = None) -> None:
        self.params = params if params is not None else Params()
        self.table = table if table is not None else TableSpec()
        strength = LEVELS[RANK_LEVEL]
        self.leave = LeaveModel(strength.noise, strength.continuation, self.params, self.table)
        self.pockets = pocket_targets(self.table)
        self._spread = d_points(3)

    # --- the foul option -----------------------------------------------------------------

    def option(self, options: Mapping[Option, Position]) -> Option:
        """The option whose position the leave model values higher for the incoming
        player (ties: as they lie), as the AI chooses."""

        def value(option: Option) -> float:
            position = options.get(option)
            if position is None:
                return -math.inf
            me = position.cue_ball
            objects = [(p, b is Ball.RED) for b, p in position.balls.items() if b is not me]
            return self.leave.value(position.balls.get(me), objects)

        return max(
            (Option.AS_THEY_LIE, Option.FROM_D),
            key=lambda o: value(o) + (1e-9 if o is Option.AS_THEY_LIE else 0.0),
        )

    # --- the candidates ------------------------------------------------------------------

    def candidates(self, position: Position) -> list[Candidate | None]:
        """One entry a slot of :data:`SLOTS`: its candidate, or ``None`` (masked). The
        last slot is never ``None``."""
        me = position.cue_ball
        balls = position.balls
        objects = [(b, p) for b, p in balls.items() if b is not me]
        in_hand = me not in balls
        pots: list[_Found] = []
        inoffs: list[_Found] = []
        cannons: list[_Found] = []
        places = self._places(position, objects) if in_hand else [(balls[me], None)]
        for cue, placed in places:
            for k, (ball, obj) in enumerate(objects):
                if placed is not None and in_baulk(obj):
                    continue  # from hand a ball in baulk may not be struck directly
                others = tuple(p for j, (_, p) in enumerate(objects) if j != k)
                if not clear(cue, obj, others):
                    continue
                pots += self._pots(cue, placed, ball, obj, others)
                inoffs += self._inoffs(cue, placed, ball, obj, others)
                if others:
                    cannons += self._cannons(cue, placed, ball, obj, others[0])
        ranked = {
            Kind.POT: _best(pots),
            Kind.IN_OFF: _best(inoffs),
            Kind.CANNON: _best(cannons),
        }
        out: list[Candidate | None] = []
        for index, slot in enumerate(SLOTS):
            out.append(self._fill(index, slot, ranked, position, places, objects))
        return out

    def _fill(
        self,
        index: int,
        slot: Slot,
        ranked: Mapping[Kind, Sequence[_Found]],
        position: Position,
        places: Sequence[tuple[Point, Point | None]],
        objects: Sequence[tuple[Ball, Point]],
    ) -> Candidate | None:
        if slot.kind in ranked:
            found = ranked[slot.kind]
            if slot.rank >= len(found):
                return None
            f = found[slot.rank]
            return Candidate(Strike(slot.speed, f.aim), f.placed, index, f.chance)
        # safety, full ball, any: at the red when it can be struck, else the other ball
        cue, placed = places[0]
        target = _first_target(objects, placed is not None)
        if target is None:
            if slot.kind is not Kind.ANY:
                return None
            # from hand with every ball in baulk: off the top cushion, back down the table
            return Candidate(Strike(slot.speed + 1.0, 90.0), placed, index, 0.0)
        obj = target[1]
        d = math.dist(cue, obj)
        base = math.degrees(angle_of(obj[0] - cue[0], obj[1] - cue[1]))
        if slot.kind is Kind.SAFETY:
            off = slot.side * 0.9 * _R2
            aim = base + math.degrees(math.asin(max(-1.0, min(1.0, off / d))))
            return Candidate(Strike(slot.speed, aim), placed, index, 0.0)
        return Candidate(Strike(slot.speed, base), placed, index, 0.0)

    def _places(
        self, position: Position, objects: Sequence[tuple[Ball, Point]]
    ) -> list[tuple[Point, Point | None]]:
        """Places in the D worth trying (each as ``(cue, placed)``): on the line of a
        straight pot or of a natural in-off of each ball out of baulk, then a few spread
        ones; only legal places, the first always one of them."""
        balls, me = position.balls, position.cue_ball
        wanted: list[Point] = []
        for _, obj in objects:
            if in_baulk(obj):
                continue
            for pocket in self.pockets:
                wanted += places_on_lines(obj, pocket.aim, _PLACE_LINES)
        wanted += self._spread
        places: list[tuple[Point, Point | None]] = []
        for p in wanted:
            if placement_problem(balls, me, p) is None and all(
                math.dist(p, q) > 0.01 for q, _ in places
            ):
                places.append((p, p))
        if not places:  # the spread places are covered: the D's middle line, finely
            for k in range(1, 40):
                p = (D_CENTRE[0] + (k - 20) * 0.0075, BAULK_Y - 0.01)
                if placement_problem(balls, me, p) is None:
                    places.append((p, p))
                    break
        if not places:
            raise RuntimeError(f"no free place in the D for the {me.value}")
        return places

    def _pots(
        self, cue: Point, placed: Point | None, ball: Ball, obj: Point, others: tuple[Point, ...]
    ) -> list[_Found]:
        out = []
        for pocket in self.pockets:
            chance = self.leave.pot(cue, obj, pocket, others)
            if chance <= 0.0:
                continue
            g = ghost(obj, pocket.aim)
            aim = math.degrees(angle_of(g[0] - cue[0], g[1] - cue[1]))
            out.append(_Found(chance, aim, ball, placed))
        return out

    def _deflections(self, cue: Point, obj: Point) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For each offset of :data:`_OFFSETS` across the ball at ``obj``: the aim
        (degrees), the contact point (cue ball's centre, 2 x n) and the direction of the
        cue ball's rolling path after the contact (radians): ``u - 5/7 (u.n) n`` for a
        rolling cue ball (the leave model's natural angle)."""
        dx, dy = obj[0] - cue[0], obj[1] - cue[1]
        d = math.hypot(dx, dy)
        off = _OFFSETS * _R2
        aims = math.atan2(dy, dx) + np.arcsin(np.clip(off / d, -1.0, 1.0))
        ux, uy = np.cos(aims), np.sin(aims)
        proj = dx * ux + dy * uy
        t = proj - np.sqrt(np.maximum(_R2 * _R2 - off * off, 0.0))
        gx, gy = cue[0] + t * ux, cue[1] + t * uy
        nx, ny = (obj[0] - gx) / _R2, (obj[1] - gy) / _R2
        dot = ux * nx + uy * ny
        fx, fy = ux - 5.0 / 7.0 * dot * nx, uy - 5.0 / 7.0 * dot * ny
        return np.degrees(aims), np.stack((gx, gy)), np.arctan2(fy, fx)

    def _aim_at(self, cue: Point, obj: Point, target: Point) -> float | None:
        """The aim across the ball at ``obj`` whose rolling path after the contact points
        nearest ``target`` (within :data:`_MAX_DEFLECTION_ERROR`), or ``None``."""
        aims, contact, paths = self._deflections(cue, obj)
        want = np.arctan2(target[1] - contact[1], target[0] - contact[0])
        err = np.abs((paths - want + np.pi) % (2 * np.pi) - np.pi)
        k = int(np.argmin(err))
        return float(aims[k]) if err[k] <= _MAX_DEFLECTION_ERROR else None

    def _inoffs(
        self, cue: Point, placed: Point | None, ball: Ball, obj: Point, others: tuple[Point, ...]
    ) -> list[_Found]:
        out = []
        for pocket in self.pockets:
            chance = self.leave.in_off(cue, obj, pocket, others)
            if chance <= 0.0:
                continue
            aim = self._aim_at(cue, obj, _inside(pocket))
            if aim is not None:
                out.append(_Found(chance, aim, ball, placed))
        return out

    def _cannons(
        self, cue: Point, placed: Point | None, ball: Ball, first: Point, second: Point
    ) -> list[_Found]:
        chance = self.leave.cannon(cue, first, second)
        if chance <= 0.0:
            return []
        aim = self._aim_at(cue, first, second)
        return [] if aim is None else [_Found(chance, aim, ball, placed)]


def _inside(pocket: PocketTarget) -> Point:
    """A point a little inside ``pocket``'s mouth: what an in-off's cue ball aims at."""
    return (pocket.aim[0] + 0.02 * pocket.axis[0], pocket.aim[1] + 0.02 * pocket.axis[1])


def _best(found: Sequence[_Found]) -> list[_Found]:
    """Candidates by chance, best first (ties: the order found), one per aim and place."""
    ordered = sorted(enumerate(found), key=lambda item: (-item[1].chance, item[0]))
    out: list[_Found] = []
    for _, f in ordered:
        if not any(abs(f.aim - g.aim) < 1e-6 and f.placed == g.placed for g in out):
            out.append(f)
    return out


def _first_target(
    objects: Sequence[tuple[Ball, Point]], from_hand: bool
) -> tuple[Ball, Point] | None:
    """The ball a safety or full-ball stroke is played at: the red first, then the other;
    from hand only a ball out of baulk."""
    ordered = sorted(objects, key=lambda item: item[0] is not Ball.RED)
    for ball, p in ordered:
        if not (from_hand and in_baulk(p)):
            return ball, p
    return None
