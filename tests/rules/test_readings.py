"""The referee's readings beyond the decisions (docs/rules.md), one test each, through the
rules API. Numbers in the names are those of docs/rules.md's list."""

from __future__ import annotations

import dataclasses

import pytest

from onered import rules
from onered.rules import BOTH, Ball, CallCode, FoulCode, Match, Option, Spot, Stroke
from onered.table import BALL_DIAMETER, BAULK_Y, touching
from onered.texts import CALLS, FOULS, OPTIONS, SCORES, Lang

D = (0.95, 0.70)
MATCH = Match(target=1000, players=("Ivanov", "Petrov"))


def play(*items: Stroke | Option) -> tuple[rules.GameState, list[rules.Verdict]]:
    state = rules.start(MATCH)
    verdicts = []
    for item in items:
        if isinstance(item, Option):
            state, verdict = rules.choose(state, item)
        else:
            state, verdict = rules.judge(state, item)
        verdicts.append(verdict)
    return state, verdicts


def pot_red(**kw: object) -> Stroke:
    return Stroke(first_hit=Ball.RED, potted=(Ball.RED,), **kw)  # type: ignore[arg-type]


def test_reading_01_touching_ball_placement_is_not_a_fallback_of_2_7_2_2() -> None:
    # r = 1, then r = 2 with the centre and pyramid spots said occupied: the red falls back
    # to the billiards spot (2.7.2(2)). Potted from there leaving a touching ball: r stays 2
    # (decisions 5 and 9) and 2.10 puts the red on the billiards spot. That placement is
    # 2.10's, not a fallback: the next pot from it counts (r = 3, red to the centre spot).
    full = frozenset({Spot.CENTRE, Spot.PYRAMID})
    _, v = play(
        pot_red(placed=D),
        pot_red(occupied=full),
        pot_red(touching=True),
        pot_red(placed=D),
    )
    assert [x.counters.red_run for x in v] == [1, 2, 2, 3]
    assert [(p.ball, p.at) for p in v[1].placements] == [(Ball.RED, Spot.BILLIARDS)]
    assert CallCode.TOUCHING_BALL in v[2].calls
    assert [(p.ball, p.at) for p in v[2].placements] == [(Ball.RED, Spot.BILLIARDS)]
    assert [(p.ball, p.at) for p in v[3].placements] == [(Ball.RED, Spot.CENTRE)]


def test_reading_02_touching_without_positions_after_no_score_is_ignored() -> None:
    _, v = play(Stroke(placed=D, first_hit=Ball.RED, touching=True))
    assert v[0].visit_over
    assert v[0].placements == ()
    assert v[0].calls == ()


def test_reading_03_red_left_its_spot_only_when_the_strikers_ball_touched_it() -> None:
    # Petrov pots the red (spotted on the billiards spot), then goes in-off the white without
    # touching the red: it still stands on its spot, so his next red pot starts a run (r = 1).
    _, v = play(
        Stroke(placed=D, first_hit=Ball.RED),  # Ivanov: no score
        pot_red(placed=D),  # Petrov: the red had been touched, r = 0
        Stroke(first_hit=Ball.WHITE, potted=(Ball.YELLOW,)),  # in-off the white
        pot_red(placed=D),
    )
    assert [x.counters.red_run for x in v[1:]] == [0, 0, 1]
    _, v = play(
        Stroke(placed=D, first_hit=Ball.RED),
        pot_red(placed=D),
        Stroke(first_hit=Ball.RED, potted=(Ball.YELLOW,)),  # in-off the red: red touched
        pot_red(placed=D),
    )
    assert [x.counters.red_run for x in v[1:]] == [0, 0, 0]


def test_reading_04_red_only_pot_off_the_spots_resets_the_run() -> None:
    # After an in-off the red no longer stands on a spot: potting it alone starts no run.
    _, v = play(Stroke(placed=D, first_hit=Ball.RED, potted=(Ball.WHITE,)), pot_red(placed=D))
    assert v[1].scored == ((rules.ScoreKind.POT_RED, 3),)
    assert v[1].counters.red_run == 0
    assert [(p.ball, p.at) for p in v[1].placements] == [(Ball.RED, Spot.BILLIARDS)]


def test_reading_06_all_red_spots_said_occupied_uses_the_last_spot() -> None:
    occupied = frozenset({Spot.BILLIARDS, Spot.PYRAMID, Spot.CENTRE})
    _, v = play(pot_red(placed=D, occupied=occupied))
    assert [(p.ball, p.at) for p in v[0].placements] == [(Ball.RED, Spot.CENTRE)]


def test_reading_07_free_point_of_the_baulk_line_nearest_the_middle() -> None:
    # 15 hazards in Ivanov's first visit; the yellow must come in, but the caller says the
    # middle and both corners are occupied: it goes to the nearest free point, right side first.
    strokes = [Stroke(placed=D, first_hit=Ball.RED, potted=(Ball.WHITE,)) for _ in range(14)]
    named = frozenset({Spot.BAULK_MIDDLE, Spot.D_RIGHT, Spot.D_LEFT})
    last = Stroke(placed=D, first_hit=Ball.RED, potted=(Ball.WHITE,), occupied=named)
    state, v = play(*strokes, last)
    (placement,) = v[-1].placements
    assert placement.ball is Ball.YELLOW
    x, y = placement.at  # type: ignore[misc]
    assert y == BAULK_Y
    assert x == pytest.approx(0.889 + BALL_DIAMETER, abs=1e-5)
    assert not touching((x, y), Spot.BAULK_MIDDLE.point)
    assert state.table[Ball.YELLOW] == (x, y)


def test_reading_09_crossing_on_the_stroke_entering_the_window_does_not_count() -> None:
    # Petrov makes 39 cannons (78), then a red pot with a crossing: 78 -> 81. The stroke did
    # not start in the window, so the requirement is announced and still open.
    strokes = [Stroke(placed=D, first_hit=Ball.RED)]  # Ivanov: no score
    strokes.append(Stroke(placed=D, first_hit=Ball.RED, cannon=True))
    strokes += [Stroke(first_hit=Ball.RED, cannon=True) for _ in range(38)]
    strokes.append(pot_red(crossed_baulk=True))
    _, v = play(*strokes)
    assert v[-2].break_ == 78
    assert v[-1].break_ == 81
    assert not v[-1].baulk_crossed
    assert v[-1].baulk_required
    assert CallCode.BAULK_LINE_REQUIRED in v[-1].calls
    assert CallCode.BAULK_LINE_CROSSED not in v[-1].calls


def test_reading_10_out_of_turn_with_ball_in_hand_plays_from_hand() -> None:
    _, v = play(Stroke(striker="Petrov", placed=D, first_hit=Ball.RED))
    assert v[0].striker == "Petrov"
    assert v[0].from_d
    assert v[0].foul is not None
    assert v[0].foul.codes == (FoulCode.OUT_OF_TURN,)
    assert v[0].next == "Ivanov"
    assert v[0].break_ == 0


def test_reading_11_foul_without_a_stroke_leaves_the_ball_in_hand() -> None:
    state, v = play(Stroke(struck=False, fouls=frozenset({FoulCode.TOUCHED_BALL})))
    assert not v[0].from_d
    assert Ball.WHITE in v[0].in_hand
    assert Ball.WHITE not in state.table


def test_reading_12_touching_ball_lists_the_red_even_on_its_spot() -> None:
    _, v = play(
        Stroke(placed=D, first_hit=Ball.RED, potted=(Ball.WHITE,)),
        pot_red(placed=D, touching=True),
    )
    assert [(p.ball, p.at) for p in v[1].placements] == [(Ball.RED, Spot.BILLIARDS)]


def test_reading_13_foul_codes_in_the_protocols_order() -> None:
    fouls = frozenset({FoulCode.PUSH, FoulCode.WRONG_BALL, FoulCode.JUMP})
    _, v = play(Stroke(placed=(2.0, 2.0), first_hit=None, fouls=fouls))
    assert v[0].foul is not None
    assert v[0].foul.codes == (
        FoulCode.WRONG_BALL,
        FoulCode.BAD_FROM_HAND,
        FoulCode.JUMP,
        FoulCode.PUSH,
        FoulCode.MISS,
    )
    assert v[0].foul.penalty == 2


def test_in_off_with_simultaneous_contact_is_named_by_the_opponents_ball() -> None:
    _, v = play(
        Stroke(placed=D, first_hit=Ball.RED),
        Stroke(placed=D, first_hit=BOTH, cannon=True, potted=(Ball.YELLOW,)),
    )
    assert dict(v[1].scored) == {rules.ScoreKind.CANNON: 2, rules.ScoreKind.IN_OFF_WHITE: 2}


def test_values_are_frozen() -> None:
    state, v = play(pot_red(placed=D))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.score = (9, 9)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v[0].points = 9  # type: ignore[misc]
    assert dataclasses.replace(state, score=(1, 2)).score == (1, 2)


def test_every_code_has_russian_and_english_text() -> None:
    for table, codes in ((CALLS, CallCode), (FOULS, FoulCode), (OPTIONS, Option)):
        for code in codes:  # type: ignore[attr-defined]
            assert table[code][Lang.RU]
            assert table[code][Lang.EN]
    for kind in rules.ScoreKind:
        assert SCORES[kind][Lang.RU]
        assert SCORES[kind][Lang.EN]
    assert CALLS[CallCode.SEVENTY_CANNONS][Lang.RU] == "Семьдесят карамболей!"


def test_bad_match_is_an_error_naming_the_field() -> None:
    with pytest.raises(rules.InvalidMatchError, match="target"):
        rules.start(Match(target=0, players=("a", "b")))
    with pytest.raises(rules.InvalidMatchError, match="players"):
        rules.start(Match(target=5, players=("a", "a")))
