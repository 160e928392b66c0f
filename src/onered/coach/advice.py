"""Advice for a position: the best strokes for a player of a given level, ranked by value.

1. **Candidates** come from the AI's own search (:meth:`Searcher.shortlist`: the scan and
   the refinement of ``onered.players.search``), run with the thorough budget of the
   strongest level and the execution noise of the level asked for — a coach looks at every
   stroke, and judges each for the player in front of him.
2. Each candidate's **nominal stroke** is played on the table through the game loop (the
   physics, the bridge's reading of the shot, the referee): its paths, the ball it meets,
   what it scores and where. Candidates of the same kind (the same first ball, scoring
   parts and pockets) are one suggestion; the best few kinds by the search's value go on.
3. **Monte Carlo**: each is judged as the game loop judges a stroke ``samples`` times under
   the level's execution noise (the same draws for every candidate, so they are compared
   like with like; the samples of a candidate in one engine call,
   ``onered.physics.batch.simulate_many``). A sample's value is the search's value of a
   judged stroke (:meth:`Searcher.stroke_value`: points plus the striker's leave when the
   visit goes on, minus the opponent's when it ends, minus the penalty and his better option
   after a foul). The mean is the **expected value** the suggestions are ranked by; the
   share of samples that score (no foul) is the **chance of scoring**. The cue is raised to
   the least elevation the rail and the balls allow (``onered.players.elevation``), so near
   a cushion a hard stroke may jump or send a ball off the table: the referee's fouls,
   counted in the **chance of a foul** and reported on their own (**jump**, **off the
   table**). What matters in the position is counted too: the chance of **crossing the
   baulk line** when the break owes it (2.13), and of a **limit foul** (the 16th hazard,
   the 76th cannon, the baulk-line foul) near the limits or when the crossing is owed.
   Each sample's **outcome** (what it scored and where, no score, or a foul) is counted:
   the most frequent, with its share, names the suggestion.
4. **Why** a suggestion beats the next one: the gap in expected value splits exactly into
   a chance term, a points term, a leave term (what the stroke leaves when it scores) and
   a safety term (what it leaves when it does not); the largest names the reason.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum

import numpy as np

from onered import bridge, rules
from onered.coach.action import CueAction, describe
from onered.errors import OneredError
from onered.game.loop import BALL_ORDER, Game, settle
from onered.game.model import Action, GameError, Position, StrokeRecord
from onered.game.simulator import PhysicsSimulator
from onered.physics import Params, Strike, TableSpec
from onered.physics.batch import simulate_many
from onered.physics.types import ShotResult, position_at
from onered.players.search import Choice, Searcher
from onered.players.strength import STRENGTHS, Budget, Strength
from onered.rules import Ball, FoulCode, GameState, ScoreKind, Verdict
from onered.rules.model import CANNON_CALL_AT, HAZARD_CALL_AT
from onered.table import POCKET_NAMES, Point

#: Suggestions returned by default, and how many kinds of stroke are weighed for them.
DEFAULT_COUNT = 5
CANDIDATE_KINDS = 10
#: Noise samples per candidate by default (the standard error of a chance near one half is
#: then 3.5 percentage points).
DEFAULT_SAMPLES = 200
#: The side the coach's scan tries (both ways, at every tip height), and its optimiser's
#: rounds.
COACH_SIDES = (0.2, 0.45)
COACH_POLISH = 3
#: Two suggestions whose expected values differ by less than this (points) are equal.
EQUAL_MARGIN = 0.05


#: The fouls of the limits: the 16th hazard (2.9), the 76th cannon (2.8), the hundred of a
#: break passed without the baulk-line crossing (2.13.4).
LIMIT_FOULS = (FoulCode.HAZARD_LIMIT, FoulCode.CANNON_LIMIT, FoulCode.BAULK_LINE)


class AdviceError(OneredError, ValueError):
    """A position or level the coach cannot advise on; the message names the input."""

    default_code = "advice"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one play of a stroke did: the scoring parts and the pockets balls fell into, in
    the order they fell (both empty: no score), or a foul (``foul``; then both empty: a
    foul scores nothing, whatever fell)."""

    scores: tuple[ScoreKind, ...]
    pockets: tuple[tuple[Ball, str], ...]
    foul: bool


#: The outcome of every foul.
FOUL = Outcome((), (), True)


def outcome(
    scores: Sequence[ScoreKind], pockets: Sequence[tuple[Ball, str]], foul: bool
) -> Outcome:
    """The outcome of a play that scored ``scores`` with balls into ``pockets`` (``foul``:
    a foul, whatever it scored)."""
    return FOUL if foul else Outcome(tuple(scores), tuple(pockets) if scores else (), False)


@dataclass(frozen=True, slots=True)
class Stakes:
    """What a stroke risks beyond its points in a position: the break owes the crossing of
    the baulk line (2.13: 80 or more into a hundred whose crossing is not made), and the
    consecutive hazards or cannons are near their limits (from the referee's calls on: 10
    hazards, 70 cannons; the 16th hazard and the 76th cannon are fouls, 2.8, 2.9)."""

    baulk_owed: bool = False
    hazards_near: bool = False
    cannons_near: bool = False

    @classmethod
    def of(cls, state: GameState) -> Stakes:
        """The stakes of the position ``state`` describes (its break, crossing, counters)."""
        brk = state.break_
        c = state.counters
        return cls(
            baulk_owed=brk % 100 >= 80 and state.baulk_met < brk // 100,
            hazards_near=c.hazards >= HAZARD_CALL_AT,
            cannons_near=c.cannons >= CANNON_CALL_AT,
        )

    @property
    def limits(self) -> bool:
        """A limit foul is worth stating: near a limit, or the crossing owed."""
        return self.baulk_owed or self.hazards_near or self.cannons_near


class Reason(Enum):
    """Why a suggestion ranks above the next one."""

    CHANCE = "chance"  # more likely to score
    POINTS = "points"  # scores more when it scores
    LEAVE = "leave"  # leaves a better position when it scores
    SAFETY = "safety"  # leaves the opponent less when it fails
    EQUAL = "equal"  # as good as the next one, within the estimate's noise


@dataclass(frozen=True, slots=True)
class Odds:
    """A stroke under the player's noise: ``samples`` plays; the share that scored (no
    foul), that scored what the nominal stroke scores, that fouled; the mean points and
    value, and the value's standard error; the mean value of the scoring and of the
    failing samples (``None`` when there were none); and of the fouls, the share that were
    a jump (2.11(8)) and that forced a ball off the table (2.11(10)) — both within
    ``p_foul``, and a sample may be both. With the position's :class:`Stakes`: the share
    that crossed the baulk line as the break owes (``None`` unless owed), and the share of
    limit fouls (``None`` unless a limit is near or the crossing owed) with its parts: the
    16th hazard, the 76th cannon, the baulk-line foul (a sample has at most one). And the
    samples' ``outcomes`` with their shares, most frequent first (ties: the nominal
    stroke's first, then in the order met)."""

    samples: int
    p_score: float
    p_intended: float
    p_foul: float
    points: float
    value: float
    value_se: float
    value_scoring: float | None
    value_failing: float | None
    points_scoring: float | None
    p_jump: float = 0.0
    p_off_table: float = 0.0
    p_baulk_crossed: float | None = None
    p_limit_foul: float | None = None
    p_hazard_limit: float = 0.0
    p_cannon_limit: float = 0.0
    p_baulk_foul: float = 0.0
    outcomes: tuple[tuple[Outcome, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One stroke the coach suggests: its rank (1 = best), the cue action, what the nominal
    stroke scores (parts, points, the pockets balls fall into), the odds under noise, the
    nominal paths (ball -> points along its path), the simulated nominal shot, and why it
    ranks above the next suggestion (``None`` for the last) with the value ``margin``."""

    rank: int
    action: CueAction
    scores: tuple[ScoreKind, ...]
    points: int
    pockets: tuple[tuple[Ball, str], ...]
    foul: bool
    odds: Odds
    paths: Mapping[Ball, tuple[Point, ...]]
    shot: ShotResult
    before: Mapping[Ball, Point]
    reason: Reason | None
    margin: float | None

    @property
    def outcome(self) -> Outcome:
        """What the nominal stroke does (the stroke aimed for)."""
        return outcome(self.scores, self.pockets, self.foul)

    @property
    def headline(self) -> tuple[Outcome, float]:
        """The outcome that names the suggestion, with its share of the plays: the most
        frequent over the samples (the nominal stroke's on a tie)."""
        if self.odds.outcomes:
            return self.odds.outcomes[0]
        return self.outcome, 0.0

    @property
    def leave(self) -> float:
        """The expected value beyond this stroke's points: the leave (negative when the
        visit is expected to end with the opponent's chances)."""
        return self.odds.value - self.odds.points


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's answer: the position, the level, and the suggestions, best first; with
    ``played``, the stroke that was played there weighed the same way (rank 0)."""

    position: Position
    level: str
    samples: int
    suggestions: tuple[Suggestion, ...]
    played: Suggestion | None = None
    stakes: Stakes = Stakes()


@dataclass(frozen=True, slots=True)
class _Play:
    """One noise sample judged: the referee's state after it, its verdict, and the balls
    that fell with their pockets, in the order they fell."""

    state: GameState
    verdict: Verdict
    pockets: tuple[tuple[Ball, str], ...]


def level_strength(level: str) -> Strength:
    """The AI level named ``level`` (``onered.players.STRENGTHS``)."""
    strength = STRENGTHS.get(level)
    if strength is None:
        raise AdviceError(f"level: unknown level {level!r} (expected {', '.join(STRENGTHS)})")
    return strength


def coach_budget() -> Budget:
    """The search budget of the coach: the most thorough level's (the largest scan), with
    at least :data:`CANDIDATE_KINDS` leaders refined and polished, and a wider scan of
    side (two amounts, at every tip height): a coach looks at every stroke, and has the
    time (advice within 2 s at the strongest level)."""
    thorough = max(
        STRENGTHS.values(),
        key=lambda s: s.budget.window * len(s.budget.speeds) * len(s.budget.heights),
    ).budget
    return replace(
        thorough,
        refine=max(thorough.refine, CANDIDATE_KINDS + 2),
        finalists=max(thorough.finalists, CANDIDATE_KINDS),
        sides=COACH_SIDES,
        side_heights=True,
        polish=max(thorough.polish, COACH_POLISH),
    )


class Coach:
    """Advises players of one level on one table (the search's caches are kept between
    positions)."""

    def __init__(
        self, strength: Strength, params: Params | None = None, table: TableSpec | None = None
    ) -> None:
        self.strength = strength
        self.simulator = PhysicsSimulator(
            params if params is not None else Params(), table if table is not None else TableSpec()
        )
        searching = replace(strength, budget=coach_budget())
        self.searcher = Searcher(searching, self.simulator.params, self.simulator.table)

    def advise(
        self,
        position: Position,
        *,
        count: int = DEFAULT_COUNT,
        samples: int = DEFAULT_SAMPLES,
        seed: int = 0,
        played: Action | None = None,
    ) -> Advice:
        """The best ``count`` strokes from ``position`` for this level; the noise samples
        are drawn from ``random.Random(seed)`` (the same draws for every candidate).
        ``played``: a stroke played from this position (a game's), weighed as if it had
        been aimed for (its strike the nominal one — the cue raised to the least elevation
        the position allows when it was lower — under the same noise draws)."""
        if count < 1:
            raise AdviceError(f"count: expected at least 1, got {count}")
        if samples < 1:
            raise AdviceError(f"samples: expected at least 1, got {samples}")
        _check(position, self.simulator)
        shortlist = self.searcher.shortlist(position)
        nominal = self._kinds(position, shortlist)
        scored = []
        for choice, record in nominal[: max(count, CANDIDATE_KINDS)]:
            odds, values = self._odds(position, choice, record, samples, seed)
            scored.append((choice, record, odds, values))
        scored.sort(key=lambda item: -item[2].value)
        scored = scored[:count]
        suggestions = []
        for k, (choice, record, odds, values) in enumerate(scored):
            reason: Reason | None = None
            if k + 1 < len(scored):
                reason = _reason(odds, scored[k + 1][2], _paired_se(values, scored[k + 1][3]))
            margin = scored[k + 1][2].value if k + 1 < len(scored) else None
            suggestions.append(
                _suggestion(
                    k + 1,
                    choice,
                    record,
                    odds,
                    reason,
                    None if margin is None else odds.value - margin,
                )
            )
        weighed = None
        if played is not None:
            strike = played.strike
            if played.placed is not None or not position.in_hand:
                # the cue no lower than the rail and the balls allow, as every candidate's
                # (a stroke from hand without a placement is the game's to refuse)
                strike = self.searcher.clearance(position, played.placed).lift(strike)
            choice = Choice(played.placed, strike, (), 0.0)
            try:
                record = Game.resume(position.state, position.balls, self.simulator).play(
                    Action(strike, placed=played.placed)
                )
            except GameError as exc:
                raise AdviceError(f"played: {exc}") from None
            odds, _ = self._odds(position, choice, record, samples, seed)
            weighed = _suggestion(0, choice, record, odds, None, None)
        return Advice(
            position,
            self.strength.name,
            samples,
            tuple(suggestions),
            weighed,
            Stakes.of(position.state),
        )

    def _nominal(self, position: Position, choice: Choice) -> StrokeRecord | None:
        game = Game.resume(position.state, position.balls, self.simulator)
        try:
            return game.play(Action(choice.strike, placed=choice.placed))
        except GameError:  # a strike the table refuses: not a suggestion
            return None

    def _kinds(
        self, position: Position, shortlist: Sequence[Choice]
    ) -> list[tuple[Choice, StrokeRecord]]:
        """The best candidate of each kind of stroke, in the search's order."""
        seen: set[tuple[object, ...]] = set()
        out: list[tuple[Choice, StrokeRecord]] = []
        for choice in shortlist:
            record = self._nominal(position, choice)
            if record is None:
                continue
            verdict = record.verdict
            key = (
                record.stroke.first_hit,
                tuple(kind for kind, _ in verdict.scored),
                _pockets(record.result),
                verdict.foul is not None,
                _action(choice, record).cushion_first,
            )
            if key not in seen:
                seen.add(key)
                out.append((choice, record))
        return out

    def _judged(
        self, position: Position, placed: Point | None, strikes: Sequence[Strike]
    ) -> list[tuple[GameState, Verdict]]:
        """Each of ``strikes`` played from ``position`` as the game loop would play it:
        the referee's state after it and its verdict (:meth:`_plays` without the
        pockets)."""
        return [(p.state, p.verdict) for p in self._plays(position, placed, strikes)]

    def _plays(
        self, position: Position, placed: Point | None, strikes: Sequence[Strike]
    ) -> list[_Play]:
        """Each of ``strikes`` played from ``position`` (the cue ball placed at ``placed``
        from hand) as the game loop would play it (``Game.play``): the referee's state
        after it, the table settled, its verdict, and the pockets balls fell into (read
        from the engine's arrays, in the order they fell). All in one engine call
        (``onered.physics.batch.simulate_many``), read by the bridge
        (``bridge.batch_strokes``); a stroke from hand whose cue ball met a cushion is read
        from its full shot (run again with paths), as the game loop reads it: where the
        contact lies, in baulk or not, is read on the path."""
        me = position.cue_ball
        balls = dict(position.balls)
        hand = placed is not None
        if placed is not None:
            placed = (float(placed[0]), float(placed[1]))
            balls[me] = placed
        state = replace(
            position.state, table={b: position.balls[b] for b in BALL_ORDER if b in position.balls}
        )
        names = {b.value: balls[b] for b in BALL_ORDER if b in balls}
        n = len(strikes)
        simulator = self.simulator
        shots = simulate_many(
            np.array([list(names.values())]),
            list(names).index(me.value),
            strikes=np.array(
                [(x.speed, x.aim, x.side, x.height, x.elevation) for x in strikes]
            ).reshape(-1, 5),
            ball_ids=tuple(names),
            params=simulator.params,
            table=simulator.table,
            events=hand,
        )
        strokes = bridge.batch_strokes(
            shots, placed=[placed] * n if hand else None, before=[names] * n if hand else None
        )
        ids = shots.ball_ids
        ci = ids.index(me.value)
        cushions = shots.cushions[:, ci].tolist()
        fates = shots.fate.tolist()
        rests = shots.rest.tolist()
        pocket_rows = shots.pocket.tolist()
        gone_rows = shots.gone.tolist()
        balls_of = [Ball(b) for b in ids]
        out: list[_Play] = []
        for k, stroke in enumerate(strokes):
            if hand and cushions[k]:
                stroke = bridge.stroke(shots.result(k), me.value, names, placed=placed)
            after, verdict = rules.judge(state, stroke)
            rest: dict[Ball, Point | None] = {
                Ball(b): None if fate else (xy[0], xy[1])
                for b, fate, xy in zip(ids, fates[k], rests[k], strict=True)
            }
            table = settle(rest, after, verdict.placements)
            fell = sorted(
                (g, balls_of[i], POCKET_NAMES[p])
                for i, (p, g) in enumerate(zip(pocket_rows[k], gone_rows[k], strict=True))
                if p >= 0
            )
            pockets = tuple((ball, name) for _, ball, name in fell)
            out.append(_Play(replace(after, table=dict(table)), verdict, pockets))
        return out

    def _odds(
        self,
        position: Position,
        choice: Choice,
        nominal: StrokeRecord,
        samples: int,
        seed: int,
    ) -> tuple[Odds, list[float]]:
        rng = random.Random(seed)
        noise = self.strength.noise
        clear = self.searcher.clearance(position, choice.placed)
        s = position.striker
        stakes = Stakes.of(position.state)
        intended = tuple(kind for kind, _ in nominal.verdict.scored)
        nominal_outcome = outcome(
            intended, _pockets(nominal.result), nominal.verdict.foul is not None
        )
        values: list[float] = []
        scoring: list[float] = []
        scoring_points: list[float] = []
        failing: list[float] = []
        hits = fouls = jumps = off_table = total_points = crossed = 0
        limits: dict[FoulCode, int] = dict.fromkeys(LIMIT_FOULS, 0)
        seen: dict[Outcome, int] = {nominal_outcome: 0}
        # clamped to the cue's limits, so the table accepts every sample; the cue no lower
        # than the rail and the balls allow
        strikes = [clear.lift(noise.apply(choice.strike, rng)) for _ in range(samples)]
        for play in self._plays(position, choice.placed, strikes):
            verdict = play.verdict
            value = self.searcher.stroke_value(s, play.state, verdict)
            values.append(value)
            foul = verdict.foul
            scored = tuple(kind for kind, _ in verdict.scored)
            if foul is not None:
                fouls += 1
                jumps += FoulCode.JUMP in foul.codes
                off_table += FoulCode.OFF_TABLE in foul.codes
                for code in LIMIT_FOULS:
                    limits[code] += code in foul.codes
            crossed += verdict.baulk_crossed
            key = outcome(scored, play.pockets, foul is not None)
            seen[key] = seen.get(key, 0) + 1
            if verdict.points > 0 and foul is None:
                scoring.append(value)
                scoring_points.append(verdict.points)
                total_points += verdict.points
                if intended and scored == intended:
                    hits += 1
            else:
                failing.append(value)
        n = len(values)
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
        # most frequent first; a tie keeps the order met, the nominal stroke's first
        ranked = sorted(seen.items(), key=lambda item: -item[1])
        odds = Odds(
            samples=n,
            p_score=len(scoring) / n,
            p_intended=hits / n,
            p_foul=fouls / n,
            points=total_points / n,
            value=mean,
            value_se=math.sqrt(var / n),
            value_scoring=sum(scoring) / len(scoring) if scoring else None,
            value_failing=sum(failing) / len(failing) if failing else None,
            points_scoring=sum(scoring_points) / len(scoring_points) if scoring_points else None,
            p_jump=jumps / n,
            p_off_table=off_table / n,
            p_baulk_crossed=crossed / n if stakes.baulk_owed else None,
            p_limit_foul=sum(limits.values()) / n if stakes.limits else None,
            p_hazard_limit=limits[FoulCode.HAZARD_LIMIT] / n,
            p_cannon_limit=limits[FoulCode.CANNON_LIMIT] / n,
            p_baulk_foul=limits[FoulCode.BAULK_LINE] / n,
            outcomes=tuple((o, c / n) for o, c in ranked if c),
        )
        return odds, values


def advise(
    position: Position,
    level: str,
    *,
    count: int = DEFAULT_COUNT,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    played: Action | None = None,
    params: Params | None = None,
    table: TableSpec | None = None,
) -> Advice:
    """The best ``count`` strokes from ``position`` for a player of ``level``, ranked by
    expected value (see the module docstring)."""
    return Coach(level_strength(level), params, table).advise(
        position, count=count, samples=samples, seed=seed, played=played
    )


def _check(position: Position, simulator: PhysicsSimulator) -> None:
    state = position.state
    if state.winner is not None:
        raise AdviceError("position: the game is over; there is no stroke to advise")
    if set(position.balls) != set(state.table):
        raise AdviceError(
            f"position: balls {sorted(b.value for b in position.balls)} differ from the "
            f"referee's table {sorted(b.value for b in state.table)}"
        )
    if Ball.RED not in position.balls:
        raise AdviceError("position: the red is not on the table")
    try:
        Game.resume(state, position.balls, simulator)
    except GameError as exc:
        raise AdviceError(f"position: {exc}") from None


def _pockets(result: ShotResult) -> tuple[tuple[Ball, str], ...]:
    """The balls that fell and the pockets they fell into, in order (the bridge's reading)."""
    events = result.events
    return tuple((Ball(b), bridge.pocket_of(events, b) or "") for b in bridge.potted(events))


def _action(choice: Choice, record: StrokeRecord) -> CueAction:
    """The cue action of a candidate, read from its nominal stroke."""
    before = {b.value: p for b, p in record.before.items()}
    return describe(choice.strike, choice.placed, before, record.result, record.cue_ball.value)


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of the mean difference of two strokes' values over the same
    noise draws (sample by sample: the draws are shared)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    n = len(d)
    if n < 2:
        return 0.0
    mean = sum(d) / n
    return math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


def _reason(a: Odds, b: Odds, se: float) -> Reason:
    """Why ``a`` is worth more than ``b``: :attr:`Reason.EQUAL` when the gap is within
    :data:`EQUAL_MARGIN` or one standard error ``se`` of the paired difference, else the
    largest of the exact terms of ``EV(a) - EV(b) = (pa - pb)(Sb - Fb) + pa (Sa - Sb) +
    (1 - pa)(Fa - Fb)``, S and F being the mean values of scoring and failing samples; the
    scoring term splits into points and leave."""
    gap = a.value - b.value
    if gap < max(EQUAL_MARGIN, se):
        return Reason.EQUAL
    sa, sb = a.value_scoring, b.value_scoring
    fa, fb = a.value_failing, b.value_failing
    # a conditional mean that does not exist (no such samples) borrows the other's
    sa, sb = (sa if sa is not None else sb), (sb if sb is not None else sa)
    fa, fb = (fa if fa is not None else fb), (fb if fb is not None else fa)
    pa, pb = a.p_score, b.p_score
    terms: dict[Reason, float] = {}
    terms[Reason.CHANCE] = (pa - pb) * ((sb or 0.0) - (fb or 0.0))
    if sa is not None and sb is not None:
        pts_a = a.points_scoring or 0.0
        pts_b = b.points_scoring if b.points_scoring is not None else pts_a
        terms[Reason.POINTS] = pa * (pts_a - pts_b)
        terms[Reason.LEAVE] = pa * ((sa - pts_a) - (sb - pts_b))
    if fa is not None and fb is not None:
        terms[Reason.SAFETY] = (1 - pa) * (fa - fb)
    return max(terms, key=lambda r: terms[r])


def _sample_path(result: ShotResult, ball: str, step: float = 0.02) -> tuple[Point, ...]:
    """Points along a ball's nominal path, about ``step`` metres apart (every segment's
    ends included, so corners are kept)."""
    points: list[Point] = []
    for seg in result.paths.get(ball, ()):
        span = seg.t1 - seg.t0
        if not (math.isfinite(span) and span > 0):
            continue
        speed = math.hypot(*seg.v0) + 0.5 * math.hypot(*seg.a) * span
        n = max(1, min(60, math.ceil(speed * span / step)))
        piece = (seg,)
        for j in range(0 if not points else 1, n + 1):
            points.append(position_at(piece, seg.t0 + span * j / n, seg.p0))
    return tuple(points)


def _suggestion(
    rank: int,
    choice: Choice,
    record: StrokeRecord,
    odds: Odds,
    reason: Reason | None,
    margin: float | None,
) -> Suggestion:
    result = record.result
    paths = {}
    for name in result.paths:
        points = _sample_path(result, name)
        if len(points) > 1:
            paths[Ball(name)] = points
    verdict = record.verdict
    return Suggestion(
        rank=rank,
        action=_action(choice, record),
        scores=tuple(kind for kind, _ in verdict.scored),
        points=verdict.points,
        pockets=_pockets(result),
        foul=verdict.foul is not None,
        odds=odds,
        paths=paths,
        shot=result,
        before=dict(record.before),
        reason=reason,
        margin=margin,
    )
