"""The referee protocol's stroke reader builds its strokes with ``Stroke.of_members`` (no
conversions): the stroke must be the one ``Stroke(...)`` makes of the same line's names."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from onered.protocol.referee import parse_stroke
from onered.rules import Ball, FoulCode, Spot, Stroke

_BALL_NAMES = [b.value for b in Ball]
_point = st.tuples(st.floats(0.1, 1.6), st.floats(0.1, 3.4))

lines = st.fixed_dictionaries(
    {"type": st.just("stroke")},
    optional={
        "striker": st.sampled_from(["Ivanov", "Petrov"]),
        "struck": st.booleans(),
        "placed": _point.map(list),
        "first_hit": st.sampled_from([*_BALL_NAMES, "both"]),
        "cannon": st.booleans(),
        "potted": st.lists(st.sampled_from(_BALL_NAMES), max_size=3, unique=True),
        "off_table": st.lists(st.sampled_from(_BALL_NAMES), max_size=2, unique=True),
        "fouls": st.lists(st.sampled_from([f.value for f in FoulCode]), max_size=3),
        "crossed_baulk": st.booleans(),
        "touching": st.booleans(),
        "positions": st.dictionaries(st.sampled_from(_BALL_NAMES), _point.map(list)),
        "occupied": st.lists(st.sampled_from([s.value for s in Spot]), max_size=3),
    },
)


@given(lines)
def test_a_read_stroke_is_the_stroke_of_its_names(line: dict[str, Any]) -> None:
    read = parse_stroke(line)
    by_names = Stroke(
        striker=line.get("striker"),
        struck=line.get("struck", True),
        placed=tuple(line["placed"]) if "placed" in line else None,
        first_hit=line.get("first_hit"),
        cannon=line.get("cannon", False),
        potted=tuple(line.get("potted", ())),
        off_table=tuple(line.get("off_table", ())),
        fouls=frozenset(line.get("fouls", ())),
        crossed_baulk=line.get("crossed_baulk", False),
        touching=line.get("touching", False),
        positions=(
            {k: tuple(v) for k, v in line["positions"].items()} if "positions" in line else None
        ),
        occupied=frozenset(Spot(s) for s in line.get("occupied", ())),
    )
    assert read == by_names
    assert list(vars(read).items()) == list(vars(by_names).items())
    assert all(b.__class__ is Ball for b in (*read.potted, *read.off_table))
