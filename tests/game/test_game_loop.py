"""The game loop applies the referee's rulings to the table: placements, touching balls,
foul options, 2.9.4, the opening, the end — on constructed positions and scripted strokes."""

from __future__ import annotations

import math

import pytest

from game_support import (
    ANY,
    IN_D,
    P1,
    P2,
    R,
    Scripted,
    Step,
    W,
    Y,
    baulk,
    cushion,
    game_at,
    hit,
    pocket,
    real_game_at,
    state_at,
)
from onered.game import Action, Game, IllegalActionError, IllegalPlacementError
from onered.physics.types import Strike
from onered.rules import CallCode, Counters, FoulCode, Match, Option, ScoreKind, Spot
from onered.table import BALL_DIAMETER

MID = {W: (0.5, 1.2), Y: (1.2, 2.0), R: (1.0, 2.6)}


def test_the_opening_red_on_its_spot_starter_in_hand_second_ball_absent() -> None:
    game = Game(Match(target=100, players=(P1, P2)), Scripted())
    assert game.balls == {R: Spot.BILLIARDS.point}
    assert game.position.in_hand
    assert game.position.cue_ball is W
    assert game.to_play == P1
    assert Y not in game.balls


def test_second_ball_comes_in_from_hand_at_its_owners_first_visit() -> None:
    game = Game(Match(target=100, players=(P1, P2)), Scripted(Step((hit(0.5, "white", "red"),))))
    game.play(Action(ANY, placed=IN_D))
    assert game.to_play == P2
    assert game.position.in_hand
    assert game.position.cue_ball is Y
    assert set(game.balls) == {W, R}


def test_a_potted_red_goes_back_on_the_billiards_spot() -> None:
    step = Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"white": (0.9, 2.2), "red": None})
    game = game_at(MID, step)
    rec = game.play(Action(ANY))
    assert rec.verdict.scored == ((ScoreKind.POT_RED, 3),)
    assert game.balls[R] == Spot.BILLIARDS.point
    assert game.balls[W] == (0.9, 2.2)
    assert rec.balls_after == game.balls
    # the referee was told every rest position, so its table is the physical one
    assert dict(game.state.table) == dict(game.balls)


def test_a_potted_red_goes_to_the_pyramid_spot_when_the_billiards_spot_is_occupied() -> None:
    bx, by = Spot.BILLIARDS.point
    balls = {W: (0.5, 1.2), Y: (bx + 0.03, by), R: (1.0, 2.6)}
    step = Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None})
    game = game_at(balls, step)
    game.play(Action(ANY))
    assert game.balls[R] == Spot.PYRAMID.point


def test_an_in_off_takes_the_cue_ball_off_the_table_and_the_next_stroke_needs_a_place() -> None:
    step = Step((hit(0.5, "white", "red"), pocket(1.0, "white", "middle_right")), {"white": None})
    game = game_at(MID, step, Step((hit(0.5, "white", "red"),)))
    rec = game.play(Action(ANY))
    assert rec.verdict.scored == ((ScoreKind.IN_OFF_RED, 3),)
    assert W not in game.balls
    assert game.position.in_hand
    with pytest.raises(IllegalPlacementError, match="in hand; place it in the D"):
        game.play(Action(ANY))
    rec = game.play(Action(ANY, placed=IN_D))
    assert rec.before[W] == IN_D
    assert rec.verdict.from_d


def test_touching_ball_after_a_score_red_on_its_spot_other_on_the_centre_striker_in_hand() -> None:
    red = (1.0, 2.6)
    touching = (1.0, 2.6 - BALL_DIAMETER)  # the white comes to rest against the red
    step = Step((hit(0.3, "white", "yellow"), hit(0.8, "white", "red")), {"white": touching})
    game = game_at(MID, step)
    rec = game.play(Action(ANY))
    assert rec.verdict.scored == ((ScoreKind.CANNON, 2),)
    assert CallCode.TOUCHING_BALL in rec.verdict.calls
    assert W not in game.balls
    assert game.balls == {Y: Spot.CENTRE.point, R: Spot.BILLIARDS.point}
    assert red != game.balls[R]


def test_incoming_ball_touching_at_the_start_of_a_visit_is_taken_in_hand() -> None:
    balls = {W: (0.5, 1.2), Y: (1.0, 2.6 - BALL_DIAMETER), R: (1.0, 2.6)}
    game = game_at(balls, Step((hit(0.5, "white", "red"),), {"white": (0.6, 2.0)}))
    rec = game.play(Action(ANY))  # no score: the visit ends, the yellow touches the red
    assert rec.verdict.visit_over
    assert CallCode.TOUCHING_BALL in rec.verdict.calls
    assert game.to_play == P2
    assert game.position.in_hand
    assert game.balls == {W: Spot.CENTRE.point, R: Spot.BILLIARDS.point}


def test_after_a_foul_the_incoming_player_may_play_from_the_d() -> None:
    game = game_at(MID, Step((), {"white": (0.7, 2.9)}))  # a miss
    rec = game.play(Action(ANY))
    assert rec.verdict.foul is not None
    assert FoulCode.MISS in rec.verdict.foul.codes
    assert game.state.choice_pending
    assert game.to_play == P2
    options = game.option_positions()
    assert options[Option.AS_THEY_LIE].balls == game.balls
    assert options[Option.FROM_D].balls == {W: Spot.CENTRE.point, R: Spot.BILLIARDS.point}
    assert options[Option.FROM_D].in_hand
    choice = game.choose(Option.FROM_D)
    assert choice.chooser == P2
    assert choice.option is Option.FROM_D
    assert game.balls == {W: Spot.CENTRE.point, R: Spot.BILLIARDS.point}
    assert game.position.in_hand
    assert not game.state.choice_pending
    with pytest.raises(IllegalActionError, match="no foul option is pending"):
        game.choose(Option.AS_THEY_LIE)


def test_after_a_foul_playing_as_they_lie_leaves_the_balls() -> None:
    game = game_at(MID, Step((), {"white": (0.7, 2.9)}))
    game.play(Action(ANY))
    before = game.balls
    game.choose(Option.AS_THEY_LIE)
    assert game.balls == before
    assert not game.position.in_hand


def test_2_9_4_after_the_fifteenth_hazard_the_absent_ball_goes_on_the_baulk_line() -> None:
    balls = {W: (0.5, 1.2), R: (1.0, 2.6)}  # the yellow has not come in yet
    step = Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None})
    game = game_at(balls, step, counters=Counters(hazards=14), break_=42, score=(42, 0))
    rec = game.play(Action(ANY))
    assert rec.verdict.counters.hazards == 15
    assert game.balls[Y] == Spot.BAULK_MIDDLE.point
    assert game.balls[R] == Spot.BILLIARDS.point


def test_2_9_4_with_the_middle_of_the_baulk_line_occupied_the_right_corner_of_the_d() -> None:
    balls = {W: (0.5, 1.2), R: (1.0, 2.6)}
    near_middle = (0.889, 0.70)
    step = Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None, "white": near_middle})
    game = game_at(balls, step, counters=Counters(hazards=14), break_=42, score=(42, 0))
    game.play(Action(ANY))
    assert game.balls[Y] == Spot.D_RIGHT.point


def test_the_game_ends_at_the_target_and_refuses_more_strokes() -> None:
    step = Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None})
    game = game_at(MID, step, score=(28, 5), target=30)
    rec = game.play(Action(ANY))
    assert game.over
    assert game.winner == P1
    assert rec.verdict.winner == P1
    with pytest.raises(IllegalActionError, match="the game is over: Ivanov has won"):
        game.play(Action(ANY))


@pytest.mark.parametrize(
    ("placed", "message"),
    [
        ((0.889, 0.80), "outside the D"),
        ((0.30, 0.60), "outside the D"),
        ((0.889, 0.60 + BALL_DIAMETER / 2), "touches the yellow"),
        ((math.nan, 0.6), "finite"),
    ],
)
def test_illegal_placements_are_refused_with_what_is_wrong(
    placed: tuple[float, float], message: str
) -> None:
    balls = {Y: (0.889, 0.60), R: (1.0, 2.6)}
    game = game_at(balls, Step())
    assert game.position.in_hand
    assert not game.legal_placement(placed)
    with pytest.raises(IllegalPlacementError, match=message):
        game.play(Action(ANY, placed=placed))
    assert game.entries == ()
    assert game.balls == balls


def test_a_placement_for_a_ball_on_the_table_is_refused() -> None:
    game = game_at(MID, Step())
    with pytest.raises(IllegalPlacementError, match="on the table: it is played where it lies"):
        game.play(Action(ANY, placed=IN_D))


def test_placing_on_the_line_of_the_d_is_legal() -> None:
    game = game_at({R: (1.0, 2.6)}, Step())
    assert game.legal_placement((0.889 + 0.292, 0.737))
    assert game.legal_placement((0.889, 0.737 - 0.292))


def test_a_strike_the_table_refuses_is_an_illegal_action() -> None:
    game = real_game_at(MID)
    with pytest.raises(IllegalActionError, match=r"strike: .*speed"):
        game.play(Action(Strike(speed=50.0, aim=90.0)))
    assert game.entries == ()


def test_resume_needs_the_referees_balls_and_no_overlaps() -> None:
    with pytest.raises(IllegalActionError, match="must be the balls the referee has"):
        Game.resume(state_at(MID), {W: (0.5, 1.2)}, Scripted())
    overlapping = {W: (0.5, 1.2), Y: (0.51, 1.2), R: (1.0, 2.6)}
    with pytest.raises(IllegalActionError, match="overlaps"):
        Game.resume(state_at(overlapping), overlapping, Scripted())


def test_a_stroke_from_hand_not_played_out_of_baulk_is_a_foul() -> None:
    balls = {Y: (1.3, 0.5), R: (1.0, 2.6)}  # the yellow is in baulk
    game = game_at(balls, Step((hit(0.4, "white", "yellow"),), {"white": (1.1, 0.55)}))
    rec = game.play(Action(ANY, placed=IN_D))
    assert rec.stroke.fouls == frozenset({FoulCode.BAD_FROM_HAND})
    assert rec.verdict.foul is not None
    assert rec.verdict.foul.codes == (FoulCode.BAD_FROM_HAND,)


def test_from_hand_back_into_baulk_before_touching_anything_out_of_it_is_a_foul() -> None:
    balls = {Y: (1.3, 1.5), R: (1.0, 2.6)}
    events = (
        baulk(0.1, "white", "out"),
        baulk(0.9, "white", "in"),
        cushion(1.2, "white", "bottom"),
        hit(2.0, "white", "red"),
    )
    game = game_at(balls, Step(events, {"white": (1.0, 2.5)}))
    rec = game.play(Action(ANY, placed=IN_D))
    assert rec.stroke.fouls == frozenset({FoulCode.BAD_FROM_HAND})


def test_a_real_pot_of_the_red_is_scored_and_the_red_spotted() -> None:
    # the red 0.3 m from the top-right pocket, the white straight behind it
    pocket_mouth = (1.778 - 0.0304, 3.569 - 0.0304)
    red = (pocket_mouth[0] - 0.3 / math.sqrt(2), pocket_mouth[1] - 0.3 / math.sqrt(2))
    white = (red[0] - 0.5 / math.sqrt(2), red[1] - 0.5 / math.sqrt(2))
    game = real_game_at({W: white, Y: (0.4, 1.0), R: red})
    rec = game.play(Action(Strike(speed=1.6, aim=45.0, height=-0.2)))
    assert ScoreKind.POT_RED in dict(rec.verdict.scored)
    assert game.balls[R] == Spot.BILLIARDS.point
    assert dict(game.state.table) == dict(game.balls)
