"""A stroke or foul option played on the simulated table is judged once, by the game loop,
and kept as judged (``Session.keep``): the same verdicts and states as the referee gives
judging every line again from scratch (what the session did before: judge the line the
loop had judged), whatever the strokes; a plan made before the game changed is judged
again, not kept as it was."""

from __future__ import annotations

import math
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onered.game import Action, PhysicsSimulator
from onered.game.session import Session, SessionError
from onered.physics.types import Strike
from onered.players.turn import plan_human
from onered.rules import Match, Option, Verdict
from onered.table import D_CENTRE, D_RADIUS, Point

STRIKES = st.builds(
    Strike,
    speed=st.floats(0.3, 6.0),
    aim=st.floats(0.0, 360.0),
    side=st.floats(-0.4, 0.4),
    height=st.floats(-0.5, 0.5),
)
#: A place in the D by its angle (0 to 180 degrees, towards the bottom cushion) and
#: distance from the D's centre (a fraction of its radius).
PLACES = st.tuples(st.floats(0.0, 180.0), st.floats(0.0, 0.95))
STEPS = st.lists(
    st.tuples(STRIKES, PLACES, st.sampled_from(Option), st.booleans()), min_size=1, max_size=14
)


def _place(game: Session, where: tuple[float, float]) -> Point | None:
    """A legal place in the D near ``where`` for the cue ball in hand (``None``: not in
    hand)."""
    loop = game.loop()
    if loop.state.match.balls[loop.state.to_play] in loop.balls:
        return None
    angle, k = where
    for shrink in (1.0, 0.5, 0.25, 0.0):
        a = math.radians(angle + 180.0)
        p = (
            D_CENTRE[0] + D_RADIUS * k * shrink * math.cos(a),
            D_CENTRE[1] + D_RADIUS * k * shrink * math.sin(a),
        )
        if loop.legal_placement(p):
            return p
    for x in (0.7, 0.8, 0.9, 1.0, 1.1):
        if loop.legal_placement((x, 0.6)):
            return (x, 0.6)
    return None


def _game() -> Session:
    return Session.new(Match(target=12, players=("Ann", "Bob")), simulator=PhysicsSimulator())


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(steps=STEPS)
def test_a_line_kept_as_judged_equals_judging_it_from_scratch(
    steps: list[tuple[Strike, tuple[float, float], Option, bool]],
) -> None:
    game = _game()
    judged_again = _game()  # the double path: every line the loop judged, judged again
    for strike, where, option, choose in steps:
        if game.over:
            break
        if game.state.choice_pending and choose:
            planned = game.plan_option(option)
        else:
            try:
                planned = game.plan_play(Action(strike, placed=_place(game, where))).ruled
            except SessionError:
                continue  # a strike the table refuses: nothing is kept
        kept = game.keep(planned)
        again = judged_again.append(planned.line)
        assert kept.verdict == again.verdict
        assert game.state == judged_again.state
    replayed = Session.from_lines(game.texts())
    assert [e.verdict for e in replayed.entries] == [e.verdict for e in game.entries]
    assert replayed.state == game.state


def test_a_plan_is_kept_as_judged_by_an_equal_session_and_judged_again_after_a_change() -> None:
    game = _game()
    played = plan_human(game, Action(Strike(2.0, 80.0), placed=(0.95, 0.65)))
    # the web keeps a plan in the session read back from the store: equal, not the same
    stored = Session.from_lines(game.texts())
    assert stored.keep(played.ruled).verdict == played.ruled.verdict
    assert stored.state == played.ruled.after
    # a plan made before the game changed is judged from the state it meets
    stored.undo()
    stored.play(Action(Strike(1.0, 100.0), placed=(0.9, 0.6)))
    assert stored.state != played.ruled.before
    other = Session.from_lines(stored.texts())
    want = _verdict_or_refusal(lambda: other.append(played.line).verdict)
    got = _verdict_or_refusal(lambda: stored.keep(played.ruled).verdict)
    assert got == want
    assert stored.state == other.state


def _verdict_or_refusal(act: Callable[[], Verdict]) -> Verdict | str:
    try:
        return act()
    except SessionError as exc:
        return exc.code
