"""Parameters written down read back equal; older engines' parameters mean their table;
the cushion model is a name everywhere it is written."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.game.simulator import PhysicsSimulator
from onered.physics import CushionModel, Params, PhysicsInputError, TableSpec
from onered.physics.geometry import LEGACY_TABLE
from onered.physics.params import (
    LEGACY_DEFAULTS,
    PARAM_RANGES,
    cushion_model,
    params_from_fields,
    params_with,
)


def _within(name: str) -> st.SearchStrategy[float]:
    valid = PARAM_RANGES[name]
    return st.floats(valid.low, valid.high, exclude_min=valid.low_open, exclude_max=True)


params_strategy = st.builds(
    Params,
    mu_s=_within("mu_s"),
    mu_r=_within("mu_r"),
    e_c=_within("e_c"),
    e_c_drop=_within("e_c_drop"),
    e_c_speed=_within("e_c_speed"),
    f_c=_within("f_c"),
    cushion_model=st.sampled_from(list(CushionModel)),
)


@settings(deadline=None, max_examples=60)
@given(params_strategy)
def test_params_written_as_json_read_back_equal(params: Params) -> None:
    written = json.loads(json.dumps(params.as_json()))
    assert written["cushion_model"] == params.cushion_model.value
    assert params_from_fields(written) == params


@settings(deadline=None, max_examples=30)
@given(params_strategy)
def test_a_records_physics_describes_the_simulator_it_reads_back_as(params: Params) -> None:
    simulator = PhysicsSimulator(params=params)
    described = json.loads(json.dumps(simulator.describe()))
    again = PhysicsSimulator.from_description(described)
    assert again == simulator


def test_parameters_without_a_cushion_model_are_an_older_engines_table() -> None:
    old = {k: v for k, v in LEGACY_DEFAULTS.as_json().items() if k not in _NEW_FIELDS}
    params = params_from_fields(old)
    assert params.cushion_model is CushionModel.HAN2005
    assert params.e_c_drop == 0.0  # a constant restitution, as then
    assert params.e_c == 0.85
    assert params == LEGACY_DEFAULTS


def test_an_older_engines_table_is_read_field_by_field() -> None:
    old_table = {
        "corner_facing_angle": 5.0,
        "corner_knuckle_radius": 0.04,
        "corner_fall_depth": 0.055,
        "middle_facing_angle": 5.0,
        "middle_knuckle_radius": 0.03,
        "middle_fall_depth": 0.045,
    }
    assert replace(TableSpec(), **old_table) == LEGACY_TABLE


_NEW_FIELDS = ("cushion_model", "e_c_drop", "e_c_speed")


@pytest.mark.parametrize("name", ["mathavan2010", "han2005"])
def test_a_model_is_chosen_by_its_name(name: str) -> None:
    assert Params(cushion_model=name).cushion_model is CushionModel(name)  # type: ignore[arg-type]
    assert params_with({"cushion_model": name}).cushion_model.value == name


@pytest.mark.parametrize("value", ["stronge", "", 1, None])
def test_an_unknown_model_is_refused_naming_the_choices(value: object) -> None:
    with pytest.raises(PhysicsInputError, match=r"^params\.cushion_model: must be one of "):
        cushion_model(value)
    with pytest.raises(PhysicsInputError, match=r"^params\.cushion_model: must be one of "):
        params_with({"cushion_model": value})


@pytest.mark.parametrize(
    ("name", "value"),
    [("e_c_drop", 1.5), ("e_c_drop", -0.1), ("e_c_speed", 0.0), ("e_c_speed", 11.0)],
)
def test_the_fast_restitution_has_a_physical_range(name: str, value: float) -> None:
    with pytest.raises(PhysicsInputError, match=rf"^params\.{name}: must lie in "):
        params_with({name: value})


def test_an_unknown_field_is_named() -> None:
    with pytest.raises(PhysicsInputError, match=r"^params\.mu_w: not a parameter"):
        params_with({"mu_w": 0.14})


def test_model_codes_follow_the_enum_order() -> None:
    assert [m.code for m in CushionModel] == list(range(len(CushionModel)))
