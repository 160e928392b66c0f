"""A game's summary (the list of games' few facts): what ``Summary.to_json`` writes, its one
reader ``Summary.from_json`` reads back equal, and anything else it refuses by field, in the
caller's error family."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.game.record import RecordError
from onered.game.summary import Summary, summary
from onered.protocol.json_fields import ProtocolError

names = st.text(min_size=1, max_size=12)
pairs = st.lists(names, min_size=2, max_size=2, unique=True).map(lambda p: (p[0], p[1]))


@st.composite
def summaries(draw: st.DrawFn) -> Summary:
    players = draw(pairs)
    winner = draw(st.none() | st.integers(0, 1))
    return summary(
        players,
        draw(st.integers(1, 100_000)),
        (draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6))),
        draw(st.integers(0, 10**5)),
        winner,
        draw(st.integers(0, 1)),
    )


@given(summaries())
def test_a_summary_reads_back_equal(s: Summary) -> None:
    assert Summary.from_json(s.to_json()) == s
    assert Summary.from_json(json.loads(json.dumps(s.to_json()))) == s


GOOD: dict[str, Any] = {
    "players": ["Ann", "Bob"],
    "target": 100,
    "score": [12, 30],
    "strokes": 9,
    "winner": None,
    "next": "Bob",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"players": ["Ann"]}, "summary.players: expected two names"),
        ({"players": None}, "summary.players: expected two names"),
        ({"target": 0}, "summary.target: expected an integer of at least 1"),
        ({"target": "100"}, "summary.target: expected an integer"),
        ({"score": [1]}, "summary.score: expected two integers"),
        ({"score": [1, -2]}, "summary.score[1]: expected an integer of at least 0"),
        ({"strokes": 1.5}, "summary.strokes: expected an integer"),
        ({"winner": "Cid"}, "summary.winner: expected one of the players or null"),
        ({"next": 1}, "summary.next: expected one of the players or null"),
    ],
)
def test_a_wrong_summary_is_refused_by_field(change: dict[str, Any], words: str) -> None:
    with pytest.raises(ProtocolError, match=words.replace("[", r"\[").replace("]", r"\]")):
        Summary.from_json({**GOOD, **change})


@pytest.mark.parametrize("key", list(GOOD))
def test_a_summary_without_a_field_names_it(key: str) -> None:
    data = {k: v for k, v in GOOD.items() if k != key}
    with pytest.raises(RecordError, match=f"game 7: missing field '{key}'"):
        Summary.from_json(data, "game 7", error=RecordError)


def test_a_summary_that_is_not_an_object_is_refused() -> None:
    with pytest.raises(ProtocolError, match="summary: expected an object, got an array"):
        Summary.from_json([])
