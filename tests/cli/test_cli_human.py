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
from onered.rules.model import write_line
from onered.texts import Lang

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


# --- in Russian (``--lang ru``): the words from onered.texts, Russian answers understood ------

RU = Lang.RU
_POSITION_IN_HAND_NEAR_D = Position({Ball.RED: (0.889, 0.7)}, _STATE)  # a red in the D


def _russian(*lines: str) -> tuple[TerminalPlayer, io.StringIO]:
    feed: Iterator[str] = iter(lines)
    out = io.StringIO()
    return TerminalPlayer("Аня", lambda: next(feed, None), out, RU), out


def test_balls_and_pockets_by_their_russian_names() -> None:
    assert parse_aim("красный", _POSITION, RU) == pytest.approx(90.0)
    assert parse_aim("Красный-3", _POSITION, RU) == pytest.approx(87.0)
    assert parse_aim("лв", _POSITION) == parse_aim("tl", _POSITION)
    assert parse_aim("1,5", _POSITION, RU) == 1.5  # a decimal comma
    strike = parse_stroke("красный 2,5 0,1 -0,4", _POSITION, RU)
    assert (strike.speed, strike.side, strike.height) == (2.5, 0.1, -0.4)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "синий 2",
            "ПРИЦЕЛ: «синий» — не число градусов, не шар и не луза (лн, пн, лс, пс, лв, пв)",
        ),
        ("белый 2", "ПРИЦЕЛ: белый — ваш собственный биток"),
        ("желтый 2", "ПРИЦЕЛ: жёлтого нет на столе"),  # «е» for «ё» is understood
        ("красный", "ожидается ПРИЦЕЛ СИЛА [ВИНТ [ВЫСОТА]]"),
        ("красный быстро", "СИЛА, ВИНТ и ВЫСОТА — числа, а не «быстро»"),
        ("красный 20", "СИЛА: скорость битка — больше 0 и не больше 10.0 м/с, а здесь 20.0"),
        ("красный 2 0.9 0", "наклейка — не дальше 0.8 радиуса от центра шара"),
        ("красный+x 2", "ПРИЦЕЛ: «+x» — не число градусов"),
        ("nan 2", "ПРИЦЕЛ: nan — не направление"),
    ],
)
def test_a_refusal_in_russian_says_why(text: str, said: str) -> None:
    with pytest.raises(ValueError, match=re.escape(said)):
        parse_stroke(text, _POSITION, RU)


_WORDS = st.sampled_from(
    ["red", "красный", "yellow", "white", "tl", "лв", "90", "-3", "2", "2,5", "0.9", "x", "nan"]
)


@given(st.lists(_WORDS, max_size=5))
def test_a_line_is_taken_in_russian_exactly_when_it_is_in_english(words: list[str]) -> None:
    """The language changes the words of a refusal, never what can be played."""
    line = " ".join(words)
    said: list[object] = []
    for lang in Lang:
        try:
            said.append(parse_stroke(line, _POSITION, lang))
        except ValueError:
            said.append(None)
    assert said[0] == said[1]


@given(x=st.floats(-1, 3), y=st.floats(-1, 4))
def test_a_place_is_refused_in_russian_when_it_is_in_english(x: float, y: float) -> None:
    try:
        placed = parse_place(f"{x} {y}", _POSITION_IN_HAND_NEAR_D)
    except ValueError:
        with pytest.raises(ValueError, match="биток в точке"):
            parse_place(f"{x} {y}", _POSITION_IN_HAND_NEAR_D, RU)
    else:
        assert parse_place(f"{x} {y}", _POSITION_IN_HAND_NEAR_D, RU) == placed


def test_a_place_in_russian() -> None:
    assert parse_place("0,95 0,6", _IN_HAND, RU) == (0.95, 0.6)
    assert parse_place("0.95,0.6", _IN_HAND, RU) == (0.95, 0.6)
    with pytest.raises(ValueError, match="вне сектора «D»"):
        parse_place("0.1 0.1", _IN_HAND, RU)
    with pytest.raises(ValueError, match=r"касается красного шара в точке \(0.8890, 0.7000\)"):
        parse_place("0.889 0.66", _POSITION_IN_HAND_NEAR_D, RU)
    with pytest.raises(ValueError, match="ожидается X Y в метрах"):
        parse_place("здесь", _IN_HAND, RU)


def test_the_player_speaks_russian() -> None:
    player, out = _russian("", "помощь", "стол", "красный 2")
    player.decide(_IN_HAND)
    shown = out.getvalue()
    assert "Аня, шар в руке: поставьте белый в сектор «D» (полукруг)" in shown
    assert "Аня, ваш удар белым шаром («помощь» — подсказка): " in shown
    assert "удар: ПРИЦЕЛ СИЛА [ВИНТ [ВЫСОТА]]" in shown  # the help
    assert "красный (0.889, 3.245)" in shown
    words = shown.replace("Enter", "").replace(write_line(_STATE), "")  # a format's
    assert not re.search("[A-Za-z]{4,}", words)  # no English word


def test_choices_and_the_lag_in_russian() -> None:
    player, out = _russian("2", "н", "ж", "абв", "2,2")
    options = {Option.AS_THEY_LIE: _POSITION, Option.FROM_D: _IN_HAND}
    assert player.choose(options) is Option.FROM_D
    assert "1. играть из сложившейся позиции" in out.getvalue()
    assert "2. играть с руки из сектора" in out.getvalue()
    assert "штраф соперника — выберите 1–2" in out.getvalue()
    choice = player.lag_choice()
    assert (choice.play_first, choice.ball) == (False, Ball.YELLOW)
    assert player.lag((0.5, 0.6)).speed == 2.2
    assert "скорость — число м/с больше 0 и не больше 10.0, а не «абв»" in out.getvalue()
    player, _ = _russian("да", "")
    choice = player.lag_choice()
    assert (choice.play_first, choice.ball) == (True, Ball.WHITE)


def test_a_russian_answer_stops_the_game() -> None:
    player, _ = _russian("выход")
    with pytest.raises(Quit):
        player.decide(_POSITION)


def test_a_human_plays_in_russian_from_standard_input(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = ["0.1 0.1", "", "синий 2", "красный 2,2", "выход"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([*("play", "--p1", "human", "--p2", "ai:novice", "--no-lag", "--lang", "ru")])
    shown = out.getvalue()
    assert status == 0
    assert "Human, шар в руке: поставьте белый в сектор «D»" in shown
    assert "биток в точке (0.1000, 0.1000) вне сектора «D»" in shown
    assert "ПРИЦЕЛ: «синий» — не число градусов" in shown
    assert "Human, ваш удар белым шаром" in shown
    assert shown.rstrip().endswith("Игра остановлена.")
