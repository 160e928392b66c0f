"""Contacts at touching and nearly touching starts: no tunnelling, ever.

Every shot here is checked exactly by :func:`onered.physics.audit.audit_shot` (minimum
distances over the quadratic pieces of the paths, the engine's validation at every event
point, rest positions accepted back by ``check_position``). The regression inputs in
``data/stress_regressions.jsonl`` are shots that ``benchmarks/stress_physics.py`` found
failing (balls passing through each other, balls leaving the table, shots that never
ended); a quick run of the same stress generator keeps watch over new ones.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from onered.physics import CushionModel, Launch, Params, PhysicsInputError, simulate
from onered.physics.audit import audit_shot
from onered.physics.engine import _context
from onered.physics.geometry import LEGACY_TABLE
from onered.physics.params import LEGACY_DEFAULTS

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("data") / "stress_regressions.jsonl"
TOLERANCE = 1e-9
R = Params().R


@functools.cache
def _stress() -> ModuleType:
    """The stress benchmark's generator and checker (benchmarks/ is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "stress_physics", ROOT / "benchmarks" / "stress_physics.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["stress_physics"] = module  # (its dataclasses look themselves up there)
    spec.loader.exec_module(module)
    return module


def _regressions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines()]


def test_touching_balls_with_zero_normal_speed_do_not_pass_through_each_other() -> None:
    # the input: the balls touch (to rounding), the cue ball's heavy spin presses
    # it on into the red after the first contact; it used to pass 6.7 mm into it
    balls = {
        "white": (0.9375946744081334, 1.4288586783715893),
        "red": (0.9782788981364738, 1.395676696218283),
    }
    launch = Launch(
        v=(-0.06967077880807852, -0.1000278460130905),
        w=(-113.92243179050229, 252.54268267120108, -33.33568262983399),
    )
    result = simulate(balls, "white", launch)
    audit = audit_shot(result, balls)
    assert audit.overlap <= TOLERANCE
    assert audit.problems == ()
    contacts = [e.t for e in result.events if e.kind.value == "ball_ball"]
    assert len(contacts) >= 3  # the later contacts are found, not tunnelled through


@pytest.mark.parametrize("model", ["as found", *(m.value for m in CushionModel)])
@pytest.mark.parametrize("case", _regressions(), ids=lambda case: case["found"][:40])
def test_stress_regression_inputs_stay_on_the_table_and_apart(
    case: dict[str, Any], model: str
) -> None:
    # each input as found (on its engine's table and cushions), and with each cushion
    # model on the table it was found on
    stress = _stress()
    tally = stress.Tally()
    shot = {k: v for k, v in case.items() if k != "found"}
    if model != "as found":
        shot["model"] = model
    stress.check_shot(shot, tally)
    assert tally.failures == []
    assert tally.overlap <= TOLERANCE
    assert tally.excursion <= TOLERANCE


def test_a_quick_stress_run_finds_no_overlap_and_each_ball_out_of_play_once() -> None:
    stress = _stress()
    tally = stress.run((20261204, 0, 2000))
    assert tally.shots == 2000
    assert [why for _, why in tally.failures] == []
    assert tally.overlap <= TOLERANCE
    assert tally.excursion <= TOLERANCE


def test_every_rest_position_is_accepted_back_as_input() -> None:
    stress = _stress()
    for shot in stress.shots(7, 0, 300):
        params, table = stress._params(shot), stress.table_of(shot)
        balls = {k: tuple(v) for k, v in shot["balls"].items()}
        launch = Launch(tuple(shot["v"]), tuple(shot["w"]), shot.get("vz", 0.0))
        result = simulate(balls, "white", launch, params, table)
        rest = {k: v for k, v in result.rest.items() if v is not None}
        flat = [c for p in rest.values() for c in p]
        assert _context(params, table).validate(flat) is None


def test_a_ball_frozen_on_a_cushion_and_spun_into_it_stays_on_the_table() -> None:
    # the white lies a hair into the bottom cushion, barely moving, with spin that drives
    # it down: it used to slide straight through the cushion and off the table
    balls = {"white": (1.3359535158664226, 0.026249999998519458), "yellow": (0.0459, 2.892)}
    launch = Launch(
        v=(-2.260596877748287e-09, 5.021870073155693e-09),
        w=(62.29531373388841, -395.89502686017255, 242.3770255927658),
    )
    params = dataclasses.replace(Params(), e_b=0.6213561976088205, e_c=1.0)
    result = simulate(balls, "white", launch, params)
    audit = audit_shot(result, balls, params)
    assert audit.excursion <= TOLERANCE
    assert audit.problems == ()
    assert result.events[0].kind.value == "cushion"


def test_balls_rolling_on_together_after_a_push_never_overlap() -> None:
    # pushed into a plastic roll-together with next to no relative acceleration (e_b = 0)
    balls = {"white": (0.05450177387395648, 3.5461224986415543),
             "yellow": (0.10617113934886663, 3.5368205272687665)}  # fmt: skip
    launch = Launch(
        v=(0.09942878693860635, 0.0060186571083300465),
        w=(-67.66168873930238, 140.42699518874676, 619.6000257209329),
    )
    # (found on the table and cushions of an engine before ENGINE_VERSION 3)
    params = dataclasses.replace(LEGACY_DEFAULTS, e_b=0.255411618683404, e_c=0.4546513839534442)
    result = simulate(balls, "white", launch, params, LEGACY_TABLE)
    audit = audit_shot(result, balls, params, LEGACY_TABLE)
    assert audit.overlap <= TOLERANCE


def test_a_spin_that_never_stops_is_refused_rather_than_given_a_duration() -> None:
    # mu_sp = 0 would leave a spinning ball spinning forever; Params refuses it, and so
    # does the engine for any params object that gets past that
    params = Params()
    object.__setattr__(params, "mu_sp", 0.0)  # (bypassing the constructor on purpose)
    with pytest.raises(PhysicsInputError, match="mu_sp"):
        simulate({"white": (0.5, 0.5)}, "white", Launch((0.0, 0.0), (0.0, 0.0, 10.0)), params)


def test_audit_measures_overlap_exactly_between_events() -> None:
    # two balls crossing head-on through each other's centres (a made-up result): the
    # deepest overlap, 2R at the crossing, lies strictly between the pieces' ends
    from onered.physics import Segment, ShotResult

    t = 1.0
    a = Segment(0.0, t, (0.5, 1.0), (0.3, 0.0), (0.0, 0.0))
    b = Segment(0.0, t, (0.8, 1.0), (-0.3, 0.0), (0.0, 0.0))
    result = ShotResult((), {"a": (0.8, 1.0), "b": (0.5, 1.0)}, t, {"a": (a,), "b": (b,)})
    audit = audit_shot(result, {"a": (0.5, 1.0), "b": (0.8, 1.0)})
    assert math.isclose(audit.overlap, 2 * R, rel_tol=1e-12)
