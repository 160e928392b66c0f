"""The bridge from a simulated shot to the referee's stroke, on hand-made event logs."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    outcome, and the same referee stroke."""
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
