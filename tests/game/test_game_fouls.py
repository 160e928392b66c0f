"""A stroke from hand must be played out of baulk (2.6.3–2.6.6, decision 7 as corrected on
2026-12-03): read from the events, with cushion contacts located on the cue ball's path; and
the AI reads its compact simulations with the same reading (``bad_from_hand_compact``) and
so exactly as the game loop reads full ones. Tests named after decision 7 run each case on
hand-made event logs in both forms, and on the real table."""

from __future__ import annotations

import math
import random

import pytest

from bridge_support import compact_events
from game_support import P1, P2, baulk, cushion, hit, pocket, real_game_at
from onered import bridge, rules
from onered.bridge import bad_from_hand, bad_from_hand_compact
from onered.game.model import Action, Position
from onered.physics import (
    Params,
    TableSpec,
    simulate,
    simulate_batch,
    simulate_compact,
    strike_to_launch,
)
from onered.physics.types import Event, Segment, ShotResult, Strike, position_at
from onered.players.search import Searcher
from onered.players.strength import STRENGTHS
from onered.rules import Ball, FoulCode, Match
from onered.table import BAULK_Y, Point, in_baulk, in_d

START = (0.95, 0.65)
BEFORE: dict[str, Point] = {"white": START, "yellow": (1.3, 0.5), "red": (1.0, 2.6)}


def shot(*events: Event, rest: Point | None = (1.0, 1.5), paths: dict | None = None) -> ShotResult:
    return ShotResult(
        tuple(events),
        {"white": rest, **{k: v for k, v in BEFORE.items() if k != "white"}},
        2.0,
        paths or {},
    )


def straight_path(velocity: tuple[float, float], start: Point = START) -> tuple[Segment, ...]:
    return (Segment(0.0, 5.0, start, velocity, (0.0, 0.0)),)


def foul(result: ShotResult, before: dict[str, Point] = BEFORE) -> bool:
    """``bad_from_hand`` of ``result``, checked to be what the AI's compact reading says of
    the same events (which has no path: cushion contacts by the baulk-line crossings)."""
    full = bad_from_hand(result, "white", before)
    ids = tuple(before)
    rest = tuple(result.rest.get(b) for b in ids)
    compact = bad_from_hand_compact(compact_events(result.events, ids), rest, ids, "white", before)
    assert compact == full, "the AI and the game loop read this stroke differently"
    return full


def test_first_contact_with_a_ball_out_of_baulk_is_legal() -> None:
    assert not foul(shot(baulk(0.1, "white", "out"), hit(0.5, "white", "red")))


def test_decision_07_ball_in_baulk_hit_directly_from_hand_is_a_foul() -> None:
    # 2.6.6: the yellow (1.3, 0.5) is in baulk; nothing out of baulk was touched before it
    assert foul(shot(hit(0.3, "white", "yellow")))
    # a cushion in baulk on the way does not make it indirect (2.6.4 needs one out of baulk)
    side = straight_path((1.0, 0.0))
    assert foul(
        shot(
            cushion(0.3, "white", "right_lower"), hit(1.5, "white", "yellow"), paths={"white": side}
        )
    )
    assert foul(shot(cushion(0.3, "white", "bottom"), hit(1.5, "white", "yellow")))


def test_decision_07_ball_in_baulk_hit_after_cushion_out_of_baulk_is_legal() -> None:
    # 2.6.4: a cushion out of baulk first, then the ball in baulk (corrected decision 7)
    up = straight_path((0.0, 1.0))  # straight up: the top cushion is out of baulk
    top = shot(
        baulk(0.1, "white", "out"),
        cushion(2.8, "white", "top"),
        baulk(5.0, "white", "in"),
        hit(5.5, "white", "yellow"),
        paths={"white": up},
    )
    assert not foul(top)
    # a side cushion at a point out of baulk does as well
    slant = straight_path((0.5, 1.0))  # reaches the right-hand cushion at y = 1.31
    side = shot(
        baulk(0.087, "white", "out"),
        cushion(1.33, "white", "right_lower"),
        baulk(2.0, "white", "in"),
        hit(2.5, "white", "yellow"),
        paths={"white": slant},
    )
    assert not foul(side)


def test_decision_07_baulk_cushion_then_ball_out_of_baulk_is_legal() -> None:
    # 2.6.5: a cushion bounding baulk may be used on the way to a ball out of baulk
    down = straight_path((0.0, -1.0))
    events = (
        cushion(0.6, "white", "bottom"),
        baulk(1.5, "white", "out"),
        hit(2.5, "white", "red"),
    )
    assert not foul(shot(*events, paths={"white": down}))
    along = straight_path((1.0, 0.0))
    events = (
        cushion(0.8, "white", "right_lower"),
        baulk(1.5, "white", "out"),
        hit(2.0, "white", "red"),
    )
    assert not foul(shot(*events, paths={"white": along}))


def test_decision_07_coming_to_rest_in_baulk_after_touching_nothing_out_of_baulk_is_a_foul() -> (
    None
):
    assert foul(shot(rest=(0.9, 0.6)))
    along = straight_path((1.0, 0.0))  # along the baulk end to the right-hand cushion
    events = (cushion(0.8, "white", "right_lower"),)
    assert foul(shot(*events, rest=(1.2, 0.6), paths={"white": along}))
    # resting in baulk after a cushion out of baulk is allowed (2.6.4, 2.13.3)
    up = straight_path((0.0, 1.0))
    events = (baulk(0.1, "white", "out"), cushion(2.8, "white", "top"), baulk(5.0, "white", "in"))
    assert not foul(shot(*events, rest=(0.95, 0.3), paths={"white": up}))


def test_decision_07_back_into_baulk_before_touching_anything_out_of_it_is_a_foul() -> None:
    # 2.6.4 "before it returns into baulk": the crossing back is itself the foul, even if
    # the ball then goes out again off the bottom cushion and hits a ball out of baulk
    events = (
        baulk(0.1, "white", "out"),
        baulk(1.0, "white", "in"),
        cushion(1.5, "white", "bottom"),
        baulk(2.5, "white", "out"),
        hit(3.0, "white", "red"),
    )
    assert foul(shot(*events))


def test_decision_07_placed_a_hair_beyond_the_line_and_played_down_has_not_come_back() -> None:
    # The D includes its line with decision 1's 1e-6 m: a ball placed 5e-7 m beyond the
    # line is in baulk; the engine still reports it crossing "in" at once when it is
    # played towards the bottom cushion. That is no return into baulk.
    hair = (0.889, BAULK_Y + 5e-7)
    assert in_d(hair)
    before = {**BEFORE, "white": hair}
    events = (
        baulk(0.0, "white", "in"),
        cushion(0.6, "white", "bottom"),
        baulk(1.5, "white", "out"),
        hit(2.5, "white", "red"),
    )
    path = straight_path((0.0, -1.0), hair)
    assert not foul(shot(*events, paths={"white": path}), before)


def test_decision_07_overhanging_ball_is_in_baulk_by_its_centre() -> None:
    # 2.6.6 "even if part of the ball is out of baulk", decision 1: by the centre
    for y, in_baulk_now in ((BAULK_Y + 0.02, False), (BAULK_Y, True), (BAULK_Y + 5e-7, True)):
        before = {**BEFORE, "yellow": (1.3, y)}
        assert in_baulk(before["yellow"]) is in_baulk_now
        assert foul(shot(hit(0.3, "white", "yellow")), before) is in_baulk_now


def test_a_cue_ball_potted_untouched_is_left_to_the_referee_as_a_miss() -> None:
    assert not foul(
        shot(baulk(0.1, "white", "out"), pocket(1.0, "white", "middle_left"), rest=None)
    )


# --- decision 7 on the real table, through the game loop -----------------------------------

SIM_PARAMS, SIM_TABLE = Params(), TableSpec()
IN_D_REAL = (0.889, 0.6)


def aim_at(a: Point, b: Point) -> float:
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


LINE_OUT = (1.3, BAULK_Y + 0.02)  # overhangs the line, centre out of baulk
LINE_ON = (1.3, BAULK_Y)  # centre on the line: in baulk
HAIR = (0.889, BAULK_Y + 5e-7)  # in the D by decision 1's tolerance
#: id: (placed, red, yellow, speed, aim (degrees, or the point aimed at), foul)
REAL_CASES: dict[str, tuple[Point, Point, Point, float, float | Point, bool]] = {
    "direct_at_ball_in_baulk": (IN_D_REAL, (0.5, 0.5), (1.2, 2.5), 1.0, (0.5, 0.5), True),
    "top_cushion_then_ball_in_baulk": (IN_D_REAL, (0.889, 0.3), (1.5, 2.0), 5.0, 90.0, False),
    "bottom_cushion_then_ball_out": (IN_D_REAL, (0.889, 1.5), (1.5, 2.0), 2.0, -90.0, False),
    "rest_in_baulk_untouched": (IN_D_REAL, (1.3, 2.5), (1.5, 2.0), 0.5, -90.0, True),
    "overhanging_centre_out": (IN_D_REAL, LINE_OUT, (1.5, 2.0), 1.0, LINE_OUT, False),
    "centre_on_the_line": (IN_D_REAL, LINE_ON, (1.5, 2.0), 1.0, LINE_ON, True),
    "hair_beyond_the_line_down_and_out": (HAIR, (0.889, 1.5), (1.5, 2.0), 2.0, -90.0, False),
}


@pytest.mark.parametrize("case", REAL_CASES)
def test_decision_07_on_the_real_table(case: str) -> None:
    """Each case simulated: the full shot, the AI's compact one and the game loop's
    verdict agree on the foul."""
    placed, red, yellow, speed, aim, expected = REAL_CASES[case]
    strike = Strike(speed, aim if isinstance(aim, float) else aim_at(placed, aim))
    before = {"white": placed, "yellow": yellow, "red": red}
    launch = strike_to_launch(strike, SIM_PARAMS)
    result = simulate(before, "white", launch, SIM_PARAMS, SIM_TABLE)
    assert bad_from_hand(result, "white", before) is expected
    batch = simulate_compact(before, "white", [launch], SIM_PARAMS, SIM_TABLE)
    (compact,) = batch.shots
    ids = batch.ball_ids
    assert bad_from_hand_compact(compact.events, compact.rest, ids, "white", before) is expected
    game = real_game_at({Ball.YELLOW: yellow, Ball.RED: red})
    record = game.play(Action(strike, placed=placed))
    assert (FoulCode.BAD_FROM_HAND in record.stroke.fouls) is expected


def test_position_at_follows_the_quadratic_pieces() -> None:
    path = (
        Segment(0.0, 1.0, (0.0, 0.0), (2.0, 0.0), (-1.0, 0.0)),
        Segment(1.0, 3.0, (1.5, 0.0), (0.0, 1.0), (0.0, 0.0)),
    )
    assert position_at(path, 0.5, (9.0, 9.0)) == (0.875, 0.0)
    assert position_at(path, 2.0, (9.0, 9.0)) == (1.5, 1.0)
    assert position_at((), 2.0, (9.0, 9.0)) == (9.0, 9.0)
    assert position_at(path, 9.0, (9.0, 9.0)) == (1.5, 2.0)  # the path's end after it


def test_before_its_path_starts_a_ball_stands_at_the_start_and_in_a_gap_at_the_last_end() -> None:
    # The two readings that once disagreed (the foul reading gave the default before the
    # path, the drawing the start; the drawing gave the path's end in a gap): one now.
    path = (
        Segment(0.5, 1.0, (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)),
        Segment(2.0, 3.0, (2.0, 1.0), (0.0, 1.0), (0.0, 0.0)),
    )
    assert position_at(path, 0.0, (9.0, 9.0)) == (1.0, 1.0) == path[0].at(0.0)
    assert position_at(path, 1.5, (9.0, 9.0)) == (1.5, 1.0) == path[0].at(1.5)
    assert position_at(path, 2.5, (9.0, 9.0)) == (2.0, 1.5) == path[1].at(2.5)
    assert path[1].at(-1.0) == path[1].p0


def test_the_ai_reads_its_batch_exactly_as_the_game_loop_reads_full_shots() -> None:
    """Random strokes from hand and from the table: the AI's own reading of its batch
    (first hit, cannon, pots, crossing, the from-hand foul) gives the referee the same
    stroke as the bridge and the game loop's foul check read from full shots."""
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
        shots, played = searcher._simulate(ctx, [placed], [(0, strikes)])
        names = {b.value: p for b, p in balls.items()}
        names["white"] = cue
        full = simulate_batch(
            names, "white", [strike_to_launch(s, params) for s in played], params, table
        )
        read = searcher._strokes(ctx, [placed] * len(played), shots)
        for mine, result in zip(read, full, strict=True):
            _, verdict = rules.judge(state, mine)
            stroke = bridge.stroke(result, "white", names, placed=placed)
            _, expected = rules.judge(state, stroke)
            assert verdict == expected
            checked += 1
    assert checked >= 200
