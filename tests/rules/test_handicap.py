"""The handicap start (``docs/rules.md``, "Handicap"): points given to a player at the start.

The Russian text has no handicap clause; our reading: the points given stand in the score
from the match line on, count towards the target (2.1, 2.5.5) and belong to no break (2.13,
decision 10). Written in the protocol's ``match`` line as ``handicap: [a, b]`` (the order of
``players``), absent for none.
"""

from __future__ import annotations

import pytest

from onered.protocol.referee import match_json, parse_match
from onered.rules import InvalidMatchError, Match, start
from referee_support import P1, P2, assert_error_at, judge_ok, match, no_score, pot_red, stroke


def test_handicap_appears_in_the_opening_score() -> None:
    opening = judge_ok([match(target=100, handicap=[0, 30])])[0]
    assert opening["score"] == {P1: 0, P2: 30}
    assert opening["break"] == 0


def test_handicap_counts_towards_the_target_2_5_5() -> None:
    verdict = judge_ok([match(target=20, handicap=[18, 0]), pot_red()])[-1]
    assert verdict["score"] == {P1: 21, P2: 0}
    assert verdict["winner"] == P1


def test_handicap_is_not_part_of_any_break_2_13() -> None:
    verdicts = judge_ok([match(target=200, handicap=[79, 0]), pot_red(), pot_red()])
    assert verdicts[-1]["break"] == 6
    assert verdicts[-1]["score"] == {P1: 85, P2: 0}
    # the baulk-line window is a window of the break (decision 10): not reached at 85 points
    assert verdicts[-1]["baulk_line"]["required"] is False


def test_handicap_penalty_adds_to_the_given_points() -> None:
    verdict = judge_ok([match(target=100, handicap=[0, 10]), stroke()])[-1]
    assert verdict["score"] == {P1: 0, P2: 12}


def test_handicap_absent_is_zero() -> None:
    verdicts = judge_ok([match(target=100), no_score()])
    assert verdicts[0]["score"] == {P1: 0, P2: 0}
    assert start(Match(target=100, players=(P1, P2))).score == (0, 0)


@pytest.mark.parametrize(
    "handicap",
    [[-1, 0], [0], [1, 2, 3], [1.5, 0], [True, 0], "10", None, [0, "5"]],
)
def test_handicap_malformed_is_an_error_of_the_match_line(handicap: object) -> None:
    judged = assert_error_at([match(target=100, handicap=handicap)], 1)
    assert "handicap" in judged.err


def test_handicap_reaching_the_target_is_refused() -> None:
    judged = assert_error_at([match(target=50, handicap=[50, 0])], 1)
    assert "handicap" in judged.err
    assert "below the target" in judged.err
    with pytest.raises(InvalidMatchError, match="handicap"):
        start(Match(target=10, players=(P1, P2), handicap=(0, 10)))


def test_handicap_match_line_reads_back_equal() -> None:
    given = Match(target=100, players=(P1, P2), handicap=(25, 0))
    assert parse_match(match_json(given)) == given
    assert "handicap" not in match_json(Match(target=100, players=(P1, P2)))
