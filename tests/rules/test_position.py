"""A position written down (``onered.rules.position``): every state the referee reaches writes
and reads back equal, a written text re-writes identically, and a spoiled text gets an error
that names the field (never a traceback)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from onered import rules
from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import RefereeSession, position_json
from onered.rules import Ball, Counters, GameState, Match, RulesError, Spot
from onered.rules.position import FIELDS, PositionError, check, read, write
from onered.rules.referee import RED_SPOTS as RULES_RED_SPOTS
from referee_support import P1, P2, judge, judge_ok, play

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
OPENING = 'R0.889,3.245 W 0:0 0 0/0/0 billiards - play 0 100 0:0 WY ["Ivanov","Petrov"]'


def states_of(lines: list[Any]) -> list[GameState]:
    session = RefereeSession()
    states = []
    for line in lines:
        session.feed(line)
        assert session.state is not None
        states.append(session.state)
    return states


@SETTINGS
@given(data=st.data(), target=st.integers(1, 150), length=st.integers(1, 40))
def test_every_state_of_random_play_reads_back_equal(
    data: st.DataObject, target: int, length: int
) -> None:
    lines, _ = play(data, target, length, with_positions=True)
    for state in states_of(lines):
        text = write(state)
        back = read(text)
        assert back == state, text
        assert write(back) == text
        assert "\n" not in text


@SETTINGS
@given(
    x=st.floats(0.0, 1.778),
    y=st.floats(0.0, 3.569),
    name=st.text(min_size=1, max_size=30),
)
def test_floats_and_names_round_trip_exactly(x: float, y: float, name: str) -> None:
    match = Match(target=100, players=(name, name + "2"), balls=(Ball.YELLOW, Ball.WHITE))
    state = GameState(
        match=match,
        table={Ball.WHITE: (x, y), Ball.RED: None},
        score=(10, 3),
        stroke_no=5,
        to_play=0,
        break_=4,
        counters=Counters(0, 2, 0),
        red_spot=None,
    )
    text = write(state)
    assert read(text) == state
    assert len(text.splitlines()) == 1
    back = read(text).table[Ball.WHITE]
    assert back is not None
    assert (back[0].hex(), back[1].hex()) == (x.hex(), y.hex())


def test_the_opening() -> None:
    state = rules.start(Match(target=100, players=("Ivanov", "Petrov")))
    assert write(state) == OPENING
    assert read(OPENING) == state


def test_names_with_spaces_quotes_and_controls() -> None:
    state = rules.start(Match(target=50, players=('Ив "Ан" ов', "P\nq\u2028")))
    text = write(state)
    assert "\n" not in text
    assert "\u2028" not in text
    assert read(text) == state


def mutate(text: str, field: str, value: str) -> str:
    parts = text.split(" ", len(FIELDS) - 1)
    parts[FIELDS.index(field)] = value
    return " ".join(parts)


MID_BREAK = read(
    'W0.5,1.2/Y1.1,2.0/R0.889,2.67675 W 90:41 86 0/3/2 pyramid due play 40 200 0:0 WY ["A","B"]'
)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("table", "X1,2/R0.889,3.245", "table: expected W, Y or R"),
        ("table", "W1,2,3/R0.889,3.245", "table: white: expected 'x,y' or '?'"),
        ("table", "Wnan,1/R0.889,3.245", "table (white's x): expected a decimal number"),
        ("table", "W1e999,1/R0.889,3.245", "is too large"),
        ("table", "W1,1/W1,2/R0.889,3.245", "the white is given twice"),
        ("table", "R0.889,3.245/W1,1", "balls go in the order W, Y, R"),
        ("table", "W0.5,1.2/Y1.1,2.0", "the red must be on the table"),
        ("table", "W5,1.2/R0.889,2.67675", "the white at (5.0, 1.2) is off the table"),
        ("to_play", "R", "to_play: expected W or Y"),
        ("score", "90-41", "score: expected the players' scores"),
        ("score", "90:250", "status: play, but B has reached the target 200"),
        ("break", "-3", "break: expected a whole number"),
        ("break", "95", "break: 95, more than the 90 points"),
        ("counters", "0/3", "counters: expected cannons/hazards/red_run"),
        ("counters", "0/16/0", "16 hazards: at most 15"),
        ("counters", "2/3/0", "cannons and consecutive hazards at once"),
        ("counters", "0/1/2", "a red run of 2 in 1 consecutive hazards"),
        ("red", "blue", "red: expected billiards, pyramid, centre"),
        ("red", "centre", "the red stands on the centre spot, but"),
        ("red", "-", "'-' (on no spot), but the table puts the red on the pyramid spot"),
        ("red", "pyramid*", "a fallback (*) is only to the billiards spot"),
        ("baulk", "open", "baulk: expected -, due or made"),
        ("baulk", "-", "is in the 80-99 window"),
        ("status", "won", "status: expected play, option or over"),
        ("status", "over", "'over', but A (to play) has 90 of 200"),
        ("status", "option", "break: 86 with a foul option pending"),
        ("stroke", "x", "stroke: expected a whole number"),
        ("stroke", "0", "stroke: 0 is the opening"),
        ("target", "0", "target: must be an integer of at least 1"),
        ("handicap", "0:300", "handicap: must be two integers"),
        ("balls", "WW", "balls: expected WY or YW"),
        ("players", '["A"]', "players: expected"),
        ("players", '["A","A"]', "the two names must differ"),
        ("players", '["A",', "players: expected"),
    ],
)
def test_a_spoiled_field_is_named(field: str, value: str, message: str) -> None:
    text = mutate(write(MID_BREAK), field, value)
    with pytest.raises(PositionError, match=re.escape(message)):
        read(text)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "R0.889,3.245 W", OPENING.replace(" ", "  ", 1), OPENING + "x" * 0 + "\x00"],
)
def test_a_broken_text_is_an_error_not_a_traceback(text: str) -> None:
    with pytest.raises(RulesError, match="position"):
        read(text)


@SETTINGS
@given(data=st.data())
def test_any_spoiled_text_is_refused_cleanly_or_reads_a_valid_state(data: st.DataObject) -> None:
    text = write(MID_BREAK)
    at = data.draw(st.integers(0, len(text) - 1))
    spoiled = text[:at] + data.draw(st.text(max_size=3)) + text[at + 1 :]
    try:
        state = read(spoiled)
    except PositionError as exc:
        problem = str(exc)
        state = None
    if state is None:
        assert problem.startswith("position")
    else:
        check(state)
        assert read(write(state)) == state


def test_check_refuses_states_the_referee_cannot_be_in() -> None:
    good = MID_BREAK
    check(good)
    with pytest.raises(PositionError, match="fallback"):
        check(replace(good, red_fallback=True))
    with pytest.raises(PositionError, match="foul option"):
        check(replace(good, winner=0, score=(200, 41), choice_pending=True))
    touching_red = replace(good, table={**good.table, Ball.RED: Spot.CENTRE.point})
    with pytest.raises(PositionError, match="red stands on the pyramid spot"):
        check(touching_red)
    for field, value, message in [
        ("to_play", 2, "to_play: expected player 0 or 1"),
        ("winner", 3, "the winner must be player 0 or 1"),
        ("score", (90, -1), "score: expected two whole numbers"),
        ("break_", 86.0, "break: expected a whole number"),
        ("counters", Counters(0, -1, 0), "counters: expected whole numbers"),
        ("baulk_met", 5, "does not fit the break of 86"),
        ("table", {**good.table, Ball.WHITE: (math.nan, 1.0)}, "the white: expected (x, y)"),
    ]:
        with pytest.raises(PositionError, match=re.escape(message)):
            check(replace(good, **{field: value}))


@SETTINGS
@given(data=st.data(), target=st.integers(1, 150), length=st.integers(1, 40))
def test_a_game_resumed_from_a_position_line_goes_on_as_the_whole_game(
    data: st.DataObject, target: int, length: int
) -> None:
    lines, verdicts = play(data, target, length, with_positions=True)
    cut = data.draw(st.integers(0, len(lines) - 1))
    state = states_of(lines[: cut + 1])[-1]
    resumed = judge_ok([position_json(state), *lines[cut + 1 :]])
    assert resumed[1:] == verdicts[cut + 1 :]
    first = resumed[0]
    assert first["score"] == verdicts[cut]["score"]
    assert first["next"] == verdicts[cut]["next"]
    assert first["next_from_d"] == verdicts[cut]["next_from_d"]
    assert first["options"] == verdicts[cut]["options"]
    assert first["in_hand"] == verdicts[cut]["in_hand"]
    assert first["winner"] == verdicts[cut]["winner"]
    if verdicts[cut]["winner"] is None and not verdicts[cut]["visit_over"]:
        assert first["counters"] == verdicts[cut]["counters"]
        assert first["break"] == verdicts[cut]["break"]
        assert first["baulk_line"]["required"] == verdicts[cut]["baulk_line"]["required"]


SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.jsonl"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_state_of_the_scenarios_reads_back_equal(path: Path) -> None:
    session = RefereeSession()
    for text in path.read_text(encoding="utf-8").splitlines():
        row = json.loads(text)
        if "in" not in row or not isinstance(row["in"], dict):
            continue
        try:
            session.feed(row["in"])
        except (ProtocolError, RulesError):
            break  # an error scenario: the states before it are checked
        assert session.state is not None
        assert read(write(session.state)) == session.state


def test_a_position_line_answers_with_the_state() -> None:
    option = 'W0.5,1.2/Y1.1,2.0/R0.7,2.2 Y 10:6 0 0/0/0 - - option 20 1000 0:0 YW ["A","B"]'
    verdict = judge_ok([{"type": "position", "position": option}])[0]
    assert verdict["stroke"] == 20
    assert verdict["next"] == "A"  # YW: A plays the yellow
    assert verdict["options"] == ["as_they_lie", "from_d"]
    assert verdict["score"] == {"A": 10, "B": 6}
    over = OPENING.replace(
        "R0.889,3.245 W 0:0 0 0/0/0 billiards - play 0 100", "R? Y 3:100 0 0/0/0 - - over 30 100"
    )
    judged = judge([{"type": "position", "position": over}, {"type": "stroke", "first_hit": "red"}])
    assert judged.verdicts[0]["winner"] == "Petrov"
    assert judged.verdicts[0]["next"] is None
    assert "line 2: the game is over" in judged.err


def test_the_opening_as_a_position_line_is_the_match_lines_verdict_without_placing() -> None:
    from_match = judge_ok([{"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]}])[0]
    from_position = judge_ok([{"type": "position", "position": OPENING}])[0]
    assert from_position == {**from_match, "placements": []}


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"type": "position"}, "line 1: position: expected the position's text"),
        ({"type": "position", "position": 3}, "line 1: position: expected the position's text"),
        ({"type": "position", "position": "R1,1 W"}, "line 1: position: expected 13 fields"),
    ],
)
def test_a_bad_position_line_is_refused_at_its_line(line: dict[str, Any], message: str) -> None:
    judged = judge([line])
    assert judged.status == 2
    assert message in judged.err


DOC = Path(__file__).resolve().parents[2] / "docs" / "position-format.md"


def test_the_documented_examples_read_and_write_back() -> None:
    blocks = DOC.read_text(encoding="utf-8").split("```")[1::2]
    examples = [b.strip() for b in blocks if b.strip()[:1] in ("W", "Y", "R")]
    assert len(examples) >= 5
    for text in examples:
        assert write(read(text)) == text
    line = next(b for b in blocks if b.startswith('json\n{"type": "position"'))
    assert judge_ok([line.removeprefix("json\n").strip()])[0]["options"] == [
        "as_they_lie",
        "from_d",
    ]


@st.composite
def positions(draw: st.DrawFn) -> GameState:
    """Any state the referee could be in while the game goes on (P1 with the white), built
    field by field within the rules' limits."""
    target = draw(st.integers(1, 400))
    handicap = (draw(st.integers(0, target - 1)), draw(st.integers(0, target - 1)))
    score = (draw(st.integers(handicap[0], target - 1)), draw(st.integers(handicap[1], target - 1)))
    to_play = draw(st.integers(0, 1))
    option = draw(st.integers(0, 3)) == 0
    scored = score[to_play] - handicap[to_play]
    brk = 0 if option else draw(st.one_of(st.just(0), st.integers(0, scored)))
    cannons = hazards = red_run = 0
    if brk and draw(st.booleans()):
        cannons = draw(st.integers(0, min(75, brk // 2)))
    elif brk:
        hazards = draw(st.integers(0, min(15, brk // 2)))
        red_run = draw(st.integers(0, min(hazards, brk - 2 * hazards)))
    baulk_met = brk // 100 - 1
    if brk % 100 >= 80 and draw(st.booleans()):
        baulk_met += 1
    point = st.tuples(st.floats(0.02625, 1.75175), st.floats(0.02625, 3.54275))
    table: dict[Ball, tuple[float, float] | None] = {}
    for ball in (Ball.WHITE, Ball.YELLOW):
        kind = draw(st.integers(0, 2))
        if kind:
            table[ball] = draw(point) if kind == 1 else None
    red_spot = draw(st.sampled_from([None, Spot.BILLIARDS, Spot.PYRAMID, Spot.CENTRE]))
    red_kind = draw(st.integers(0, 2))
    if red_kind == 0:
        table[Ball.RED] = None
    elif red_spot is not None:
        table[Ball.RED] = red_spot.point
    else:
        at = draw(point)
        assume(all(math.dist(at, s.point) > 1e-3 for s in RULES_RED_SPOTS))
        table[Ball.RED] = at
    fallback = red_run >= 2 and red_spot is Spot.BILLIARDS and draw(st.booleans())
    return GameState(
        match=Match(target=target, players=(P1, P2), handicap=handicap),
        table=table,
        score=score,
        stroke_no=draw(st.integers(1, 10_000)),
        to_play=to_play,
        break_=brk,
        counters=Counters(cannons, hazards, red_run),
        red_spot=red_spot,
        red_fallback=fallback,
        baulk_met=baulk_met,
        choice_pending=option,
    )


@SETTINGS
@given(state=positions(), data=st.data(), length=st.integers(1, 25))
def test_from_any_position_the_referee_reaches_only_positions_that_read_back(
    state: GameState, data: st.DataObject, length: int
) -> None:
    """The seam both ways: every generated state is valid and reads back equal, and judging
    random lines from it (a position line, then strokes and choices) only ever reaches states
    that check() accepts and that read back equal: the checks refuse nothing the referee can
    do, from wherever it starts."""
    check(state)
    text = write(state)
    assert read(text) == state
    lines, _ = play(
        data, state.match.target, length, with_positions=True, start=position_json(state)
    )
    for reached in states_of(lines):
        assert read(write(reached)) == reached
