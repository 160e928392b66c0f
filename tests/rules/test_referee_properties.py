"""Property tests of the referee through ``run``: random valid games, checked against the rules.

A game is built one line at a time (``referee_support.play``): each line is judged as it is
drawn, by one referee session that carries the state, and the next line is drawn from what the
last verdict says (who plays, with which ball, which cue balls are in hand, whether a foul
option is pending), so every drawn stroke names only balls on the table. The whole input is
then judged again in one run, which checks that the referee judges line by line: the verdicts
of a prefix never change when more lines follow.
"""

from __future__ import annotations

import io
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_support import (
    BALL_OF,
    BOTH_OPTIONS,
    CALLER_CODES,
    P1,
    P2,
    encode,
    other,
    play,
)

#: Every value one stroke can score: cannon 2, pot red 3, pot of the opponent's ball 2, in-off
#: 3 or 2, each at most once (2.4.4, 2.5), so 0 and 2..10 — never 1.
ALLOWED_POINTS = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10}
PART_VALUES = {
    "cannon": {2},
    "pot_red": {3},
    "pot_white": {2},
    "pot_yellow": {2},
    "in_off_red": {3},
    "in_off_white": {2},
    "in_off_yellow": {2},
}
SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def expected_points(line: dict[str, Any], striker: str) -> int:
    """What a fair stroke scores (2.5): cannon 2, red 3, opponent's ball 2, in-off 3 off the
    red hit first, else 2."""
    own, opp = BALL_OF[striker], BALL_OF[other(striker)]
    potted = line.get("potted", [])
    points = 2 if line.get("cannon") else 0
    points += 3 if "red" in potted else 0
    points += 2 if opp in potted else 0
    if own in potted:
        points += 3 if line.get("first_hit") == "red" else 2
    return points


def strokes(lines: list[Any], verdicts: list[dict[str, Any]]) -> list[tuple[Any, Any, Any]]:
    """(input line, verdict before it, its verdict) for every stroke line."""
    return [
        (line, verdicts[i - 1], verdicts[i])
        for i, line in enumerate(lines)
        if i > 0 and line["type"] == "stroke"
    ]


GAME = given(data=st.data(), target=st.integers(1, 150), length=st.integers(1, 30))


@SETTINGS
@GAME
def test_points_are_values_the_rules_allow(data: st.DataObject, target: int, length: int) -> None:
    lines, verdicts = play(data, target, length)
    for line, _before, verdict in strokes(lines, verdicts):
        assert verdict["points"] in ALLOWED_POINTS
        assert sum(verdict["scored"].values()) == verdict["points"]
        for part, value in verdict["scored"].items():
            assert value in PART_VALUES[part] | {0}, (part, value)
        if verdict["foul"] is not None:
            assert verdict["points"] == 0
        elif line.get("struck", True):
            assert verdict["points"] == expected_points(line, verdict["striker"]), line


@SETTINGS
@GAME
def test_scores_never_decrease_and_a_penalty_is_2_at_most(
    data: st.DataObject, target: int, length: int
) -> None:
    lines, verdicts = play(data, target, length)
    for line, before, verdict in zip(lines[1:], verdicts[:-1], verdicts[1:], strict=True):
        for player in (P1, P2):
            assert verdict["score"][player] >= before["score"][player]
        if line["type"] == "choice":
            assert verdict["score"] == before["score"]
            assert verdict["points"] == 0
            continue
        striker = verdict["striker"]
        penalty = 0 if verdict["foul"] is None else verdict["foul"]["penalty"]
        assert penalty in (0, 2)
        assert verdict["score"][striker] - before["score"][striker] == verdict["points"]
        gained = verdict["score"][other(striker)] - before["score"][other(striker)]
        assert gained == penalty


@SETTINGS
@GAME
def test_game_ends_exactly_when_a_score_first_reaches_the_target(
    data: st.DataObject, target: int, length: int
) -> None:
    _lines, verdicts = play(data, target, length)
    for verdict in verdicts:
        leaders = [player for player in (P1, P2) if verdict["score"][player] >= target]
        if not leaders:
            assert verdict["winner"] is None
            assert verdict["next"] in (P1, P2)
        else:
            assert leaders == [verdict["winner"]]
            assert verdict["next"] is None
            assert verdict["visit_over"] is True
            assert verdict["options"] == []
            assert verdict is verdicts[-1], "the game goes on after a winner"


@SETTINGS
@GAME
def test_visits_follow_scoring_and_fouls(data: st.DataObject, target: int, length: int) -> None:
    lines, verdicts = play(data, target, length)
    for line, _before, verdict in strokes(lines, verdicts):
        if verdict["winner"] is not None:
            continue
        striker = verdict["striker"]
        if verdict["foul"] is not None:
            assert verdict["visit_over"] is True
            assert verdict["next"] == other(striker)
            assert verdict["options"] == BOTH_OPTIONS
        elif verdict["points"] > 0:
            assert verdict["visit_over"] is False
            assert verdict["next"] == striker
            assert verdict["options"] == []
            if BALL_OF[striker] in line.get("potted", []):
                assert verdict["next_from_d"] is True
        else:
            assert verdict["visit_over"] is True
            assert verdict["next"] == other(striker)
            assert verdict["options"] == []


@SETTINGS
@GAME
def test_fouls_named_and_limits_kept(data: st.DataObject, target: int, length: int) -> None:
    lines, verdicts = play(data, target, length)
    for line, _before, verdict in strokes(lines, verdicts):
        codes = set() if verdict["foul"] is None else set(verdict["foul"]["codes"])
        assert codes <= {*CALLER_CODES, "out_of_turn", "off_table", "hazard_limit"} | {
            "cannon_limit",
            "miss",
            "baulk_line",
        }
        if verdict["foul"] is not None:
            assert codes
            assert "foul" in {call["code"] for call in verdict["calls"]}
        assert set(line.get("fouls", [])) <= codes
        if line.get("struck", True) and line.get("first_hit") is None:
            assert "miss" in codes
        if line.get("off_table"):
            assert "off_table" in codes
        assert 0 <= verdict["counters"]["cannons"] <= 75
        assert 0 <= verdict["counters"]["hazards"] <= 15
        assert verdict["counters"]["red_run"] >= 0


@SETTINGS
@GAME
def test_same_input_same_output(data: st.DataObject, target: int, length: int) -> None:
    from onered.protocol.referee import run

    lines, _verdicts = play(data, target, length)
    texts = [encode(line) for line in lines]
    outputs = []
    for _ in range(2):
        out, err = io.StringIO(), io.StringIO()
        status = run(iter(texts), out, err)
        outputs.append((status, out.getvalue(), err.getvalue()))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 0


def red_run_model(lines: list[Any], verdicts: list[dict[str, Any]]) -> list[tuple[int, str | None]]:
    """An independent reading of the red run ``r`` and the red's placement, from the input
    lines alone: decision 5 (a stroke whose only score is the red pot, from the billiards or
    pyramid spot, adds one; anything else resets; r >= 2 sends a spotted red to the centre
    spot), decision 9 (a touching ball puts the red on the billiards spot, and the stroke
    still counts in r) and reading 3 of docs/rules.md (the red leaves its spot when the
    striker's ball touches it). Only the foul and the points are taken from the verdicts.
    No ``positions`` or ``occupied`` are drawn, so no spot is ever occupied here."""
    r, spot = 0, "billiards"
    out: list[tuple[int, str | None]] = []
    for line, verdict in zip(lines[1:], verdicts[1:], strict=True):
        placed: str | None = None
        if line["type"] == "choice":
            r = 0
            if line["option"] == "from_d":
                spot = placed = "billiards"
            out.append((r, placed))
            continue
        if not line.get("struck", True):
            r = 0
            out.append((r, None))
            continue
        potted, off = line.get("potted", []), line.get("off_table", [])
        red_gone = "red" in potted or "red" in off
        touched = line.get("cannon", False) or line.get("first_hit") in ("red", "both")
        own = BALL_OF[verdict["striker"]]
        scoring = verdict["foul"] is None and verdict["points"] > 0
        red_only = {part: v for part, v in verdict["scored"].items() if v} == {"pot_red": 3}
        r = r + 1 if scoring and red_only and spot in ("billiards", "pyramid") else 0
        rests = own not in potted and own not in off
        if scoring and rests and line.get("touching"):
            placed = "billiards"  # 2.10 wins; r as counted above (decision 9)
        elif red_gone:
            placed = "centre" if r >= 2 else "billiards"
        if placed is not None:
            spot = placed
        elif touched:
            spot = "moved"
        out.append((r, placed))
    return out


@SETTINGS
@GAME
def test_red_run_follows_decisions_5_and_9(data: st.DataObject, target: int, length: int) -> None:
    lines, verdicts = play(data, target, length)
    model = red_run_model(lines, verdicts)
    for line, verdict, (r, placed) in zip(lines[1:], verdicts[1:], model, strict=True):
        assert verdict["counters"]["red_run"] == r, (line, verdict["counters"])
        reds = [p["at"] for p in verdict["placements"] if p["ball"] == "red"]
        assert (reds[-1] if reds else None) == placed, (line, verdict["placements"])
