"""Positions for the coach: the JSON form reads back equal, errors name the field, and the
position before stroke N of a record is where the balls stood."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from coach_support import played_record
from onered.coach import AdviceError
from onered.coach.position import (
    played_at,
    position_before,
    position_from_json,
    position_from_text,
    position_json,
)
from onered.game.record import LineKind, read_strike
from onered.game.session import Session
from onered.rules import Ball
from onered.rules import position as written

coord = st.tuples(
    st.floats(min_value=0.05, max_value=1.7, allow_nan=False),
    st.floats(min_value=0.05, max_value=3.5, allow_nan=False),
)


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    balls = {"red": list(draw(coord))}
    for name in ("white", "yellow"):
        if draw(st.booleans()):
            balls[name] = list(draw(coord))
    to_play = draw(st.sampled_from(["white", "yellow"]))
    score = [draw(st.integers(0, 99)), draw(st.integers(0, 99))]
    striker = 0 if to_play == "white" else 1
    brk = draw(st.integers(0, score[striker]))
    kind = draw(st.sampled_from(["cannons", "hazards"]))
    run = draw(st.integers(0, min(75 if kind == "cannons" else 15, brk // 2)))
    red_run = draw(st.integers(0, min(run, brk - 2 * run))) if kind == "hazards" else 0
    counters = {"cannons": 0, "hazards": 0, "red_run": red_run, kind: run}
    return {
        "balls": balls,
        "to_play": to_play,
        "score": score,
        "break": brk,
        "target": 100,
        "counters": counters,
        "baulk_crossed": brk % 100 >= 80 and draw(st.booleans()),
        "players": ["Ivanov", "Petrov"],
    }


@given(positions())
def test_the_json_form_reads_back_equal(obj: dict[str, Any]) -> None:
    position = position_from_json(obj)
    assert position_json(position.state) == obj
    assert position_from_json(json.loads(json.dumps(obj))) == position
    # the JSON form and the written form say the same
    assert position_from_text(written.write(position.state)) == position


def test_the_striker_without_his_ball_plays_from_hand() -> None:
    position = position_from_json({"balls": {"red": [1.0, 3.0]}, "to_play": "yellow"})
    assert position.in_hand
    assert position.cue_ball is Ball.YELLOW


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "position: expected a JSON object"),
        ({"balls": {"red": [1, 2]}, "colour": 1}, "unknown field 'colour'"),
        ({"balls": [1, 2]}, "balls: expected an object"),
        ({"balls": {"blue": [1, 2]}}, "balls: unknown ball 'blue'"),
        ({"balls": {"red": [1, "a"]}}, r"balls.red\[1\]: expected a number"),
        ({"balls": {"red": [1, 2], "white": None}}, "balls.white: null"),
        ({"balls": {"white": [1, 2]}}, "balls.red: the red must be on the table"),
        ({"balls": {"red": [1, 2]}, "to_play": "red"}, "to_play: expected 'white' or 'yellow'"),
        ({"balls": {"red": [1, 2]}, "score": [1]}, "score: expected"),
        ({"balls": {"red": [1, 2]}, "score": [100, 0]}, r"score\[0\]: expected at most 99"),
        ({"balls": {"red": [1, 2]}, "break": 5}, "break: expected at most 0"),
        ({"balls": {"red": [1, 2]}, "counters": {"hazards": 16}}, "counters.hazards"),
        ({"balls": {"red": [1, 2]}, "counters": {"x": 1}}, "counters: expected"),
        ({"balls": {"red": [1, 2]}, "baulk_crossed": 1}, "baulk_crossed: expected true"),
        ({"balls": {"red": [1, 2]}, "baulk_crossed": True}, "not in the 80-99 window"),
        (
            {"balls": {"red": [1, 2]}, "score": [9, 0], "break": 4, "counters": {"hazards": 3}},
            "position: counters: 0 cannons, 3 hazards",
        ),
        ({"balls": {"red": [1, 2]}, "players": ["A", "A"]}, "players: expected two different"),
    ],
)
def test_a_bad_position_names_its_field(obj: Any, message: str) -> None:
    with pytest.raises(AdviceError, match=message):
        position_from_json(obj)


def test_position_before_a_stroke_is_where_the_record_says_the_balls_stood(
    tmp_path: Path,
) -> None:
    path = played_record(tmp_path / "game.jsonl", strokes=6)
    session = Session.from_text(path.read_text(encoding="utf-8"), check=False)
    strokes = [e.line for e in session.entries if e.kind is LineKind.STROKE]
    for n, line in enumerate(strokes, start=1):
        position = position_before(session, n)
        before = {b: tuple(p) for b, p in line["before"].items()}
        if line.get("placed") is not None:
            del before[line["cue_ball"]]
            assert position.in_hand
        assert {b.value: p for b, p in position.balls.items()} == before
        assert position.cue_ball.value == line["cue_ball"]
        played = played_at(session, n)
        assert played is not None
        assert played.strike == read_strike(line["strike"], "strike")


def test_position_before_a_stroke_that_is_not_there(tmp_path: Path) -> None:
    path = played_record(tmp_path / "game.jsonl", strokes=2)
    session = Session.from_text(path.read_text(encoding="utf-8"), check=False)
    with pytest.raises(AdviceError, match="there is no stroke 9"):
        position_before(session, 9)
    with pytest.raises(AdviceError, match="there is no stroke 0"):
        position_before(session, 0)


def test_a_marked_game_does_not_know_where_the_balls_stood() -> None:
    lines: list[dict[str, Any]] = [
        {"type": "match", "target": 100, "players": ["A", "B"]},
        {"type": "stroke", "first_hit": "red", "potted": ["white"]},
        {"type": "stroke"},
    ]
    session = Session.from_lines([json.dumps(x) for x in lines])
    with pytest.raises(
        AdviceError, match=r"stroke 2: no place is given for the red \(a marked game"
    ):
        position_before(session, 2)
    assert played_at(session, 2) is None
