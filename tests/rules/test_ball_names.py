"""One reading of a ball's name: ``rules.Ball.named`` (the rules' error), said in a caller's
family by ``protocol.json_fields.ball`` — the same words from the referee protocol, a
record's lag, the coach's position and a match's settings."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.coach import AdviceError
from onered.coach.position import position_from_json
from onered.game.model import Lag, LagChoice, LagStroke
from onered.game.record import RecordError, dumps, match_line, read_record
from onered.game.series import Series, SeriesError
from onered.physics.types import Strike
from onered.protocol.json_fields import ProtocolError, ball
from onered.protocol.referee import parse_match
from onered.rules import Ball, Match, RulesError, opening_verdict, start

WORDS = "unknown ball 'blue' (balls are white, yellow, red)"


@given(st.sampled_from(list(Ball)))
def test_every_balls_name_reads_back_as_the_ball(b: Ball) -> None:
    assert Ball.named(b.value) is b
    assert Ball.named(b) is b  # a Ball is its name
    assert Ball.named(json.loads(json.dumps(b))) is b
    assert ball(b.value, "x") is b


@given(st.text(max_size=8).filter(lambda s: s not in {"white", "yellow", "red"}))
def test_any_other_text_is_refused_naming_the_field(name: str) -> None:
    with pytest.raises(RulesError) as rules_refusal:
        Ball.named(name, "balls")
    with pytest.raises(RecordError) as record_refusal:
        ball(name, "balls", error=RecordError)
    assert str(rules_refusal.value) == str(record_refusal.value)
    assert (
        str(record_refusal.value) == f"balls: unknown ball {name!r} (balls are white, yellow, red)"
    )


def test_a_name_is_read_exactly_as_data_write_it() -> None:
    """``Ball("RED")`` reads a name a person types; data hold the exact name."""
    assert Ball("RED") is Ball.RED
    with pytest.raises(ProtocolError, match="unknown ball 'RED'"):
        ball("RED", "balls")


@pytest.mark.parametrize("value", [None, 3, ["red"], {"red": 1}, True])
def test_a_name_that_is_not_text_is_refused_naming_its_type(value: object) -> None:
    with pytest.raises(
        ProtocolError, match=r"^first: expected a ball's name \(white, yellow, red\)"
    ):
        ball(value, "first")


def _series_balls(balls: Any) -> None:
    good = Series(players=("A", "B"), best_of=3, target=50).to_json()
    Series.from_json({**good, "balls": balls})


def _lag_choice(name: str) -> None:
    match = Match(target=50, players=("A", "B"))
    strike = Strike(1.0, 90.0, 0.0, 0.0, 0.0)
    strokes = tuple(LagStroke(p, (0.9, 0.5), strike, None, False) for p in match.players)
    lag = Lag(strokes=(strokes[0], strokes[1]), winner="A", choice=LagChoice(True, Ball.WHITE))
    line = match_line(match, physics={}, opening=opening_verdict(start(match)), lag=lag)
    line["lag"]["choice"]["ball"] = name
    read_record([dumps(line)])


@pytest.mark.parametrize(
    ("read", "family", "words"),
    [
        (
            lambda: parse_match({"players": ["A", "B"], "target": 5, "balls": ["blue", "white"]}),
            ProtocolError,
            f"balls: {WORDS}",
        ),
        (lambda: position_from_json({"balls": {"blue": [1, 2]}}), AdviceError, f"balls: {WORDS}"),
        (lambda: _series_balls(["white", "blue"]), SeriesError, f"series: balls[1]: {WORDS}"),
        (lambda: _lag_choice("blue"), RecordError, f"line 1: lag.choice.ball: {WORDS}"),
    ],
)
def test_every_reader_of_ball_names_says_it_the_same_way(
    read: Any, family: type[Exception], words: str
) -> None:
    with pytest.raises(family) as refusal:
        read()
    assert str(refusal.value) == words
