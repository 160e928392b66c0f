"""Each value's JSON form: what its one writer writes, its one reader reads back equal —
alone, through JSON text, and inside the protocol lines and record lines that embed it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.coach import AdviceError
from onered.coach.position import action_from_json, counters_from_json
from onered.game import Game, PhysicsSimulator
from onered.game.model import Action, Intent, Lag, LagChoice, LagStroke
from onered.game.record import (
    RecordedStroke,
    RecordError,
    dumps,
    game_lines,
    match_line,
    read_action,
    read_record,
    read_strike,
)
from onered.game.replay import check_referee, replay
from onered.game.summary import RecordedVerdict
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.types import Launch, Strike
from onered.protocol.json_fields import ProtocolError, point, point_json
from onered.protocol.referee import RefereeSession, match_json, parse_match, verdict_json
from onered.protocol.shot import (
    ShotProtocolError,
    launch_from_json,
    loads_shot,
    strike_from_json,
)
from onered.rules import Ball, Counters, Match, ScoreKind, opening_verdict, start
from onered.rules.model import CANNON_LIMIT, HAZARD_LIMIT

finite = st.floats(allow_nan=False, allow_infinity=False)
numbers = st.one_of(finite, st.integers(-(10**6), 10**6))
strikes = st.builds(Strike, numbers, numbers, numbers, numbers, numbers)
points = st.tuples(finite, finite)
names = st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != "")


def through_text(obj: Any) -> Any:
    """``obj`` written as JSON text and read back (what a file or a socket does to it)."""
    return json.loads(json.dumps(obj, allow_nan=False))


# --- Strike -------------------------------------------------------------------------------


@given(strikes)
def test_a_strike_reads_back_equal(strike: Strike) -> None:
    obj = strike.to_json()
    assert list(obj) == ["speed", "aim", "side", "height", "elevation"]
    assert all(type(v) is float for v in obj.values())
    assert strike_from_json(through_text(obj), complete=True) == strike
    assert strike_from_json(obj) == strike  # the shot protocol's reading: the same numbers
    assert read_strike(obj, "strike") == strike  # the record's (its error family)


@given(
    st.floats(0.01, MAX_SPEED),
    finite,
    st.floats(-MAX_TIP_OFFSET / 2, MAX_TIP_OFFSET / 2),
    st.floats(-MAX_TIP_OFFSET / 2, MAX_TIP_OFFSET / 2),
    st.floats(MIN_ELEVATION, MAX_ELEVATION),
)
def test_a_shot_line_with_a_strike_reads_back_its_strike(
    speed: float, aim: float, side: float, height: float, elevation: float
) -> None:
    strike = Strike(speed, aim, side, height, elevation)
    line = {"balls": {"white": [0.9, 0.6], "red": [0.9, 3.0]}, "cue_ball": "white"}
    shot = loads_shot(json.dumps({**line, "strike": strike.to_json()}))
    assert shot.cue == strike


def test_a_strike_is_read_in_its_callers_error_family() -> None:
    with pytest.raises(RecordError, match=r"^line 3: strike: missing field 'side'$"):
        read_strike({"speed": 1.0, "aim": 2.0}, "line 3: strike")
    with pytest.raises(AdviceError, match=r"^x\.strike\.aim: expected a number, got \"a\"$"):
        strike_from_json({"speed": 1, "aim": "a"}, "x.strike", error=AdviceError)
    with pytest.raises(ShotProtocolError, match=r"^strike\.speed: required$"):
        strike_from_json({"aim": 1, "speed": None})
    # the shot protocol's input: side, height and elevation 0 when absent or null
    assert strike_from_json({"speed": 2, "aim": 90, "side": None}) == Strike(2.0, 90.0)


# --- Launch -------------------------------------------------------------------------------


@given(points, st.tuples(finite, finite, finite))
def test_a_launch_reads_back_equal(v: tuple[float, float], w: tuple[float, float, float]) -> None:
    launch = Launch(v, w)
    assert launch_from_json(through_text(launch.to_json())) == launch
    line = {"balls": {"white": [0.9, 0.6]}, "cue_ball": "white", "launch": launch.to_json()}
    assert loads_shot(json.dumps(line)).cue == launch


def test_a_launch_is_read_in_its_callers_error_family() -> None:
    with pytest.raises(ProtocolError, match=r"^l\.w: expected an array of 3 numbers"):
        launch_from_json({"v": [1, 2], "w": [1, 2]}, "l", error=ProtocolError)


# --- points and counters ------------------------------------------------------------------


@given(st.tuples(numbers, numbers))
def test_a_point_reads_back_equal(p: tuple[float, float]) -> None:
    obj = point_json(p)
    assert all(type(v) is float for v in obj)
    assert point(through_text(obj), "p") == p


@given(
    st.builds(
        Counters, st.integers(0, CANNON_LIMIT), st.integers(0, HAZARD_LIMIT), st.integers(0, 10**6)
    )
)
def test_counters_read_back_equal(counters: Counters) -> None:
    assert counters_from_json(through_text(counters.to_json())) == counters


# --- Match --------------------------------------------------------------------------------


@st.composite
def matches(draw: st.DrawFn) -> Match:
    target = draw(st.integers(1, 10_000))
    first = draw(names)
    second = draw(names.filter(lambda s: s != first))
    balls = draw(st.sampled_from([(Ball.WHITE, Ball.YELLOW), (Ball.YELLOW, Ball.WHITE)]))
    handicap = draw(
        st.one_of(
            st.just((0, 0)), st.tuples(st.integers(0, target - 1), st.integers(0, target - 1))
        )
    )
    return Match(target=target, players=(first, second), balls=balls, handicap=handicap)


@given(matches())
def test_a_match_line_reads_back_equal(match: Match) -> None:
    line = match_json(match)
    assert ("handicap" in line) is (match.handicap != (0, 0))  # a plain game's line as ever
    assert parse_match(through_text(line)) == match


@given(matches())
def test_a_records_match_line_reads_back_its_match(match: Match) -> None:
    opening = opening_verdict(start(match))
    header = dumps(match_line(match, physics={}, opening=opening))
    record = read_record([header])
    assert record.header.match == match  # the handicap too
    assert check_referee(record) is None  # and the referee judges it to the same opening


# --- record lines embedding strikes and points --------------------------------------------


@st.composite
def lag_strokes(draw: st.DrawFn, player: str) -> LagStroke:
    return LagStroke(
        player=player,
        start=draw(points),
        strike=draw(strikes),
        rest=draw(st.one_of(st.none(), points)),
        reached_top=draw(st.booleans()),
    )


@given(st.data())
def test_a_records_lag_reads_back_equal(data: st.DataObject) -> None:
    match = Match(target=50, players=("Ivanov", "Petrov"))
    lag = Lag(
        strokes=(data.draw(lag_strokes("Ivanov")), data.draw(lag_strokes("Petrov"))),
        winner="Petrov",
        choice=LagChoice(data.draw(st.booleans()), data.draw(st.sampled_from(list(Ball)[:2]))),
    )
    opening = opening_verdict(start(match))
    record = read_record([dumps(match_line(match, physics={}, opening=opening, lag=lag))])
    assert record.header.lag == lag


@pytest.fixture(scope="module")
def stroke_record() -> list[str]:
    """A one-stroke game's record (the white played from the D on the simulated table)."""
    game = Game(Match(target=50, players=("Ivanov", "Petrov")), PhysicsSimulator())
    game.play(Action(strike=Strike(2.5, 80.0, 0.1, -0.2), placed=(0.8, 0.6)))
    return game_lines(game)


@given(strike=strikes, nominal=strikes, placed=points, data=st.data())
def test_a_stroke_line_reads_back_its_action(
    stroke_record: list[str],
    strike: Strike,
    nominal: Strike,
    placed: tuple[float, float],
    data: st.DataObject,
) -> None:
    header, line = stroke_record[0], json.loads(stroke_record[1])
    scores = tuple(data.draw(st.lists(st.sampled_from(list(ScoreKind)), max_size=3)))
    expected = data.draw(st.one_of(st.none(), finite))
    action = Action(strike=strike, placed=placed, intent=Intent(nominal, scores, expected))
    line["strike"] = strike.to_json()
    line["placed"] = point_json(placed)
    line["intent"] = {
        "strike": nominal.to_json(),
        "scores": [k.value for k in scores],
        "expected": expected,
    }
    (entry,) = read_record([header, dumps(line)]).entries
    assert isinstance(entry, RecordedStroke)
    assert entry.action == action
    assert action_from_json(through_text(line), "played") == action  # the coach's reading


def test_an_action_is_read_in_its_callers_error_family() -> None:
    with pytest.raises(RecordError, match=r"^line 3: placed: expected \[x, y\]"):
        read_action({"strike": Strike(1, 2).to_json(), "placed": [1]}, "line 3")
    with pytest.raises(AdviceError, match=r"^played: missing field 'strike'$"):
        action_from_json({"placed": [1, 2]}, "played")
    with pytest.raises(AdviceError, match=r"^played\.intent\.scores: expected scoring"):
        action_from_json({"strike": Strike(1, 2).to_json(), "intent": {"scores": 1}}, "played")


def test_a_played_records_lines_read_back_as_written(stroke_record: list[str]) -> None:
    record = read_record(stroke_record)
    assert [dumps(json.loads(text)) for text in record.lines] == stroke_record
    (entry,) = record.entries
    assert isinstance(entry, RecordedStroke)
    assert entry.action.strike == Strike(2.5, 80.0, 0.1, -0.2)
    assert entry.action.placed == (0.8, 0.6)


# --- Verdict ------------------------------------------------------------------------------


@given(matches())
def test_a_verdict_is_json_and_its_visit_facts_read_back(match: Match) -> None:
    session = RefereeSession()
    verdicts = [session.feed(match_json(match))]
    to_play = match.players[session.state.to_play] if session.state else None
    verdicts.append(session.feed({"type": "stroke", "striker": to_play, "placed": [0.9, 0.6]}))
    for verdict, players in verdicts:
        obj = verdict_json(verdict, players)
        assert through_text(obj) == obj  # plain JSON: written and read, the same object
        facts = RecordedVerdict.from_json(obj)
        assert (facts.stroke, facts.striker, facts.break_) == (
            verdict.stroke,
            verdict.striker,
            verdict.break_,
        )
        assert facts.visit_over is (verdict.visit_over or verdict.winner is not None)


def test_a_handicap_games_record_replays_to_the_same_lines() -> None:
    game = Game(
        Match(target=50, players=("Ivanov", "Petrov"), handicap=(0, 20)), PhysicsSimulator()
    )
    game.play(Action(strike=Strike(2.5, 80.0), placed=(0.8, 0.6)))
    record = read_record(game_lines(game))
    assert record.header.match.handicap == (0, 20)
    report = replay(record)  # the header's match, handicap and all, is played again
    assert (report.simulation, report.referee) == (None, None)
