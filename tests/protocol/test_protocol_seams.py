"""The seams between the shot protocol, the engine and the referee protocol: one definition
of "on the table", every rest position a valid input, every parameter range in one place
(``Params``/``TableSpec``) and named by the protocol, and the pages that document them."""

from __future__ import annotations

import math
import random
import re
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.physics import CushionModel, Params, TableSpec, check_position
from onered.physics.geometry import TABLE_RANGES
from onered.physics.params import PARAM_RANGES
from onered.protocol.referee import parse_stroke
from onered.protocol.shot import (
    PARAM_NAMES,
    TABLE_NAMES,
    ShotProtocolError,
    parse_shot,
    shot_output,
    simulate_shot,
)
from onered.table import BALL_DIAMETER, LENGTH, POCKET_POINTS, WIDTH, on_surface

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAMES = ("white", "yellow", "red")


def random_shot(rng: random.Random) -> dict[str, Any]:
    """Three balls anywhere on the bed, the cue ball aimed at an object ball or (half the
    time) at a pocket, so that some balls end in the jaws."""
    balls: dict[str, list[float]] = {}
    for name in NAMES:
        while True:
            p = [rng.uniform(0.03, WIDTH - 0.03), rng.uniform(0.03, LENGTH - 0.03)]
            if all(math.dist(p, q) > BALL_DIAMETER + 1e-4 for q in balls.values()):
                balls[name] = p
                break
    cue = rng.choice(NAMES[:2])
    if rng.random() < 0.5:
        tx, ty = rng.choice(list(POCKET_POINTS.values()))
    else:
        tx, ty = balls[rng.choice([b for b in NAMES if b != cue])]
    aim = math.degrees(math.atan2(ty - balls[cue][1], tx - balls[cue][0])) + rng.uniform(-4, 4)
    strike = {
        "speed": rng.uniform(0.3, 4.0),
        "aim": aim,
        "side": rng.uniform(-0.5, 0.5),
        "height": rng.uniform(-0.5, 0.5),
    }
    return {"balls": balls, "cue_ball": cue, "strike": strike}


def assert_rest_is_a_valid_input(out: dict[str, Any]) -> None:
    """Every ball left on the table can be played again from where it stopped, and the
    outcome is a stroke the referee's reader takes."""
    rest = {ball: p for ball, p in out["rest"].items() if p is not None}
    check_position({b: (p[0], p[1]) for b, p in rest.items()})  # no overlaps, on the table
    for cue in ("white", "yellow"):
        if cue in rest:
            again = parse_shot({"balls": rest, "cue_ball": cue, "strike": {"speed": 1, "aim": 0}})
            assert again.balls == {b: (p[0], p[1]) for b, p in rest.items()}
    stroke = parse_stroke({"type": "stroke", **out["outcome"]})
    assert stroke.positions is not None
    assert {b.value for b in stroke.positions} == set(rest)


def test_three_thousand_rest_positions_are_all_valid_inputs() -> None:
    rng = random.Random(3)
    beyond_cushion_lines = 0
    for _ in range(3000):
        shot = parse_shot(random_shot(rng))
        out = shot_output(simulate_shot(shot, paths=False), shot.cue_ball)
        assert_rest_is_a_valid_input(out)
        rest = [p for p in out["rest"].values() if p is not None]
        beyond_cushion_lines += any(not on_surface((p[0], p[1])) for p in rest)
    # the sweep does reach the case the rectangle refused: balls hanging in the jaws
    assert beyond_cushion_lines >= 5


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_rest_positions_fed_back_are_accepted(seed: int) -> None:
    shot = parse_shot(random_shot(random.Random(seed)))
    assert_rest_is_a_valid_input(shot_output(simulate_shot(shot), shot.cue_ball))


def test_a_ball_hanging_in_the_jaws_is_on_the_table_for_both_protocols() -> None:
    # centre 2 mm beyond the left cushion line, in the middle pocket's mouth, clear of the fall
    hanging = [-0.002, LENGTH / 2]
    assert not on_surface((hanging[0], hanging[1]))
    shot = parse_shot(
        {
            "balls": {"white": [0.9, 1.0], "red": hanging},
            "cue_ball": "white",
            "strike": {"speed": 1.0, "aim": 90},
        }
    )
    assert shot.balls["red"] == (-0.002, LENGTH / 2)
    stroke = parse_stroke({"type": "stroke", "positions": {"red": hanging, "white": [0.9, 1]}})
    assert stroke.positions is not None


def test_a_ball_over_a_pocket_fall_is_off_the_table_for_both_protocols() -> None:
    fallen = [-0.04, LENGTH / 2]
    with pytest.raises(ShotProtocolError, match=r"^balls\.red: at .* is over the middle_left"):
        parse_shot(
            {
                "balls": {"white": [0.9, 1.0], "red": fallen},
                "cue_ball": "white",
                "strike": {"speed": 1.0, "aim": 90},
            }
        )
    with pytest.raises(ValueError, match=r"^positions\.red: \[-0\.04, 1\.7845\] is off"):
        parse_stroke({"type": "stroke", "positions": {"red": fallen}})


# --- parameters: every field settable, every range in one place ---------------------------


def test_every_params_field_is_settable() -> None:
    # every number has its range; the cushion model is a name (of CushionModel)
    assert set(PARAM_NAMES) == {f.name for f in fields(Params)}
    assert set(PARAM_NAMES) == {*PARAM_RANGES, "cushion_model"}


@pytest.mark.parametrize("model", list(CushionModel))
def test_the_cushion_model_is_chosen_by_name(model: CushionModel) -> None:
    shot = parse_shot(_shot_with("params", "cushion_model", model.value))
    assert shot.physics.cushion_model is model
    assert shot.params == {"cushion_model": model.value}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("stronge", r"^params\.cushion_model: must be one of mathavan2010, han2005, got 'stronge'"),
        (1, r"^params\.cushion_model: expected a name, got 1"),
    ],
)
def test_an_unknown_cushion_model_is_refused_by_name(value: object, message: str) -> None:
    with pytest.raises(ShotProtocolError, match=message):
        parse_shot(_shot_with("params", "cushion_model", value))


def test_the_table_object_sets_the_pockets() -> None:
    assert set(TABLE_NAMES) == {n for n in TABLE_RANGES if n.startswith(("corner_", "middle_"))}
    shot = parse_shot(
        {
            "balls": {"white": [0.9, 1.0]},
            "cue_ball": "white",
            "strike": {"speed": 1, "aim": 0},
            "table": {"corner_opening": 0.09, "middle_opening": 0.09},
        }
    )
    assert shot.spec.corner_opening == 0.09
    assert shot.spec.middle_opening == 0.09
    assert shot.table == {"corner_opening": 0.09, "middle_opening": 0.09}


def _shot_with(key: str, name: str, value: object) -> dict[str, Any]:
    return {
        "balls": {"white": [0.9, 1.0]},
        "cue_ball": "white",
        "strike": {"speed": 1, "aim": 0},
        key: {name: value},
    }


OUTSIDE = [
    (key, name, value)
    for key, ranges in (("params", PARAM_RANGES), ("table", TABLE_RANGES))
    for name, valid in ranges.items()
    if key == "params" or name in TABLE_NAMES
    for value in (valid.low - 1e-3 * max(1.0, abs(valid.low)), valid.high * 1.5 + 1.0)
]


@pytest.mark.parametrize(("key", "name", "value"), OUTSIDE)
def test_a_value_outside_its_physical_range_is_refused_naming_it(
    key: str, name: str, value: float
) -> None:
    with pytest.raises(ShotProtocolError, match=rf"^{key}\.{name}: must lie in "):
        parse_shot(_shot_with(key, name, value))


@pytest.mark.parametrize("name", PARAM_NAMES)
def test_the_default_of_each_parameter_is_accepted_when_given(name: str) -> None:
    value = getattr(Params(), name)
    assert getattr(parse_shot(_shot_with("params", name, value)).physics, name) == value


def test_spin_that_never_decays_is_refused() -> None:
    with pytest.raises(ShotProtocolError, match=r"^params\.mu_sp: must lie in \[0\.001, 0\.1\]"):
        parse_shot(_shot_with("params", "mu_sp", 0.0))


def test_tiny_gravity_is_refused_instead_of_sending_a_ball_to_infinity() -> None:
    with pytest.raises(ShotProtocolError, match=r"^params\.g: must lie in \[1, 30\] m/s\^2"):
        parse_shot(_shot_with("params", "g", 1e-300))


def test_a_ball_the_pockets_cannot_take_is_refused() -> None:
    with pytest.raises(ShotProtocolError, match=r"^table: .*\(params\.R = 0\.035 m\)"):
        parse_shot(_shot_with("params", "R", 0.035))


def test_params_are_built_once_per_distinct_overrides() -> None:
    first = parse_shot(_shot_with("params", "mu_r", 0.012)).physics
    assert parse_shot(_shot_with("params", "mu_r", 0.012)).physics is first
    assert parse_shot(_shot_with("params", "mu_r", 0.013)).physics is not first


def test_the_engine_ranges_are_those_of_params_and_table_spec() -> None:
    with pytest.raises(ValueError, match=r"^params\.g: must lie in \[1, 30\]"):
        Params(g=0.5)
    with pytest.raises(ValueError, match=r"^table\.corner_opening: must lie in \[0\.04, 0\.2\]"):
        TableSpec(corner_opening=0.3)


# --- the pages document what the code does ------------------------------------------------


def _doc_rows(page: str) -> dict[str, str]:
    """``name -> range`` from the page's tables of ``| `name` | range | ...`` rows."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", text, flags=re.MULTILINE))


def test_the_shot_protocol_page_lists_every_range_as_the_code_has_it() -> None:
    rows = _doc_rows("shot-protocol.md")
    for name, valid in PARAM_RANGES.items():
        assert rows[name].startswith(str(valid)), name
    for name in TABLE_NAMES:
        assert rows[name].startswith(str(TABLE_RANGES[name])), name
