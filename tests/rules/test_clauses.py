"""One or more tests per clause of section 2 of the rules and per decision of docs/rules.md.

Every expected value is worked out by hand from the rules (``docs/rules.md``, the Russian text
in ``docs/rules/``) and ``docs/referee-protocol.md``. Conventions of the helpers
(``referee_support``):

- ``P1`` (Ivanov) won the lag and plays the white; ``P2`` (Petrov) plays the yellow.
- ``petrov_to_play()``: Ivanov's first stroke hits the red and scores nothing, so Petrov brings
  the yellow in from the D; ``ivanov_again()``: Petrov's first stroke scores nothing too, so
  Ivanov plays the white where it lies with all three balls on the table.
- The verdict of input line *i* (1-based) is ``verdicts[i - 1]``; the ``match`` line is line 1.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from referee_support import (
    BOTH_OPTIONS,
    CALL_EN,
    IN_D,
    P1,
    P2,
    assert_error_at,
    assert_subset,
    call_codes,
    cannon,
    cannon_pot_red,
    choice,
    foul_codes,
    foul_stroke,
    ivanov_again,
    judge_ok,
    last_placement,
    match,
    no_score,
    petrov_to_play,
    placement_set,
    pot_red,
    scored_parts,
    stroke,
)

ZERO_COUNTERS = {"cannons": 0, "hazards": 0, "red_run": 0}


def last(lines: list[Any]) -> dict[str, Any]:
    return judge_ok(lines)[-1]


def assert_foul(
    verdict: dict[str, Any],
    codes: list[str],
    *,
    offender: str,
    score: dict[str, int] | None = None,
    exact: bool = True,
    visit_over: bool | None = True,
) -> None:
    """A foul verdict: no points, penalty 2, the visit over, the opponent to play with options.
    ``visit_over=None`` leaves that field unchecked (a stroke out of turn ends no visit of its
    striker)."""
    incoming = P2 if offender == P1 else P1
    assert verdict["foul"] is not None, verdict
    assert verdict["foul"]["penalty"] == 2
    if exact:
        assert foul_codes(verdict) == sorted(codes)
    else:
        assert set(codes) <= set(verdict["foul"]["codes"]), verdict["foul"]
    assert verdict["points"] == 0
    assert scored_parts(verdict) == {}
    assert verdict["striker"] == offender
    if visit_over is not None:
        assert verdict["visit_over"] is visit_over
    assert verdict["next"] == incoming
    assert verdict["options"] == BOTH_OPTIONS
    assert "foul" in call_codes(verdict)
    assert verdict["winner"] is None
    if score is not None:
        assert verdict["score"] == score


def assert_plays_on(verdict: dict[str, Any], striker: str, *, from_d: bool) -> None:
    assert verdict["foul"] is None, verdict["foul"]
    assert verdict["visit_over"] is False
    assert verdict["next"] == striker
    assert verdict["next_from_d"] is from_d
    assert verdict["options"] == []


# --- runs used by several clauses ----------------------------------------------------------


def cannon_run(n: int, cross_at: int = 41) -> list[Any]:
    """Petrov's visit of ``n`` cannons (2 each) off the red; his ``k``-th stroke is input line
    ``k + 2`` (verdict index ``k + 1``) and leaves his break at ``2k``. The ``cross_at``-th
    cannon, started at break 80, crosses the baulk line so the 80-99 window is satisfied."""
    return [
        *petrov_to_play(),
        *(cannon(crossed_baulk=True) if k == cross_at else cannon() for k in range(1, n + 1)),
    ]


def hazard_run(n: int) -> list[Any]:
    """Ivanov's first visit: ``n`` pots of the red (3 each); pot ``k`` is verdict index ``k``."""
    return [match(), *(pot_red() for _ in range(n))]


def century(n: int, cross_at: tuple[int, ...] = (), target: int = 1000) -> list[Any]:
    """Petrov's visit of ``n`` strokes of cannon + pot red (5 each, resetting both limit
    counters); his ``k``-th stroke is verdict index ``k + 1`` and takes his break to ``5k``."""
    return [
        match(target=target),
        no_score(),
        *(cannon_pot_red(crossed_baulk=k in cross_at) for k in range(1, n + 1)),
    ]


def century_tail(n: int, cross_at: tuple[int, ...] = ()) -> list[Any]:
    """More strokes of cannon + pot red, to continue a ``century`` visit."""
    return [cannon_pot_red(crossed_baulk=k in cross_at) for k in range(1, n + 1)]


# === 2.1 aim of the game ====================================================================


def test_2_1_first_to_reach_the_target_wins() -> None:
    verdict = last([match(target=3), pot_red()])
    assert verdict["winner"] == P1
    assert verdict["score"] == {P1: 3, P2: 0}
    assert verdict["next"] is None
    assert verdict["visit_over"] is True


def test_2_1_no_winner_below_the_target() -> None:
    verdict = last([match(target=4), pot_red()])
    assert verdict["winner"] is None
    assert verdict["next"] == P1


# === 2.2 balls ==============================================================================


def test_2_2_1_default_cue_balls_white_for_first_player_yellow_for_second() -> None:
    verdicts = judge_ok(ivanov_again())
    assert (verdicts[1]["striker"], verdicts[1]["ball"]) == (P1, "white")
    assert (verdicts[2]["striker"], verdicts[2]["ball"]) == (P2, "yellow")


def test_2_2_1_balls_field_gives_the_cue_balls_of_both_players() -> None:
    verdicts = judge_ok(
        [
            match(balls=["yellow", "white"]),
            no_score(),
            stroke(first_hit="yellow", potted=["yellow"]),
        ]
    )
    assert sorted(verdicts[0]["in_hand"]) == ["white", "yellow"]
    assert (verdicts[1]["striker"], verdicts[1]["ball"]) == (P1, "yellow")
    assert verdicts[1]["in_hand"] == ["white"]
    assert (verdicts[2]["striker"], verdicts[2]["ball"]) == (P2, "white")
    # Petrov (white) pots Ivanov's yellow: a pot of the opponent's ball.
    assert scored_parts(verdicts[2]) == {"pot_yellow": 2}


def test_2_2_2_own_cue_ball_is_not_an_object_ball() -> None:
    assert_error_at([match(), stroke(first_hit="white")], 2)


def test_2_2_2_red_and_opponents_ball_are_object_balls() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="yellow", cannon=True)])
    assert verdict["points"] == 2
    assert verdict["foul"] is None


# === 2.3 the start ==========================================================================


def test_2_3_1_order_from_lag_holds_all_game() -> None:
    verdicts = judge_ok([*ivanov_again(), no_score(), no_score()])
    assert [v["striker"] for v in verdicts[1:]] == [P1, P2, P1, P2]
    assert [v["next"] for v in verdicts[1:]] == [P2, P1, P2, P1]


def test_2_3_2_opening_state() -> None:
    verdict = judge_ok([match()])[0]
    assert_subset(
        {
            "stroke": 0,
            "striker": None,
            "ball": None,
            "from_d": False,
            "points": 0,
            "scored": {},
            "foul": None,
            "score": {P1: 0, P2: 0},
            "break": 0,
            "next": P1,
            "next_from_d": True,
            "options": [],
            "counters": ZERO_COUNTERS,
            "baulk_line": {"required": False, "crossed": False},
            "calls": [],
            "winner": None,
        },
        verdict,
    )
    assert sorted(verdict["in_hand"]) == ["white", "yellow"]


def test_2_3_2_red_starts_on_the_billiards_spot() -> None:
    # Two red-only pots from a spot send the red to the centre spot: the first pot must have
    # been from a spot, so the red started on it.
    verdicts = judge_ok(hazard_run(2))
    assert last_placement(verdicts[1], "red") == "billiards"
    assert verdicts[1]["counters"]["red_run"] == 1
    assert last_placement(verdicts[2], "red") == "centre"
    assert verdicts[2]["counters"]["red_run"] == 2


def test_2_3_2_first_stroke_is_from_the_d() -> None:
    verdicts = judge_ok(hazard_run(2))
    assert verdicts[1]["stroke"] == 1
    assert verdicts[1]["from_d"] is True
    assert verdicts[2]["stroke"] == 2
    assert verdicts[2]["from_d"] is False


def test_2_3_3_second_players_ball_off_the_table_during_first_visit() -> None:
    verdict = last([match(), pot_red()])
    assert verdict["in_hand"] == ["yellow"]
    assert_error_at([match(), pot_red(), cannon()], 3)
    assert_error_at([match(), stroke(first_hit="yellow")], 2)
    assert_error_at([match(), pot_red(), stroke(first_hit="red", potted=["yellow"])], 3)


def test_2_3_3_second_player_brings_his_ball_in_from_the_d() -> None:
    verdicts = judge_ok([*petrov_to_play(), no_score()])
    assert_subset({"visit_over": True, "next": P2, "next_from_d": True}, verdicts[1])
    assert verdicts[1]["in_hand"] == ["yellow"]
    assert_subset({"striker": P2, "from_d": True, "next": P1, "next_from_d": False}, verdicts[2])
    assert verdicts[2]["in_hand"] == []


# === 2.4 the play ===========================================================================


def test_2_4_1_points_from_pots_in_offs_and_cannons_combined() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="red", cannon=True, potted=["red", "white"])])
    assert scored_parts(verdict) == {"cannon": 2, "pot_red": 3, "in_off_red": 3}
    assert verdict["points"] == 8


def test_2_4_2_potted_object_ball_scores_and_striker_plays_on() -> None:
    verdict = last([match(), pot_red()])
    assert verdict["points"] == 3
    assert scored_parts(verdict) == {"pot_red": 3}
    assert verdict["break"] == 3
    assert_plays_on(verdict, P1, from_d=False)


def test_2_4_2_ball_potted_with_a_foul_does_not_score() -> None:
    verdict = last([match(), pot_red(fouls=["push"])])
    assert_foul(verdict, ["push"], offender=P1, score={P1: 0, P2: 2})


def test_2_4_3_in_off_scores_and_striker_plays_on_from_hand() -> None:
    verdict = last([match(), stroke(first_hit="red", potted=["white"])])
    assert scored_parts(verdict) == {"in_off_red": 3}
    assert_plays_on(verdict, P1, from_d=True)
    assert sorted(verdict["in_hand"]) == ["white", "yellow"]
    after = last([match(), stroke(first_hit="red", potted=["white"]), pot_red(placed=IN_D)])
    assert after["from_d"] is True
    assert after["break"] == 6
    assert after["in_hand"] == ["yellow"]


@pytest.mark.parametrize(
    ("first_hit", "parts"),
    [
        ("red", {"cannon": 2, "in_off_red": 3}),
        ("yellow", {"cannon": 2, "in_off_yellow": 2}),
    ],
)
def test_2_4_3_in_off_after_touching_both_is_off_the_first_touched(
    first_hit: str, parts: dict[str, int]
) -> None:
    verdict = last([*ivanov_again(), stroke(first_hit=first_hit, cannon=True, potted=["white"])])
    assert scored_parts(verdict) == parts
    assert verdict["points"] == sum(parts.values())


def test_2_4_4_one_cannon_per_stroke() -> None:
    verdict = last([*ivanov_again(), cannon()])
    assert scored_parts(verdict) == {"cannon": 2}
    assert verdict["points"] == 2
    assert_plays_on(verdict, P1, from_d=False)


def test_2_4_5_non_scoring_stroke_ends_the_visit() -> None:
    verdicts = judge_ok([match(), pot_red(), no_score()])
    verdict = verdicts[2]
    assert_subset(
        {
            "points": 0,
            "scored": {},
            "foul": None,
            "break": 3,
            "visit_over": True,
            "next": P2,
            "options": [],
            "score": {P1: 3, P2: 0},
        },
        verdict,
    )


def test_2_4_5_incoming_player_plays_from_where_the_balls_lie() -> None:
    verdict = judge_ok(ivanov_again())[-1]
    assert (verdict["next"], verdict["next_from_d"]) == (P1, False)


def test_2_4_5_incoming_player_plays_from_hand_when_his_ball_is_off_the_table() -> None:
    verdicts = judge_ok(
        [*ivanov_again(), stroke(first_hit="yellow", potted=["yellow"]), no_score(), no_score()]
    )
    assert verdicts[3]["in_hand"] == ["yellow"]
    assert (verdicts[4]["next"], verdicts[4]["next_from_d"]) == (P2, True)
    assert verdicts[5]["from_d"] is True
    assert verdicts[5]["in_hand"] == []


def test_2_4_5_after_a_foul_incoming_player_may_play_from_the_d() -> None:
    verdicts = judge_ok([*ivanov_again(), foul_stroke("push"), choice("from_d")])
    assert verdicts[3]["next_from_d"] is False  # as they lie, while the choice is pending
    assert (verdicts[4]["next"], verdicts[4]["next_from_d"]) == (P2, True)


# === 2.5 scoring ============================================================================


def test_2_5_1_points_go_to_the_striker_penalty_to_the_opponent() -> None:
    verdicts = judge_ok([match(), pot_red(), stroke()])
    assert verdicts[1]["score"] == {P1: 3, P2: 0}
    assert verdicts[2]["score"] == {P1: 3, P2: 2}
    assert verdicts[2]["points"] == 0


def test_2_5_2_1_cannon_scores_2() -> None:
    assert scored_parts(last([*ivanov_again(), cannon()])) == {"cannon": 2}


def test_2_5_2_1_pot_of_opponents_ball_scores_2() -> None:
    ivanov = last([*ivanov_again(), stroke(first_hit="yellow", potted=["yellow"])])
    assert scored_parts(ivanov) == {"pot_yellow": 2}
    assert ivanov["points"] == 2
    petrov = last([*petrov_to_play(), stroke(first_hit="white", potted=["white"])])
    assert scored_parts(petrov) == {"pot_white": 2}
    assert petrov["points"] == 2


def test_2_5_2_1_in_off_opponents_ball_scores_2() -> None:
    ivanov = last([*ivanov_again(), stroke(first_hit="yellow", potted=["white"])])
    assert scored_parts(ivanov) == {"in_off_yellow": 2}
    petrov = last([*petrov_to_play(), stroke(first_hit="white", potted=["yellow"])])
    assert scored_parts(petrov) == {"in_off_white": 2}


def test_2_5_2_2_pot_red_scores_3() -> None:
    verdict = last([match(), pot_red()])
    assert scored_parts(verdict) == {"pot_red": 3}
    assert verdict["points"] == 3


def test_2_5_2_2_in_off_red_scores_3() -> None:
    verdict = last([match(), stroke(first_hit="red", potted=["white"])])
    assert scored_parts(verdict) == {"in_off_red": 3}
    assert verdict["points"] == 3


@pytest.mark.parametrize(
    ("first_hit", "is_cannon", "potted", "parts"),
    [
        ("red", True, ["red"], {"cannon": 2, "pot_red": 3}),
        ("red", True, ["red", "yellow"], {"cannon": 2, "pot_red": 3, "pot_yellow": 2}),
        (
            "red",
            True,
            ["red", "yellow", "white"],
            {"cannon": 2, "pot_red": 3, "pot_yellow": 2, "in_off_red": 3},
        ),
        (
            "yellow",
            True,
            ["red", "yellow", "white"],
            {"cannon": 2, "pot_red": 3, "pot_yellow": 2, "in_off_yellow": 2},
        ),
        ("both", True, ["red", "white"], {"cannon": 2, "pot_red": 3, "in_off_yellow": 2}),
        ("red", False, ["red", "yellow"], {"pot_red": 3, "pot_yellow": 2}),
        ("red", False, ["red", "white"], {"pot_red": 3, "in_off_red": 3}),
        ("red", False, ["yellow", "white"], {"pot_yellow": 2, "in_off_red": 3}),
        ("yellow", False, ["red"], {"pot_red": 3}),
        ("yellow", False, ["yellow", "white"], {"pot_yellow": 2, "in_off_yellow": 2}),
        (
            "yellow",
            False,
            ["red", "yellow", "white"],
            {"pot_red": 3, "pot_yellow": 2, "in_off_yellow": 2},
        ),
    ],
)
def test_2_5_3_everything_made_in_one_stroke_counts(
    first_hit: str, is_cannon: bool, potted: list[str], parts: dict[str, int]
) -> None:
    verdict = last([*ivanov_again(), stroke(first_hit=first_hit, cannon=is_cannon, potted=potted)])
    assert verdict["foul"] is None
    assert scored_parts(verdict) == parts
    assert verdict["points"] == sum(parts.values())
    assert verdict["score"] == {P1: sum(parts.values()), P2: 0}


def test_2_5_3_largest_stroke_scores_10() -> None:
    verdict = last(
        [*ivanov_again(), stroke(first_hit="red", cannon=True, potted=["red", "yellow", "white"])]
    )
    assert verdict["points"] == 10


def test_2_5_4_1_in_off_with_cannon_red_first_scores_3() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="red", cannon=True, potted=["white"])])
    assert scored_parts(verdict) == {"cannon": 2, "in_off_red": 3}
    assert verdict["points"] == 5


def test_2_5_4_2_in_off_with_cannon_opponents_ball_first_scores_2() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="yellow", cannon=True, potted=["white"])])
    assert scored_parts(verdict) == {"cannon": 2, "in_off_yellow": 2}
    assert verdict["points"] == 4


def test_2_5_4_3_in_off_with_cannon_both_hit_at_once_scores_2() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="both", cannon=True, potted=["white"])])
    # named by the opponent's ball after a simultaneous first contact
    assert scored_parts(verdict) == {"cannon": 2, "in_off_yellow": 2}
    assert verdict["points"] == 4
    petrov = last([*petrov_to_play(), stroke(first_hit="both", cannon=True, potted=["yellow"])])
    assert scored_parts(petrov) == {"cannon": 2, "in_off_white": 2}


def test_2_5_5_game_ends_on_reaching_the_target_exactly() -> None:
    verdicts = judge_ok([match(target=6), pot_red(), pot_red()])
    assert verdicts[1]["winner"] is None
    assert verdicts[2]["winner"] == P1
    assert verdicts[2]["score"] == {P1: 6, P2: 0}


def test_2_5_5_game_ends_on_passing_the_target() -> None:
    verdict = last([match(target=5), pot_red(), pot_red()])
    assert verdict["winner"] == P1
    assert verdict["score"] == {P1: 6, P2: 0}


# === 2.6 from hand ==========================================================================

_ARC_60 = [
    0.889 + 0.292 * math.cos(math.radians(60)),
    0.737 - 0.292 * math.sin(math.radians(60)),
]


@pytest.mark.parametrize(
    "placed",
    [IN_D, [0.889, 0.737], [1.181, 0.737], [0.597, 0.737], [0.889, 0.445], _ARC_60],
)
def test_2_6_1_cue_ball_placed_inside_or_on_the_d_is_fair(placed: list[float]) -> None:
    verdict = last([match(), pot_red(placed=placed)])
    assert verdict["foul"] is None
    assert verdict["from_d"] is True
    assert verdict["points"] == 3


@pytest.mark.parametrize(
    "placed",
    [[0.889, 0.8], [0.889, 0.75], [0.3, 0.5], [0.889, 0.44], [1.19, 0.737], [0.5, 0.737]],
)
def test_2_6_1_cue_ball_placed_outside_the_d_is_bad_from_hand(placed: list[float]) -> None:
    verdict = last([match(), pot_red(placed=placed)])
    assert_foul(verdict, ["bad_from_hand"], offender=P1, score={P1: 0, P2: 2})
    assert verdict["from_d"] is True


def test_2_6_3_stroke_from_hand_reported_as_not_leaving_baulk_is_a_foul() -> None:
    verdict = last([*petrov_to_play(), foul_stroke("bad_from_hand", placed=IN_D)])
    assert_foul(verdict, ["bad_from_hand"], offender=P2, score={P1: 2, P2: 0})


def test_2_6_4_cue_ball_back_in_baulk_before_leaving_it_is_a_foul_when_reported() -> None:
    verdict = last([match(), foul_stroke("bad_from_hand", placed=IN_D, potted=["red"])])
    assert_foul(verdict, ["bad_from_hand"], offender=P1, score={P1: 0, P2: 2})


def test_2_6_5_fair_stroke_from_hand_scores_normally() -> None:
    # a baulk cushion used on the way out is the caller's judgement: nothing reported, no foul
    verdict = last([*petrov_to_play(), cannon_pot_red(placed=IN_D, crossed_baulk=True)])
    assert verdict["foul"] is None
    assert verdict["points"] == 5


def test_2_6_6_ball_in_baulk_played_directly_from_hand_is_a_foul_when_reported() -> None:
    lines = [
        match(),
        stroke(first_hit="red", positions={"white": [1.5, 2.5], "red": [0.5, 0.5]}),
        stroke(placed=IN_D, first_hit="red", fouls=["bad_from_hand"]),
    ]
    assert_foul(last(lines), ["bad_from_hand"], offender=P2, score={P1: 2, P2: 0})


def test_2_6_6_ball_in_baulk_hit_first_is_not_derived_by_the_referee() -> None:
    # The protocol derives bad_from_hand only from `placed` outside the D; the caller reports
    # a ball in baulk played directly. Unreported, the stroke is judged as given.
    lines = [
        match(),
        stroke(first_hit="red", positions={"white": [1.5, 2.5], "red": [0.5, 0.5]}),
        pot_red(placed=IN_D),
    ]
    verdict = last(lines)
    assert verdict["foul"] is None
    assert verdict["points"] == 3


def test_2_6_placed_when_not_playing_from_hand_is_an_error() -> None:
    assert_error_at([*ivanov_again(), pot_red(placed=IN_D)], 4)
    assert_error_at([match(), pot_red(), pot_red(placed=IN_D)], 3)


# === 2.7 spotting the red ===================================================================


def test_2_7_1_potted_red_goes_on_the_billiards_spot() -> None:
    verdict = last([*ivanov_again(), pot_red()])
    assert verdict["placements"] == [{"ball": "red", "at": "billiards"}]


def test_2_7_1_billiards_spot_occupied_red_goes_on_the_pyramid_spot() -> None:
    verdict = last([*ivanov_again(), pot_red(occupied=["billiards"])])
    assert verdict["placements"] == [{"ball": "red", "at": "pyramid"}]


def test_2_7_1_billiards_and_pyramid_occupied_red_goes_on_the_centre_spot() -> None:
    verdicts = judge_ok([match(), pot_red(occupied=["billiards", "pyramid"]), pot_red()])
    assert verdicts[1]["placements"] == [{"ball": "red", "at": "centre"}]
    assert verdicts[1]["counters"]["red_run"] == 1
    # potted from the centre spot: the run is over
    assert verdicts[2]["placements"] == [{"ball": "red", "at": "billiards"}]
    assert verdicts[2]["counters"]["red_run"] == 0


def test_2_7_1_occupied_spot_from_positions() -> None:
    near = last([match(), pot_red(positions={"white": [0.889, 3.2]})])
    assert near["placements"] == [{"ball": "red", "at": "pyramid"}]
    clear = last([match(), pot_red(positions={"white": [0.889, 3.19]})])
    assert clear["placements"] == [{"ball": "red", "at": "billiards"}]


def test_2_7_1_red_forced_off_the_table_is_spotted() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="red", off_table=["red"])])
    assert_foul(verdict, ["off_table"], offender=P1)
    assert last_placement(verdict, "red") == "billiards"


def test_2_7_2_red_run_goes_to_centre_spot() -> None:
    verdicts = judge_ok(hazard_run(2))
    assert [v["placements"] for v in verdicts[1:]] == [
        [{"ball": "red", "at": "billiards"}],
        [{"ball": "red", "at": "centre"}],
    ]
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 2]


def test_2_7_2_run_broken_by_an_additional_score() -> None:
    # pot, then pot + in-off (another score: r = 0), then two pots from the spot -> centre
    lines = [
        match(),
        pot_red(),
        stroke(first_hit="red", potted=["red", "white"]),
        pot_red(placed=IN_D),
        pot_red(),
    ]
    verdicts = judge_ok(lines)
    assert [last_placement(v, "red") for v in verdicts[1:]] == [
        "billiards",
        "billiards",
        "billiards",
        "centre",
    ]
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 0, 1, 2]


def test_2_7_2_1_centre_occupied_goes_to_pyramid() -> None:
    verdicts = judge_ok([match(), pot_red(), pot_red(occupied=["centre"]), pot_red(), pot_red()])
    assert [last_placement(v, "red") for v in verdicts[1:]] == [
        "billiards",
        "pyramid",
        "centre",  # potted from the pyramid spot: still a run (r = 3)
        "billiards",  # potted from the centre spot: run over
    ]
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 2, 3, 0]


def test_2_7_2_2_centre_and_pyramid_occupied_falls_back_to_billiards_and_run_continues() -> None:
    verdicts = judge_ok(
        [match(), pot_red(), pot_red(occupied=["centre", "pyramid"]), pot_red(), pot_red()]
    )
    assert [last_placement(v, "red") for v in verdicts[1:]] == [
        "billiards",
        "billiards",  # fallback under 2.7.2(2)
        "centre",  # the pot from the fallback spot leaves r unchanged: centre again
        "billiards",
    ]
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 2, 2, 0]


def test_2_7_3_red_only_run_goes_spot_spot_centre_and_repeats() -> None:
    verdicts = judge_ok(hazard_run(7))
    assert [last_placement(v, "red") for v in verdicts[1:]] == [
        "billiards",
        "centre",
        "billiards",
        "billiards",
        "centre",
        "billiards",
        "billiards",
    ]
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 2, 0, 1, 2, 0, 1]


# === 2.8 cannons ============================================================================


def test_2_8_2_seventy_cannons_called_after_the_70th() -> None:
    verdicts = judge_ok(cannon_run(71))
    for k in range(1, 72):
        verdict = verdicts[k + 1]
        assert verdict["foul"] is None, k
        assert verdict["counters"]["cannons"] == k
        assert verdict["break"] == 2 * k
        assert ("seventy_cannons" in call_codes(verdict)) is (k == 70), k
    call = next(c for c in verdicts[71]["calls"] if c["code"] == "seventy_cannons")
    assert call["en"] == "Seventy cannons!"


def test_2_8_1_75_cannons_allowed_76th_is_a_foul_cannon_limit() -> None:
    verdicts = judge_ok(cannon_run(76))
    seventy_fifth = verdicts[76]
    assert seventy_fifth["foul"] is None
    assert seventy_fifth["points"] == 2
    assert seventy_fifth["counters"]["cannons"] == 75
    assert seventy_fifth["break"] == 150
    foul = verdicts[77]
    assert_foul(foul, ["cannon_limit"], offender=P2, score={P1: 2, P2: 150})
    assert foul["break"] == 150
    assert foul["counters"] == ZERO_COUNTERS


def test_2_8_1_hazard_ends_the_cannon_series() -> None:
    verdicts = judge_ok([*cannon_run(74), pot_red(), *(cannon() for _ in range(5))])
    assert verdicts[-6]["counters"]["cannons"] == 0
    assert verdicts[-6]["counters"]["hazards"] == 1
    assert [v["counters"]["cannons"] for v in verdicts[-5:]] == [1, 2, 3, 4, 5]
    assert all(v["foul"] is None for v in verdicts[-5:])


# === 2.9 hazards ============================================================================


def test_2_9_1_hazard_stroke_may_pot_several_balls() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="red", potted=["red", "yellow", "white"])])
    assert verdict["points"] == 8
    assert verdict["counters"]["hazards"] == 1
    assert verdict["counters"]["cannons"] == 0


def test_2_9_3_ten_hazards_called_after_the_10th() -> None:
    verdicts = judge_ok(hazard_run(11))
    for k in range(1, 12):
        assert verdicts[k]["counters"]["hazards"] == k
        assert ("ten_hazards" in call_codes(verdicts[k])) is (k == 10), k
    call = next(c for c in verdicts[10]["calls"] if c["code"] == "ten_hazards")
    assert call["en"] == "Ten hazards!"


def test_2_9_2_15_hazards_allowed_16th_is_a_foul_hazard_limit() -> None:
    verdicts = judge_ok(hazard_run(16))
    assert verdicts[15]["foul"] is None
    assert verdicts[15]["counters"]["hazards"] == 15
    assert verdicts[15]["break"] == 45
    foul = verdicts[16]
    assert_foul(foul, ["hazard_limit"], offender=P1, score={P1: 45, P2: 2})
    assert foul["break"] == 45
    assert foul["counters"] == ZERO_COUNTERS


def test_2_9_2_cannon_ends_the_hazard_series() -> None:
    verdicts = judge_ok([*ivanov_again(), *(pot_red() for _ in range(15)), cannon(), pot_red()])
    assert verdicts[-2]["counters"]["hazards"] == 0
    assert verdicts[-2]["counters"]["cannons"] == 1
    assert verdicts[-1]["foul"] is None
    assert verdicts[-1]["counters"]["hazards"] == 1


def test_2_9_4_opponents_ball_placed_on_baulk_middle_after_15th_hazard() -> None:
    # In Ivanov's first visit the yellow has never been on the table.
    verdicts = judge_ok(hazard_run(15))
    assert all(last_placement(v, "yellow") is None for v in verdicts[1:15])
    fifteenth = verdicts[15]
    assert last_placement(fifteenth, "yellow") == "baulk_middle"
    assert "yellow" not in fifteenth["in_hand"]
    # once placed, a cannon is possible again
    after = last([*hazard_run(15), cannon()])
    assert after["points"] == 2
    assert after["counters"] == {"cannons": 1, "hazards": 0, "red_run": 0}


def test_2_9_4_ball_potted_on_the_15th_hazard_is_placed_too() -> None:
    lines = [
        *ivanov_again(),
        *(pot_red() for _ in range(14)),
        stroke(first_hit="red", potted=["red", "yellow"]),
    ]
    verdict = last(lines)
    assert verdict["counters"]["hazards"] == 15
    assert verdict["points"] == 5
    assert last_placement(verdict, "yellow") == "baulk_middle"
    assert "yellow" not in verdict["in_hand"]


def test_2_9_4_placed_ball_is_played_where_it_lies_by_its_owner() -> None:
    verdicts = judge_ok([*hazard_run(16), no_score()])
    assert (verdicts[16]["next"], verdicts[16]["next_from_d"]) == (P2, False)
    assert verdicts[17]["from_d"] is False


def test_2_9_4_no_placement_when_opponents_ball_is_on_the_table() -> None:
    verdict = last([*ivanov_again(), *(pot_red() for _ in range(15))])
    assert verdict["counters"]["hazards"] == 15
    assert last_placement(verdict, "yellow") is None


def test_2_9_4_baulk_middle_occupied_goes_to_right_corner_of_the_d() -> None:
    verdict = last([*hazard_run(14), pot_red(occupied=["baulk_middle"])])
    assert last_placement(verdict, "yellow") == "d_right"


# === 2.10 touching ball =====================================================================


def test_2_10_touching_ball_after_a_scoring_stroke() -> None:
    verdict = last([*ivanov_again(), cannon(touching=True)])
    assert verdict["points"] == 2
    assert "touching_ball" in call_codes(verdict)
    assert placement_set(verdict) == ["red@billiards", "yellow@centre"]
    assert_plays_on(verdict, P1, from_d=True)
    after = last([*ivanov_again(), cannon(touching=True), cannon(placed=IN_D)])
    assert after["from_d"] is True
    assert after["break"] == 4


def test_2_10_touching_ball_derived_from_positions() -> None:
    touching = {"white": [0.5, 1.0], "yellow": [0.5525, 1.0], "red": [1.2, 2.0]}
    verdict = last([*ivanov_again(), cannon(positions=touching)])
    assert "touching_ball" in call_codes(verdict)
    assert placement_set(verdict) == ["red@billiards", "yellow@centre"]
    assert_plays_on(verdict, P1, from_d=True)
    apart = {"white": [0.5, 1.0], "yellow": [0.56, 1.0], "red": [1.2, 2.0]}
    verdict = last([*ivanov_again(), cannon(positions=apart)])
    assert "touching_ball" not in call_codes(verdict)
    assert verdict["placements"] == []
    assert_plays_on(verdict, P1, from_d=False)


def test_2_10_touching_with_opponents_ball_off_the_table_spots_only_the_red() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="yellow", potted=["yellow"], touching=True)])
    assert "touching_ball" in call_codes(verdict)
    assert placement_set(verdict) == ["red@billiards"]
    assert "yellow" in verdict["in_hand"]
    assert_plays_on(verdict, P1, from_d=True)


# === 2.11 fouls =============================================================================


def caller_foul(code: str) -> None:
    """Ivanov, playing where the balls lie, pots the red; the caller reports ``code``."""
    verdict = last([*ivanov_again(), stroke(first_hit="red", potted=["red"], fouls=[code])])
    assert_foul(verdict, [code], offender=P1, score={P1: 0, P2: 2})
    assert verdict["break"] == 0
    assert verdict["counters"] == ZERO_COUNTERS


def test_2_11_1_striking_another_ball_than_own_cue_ball_is_a_foul() -> None:
    caller_foul("wrong_ball")


def test_2_11_2_striking_the_cue_ball_twice_is_a_foul() -> None:
    caller_foul("double_hit")


def test_2_11_3_striking_while_balls_move_is_a_foul() -> None:
    caller_foul("balls_moving")


def test_2_11_4_both_feet_off_the_floor_is_a_foul() -> None:
    caller_foul("feet_off_floor")


def test_2_11_5_playing_out_of_turn_is_a_foul() -> None:
    verdict = last([*ivanov_again(), stroke(striker=P2, first_hit="red", potted=["red"])])
    assert_foul(verdict, ["out_of_turn"], offender=P2, score={P1: 2, P2: 0}, visit_over=None)
    assert verdict["ball"] == "yellow"
    assert verdict["break"] == 0


def test_2_11_6_wrong_stroke_from_hand_is_a_foul() -> None:
    verdict = last([match(), pot_red(placed=[0.889, 1.0])])
    assert_foul(verdict, ["bad_from_hand"], offender=P1, score={P1: 0, P2: 2})
    reported = last([match(), foul_stroke("bad_from_hand", placed=IN_D)])
    assert_foul(reported, ["bad_from_hand"], offender=P1, score={P1: 0, P2: 2})


def test_2_11_7_in_off_from_hand_with_all_object_balls_in_baulk_is_a_foul() -> None:
    in_baulk = {"white": [0.3, 0.6], "red": [1.4, 0.5]}
    lines = [
        match(),
        stroke(first_hit="red", positions=in_baulk),
        stroke(placed=IN_D, potted=["yellow"], positions=in_baulk),
    ]
    verdict = last(lines)
    assert_foul(verdict, ["in_off_from_hand", "miss"], offender=P2, score={P1: 2, P2: 0})
    reported = last(
        [*petrov_to_play(), stroke(placed=IN_D, potted=["yellow"], fouls=["in_off_from_hand"])]
    )
    assert_foul(reported, ["in_off_from_hand", "miss"], offender=P2, exact=False)


def test_2_11_8_jump_shot_is_a_foul() -> None:
    caller_foul("jump")


def test_2_11_9_push_stroke_is_a_foul() -> None:
    caller_foul("push")


def test_2_11_10_ball_forced_off_the_table_is_a_foul() -> None:
    red = last([*ivanov_again(), stroke(first_hit="red", off_table=["red"])])
    assert_foul(red, ["off_table"], offender=P1, score={P1: 0, P2: 2})
    own = last([*ivanov_again(), stroke(first_hit="red", off_table=["white"])])
    assert_foul(own, ["off_table"], offender=P1)
    assert "white" in own["in_hand"]
    assert own["next_from_d"] is False
    opponents = last([*ivanov_again(), stroke(first_hit="yellow", off_table=["yellow"])])
    assert_foul(opponents, ["off_table"], offender=P1)
    assert "yellow" in opponents["in_hand"]
    assert opponents["next_from_d"] is True  # his own ball is off: he plays from hand


def test_2_11_11_more_than_15_hazards_is_a_foul() -> None:
    assert foul_codes(judge_ok(hazard_run(16))[16]) == ["hazard_limit"]


def test_2_11_12_more_than_75_cannons_is_a_foul() -> None:
    assert foul_codes(judge_ok(cannon_run(76))[77]) == ["cannon_limit"]


def test_2_11_13_touching_a_ball_or_marker_is_a_foul() -> None:
    caller_foul("touched_ball")


def test_2_11_14_striking_before_spotting_is_finished_is_a_foul() -> None:
    caller_foul("before_spotting")


def test_2_11_15_miss_is_a_foul() -> None:
    verdict = last([*ivanov_again(), stroke()])
    assert_foul(verdict, ["miss"], offender=P1, score={P1: 0, P2: 2})
    explicit = last([*ivanov_again(), stroke(first_hit=None)])
    assert_foul(explicit, ["miss"], offender=P1)


def test_2_13_4_baulk_line_foul_code() -> None:
    verdict = judge_ok(century(20))[21]
    assert_foul(verdict, ["baulk_line"], offender=P2)


# === 2.12 after a foul ======================================================================


def test_2_12_1_foul_without_a_stroke_ends_the_visit() -> None:
    verdicts = judge_ok([*ivanov_again(), pot_red(), stroke(struck=False, fouls=["touched_ball"])])
    verdict = verdicts[-1]
    assert_foul(verdict, ["touched_ball"], offender=P1, score={P1: 3, P2: 2})
    assert verdict["from_d"] is False
    assert verdict["break"] == 3


def test_2_12_1_striking_again_after_own_foul_is_out_of_turn() -> None:
    verdicts = judge_ok([*ivanov_again(), foul_stroke("push"), stroke(striker=P1, first_hit="red")])
    assert_foul(verdicts[3], ["push"], offender=P1, score={P1: 0, P2: 2})
    again = verdicts[4]
    assert_foul(again, ["out_of_turn"], offender=P1, score={P1: 0, P2: 4}, visit_over=None)


def test_2_12_1_struck_false_needs_a_foul_code() -> None:
    assert_error_at([*ivanov_again(), stroke(struck=False)], 4)
    assert_error_at([*ivanov_again(), stroke(struck=False, fouls=[])], 4)


def test_2_12_2_break_points_before_the_foul_stand() -> None:
    verdicts = judge_ok([match(), pot_red(), pot_red(), pot_red(fouls=["push"])])
    foul = verdicts[3]
    assert_foul(foul, ["push"], offender=P1, score={P1: 6, P2: 2})
    assert foul["break"] == 6


def test_2_12_3_penalty_is_2_even_with_several_codes() -> None:
    verdict = last([*ivanov_again(), stroke(fouls=["push", "jump"], off_table=["white"])])
    assert_foul(verdict, ["push", "jump", "miss", "off_table"], offender=P1, exact=False)
    assert verdict["foul"]["penalty"] == 2
    assert verdict["score"] == {P1: 0, P2: 2}


def test_2_12_3_options_offered_after_foul() -> None:
    verdict = last([*ivanov_again(), foul_stroke("push")])
    assert verdict["options"] == ["as_they_lie", "from_d"]
    assert (verdict["next"], verdict["next_from_d"]) == (P2, False)


def test_2_12_3_no_options_after_a_fair_stroke() -> None:
    verdicts = judge_ok([*ivanov_again(), cannon(), no_score()])
    assert verdicts[-1]["options"] == []
    assert verdicts[-2]["options"] == []


def test_2_12_3_1_choice_as_they_lie() -> None:
    verdicts = judge_ok([*ivanov_again(), foul_stroke("push"), choice("as_they_lie"), cannon()])
    chosen = verdicts[4]
    assert_subset(
        {
            "stroke": 3,
            "striker": P2,
            "ball": "yellow",
            "from_d": False,
            "points": 0,
            "scored": {},
            "foul": None,
            "score": {P1: 0, P2: 2},
            "break": 0,
            "visit_over": False,
            "next": P2,
            "next_from_d": False,
            "options": [],
            "winner": None,
        },
        chosen,
    )
    played = verdicts[5]
    assert (played["striker"], played["from_d"], played["points"]) == (P2, False, 2)


def test_2_12_3_1_red_off_the_table_is_spotted_first() -> None:
    verdict = last([*ivanov_again(), stroke(first_hit="red", potted=["red"], fouls=["push"])])
    assert last_placement(verdict, "red") == "billiards"


def test_2_12_3_2_choice_from_d_places_red_and_offenders_ball() -> None:
    verdicts = judge_ok(
        [*ivanov_again(), foul_stroke("push"), choice("from_d"), cannon(placed=IN_D)]
    )
    chosen = verdicts[4]
    assert_subset(
        {
            "stroke": 3,
            "striker": P2,
            "ball": "yellow",
            "from_d": False,
            "points": 0,
            "scored": {},
            "foul": None,
            "break": 0,
            "visit_over": False,
            "next": P2,
            "next_from_d": True,
            "options": [],
        },
        chosen,
    )
    assert placement_set(chosen) == ["red@billiards", "white@centre"]
    assert "yellow" in chosen["in_hand"]
    assert "white" not in chosen["in_hand"]
    played = verdicts[5]
    assert (played["striker"], played["from_d"], played["points"]) == (P2, True, 2)


def test_2_12_3_2_placements_listed_even_when_a_ball_already_stands_there() -> None:
    # Ivanov misses at the start: the red never left the billiards spot.
    verdict = last([match(), stroke(), choice("from_d")])
    assert placement_set(verdict) == ["red@billiards", "white@centre"]
    assert (verdict["next"], verdict["next_from_d"]) == (P2, True)


def test_2_12_3_2_option_from_d_also_when_offenders_ball_was_off_the_table() -> None:
    verdicts = judge_ok([*ivanov_again(), stroke(potted=["white"]), choice("from_d")])
    assert_foul(verdicts[3], ["miss"], offender=P1)
    assert "white" in verdicts[3]["in_hand"]
    chosen = verdicts[4]
    assert placement_set(chosen) == ["red@billiards", "white@centre"]
    assert "white" not in chosen["in_hand"]
    # the white stands on the centre spot now: a cannon is possible
    played = last(
        [*ivanov_again(), stroke(potted=["white"]), choice("from_d"), cannon(placed=IN_D)]
    )
    assert played["points"] == 2


def test_2_12_3_2_option_cannot_be_taken_back() -> None:
    lines = [*ivanov_again(), foul_stroke("push"), choice("from_d"), choice("as_they_lie")]
    assert_error_at(lines, 6)


def test_2_12_3_without_a_choice_the_balls_are_played_as_they_lie() -> None:
    verdicts = judge_ok([*ivanov_again(), foul_stroke("push"), cannon()])
    assert (verdicts[-1]["striker"], verdicts[-1]["from_d"]) == (P2, False)
    assert verdicts[-1]["points"] == 2
    assert_error_at([*ivanov_again(), foul_stroke("push"), cannon(placed=IN_D)], 5)


def test_2_12_4_uncalled_foul_did_not_happen() -> None:
    verdict = last([*ivanov_again(), pot_red()])
    assert verdict["foul"] is None
    assert verdict["points"] == 3


# === 2.13 baulk-line rule ===================================================================


def test_2_13_2_requirement_announced_at_80() -> None:
    verdicts = judge_ok(century(17))
    at_75, at_80, at_85 = verdicts[16], verdicts[17], verdicts[18]
    assert at_75["break"] == 75
    assert at_75["baulk_line"] == {"required": False, "crossed": False}
    assert "baulk_line_required" not in call_codes(at_75)
    assert at_80["break"] == 80
    assert at_80["baulk_line"] == {"required": True, "crossed": False}
    assert "baulk_line_required" in call_codes(at_80)
    assert at_85["baulk_line"] == {"required": True, "crossed": False}
    assert "baulk_line_required" not in call_codes(at_85)


def test_2_13_2_crossing_satisfies_the_window() -> None:
    verdicts = judge_ok(century(21, cross_at=(17,)))
    crossed = verdicts[18]
    assert crossed["break"] == 85
    assert crossed["baulk_line"] == {"required": False, "crossed": True}
    assert "baulk_line_crossed" in call_codes(crossed)
    call = next(c for c in crossed["calls"] if c["code"] == "baulk_line_crossed")
    assert call["en"] == "Baulk line crossed"
    for verdict in verdicts[19:21]:
        assert verdict["baulk_line"] == {"required": False, "crossed": False}
    assert verdicts[21]["foul"] is None
    assert verdicts[21]["break"] == 100
    assert verdicts[22]["break"] == 105


def test_2_13_1_in_off_does_not_satisfy_the_window() -> None:
    in_off = stroke(first_hit="red", cannon=True, potted=["yellow"], crossed_baulk=True)
    verdicts = judge_ok([*century(16), in_off, cannon_pot_red(placed=IN_D), *century_tail(2)])
    assert verdicts[18]["points"] == 5
    assert verdicts[18]["baulk_line"] == {"required": True, "crossed": False}
    assert "baulk_line_crossed" not in call_codes(verdicts[18])
    assert foul_codes(verdicts[21]) == ["baulk_line"]


def test_2_13_1_in_off_does_not_satisfy_the_window_with_positions() -> None:
    in_off = stroke(
        first_hit="red",
        cannon=True,
        potted=["yellow"],
        crossed_baulk=True,
        positions={"white": [1.4, 2.0], "red": [0.4, 2.8]},
    )
    verdicts = judge_ok([*century(16), in_off])
    assert verdicts[18]["baulk_line"] == {"required": True, "crossed": False}


def test_2_13_3_from_hand_bringing_the_ball_back_into_baulk_counts() -> None:
    in_off = stroke(first_hit="red", cannon=True, potted=["yellow"])
    lines = [
        *century(16),
        in_off,
        cannon_pot_red(placed=IN_D, crossed_baulk=True),
        *century_tail(2),
    ]
    verdicts = judge_ok(lines)
    assert verdicts[19]["from_d"] is True
    assert verdicts[19]["baulk_line"] == {"required": False, "crossed": True}
    assert verdicts[21]["foul"] is None
    assert verdicts[21]["break"] == 100


def test_2_13_4_no_crossing_by_100_is_a_foul() -> None:
    verdicts = judge_ok(century(20))
    for verdict in verdicts[17:21]:
        assert verdict["baulk_line"]["required"] is True
    foul = verdicts[21]
    assert_foul(foul, ["baulk_line"], offender=P2, score={P1: 2, P2: 95})
    assert foul["break"] == 95


def test_2_13_1_window_180_to_199_too() -> None:
    verdicts = judge_ok(century(40, cross_at=(17,)))
    for k in range(18, 36):  # 90 .. 175: no window open
        assert verdicts[k + 1]["baulk_line"]["required"] is False, k
    assert verdicts[37]["break"] == 180
    assert verdicts[37]["baulk_line"] == {"required": True, "crossed": False}
    assert "baulk_line_required" in call_codes(verdicts[37])
    assert foul_codes(verdicts[41]) == ["baulk_line"]
    assert verdicts[41]["break"] == 195
    fine = judge_ok(century(40, cross_at=(17, 37)))
    assert fine[38]["baulk_line"] == {"required": False, "crossed": True}
    assert fine[41]["foul"] is None
    assert fine[41]["break"] == 200


def test_2_13_target_100_stroke_from_95_to_100_without_crossing_is_a_foul() -> None:
    verdict = judge_ok(century(20, target=100))[21]
    assert_foul(verdict, ["baulk_line"], offender=P2, score={P1: 2, P2: 95})
    won = judge_ok(century(20, cross_at=(17,), target=100))[21]
    assert won["foul"] is None
    assert won["winner"] == P2
    assert won["score"] == {P1: 0, P2: 100}


# === decisions ==============================================================================


def test_decision_01_on_the_d_boundary_is_in_the_d() -> None:
    for placed in ([1.181, 0.737], [0.597, 0.737], [0.889, 0.445], _ARC_60):
        assert last([match(), pot_red(placed=placed)])["foul"] is None, placed
    for placed in ([1.1815, 0.737], [0.889, 0.4445], [0.889, 0.7375]):
        assert foul_codes(last([match(), pot_red(placed=placed)])) == ["bad_from_hand"], placed


def test_decision_01_ball_on_the_baulk_line_is_in_baulk() -> None:
    def petrov_in_off(red_at: list[float]) -> dict[str, Any]:
        rest = {"white": [0.3, 0.6], "red": red_at}
        return last(
            [
                match(),
                stroke(first_hit="red", positions=rest),
                stroke(placed=IN_D, potted=["yellow"], positions=rest),
            ]
        )

    assert foul_codes(petrov_in_off([1.4, 0.737])) == ["in_off_from_hand", "miss"]
    assert foul_codes(petrov_in_off([1.4, 0.75])) == ["miss"]


def test_decision_02_occupied_spot_is_within_one_ball_diameter() -> None:
    def red_spot(white_at: list[float]) -> Any:
        return last_placement(last([match(), pot_red(positions={"white": white_at})]), "red")

    assert red_spot([0.889, 3.245 - 0.0525]) == "pyramid"
    assert red_spot([0.889 + 0.03, 3.245 + 0.03]) == "pyramid"
    assert red_spot([0.889, 3.245 - 0.054]) == "billiards"


def test_decision_02_touching_is_centres_within_one_ball_diameter() -> None:
    def calls_after(yellow_at: list[float]) -> list[str]:
        rest = {"white": [0.5, 1.0], "yellow": yellow_at, "red": [1.2, 2.0]}
        return call_codes(last([*ivanov_again(), cannon(positions=rest)]))

    assert "touching_ball" in calls_after([0.5, 1.0525])
    assert "touching_ball" in calls_after([0.53, 1.04])
    assert "touching_ball" not in calls_after([0.5, 1.054])


def test_decision_03_potted_opponents_ball_stays_off_until_its_owners_visit() -> None:
    lines = [*ivanov_again(), stroke(first_hit="yellow", potted=["yellow"])]
    verdict = last(lines)
    assert verdict["in_hand"] == ["yellow"]
    assert_error_at([*lines, cannon()], 5)
    assert_error_at([*lines, stroke(first_hit="yellow")], 5)
    verdicts = judge_ok([*lines, pot_red(), no_score(), cannon()])
    assert verdicts[5]["in_hand"] == ["yellow"]
    assert (verdicts[5]["next"], verdicts[5]["next_from_d"]) == (P2, True)
    assert verdicts[6]["from_d"] is True
    assert verdicts[6]["points"] == 2
    assert verdicts[6]["in_hand"] == []


def test_decision_04_limit_counters() -> None:
    lines = [
        *ivanov_again(),
        cannon(),
        cannon(),
        pot_red(),
        pot_red(),
        cannon(),
        cannon_pot_red(),
        stroke(first_hit="yellow", potted=["white"]),
        no_score(),
    ]
    verdicts = judge_ok(lines)
    counts = [(v["counters"]["cannons"], v["counters"]["hazards"]) for v in verdicts[3:]]
    assert counts == [(1, 0), (2, 0), (0, 1), (0, 2), (1, 0), (0, 0), (0, 1), (0, 0)]


def test_decision_04_stroke_scoring_cannon_and_hazard_resets_both_limits() -> None:
    verdicts = judge_ok([*cannon_run(75), cannon_pot_red(), cannon()])
    assert verdicts[-2]["foul"] is None
    assert verdicts[-2]["points"] == 5
    assert verdicts[-2]["counters"]["cannons"] == 0
    assert verdicts[-2]["counters"]["hazards"] == 0
    assert verdicts[-1]["foul"] is None
    assert verdicts[-1]["counters"]["cannons"] == 1


def test_decision_04_visit_end_resets_the_counters() -> None:
    verdicts = judge_ok([*ivanov_again(), cannon(), cannon(), no_score(), cannon()])
    assert verdicts[5]["counters"] == ZERO_COUNTERS
    assert verdicts[6]["counters"]["cannons"] == 1


def test_decision_05_red_run_counter_reset_by_other_scores_and_touches() -> None:
    # From ivanov_again the red is off its spot: the first pot does not count.
    lines = [
        *ivanov_again(),
        pot_red(),
        cannon(first_hit="yellow"),
        pot_red(),
        pot_red(),
        pot_red(),
    ]
    verdicts = judge_ok(lines)
    assert [v["counters"]["red_run"] for v in verdicts[3:]] == [0, 0, 0, 1, 2]
    assert [last_placement(v, "red") for v in verdicts[3:]] == [
        "billiards",
        None,
        "billiards",  # the cannon touched the red: it left its spot
        "billiards",
        "centre",
    ]


def test_decision_05_red_within_1mm_of_its_spot_still_stands_on_it() -> None:
    def runs(red_at: list[float]) -> list[int]:
        rest = {"white": [0.3, 1.2], "yellow": [1.4, 2.2], "red": red_at}
        lines = [*ivanov_again(), pot_red(), cannon(first_hit="yellow", positions=rest), pot_red()]
        return [v["counters"]["red_run"] for v in judge_ok([*lines, pot_red()])[5:]]

    assert runs([0.889, 3.2455]) == [1, 2]
    assert runs([0.889, 3.25]) == [0, 1]


def test_decision_05_foul_and_visit_end_reset_the_red_run() -> None:
    foul = judge_ok([match(), pot_red(), pot_red(fouls=["push"])])[2]
    assert foul["counters"]["red_run"] == 0
    assert last_placement(foul, "red") == "billiards"
    ended = judge_ok([match(), pot_red(), no_score()])[2]
    assert ended["counters"]["red_run"] == 0


def test_decision_06_in_off_values() -> None:
    assert scored_parts(last([*ivanov_again(), stroke(first_hit="red", potted=["white"])])) == {
        "in_off_red": 3
    }
    assert scored_parts(last([*ivanov_again(), stroke(first_hit="yellow", potted=["white"])])) == {
        "in_off_yellow": 2
    }
    assert scored_parts(
        last([*ivanov_again(), stroke(first_hit="both", cannon=True, potted=["white"])])
    ) == {"cannon": 2, "in_off_yellow": 2}


def test_decision_06_cue_ball_falling_without_touching_is_a_miss() -> None:
    verdict = last([*ivanov_again(), stroke(potted=["white"])])
    assert_foul(verdict, ["miss"], offender=P1, score={P1: 0, P2: 2})
    assert "white" in verdict["in_hand"]


def test_decision_07_legal_stroke_from_hand() -> None:
    verdict = last([*petrov_to_play(), cannon_pot_red(placed=[0.95, 0.6])])
    assert verdict["foul"] is None
    assert verdict["from_d"] is True
    assert verdict["points"] == 5


def test_decision_08_no_choice_means_option_1_own_ball_off_the_table_from_hand() -> None:
    verdicts = judge_ok([match(), stroke(), pot_red(placed=IN_D)])
    assert (verdicts[1]["next"], verdicts[1]["next_from_d"]) == (P2, True)
    assert verdicts[2]["striker"] == P2
    assert verdicts[2]["from_d"] is True
    assert verdicts[2]["points"] == 3


def test_decision_08_option_2_when_offenders_ball_off_the_table() -> None:
    verdict = last([match(), stroke(potted=["white"]), choice("from_d")])
    assert placement_set(verdict) == ["red@billiards", "white@centre"]
    assert "white" not in verdict["in_hand"]


def test_decision_09_touching_ball_at_the_start_of_a_visit() -> None:
    red_on_yellow = {"white": [0.3, 2.0], "yellow": [1.0, 1.5], "red": [1.0, 1.5525]}
    verdict = last([*ivanov_again(), stroke(first_hit="red", positions=red_on_yellow)])
    assert verdict["visit_over"] is True
    assert (verdict["next"], verdict["next_from_d"]) == (P2, True)
    assert "touching_ball" in call_codes(verdict)
    assert placement_set(verdict) == ["red@billiards", "white@centre"]


def test_decision_09_red_spotted_in_the_same_stroke_ends_on_the_billiards_spot() -> None:
    lines = [*ivanov_again(), pot_red(), pot_red(), pot_red(touching=True)]
    verdicts = judge_ok(lines)
    # without the touching ball this third pot (r = 2) would send the red to the centre spot
    assert [v["counters"]["red_run"] for v in verdicts[3:6]] == [0, 1, 2]
    verdict = verdicts[5]
    assert last_placement(verdict, "red") == "billiards"
    assert last_placement(verdict, "yellow") == "centre"
    assert "touching_ball" in call_codes(verdict)
    assert_plays_on(verdict, P1, from_d=True)


def test_decision_09_touching_ball_red_pot_counts_in_red_run() -> None:
    # decision 9's example (docs/rules.md): the red potted from the billiards spot with r = 0,
    # leaving a touching ball: r = 1 and the red on the billiards spot (2.10); potted again at
    # once: r = 2, and the red goes to the centre spot (2.7.2). From ivanov_again the red is off
    # its spot, so the first pot leaves r = 0 and puts it on the billiards spot.
    white_on_yellow = {"white": [1.2, 2.0], "yellow": [1.2, 2.0525]}
    lines = [*ivanov_again(), pot_red(), pot_red(positions=white_on_yellow), pot_red(placed=IN_D)]
    verdicts = judge_ok(lines)
    spotted, touching, again = verdicts[3:6]
    assert spotted["counters"]["red_run"] == 0
    assert last_placement(spotted, "red") == "billiards"
    assert touching["counters"]["red_run"] == 1
    assert "touching_ball" in call_codes(touching)
    assert placement_set(touching) == ["red@billiards", "yellow@centre"]
    assert_plays_on(touching, P1, from_d=True)
    assert again["counters"]["red_run"] == 2
    assert placement_set(again) == ["red@centre"]


def test_decision_09_touching_ball_red_pot_from_the_fallback_spot_leaves_r_unchanged() -> None:
    # "exactly as decision 5 says": a red that fell back to the billiards spot under
    # 2.7.2(2) and is potted from there leaves r unchanged, touching ball or not.
    full = ["centre", "pyramid"]
    lines = [match(), pot_red(), pot_red(occupied=full), pot_red(touching=True)]
    verdicts = judge_ok(lines)
    assert [v["counters"]["red_run"] for v in verdicts[1:]] == [1, 2, 2]
    assert [last_placement(v, "red") for v in verdicts[1:]] == ["billiards"] * 3
    assert "touching_ball" in call_codes(verdicts[3])


def test_decision_10_crossing_started_before_the_window_does_not_count() -> None:
    verdicts = judge_ok(century(20, cross_at=(16,)))
    assert verdicts[17]["break"] == 80
    assert verdicts[17]["baulk_line"] == {"required": True, "crossed": False}
    assert foul_codes(verdicts[21]) == ["baulk_line"]


def test_decision_10_penalty_points_never_count_towards_a_break() -> None:
    verdicts = judge_ok([match(), stroke(), pot_red(placed=IN_D)])
    assert verdicts[2]["score"] == {P1: 0, P2: 5}
    assert verdicts[2]["break"] == 3


def test_decision_11_baulk_middle_and_right_corner_occupied_goes_to_left_corner() -> None:
    verdict = last([*hazard_run(14), pot_red(occupied=["baulk_middle", "d_right"])])
    assert last_placement(verdict, "yellow") == "d_left"


def test_decision_11_occupied_corners_from_positions() -> None:
    fifteenth = stroke(
        first_hit="red",
        potted=["yellow"],
        positions={"white": [0.889, 0.737], "red": [1.181, 0.737]},
    )
    verdict = last([*ivanov_again(), *(pot_red() for _ in range(14)), fifteenth])
    assert verdict["counters"]["hazards"] == 15
    assert last_placement(verdict, "yellow") == "d_left"
    only_middle = stroke(
        first_hit="red",
        potted=["yellow"],
        positions={"white": [0.889, 0.737], "red": [1.4, 2.0]},
    )
    verdict = last([*ivanov_again(), *(pot_red() for _ in range(14)), only_middle])
    assert last_placement(verdict, "yellow") == "d_right"


def test_decision_12_penalty_points_can_end_the_game() -> None:
    verdict = last([match(target=2), stroke()])
    assert verdict["score"] == {P1: 0, P2: 2}
    assert verdict["winner"] == P2
    assert verdict["next"] is None
    assert verdict["visit_over"] is True
    assert verdict["options"] == []
    assert foul_codes(verdict) == ["miss"]


def test_decision_12_stroke_past_the_target_is_scored_in_full() -> None:
    verdict = last(
        [
            match(target=4),
            no_score(),
            stroke(first_hit="red", cannon=True, potted=["red", "yellow"]),
        ]
    )
    assert verdict["score"] == {P1: 0, P2: 8}
    assert verdict["winner"] == P2


def test_decision_12_lines_after_the_end_are_errors() -> None:
    assert_error_at([match(target=3), pot_red(), pot_red()], 3)
    assert_error_at([match(target=2), stroke(), choice("from_d")], 3)
    assert_error_at([match(target=3), pot_red(), match(target=3)], 3)


def test_decision_12_everything_reported_on_the_last_line() -> None:
    verdict = last([match(target=3), pot_red()])
    assert verdict["placements"] == [{"ball": "red", "at": "billiards"}]
    assert verdict["counters"] == {"cannons": 0, "hazards": 1, "red_run": 1}


def test_decision_13_calls_have_code_and_texts() -> None:
    calls: dict[str, dict[str, Any]] = {}
    runs = [
        cannon_run(70),
        hazard_run(10),
        [*ivanov_again(), cannon(touching=True)],
        century(17, cross_at=(17,)),
        [*ivanov_again(), stroke()],
    ]
    for lines in runs:
        for verdict in judge_ok(lines):
            for call in verdict["calls"]:
                calls.setdefault(call["code"], call)
    assert set(CALL_EN) <= set(calls)
    for code, call in calls.items():
        if code in CALL_EN:
            assert call["en"] == CALL_EN[code]
        assert isinstance(call["en"], str)
        assert call["en"].strip()
        assert isinstance(call["ru"], str)
        assert call["ru"].strip()


def test_decision_13_foul_is_called() -> None:
    verdict = last([*ivanov_again(), foul_stroke("jump")])
    assert call_codes(verdict) == ["foul"]


def test_decision_14_order_taken_as_given() -> None:
    verdicts = judge_ok([match(players=["Petrov", "Ivanov"]), no_score()])
    assert verdicts[0]["next"] == "Petrov"
    assert (verdicts[1]["striker"], verdicts[1]["ball"]) == ("Petrov", "white")
    assert verdicts[1]["next"] == "Ivanov"


def test_decision_15_out_of_turn_gives_the_player_to_play_a_new_visit() -> None:
    lines = [*ivanov_again(), pot_red(), stroke(striker=P2, first_hit="red"), pot_red()]
    verdicts = judge_ok(lines)
    foul = verdicts[4]
    assert_foul(foul, ["out_of_turn"], offender=P2, score={P1: 5, P2: 0}, visit_over=None)
    assert foul["break"] == 0
    after = verdicts[5]
    assert after["striker"] == P1
    assert after["break"] == 3  # a new visit: the earlier break of 3 does not continue


def test_decision_15_limits_judged_only_without_another_foul() -> None:
    cannons = judge_ok([*cannon_run(75), cannon(fouls=["push"])])[-1]
    assert foul_codes(cannons) == ["push"]
    hazards = judge_ok([*hazard_run(15), pot_red(fouls=["jump"])])[-1]
    assert foul_codes(hazards) == ["jump"]
    baulk = judge_ok([*century(19), cannon_pot_red(fouls=["double_hit"])])[-1]
    assert foul_codes(baulk) == ["double_hit"]
