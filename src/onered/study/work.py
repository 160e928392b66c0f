"""What one task of a study does, in whichever process runs it: play a game, or play a
shot many times from one position. Pure functions of the spec and the task's index (all
randomness from :func:`~onered.study.spec.task_seed`); rows come back as plain dicts, so
any backend can carry them.

Games are played by ``onered.players.play_game`` on ``onered.game``; a shot's samples are
simulated in one call of ``onered.physics.batch.simulate_many`` and each is read as the game
loop reads a played stroke (the bridge's reading, ``bridge.batch_strokes``, and the
referee's verdict), without a Python object per shot on the engine's side.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from onered.study.intervals import wilson
from onered.study.spec import (
    GamesSpec,
    Physics,
    ShotKind,
    ShotsSpec,
    Spec,
    StudyError,
    SweepSpec,
    Vary,
    task_seed,
)

if TYPE_CHECKING:
    from onered.physics import Params, Strike, TableSpec
    from onered.players import Player
    from onered.rules import GameState, Verdict
    from onered.table import Point

Row = dict[str, Any]
#: A task's rows by table name.
Rows = dict[str, list[Row]]
#: The two players' names in every game of a study (the tables' ``p1``/``p2`` columns).
NAMES = ("p1", "p2")
#: The key of a game task's record in its rows: one row ``{"line": text}`` per line of the
#: game record (``onered.game.record``), which the folder writes as a JSON Lines file.
RECORD = "record"
#: The balls of the tables' coordinate columns (``white_x_before`` ...), in this order.
BALLS = ("white", "yellow", "red")


def build_player(
    spec: str, seed: int, *, params: Params | None = None, table: TableSpec | None = None
) -> Player:
    """A player from its description, ``ai:<level>[,param=value...]``
    (``onered.players.make_player``: the level with the AI's noise or continuation
    replaced where given)."""
    from onered.players import PlayerSpecError, make_player

    try:
        return make_player(spec, seed, params=params, table=table)
    except PlayerSpecError as exc:
        raise StudyError(str(exc)) from None


def _params(physics: Physics) -> Params:
    from onered.physics.params import params_with

    return params_with(dict(physics))


def seed_of(spec: Spec, index: int) -> int:
    """The seed of task ``index``: :func:`task_seed` of the study's seed and the task's
    index, except in a sweep, where it is the seed of the task's game number within its
    value (common random numbers: game ``k`` of every value is played from the same seed,
    so two values differ by the value, not by the luck of different games)."""
    if isinstance(spec, SweepSpec):
        return task_seed(spec.seed, spec.task_value(index)[1])
    return task_seed(spec.seed, index)


def run_task(spec: Spec, index: int) -> Rows:
    """The rows of task ``index`` of ``spec``."""
    seed = seed_of(spec, index)
    if isinstance(spec, GamesSpec):
        game, strokes, lines = play_one(
            spec.p1, spec.p2, spec.target, spec.max_strokes, spec.lag, spec.physics, seed
        )
        head: Row = {"task": index, "game": index}
        return {
            "games": [{**head, "seed": seed, **game}],
            "strokes": [{**head, **s} for s in strokes],
            RECORD: [{"line": line} for line in lines],
        }
    if isinstance(spec, SweepSpec):
        k, number = spec.task_value(index)
        value = spec.values[k]
        players = spec.players_at(value)
        game, strokes, lines = play_one(
            players["p1"],
            players["p2"],
            spec.target,
            spec.max_strokes,
            spec.lag,
            spec.physics_at(value),
            seed,
        )
        # a categorical sweep's value is a name: plain text in the rows (not an enum member)
        shown = str(value) if isinstance(value, str) else value
        head = {"task": index, "value_index": k, "value": shown, "game": number}
        return {
            "games": [{**head, "seed": seed, **game}],
            "strokes": [{**head, **s} for s in strokes],
            RECORD: [{"line": line} for line in lines],
        }
    return shots_task(spec, index, seed)


# --- games --------------------------------------------------------------------------------


def _join(items: Any) -> str:
    return "+".join(getattr(i, "value", str(i)) for i in items)


def _point(p: Point | None) -> tuple[float | None, float | None]:
    return (None, None) if p is None else (float(p[0]), float(p[1]))


def _coordinates(balls: Mapping[str, Point | None], when: str) -> Row:
    """``white_x_<when>``, ``white_y_<when>`` ... of every ball of :data:`BALLS` (``None``
    for a ball not on the table: in hand, potted, off, or not yet in play)."""
    row: Row = {}
    for ball in BALLS:
        row[f"{ball}_x_{when}"], row[f"{ball}_y_{when}"] = _point(balls.get(ball))
    return row


def play_one(
    p1: str,
    p2: str,
    target: int,
    max_strokes: int,
    lag: bool,
    physics: Physics,
    seed: int,
) -> tuple[Row, list[Row], list[str]]:
    """Play one game seeded ``seed``; its row, its strokes' rows and its game record's
    lines (``onered.game.record.game_lines``: what ``onered play --record`` writes)."""
    from onered import bridge
    from onered.game import ChoiceRecord, Game, PhysicsSimulator, StrokeRecord
    from onered.game.model import Entry
    from onered.game.record import game_lines
    from onered.game.summary import highest_breaks, visits
    from onered.players import GameSettings, play_game
    from onered.rules import position

    params = _params(physics)
    simulator = PhysicsSimulator(params=params)
    seeds = random.Random(seed)
    players = {
        NAMES[0]: build_player(p1, seeds.getrandbits(32), params=params, table=simulator.table),
        NAMES[1]: build_player(p2, seeds.getrandbits(32), params=params, table=simulator.table),
    }
    settings = GameSettings(target=target, names=NAMES, lag=lag, max_strokes=max_strokes)
    # the written position before the game and after every entry (a stroke's "before" is
    # the position after the entry before it: a foul option's choice included)
    written: list[str] = []

    def on_start(game: Game) -> None:
        written.append(position.write(game.state))

    def on_entry(game: Game, entry: Entry) -> None:
        written.append(position.write(game.state))

    game = play_game(players, settings, simulator, on_start=on_start, on_entry=on_entry)
    order = game.match.players
    found = visits((e.verdict for e in game.entries if isinstance(e, StrokeRecord)), over=game.over)
    ends = {v.last for v in found}  # the visits' last strokes (an open visit's too)
    strokes: list[Row] = []
    option = ""
    for n, entry in enumerate(game.entries):
        if isinstance(entry, ChoiceRecord):
            option = entry.option.value
            continue
        v = entry.verdict
        score = dict(zip(order, v.score, strict=True))
        strike = entry.action.strike
        intent = entry.action.intent
        s = entry.stroke
        placed_x, placed_y = _point(s.placed)
        events = entry.result.events
        fell = {b.value: bridge.pocket_of(events, b.value) for b in s.potted}
        strokes.append(
            {
                "stroke": v.stroke,
                "striker": entry.striker,
                "cue_ball": entry.cue_ball.value,
                "from_d": v.from_d,
                "option": option,
                "points": v.points,
                "scored": _join(k for k, _ in v.scored),
                "foul": "" if v.foul is None else _join(v.foul.codes),
                "penalty": 0 if v.foul is None else v.foul.penalty,
                "break": v.break_,
                "visit_end": v.stroke in ends,
                "score_p1": score[NAMES[0]],
                "score_p2": score[NAMES[1]],
                "first_hit": "" if s.first_hit is None else s.first_hit.value,
                "cannon": s.cannon,
                "potted": _join(s.potted),
                "crossed_baulk": s.crossed_baulk,
                "touching": s.touching,
                "speed": strike.speed,
                "aim": strike.aim,
                "side": strike.side,
                "height": strike.height,
                "elevation": strike.elevation,
                "intended": "" if intent is None else _join(intent.scores),
                "expected": None if intent is None else intent.expected,
                "duration": entry.result.duration,
                "events": len(events),
                "position_before": written[n],
                "position_after": written[n + 1],
                "placed_x": placed_x,
                "placed_y": placed_y,
                **_coordinates({b.value: p for b, p in entry.before.items()}, "before"),
                **_coordinates(entry.result.rest, "after"),
                **{f"pocket_{b}": fell.get(b) or "" for b in BALLS},
            }
        )
        option = ""
    row: Row = {
        "p1": p1,
        "p2": p2,
        "first": order[0],
        "winner": game.winner or "",
        "finished": game.over,
        "strokes": len(strokes),
    }
    highest = highest_breaks(found, NAMES)
    for name in NAMES:
        mine = [s for s in strokes if s["striker"] == name]
        row[f"score_{name}"] = strokes[-1][f"score_{name}"] if strokes else 0
        row[f"points_{name}"] = sum(s["points"] for s in mine)
        row[f"visits_{name}"] = sum(1 for v in found if v.player == name)
        row[f"high_break_{name}"] = highest[name]
        row[f"fouls_{name}"] = sum(1 for s in mine if s["foul"])
    lines = game_lines(game, seed=seed, entrants={NAMES[0]: p1, NAMES[1]: p2})
    return row, strokes, lines


# --- shots --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotRead:
    """A stroke of a shots study as the game loop reads it: the referee's verdict, the
    pocket each ball that fell went into (the bridge's ``pocket_of``), and where each ball
    came to rest (``None``: potted or off the table)."""

    verdict: Verdict
    pockets: Mapping[str, str]
    rest: Mapping[str, Point | None] = field(default_factory=dict)


def _position_state(balls: Mapping[str, Point]) -> GameState:
    """The referee at a constructed mid-game position: the white's owner to play, 0 : 0
    (the balls in the game loop's order, as ``Game.resume`` keeps them)."""
    from onered import rules
    from onered.game.loop import BALL_ORDER
    from onered.rules import Ball, Match

    table = {Ball(b): p for b, p in balls.items()}
    return replace(
        rules.start(Match(target=100, players=("striker", "opponent"))),
        table={b: table[b] for b in BALL_ORDER if b in table},
        stroke_no=10,
        red_spot=None,
    )


def read_strokes(
    balls: Mapping[str, Point], strikes: list[Strike], params: Params, table: TableSpec
) -> list[ShotRead]:
    """The game loop's reading (the bridge's stroke, the referee's verdict) of each strike
    of the white from ``balls``: every strike in one engine call
    (``onered.physics.batch.simulate_many``, no Python object per shot), read by
    ``onered.bridge.batch_strokes`` and judged by ``rules.judge``, exactly as
    ``Game.play`` reads a played stroke."""
    import numpy as np

    from onered import bridge, rules
    from onered.physics.batch import simulate_many
    from onered.table import POCKET_NAMES

    state = _position_state(balls)
    shots = simulate_many(
        np.array([list(balls.values())]),
        list(balls).index("white"),
        strikes=np.array(
            [(s.speed, s.aim, s.side, s.height, s.elevation) for s in strikes]
        ).reshape(-1, 5),
        ball_ids=tuple(balls),
        params=params,
        table=table,
    )
    ids = shots.ball_ids
    pockets = shots.pocket.tolist()
    rests = shots.rest.tolist()
    out = []
    # the striker is the player to play (``Game.play`` names him; the referee reads the
    # same player from the state)
    for k, stroke in enumerate(bridge.batch_strokes(shots)):
        _, verdict = rules.judge(state, stroke)
        fell = {b: POCKET_NAMES[i] for b, i in zip(ids, pockets[k], strict=True) if i >= 0}
        rest = {
            b: None if p[0] != p[0] else (p[0], p[1])  # NaN: potted or off
            for b, p in zip(ids, rests[k], strict=True)
        }
        out.append(ShotRead(verdict, fell, rest))
    return out


def _unit(dx: float, dy: float) -> tuple[float, float]:
    d = math.hypot(dx, dy)
    return (dx / d, dy / d)


def reference_aim(spec: ShotsSpec, cue: Point, obj: Point, table: TableSpec) -> float:
    """The geometric aim (degrees) of the shot from ``cue`` at ``obj``: for a pot, at the
    ghost ball for the pocket's mouth; for an in-off, at the contact from which a stun
    shot's cue ball leaves at right angles to the line of centres towards the mouth (the
    90-degree rule). Where the geometry has no such aim, the aim at the object ball's
    centre. Throw, squirt and follow are left to :func:`calibrate`, which only uses this
    aim to choose between equally wide windows."""
    from onered.players.geometry import ghost, pocket_targets
    from onered.table import BALL_DIAMETER

    target = next(t for t in pocket_targets(table) if t.name == spec.pocket)
    direct = math.degrees(math.atan2(obj[1] - cue[1], obj[0] - cue[0]))
    if spec.shot is ShotKind.POT:
        g = ghost(obj, target.aim)
        return math.degrees(math.atan2(g[1] - cue[1], g[0] - cue[0]))
    d = math.dist(obj, target.aim)
    if d <= BALL_DIAMETER:
        return direct
    phi = math.atan2(target.aim[1] - obj[1], target.aim[0] - obj[0])
    alpha = math.acos(BALL_DIAMETER / d)
    best: tuple[float, float] | None = None
    for sign in (1.0, -1.0):
        gx = obj[0] + BALL_DIAMETER * math.cos(phi + sign * alpha)
        gy = obj[1] + BALL_DIAMETER * math.sin(phi + sign * alpha)
        travel = _unit(gx - cue[0], gy - cue[1])
        line = _unit(obj[0] - gx, obj[1] - gy)
        fullness = travel[0] * line[0] + travel[1] * line[1]
        if fullness > 0 and (best is None or fullness > best[0]):
            best = (fullness, math.degrees(math.atan2(gy - cue[1], gx - cue[0])))
    return direct if best is None else best[1]


#: The calibration scan: aims this far apart (degrees) across the whole object ball, and
#: at least / at most this many of them.
SCAN_STEP = 0.05
SCAN_AIMS = (161, 801)


def contact_aims(cue: Point, obj: Point) -> list[float]:
    """Aims (degrees) from thin on one side of the object ball to thin on the other."""
    from onered.table import BALL_DIAMETER

    d = math.dist(cue, obj)
    direct = math.degrees(math.atan2(obj[1] - cue[1], obj[0] - cue[0]))
    half = math.degrees(math.asin(min(1.0, BALL_DIAMETER / d))) * 0.999
    n = min(SCAN_AIMS[1], max(SCAN_AIMS[0], math.ceil(2 * half / SCAN_STEP) + 1))
    return [direct - half + 2 * half * k / (n - 1) for k in range(n)]


def target_kind(spec: ShotsSpec) -> tuple[str, str]:
    """What makes the shot a success: the score part (``pot_red`` or ``in_off_red``) and
    the ball that must fall into the named pocket (the red, or the white)."""
    return ("pot_red", "red") if spec.shot is ShotKind.POT else ("in_off_red", "white")


def _pocket(record: ShotRead, ball: str) -> str:
    return record.pockets.get(ball, "")


def _success(record: ShotRead, spec: ShotsSpec) -> bool:
    """No foul, the part scored, and the ball in the named pocket."""
    kind, ball = target_kind(spec)
    v = record.verdict
    return (
        v.foul is None
        and any(k.value == kind for k, _ in v.scored)
        and _pocket(record, ball) == spec.pocket
    )


def calibrate(
    spec: ShotsSpec, balls: Mapping[str, Point], reference: float, params: Params, table: TableSpec
) -> float | None:
    """The aim the player means: the middle of the widest window of noiseless aims across
    the object ball (:func:`contact_aims`) that score the shot (ties: the window nearest
    the ``reference`` aim); ``None`` when no aim scores it."""
    from onered.physics import Strike
    from onered.players.elevation import Clearance

    aims = contact_aims(balls["white"], balls["red"])
    clear = Clearance(balls["white"], [balls["red"]], params, table)
    strikes = [clear.lift(Strike(spec.speed, a, spec.side, spec.height)) for a in aims]
    hits = [_success(r, spec) for r in read_strokes(balls, strikes, params, table)]
    best: tuple[int, float, float] | None = None  # (width, -distance, middle)
    start = None
    for k, hit in enumerate([*hits, False]):
        if hit and start is None:
            start = k
        elif not hit and start is not None:
            middle = (aims[start] + aims[k - 1]) / 2
            key = (k - start, -abs(middle - reference), middle)
            if best is None or key[:2] > best[:2]:
                best = key
            start = None
    return None if best is None else best[2]


@dataclass(frozen=True, slots=True)
class MoreSamples(ShotsSpec):
    """A shots study whose positions hold ``first`` samples already: a task plays samples
    ``first`` to ``samples - 1`` alone (the noise of the first ``first`` is drawn and
    dropped, so each sample is the one a run of all of them plays). What extending a shots
    study with more samples runs; :func:`more_samples` joins the rows to the part's."""

    first: int = 0


def shots_task(spec: ShotsSpec, index: int, seed: int) -> Rows:
    """One position of a shots study: the shot calibrated, then ``samples`` noisy strikes
    (only those from ``first`` on for :class:`MoreSamples`)."""
    from onered.physics import PhysicsInputError, Strike, TableSpec, check_position
    from onered.rules import position as written

    ix, iy, point = spec.grid_point(index)
    cue, obj = (spec.fixed, point) if spec.vary is Vary.OBJECT else (point, spec.fixed)
    params, table = _params(spec.physics), TableSpec()
    balls = {"white": cue, "red": obj}
    position: Row = {
        "task": index,
        "ix": ix,
        "iy": iy,
        "x": point[0],
        "y": point[1],
        "position": written.write(_position_state(balls)),
        "white_x": cue[0],
        "white_y": cue[1],
        "red_x": obj[0],
        "red_y": obj[1],
    }
    reason = ""
    aim: float | None = None
    try:
        check_position(balls, params, table)
    except PhysicsInputError as exc:
        reason = f"position: {exc}"
    if not reason:
        aim = calibrate(spec, balls, reference_aim(spec, cue, obj, table), params, table)
        if aim is None:
            reason = "no aim at the red scores it without noise"
    empty = {"feasible": False, "reason": reason, "aim": None, "samples": 0}
    if aim is None:
        position.update(
            {
                **empty,
                "p_success": None,
                "p_success_low": None,
                "p_success_high": None,
                "p_foul": None,
                "mean_points": None,
            }
        )
        return {"positions": [position], "shots": []}
    from onered.players import AIPlayer

    player = build_player(spec.player, 0, params=params, table=table)
    if not isinstance(player, AIPlayer):
        raise StudyError(f"--player {spec.player!r}: a shots study needs an AI player's noise")
    from onered.players.elevation import Clearance

    noise = player.strength.noise
    rng = random.Random(seed)
    # the cue raised as the position requires (over the rail, over a ball behind), as the
    # AI raises it: the nominal stroke, and every noisy one no lower than it allows
    clear = Clearance(cue, [obj], params, table)
    nominal = clear.lift(Strike(spec.speed, aim, spec.side, spec.height))
    strikes = [clear.lift(noise.apply(nominal, rng)) for _ in range(spec.samples)]
    first = spec.first if isinstance(spec, MoreSamples) else 0
    strikes = strikes[first:]
    ball = target_kind(spec)[1]
    shots: list[Row] = []
    for k, (strike, record) in enumerate(
        zip(strikes, read_strokes(balls, strikes, params, table), strict=True), start=first
    ):
        v = record.verdict
        scored = _join(part for part, _ in v.scored)
        label = "foul" if v.foul is not None else scored or "no_score"
        shots.append(
            {
                "task": index,
                "ix": ix,
                "iy": iy,
                "x": point[0],
                "y": point[1],
                "sample": k,
                "outcome": label,
                "success": _success(record, spec),
                "pocket": _pocket(record, ball),
                "pocket_white": _pocket(record, "white"),
                "pocket_red": _pocket(record, "red"),
                **{
                    f"{b}_{c}_after": None if at is None else at[i]
                    for b in ("white", "red")
                    for at in (record.rest.get(b),)
                    for i, c in enumerate("xy")
                },
                "points": v.points,
                "scored": scored,
                "foul": "" if v.foul is None else _join(v.foul.codes),
                "speed": strike.speed,
                "aim": strike.aim,
                "side": strike.side,
                "height": strike.height,
            }
        )
    position.update({"feasible": True, "reason": "", "aim": aim, **_figures(shots)})
    return {"positions": [position], "shots": shots}


def _figures(shots: list[Row]) -> Row:
    """A position's figures over its samples ``shots`` (at least one)."""
    n = len(shots)
    hits = sum(s["success"] for s in shots)
    low, high = wilson(hits, n) or (None, None)
    return {
        "samples": n,
        "p_success": hits / n,
        "p_success_low": low,
        "p_success_high": high,
        "p_foul": sum(1 for s in shots if s["foul"]) / n,
        "mean_points": sum(s["points"] for s in shots) / n,
    }


def more_samples(held: Rows, more: Rows, first: int) -> Rows:
    """A position's rows ``held`` (its first samples, at least ``first``) joined with
    ``more`` (those from ``first`` on, played by :class:`MoreSamples`): the rows of one
    run of all of them."""
    shots = [*(s for s in held["shots"] if s["sample"] < first), *more["shots"]]
    if not more["shots"]:  # not feasible: nothing to join
        return more
    position = {**held["positions"][0], **_figures(shots)}
    return {"positions": [position], "shots": shots}
