"""A person at the terminal (``onered play --p1 human``), fed from standard input: he sees
the table, types his strokes, and is told why a line cannot be played."""

from __future__ import annotations

import contextlib
import io
import math
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered import rules
from onered.cli import main
from onered.cli.human import (
    Quit,
    TerminalPlayer,
    draw_table,
    parse_aim,
    parse_place,
    parse_stroke,
)
from onered.game.model import Position
from onered.game.session import Session
from onered.rules import Ball, Option

_STATE = rules.start(rules.Match(target=100, players=("Ann", "Bob")))
_BALLS = {Ball.WHITE: (0.889, 1.0), Ball.RED: (0.889, 3.245)}
_POSITION = Position(_BALLS, _STATE)  # the white on the table (a test position)
_IN_HAND = Position({Ball.RED: (0.889, 3.245)}, _STATE)


def _player(*lines: str) -> tuple[TerminalPlayer, io.StringIO]:
    feed: Iterator[str] = iter(lines)
    out = io.StringIO()
    return TerminalPlayer("Ann", lambda: next(feed, None), out), out


def test_aim_at_a_ball_a_pocket_or_in_degrees() -> None:
    assert parse_aim("90", _POSITION) == 90.0
    assert parse_aim("-90", _POSITION) == 270.0
    assert parse_aim("red", _POSITION) == pytest.approx(90.0)
    assert parse_aim("red-3", _POSITION) == pytest.approx(87.0)
    assert parse_aim("RED+2.5", _POSITION) == pytest.approx(92.5)
    top_left = math.degrees(math.atan2(3.569 - 1.0, 0.0 - 0.889))
    assert parse_aim("tl", _POSITION) == pytest.approx(top_left)
    assert parse_aim("top_left", _POSITION) == pytest.approx(top_left)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("blue 2", "'blue' is neither a number of degrees, a ball nor a pocket"),
        ("white 2", "the white is your own cue ball"),
        ("yellow 2", "the yellow is not on the table"),
        ("red", "expected AIM SPEED [SIDE [HEIGHT]]"),
        ("red fast", "SPEED, SIDE and HEIGHT are numbers, got 'fast'"),
        ("red 20", "speed"),
        ("red 2 0.9 0", "within 0.8"),
        ("red+x 2", "'+x' is not a number of degrees"),
    ],
)
def test_a_stroke_that_cannot_be_played_says_why(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        parse_stroke(text, _POSITION)


def test_a_stroke_line_is_a_strike() -> None:
    strike = parse_stroke("red 2.5 0.1 -0.4", _POSITION)
    assert (strike.speed, strike.side, strike.height) == (2.5, 0.1, -0.4)
    assert strike.aim == pytest.approx(90.0)


@given(x=st.floats(-1, 3), y=st.floats(-1, 4))
def test_a_place_is_taken_exactly_when_the_game_would_take_it(x: float, y: float) -> None:
    from onered.game.loop import placement_problem

    problem = placement_problem(_IN_HAND.balls, Ball.WHITE, (x, y))
    if problem is None:
        assert parse_place(f"{x} {y}", _IN_HAND) == (x, y)
    else:
        with pytest.raises(ValueError, match="placed"):
            parse_place(f"{x} {y}", _IN_HAND)


def test_enter_places_the_ball_in_the_middle_of_the_baulk_line() -> None:
    assert parse_place("", _IN_HAND) == (0.889, 0.737)


def test_the_table_is_drawn_with_the_balls_and_pockets() -> None:
    lines = draw_table(_BALLS)
    assert len({len(line) for line in lines}) == 1
    drawn = "\n".join(lines)
    assert drawn.count("W") == 1
    assert drawn.count("R") == 1
    assert drawn.count("o") == 6
    assert "R" in "".join(lines[1:6])  # the red near the top cushion


def test_the_player_asks_again_until_a_line_can_be_played() -> None:
    player, out = _player("", "nonsense", "help", "table", "red 2")
    action = player.decide(_IN_HAND)
    assert action.placed == (0.889, 0.737)
    assert action.strike.aim == pytest.approx(90.0)
    shown = out.getvalue()
    assert "R0.889,3.245 W 0:0" in shown  # the position's line
    assert "expected AIM SPEED" in shown
    assert "a stroke: AIM SPEED" in shown  # help


def test_choices_and_the_lag() -> None:
    player, _ = _player("3", "2", "n", "maybe", "yellow", "x", "2.2")
    options = {Option.AS_THEY_LIE: _POSITION, Option.FROM_D: _IN_HAND}
    assert player.choose(options) is Option.FROM_D
    choice = player.lag_choice()
    assert (choice.play_first, choice.ball) == (False, Ball.YELLOW)
    assert player.lag((0.5, 0.6)).speed == 2.2


def test_the_end_of_the_input_stops() -> None:
    player, _ = _player()
    with pytest.raises(Quit):
        player.decide(_POSITION)


def test_a_human_plays_a_game_from_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["0.1 0.1", "", "blue 2", "red 2.2", *["red 3"] * 40]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    record = tmp_path / "game.jsonl"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(
            [
                *("play", "--p1", "human", "--p2", "ai:novice", "--no-lag", "--target", "6"),
                *("--record", str(record)),
            ]
        )
    shown = out.getvalue()
    assert status == 0
    assert "placed: (0.1000, 0.1000) is outside the D" in shown
    assert "'blue' is neither" in shown
    assert "   1  Human (white, from the D)" in shown  # the referee's call of his stroke
    session = Session.from_text(record.read_text(encoding="utf-8"))
    assert session.match.players == ("Human", "Novice")
    assert "human" in record.read_text(encoding="utf-8")
