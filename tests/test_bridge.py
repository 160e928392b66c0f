"""The bridge from a simulated shot to the referee's stroke, on hand-made event logs."""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge_support import compact_events
from onered.bridge import (
    BOTH,
    SIMULTANEOUS_S,
    Outcome,
    cannon,
    crossed_baulk,
    first_hit,
    off_table,
    outcome,
    potted,
    touching,
)
from onered.physics.types import Event, EventKind, ShotResult, Vec2
from onered.rules import GameState
from onered.table import BALL_DIAMETER, BAULK_Y

BB = EventKind.BALL_BALL


def hit(t: float, a: str, b: str) -> Event:
    return Event(t, BB, (a, b))


def cushion(t: float, ball: str, name: str = "top") -> Event:
    return Event(t, EventKind.CUSHION, (ball,), cushion=name)


def pocket(t: float, ball: str, name: str = "top_right") -> Event:
    return Event(t, EventKind.POCKET, (ball,), pocket=name)


def baulk(t: float, ball: str, direction: str) -> Event:
    return Event(t, EventKind.BAULK_LINE, (ball,), direction=direction)


START: dict[str, Vec2 | None] = {"white": (0.5, 1.0), "yellow": (1.2, 2.0), "red": (0.9, 3.2)}


def shot(*events: Event, rest: dict[str, Vec2 | None] | None = None) -> ShotResult:
    return ShotResult(
        events=tuple(events), rest=dict(START if rest is None else rest), duration=3.0, paths={}
    )


# --- first hit and cannon ------------------------------------------------------------------


def test_first_hit_red() -> None:
    assert first_hit([hit(0.3, "white", "red"), hit(0.9, "white", "yellow")], "white") == "red"


def test_first_hit_yellow_whatever_the_order_of_balls_in_the_event() -> None:
    events = [cushion(0.1, "white"), hit(0.3, "yellow", "white"), hit(0.9, "white", "red")]
    assert first_hit(events, "white") == "yellow"


def test_first_hit_both_at_the_same_instant() -> None:
    events = [hit(0.5, "white", "red"), hit(0.5 + SIMULTANEOUS_S / 2, "white", "yellow")]
    assert first_hit(events, "white") == BOTH == "both"
    assert cannon(events, "white")


def test_contacts_just_beyond_the_tolerance_are_not_simultaneous() -> None:
    events = [hit(0.5, "white", "red"), hit(0.5 + 10 * SIMULTANEOUS_S, "white", "yellow")]
    assert first_hit(events, "white") == "red"


def test_first_hit_none_when_cue_ball_touches_nothing() -> None:
    assert first_hit([cushion(0.2, "white"), cushion(0.8, "white", "left_upper")], "white") is None
    assert first_hit([], "white") is None


def test_object_ball_contacts_do_not_count_as_first_hit() -> None:
    # Only a contact with the cue ball itself is a hit: red running into yellow is not.
    events = [cushion(0.1, "white"), hit(0.6, "red", "yellow"), hit(0.9, "white", "yellow")]
    assert first_hit(events, "white") == "yellow"
    assert first_hit(events[:2], "white") is None


def test_cannon_when_cue_ball_touches_both_object_balls() -> None:
    assert cannon([hit(0.2, "white", "red"), hit(0.7, "white", "yellow")], "white")


def test_no_cannon_when_cue_ball_touches_one_ball_twice() -> None:
    assert not cannon([hit(0.2, "white", "red"), hit(0.7, "white", "red")], "white")


def test_no_cannon_through_object_ball_to_object_ball_contact() -> None:
    events = [hit(0.2, "white", "red"), hit(0.7, "red", "yellow")]
    assert not cannon(events, "white")
    assert first_hit(events, "white") == "red"


def test_no_cannon_without_contact() -> None:
    assert not cannon([cushion(0.2, "white")], "white")


# --- pots, off the table ------------------------------------------------------------------


def test_potted_in_order() -> None:
    events = [hit(0.2, "white", "red"), pocket(1.0, "red"), pocket(1.4, "white", "middle_left")]
    assert potted(events) == ("red", "white")
    assert potted([hit(0.2, "white", "red")]) == ()


def test_off_table_is_empty_for_the_engine_event_kinds() -> None:
    assert off_table([hit(0.2, "white", "red"), pocket(1.0, "red")]) == ()


def test_in_off_outcome() -> None:
    result = shot(
        hit(0.4, "white", "red"),
        pocket(1.1, "white", "top_left"),
        rest={"white": None, "yellow": (1.2, 2.0), "red": (0.7, 3.0)},
    )
    got = outcome(result, "white")
    assert got.first_hit == "red"
    assert got.potted == ("white",)
    assert not got.cannon
    assert not got.crossed_baulk
    assert not got.touching
    assert got.positions == {"yellow": (1.2, 2.0), "red": (0.7, 3.0)}


# --- the baulk line -----------------------------------------------------------------------

IN_BAULK: Vec2 = (0.8, BAULK_Y - 0.2)
OUT_OF_BAULK: Vec2 = (0.8, BAULK_Y + 0.2)


def test_crossed_baulk_in_and_resting_in_baulk() -> None:
    rest = {"white": IN_BAULK}
    assert crossed_baulk([cushion(0.5, "white"), baulk(1.2, "white", "in")], rest, "white")


def test_crossing_out_is_not_crossing_into_baulk() -> None:
    # Played from the D up the table: it crossed out and never came back.
    assert not crossed_baulk([baulk(0.1, "white", "out")], {"white": OUT_OF_BAULK}, "white")


def test_crossing_in_then_leaving_baulk_again_does_not_count() -> None:
    events = [
        baulk(1.0, "white", "in"),
        cushion(1.5, "white", "bottom"),
        baulk(2.0, "white", "out"),
    ]
    assert not crossed_baulk(events, {"white": OUT_OF_BAULK}, "white")


def test_crossing_in_out_and_in_again_counts() -> None:
    events = [baulk(1.0, "white", "in"), baulk(2.0, "white", "out"), baulk(2.6, "white", "in")]
    assert crossed_baulk(events, {"white": IN_BAULK}, "white")


def test_resting_exactly_on_the_baulk_line_counts() -> None:
    assert crossed_baulk([baulk(1.0, "white", "in")], {"white": (0.8, BAULK_Y)}, "white")


def test_potted_cue_ball_did_not_cross() -> None:
    events = [baulk(1.0, "white", "in"), pocket(1.5, "white", "bottom_left")]
    assert not crossed_baulk(events, {"white": None}, "white")


def test_resting_in_baulk_without_crossing_does_not_count() -> None:
    # Played from the D, it stayed in baulk (e.g. off the bottom cushion).
    assert not crossed_baulk([cushion(0.4, "white", "bottom")], {"white": IN_BAULK}, "white")


def test_another_ball_crossing_does_not_count() -> None:
    events = [hit(0.3, "white", "red"), baulk(1.0, "red", "in")]
    rest: dict[str, Vec2 | None] = {"white": IN_BAULK, "red": (0.5, 0.3)}
    assert not crossed_baulk(events, rest, "white")


# --- touching -----------------------------------------------------------------------------


def test_touching_within_a_diameter_plus_tolerance() -> None:
    rest: dict[str, Vec2 | None] = {
        "white": (0.5, 1.0),
        "red": (0.5 + BALL_DIAMETER + 0.5e-6, 1.0),
        "yellow": (1.5, 3.0),
    }
    assert touching(rest, "white")


def test_not_touching_beyond_the_tolerance() -> None:
    rest: dict[str, Vec2 | None] = {"white": (0.5, 1.0), "red": (0.5 + BALL_DIAMETER + 2e-6, 1.0)}
    assert not touching(rest, "white")


def test_object_balls_touching_each_other_is_not_the_cue_ball_touching() -> None:
    rest: dict[str, Vec2 | None] = {
        "white": (0.5, 1.0),
        "red": (1.0, 2.0),
        "yellow": (1.0 + BALL_DIAMETER, 2.0),
    }
    assert not touching(rest, "white")
    assert touching(rest, "red")


def test_potted_cue_ball_touches_nothing() -> None:
    assert not touching({"white": None, "red": (0.5, 1.0)}, "white")


# --- the whole outcome --------------------------------------------------------------------


def test_outcome_of_a_cannon_and_pot() -> None:
    result = shot(
        hit(0.3, "white", "red"),
        cushion(0.6, "red", "top"),
        hit(0.9, "white", "yellow"),
        pocket(1.2, "red"),
        baulk(2.0, "white", "in"),
        rest={"white": (0.6, 0.5), "yellow": (1.3, 2.2), "red": None},
    )
    got = outcome(result, "white")
    assert got == Outcome(
        first_hit="red",
        cannon=True,
        potted=("red",),
        off_table=(),
        crossed_baulk=True,
        touching=False,
        positions={"white": (0.6, 0.5), "yellow": (1.3, 2.2)},
    )


def test_outcome_json_is_the_protocol_object() -> None:
    result = shot(
        hit(0.3, "white", "red"),
        pocket(1.2, "red"),
        rest={"white": (0.6, 0.5), "yellow": (1.3, 2.2), "red": None},
    )
    data = outcome(result, "white").to_json()
    assert data == {
        "first_hit": "red",
        "cannon": False,
        "potted": ["red"],
        "off_table": [],
        "crossed_baulk": False,
        "touching": False,
        "positions": {"white": [0.6, 0.5], "yellow": [1.3, 2.2]},
    }
    assert json.loads(json.dumps(data, allow_nan=False)) == data


def test_outcome_with_two_balls_only() -> None:
    result = shot(hit(0.3, "white", "red"), rest={"white": (0.6, 0.5), "red": (0.9, 3.0)})
    got = outcome(result, "white")
    assert got.first_hit == "red"
    assert not got.cannon


def test_outcome_is_frozen() -> None:
    got = outcome(shot(), "white")
    with pytest.raises(AttributeError):
        got.cannon = True  # type: ignore[misc]


# --- the compact form (the AI's search) reads the same -------------------------------------


def test_compact_outcome_of_a_touching_rest() -> None:
    from onered.bridge import compact_outcome
    from onered.physics import EVENT_KINDS, CompactShot

    code = EVENT_KINDS.index(EventKind.BALL_BALL)
    rest = ((0.5, 1.0), (0.5 + BALL_DIAMETER, 1.0), None)
    events = ((0.3, code, 0, 1, -1, -1, 0),)
    got = compact_outcome(CompactShot(1.0, rest, events), ("white", "red", "yellow"), "white")
    assert got.first_hit == "red"
    assert got.touching
    assert got.positions == {"white": rest[0], "red": rest[1]}


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    from_baulk=st.booleans(),
)
def test_compact_outcome_equals_the_full_reading(seed: int, from_baulk: bool) -> None:
    """The seam: the same strikes simulated in full and in the compact form give the same
    outcome, and the same referee stroke (half of them elevated: jumps and balls off the
    table included)."""
    import random

    from onered.bridge import compact_outcome
    from onered.physics import Params, TableSpec, simulate, simulate_compact, strike_to_launch
    from onered.physics.types import Strike

    rng = random.Random(seed)
    balls = {
        "white": (rng.uniform(0.3, 1.5), rng.uniform(0.3, 0.7) if from_baulk else 1.5),
        "yellow": (rng.uniform(0.2, 1.6), rng.uniform(1.7, 2.4)),
        "red": (rng.uniform(0.2, 1.6), rng.uniform(2.6, 3.3)),
    }
    params, table = Params(), TableSpec()
    strikes = [
        Strike(
            rng.uniform(0.3, 6.0),
            rng.uniform(0, 360),
            rng.uniform(-0.4, 0.4),
            rng.uniform(-0.5, 0.5),
            rng.uniform(0, 90) if rng.random() < 0.5 else 0.0,  # half of them in the air
        )
        for _ in range(20)
    ]
    launches = [strike_to_launch(s, params) for s in strikes]
    batch = simulate_compact(balls, "white", launches, params, table)
    for launch, compact in zip(launches, batch.shots, strict=True):
        full = outcome(simulate(balls, "white", launch, params, table), "white")
        lean = compact_outcome(compact, batch.ball_ids, "white")
        assert lean == full
        assert lean.stroke(placed=None) == full.stroke(placed=None)


# --- balls in the air: the jump (decision 17) and balls off the table (decision 18) ---------

IDS = ("white", "yellow", "red")


def over(t: float, flier: str, below: str) -> Event:
    return Event(t, EventKind.OVER, (flier, below))


def land(t: float, ball: str) -> Event:
    return Event(t, EventKind.LAND, (ball,))


def airborne(t: float, ball: str) -> Event:
    return Event(t, EventKind.AIRBORNE, (ball,))


def flew_off(
    t: float, ball: str, name: str | None = "top", over_pocket: str | None = None
) -> Event:
    return Event(t, EventKind.OFF_TABLE, (ball,), cushion=name, pocket=over_pocket)


def jumps(*events: Event) -> bool:
    """The jump reading of ``events`` for the cue ball ``white``, checked to be the same in
    both forms (the game loop's full one and the AI's compact one)."""
    from onered.bridge import jump, jump_compact

    full = jump(events, "white")
    assert jump_compact(compact_events(events, IDS), 0) == full, (
        "the two forms read this flight differently"
    )
    return full


def test_decision_17_1_an_object_ball_flying_over_a_ball_is_no_jump() -> None:
    assert not jumps(airborne(0.1, "red"), over(0.2, "red", "yellow"), land(0.3, "red"))
    assert not jumps(airborne(0.1, "red"), over(0.2, "red", "white"), land(0.3, "red"))


def test_decision_17_2_the_cue_ball_going_over_a_ball_and_landing_is_a_jump() -> None:
    assert jumps(airborne(0.0, "white"), over(0.1, "white", "red"), land(0.2, "white"))


def test_decision_17_2_going_over_a_ball_into_a_pocket_or_off_the_table_is_a_jump() -> None:
    assert jumps(airborne(0.0, "white"), over(0.1, "white", "red"), pocket(0.3, "white"))
    assert jumps(airborne(0.0, "white"), over(0.1, "white", "red"), flew_off(0.3, "white"))
    assert jumps(airborne(0.0, "white"), over(0.1, "white", "red"))  # the log ends in the air


def test_decision_17_2_any_flight_counts_not_only_one_from_the_cue() -> None:
    events = (
        cushion(0.4, "white"),
        airborne(0.4, "white"),  # a hard cushion impact throws the cue ball up
        over(0.5, "white", "yellow"),
        land(0.6, "white"),
    )
    assert jumps(*events)


def test_decision_17_2_a_flight_that_comes_above_no_ball_is_no_jump() -> None:
    assert not jumps(airborne(0.0, "white"), land(0.1, "white"), hit(0.4, "white", "red"))


def test_decision_17_3_coming_above_a_ball_and_striking_it_is_no_jump() -> None:
    events = (
        airborne(0.0, "white"),
        over(0.10, "white", "red"),
        hit(0.11, "white", "red"),
        land(0.2, "white"),
    )
    assert not jumps(*events)


def test_decision_17_3_striking_it_only_in_a_later_flight_is_a_jump() -> None:
    events = (
        airborne(0.0, "white"),
        over(0.10, "white", "red"),
        land(0.2, "white"),
        airborne(0.2, "white"),
        hit(0.3, "white", "red"),
    )
    assert jumps(*events)


def test_decision_17_3_striking_another_ball_does_not_undo_the_jump() -> None:
    events = (
        airborne(0.0, "white"),
        over(0.10, "white", "yellow"),
        hit(0.15, "white", "red"),
        land(0.2, "white"),
    )
    assert jumps(*events)


def test_decision_17_4_after_striking_one_object_ball_going_over_the_other_is_no_jump() -> None:
    events = (
        hit(0.3, "white", "red"),
        airborne(0.3, "white"),
        over(0.5, "white", "yellow"),
        land(0.6, "white"),
    )
    assert not jumps(*events)


def test_decision_17_5_over_the_first_ball_after_a_cushion_or_the_other_ball_is_no_jump() -> None:
    for between in (
        cushion(0.4, "white"),
        cushion(0.4, "white", "jaw"),
        hit(0.4, "white", "yellow"),
    ):
        events = (
            hit(0.3, "white", "red"),
            between,
            airborne(0.45, "white"),
            over(0.5, "white", "red"),
            land(0.6, "white"),
        )
        assert not jumps(*events), between


def test_decision_17_5_over_the_first_ball_straight_after_striking_it_is_a_jump() -> None:
    events = (
        airborne(0.0, "white"),
        hit(0.3, "white", "red"),
        over(0.35, "white", "red"),  # it clipped the top of the red and flies on over it
        land(0.6, "white"),
    )
    assert jumps(*events)


def test_decision_17_5_a_first_contact_with_both_at_once_frees_neither_ball() -> None:
    events = (
        hit(0.3, "white", "red"),
        hit(0.3 + SIMULTANEOUS_S / 2, "white", "yellow"),
        airborne(0.3, "white"),
        over(0.35, "white", "yellow"),
        land(0.6, "white"),
    )
    assert jumps(*events)


def test_decision_17_6_the_jump_reaches_the_stroke_the_outcome_and_the_referee() -> None:
    from onered import rules
    from onered.bridge import compact_outcome, compact_stroke, stroke
    from onered.physics import CompactShot

    events = (
        airborne(0.0, "white"),
        over(0.1, "white", "red"),
        land(0.2, "white"),
        hit(0.5, "white", "yellow"),  # over the red onto the yellow
    )
    result = shot(*events)
    got = outcome(result, "white")
    assert got.fouls == ("jump",)
    assert got.to_json()["fouls"] == ["jump"]
    rest = tuple(START[b] for b in IDS)
    lean = CompactShot(3.0, rest, compact_events(events, IDS))
    assert compact_outcome(lean, IDS, "white") == got
    full = stroke(result, "white", BEFORE_ON_TABLE)
    assert full.fouls == {rules.FoulCode.JUMP}
    assert compact_stroke(lean, IDS, "white") == full
    _, verdict = rules.judge(state(), full)
    assert verdict.foul is not None
    assert verdict.foul.codes == (rules.FoulCode.JUMP,)
    assert verdict.points == 0
    assert verdict.score == (0, 2)


def test_decision_17_6_a_jump_from_hand_may_also_be_a_bad_stroke_from_hand() -> None:
    from onered import rules
    from onered.bridge import stroke

    placed = (0.889, 0.6)
    before = {**BEFORE_ON_TABLE, "white": placed, "yellow": (1.0, 0.4)}  # yellow in baulk
    events = (
        airborne(0.0, "white"),
        over(0.1, "white", "red"),
        land(0.2, "white"),
        hit(0.3, "white", "yellow"),
    )
    result = ShotResult(
        events, {"white": (0.9, 0.5), "yellow": (1.0, 0.3), "red": START["red"]}, 3.0, {}
    )
    got = stroke(result, "white", before, placed=placed)
    assert got.fouls == {rules.FoulCode.JUMP, rules.FoulCode.BAD_FROM_HAND}


def test_decision_17_6_no_fouls_in_the_outcome_json_without_a_jump() -> None:
    assert "fouls" not in outcome(shot(hit(0.3, "white", "red")), "white").to_json()


BEFORE_ON_TABLE: dict[str, Vec2] = {b: p for b, p in START.items() if p is not None}


def state(in_hand: bool = False) -> GameState:
    """The referee's game: white to play, every ball on the table where ``START`` has it
    (the white in hand when ``in_hand``)."""
    from onered import rules

    table = {rules.Ball(b): p for b, p in BEFORE_ON_TABLE.items() if not (in_hand and b == "white")}
    return rules.GameState(match=rules.Match(target=100, players=("A", "B")), table=table)


def test_decision_18_1_balls_off_the_table_in_order_each_once() -> None:
    events = (
        hit(0.1, "white", "red"),
        flew_off(0.5, "red", None, over_pocket="top_left"),
        flew_off(0.6, "white", "left_upper"),
        flew_off(0.7, "red"),  # reported twice: listed once
    )
    assert off_table(events) == ("red", "white")
    rest = {"white": None, "yellow": START["yellow"], "red": None}
    got = outcome(shot(*events, rest=rest), "white")
    assert got.off_table == ("red", "white")
    assert got.positions == {"yellow": START["yellow"]}
    assert not got.touching
    assert not got.crossed_baulk


def test_decision_18_1_a_ball_in_a_pocket_is_potted_not_off_the_table() -> None:
    events = (hit(0.1, "white", "red"), pocket(0.5, "red"), flew_off(0.6, "red"))
    assert off_table(events) == ()
    assert potted(events) == ("red",)


def test_decision_18_1_the_compact_form_lists_the_same_balls() -> None:
    from onered.bridge import compact_outcome
    from onered.physics import CompactShot

    events = (
        hit(0.1, "white", "red"),
        pocket(0.4, "yellow"),
        flew_off(0.5, "red", None, over_pocket="top_left"),
        flew_off(0.6, "white", "left_upper"),
    )
    rest: dict[str, Vec2 | None] = {"white": None, "yellow": None, "red": None}
    lean = CompactShot(3.0, (None, None, None), compact_events(events, IDS))
    assert compact_outcome(lean, IDS, "white") == outcome(shot(*events, rest=rest), "white")


def test_decision_18_2_the_referee_spots_a_red_off_the_table_and_fouls() -> None:
    from onered import rules
    from onered.bridge import stroke

    events = (hit(0.1, "white", "red"), flew_off(0.5, "red"))
    rest = {"white": (0.5, 1.5), "yellow": START["yellow"], "red": None}
    got = stroke(shot(*events, rest=rest), "white", BEFORE_ON_TABLE)
    after, verdict = rules.judge(state(), got)
    assert verdict.foul is not None
    assert verdict.foul.codes == (rules.FoulCode.OFF_TABLE,)
    assert rules.Ball.RED in after.table  # spotted (2.7) for the incoming player
    assert verdict.score == (0, 2)


def test_decision_18_2_a_cue_ball_off_the_table_is_in_hand() -> None:
    from onered import rules
    from onered.bridge import stroke

    events = (
        airborne(0.0, "white"),
        over(0.1, "white", "red"),
        hit(0.2, "white", "yellow"),  # over the red, onto the yellow and off the table
        flew_off(0.3, "white"),
    )
    rest = {"white": None, "yellow": START["yellow"], "red": START["red"]}
    got = stroke(shot(*events, rest=rest), "white", BEFORE_ON_TABLE)
    after, verdict = rules.judge(state(), got)
    assert verdict.foul is not None
    assert set(verdict.foul.codes) == {rules.FoulCode.JUMP, rules.FoulCode.OFF_TABLE}
    assert verdict.foul.penalty == 2  # two fouls of one stroke: 2 points (2.12.3)
    assert verdict.score == (0, 2)
    assert rules.Ball.WHITE not in after.table


# --- whatever the bridge reads from an event log with flights, the referee accepts ---------

_EVENT_SPECS = st.sampled_from(
    ["hit", "cushion", "jaw", "pocket", "airborne", "land", "over", "off", "off_pocket"]
)


@st.composite
def flight_logs(draw: st.DrawFn) -> tuple[Event, ...]:
    """A time-ordered event log of three balls with flights: contacts, cushions, pockets,
    balls leaving and landing on the slate, coming above one another, leaving the table. A
    ball that fell or left has no events after."""
    gone: set[str] = set()
    events: list[Event] = []
    t = 0.0
    for spec in draw(st.lists(_EVENT_SPECS, max_size=14)):
        t += draw(st.sampled_from([0.0, SIMULTANEOUS_S / 4, 0.01, 0.1]))
        here = [b for b in IDS if b not in gone]
        if not here:
            break
        ball = draw(st.sampled_from(here))
        others = [b for b in here if b != ball]
        if spec in ("hit", "over"):
            if not others:
                continue
            other = draw(st.sampled_from(others))
            events.append(hit(t, ball, other) if spec == "hit" else over(t, ball, other))
        elif spec == "cushion":
            events.append(cushion(t, ball, draw(st.sampled_from(["top", "bottom", "left_lower"]))))
        elif spec == "jaw":
            events.append(Event(t, EventKind.CUSHION, (ball,), cushion="jaw", pocket="top_left"))
        elif spec == "airborne":
            events.append(airborne(t, ball))
        elif spec == "land":
            events.append(land(t, ball))
        else:
            gone.add(ball)
            if spec == "pocket":
                events.append(pocket(t, ball))
            elif spec == "off":
                events.append(flew_off(t, ball, "right_upper"))
            else:
                events.append(flew_off(t, ball, None, over_pocket="middle_left"))
    return tuple(events)


@settings(max_examples=300, deadline=None)
@given(events=flight_logs(), from_hand=st.booleans())
def test_whatever_the_bridge_reads_the_referee_accepts(
    events: tuple[Event, ...], from_hand: bool
) -> None:
    """The seam between the bridge and the referee: for any event log with flights the
    full and the compact readings give the same stroke, a ball is at most once potted or off
    the table, and the referee judges it without complaint, a jump and balls off the table
    among its fouls exactly when the bridge read them."""
    from onered import rules
    from onered.bridge import compact_stroke, jump, stroke
    from onered.physics import CompactShot

    placed = (0.889, 0.6) if from_hand else None
    before = {**BEFORE_ON_TABLE, "white": placed} if placed is not None else BEFORE_ON_TABLE
    left = set(potted(events)) | set(off_table(events))
    rest = {b: None if b in left else p for b, p in START.items()}
    result = shot(*events, rest=rest)
    full = stroke(result, "white", before, placed=placed)
    lean = compact_stroke(
        CompactShot(3.0, tuple(rest[b] for b in IDS), compact_events(events, IDS)),
        IDS,
        "white",
        placed=placed,
        before=before,
    )
    assert lean == full
    assert len(full.off_table) == len(set(full.off_table))
    assert not set(full.off_table) & set(full.potted)
    _, verdict = rules.judge(state(in_hand=from_hand), full)
    codes = set() if verdict.foul is None else set(verdict.foul.codes)
    assert (rules.FoulCode.JUMP in codes) == jump(events, "white")
    assert (rules.FoulCode.OFF_TABLE in codes) == bool(full.off_table)


# --- the check on the engine: elevated strokes of every kind ------------------------


def _random_balls(rng: random.Random) -> dict[str, Vec2]:
    """Three balls on the bed, apart, away from the pockets' mouths."""
    from onered.table import LENGTH, WIDTH

    balls: dict[str, Vec2] = {}
    while len(balls) < 3:
        p = (rng.uniform(0.08, WIDTH - 0.08), rng.uniform(0.12, LENGTH - 0.12))
        if all(math.dist(p, q) > BALL_DIAMETER + 1e-4 for q in balls.values()):
            balls[IDS[len(balls)]] = p
    return balls


@pytest.mark.slow
def test_elevated_strokes_of_every_kind_give_jumps_and_balls_off_the_table_the_rules_judge() -> (
    None
):
    """Issue 19's check: 10,000 random strokes (elevation across 0–90 degrees, speeds up to
    the cue's limit, tip anywhere within its limit, from random positions, a tenth from hand)
    read by the bridge's compact form and judged by the referee: jumps and balls off the
    table occur, every verdict is the rules' (a foul scores nothing and gives 2; a red off
    the table is spotted, a cue ball off the table is in hand), and on every tenth stroke the
    full simulation reads the same."""
    from onered import rules
    from onered.bridge import compact_stroke, stroke
    from onered.physics import Params, TableSpec, simulate, simulate_compact, strike_to_launch
    from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET
    from onered.physics.types import Strike

    rng = random.Random(19)
    params, table = Params(), TableSpec()
    jumped = off = red_off = cue_off = strokes = 0
    while strokes < 10_000:
        balls = _random_balls(rng)
        from_hand = rng.random() < 0.1
        placed: Vec2 | None = None
        if from_hand:
            placed = (0.889 + rng.uniform(-0.25, 0.25), 0.737 - rng.uniform(0.0, 0.2))
            if any(math.dist(placed, balls[b]) <= BALL_DIAMETER + 1e-4 for b in IDS[1:]):
                continue
            balls["white"] = placed
        strikes = []
        for _ in range(50):
            r, a = rng.uniform(0, MAX_TIP_OFFSET), rng.uniform(0, 2 * math.pi)
            strikes.append(
                Strike(
                    speed=rng.uniform(0.1, MAX_SPEED),
                    aim=rng.uniform(0, 360),
                    side=r * math.cos(a),
                    height=r * math.sin(a),
                    elevation=rng.uniform(0, MAX_ELEVATION),
                )
            )
        launches = [strike_to_launch(s, params) for s in strikes]
        batch = simulate_compact(balls, "white", launches, params, table)
        game = rules.GameState(
            match=rules.Match(target=100, players=("A", "B")),
            table={rules.Ball(b): p for b, p in balls.items() if not (from_hand and b == "white")},
        )
        for k, shot_ in enumerate(batch.shots):
            got = compact_stroke(
                shot_,
                batch.ball_ids,
                "white",
                placed=placed,
                before=balls,
            )
            if strokes % 10 == 0:
                full = stroke(
                    simulate(balls, "white", launches[k], params, table),
                    "white",
                    balls,
                    placed=placed,
                )
                assert full == got, f"the full and compact readings differ: {strikes[k]}"
            after, verdict = rules.judge(game, got)
            strokes += 1
            jumped += rules.FoulCode.JUMP in got.fouls
            off += bool(got.off_table)
            codes = set() if verdict.foul is None else set(verdict.foul.codes)
            assert (rules.FoulCode.JUMP in codes) == (rules.FoulCode.JUMP in got.fouls)
            assert (rules.FoulCode.OFF_TABLE in codes) == bool(got.off_table)
            if codes:
                assert verdict.points == 0
                assert verdict.score == (0, 2)
                assert verdict.visit_over
            if rules.Ball.RED in got.off_table:
                red_off += 1
                assert rules.Ball.RED in after.table  # spotted (2.7)
            if rules.Ball.WHITE in got.off_table:
                cue_off += 1
                assert rules.Ball.WHITE not in after.table  # in hand
    assert jumped > 0
    assert off > 0
    print(
        f"{strokes} strokes: {jumped} jumps, {off} with balls off the table "
        f"(the red {red_off}, the cue ball {cue_off})"
    )


# --- the batch form (onered.physics.batch) ---------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), from_hand=st.booleans())
def test_batch_strokes_equal_the_compact_reading(seed: int, from_hand: bool) -> None:
    """The seam: the batch's arrays read into the same referee strokes as the compact event
    logs of the same strikes, from hand (the placement and ``bad_from_hand``) or not, half
    of them elevated (jumps and balls off the table)."""
    import numpy as np

    from onered.bridge import batch_strokes, compact_stroke
    from onered.physics import Params, simulate_compact, strike_to_launch
    from onered.physics.batch import simulate_many
    from onered.physics.types import Strike

    rng = random.Random(seed)
    balls = {
        "white": (rng.uniform(0.6, 1.2), rng.uniform(0.45, 0.7) if from_hand else 1.5),
        "yellow": (rng.uniform(0.2, 1.6), rng.uniform(0.3, 2.4)),
        "red": (rng.uniform(0.2, 1.6), rng.uniform(2.6, 3.3)),
    }
    if math.dist(balls["white"], balls["yellow"]) < 0.06:
        balls["yellow"] = (balls["yellow"][0], 1.2)
    params = Params()
    strikes = [
        Strike(
            rng.uniform(0.3, 7.0),
            rng.uniform(0, 360),
            rng.uniform(-0.4, 0.4),
            rng.uniform(-0.5, 0.5),
            rng.uniform(0, 80) if rng.random() < 0.5 else 0.0,
        )
        for _ in range(16)
    ]
    ids = ("red", "white", "yellow")
    shots = simulate_many(
        [balls[b] for b in ids],
        "white",
        strikes=np.array([[s.speed, s.aim, s.side, s.height, s.elevation] for s in strikes]),
    )
    placed = balls["white"] if from_hand else None
    got = batch_strokes(shots, placed=[placed] * len(strikes), before=[balls] * len(strikes))
    compact = simulate_compact(
        balls, "white", [strike_to_launch(s, params) for s in strikes], params
    )
    for stroke, shot in zip(got, compact.shots, strict=True):
        assert stroke == compact_stroke(
            shot, compact.ball_ids, "white", placed=placed, before=balls
        )
