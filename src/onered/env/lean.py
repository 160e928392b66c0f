"""The game loop's lean form for the environments: the same stroke, read and judged the
same way, without a record.

:meth:`onered.game.Game.play` is most of an environment step, and of its time two thirds
are not the physics: the stroke's record, the full result's event objects and paths, and
copies of the table for the record. An environment needs none of them. :class:`LeanGame`
plays a stroke the way the AI's search does: the C kernel through the environments'
:class:`~onered.env.strokes.StrokeEngine` (each shot alone, or a vector form's round of
many on two threads through the batch kernel), read by the bridge
(:func:`onered.bridge.compact_stroke` or :func:`~onered.bridge.batch_strokes`, the same
strokes; a stroke from hand's foul included), judged by the referee
(:func:`onered.rules.judge`, :func:`onered.rules.choose`), the table settled by the
game loop's own :func:`~onered.game.settle`. Nothing here decides a rule or reads an event.

A test plays thousands of random strokes and foul options through both this and
:class:`~onered.game.Game` and holds every state and table equal. The one possible
difference is the bridge's documented one: without trajectories, a wrong stroke from hand
(decision 7) places a cushion contact by the cue ball's baulk-line crossings, which can
differ from its path only within 1e-6 m of the line.
"""

from __future__ import annotations

from collections.abc import Mapping

from onered import rules
from onered.env.strokes import Shot, StrokeEngine
from onered.game.loop import Game, placement_point, placement_problem, settle
from onered.game.model import Action, IllegalActionError, IllegalPlacementError, Position
from onered.game.simulator import PhysicsSimulator
from onered.physics import Params, TableSpec
from onered.rules import Ball, GameState, Match, Option, Stroke, Verdict
from onered.table import Point

#: The balls in the engine's order (sorted by name), as a shot names them.
_ENGINE_ORDER: tuple[Ball, ...] = tuple(sorted(Ball, key=lambda b: b.value))


def _with_table(state: GameState, balls: Mapping[Ball, Point]) -> GameState:
    """``dataclasses.replace(state, table=dict(balls))`` as the game loop writes it: a copy
    of the state's fields with the new table (``replace`` looks every field up by name, a
    tenth of an environment step; the copy is a quarter of building the state anew and
    skips no check: the state's fields are the referee's own, the table the settled one)."""
    new = object.__new__(GameState)
    fields = new.__dict__
    fields.update(state.__dict__)
    fields["table"] = dict(balls)
    return new


class LeanGame:
    """One game on the simulated table, stroke by stroke, as :class:`~onered.game.Game`
    plays it (the opening: red on its spot, the first player's ball in hand)."""

    def __init__(
        self,
        match: Match,
        params: Params,
        table: TableSpec,
        engine: StrokeEngine | None = None,
    ) -> None:
        state = rules.start(match)
        opening = rules.opening_verdict(state)
        self.state: GameState = state
        self.balls: dict[Ball, Point] = {p.ball: placement_point(p) for p in opening.placements}
        self.params = params
        self.table = table
        self.engine = StrokeEngine(params, table) if engine is None else engine
        #: what was played, in order: each stroke's action and each foul option taken —
        #: enough for :class:`~onered.game.Game` to play the game again with its records
        #: (:mod:`onered.env.render`: the pictures' paths and the game record)
        self.history: list[Action | Option] = []

    @property
    def over(self) -> bool:
        return self.state.winner is not None

    @property
    def position(self) -> Position:
        """What the player to play sees."""
        return Position(balls=dict(self.balls), state=self.state)

    def shot(self, action: Action) -> Shot:
        """What the engine simulates when ``action`` is played now (a ball in hand at its
        place). Raises :class:`~onered.game.IllegalPlacementError` as the game does for a
        missing, illegal or needless placement, :class:`~onered.game.IllegalActionError`
        once the game is over."""
        state = self.state
        if state.winner is not None:
            raise IllegalActionError("the game is over")
        me = state.match.balls[state.to_play]
        balls = self.balls
        placed = action.placed
        if me in balls:
            if placed is not None:
                raise IllegalPlacementError(
                    placement_problem(balls, me, placed) or "placed: not in hand"
                )
            before: Mapping[Ball, Point] = balls
            hand = False
        else:
            if placed is None:
                raise IllegalPlacementError(
                    f"placed: the {me.value} is in hand; place it in the D before playing"
                )
            problem = placement_problem(balls, me, placed)
            if problem is not None:
                raise IllegalPlacementError(problem)
            before = {**balls, me: (float(placed[0]), float(placed[1]))}
            hand = True
        names = {b.value: before[b] for b in _ENGINE_ORDER if b in before}
        return names, me.value, action.strike, hand

    def play(self, action: Action, stroke: Stroke | None = None) -> Verdict:
        """Play ``action`` (simulated and read now, or ``stroke``: the engine's stroke of
        exactly this :meth:`shot`, from a round of many games) and return the referee's
        verdict."""
        if stroke is None:
            (stroke,) = self.engine.strokes([self.shot(action)])
        verdict = self.judge(stroke)
        self.history.append(action)
        return verdict

    def judge(self, stroke: Stroke) -> Verdict:
        """The referee rules on ``stroke`` (the engine's, of this game's :meth:`shot`)
        and the table is settled."""
        new_state, verdict = rules.judge(self.state, stroke)
        rest = stroke.positions if stroke.positions is not None else {}
        balls = settle(rest, new_state, verdict.placements)
        self.state = _with_table(new_state, balls)
        self.balls = balls
        return verdict

    def choose(self, option: Option) -> Verdict:
        """The incoming player's choice after a foul (2.12.3)."""
        state, verdict = rules.choose(self.state, option)
        balls = settle(self.balls, state, verdict.placements)
        self.state = _with_table(state, balls)
        self.balls = balls
        self.history.append(option)
        return verdict

    def option_positions(self) -> dict[Option, Position]:
        """The position each foul option would give the incoming player (for a built-in
        opponent's choice): the game loop's own answer from this position."""
        simulator = PhysicsSimulator(self.params, self.table)
        return Game.resume(self.state, self.balls, simulator).option_positions()
