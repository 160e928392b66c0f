"""The marker's pad in the game core (``onered.game.pad``): what it forbids the referee
refuses and what it allows the referee judges; the session refuses a forbidden tap itself,
naming the rules' reason."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.game import marking
from onered.game.pad import impossible, pad, why_params
from onered.game.session import Session, SessionError
from onered.protocol.json_fields import ProtocolError
from onered.protocol.referee import parse_stroke
from onered.rules import InvalidStrokeError, Match, judge, start
from onered.rules import choose as rules_choose
from onered.rules.model import Ball
from onered.rules.possible import Reason, Why

P1, P2 = "Ivanov", "Petrov"


def test_at_the_opening_the_opponents_ball_is_not_on_the_table() -> None:
    p = pad(start(Match(target=50, players=(P1, P2))))
    assert p.stroke is None
    assert p.parts[marking.Part.CANNON] == Why(Reason.NOT_ON_TABLE, Ball.YELLOW)
    assert p.parts[marking.Part.POT_RED] is None
    assert p.first_hit[marking.Hit.OPPONENT] == Why(Reason.NOT_ON_TABLE, Ball.YELLOW)


def test_the_session_refuses_a_forbidden_tap_with_the_reason() -> None:
    session = Session.new(Match(target=50, players=(P1, P2)))
    with pytest.raises(SessionError) as refused:
        session.mark(marking.Mark(parts=frozenset({marking.Part.CANNON})))
    assert refused.value.code == "impossible"
    assert refused.value.params == {"reason": "not_on_table", "ball": "yellow"}
    assert len(session) == 1  # nothing kept


# --- the pad and the referee agree (a seam: what the pad offers, the referee accepts) --------

MARKS = st.builds(
    marking.Mark,
    parts=st.frozensets(st.sampled_from(list(marking.Part)), max_size=2),
    first_hit=st.none() | st.sampled_from(list(marking.Hit)),
    off_table=st.frozensets(st.sampled_from(list(marking.Role)), max_size=1),
)


def _judge_mark(state: Any, mark: marking.Mark) -> Any:
    line = marking.compose(state, mark)
    return judge(state, parse_stroke(line))


@settings(max_examples=300, deadline=None)
@given(history=st.lists(MARKS, max_size=12), mark=MARKS)
def test_what_the_pad_forbids_the_referee_refuses_and_what_it_allows_it_judges(
    history: list[marking.Mark], mark: marking.Mark
) -> None:
    state = start(Match(target=1000, players=(P1, P2)))
    for earlier in history:
        try:
            state, verdict = _judge_mark(state, earlier)
        except (marking.MarkError, InvalidStrokeError, ProtocolError):
            continue
        if state.choice_pending:
            state, _ = rules_choose(state, verdict.options[0])
    contradictory = (
        marking.Part.IN_OFF_OPPONENT in mark.parts and mark.first_hit is marking.Hit.RED
    ) or (marking.Part.IN_OFF_RED in mark.parts and mark.first_hit is marking.Hit.OPPONENT)
    if contradictory and marking.Part.CANNON not in mark.parts:
        return  # the composer takes the first hit's word for the in-off's ball
    bad = impossible(state, mark)
    try:
        marking.compose(state, mark)
    except marking.MarkError:
        return  # taps no stroke can combine: the composer's own refusal
    if bad is not None:
        with pytest.raises(InvalidStrokeError):
            _judge_mark(state, mark)
    else:
        _judge_mark(state, mark)


@settings(max_examples=200, deadline=None)
@given(history=st.lists(MARKS, max_size=10), mark=MARKS)
def test_the_session_refuses_exactly_what_the_pad_forbids(
    history: list[marking.Mark], mark: marking.Mark
) -> None:
    session = Session.new(Match(target=1000, players=(P1, P2)))
    for earlier in history:
        try:
            session.mark(earlier)
        except SessionError:
            continue
        if session.state.choice_pending:
            session.choose(session.last.verdict.options[0])
    why = impossible(session.state, mark)
    try:
        marking.compose(session.state, mark)
    except marking.MarkError:
        return  # taps no stroke can combine: refused as such, before the position
    if why is None:
        return  # allowed by the pad: the referee's own checks decide (the seam above)
    with pytest.raises(SessionError) as refused:
        session.check_mark(mark)
    assert refused.value.code == "impossible"
    assert refused.value.params == why_params(why)
