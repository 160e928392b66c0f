"""The batch entry (``onered.physics.batch.simulate_many``): every shot bit for bit what the
single-shot entry points give, its arrays the event log's reading, and clear errors."""

from __future__ import annotations

import math
import random
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.physics import (
    EVENT_KINDS,
    EventKind,
    Params,
    PhysicsInputError,
    Strike,
    TableSpec,
    simulate,
    simulate_compact,
    strike_to_launch,
)
from onered.physics.batch import CROSSED_IN, CROSSED_OUT, Fate, simulate_many, strikes_to_launches
from onered.physics.params import CushionModel

IDS = ("red", "white", "yellow")
BALL_BALL = EVENT_KINDS.index(EventKind.BALL_BALL)
CUSHION = EVENT_KINDS.index(EventKind.CUSHION)
POCKET = EVENT_KINDS.index(EventKind.POCKET)
BAULK = EVENT_KINDS.index(EventKind.BAULK_LINE)
AIRBORNE = EVENT_KINDS.index(EventKind.AIRBORNE)
OVER = EVENT_KINDS.index(EventKind.OVER)
OFF = EVENT_KINDS.index(EventKind.OFF_TABLE)


def position(rng: random.Random) -> dict[str, tuple[float, float]]:
    """Three balls anywhere on the bed, apart, clear of cushions and pockets."""
    balls: dict[str, tuple[float, float]] = {}
    while len(balls) < 3:
        p = (rng.uniform(0.08, 1.7), rng.uniform(0.08, 3.48))
        if all(math.dist(p, q) > 0.06 for q in balls.values()):
            balls[IDS[len(balls)]] = p
    return balls


def strikes(rng: random.Random, k: int) -> list[Strike]:
    """Strokes of every kind: any pace, side and height, half of them elevated."""
    return [
        Strike(
            rng.uniform(0.2, 8.0),
            rng.uniform(0, 360),
            rng.uniform(-0.5, 0.5),
            rng.uniform(-0.5, 0.5),
            rng.uniform(0, 80) if rng.random() < 0.5 else 0.0,
        )
        for _ in range(k)
    ]


def as_array(strokes: list[Strike]) -> np.ndarray:
    return np.array([[s.speed, s.aim, s.side, s.height, s.elevation] for s in strokes])


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), han=st.booleans(), cue=st.sampled_from(IDS))
def test_each_shot_of_a_batch_is_bit_for_bit_the_single_shot(
    seed: int, han: bool, cue: str
) -> None:
    """The seam: many positions in one call give, shot for shot, the events, durations and
    rest positions of ``simulate_compact`` (and so of ``simulate``) for the same strikes."""
    rng = random.Random(seed)
    params = Params(cushion_model=CushionModel.HAN2005) if han else Params()
    positions = [position(rng) for _ in range(3)]
    strokes = [strikes(rng, 4) for _ in positions]
    shots = simulate_many(
        [[p[b] for b in IDS] for p in positions],
        cue,
        strikes=as_array([s for group in strokes for s in group]),
        at=np.repeat(np.arange(3), 4),
        params=params,
        events=True,
    )
    for p, (balls, group) in enumerate(zip(positions, strokes, strict=True)):
        launches = [strike_to_launch(s, params) for s in group]
        single = simulate_compact(balls, cue, launches, params)
        assert single.ball_ids == shots.ball_ids
        for q, one in enumerate(single.shots):
            k = 4 * p + q
            assert shots.events(k) == one.events
            assert shots.duration[k] == one.duration
            assert shots.n_events[k] == len(one.events)
            for i, at in enumerate(one.rest):
                if at is None:
                    assert np.isnan(shots.rest[k, i]).all()
                else:
                    assert tuple(shots.rest[k, i].tolist()) == at
            assert shots.compact(k) == one  # run again on demand: the same bits
    # the full result on demand is simulate's
    full = simulate(positions[0], cue, strike_to_launch(strokes[0][0], params), params)
    again = shots.result(0)
    assert again.events == full.events
    assert again.paths == full.paths
    assert again.rest == full.rest


@settings(max_examples=30)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_arrays_read_the_event_log(seed: int) -> None:
    """Each summary array says what the shot's event log says."""
    rng = random.Random(seed)
    balls = position(rng)
    shots = simulate_many(
        [balls[b] for b in IDS], "white", strikes=as_array(strikes(rng, 12)), events=True
    )
    ci = IDS.index("white")
    for k in range(len(shots)):
        log = shots.events(k)
        for i in range(3):
            hits = [e[0] for e in log if e[1] == BALL_BALL and {e[2], e[3]} == {ci, i}]
            assert shots.contact[k, i] == (hits[0] if hits and i != ci else math.inf)
            assert shots.cushions[k, i] == sum(e[1] == CUSHION and e[2] == i for e in log)
            assert shots.flights[k, i] == sum(e[1] == AIRBORNE and e[2] == i for e in log)
            assert shots.overs[k, i] == sum(e[1] == OVER and e[2] == i for e in log)
            fell = [j for j, e in enumerate(log) if e[1] == POCKET and e[2] == i]
            flew = [j for j, e in enumerate(log) if e[1] == OFF and e[2] == i]
            fate = Fate.POCKETED if fell else Fate.OFF_TABLE if flew else Fate.ON_TABLE
            assert shots.fate[k, i] == fate
            assert shots.gone[k, i] == (fell or flew or [-1])[0]
            assert shots.pocket[k, i] == (log[fell[0]][5] if fell else -1)
            crossed = {e[6] for e in log if e[1] == BAULK and e[2] == i}
            assert bool(shots.crossed[k, i] & CROSSED_IN) == (1 in crossed)
            assert bool(shots.crossed[k, i] & CROSSED_OUT) == (2 in crossed)


def test_strikes_to_launches_is_strike_to_launch_bit_for_bit() -> None:
    rng = random.Random(7)
    params = Params()
    strokes = strikes(rng, 500)
    rows = strikes_to_launches(as_array(strokes), params)
    for s, row in zip(strokes, rows.tolist(), strict=True):
        launch = strike_to_launch(s, params)
        assert row == [*launch.v, *launch.w, launch.vz]


def test_shots_from_one_position_by_default_and_one_each_when_as_many() -> None:
    rng = random.Random(3)
    balls = [position(rng) for _ in range(4)]
    rows = [[p[b] for b in IDS] for p in balls]
    launches = as_array(strikes(rng, 4))
    one = simulate_many(rows[0], "white", strikes=launches)
    assert one.at.tolist() == [0, 0, 0, 0]
    each = simulate_many(rows, "white", strikes=launches)
    assert each.at.tolist() == [0, 1, 2, 3]


def test_ball_ids_in_any_order_give_the_sorted_engine_order() -> None:
    rng = random.Random(4)
    balls = position(rng)
    stroke = as_array(strikes(rng, 3))
    sorted_ = simulate_many([balls[b] for b in IDS], "white", strikes=stroke)
    shuffled = ("yellow", "white", "red")
    other = simulate_many([balls[b] for b in shuffled], "white", strikes=stroke, ball_ids=shuffled)
    assert other.ball_ids == IDS
    assert np.array_equal(other.rest, sorted_.rest, equal_nan=True)


@settings(max_examples=10)
@given(seed=st.integers(0, 2**32 - 1), threads=st.integers(1, 4), events=st.booleans())
def test_a_batch_split_over_threads_is_the_same_batch(
    seed: int, threads: int, events: bool
) -> None:
    """``threads``: the shots split over threads give the same arrays and event logs."""
    rng = random.Random(seed)
    rows = [[p[b] for b in IDS] for p in (position(rng) for _ in range(rng.randint(1, 40)))]
    stroke = as_array(strikes(rng, len(rows)))
    one = simulate_many(rows, "white", strikes=stroke, events=events)
    many = simulate_many(rows, "white", strikes=stroke, events=events, threads=threads)
    for name in ("duration", "rest", "fate", "pocket", "gone", "contact", "crossed",
                 "cushions", "flights", "overs", "n_events"):  # fmt: skip
        assert np.array_equal(getattr(one, name), getattr(many, name), equal_nan=True), name
    assert [one.events(k) for k in range(len(one))] == [many.events(k) for k in range(len(many))]
    if events:
        assert np.array_equal(one.event_end, many.event_end)


def test_two_threads_give_what_one_gives() -> None:
    """The kernel runs without the GIL: two threads at once give the same bits."""
    rng = random.Random(5)
    rows = [[p[b] for b in IDS] for p in (position(rng) for _ in range(20))]
    stroke = as_array(strikes(rng, 20))
    alone = simulate_many(rows, "white", strikes=stroke)
    got: list[np.ndarray] = []

    def run() -> None:
        got.append(simulate_many(rows, "white", strikes=stroke).rest)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, alone.rest, equal_nan=True) for r in got)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"positions": [[0.5, 1.0], [0.5, 1.0], [1.0, 2.0]]},
            r"positions\[0\]: balls\['red'\].*overlaps",
        ),
        (
            {"positions": [[5.0, 1.0], [0.5, 2.0], [1.0, 2.0]]},
            r"positions\[0\]: balls\['red'\].*off the table",
        ),
        ({"positions": [[0.5, 1.0], [0.5, 2.0]]}, r"positions must have shape"),
        ({"positions": [[math.nan, 1.0], [0.5, 2.0], [1.0, 2.0]]}, "not finite"),
        ({"cue": "pink"}, "'pink' is not one of the balls"),
        ({"cue": 3}, "for each of the 1 positions"),
        ({"strikes": [[11.0, 0, 0, 0, 0]]}, r"strikes\[0\]"),
        ({"strikes": [[1.0, 0, 0.9, 0, 0]]}, r"strikes\[0\]"),
        ({"strikes": [[1.0, 0, 0, 0, 0], [1.0, 0, 0, 0, 95]]}, r"strikes\[1\]"),
        ({"strikes": [[1.0, math.nan, 0, 0, 0]]}, r"strikes\[0\]"),
        ({"strikes": [[0.0, 0, 0, 0, 0]]}, r"strikes\[0\]"),
        ({"strikes": [[1.0, 0, 0, 0]]}, r"shape \(shots, 5\)"),
        ({"strikes": None, "launches": [[0, 0, 0, 0, 0, 0]]}, r"launches\[0\]"),
        ({"strikes": None, "launches": [[11, 0, 0, 0, 0, 0]]}, r"launches\[0\]"),
        ({"strikes": None, "launches": [[1, 0, 0, 0, 1000, 0]]}, r"launches\[0\].*R\|w\|"),
        ({"strikes": None}, "either strikes or launches"),
        ({"at": [1]}, r"at\[0\] = 1 is not one of the 1 positions"),
        ({"threads": 0}, "threads must be an integer from 1"),
    ],
)
def test_bad_input_is_refused_naming_it(kwargs: dict[str, object], message: str) -> None:
    call: dict[str, object] = {
        "positions": [[0.5, 3.0], [0.5, 1.0], [1.0, 2.0]],
        "cue": "white",
        "strikes": [[2.0, 90.0, 0.0, 0.0, 0.0]],
    }
    call.update(kwargs)
    positions = call.pop("positions")
    cue = call.pop("cue")
    with pytest.raises(PhysicsInputError, match=message):
        simulate_many(positions, cue, **call)  # type: ignore[arg-type]


def test_a_shot_that_pots_the_red_says_so() -> None:
    """A closed case: the cue ball straight at the red on the line to a pocket."""
    table = TableSpec()
    corner = table.geometry().pockets[0].fall_centre
    red = (corner[0] + 0.3, corner[1] + 0.3)
    white = (corner[0] + 0.6, corner[1] + 0.6)
    aim = math.degrees(math.atan2(red[1] - white[1], red[0] - white[0]))
    shots = simulate_many([red, white, (1.5, 3.0)], "white", strikes=[[3.0, aim, 0.0, 0.0, 0.0]])
    assert shots.fate[0, 0] == Fate.POCKETED
    assert shots.pocket[0, 0] == 0
    assert math.isnan(shots.rest[0, 0, 0])
    assert shots.contact[0, 0] < math.inf


def test_full_paths_are_built_when_read_and_equal_their_dict() -> None:
    """``simulate``'s paths are a read-only mapping built when first read: equal to the dict
    of segments, the balls in the caller's order, and pickled as that dict."""
    import pickle

    from onered.physics.types import Paths, Segment

    balls = {"yellow": (1.2, 2.0), "white": (0.889, 0.6), "red": (0.889, 3.245)}
    result = simulate(balls, "white", strike_to_launch(Strike(3.0, 80.0, 0.2, 0.1), Params()))
    assert isinstance(result.paths, Paths)
    assert list(result.paths) == list(balls)
    assert len(result.paths) == 3
    built = dict(result.paths)
    assert all(isinstance(s, Segment) for path in built.values() for s in path)
    assert result.paths == built
    assert built == result.paths
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert type(again.paths) is dict
