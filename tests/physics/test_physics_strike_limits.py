"""The strike limits are defined once, in ``onered.physics.cue``: the engine, the shot
protocol, the players and the environments use those values, and ``strike_limits()`` hands
the same values to a front end. At each limit the engine and the protocol agree: the limit
itself is accepted, a little beyond it is refused."""

from __future__ import annotations

import json
import math

import pytest

from onered.physics import PhysicsInputError, cue
from onered.physics.cue import strike_to_launch
from onered.physics.params import Params
from onered.physics.types import Strike
from onered.protocol.shot import ShotProtocolError, parse_shot

LIMITS = cue.strike_limits()


def test_the_limits_for_a_front_end_are_the_engines_and_read_as_json() -> None:
    assert LIMITS == {
        "min_speed": cue.MIN_SPEED,
        "max_speed": cue.MAX_SPEED,
        "max_tip_offset": cue.MAX_TIP_OFFSET,
        "min_elevation": cue.MIN_ELEVATION,
        "max_elevation": cue.MAX_ELEVATION,
    }
    assert json.loads(json.dumps(LIMITS)) == LIMITS
    assert 0 < LIMITS["min_speed"] < LIMITS["max_speed"]
    assert 0 < LIMITS["max_tip_offset"] < 1
    assert LIMITS["min_elevation"] < LIMITS["max_elevation"]


def test_no_layer_keeps_a_copy_of_its_own() -> None:
    from onered.env import spaces
    from onered.physics import engine
    from onered.players import strength
    from onered.protocol import shot

    for module in (engine, shot, strength, spaces):
        for name in ("MAX_SPEED", "MIN_SPEED", "MAX_TIP_OFFSET", "MAX_ELEVATION"):
            if hasattr(module, name):
                assert getattr(module, name) is getattr(cue, name), (module.__name__, name)


def strike(**fields: float) -> Strike:
    return Strike(**{"speed": 1.0, "aim": 90.0, **fields})


def parse_strike(fields: dict[str, float]) -> object:
    """The strike of a shot-protocol input with the white alone on the table."""
    shot = {"balls": {"white": [0.889, 0.6]}, "cue_ball": "white", "strike": fields}
    return parse_shot(shot).cue


def raw(**fields: float) -> dict[str, float]:
    return {"speed": 1.0, "aim": 90.0, **fields}


TIP = LIMITS["max_tip_offset"]
EDGE = [
    {"speed": LIMITS["max_speed"]},
    {"speed": LIMITS["min_speed"]},
    {"side": TIP},
    {"height": -TIP},
    {"side": TIP * math.cos(1.0), "height": TIP * math.sin(1.0)},
    {"elevation": LIMITS["min_elevation"]},
    {"elevation": LIMITS["max_elevation"]},
]
BEYOND = [
    {"speed": LIMITS["max_speed"] * 1.001},
    {"speed": 0.0},
    {"side": TIP * 1.001},
    {"height": -TIP * 1.001},
    {"elevation": LIMITS["min_elevation"] - 0.001},
    {"elevation": LIMITS["max_elevation"] + 0.001},
]


@pytest.mark.parametrize("fields", EDGE, ids=[json.dumps(f) for f in EDGE])
def test_at_the_limit_the_engine_and_the_protocol_accept(fields: dict[str, float]) -> None:
    strike_to_launch(strike(**fields), Params())
    assert parse_strike(raw(**fields)) == strike(**fields)


@pytest.mark.parametrize("fields", BEYOND, ids=[json.dumps(f) for f in BEYOND])
def test_beyond_the_limit_the_engine_and_the_protocol_refuse(fields: dict[str, float]) -> None:
    with pytest.raises(PhysicsInputError):
        strike_to_launch(strike(**fields), Params())
    with pytest.raises(ShotProtocolError):
        parse_strike(raw(**fields))
