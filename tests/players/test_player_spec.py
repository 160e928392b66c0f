"""The one reading of a player's description (``onered.players.spec``): ``human`` or
``ai:<level>[,name=value...]``, written back as read, refused by name when wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.players import (
    PLAYER_PARAMS,
    Level,
    PlayerKind,
    PlayerSpec,
    PlayerSpecError,
    ai_entrant,
    ai_level,
    grammar_json,
    make_player,
    parse_player,
)

_VALUES = {
    "noise.aim": st.floats(0.0, 9.99),
    "noise.speed": st.floats(0.0, 9.99),
    "noise.tip": st.floats(0.0, 9.99),
    "noise.elevation": st.floats(0.0, 9.99),
    "noise.pace": st.floats(0.0, 0.66),
    "noise.side": st.floats(0.0, 9.99),
    "continuation": st.floats(0.0, 1000.0),
}
SPECS = st.one_of(
    st.just(PlayerSpec(PlayerKind.HUMAN)),
    st.builds(
        lambda level, names, data: PlayerSpec(
            PlayerKind.AI, level, tuple((n, data.draw(_VALUES[n])) for n in names)
        ),
        st.sampled_from(Level),
        st.lists(st.sampled_from(PLAYER_PARAMS), unique=True, max_size=5),
        st.data(),
    ),
)


@given(spec=SPECS)
def test_a_description_written_reads_back_equal(spec: PlayerSpec) -> None:
    assert parse_player(str(spec)) == spec


@given(spec=SPECS)
def test_the_computer_is_built_with_the_overrides_and_a_person_is_refused(spec: PlayerSpec) -> None:
    if not spec.is_computer:
        with pytest.raises(PlayerSpecError, match="a person"):
            make_player(spec, 1)
        return
    player = make_player(str(spec), 1)
    strength = spec.strength()
    assert player.description == ai_entrant(strength_level(spec))
    for name, value in spec.params:
        part = strength.noise if name.startswith("noise.") else strength
        assert getattr(part, name.removeprefix("noise.")) == value


def strength_level(spec: PlayerSpec) -> Level:
    assert spec.level is not None
    return spec.level


def test_descriptions_are_read_as_written() -> None:
    assert parse_player("human") == PlayerSpec(PlayerKind.HUMAN)
    assert parse_player(" ai:pro ") == PlayerSpec(PlayerKind.AI, Level.PRO)
    assert parse_player("ai:pro, noise.aim=0.05 ,continuation=5") == PlayerSpec(
        PlayerKind.AI, Level.PRO, (("noise.aim", 0.05), ("continuation", 5.0))
    )
    assert str(parse_player("ai:pro,continuation=5")) == "ai:pro,continuation=5.0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown kind ''"),
        ("robot", "unknown kind 'robot'"),
        ("ai", "unknown level ''"),
        ("ai:wizard", "unknown level 'wizard'"),
        ("human:pro", "a person has no level or parameters"),
        ("human,noise.aim=1", "a person has no level or parameters"),
        ("ai:pro,reach=3", "unknown parameter 'reach'"),
        ("ai:pro,noise.aim", "expected NAME=VALUE"),
        ("ai:pro,noise.aim=x", "noise.aim: expected a number"),
        ("ai:pro,noise.aim=nan", "expected a finite number"),
        ("ai:pro,noise.aim=-1", r"noise.aim: expected a value in \[0, 10\)"),
        ("ai:pro,continuation=2000", r"continuation: expected \[0, 1000\]"),
        ("ai:pro,noise.aim=1,noise.aim=2", "given twice"),
    ],
)
def test_a_wrong_description_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(PlayerSpecError, match=message) as caught:
        parse_player(text)
    assert f"player {text!r}" in str(caught.value)


def test_a_records_entrant_names_the_level_or_a_person() -> None:
    assert ai_entrant(Level.AMATEUR) == "ai:amateur"
    assert ai_level("ai:amateur") is Level.AMATEUR
    assert ai_level("ai:pro,noise.aim=0.1") is Level.PRO
    assert ai_level("human") is None
    assert ai_level("somebody") is None
    assert ai_level(None) is None


def test_the_grammar_as_data_names_every_level_and_parameter() -> None:
    grammar = grammar_json()
    assert grammar["levels"] == [level.value for level in Level]
    assert grammar["params"] == list(PLAYER_PARAMS)
    assert (grammar["human"], grammar["ai"]) == ("human", "ai")
    assert (grammar["kind_separator"], grammar["param_separator"]) == (":", ",")
