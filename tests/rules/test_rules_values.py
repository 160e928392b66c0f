"""The referee's values at the boundary: balls by name (``rules.Ball`` is a ``StrEnum``), a
``Stroke`` given names judged as one given enums, and a state's repr that is its one line."""

from __future__ import annotations

import ast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered import rules
from onered.rules import BOTH, Ball, FoulCode, position

_CASES = st.sampled_from([str.lower, str.upper, str.capitalize])


@given(ball=st.sampled_from(Ball), case=_CASES)
def test_a_ball_reads_from_its_name_in_any_case(ball: Ball, case: object) -> None:
    name = case(ball.value)  # type: ignore[operator]
    assert Ball(name) is ball
    assert ball == ball.value  # the physics' plain names and the referee's balls are one
    assert hash(ball) == hash(ball.value)
    assert {ball.value: 1}[ball] == 1


_BALL_NAMES = st.sampled_from([b.value for b in Ball])


@given(
    first=st.sampled_from([*(b.value for b in Ball), "both"]),
    potted=st.lists(_BALL_NAMES, max_size=3, unique=True),
    fouls=st.frozensets(st.sampled_from([f.value for f in FoulCode]), max_size=2),
)
def test_a_stroke_of_names_equals_the_stroke_of_enums(
    first: str, potted: list[str], fouls: frozenset[str]
) -> None:
    by_name = rules.Stroke(first_hit=first, potted=tuple(potted), fouls=fouls)  # type: ignore[arg-type]
    by_enum = rules.Stroke(
        first_hit=BOTH if first == "both" else Ball(first),
        potted=tuple(Ball(b) for b in potted),
        fouls=frozenset(FoulCode(f) for f in fouls),
    )
    assert by_name == by_enum
    assert by_name.first_hit is by_enum.first_hit


def test_the_readme_stroke_by_name_is_judged() -> None:
    state = rules.start(rules.Match(target=100, players=("Ivanov", "Petrov")))
    _, verdict = rules.judge(state, rules.Stroke(first_hit="red", potted=("white",)))  # type: ignore[arg-type]
    assert verdict.points == 3


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("first_hit", "blue", "first_hit: 'blue' is not a ball"),
        ("potted", ("green",), "potted: 'green' is not a ball"),
        ("off_table", (7,), "off_table: 7 is not a ball"),
        ("fouls", {"nudge"}, "fouls: 'nudge' is not a foul code"),
        ("positions", {"pink": (1.0, 1.0)}, "positions: 'pink' is not a ball"),
    ],
)
def test_a_wrong_name_is_an_error_naming_the_field(
    field: str, value: object, expected: str
) -> None:
    with pytest.raises(rules.InvalidStrokeError, match=expected):
        rules.Stroke(**{field: value})  # type: ignore[arg-type]


def test_a_state_shows_as_its_one_line() -> None:
    state = rules.start(rules.Match(target=100, players=("Ivanov", "Petrov")))
    shown = repr(state)
    assert shown == f"GameState({position.write(state)!r})"
    assert len(shown) < 100
    assert position.read(ast.literal_eval(shown.removeprefix("GameState(")[:-1])) == state


def test_the_physics_takes_the_referees_balls_as_its_names() -> None:
    """Both sides of the boundary: ``simulate`` given ``Ball`` keys gives the same shot as
    given plain names, and its rest positions are found under either."""
    from onered.physics import Params, Strike, simulate, strike_to_launch

    launch = strike_to_launch(Strike(speed=3.0, aim=91.0, height=0.3), Params())
    balls = {Ball.WHITE: (0.95, 0.70), Ball.YELLOW: (1.2, 2.0), Ball.RED: (0.889, 3.245)}
    by_ball = simulate(balls, Ball.WHITE, launch)  # type: ignore[arg-type]
    by_name = simulate({b.value: p for b, p in balls.items()}, "white", launch)
    assert by_ball.rest == by_name.rest
    assert by_ball.events == by_name.events
    assert by_name.rest["red"] == by_name.rest[Ball.RED]  # type: ignore[index]
