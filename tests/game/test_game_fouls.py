"""A stroke from hand must be played out of baulk (2.6, decision 7): read from the events,
with cushion contacts located on the cue ball's path; and the AI reads its compact
simulations exactly as the game loop reads full ones."""

from __future__ import annotations

import random

from game_support import P1, P2, baulk, cushion, hit, pocket

from onered import bridge, rules
from onered.game.fouls import bad_from_hand, position_at
from onered.game.model import Position
from onered.physics import Params, TableSpec, simulate_batch, strike_to_launch
from onered.physics.types import Event, Segment, ShotResult, Strike
from onered.players.search import Searcher
from onered.players.strength import STRENGTHS
from onered.rules import Ball, Match
from onered.table import Point

START = (0.95, 0.65)
BEFORE: dict[str, Point] = {"white": START, "yellow": (1.3, 0.5), "red": (1.0, 2.6)}


def shot(*events: Event, rest: Point | None = (1.0, 1.5), paths: dict | None = None) -> ShotResult:
    return ShotResult(
        tuple(events),
        {"white": rest, **{k: v for k, v in BEFORE.items() if k != "white"}},
        2.0,
        paths or {},
    )


def straight_path(velocity: tuple[float, float]) -> tuple[Segment, ...]:
    return (Segment(0.0, 5.0, START, velocity, (0.0, 0.0)),)


def test_first_contact_with_a_ball_out_of_baulk_is_legal() -> None:
    assert not bad_from_hand(
        shot(baulk(0.1, "white", "out"), hit(0.5, "white", "red")), "white", BEFORE
    )


def test_a_ball_in_baulk_may_not_be_played_directly_but_off_a_top_cushion() -> None:
    assert bad_from_hand(shot(hit(0.3, "white", "yellow")), "white", BEFORE)
    path = straight_path((0.0, 1.0))  # straight up: the top cushion is out of baulk
    late = shot(
        baulk(0.1, "white", "out"),
        cushion(2.8, "white", "top"),
        baulk(5.0, "white", "in"),
        hit(5.5, "white", "yellow"),
        paths={"white": path},
    )
    assert not bad_from_hand(late, "white", BEFORE)
    side = straight_path((1.0, 0.0))  # a cushion in baulk first does not do
    low = shot(
        cushion(0.8, "white", "right_lower"), hit(1.5, "white", "yellow"), paths={"white": side}
    )
    assert bad_from_hand(low, "white", BEFORE)


def test_a_cushion_out_of_baulk_lets_the_ball_come_back_into_baulk() -> None:
    path = straight_path((0.0, 1.0))
    events = (baulk(0.1, "white", "out"), cushion(2.8, "white", "top"), baulk(5.0, "white", "in"))
    assert not bad_from_hand(
        shot(*events, rest=(0.95, 0.3), paths={"white": path}), "white", BEFORE
    )


def test_a_cushion_in_baulk_does_not_count_as_played_out() -> None:
    path = straight_path((1.0, 0.0))  # along the baulk end to the right-hand cushion
    events = (cushion(0.8, "white", "right_lower"),)
    assert bad_from_hand(shot(*events, rest=(1.2, 0.6), paths={"white": path}), "white", BEFORE)


def test_a_cushion_in_baulk_on_the_way_out_is_allowed() -> None:
    path = straight_path((1.0, 0.0))
    events = (
        cushion(0.8, "white", "right_lower"),
        baulk(1.5, "white", "out"),
        hit(2.0, "white", "red"),
    )
    assert not bad_from_hand(shot(*events, paths={"white": path}), "white", BEFORE)


def test_back_into_baulk_untouched_or_resting_in_baulk_is_a_foul() -> None:
    assert bad_from_hand(
        shot(baulk(0.1, "white", "out"), baulk(1.0, "white", "in")), "white", BEFORE
    )
    assert bad_from_hand(shot(rest=(0.9, 0.6)), "white", BEFORE)


def test_a_cue_ball_potted_untouched_is_left_to_the_referee_as_a_miss() -> None:
    assert not bad_from_hand(
        shot(baulk(0.1, "white", "out"), pocket(1.0, "white", "middle_left"), rest=None),
        "white",
        BEFORE,
    )


def test_position_at_follows_the_quadratic_pieces() -> None:
    path = (
        Segment(0.0, 1.0, (0.0, 0.0), (2.0, 0.0), (-1.0, 0.0)),
        Segment(1.0, 3.0, (1.5, 0.0), (0.0, 1.0), (0.0, 0.0)),
    )
    assert position_at(path, 0.5, (9.0, 9.0)) == (0.875, 0.0)
    assert position_at(path, 2.0, (9.0, 9.0)) == (1.5, 1.0)
    assert position_at((), 2.0, (9.0, 9.0)) == (9.0, 9.0)


def test_the_ai_reads_compact_shots_exactly_as_the_game_loop_reads_full_ones() -> None:
    """Random strokes from hand and from the table: the AI's own reading of the compact
    events (first hit, cannon, pots, crossing, the from-hand foul) gives the referee the
    same stroke as the bridge and the game loop's foul check."""
    rng = random.Random(5)
    params, table = Params(), TableSpec()
    searcher = Searcher(STRENGTHS["amateur"], params, table)
    from onered.players.search import _Context

    match = Match(target=1000, players=(P1, P2))
    checked = 0
    for trial in range(12):
        from_hand = trial % 2 == 0
        balls: dict[Ball, Point] = {
            Ball.YELLOW: (rng.uniform(0.2, 1.6), rng.uniform(0.3, 3.2)),
            Ball.RED: (rng.uniform(0.2, 1.6), rng.uniform(0.8, 3.2)),
        }
        if not from_hand:
            balls[Ball.WHITE] = (rng.uniform(0.2, 1.6), rng.uniform(0.3, 3.2))
        if any(
            abs(p[0] - q[0]) < 0.06 and abs(p[1] - q[1]) < 0.06
            for i, p in enumerate(balls.values())
            for q in list(balls.values())[:i]
        ):
            continue
        state = rules.start(match)
        from dataclasses import replace

        state = replace(state, table=dict(balls), stroke_no=3)
        ctx = _Context(Position(balls=balls, state=state))
        cue = (rng.uniform(0.8, 1.0), rng.uniform(0.55, 0.70)) if from_hand else balls[Ball.WHITE]
        placed = cue if from_hand else None
        strikes = [
            Strike(
                rng.uniform(0.3, 4.0),
                rng.uniform(0, 360),
                rng.uniform(-0.4, 0.4),
                rng.uniform(-0.5, 0.5),
            )
            for _ in range(40)
        ]
        ids, shots = searcher._simulate(ctx, cue, strikes)
        names = {b.value: p for b, p in balls.items()}
        names["white"] = cue
        full = simulate_batch(
            names, "white", [strike_to_launch(s, params) for s in strikes], params, table
        )
        for compact, result in zip(shots, full, strict=True):
            _, verdict = searcher._judge(ctx, placed, ids, compact, 0.0)
            out = bridge.outcome(result, "white")
            hit0 = out.first_hit
            fouls = frozenset()
            if from_hand and bad_from_hand(result, "white", names):
                fouls = frozenset({rules.FoulCode.BAD_FROM_HAND})
            stroke = rules.Stroke(
                placed=placed,
                first_hit=None if hit0 is None else rules.BOTH if hit0 == "both" else Ball(hit0),
                cannon=out.cannon,
                potted=tuple(Ball(b) for b in out.potted),
                fouls=fouls,
                crossed_baulk=out.crossed_baulk,
                positions={Ball(b): p for b, p in out.positions.items()},
            )
            _, expected = rules.judge(state, stroke)
            assert verdict == expected
            checked += 1
    assert checked >= 200
