"""Turns and take-back in the game core (``onered.game.turns``): a seat plays only on its
turn, a take-back drops the asker's last stroke and what followed, seats are for two
people."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.game import turns
from onered.game.marking import Mark, Part
from onered.game.record import LineKind
from onered.game.session import Session, SessionError
from onered.rules import Match

P1, P2 = "Ivanov", "Petrov"
#: Marks any position takes (after the opening): nothing scored, or a miss.
PLAIN = [Mark(parts=frozenset({Part.NO_SCORE})), Mark(parts=frozenset({Part.MISS}))]


def marked(strokes: int) -> Session:
    """A marked game after ``strokes`` strokes that score nothing (the turn alternates)."""
    session = Session.new(Match(target=50, players=(P1, P2)))
    for _ in range(strokes):
        session.mark(PLAIN[0])
    return session


def test_a_player_plays_on_his_own_turn_only() -> None:
    session = marked(0)
    turns.check_turn(session, 0)
    with pytest.raises(SessionError) as refused:
        turns.check_turn(session, 1)
    assert refused.value.code == "not_your_turn"
    assert refused.value.params == {"name": P1}


def test_no_turn_after_the_end() -> None:
    session = Session.new(Match(target=2, players=(P1, P2)))
    session.mark(Mark(parts=frozenset({Part.POT_RED})))  # 3 points: Ivanov wins
    assert session.over
    with pytest.raises(SessionError) as refused:
        turns.check_turn(session, session.state.to_play)
    assert refused.value.code == "over"


def test_seats_are_for_two_people() -> None:
    turns.check_two_people(())
    with pytest.raises(SessionError) as refused:
        turns.check_two_people((1,))
    assert refused.value.code == "not_two_players"


def test_against_the_computer_the_person_takes_back_his_own_stroke() -> None:
    session = marked(3)  # Ivanov, Petrov, Ivanov
    assert turns.takeback_player(session, computer=(1,)) == 0
    assert turns.takeback_player(session, computer=(0,)) == 1
    assert turns.takeback_player(session, computer=()) == 0  # the last striker
    assert turns.takeback_lines(session, 0) == 1
    assert turns.takeback_lines(session, 1) == 2


def test_nothing_to_take_back_is_refused() -> None:
    session = marked(0)
    with pytest.raises(SessionError) as refused:
        turns.takeback_player(session, computer=())
    assert refused.value.code == "no_takeback"
    with pytest.raises(SessionError) as refused:
        turns.takeback_lines(marked(1), 1)
    assert refused.value.params == {"name": P2}


@given(st.lists(st.sampled_from(PLAIN), max_size=10), st.integers(0, 1))
def test_a_take_back_leaves_the_game_as_before_the_players_last_stroke(
    marks: list[Mark], player: int
) -> None:
    session = Session.new(Match(target=50, players=(P1, P2)))
    for mark in marks:
        session.mark(mark)
    strokes = [
        e.seq
        for e in session.entries
        if e.kind is LineKind.STROKE and e.verdict.striker == session.players[player]
    ]
    if not strokes:
        with pytest.raises(SessionError):
            turns.takeback(session, player)
        return
    before = Session.from_lines(session.texts()[: strokes[-1]])
    assert turns.takeback(session, player) == len(marks) + 1 - strokes[-1]
    assert session.texts() == before.texts()
    assert session.state == before.state


def test_a_request_is_answered_by_the_opponent_while_the_game_stands() -> None:
    session = marked(2)  # Ivanov, Petrov
    asked = turns.ask_takeback(session, 1)
    assert asked == turns.TakebackRequest(player=1, lines=3)
    assert turns.agreed_takeback(session, asked, 0) == 1
    for request, player, code in (
        (None, 0, "no_takeback"),  # nobody asked
        (asked, 1, "no_takeback"),  # the asker cannot agree with himself
    ):
        with pytest.raises(SessionError) as refused:
            turns.agreed_takeback(session, request, player)
        assert refused.value.code == code
    session.mark(PLAIN[0])  # the game went on
    with pytest.raises(SessionError) as refused:
        turns.agreed_takeback(session, asked, 0)
    assert refused.value.code == "stale"
    with pytest.raises(SessionError) as refused:
        turns.ask_takeback(marked(0), 0)
    assert refused.value.code == "no_takeback"
