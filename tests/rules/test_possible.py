"""What the next stroke can do (onered.rules.possible): one test per reason, and seams with
the referee — what ``possible`` allows the referee accepts, what it forbids the referee
refuses as an invalid stroke; the straight aim from hand agrees with the decision-7 reading
of ``onered.game.fouls``."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from onered.bridge import Touch, bad_from_hand_touches
from onered.rules import Ball, InvalidStrokeError, Match, Stroke, judge, start
from onered.rules.model import IN_OFF_OF, POT_OF, GameState, ScoreKind
from onered.rules.possible import (
    Reason,
    Why,
    aim_warning,
    balls_in_baulk,
    first_ball_ahead,
    possible,
)
from onered.table import BAULK_Y, D_CENTRE, in_baulk

MATCH = Match(target=100, players=("A", "B"))


def opening() -> GameState:
    return start(MATCH)


def test_at_the_opening_a_cannon_is_impossible_the_opponents_ball_is_off_the_table() -> None:
    p = possible(opening())
    assert p.scores[ScoreKind.CANNON] == Why(Reason.NOT_ON_TABLE, Ball.YELLOW)
    assert p.scores[ScoreKind.POT_YELLOW] == Why(Reason.NOT_ON_TABLE, Ball.YELLOW)
    assert p.first_hit[Ball.YELLOW] == Why(Reason.NOT_ON_TABLE, Ball.YELLOW)
    assert p.scores[ScoreKind.POT_RED] is None
    assert p.scores[ScoreKind.IN_OFF_RED] is None


def test_the_strikers_own_ball_is_never_potted_it_goes_in_off() -> None:
    p = possible(opening())
    assert p.scores[ScoreKind.POT_WHITE] == Why(Reason.OWN_BALL, Ball.WHITE)
    assert p.first_hit[Ball.WHITE] == Why(Reason.OWN_BALL, Ball.WHITE)


def test_after_the_game_is_won_nothing_is_possible() -> None:
    state = start(Match(target=3, players=("A", "B")))
    state, _ = judge(state, Stroke(first_hit=Ball.RED, potted=(Ball.RED,)))
    p = possible(state)
    assert p.stroke == Why(Reason.GAME_OVER)
    assert p.striker is None
    assert all(w == Why(Reason.GAME_OVER) for w in p.scores.values())


def _with_both_on() -> GameState:
    state = opening()
    state, _ = judge(state, Stroke(placed=(0.9, 0.7), first_hit=Ball.RED))  # A ends the visit
    return state


def test_once_both_object_balls_are_on_the_table_the_cannon_is_possible() -> None:
    state = _with_both_on()
    # B (yellow) from hand: white and red on the table
    p = possible(state)
    assert p.scores[ScoreKind.CANNON] is None
    assert p.scores[ScoreKind.POT_WHITE] is None


STROKES = {
    ScoreKind.CANNON: lambda me, opp: Stroke(first_hit=Ball.RED, cannon=True),
    ScoreKind.POT_RED: lambda me, opp: Stroke(first_hit=Ball.RED, potted=(Ball.RED,)),
    ScoreKind.IN_OFF_RED: lambda me, opp: Stroke(first_hit=Ball.RED, potted=(me,)),
}


@pytest.mark.parametrize("kind", list(STROKES))
@pytest.mark.parametrize("state_name", ["opening", "both_on"])
def test_what_possible_allows_the_referee_accepts_and_what_it_forbids_it_refuses(
    kind: ScoreKind, state_name: str
) -> None:
    state = opening() if state_name == "opening" else _with_both_on()
    me = state.match.balls[state.to_play]
    opp = state.match.balls[1 - state.to_play]
    stroke = STROKES[kind](me, opp)
    why = possible(state).scores[kind]
    if why is None:
        judge(state, stroke)
    else:
        with pytest.raises(InvalidStrokeError):
            judge(state, stroke)


@pytest.mark.parametrize("state_name", ["opening", "both_on"])
def test_a_pot_of_the_opponents_ball_is_possible_exactly_when_the_referee_accepts_it(
    state_name: str,
) -> None:
    state = opening() if state_name == "opening" else _with_both_on()
    opp = state.match.balls[1 - state.to_play]
    stroke = Stroke(first_hit=opp, potted=(opp,)) if opp in state.table else None
    why = possible(state).scores[POT_OF[opp]]
    assert (why is None) == (stroke is not None)
    if stroke is not None:
        judge(state, stroke)
    else:
        with pytest.raises(InvalidStrokeError):
            judge(state, Stroke(first_hit=Ball.RED, potted=(opp,)))
    assert possible(state).scores[IN_OFF_OF[opp]] == why


# --- from hand: a ball in baulk is not struck directly (2.6.6) ----------------------------------


def _in_hand_with(red: tuple[float, float]) -> GameState:
    return GameState(match=MATCH, table={Ball.RED: red}, to_play=0)


def test_aiming_straight_at_a_ball_in_baulk_from_hand_is_warned_of() -> None:
    state = _in_hand_with((0.9, 0.40))  # the red in baulk, below the D's centre
    cue = D_CENTRE
    down = math.degrees(math.atan2(0.40 - cue[1], 0.9 - cue[0]))
    assert aim_warning(state, cue, down) == Why(Reason.BALL_IN_BAULK, Ball.RED)
    assert balls_in_baulk(state) == (Ball.RED,)


def test_aiming_away_from_a_ball_in_baulk_is_not_warned_of() -> None:
    state = _in_hand_with((0.9, 0.40))
    assert aim_warning(state, D_CENTRE, 90.0) is None  # up the table, to the top cushion


def test_aiming_at_a_ball_out_of_baulk_is_not_warned_of() -> None:
    state = _in_hand_with((0.889, 3.245))
    assert aim_warning(state, D_CENTRE, 90.0) is None
    assert first_ball_ahead(state, D_CENTRE, 90.0) is Ball.RED


def test_a_player_not_in_hand_is_not_warned_of() -> None:
    state = GameState(match=MATCH, table={Ball.RED: (0.9, 0.40), Ball.WHITE: D_CENTRE})
    assert aim_warning(state, D_CENTRE, -90.0) is None


@settings(max_examples=300, deadline=None)
@given(
    rx=st.floats(0.05, 1.72),
    ry=st.floats(0.05, 3.5),
    cx=st.floats(0.6, 1.17),
    cy=st.floats(0.45, BAULK_Y),
    aim=st.floats(-180, 180),
)
def test_the_warning_agrees_with_the_decision_7_reading_of_the_first_touch(
    rx: float, ry: float, cx: float, cy: float, aim: float
) -> None:
    """The straight line's first touch, read by onered.game.fouls: a foul exactly when it is
    a ball in baulk (a cushion first is no direct stroke, and not warned of)."""
    state = _in_hand_with((rx, ry))
    assume(math.hypot(rx - cx, ry - cy) >= 0.06)  # else the cue ball would stand on the red
    first = first_ball_ahead(state, (cx, cy), aim)
    warned = aim_warning(state, (cx, cy), aim) is not None
    if first is None:
        assert not warned
        return
    touch = Touch.BALL_IN_BAULK if in_baulk((rx, ry)) else Touch.BALL_OUT_OF_BAULK
    assert warned == bad_from_hand_touches([touch], rests_in_baulk=False)
