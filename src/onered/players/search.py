"""The AI's search for a stroke: candidates from geometry, judged by simulation.

One decision runs three stages, every candidate simulated on the table with
``onered.physics.batch.simulate_many`` (one engine call a stage, no Python object per shot)
and judged by the referee itself (``rules.judge``), so the points, fouls, limits, the
baulk-line rule and the referee's placements are exactly the game's:

1. **Scan.** From each place considered (the cue ball where it lies, or a few places in
   the D when in hand), aims spread across each object ball from thin to thin (they find
   in-offs, cannons, kisses and safeties), the ghost-ball aims of the pots into every
   pocket, and aims off each cushion (mirror images), each at a few speeds and tip
   heights (faster ones while a baulk-line crossing is owed). A stroke's value is its
   points plus the value of the leave for the striker (when the visit goes on) or minus
   its value for the opponent (when it ends; after a foul, minus the penalty and the
   better of his two options); a win is worth :data:`WIN_VALUE`. Leaves are valued by
   :class:`~onered.players.leave.LeaveModel`; while the crossing is owed the striker's
   leave counts less (:func:`baulk_pending_share`), and a stroke that crosses gains the
   player's continuation value, as the break may then go on past the hundred.
2. **Refine.** The best few distinct candidates (by placement, target, expected scoring
   and baulk-line crossing) are re-aimed on a fine scan around their aim, in a few speed
   and spin variants; each fine scan is smoothed by the player's aim noise, and the best
   smoothed aim is kept — this finds the middle of a pot's window (throw and squirt
   included).
3. **Choose.** The finalists are simulated under the player's noise (the same draws for
   each) and the best mean value is played.

From hand, a stroke the game loop would call a wrong stroke from hand (decision 7, judged
by ``onered.bridge``) is kept out of every stage while any other candidate exists.

Every stroke simulated is played with the cue at the least elevation the rail and the
balls behind allow (:class:`~onered.players.elevation.Clearance`, for its aim and tip
height), or higher when the player's noise raised it: near a cushion or a ball a hard
stroke may jump or leave the table, and the referee's verdict (a ``jump`` or ``off_table``
foul, read by the bridge) costs it as any other foul.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from onered import bridge, rules
from onered.game.loop import settle
from onered.game.model import Position
from onered.physics import Params, TableSpec
from onered.physics.batch import Shots, simulate_many
from onered.physics.types import Strike
from onered.players.elevation import Clearance
from onered.players.geometry import (
    CUSHIONS,
    angle_of,
    d_points,
    ghost,
    mirror,
    places_on_lines,
    pocket_targets,
)
from onered.players.leave import LeaveModel
from onered.players.strength import Draw, Noise, Strength, clamp_strike
from onered.rules import Ball, FoulCode, GameState, ScoreKind, Stroke, Verdict
from onered.rules.model import CANNON_LIMIT, HAZARD_LIMIT, PENALTY
from onered.table import BALL_DIAMETER, BALL_RADIUS, Point, Spot, in_baulk

#: The lines into the D tried from hand, per ball and pocket (:func:`places_on_lines`): the
#: straight pot and a pot cut 15 degrees either way from the ghost ball, and the natural
#: in-off angles of 28 and 34 degrees either way from the ball.
_PLACE_LINES = (
    (True, 0.0),
    (True, 15.0),
    (True, -15.0),
    (False, 28.0),
    (False, -28.0),
    (False, 34.0),
    (False, -34.0),
)
#: Value of winning the game with the stroke (and of losing it), in points.
WIN_VALUE = 100.0
#: The leave of a striker who must still cross the baulk line in this hundred counts this
#: much at 80 and at 99 (linear between): every stroke of his that would take the break
#: past the hundred must cross, and the fewer points are left, the fewer strokes remain
#: to do it in (2.13).
BAULK_PENDING_SHARE = (0.5, 0.1)
#: Launch speeds (m/s) added to the scan while a baulk-line crossing is owed.
_CROSSING_SPEEDS = (4.8, 6.0)
#: What a stroke the rules forbid by a limit costs besides its penalty (points): the 76th
#: cannon, the 16th hazard (2.8, 2.9) and a break taken past the hundred without the
#: baulk-line crossing (2.13). The referee's verdict says which strokes these are; the cost
#: makes the search treat them as forbidden rather than as ordinary fouls.
FORBIDDEN_COST = 60.0
_FORBIDDEN = frozenset({FoulCode.HAZARD_LIMIT, FoulCode.CANNON_LIMIT, FoulCode.BAULK_LINE})
#: Stage 3's noise samples are multiplied by this when some candidate of the scan is a
#: forbidden stroke: near a limit a rare slip matters, so it is looked for harder.
_LIMIT_SAMPLES = 3
#: Near a limit the chosen stroke is also checked under this many draws of a noise this
#: many times the player's: it must not become a forbidden stroke in any, if some finalist
#: passes (a 16th hazard is a rare slip of a cannon; the check looks into the tails). 150
#: draws let a professional's 8 m/s cannon at 15 hazards through, which then slipped into
#: a 16th hazard (``bench_strength.py breaks --start limits``, seed 6, visit 37); with 400
#: he plays safe there.
_GUARD_SAMPLES = 400
_GUARD_SCALE = 1.5
#: The look-ahead for the baulk-line crossing: cue actions scanned from the position a
#: finalist leaves (speeds in m/s, tip heights in R), the best crossings kept, and the
#: noise samples each is judged by.
_PLAN_SPEEDS = (2.2, 3.5, 5.0)
_PLAN_HEIGHTS = (-0.4, 0.3)
_PLAN_KEEP = 3
_PLAN_SAMPLES = 8
_PLAN_PLACES = 3
#: From hand, the best places (by the leave model) get the full grid of cue actions; the
#: others a coarser one (every other speed, the extreme heights).
_FULL_PLACES = 2
#: The local optimiser's first steps: aim in units of the player's aim error for the
#: stroke (at least _MIN_AIM_STEP degrees), speed as a share, side and height in R.
_POLISH_STEPS = (1.5, 0.12, 0.15, 0.2)
_MIN_AIM_STEP = 0.01
#: The refined candidates screened under the probe draws: this many times the finalists.
_SCREEN = 3
#: The seed of the probe draws (``Searcher.probes``).
_PROBE_SEED = 20261205
#: The second ply's short search from a cluster's position: speeds (m/s), the tip heights,
#: the leaders kept and the noise draws each is judged by.
_PLY_SPEEDS = (0.9, 1.7, 3.0)
_PLY_HEIGHTS = (-0.3, 0.3)
_PLY_WINDOW = 7
_PLY_KEEP = 3
_PLY_SAMPLES = 4
#: Two samples' rest positions are one cluster when no ball lies further than this (m)
#: from where it lies in the cluster's first sample.
_CLUSTER_RADIUS = 0.12


@dataclass(frozen=True, slots=True)
class Choice:
    """The stroke the search settled on: placement (from hand), nominal strike, the parts
    its noiseless simulation scored, and its estimated value."""

    placed: Point | None
    strike: Strike
    scores: tuple[ScoreKind, ...]
    value: float


@dataclass(frozen=True, slots=True)
class _Scored:
    """A simulated candidate: its value, place index, strike, verdict and a tag (the
    target in the scan, the variant in the refinement, the finalist in the last stage)."""

    value: float
    place: int
    strike: Strike
    verdict: Verdict
    tag: int
    after: GameState | None = None


@dataclass(frozen=True, slots=True)
class _Finalist:
    """A refined candidate: its smoothed value, place index, strike and expected parts."""

    value: float
    place: int
    strike: Strike
    scores: tuple[ScoreKind, ...]
    fair_from_hand: bool = True


def baulk_pending_share(state: GameState) -> float:
    """How much the striker's leave counts while the baulk-line crossing of this hundred
    is still owed (1.0 when it is not)."""
    brk = state.break_
    into = brk % 100
    if into < 80 or state.baulk_met >= brk // 100:
        return 1.0
    first, last = BAULK_PENDING_SHARE
    return first + (last - first) * (into - 80) / 19


class _Context:
    """One decision: the position, who plays, and the values that do not change."""

    def __init__(self, position: Position) -> None:
        state = position.state
        self.position = position
        self.state = state
        self.s = state.to_play
        self.me = state.match.balls[self.s]
        self.from_hand = position.in_hand
        self.objects = [(b, p) for b, p in position.balls.items() if b is not self.me]
        self._names = {b.value: p for b, p in position.balls.items()}
        #: the balls' names in the order the search gives the engine their centres
        self.ids = (*(b.value for b, _ in self.objects), self.me.value)

    def names_with(self, placed: Point) -> dict[str, Point]:
        """Every ball's centre before the stroke by name, the cue ball placed at ``placed``."""
        names = dict(self._names)
        names[self.me.value] = placed
        return names


class Searcher:
    """Chooses strokes for one level of play on one table."""

    def __init__(self, strength: Strength, params: Params, table: TableSpec) -> None:
        self.strength = strength
        self.params = params
        self.table = table
        self.leave = LeaveModel(strength.noise, strength.continuation, params, table)
        self.pockets = pocket_targets(table)
        self._d_points = d_points(max(2, strength.budget.placements))
        #: the draws the search values strokes by before its last stage (the screening
        #: of the refined candidates and the local optimiser): fixed, the same for every
        #: stroke and every decision (common random numbers; no draw from the player's
        #: generator, so ``shortlist`` stays free of random draws)
        self.probes = self._draws(random.Random(_PROBE_SEED), strength.budget.probes)

    # --- values ---------------------------------------------------------------------------

    def leave_for(self, state: GameState, player: int, *, fresh: bool) -> float:
        """The value of ``state``'s table for ``player`` to play: at the start of a visit
        (``fresh``), or continuing his break (limits and the baulk-line rule apply)."""
        cue, objects, hazards, cannons = _leave_inputs(state, player, fresh)
        value = self.leave.value(cue, objects, hazards=hazards, cannons=cannons)
        return value if fresh else value * baulk_pending_share(state)

    def leaves_for(self, requests: Sequence[tuple[GameState, int, bool]]) -> list[float]:
        """:meth:`leave_for` of many ``(state, player, fresh)`` at once (the leave model's
        batch form, ``LeaveModel.values``): what the search asks of every candidate."""
        n = len(requests)
        if n == 0:
            return []
        cues = np.full((n, 2), np.nan)
        objects = np.full((n, 2, 2), np.nan)
        reds = np.zeros((n, 2), bool)
        flags = np.ones((n, 2), bool)
        shares = [1.0] * n
        for row, (state, player, fresh) in enumerate(requests):
            cue, balls, hazards, cannons = _leave_inputs(state, player, fresh)
            if cue is not None:
                cues[row] = cue
            for k, (p, red) in enumerate(balls[:2]):
                objects[row, k] = p
                reds[row, k] = red
            flags[row] = (hazards, cannons)
            if not fresh:
                shares[row] = baulk_pending_share(state)
        values = self.leave.values(cues, objects, reds, flags[:, 0], flags[:, 1]).tolist()
        return [v * share for v, share in zip(values, shares, strict=True)]

    def option_values(self, options: dict[rules.Option, Position]) -> dict[rules.Option, float]:
        """The incoming player's value of each foul option's position."""
        return {
            option: self.leave_for(pos.state, pos.state.to_play, fresh=True)
            for option, pos in options.items()
        }

    def _opp_from_d(self) -> float:
        """The opponent's value of option (2) after a foul of ours: he plays from hand, the
        red on the billiards spot, our ball on the centre spot."""
        objects = [(Spot.BILLIARDS.point, True), (Spot.CENTRE.point, False)]
        return self.leave.value(None, objects)

    # --- simulation and judgement ---------------------------------------------------------

    def clearance(self, position: Position, placed: Point | None = None) -> Clearance:
        """The least elevation of the cue in ``position`` (the cue ball at ``placed`` from
        hand): what the player's cue is raised to (:meth:`Clearance.lift`)."""
        cue = placed if placed is not None else position.balls[position.cue_ball]
        others = [p for b, p in position.balls.items() if b is not position.cue_ball]
        return Clearance(cue, others, self.params, self.table)

    def _simulate(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        groups: Sequence[tuple[int, Sequence[Strike]]],
    ) -> tuple[Shots, list[Strike]]:
        """The strikes of each ``(place index, strikes)`` group simulated from that place,
        all in one engine call (``onered.physics.batch.simulate_many``), each with the cue
        raised to the least elevation the position allows (:class:`Clearance`; one
        computation per place, aim and tip offset): the shots, in the groups' order, and
        the strikes as played. From hand the event logs are kept (the referee's reading
        of a stroke from hand needs them)."""
        objects = [p for _, p in ctx.objects]
        params = self.params
        positions: list[list[Point]] = []
        rows: list[tuple[float, float, float, float, float]] = []
        at: list[int] = []
        played: list[Strike] = []
        for n, (place, strikes) in enumerate(groups):
            placed = places[place]
            cue = placed if placed is not None else ctx.position.balls[ctx.me]
            positions.append([*objects, cue])
            clear = Clearance(cue, objects, params, self.table)
            least: dict[tuple[float, float, float], float] = {}
            for s in strikes:
                key = (s.aim, s.side, s.height)
                low = least.get(key)
                if low is None:
                    low = least[key] = clear.minimum(s.aim, s.side, s.height)
                if s.elevation < low:
                    s = Strike(s.speed, s.aim, s.side, s.height, low)
                played.append(s)
                rows.append((s.speed, s.aim, s.side, s.height, s.elevation))
                at.append(n)
        shots = simulate_many(
            np.array(positions),
            len(ctx.ids) - 1,  # the cue ball, last (by index: cheaper than by name)
            strikes=np.array(rows).reshape(-1, 5),
            at=np.array(at, np.int32),
            ball_ids=ctx.ids,
            params=params,
            table=self.table,
            events=ctx.from_hand,
        )
        return shots, played

    def _strokes(self, ctx: _Context, placed: Sequence[Point | None], shots: Shots) -> list[Stroke]:
        """The referee's strokes for simulated ones (``placed``: each shot's placement
        from hand, or ``None``): the bridge's reading (``onered.bridge.batch_strokes``),
        a stroke from hand's foul included."""
        if not ctx.from_hand:
            return bridge.batch_strokes(shots)
        before = {p: ctx.names_with(p) for p in set(placed) if p is not None}
        return bridge.batch_strokes(
            shots, placed=placed, before=[None if p is None else before[p] for p in placed]
        )

    def stroke_value(
        self, s: int, state: GameState, verdict: Verdict, opp_from_d: float | None = None
    ) -> float:
        """The value for player ``s`` of a stroke he played, judged ``verdict`` with the
        referee's ``state`` after it: points plus his leave, or minus the opponent's.
        ``opp_from_d`` is the opponent's value of option (2) after a foul (computed when
        not given). Public for the coach (``onered.coach``), which judges strokes itself."""
        request = _leave_request(s, state, verdict)
        leave = 0.0 if request is None else self.leave_for(*request[:2], fresh=request[2])
        if opp_from_d is None and verdict.foul is not None:
            opp_from_d = self._opp_from_d()
        return self._value_with(s, state, verdict, leave, opp_from_d or 0.0)

    def _value_with(
        self, s: int, state: GameState, verdict: Verdict, leave: float, opp_from_d: float
    ) -> float:
        """:meth:`stroke_value` given the leave it asks for (:func:`_leave_request`)."""
        if state.winner is not None:
            return (verdict.points + WIN_VALUE) if state.winner == s else -WIN_VALUE
        foul = verdict.foul
        if foul is not None:
            value = -PENALTY - max(leave, opp_from_d)
            if not _FORBIDDEN.isdisjoint(foul.codes):
                value -= FORBIDDEN_COST
            return value
        if verdict.visit_over:
            return -leave
        value = verdict.points + leave
        if verdict.baulk_crossed:
            # the break may now go on past the hundred: worth what a successful stroke is
            value += self.strength.continuation
        return value

    def _run(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        jobs: Sequence[tuple[int, Strike, int]],
        opp_from_d: float,
        *,
        keep: bool = False,
    ) -> list[_Scored]:
        """Simulate and judge ``(place index, strike, tag)`` jobs, grouped by place (in
        one engine call), each valued with the leave it asks for (all in one call of the
        leave model's batch form, :meth:`leaves_for`); with ``keep`` each result holds the
        referee's state after it, the balls where they came to rest (the next stroke's
        position)."""
        by_place: dict[int, list[tuple[Strike, int]]] = {}
        for place, strike, tag in jobs:
            by_place.setdefault(place, []).append((strike, tag))
        if not by_place:
            return []
        groups = [(place, [s for s, _ in items]) for place, items in by_place.items()]
        shots, played = self._simulate(ctx, places, groups)
        where = [place for place, items in by_place.items() for _ in items]
        tags = [tag for items in by_place.values() for _, tag in items]
        placed = [places[place] for place in where]
        state, s, judge = ctx.state, ctx.s, rules.judge
        judged = [judge(state, stroke) for stroke in self._strokes(ctx, placed, shots)]
        requests = [_leave_request(s, after, verdict) for after, verdict in judged]
        asked = [r for r in requests if r is not None]
        leaves = iter(self.leaves_for(asked))
        value_with = self._value_with
        out: list[_Scored] = []
        for place, tag, strike, (after, verdict), request in zip(
            where, tags, played, judged, requests, strict=True
        ):
            leave = 0.0 if request is None else next(leaves)
            value = value_with(s, after, verdict, leave, opp_from_d)
            out.append(_Scored(value, place, strike, verdict, tag, after if keep else None))
        return out

    # --- candidates -----------------------------------------------------------------------

    def _placements(self, ctx: _Context) -> list[Point]:
        """Places in the D worth a scan: spread ones and those giving a natural stroke at a
        ball out of baulk, ranked by the leave model's value from there."""
        balls = ctx.position.balls
        candidates: list[Point] = list(self._d_points)
        for _, obj in ctx.objects:
            if in_baulk(obj):
                continue
            for pocket in self.pockets:
                candidates += places_on_lines(obj, pocket.aim, _PLACE_LINES)
        legal = [
            p
            for p in candidates
            if all(math.dist(p, q) > BALL_DIAMETER + 0.003 for q in balls.values())
        ]
        objects = [(p, b is Ball.RED) for b, p in ctx.objects]
        ranked = sorted(
            ((self.leave.value(p, objects), k, p) for k, p in enumerate(legal)),
            key=lambda item: (-item[0], item[1]),
        )
        chosen: list[Point] = []
        for _, _, p in ranked:
            if all(math.dist(p, q) > 0.04 for q in chosen):
                chosen.append(p)
            if len(chosen) >= self.strength.budget.placements:
                break
        return chosen

    def _scan_aims(
        self, ctx: _Context, cue: Point, window: int | None = None, *, coarse: bool = False
    ) -> list[tuple[float, int]]:
        """Aims (degrees) for the scan from ``cue``, each with a tag: the object ball's
        index for a direct stroke, 10 + index for a stroke off a cushion. ``window`` aims
        across each ball (the budget's by default); ``coarse`` (the second ply's short
        search): each pot's ghost-ball aim alone, and no cushions."""
        budget = self.strength.budget
        aims: list[tuple[float, int]] = []
        r2 = 2 * BALL_RADIUS
        for k, (_, obj) in enumerate(ctx.objects):
            dx, dy = obj[0] - cue[0], obj[1] - cue[1]
            d = math.hypot(dx, dy)
            direct = not (ctx.from_hand and in_baulk(obj)) and d > r2 + 1e-6
            if direct:
                base = angle_of(dx, dy)
                n = budget.window if window is None else window
                for j in range(n):
                    off = (2 * j / (n - 1) - 1) * 0.97 * r2
                    aims.append((math.degrees(base + math.asin(off / d)), k))
                for pocket in self.pockets:
                    g = ghost(obj, pocket.aim)
                    gx, gy = g[0] - cue[0], g[1] - cue[1]
                    dg = math.hypot(gx, gy)
                    ux, uy = pocket.aim[0] - obj[0], pocket.aim[1] - obj[1]
                    du = math.hypot(ux, uy)
                    if dg < 1e-6 or du < 1e-6 or (gx * ux + gy * uy) / (dg * du) < 0.2:
                        continue
                    a = math.degrees(angle_of(gx, gy))
                    if coarse:
                        aims.append((a, k))
                        continue
                    spread = math.degrees(0.3 * r2 / dg)
                    aims += [(a - spread, k), (a, k), (a + spread, k)]
            n_cushion = 0 if coarse else budget.cushion_aims or (3 if not direct else 0)
            if n_cushion:
                for cushion in CUSHIONS:
                    if ctx.from_hand and cushion == "bottom":
                        continue
                    m = mirror(obj, cushion)
                    mx, my = m[0] - cue[0], m[1] - cue[1]
                    dm = math.hypot(mx, my)
                    if dm <= r2:
                        continue
                    base = angle_of(mx, my)
                    half = math.asin(min(1.0, r2 / dm)) * 0.9
                    for j in range(n_cushion):
                        frac = 0.0 if n_cushion == 1 else 2 * j / (n_cushion - 1) - 1
                        aims.append((math.degrees(base + frac * half), 10 + k))
        return aims

    def _scan(self, ctx: _Context, places: Sequence[Point | None]) -> list[tuple[int, Strike, int]]:
        """Stage 1's jobs: every aim of :meth:`_scan_aims` from each place, at each speed
        and tip height of the budget, and with each side of the budget (running and
        check) at the middle height (at every height with ``Budget.side_heights``). From
        hand the best :data:`_FULL_PLACES` places (the leave model's ranking) get the whole
        grid, the others a coarser one."""
        budget = self.strength.budget
        jobs: list[tuple[int, Strike, int]] = []
        speeds, heights = budget.speeds, budget.heights
        sides = [x for side in budget.sides for x in (side, -side)]
        if baulk_pending_share(ctx.state) < 1.0:
            # the crossing is owed: strokes with the pace to bring the cue ball back to baulk
            speeds = tuple(sorted({*speeds, *_CROSSING_SPEEDS}))
        middle = heights[len(heights) // 2]
        for k, placed in enumerate(places):
            at_speeds, at_heights, at_sides = speeds, heights, sides
            if ctx.from_hand and k >= _FULL_PLACES:
                at_speeds = speeds[1::2] if len(speeds) > 3 else speeds
                at_heights = heights if len(heights) <= 2 else (heights[0], heights[-1])
                at_sides = []
            cue = placed if placed is not None else ctx.position.balls[ctx.me]
            side_heights = at_heights if budget.side_heights else (middle,)
            for aim, tag in self._scan_aims(ctx, cue):
                for speed in at_speeds:
                    for height in at_heights:
                        jobs.append((k, Strike(speed, aim, 0.0, height), tag))
                    for side in at_sides:
                        for height in side_heights:
                            jobs.append((k, Strike(speed, aim, side, height), tag))
        return jobs

    # --- the decision ---------------------------------------------------------------------

    def _scanned(
        self, position: Position
    ) -> tuple[_Context, list[Point | None], float, list[_Scored]]:
        """Stage 1, shared by :meth:`decide` and :meth:`shortlist`: the position's context,
        the places tried for a cue ball in hand, the opponent's value of playing from the D
        after a foul of ours, and every aim scanned and judged."""
        ctx = _Context(position)
        opp_from_d = self._opp_from_d()
        places: list[Point | None] = list(self._placements(ctx)) if ctx.from_hand else [None]
        if not places:
            raise RuntimeError("no legal place in the D for the cue ball")
        return ctx, places, opp_from_d, self._run(ctx, places, self._scan(ctx, places), opp_from_d)

    def decide(self, position: Position, rng: random.Random) -> Choice:
        """The stroke to play from ``position``; random draws (the noise samples of the
        last stage) come from ``rng`` only."""
        ctx, places, opp_from_d, scanned = self._scanned(position)
        if not scanned:  # no aim at all (cannot happen with a ball on the table)
            return Choice(places[0], Strike(1.0, 90.0), (), 0.0)
        # what the referee's verdicts on the scan say about this position
        near_limit = any(_forbidden(item.verdict) for item in scanned)
        planning = any(item.verdict.baulk_required for item in scanned)
        budget = self.strength.budget
        finalists = self._refine(
            ctx,
            places,
            self._leaders(ctx, places, scanned, opp_from_d),
            opp_from_d,
            limit=2 * budget.finalists if planning else None,
        )
        samples = budget.samples * (_LIMIT_SAMPLES if near_limit else 1)
        if budget.polish and budget.probes:
            finalists = self._polish(ctx, places, finalists, opp_from_d)
        if near_limit:
            # a safety (no score, no foul) among the finalists: the way out when every
            # scoring stroke risks the 16th hazard or the 76th cannon
            safe = [x for x in scanned if x.verdict.points == 0 and x.verdict.foul is None]
            if safe:
                top = max(safe, key=lambda x: x.value)
                finalists.append(_Finalist(top.value, top.place, top.strike, ()))
        return self._choose(
            ctx, places, finalists, opp_from_d, rng, samples, plan=planning, guard=near_limit
        )

    def position_value(self, position: Position, seed: int = 0) -> float:
        """The value of ``position`` to the player to play, measured: the expected value of
        the stroke the search would choose there, under his noise (stage 3's mean, its
        draws from ``random.Random(seed)``). It weighs the choices made before a stroke:
        the foul option, and the order after the lag."""
        return self.decide(position, random.Random(seed)).value

    def shortlist(self, position: Position) -> list[Choice]:
        """Stages 1 and 2 of :meth:`decide` without the last: every refined candidate
        (fair strokes from hand first, then by value under the probe draws), the best
        few polished by the local optimiser when the budget has one, for a caller that
        weighs them itself (the coach, ``onered.coach``). No random draws (the probe
        draws are fixed)."""
        ctx, places, opp_from_d, scanned = self._scanned(position)
        leaders = self._leaders(ctx, places, scanned, opp_from_d)
        refined = self._refine(ctx, places, leaders, opp_from_d, limit=len(leaders) * 5)
        if self.strength.budget.polish and self.strength.budget.probes:
            top = self.strength.budget.finalists
            refined = self._polish(ctx, places, refined[:top], opp_from_d) + refined[top:]
        return [Choice(places[c.place], c.strike, c.scores, c.value) for c in refined]

    def _leaders(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        scanned: Sequence[_Scored],
        opp_from_d: float,
    ) -> list[_Scored]:
        """Stage 1's best candidates. The best of each kind (placement, target, scoring
        parts, baulk-line crossing and cue action: pace band, side or none) are ranked by
        their noiseless value; with probe draws in the budget the best
        :data:`_SCREEN` times the refinement's size are ranked again by their mean under
        the probes, as a forced stroke (hard, or with side) promises more without noise
        than it keeps with it."""
        best: dict[tuple[int, tuple[ScoreKind, ...], int, bool, int, bool], _Scored] = {}
        for item in _fair_from_hand(scanned):
            verdict = item.verdict
            key = (
                item.place,
                _parts(verdict),
                item.tag,
                verdict.baulk_crossed,
                _pace_band(item.strike.speed),
                item.strike.side != 0.0,
            )
            if key not in best or item.value > best[key].value:
                best[key] = item
        ranked = sorted(best.values(), key=lambda x: -x.value)
        size = self.strength.budget.refine
        if self.strength.budget.probes:
            screened = ranked[: _SCREEN * size]
            probed = self._probed(ctx, places, [(x.place, x.strike) for x in screened], opp_from_d)
            ranked = sorted(
                (replace(x, value=v) for x, v in zip(screened, probed, strict=True)),
                key=lambda x: -x.value,
            )
        # the best stroke at each ball (and each place) first: a hard pot may outrank a
        # sitter at the other ball, which the refinement's smoothing and the noise of
        # stage 3 then find to be the surer
        chosen: list[_Scored] = []
        seen: set[tuple[int, int]] = set()
        for item in ranked:
            if len(chosen) < size and (item.place, item.tag % 10) not in seen:
                seen.add((item.place, item.tag % 10))
                chosen.append(item)
        chosen += [item for item in ranked if item not in chosen][: size - len(chosen)]
        return sorted(chosen, key=lambda x: -x.value)

    def _refine(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        leaders: Sequence[_Scored],
        opp_from_d: float,
        limit: int | None = None,
    ) -> list[_Finalist]:
        """Stage 2: a fine aim scan around each leader in a few speed and spin variants,
        smoothed by the player's aim noise; the distinct best (``limit``, default the
        budget's finalists) become the finalists."""
        budget, noise = self.strength.budget, self.strength.noise
        m = budget.fine_aims // 2
        variants: list[tuple[int, Strike]] = []
        for item in leaders:
            s = item.strike
            more = [
                Strike(s.speed * 0.85, s.aim, s.side, s.height),
                Strike(s.speed * 1.18, s.aim, s.side, s.height),
                Strike(s.speed, s.aim, s.side, max(-0.6, s.height - 0.3)),
                Strike(s.speed, s.aim, s.side, min(0.6, s.height + 0.3)),
            ]
            variants += [(item.place, v) for v in [s, *more[: budget.variants]]]
        # each variant's aims in steps of its own aim error (it grows with pace and side),
        # smoothed by the same error: the weights are the same in units of the step
        jobs = []
        weights: list[list[float]] = []
        for n, (place, v) in enumerate(variants):
            sigma = noise.aim_sigma(v)
            step = max(sigma, 0.01)
            offsets = [step * (j - m) for j in range(2 * m + 1)]
            weights.append([math.exp(-0.5 * (o / max(sigma, 1e-6)) ** 2) for o in offsets])
            jobs += [(place, Strike(v.speed, v.aim + o, v.side, v.height), n) for o in offsets]
        fine = self._run(ctx, places, jobs, opp_from_d)
        width = 2 * m + 1
        refined: list[_Finalist] = []
        for n in range(len(variants)):
            row = fine[n * width : (n + 1) * width]
            smooth = []
            for j in range(width):
                num = den = 0.0
                for i, w in enumerate(weights[n]):
                    jj = j + i - m
                    if 0 <= jj < width:
                        num += w * row[jj].value
                        den += w
                smooth.append(num / den)
            fair = [i for i in range(width) if not _bad_from_hand(row[i].verdict)]
            j = max(fair or range(width), key=lambda i: (smooth[i], -abs(i - m)))
            nominal = row[j]
            refined.append(
                _Finalist(
                    smooth[j],
                    nominal.place,
                    nominal.strike,
                    _parts(nominal.verdict),
                    not _bad_from_hand(nominal.verdict),
                )
            )
        # fair strokes first (see _fair_from_hand), then by value
        refined.sort(key=lambda c: (not c.fair_from_hand, -c.value))
        size = budget.finalists if limit is None else limit
        if budget.probes:
            # the smoothing above is over the aim alone: the best few are valued again
            # under the probe draws of the whole noise (speed, side and height too, which
            # grow with pace and side), so a forced stroke's noiseless promise does not
            # crowd a plain one out of the finalists
            screened = refined[: _SCREEN * size]
            probed = self._probed(ctx, places, [(c.place, c.strike) for c in screened], opp_from_d)
            refined = [replace(c, value=v) for c, v in zip(screened, probed, strict=True)]
            refined.sort(key=lambda c: (not c.fair_from_hand, -c.value))
        # one finalist per kind of stroke (placement and scoring parts) first, so that a
        # surer stroke of another kind is weighed under noise too; then the next best
        finalists: list[_Finalist] = []
        kinds: set[tuple[int, tuple[ScoreKind, ...]]] = set()
        for first_pass in (True, False):
            for cand in refined:
                if len(finalists) >= size:
                    break
                kind = (cand.place, cand.scores)
                if first_pass and kind in kinds:
                    continue
                if not any(
                    c.place == cand.place and _close(c.strike, cand.strike) for c in finalists
                ):
                    finalists.append(cand)
                    kinds.add(kind)
        finalists.sort(key=lambda c: (not c.fair_from_hand, -c.value))
        return finalists

    def _probed(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        strokes: Sequence[tuple[int, Strike]],
        opp_from_d: float,
    ) -> list[float]:
        """Each ``(place, strike)``'s mean value over the probe draws (:attr:`probes`)."""
        return self._means(ctx, places, strokes, self.probes, opp_from_d)

    def _means(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        strokes: Sequence[tuple[int, Strike]],
        draws: Sequence[Draw],
        opp_from_d: float,
    ) -> list[float]:
        """Each ``(place, strike)``'s mean value under ``draws`` of the player's noise
        (the same draws for every stroke)."""
        totals = [0.0] * len(strokes)
        jobs = _noisy(strokes, draws, self.strength.noise)
        for item in self._run(ctx, places, jobs, opp_from_d):
            totals[item.tag] += item.value
        return [t / len(draws) for t in totals]

    def _draws(self, rng: random.Random, n: int) -> list[Draw]:
        """``n`` draws of the player's noise (:meth:`Noise.draw`: unit Gaussians, scaled
        for each stroke by :meth:`Noise.deliver`)."""
        noise = self.strength.noise
        return [noise.draw(rng) for _ in range(n)]

    def _polish(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        finalists: Sequence[_Finalist],
        opp_from_d: float,
    ) -> list[_Finalist]:
        """The local optimiser: a pattern search from each finalist over aim, speed, side
        and height. Each point is valued by its mean over the budget's ``probes`` draws of
        the player's noise (the same draws for every point: common random numbers), so the
        search climbs the value smoothed by the noise, not a lucky noiseless stroke. A
        move is made to the best of the eight neighbours when it is better; otherwise the
        steps are halved. The polished strokes' parts are those of their noiseless plays;
        from hand a stroke whose noiseless play is a wrong stroke from hand is not taken."""
        budget, noise = self.strength.budget, self.strength.noise
        points = [c.strike for c in finalists]
        steps = [list(_POLISH_STEPS) for _ in finalists]

        # the finalists' values are already their means under the probe draws (_refine);
        # the optimiser runs only with probe draws (decide, shortlist)
        current = [c.value for c in finalists]
        for _ in range(budget.polish):
            cands: list[tuple[int, Strike]] = []
            for n, c in enumerate(finalists):
                st, sk = points[n], steps[n]
                da = max(_MIN_AIM_STEP, sk[0] * noise.aim_sigma(st))
                for d in (1.0, -1.0):
                    cands += [
                        (c.place, replace(st, aim=st.aim + d * da)),
                        (c.place, clamp_strike(replace(st, speed=st.speed * (1 + d * sk[1])))),
                        (c.place, clamp_strike(replace(st, side=st.side + d * sk[2]))),
                        (c.place, clamp_strike(replace(st, height=st.height + d * sk[3]))),
                    ]
            values = self._probed(ctx, places, cands, opp_from_d)
            for n in range(len(finalists)):
                row = values[8 * n : 8 * n + 8]
                j = max(range(8), key=lambda i: (row[i], -i))
                if row[j] > current[n] + 1e-9:
                    points[n], current[n] = cands[8 * n + j][1], row[j]
                else:
                    steps[n] = [x / 2 for x in steps[n]]
        moved = [n for n, c in enumerate(finalists) if points[n] != c.strike]
        nominal = self._run(
            ctx, places, [(finalists[n].place, points[n], n) for n in moved], opp_from_d
        )
        # the stroke kept is the one played (its cue raised to the least elevation its aim
        # allows), valued again as played; it replaces the finalist only when better
        played = self._probed(
            ctx, places, [(item.place, item.strike) for item in nominal], opp_from_d
        )
        out = list(finalists)
        for item, value in zip(nominal, played, strict=True):
            c = finalists[item.tag]
            bad = _bad_from_hand(item.verdict)
            if value > c.value and not (c.fair_from_hand and bad):
                out[item.tag] = _Finalist(
                    value, c.place, item.strike, _parts(item.verdict), not bad
                )
        out.sort(key=lambda c: (not c.fair_from_hand, -c.value))
        return out

    def _choose(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        finalists: Sequence[_Finalist],
        opp_from_d: float,
        rng: random.Random,
        samples: int | None = None,
        *,
        plan: bool = False,
        guard: bool = False,
    ) -> Choice:
        """Stage 3: each finalist simulated under the player's noise, the same draws for
        all; the best mean value wins. With ``plan`` (a stroke may bring the break into a
        baulk-line window), a finalist that leaves the crossing owed is valued by the
        crossing strokes its nominal leave offers (:meth:`crossing_value`). With ``guard``
        (near a limit) the choice is the best finalist a wider noise never turns into a
        forbidden stroke (:meth:`_safest`)."""
        budget, noise = self.strength.budget, self.strength.noise
        n_samples = budget.samples if samples is None else samples
        draws = self._draws(rng, n_samples)
        # the second ply where it measured stronger: in and before the baulk-line window
        lookahead = budget.lookahead if plan else 0
        plans: list[float | None] = [None] * len(finalists)
        if plan and not lookahead:
            nominal = self._run(
                ctx, places, [(c.place, c.strike, n) for n, c in enumerate(finalists)], opp_from_d
            )
            for item in nominal:
                after = self._owed_after(ctx, places, item)
                if after is not None:
                    plans[item.tag] = self.crossing_value(after, draws[:_PLAN_SAMPLES])

        def totals_of(indices: Sequence[int], batch: Sequence[Draw]) -> list[float]:
            jobs = _noisy(
                [(finalists[i].place, finalists[i].strike) for i in indices], batch, noise
            )
            items = self._run(ctx, places, jobs, opp_from_d, keep=lookahead > 0)
            values = [item.value for item in items]
            if lookahead:
                values = self._second_ply(ctx.s, items, values, lookahead, batch)
            sums = [0.0] * len(indices)
            for item, value in zip(items, values, strict=True):
                planned = plans[indices[item.tag]]
                verdict = item.verdict
                if planned is not None and verdict.baulk_required and not verdict.visit_over:
                    value = verdict.points + planned
                sums[item.tag] += value
            return sums

        every = list(range(len(finalists)))
        totals = totals_of(every, draws)
        counts = [n_samples] * len(finalists)
        fair = [i for i in every if finalists[i].fair_from_hand]
        order = sorted(fair or every, key=lambda i: (-totals[i], i))
        if budget.race and len(order) > 1:
            # a race: the leaders played again under more draws, so that the choice
            # between close strokes is not the luck of the first draws
            raced = order[: budget.race]
            more = self._draws(rng, 2 * n_samples)
            for i, extra in zip(raced, totals_of(raced, more), strict=True):
                totals[i] += extra
                counts[i] += len(more)
            order = sorted(raced, key=lambda i: (-totals[i] / counts[i], i)) + order[len(raced) :]
        k = self._safest(ctx, places, finalists, order, opp_from_d, rng) if guard else order[0]
        best = finalists[k]
        return Choice(places[best.place], best.strike, best.scores, totals[k] / counts[k])

    def _second_ply(
        self,
        s: int,
        items: Sequence[_Scored],
        values: Sequence[float],
        clusters: int,
        draws: Sequence[Draw],
    ) -> list[float]:
        """The second ply: each finalist's samples whose visit goes on are clustered by
        where the balls came to rest (a cluster: every ball within
        :data:`_CLUSTER_RADIUS` of where it lies in the cluster's first sample); the
        ``clusters`` largest of each finalist are valued by a short search of the next
        stroke from their first sample's position (:meth:`next_value`), which replaces the
        leave model's value in every sample of the cluster. The others keep the leave
        model's (as CueCard valued a shot's outcomes, Archibald et al. 2009)."""
        out = list(values)
        groups: dict[int, list[tuple[GameState, list[int]]]] = {}
        for n, item in enumerate(items):
            after, verdict = item.after, item.verdict
            if (
                after is None
                or verdict.foul is not None
                or verdict.visit_over
                or after.winner is not None
            ):
                continue
            balls = after.table
            if any(p is None for p in balls.values()):
                continue
            mine = groups.setdefault(item.tag, [])
            for first, members in mine:
                ref = first.table
                if ref.keys() == balls.keys() and all(
                    math.dist(p, ref[b]) <= _CLUSTER_RADIUS  # type: ignore[arg-type]
                    for b, p in balls.items()
                ):
                    members.append(n)
                    break
            else:
                mine.append((after, [n]))
        for mine in groups.values():
            mine.sort(key=lambda g: -len(g[1]))
            for first, members in mine[:clusters]:
                position = Position(
                    balls={b: p for b, p in first.table.items() if p is not None}, state=first
                )
                ahead = self.next_value(position, draws[:_PLY_SAMPLES])
                for n in members:
                    after = items[n].after
                    if after is not None:
                        out[n] = values[n] - self.leave_for(after, s, fresh=False) + ahead
        return out

    def next_value(self, position: Position, draws: Sequence[Draw]) -> float:
        """The value to the player to play of ``position`` in the middle of his visit, by a
        short search: direct strokes at each ball (a few aims across it and its pots) at a
        few speeds and heights — with the pace to come back to baulk while the crossing is
        owed — the best few judged under his noise (``draws``), the best mean kept."""
        ctx = _Context(position)
        places = self._short_places(ctx)
        if not places:
            return self.leave_for(position.state, ctx.s, fresh=False)
        speeds: tuple[float, ...] = _PLY_SPEEDS
        if baulk_pending_share(ctx.state) < 1.0:
            speeds = (*speeds, *_CROSSING_SPEEDS)
        opp_from_d = self._opp_from_d()
        jobs = self._short_jobs(
            ctx,
            places,
            lambda cue: self._scan_aims(ctx, cue, _PLY_WINDOW, coarse=True),
            speeds,
            _PLY_HEIGHTS,
        )
        scanned = sorted(self._run(ctx, places, jobs, opp_from_d), key=lambda x: -x.value)
        top: list[_Scored] = []
        for item in _fair_from_hand(scanned):
            if all(item.tag != t.tag or item.verdict.scored != t.verdict.scored for t in top):
                top.append(item)
            if len(top) >= _PLY_KEEP:
                break
        if not top:
            return self.leave_for(position.state, ctx.s, fresh=False)
        return max(self._means(ctx, places, [(t.place, t.strike) for t in top], draws, opp_from_d))

    def _short_places(self, ctx: _Context) -> list[Point | None]:
        """Where a short search (the crossing plan, the second ply) plays from: the cue
        ball, or the best few places in the D."""
        if ctx.from_hand:
            return list[Point | None](self._placements(ctx)[:_PLAN_PLACES])
        return [None]

    def _short_jobs(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        aims_of: Callable[[Point], list[tuple[float, int]]],
        speeds: Sequence[float],
        heights: Sequence[float],
    ) -> list[tuple[int, Strike, int]]:
        """A short search's jobs: from each place, each aim of ``aims_of(cue)`` at each
        of ``speeds`` and ``heights``, no side."""
        jobs: list[tuple[int, Strike, int]] = []
        for k, placed in enumerate(places):
            cue = placed if placed is not None else ctx.position.balls[ctx.me]
            for aim, tag in aims_of(cue):
                for speed in speeds:
                    for height in heights:
                        jobs.append((k, Strike(speed, aim, 0.0, height), tag))
        return jobs

    def _safest(
        self,
        ctx: _Context,
        places: Sequence[Point | None],
        finalists: Sequence[_Finalist],
        order: Sequence[int],
        opp_from_d: float,
        rng: random.Random,
    ) -> int:
        """Near a limit: the best finalist (in ``order``) that no draw of a wider noise
        (:data:`_GUARD_SCALE` times the player's, :data:`_GUARD_SAMPLES` draws) turns into
        a stroke the limits forbid; if every one can, the one that is so least often."""
        wide = [
            (
                a * _GUARD_SCALE,
                v * _GUARD_SCALE,
                s * _GUARD_SCALE,
                h * _GUARD_SCALE,
                e * _GUARD_SCALE,
            )
            for a, v, s, h, e in self._draws(rng, _GUARD_SAMPLES)
        ]
        noise = self.strength.noise
        jobs = _noisy([(finalists[i].place, finalists[i].strike) for i in order], wide, noise)
        bad = [0] * len(order)
        for item in self._run(ctx, places, jobs, opp_from_d):
            bad[item.tag] += _forbidden(item.verdict)
        n = min(range(len(order)), key=lambda j: (bad[j], j))
        return order[n]

    def _owed_after(
        self, ctx: _Context, places: Sequence[Point | None], item: _Scored
    ) -> Position | None:
        """The position a stroke leaves when the visit goes on with the baulk-line crossing
        owed (``None`` otherwise): the balls where they came to rest, then the referee's
        placements."""
        verdict = item.verdict
        if verdict.foul is not None or verdict.visit_over or not verdict.baulk_required:
            return None
        placed = places[item.place]
        shots, _ = self._simulate(ctx, places, [(item.place, [item.strike])])
        state, again = rules.judge(ctx.state, self._strokes(ctx, [placed], shots)[0])
        rest: dict[Ball, Point | None] = {
            Ball(b): None if fate else (x, y)
            for b, fate, (x, y) in zip(
                shots.ball_ids, shots.fate[0].tolist(), shots.rest[0].tolist(), strict=True
            )
        }
        balls = settle(rest, state, again.placements)
        return Position(balls=balls, state=replace(state, table=dict(balls)))

    def crossing_value(
        self,
        position: Position,
        draws: Sequence[Draw] | None = None,
        rng: random.Random | None = None,
    ) -> float:
        """The value to the player to play of ``position`` while he owes the baulk-line
        crossing: a coarse scan of strokes with the pace to come back to baulk, the best
        few that cross (the referee's ``baulk_crossed``) judged under his noise (``draws``,
        or ``_PLAN_SAMPLES`` drawn from ``rng``), the best mean kept — or the ordinary
        leave's share (:func:`baulk_pending_share`) when that is worth more."""
        ctx = _Context(position)
        fallback = self.leave_for(position.state, ctx.s, fresh=False)
        if draws is None:
            draws = self._draws(rng if rng is not None else random.Random(0), _PLAN_SAMPLES)
        opp_from_d = self._opp_from_d()
        places = self._short_places(ctx)
        jobs = self._short_jobs(
            ctx,
            places,
            # direct strokes only: a coarse look
            lambda cue: [(aim, tag) for aim, tag in self._scan_aims(ctx, cue) if tag < 10],
            _PLAN_SPEEDS,
            _PLAN_HEIGHTS,
        )
        crossing = sorted(
            (
                item
                for item in self._run(ctx, places, jobs, opp_from_d)
                if item.verdict.baulk_crossed
            ),
            key=lambda item: -item.value,
        )[:_PLAN_KEEP]
        if not crossing:
            return fallback
        strokes = [(item.place, item.strike) for item in crossing]
        return max(fallback, max(self._means(ctx, places, strokes, draws, opp_from_d)))


def _noisy(
    strokes: Sequence[tuple[int, Strike]], draws: Sequence[Draw], noise: Noise
) -> list[tuple[int, Strike, int]]:
    """Jobs for ``_run``: each ``(place, strike)`` under each draw of ``noise``
    (:meth:`Noise.deliver`), tagged by its index (an elevation below the position's least
    is raised to it when simulated)."""
    deliver = noise.deliver
    return [(place, deliver(s, draw), n) for n, (place, s) in enumerate(strokes) for draw in draws]


def _leave_inputs(
    state: GameState, player: int, fresh: bool
) -> tuple[Point | None, list[tuple[Point, bool]], bool, bool]:
    """What the leave model is asked for ``player`` on ``state``'s table: his ball (``None``
    in hand), the object balls ``(centre, is_red)`` in the table's order, and whether
    hazards and cannons may score (a fresh visit: both; a break: by the limits)."""
    table = state.table
    cue_ball = state.match.balls[player]
    objects = [(p, b is Ball.RED) for b, p in table.items() if b is not cue_ball and p is not None]
    if fresh:
        return table.get(cue_ball), objects, True, True
    counters = state.counters
    return (
        table.get(cue_ball),
        objects,
        counters.hazards < HAZARD_LIMIT,
        counters.cannons < CANNON_LIMIT,
    )


def _leave_request(
    s: int, state: GameState, verdict: Verdict
) -> tuple[GameState, int, bool] | None:
    """The leave a stroke of player ``s``'s value needs (``None``: the game is over): the
    opponent's fresh visit after a foul or a visit's end, else the striker's break."""
    if state.winner is not None:
        return None
    if verdict.foul is not None or verdict.visit_over:
        return (state, 1 - s, True)
    return (state, s, False)


def _pace_band(speed: float) -> int:
    """A stroke's pace band: 0 soft (to 1.5 m/s), 1 medium (to 3 m/s), 2 hard."""
    return 0 if speed <= 1.5 else 1 if speed <= 3.0 else 2


def _parts(verdict: Verdict) -> tuple[ScoreKind, ...]:
    return tuple(kind for kind, _ in verdict.scored)


def _forbidden(verdict: Verdict) -> bool:
    """The stroke is one the rules' limits forbid (see :data:`FORBIDDEN_COST`)."""
    foul = verdict.foul
    return foul is not None and not _FORBIDDEN.isdisjoint(foul.codes)


def _bad_from_hand(verdict: Verdict) -> bool:
    foul = verdict.foul
    return foul is not None and FoulCode.BAD_FROM_HAND in foul.codes


def _fair_from_hand(scanned: Sequence[_Scored]) -> Sequence[_Scored]:
    """The candidates played out of baulk as the rules require (2.6, decision 7), when
    there are any: from hand the AI does not knowingly play a ball in baulk directly or
    leave its ball in baulk, even where the penalty would cost it less than the leave."""
    fair = [item for item in scanned if not _bad_from_hand(item.verdict)]
    return fair or scanned


def _close(a: Strike, b: Strike) -> bool:
    """Two strikes too alike to be two finalists."""
    return (
        abs(a.aim - b.aim) < 0.05
        and abs(a.speed - b.speed) < 0.05 * a.speed
        and abs(a.height - b.height) < 0.1
    )
