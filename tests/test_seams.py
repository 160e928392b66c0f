"""The seams, checked from outside: what one part writes, the next part reads.

- The shot protocol: thousands of random shots through its public functions
  (``parse_shot`` -> ``simulate_shot`` -> ``shot_output``), from positions that include
  touching balls, balls frozen to a cushion and balls against a pocket's jaws or at the rim
  of its fall, played with strikes or with launches. Every rest position is accepted back as
  the protocol's input, and no two balls overlap by more than 1e-9 m.
- The game record: a game played by the loop (with a ball left in a pocket's jaws) is written
  as a record, read back and replayed; the replay and the referee reach the very same state.

The generated positions are built from the table's own geometry (``TableSpec.geometry``),
not from ``check_position``: that is the definition under test.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from onered.game import Action, Game, PhysicsSimulator, StrokeRecord
from onered.game.record import game_lines, read_record
from onered.game.replay import replay
from onered.game.session import Session
from onered.physics import Strike, TableSpec
from onered.players.ai import AIPlayer
from onered.players.strength import STRENGTHS
from onered.protocol.shot import ShotProtocolError, parse_shot, shot_output, simulate_shot
from onered.rules import Ball, Match
from onered.table import BALL_DIAMETER, BALL_RADIUS, LENGTH, WIDTH, on_surface

Point = tuple[float, float]
NAMES = ("white", "yellow", "red")
#: Largest overlap allowed between two balls at rest.
OVERLAP = 1e-9


# --- positions built from the table's geometry -------------------------------------------


def _accepted_by_protocol(balls: dict[str, Point]) -> bool:
    """The protocol takes ``balls`` as input (asked through its public reader)."""
    cue = "white" if "white" in balls else "yellow"
    shot = {"balls": {b: list(p) for b, p in balls.items()}, "cue_ball": cue}
    try:
        parse_shot({**shot, "strike": {"speed": 1.0, "aim": 0.0}})
    except ShotProtocolError:
        return False
    return True


@lru_cache(maxsize=1)
def jaw_points() -> tuple[Point, ...]:
    """Centres of a ball touching a jaw (facing or knuckle) or a cushion inside a pocket's
    mouth, or sitting at the rim of its fall: the last place a ball can stand along rays
    from in front of each pocket into it, found by bisection in the table's geometry."""
    geometry = TableSpec().geometry()
    points: list[Point] = []
    for pocket in geometry.pockets:
        mouth = (
            (pocket.jaw_points[0][0] + pocket.jaw_points[1][0]) / 2,
            (pocket.jaw_points[0][1] + pocket.jaw_points[1][1]) / 2,
        )
        ax, ay = pocket.axis
        start = (mouth[0] - 0.08 * ax, mouth[1] - 0.08 * ay)
        base = math.atan2(ay, ax)
        for k in range(-12, 13):
            angle = base + math.radians(5.0 * k)
            u = (math.cos(angle), math.sin(angle))
            t = _last_free(geometry, start, u)
            if t is not None:
                points.append((start[0] + t * u[0], start[1] + t * u[1]))
    return tuple(points)


def _last_free(geometry: Any, start: Point, u: Point) -> float | None:
    """How far a ball's centre goes from ``start`` along ``u`` before the ball would touch
    a jaw or a cushion or its centre enter a fall (bisection to 2^-60 of 0.25 m)."""

    def free(t: float) -> bool:
        return _ball_fits(geometry, (start[0] + t * u[0], start[1] + t * u[1]))

    lo, hi = 0.0, 0.25
    if not free(lo):
        return None
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if free(mid) else (lo, mid)
    return lo


def _ball_fits(geometry: Any, p: Point) -> bool:
    """Geometry alone: the ball's centre outside every fall, inside the outline, and at
    least one radius from every cushion nose, facing and knuckle (no tolerance)."""
    for pocket in geometry.pockets:
        if math.dist(p, pocket.fall_centre) < pocket.fall_radius:
            return False
        for facing in pocket.facings:
            if _segment_distance(p, facing.start, facing.end) < BALL_RADIUS:
                return False
        for knuckle in pocket.knuckles:
            if math.dist(p, knuckle.centre) < knuckle.radius + BALL_RADIUS:
                return False
    for cushion in geometry.cushions:
        if _segment_distance(p, cushion.start, cushion.end) < BALL_RADIUS:
            return False
    return _inside(geometry.outline, p)


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)
    t = max(0.0, min(1.0, t))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _inside(outline: tuple[Point, ...], p: Point) -> bool:
    inside = False
    j = len(outline) - 1
    for k in range(len(outline)):
        (xk, yk), (xj, yj) = outline[k], outline[j]
        if (yk > p[1]) != (yj > p[1]) and p[0] < (xj - xk) * (p[1] - yk) / (yj - yk) + xk:
            inside = not inside
        j = k
    return inside


def test_the_constructed_jaw_points_hang_beyond_the_cushion_lines_and_are_accepted() -> None:
    points = jaw_points()
    assert len(points) > 100
    hanging = [p for p in points if not on_surface(p)]
    assert len(hanging) > 50  # in the jaws: the old rectangle test refused them
    for p in points:
        assert _accepted_by_protocol({"white": p}), p


def _cushion_point(rng: random.Random) -> Point:
    """A ball frozen to one of the four straight cushions (away from the pockets)."""
    side = rng.randrange(4)
    if side < 2:
        y = rng.uniform(0.2, LENGTH - 0.2)
        return (BALL_RADIUS if side == 0 else WIDTH - BALL_RADIUS, y)
    x = rng.uniform(0.2, WIDTH - 0.2)
    return (x, BALL_RADIUS if side == 2 else LENGTH - BALL_RADIUS)


def _bed_point(rng: random.Random) -> Point:
    return (
        rng.uniform(BALL_RADIUS, WIDTH - BALL_RADIUS),
        rng.uniform(BALL_RADIUS, LENGTH - BALL_RADIUS),
    )


def random_position(rng: random.Random) -> dict[str, Point]:
    """Two or three balls: each on the bed, frozen to a cushion, against a jaw, or touching
    a ball already placed (at exactly one diameter, in a random direction)."""
    names = list(NAMES) if rng.random() < 0.8 else [rng.choice(NAMES[:2]), "red"]
    balls: dict[str, Point] = {}
    for name in names:
        for _ in range(50):
            kind = rng.random()
            if kind < 0.25:
                p = rng.choice(jaw_points())
            elif kind < 0.45:
                p = _cushion_point(rng)
            elif kind < 0.75 and balls:
                q = rng.choice(list(balls.values()))
                a = rng.uniform(0, 2 * math.pi)
                p = (q[0] + BALL_DIAMETER * math.cos(a), q[1] + BALL_DIAMETER * math.sin(a))
            else:
                p = _bed_point(rng)
            if all(math.dist(p, q) >= BALL_DIAMETER for q in balls.values()) and (
                _ball_fits(TableSpec().geometry(), p)
            ):
                balls[name] = p
                break
    return balls


def random_cue(rng: random.Random, balls: dict[str, Point], cue: str) -> dict[str, Any]:
    """A strike (aimed at a ball or a pocket, or anywhere) or, a quarter of the time, a
    launch of the cue ball with some spin."""
    c = balls[cue]
    others = [p for b, p in balls.items() if b != cue]
    target = rng.choice(others) if others and rng.random() < 0.6 else _bed_point(rng)
    aim = math.degrees(math.atan2(target[1] - c[1], target[0] - c[0])) + rng.gauss(0, 3)
    if rng.random() < 0.25:
        speed = rng.uniform(0.05, 6.0)
        v = [speed * math.cos(math.radians(aim)), speed * math.sin(math.radians(aim))]
        w = [rng.uniform(-40, 40), rng.uniform(-40, 40), rng.uniform(-60, 60)]
        return {"launch": {"v": v, "w": w}}
    r = rng.uniform(0, 0.8)
    a = rng.uniform(0, 2 * math.pi)
    return {
        "strike": {
            "speed": rng.choice([rng.uniform(0.05, 1.0), rng.uniform(0.05, 10.0)]),
            "aim": aim,
            "side": r * math.cos(a),
            "height": r * math.sin(a),
            "elevation": rng.choice([0.0, 0.0, rng.uniform(0, 60)]),
        }
    }


def play_shot(balls: dict[str, Point], cue: str, action: dict[str, Any]) -> dict[str, Any]:
    """One shot through the protocol's public functions; the output object."""
    shot = parse_shot({"balls": {b: list(p) for b, p in balls.items()}, "cue_ball": cue, **action})
    return shot_output(simulate_shot(shot, paths=False), shot.cue_ball)


def assert_rest_is_an_input(out: dict[str, Any]) -> dict[str, Point]:
    """The rest positions: no two balls overlap, and the protocol takes them back."""
    rest = {b: (p[0], p[1]) for b, p in out["rest"].items() if p is not None}
    for a in rest:
        for b in rest:
            if a < b:
                gap = math.dist(rest[a], rest[b]) - BALL_DIAMETER
                assert gap >= -OVERLAP, f"{a} and {b} overlap by {-gap:.3g} m: {rest}"
    for cue in ("white", "yellow"):
        if cue in rest:
            again = parse_shot(
                {
                    "balls": {b: list(p) for b, p in rest.items()},
                    "cue_ball": cue,
                    "strike": {"speed": 1.0, "aim": 0.0},
                }
            )
            assert dict(again.balls) == rest
    return rest


@settings(
    max_examples=1000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(seed=st.integers(min_value=0, max_value=2**63))
def test_every_rest_position_of_the_shot_protocol_is_accepted_back_as_input(seed: int) -> None:
    rng = random.Random(seed)
    balls = random_position(rng)
    cues = [b for b in ("white", "yellow") if b in balls]
    assume(cues)
    cue = rng.choice(cues)
    out = play_shot(balls, cue, random_cue(rng, balls, cue))
    rest = assert_rest_is_an_input(out)
    # and the next shot from there too (a rest position in the jaws played again)
    cues = [b for b in ("white", "yellow") if b in rest]
    if cues:
        cue = rng.choice(cues)
        assert_rest_is_an_input(play_shot(rest, cue, random_cue(rng, rest, cue)))


def test_thousands_of_chained_shots_from_awkward_positions_stay_valid() -> None:
    """Seeded runs of shots, each from the previous rest (re-racked when too few balls
    remain): rest positions in the jaws and against cushions become inputs again."""
    rng = random.Random(20261204)
    hanging = 0
    balls = random_position(rng)
    for _ in range(2500):
        cues = [b for b in ("white", "yellow") if b in balls]
        if not cues or len(balls) < 2:
            balls = random_position(rng)
            continue
        cue = rng.choice(cues)
        balls = assert_rest_is_an_input(play_shot(balls, cue, random_cue(rng, balls, cue)))
        hanging += any(not on_surface(p) for p in balls.values())
    assert hanging > 20  # the runs did leave balls in the jaws


# --- the record seam ----------------------------------------------------------------------


def test_a_played_game_written_read_and_replayed_reaches_the_same_state(tmp_path: Path) -> None:
    simulator = PhysicsSimulator()
    game = Game(Match(target=40, players=("Ann", "Bob")), simulator)
    # From the D at the red on its spot: the red comes back down the table to rest in the
    # bottom-left pocket's jaws.
    first = game.play(Action(strike=Strike(3.1, 89.7), placed=(0.889, 0.7)))
    red = first.balls_after[Ball.RED]
    assert not on_surface(red), f"the opening stroke no longer leaves the red in the jaws: {red}"
    players = {"Ann": AIPlayer(STRENGTHS["beginner"], 5), "Bob": AIPlayer(STRENGTHS["beginner"], 6)}
    while not game.over and len(game.entries) < 30:
        player = players[game.to_play]
        if game.state.choice_pending:
            game.choose(player.choose(game.option_positions()))
        game.play(player.decide(game.position))
    lines = game_lines(game, entrants={"Ann": "human", "Bob": "ai:beginner"})
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    record = read_record(path.read_text(encoding="utf-8").splitlines())
    # The simulation again: every line identical, the same winner (or none yet).
    replayed: list[StrokeRecord] = []
    report = replay(record, on_stroke=replayed.append)
    assert report.identical, (report.simulation, report.referee)
    assert report.winner == game.winner
    assert (
        replayed[-1].balls_after
        == [e for e in game.entries if isinstance(e, StrokeRecord)][-1].balls_after
    )
    # The referee alone, from the record's lines: the very state the loop reached.
    judged = Session.from_lines(lines)
    assert judged.state == game.state
    # And the command line: what `onered play --record` writes, `onered replay` accepts.
    from onered.cli import main

    assert main(["replay", str(path)]) == 0
