"""The public entry points: input errors, result shape, batch forms, determinism, start-up."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from dataclasses import replace

import pytest

from onered.physics import (
    EVENT_KINDS,
    CushionModel,
    Event,
    EventKind,
    Launch,
    Params,
    PhysicsInputError,
    ShotResult,
    Strike,
    TableSpec,
    simulate,
    simulate_batch,
    simulate_compact,
    strike_to_launch,
)
from onered.table import CUSHION_NAMES, POCKET_NAMES

P = Params()
R = P.R
BALLS = {"white": (0.889, 0.6), "yellow": (1.2, 2.0), "red": (0.889, 3.245)}
GO = Launch((0.0, 2.0), (0.0, 0.0, 0.0))


@pytest.mark.parametrize(
    ("balls", "cue", "launch", "words"),
    [
        (
            {"white": (0.5, 0.5), "red": (0.5 + 2 * R - 1e-4, 0.5)},
            "white",
            GO,
            ["red", "white", "overlaps"],
        ),
        ({"white": (-0.5, 0.5)}, "white", GO, ["white", "off the table"]),
        ({"white": (0.9, 5.0)}, "white", GO, ["white", "off the table"]),
        ({"white": (0.0, 0.0)}, "white", GO, ["white", "bottom_left pocket"]),
        ({"white": (0.9, R / 2)}, "white", GO, ["white", "bottom cushion"]),
        ({"white": (R / 2, 1.0)}, "white", GO, ["white", "left_lower cushion"]),
        ({"white": (0.5, 0.5)}, "yellow", GO, ["cue_ball", "yellow"]),
        ({"white": (0.5, float("nan"))}, "white", GO, ["white", "finite"]),
        ({"white": (0.5, "a")}, "white", GO, ["white", "number"]),
        ({"white": (0.5,)}, "white", GO, ["white", "2 numbers"]),
        ({}, "white", GO, ["balls"]),
        ({"white": (0.5, 0.5)}, "white", Launch((8.0, 8.0), (0, 0, 0)), ["speed", "10"]),
        ({"white": (0.5, 0.5)}, "white", Launch((0.0, 0.0), (0, 0, 0)), ["speed", "> 0"]),
        (
            {"white": (0.5, 0.5)},
            "white",
            Launch((1.0, math.inf), (0, 0, 0)),
            ["launch.v", "finite"],
        ),
        ({"white": (0.5, 0.5)}, "white", Launch((1.0, 0.0), (0, 0, 5000.0)), ["launch.w", "spin"]),
    ],
)
def test_bad_inputs_are_refused_with_the_input_named(balls, cue, launch, words) -> None:
    with pytest.raises(PhysicsInputError) as info:
        simulate(balls, cue, launch)
    for word in words:
        assert word in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("change", "word"),
    [
        ({"mu_s": 0.0}, "mu_s"),
        ({"mu_r": -0.01}, "mu_r"),
        ({"e_b": 1.5}, "e_b"),
        ({"e_c": -0.1}, "e_c"),
        ({"cushion_height": 0.01}, "cushion_height"),
        ({"cushion_height": 0.06}, "cushion_height"),
        ({"R": float("nan")}, "R"),
        ({"m": True}, "m"),
    ],
)
def test_bad_params_are_refused(change: dict[str, object], word: str) -> None:
    with pytest.raises(PhysicsInputError, match=word):
        replace(P, **change)


def test_positions_on_the_tolerance_are_accepted() -> None:
    balls = {"white": (0.5, R - 5e-7), "red": (0.5 + 2 * R - 5e-7, R)}
    result = simulate(balls, "white", Launch((0.0, 1.0), (0, 0, 0)))
    assert result.duration > 0


def test_a_cannon_hits_both_object_balls() -> None:
    balls = {"white": (0.889, 0.6), "yellow": (0.889 - R, 1.6)}
    launch = strike_to_launch(Strike(speed=2.5, aim=90.0, height=0.4), P)
    first = simulate(balls, "white", launch)
    kiss = next(e for e in first.events if e.kind is EventKind.BALL_BALL)
    # put the red where the white goes after the kiss
    after = next(s for s in first.paths["white"] if s.t0 >= kiss.t and s.t1 > kiss.t + 0.3)
    s = kiss.t + 0.3 - after.t0
    red = (
        after.p0[0] + after.v0[0] * s + after.a[0] * s * s / 2,
        after.p0[1] + after.v0[1] * s + after.a[1] * s * s / 2,
    )
    result = simulate({**balls, "red": red}, "white", launch)
    hits = [e.balls for e in result.events if e.kind is EventKind.BALL_BALL and "white" in e.balls]
    assert hits[:2] == [("white", "yellow"), ("white", "red")]


def test_result_follows_the_callers_ball_order() -> None:
    balls = {"red": (0.889, 1.2), "white": (0.889, 0.6), "yellow": (1.5, 3.0)}
    result = simulate(balls, "white", GO)
    assert list(result.rest) == ["red", "white", "yellow"]
    assert list(result.paths) == ["red", "white", "yellow"]
    assert next(e for e in result.events if e.kind is EventKind.BALL_BALL).balls == ("red", "white")
    assert result.rest["yellow"] == (1.5, 3.0)
    assert result.paths["yellow"][0].t0 == 0.0
    assert result.paths["yellow"][-1].t1 == result.duration


def test_paths_are_continuous_and_end_at_the_rest_positions() -> None:
    result = simulate(BALLS, "white", strike_to_launch(Strike(4.0, 80.0, 0.3, 0.2), P))
    for ball, pieces in result.paths.items():
        for a, b in itertools.pairwise(pieces):
            s = a.t1 - a.t0
            end = (
                a.p0[0] + a.v0[0] * s + a.a[0] * s * s / 2,
                a.p0[1] + a.v0[1] * s + a.a[1] * s * s / 2,
            )
            assert a.t1 == b.t0
            assert math.dist(end, b.p0) < 1e-12
        last = pieces[-1]
        s = last.t1 - last.t0
        end = (
            last.p0[0] + last.v0[0] * s + last.a[0] * s * s / 2,
            last.p0[1] + last.v0[1] * s + last.a[1] * s * s / 2,
        )
        rest = result.rest[ball]
        if rest is not None:
            assert math.dist(end, rest) < 1e-12


def _launches(n: int) -> list[Launch]:
    return [
        strike_to_launch(
            Strike(0.5 + 5.5 * k / n, 60.0 + 60.0 * k / n, 0.3 * math.sin(k), 0.3 * math.cos(k)), P
        )
        for k in range(n)
    ]


def test_batch_equals_one_by_one_and_compact_equals_batch() -> None:
    launches = _launches(24)
    batch = simulate_batch(BALLS, "white", launches)
    assert batch == [simulate(BALLS, "white", launch) for launch in launches]
    lean = simulate_batch(BALLS, "white", launches, paths=False)
    assert [r.events for r in lean] == [r.events for r in batch]
    assert all(r.paths == {} for r in lean)
    compact = simulate_compact(BALLS, "white", launches)
    assert compact.ball_ids == ("red", "white", "yellow")
    for shot, full in zip(compact.shots, batch, strict=True):
        assert shot.duration == full.duration
        assert dict(zip(compact.ball_ids, shot.rest, strict=True)) == full.rest
        assert len(shot.events) == len(full.events)
        for (t, kind, a, b, cushion, pocket, direction), event in zip(
            shot.events, full.events, strict=True
        ):
            assert t == event.t
            assert EVENT_KINDS[kind] is event.kind
            names = {compact.ball_ids[a]} | ({compact.ball_ids[b]} if b >= 0 else set())
            assert names == set(event.balls)
            if event.kind is EventKind.CUSHION:
                assert (CUSHION_NAMES[cushion] if cushion >= 0 else "jaw") == event.cushion
            assert (POCKET_NAMES[pocket] if pocket >= 0 else None) == event.pocket
            assert (None, "in", "out")[direction] == event.direction


def test_an_empty_batch_is_empty() -> None:
    assert simulate_batch(BALLS, "white", []) == []
    assert simulate_compact(BALLS, "white", []).shots == ()


def test_a_bad_launch_in_a_batch_is_named() -> None:
    launches = [*_launches(3), Launch((0.0, 20.0), (0, 0, 0))]
    with pytest.raises(PhysicsInputError, match=r"launches\[3\]"):
        simulate_batch(BALLS, "white", launches)


_SCRIPT = """
from onered.physics import Params, Strike, simulate, strike_to_launch
r = simulate({"white": (0.889, 0.6), "yellow": (1.2, 2.0), "red": (0.889, 3.245)}, "white",
             strike_to_launch(Strike(4.5, 77.0, 0.2, -0.3), Params()))
print(repr(r))
"""


def test_same_input_gives_bit_identical_output_across_processes() -> None:
    runs = [
        subprocess.run(
            [sys.executable, "-c", _SCRIPT], capture_output=True, text=True, check=True
        ).stdout.split("\n")
        for _ in range(2)
    ]
    here = simulate(BALLS, "white", strike_to_launch(Strike(4.5, 77.0, 0.2, -0.3), P))
    assert runs[0][0] == runs[1][0] == repr(here)
    assert repr(here) == repr(
        simulate(BALLS, "white", strike_to_launch(Strike(4.5, 77.0, 0.2, -0.3), P))
    )


def test_full_results_agree_with_the_compact_raw_form() -> None:
    from onered.physics.engine import DIRECTIONS, _context

    launches = _launches(16)
    ctx = _context(P, TableSpec())
    ids = tuple(sorted(BALLS))
    flat = [c for ball in ids for c in BALLS[ball]]
    numbers = [x for launch in launches for x in (*launch.v, *launch.w, launch.vz)]
    raws = ctx.simulate(flat, ids.index("white"), numbers, True)
    full = simulate_batch(BALLS, "white", launches)
    for raw, result in zip(raws, full, strict=True):
        _, duration, rest, events, paths = raw
        assert result.duration == duration
        assert result.rest == {ball: rest[ids.index(ball)] for ball in BALLS}
        assert list(result.rest) == list(BALLS)  # in the caller's order
        assert len(result.events) == len(events)
        for event, (t, kind, a, b, cushion, pocket, direction) in zip(
            result.events, events, strict=True
        ):
            assert event.t == t
            assert event.kind is EVENT_KINDS[kind]
            agents = {ids[a]} if b < 0 else {ids[a], ids[b]}
            assert set(event.balls) == agents
            if event.kind is EventKind.CUSHION:
                assert event.cushion == (CUSHION_NAMES[cushion] if cushion >= 0 else "jaw")
            assert event.pocket == (POCKET_NAMES[pocket] if pocket >= 0 else None)
            assert event.direction == DIRECTIONS[direction]
        assert paths is not None
        for ball, pieces in result.paths.items():
            assert [
                (s.t0, s.t1, *s.p0, *s.v0, *s.a, *s.w0, *s.dw, s.z0, s.vz, s.az)
                for s in pieces
            ] == [tuple(piece) for piece in paths[ids.index(ball)]]


def test_validation_codes_mirror_the_c_kernel() -> None:
    from onered.physics import _engine
    from onered.physics.engine import Placement

    for code in Placement:
        assert getattr(_engine, f"PLACE_{code.name}") == code.value


def test_cushion_model_codes_mirror_the_c_kernel() -> None:
    from onered.physics import _engine

    for model in CushionModel:
        assert getattr(_engine, f"CUSHION_{model.name}") == model.code


def test_results_are_made_by_their_classes_constructors() -> None:
    result = simulate_batch(BALLS, "white", _launches(2))[0]
    assert type(result) is ShotResult
    for event in result.events:
        assert event == Event(event.t, event.kind, event.balls, event.cushion, event.pocket,
                              event.direction)  # fmt: skip
    assert result == ShotResult(result.events, result.rest, result.duration, result.paths)


def test_batches_run_in_threads_give_the_same_results() -> None:
    from concurrent.futures import ThreadPoolExecutor

    launches = _launches(40)
    expected = simulate_compact(BALLS, "white", launches)
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda _: simulate_compact(BALLS, "white", launches), range(8)))
    assert all(run == expected for run in runs)


def test_the_engine_refuses_result_classes_its_construction_would_bypass() -> None:
    # the engine builds results as the generated __init__ does, which would skip a
    # __post_init__: a class with one is refused rather than silently bypassed
    from dataclasses import dataclass

    from onered.physics._engine import Context
    from onered.physics.engine import _BUILDERS, MAX_EVENTS, _geometry_numbers

    @dataclass(frozen=True, slots=True)
    class CheckedEvent(Event):
        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError, match="__post_init__"):
        Context(
            P,
            _geometry_numbers(TableSpec()),
            (CheckedEvent, *_BUILDERS[1:]),
            MAX_EVENTS,
            P.cushion_model.code,
        )
