"""Mark mode: the marker's taps become the referee's stroke lines, and the referee scores them."""

from __future__ import annotations

from typing import Any

import pytest

from onered import rules
from onered.game.marking import Hit, Mark, MarkError, Part, Role, compose
from onered.protocol.referee import parse_stroke
from onered.rules import Ball, FoulCode, GameState, Match


def state_after_first_visit() -> GameState:
    """Ivanov (white) broke and scored nothing: Petrov (yellow) to play from the D."""
    state = rules.start(Match(target=100, players=("Ivanov", "Petrov")))
    state, _ = rules.judge(state, rules.Stroke(first_hit=Ball.RED))
    return state


def opening() -> GameState:
    return rules.start(Match(target=100, players=("Ivanov", "Petrov")))


def judged(state: GameState, mark: Mark) -> rules.Verdict:
    line = compose(state, mark)
    _, verdict = rules.judge(state, parse_stroke(line))
    return verdict


@pytest.mark.parametrize(
    ("parts", "line"),
    [
        ({Part.CANNON}, {"first_hit": "red", "cannon": True}),
        ({Part.POT_RED}, {"first_hit": "red", "potted": ["red"]}),
        ({Part.POT_OPPONENT}, {"first_hit": "white", "potted": ["white"]}),
        ({Part.IN_OFF_RED}, {"first_hit": "red", "potted": ["yellow"]}),
        ({Part.IN_OFF_OPPONENT}, {"first_hit": "white", "potted": ["yellow"]}),
        ({Part.NO_SCORE}, {"first_hit": "red"}),
        ({Part.MISS}, {"first_hit": None}),
        (
            {Part.CANNON, Part.IN_OFF_RED},
            {"first_hit": "red", "cannon": True, "potted": ["yellow"]},
        ),
        (
            {Part.CANNON, Part.POT_RED, Part.IN_OFF_OPPONENT},
            {"first_hit": "white", "cannon": True, "potted": ["red", "yellow"]},
        ),
    ],
)
def test_each_tap_is_the_protocol_stroke_for_the_striker_with_yellow(
    parts: set[Part], line: dict[str, Any]
) -> None:
    composed = compose(state_after_first_visit(), Mark(parts=frozenset(parts)))
    assert composed == {"type": "stroke", **line}


@pytest.mark.parametrize(
    ("parts", "points", "scored"),
    [
        ({Part.CANNON}, 2, {"cannon": 2}),
        ({Part.POT_RED}, 3, {"pot_red": 3}),
        ({Part.IN_OFF_RED}, 3, {"in_off_red": 3}),
        ({Part.POT_OPPONENT}, 2, {"pot_white": 2}),
        ({Part.IN_OFF_OPPONENT}, 2, {"in_off_white": 2}),
        ({Part.CANNON, Part.IN_OFF_RED}, 5, {"cannon": 2, "in_off_red": 3}),
        ({Part.CANNON, Part.IN_OFF_OPPONENT}, 4, {"cannon": 2, "in_off_white": 2}),
        ({Part.CANNON, Part.POT_RED, Part.IN_OFF_RED}, 8, None),
    ],
)
def test_the_referee_scores_the_marked_stroke(
    parts: set[Part], points: int, scored: dict[str, int] | None
) -> None:
    verdict = judged(state_after_first_visit(), Mark(parts=frozenset(parts)))
    assert verdict.foul is None
    assert verdict.points == points
    if scored is not None:
        assert {k.value: v for k, v in verdict.scored} == scored


def test_a_miss_is_the_referees_foul() -> None:
    verdict = judged(state_after_first_visit(), Mark(parts=frozenset({Part.MISS})))
    assert verdict.foul is not None
    assert verdict.foul.codes == (FoulCode.MISS,)


def test_a_foul_code_with_the_parts_scores_nothing() -> None:
    mark = Mark(parts=frozenset({Part.CANNON}), fouls=frozenset({FoulCode.PUSH}))
    line = compose(state_after_first_visit(), mark)
    assert line["fouls"] == ["push"]
    assert line["cannon"] is True
    verdict = judged(state_after_first_visit(), mark)
    assert verdict.points == 0
    assert verdict.foul is not None
    assert verdict.foul.codes == (FoulCode.PUSH,)


def test_out_of_turn_names_the_other_player_as_striker() -> None:
    state = opening()
    line = compose(state, Mark(out_of_turn=True))
    assert line["striker"] == "Petrov"
    assert line["fouls"] == ["out_of_turn"]
    _, verdict = rules.judge(state, parse_stroke(line))
    assert verdict.striker == "Petrov"
    assert verdict.foul is not None
    assert FoulCode.OUT_OF_TURN in verdict.foul.codes


def test_a_foul_before_the_stroke_is_struck_false() -> None:
    line = compose(opening(), Mark(struck=False, fouls=frozenset({FoulCode.TOUCHED_BALL})))
    assert line == {"type": "stroke", "struck": False, "fouls": ["touched_ball"]}


def test_flags_and_off_table_by_role() -> None:
    mark = Mark(
        parts=frozenset({Part.CANNON}),
        crossed_baulk=True,
        touching=True,
        off_table=frozenset({Role.RED}),
        first_hit=Hit.BOTH,
    )
    line = compose(state_after_first_visit(), mark)
    assert line["crossed_baulk"] is True
    assert line["touching"] is True
    assert line["off_table"] == ["red"]
    assert line["first_hit"] == "both"


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        (Mark(), "nothing marked"),
        (Mark(parts=frozenset({Part.MISS, Part.CANNON})), "'miss' cannot go with cannon"),
        (Mark(parts=frozenset({Part.NO_SCORE, Part.POT_RED})), "'no_score' cannot go"),
        (
            Mark(parts=frozenset({Part.IN_OFF_RED, Part.IN_OFF_OPPONENT})),
            "an in-off is off one ball",
        ),
        (Mark(parts=frozenset({Part.MISS}), first_hit=Hit.RED), "a miss touched no object ball"),
        (
            Mark(parts=frozenset({Part.CANNON, Part.IN_OFF_RED}), first_hit=Hit.OPPONENT),
            "the red was hit first",
        ),
        (Mark(parts=frozenset({Part.POT_RED}), first_hit=Hit.BOTH), "add the cannon"),
        (Mark(struck=False), "needs a foul code"),
        (Mark(struck=False, parts=frozenset({Part.CANNON})), "takes only foul codes"),
        (
            Mark(parts=frozenset({Part.POT_RED}), off_table=frozenset({Role.RED})),
            "the red was potted",
        ),
        (
            Mark(parts=frozenset({Part.IN_OFF_RED}), off_table=frozenset({Role.OWN})),
            "went in-off",
        ),
    ],
)
def test_impossible_taps_are_refused_with_the_reason(mark: Mark, message: str) -> None:
    with pytest.raises(MarkError, match=message):
        compose(state_after_first_visit(), mark)


def test_the_referee_refuses_a_cannon_while_the_opponents_ball_is_off_the_table() -> None:
    # In the opening visit the second player's ball is not on the table (2.3.3).
    line = compose(opening(), Mark(parts=frozenset({Part.CANNON})))
    with pytest.raises(rules.InvalidStrokeError):
        rules.judge(opening(), parse_stroke(line))
