"""The game loop: the simulated table and the referee, one stroke at a time.

A :class:`Game` holds the referee's state and the physical table (every ball on it, with
its centre). :meth:`Game.play` places a cue ball in hand, simulates the strike, tells the
referee what happened — the bridge's outcome with the rest positions, so that the referee
itself derives touching balls, occupied spots, baulk and the red's spot — and then makes
the referee's placements on the physical table: a ball placed on a spot gets the spot's
coordinates, a ball taken in hand leaves the table. :meth:`Game.choose` does the same for
the incoming player's foul option. The loop never decides a rule; it only joins the two.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from onered import bridge, rules
from onered.game.model import (
    Action,
    ChoiceRecord,
    Entry,
    IllegalActionError,
    IllegalPlacementError,
    Lag,
    Position,
    StrokeRecord,
)
from onered.game.simulator import Simulator
from onered.rules import (
    Ball,
    GameState,
    Match,
    Option,
    Placement,
    Spot,
    Verdict,
)
from onered.table import BALL_DIAMETER, EPS, Point, in_d

#: The balls in the order the game writes them (records, positions).
BALL_ORDER: tuple[Ball, ...] = (Ball.WHITE, Ball.YELLOW, Ball.RED)


def _fmt(p: Point) -> str:
    return f"({p[0]:.4f}, {p[1]:.4f})"


def placement_point(placement: Placement) -> Point:
    """Where the referee's placement puts the ball."""
    at = placement.at
    return at.point if isinstance(at, Spot) else at


def settle(
    rest: Mapping[Ball, Point | None], state: GameState, placements: tuple[Placement, ...]
) -> dict[Ball, Point]:
    """The physical table once the referee has ruled: balls at rest that the referee keeps
    on the table, then its placements. A ball the referee took off (a cue ball taken in hand
    by the touching-ball rule or the foul option) leaves the table."""
    table = state.table
    balls: dict[Ball, Point] = {b: p for b, p in rest.items() if p is not None and b in table}
    for placement in placements:
        balls[placement.ball] = placement_point(placement)
    if set(balls) != set(table):
        # The referee was told every rest position, so its table and ours cannot differ.
        raise RuntimeError(
            f"game loop out of step with the referee: table {sorted(b.value for b in balls)}, "
            f"referee {sorted(b.value for b in table)}"
        )
    return {b: balls[b] for b in BALL_ORDER if b in balls}


def placement_problem(balls: Mapping[Ball, Point], ball: Ball, p: Point) -> str | None:
    """Why ``ball`` may not be placed at ``p`` with ``balls`` on the table, or ``None`` when
    it may: it must be in hand, and ``p`` inside the D or on its line (2.6.1), clear of
    every ball on the table (not even touching one)."""
    if ball in balls:
        return f"the {ball.value} is on the table: it is played where it lies, not placed"
    if len(p) != 2 or not all(isinstance(c, int | float) and math.isfinite(c) for c in p):
        return f"placed: {p!r} is not a point [x, y] of finite numbers"
    if not in_d(p):
        return (
            f"placed: {_fmt(p)} is outside the D (the semicircle of radius 0.292 around "
            f"(0.889, 0.737) on the baulk side)"
        )
    for other, q in balls.items():
        if math.dist(p, q) <= BALL_DIAMETER + EPS:
            return f"placed: {_fmt(p)} touches the {other.value} at {_fmt(q)}"
    return None


class Game:
    """One game of Snooker-1-Red on a simulated table, played stroke by stroke.

    Start with ``Game(match, simulator)`` (the opening: red on the billiards spot, the
    starter's ball in hand, the second ball off the table until his first visit), or from a
    constructed position with :meth:`resume`. Then, until :attr:`over`: if
    ``state.choice_pending``, the incoming player may :meth:`choose` an option (without a
    choice the balls are played as they lie, as the referee protocol says); and the player
    to play :meth:`play`\\ s an :class:`Action`.
    """

    def __init__(self, match: Match, simulator: Simulator, *, lag: Lag | None = None) -> None:
        state = rules.start(match)
        opening = rules.opening_verdict(state)
        balls = {p.ball: placement_point(p) for p in opening.placements}
        self._setup(state, opening, balls, simulator, lag)

    def _setup(
        self,
        state: GameState,
        opening: Verdict,
        balls: dict[Ball, Point],
        simulator: Simulator,
        lag: Lag | None,
    ) -> None:
        self._state = state
        self._opening = opening
        self._balls = balls
        self._simulator = simulator
        self._lag = lag
        self._entries: list[Entry] = []

    @classmethod
    def resume(cls, state: GameState, balls: Mapping[Ball, Point], simulator: Simulator) -> Game:
        """A game continuing from a given position: ``balls`` are the balls on the table
        (exactly those the referee's ``state`` has on it) at their centres."""
        if set(balls) != set(state.table):
            raise IllegalActionError(
                f"balls: {sorted(b.value for b in balls)} must be the balls the referee has on "
                f"the table, {sorted(b.value for b in state.table)}"
            )
        for ball, p in balls.items():
            if len(p) != 2 or not all(isinstance(c, int | float) for c in p):
                raise IllegalActionError(f"balls: the {ball.value} at {p!r} is not a point [x, y]")
        try:
            simulator.check({b.value: p for b, p in balls.items()})
        except ValueError as exc:  # the table's refusal (PhysicsInputError) names the ball
            raise IllegalActionError(f"balls: {exc}") from None
        ordered = {b: balls[b] for b in BALL_ORDER if b in balls}
        state = replace(state, table=dict(ordered))
        game = cls.__new__(cls)
        game._setup(state, rules.opening_verdict(state), ordered, simulator, None)
        return game

    # --- what the game is now -------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The referee's state."""
        return self._state

    @property
    def balls(self) -> Mapping[Ball, Point]:
        """The balls on the table and their centres (a copy)."""
        return dict(self._balls)

    @property
    def position(self) -> Position:
        """What the player to play sees."""
        return Position(balls=dict(self._balls), state=self._state)

    @property
    def match(self) -> Match:
        return self._state.match

    @property
    def simulator(self) -> Simulator:
        return self._simulator

    @property
    def lag(self) -> Lag | None:
        """The lag that decided the order, when the game was started after one."""
        return self._lag

    @property
    def opening(self) -> Verdict:
        """The referee's verdict on the opening (the match line)."""
        return self._opening

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every stroke and choice so far, in order."""
        return tuple(self._entries)

    def __repr__(self) -> str:
        """Short: the game's position line and how many strokes and choices it has had."""
        return f"Game({len(self._entries)} entries, {self.position!r})"

    def _repr_svg_(self) -> str:
        """The last stroke drawn (its paths), or the table before the first (notebooks)."""
        strokes = [e for e in self._entries if isinstance(e, StrokeRecord)]
        return strokes[-1]._repr_svg_() if strokes else self.position._repr_svg_()

    @property
    def over(self) -> bool:
        return self._state.winner is not None

    @property
    def winner(self) -> str | None:
        """The winner's name once the game is over."""
        w = self._state.winner
        return None if w is None else self._state.match.players[w]

    @property
    def to_play(self) -> str:
        """The name of the player to play (or to choose)."""
        return self._state.match.players[self._state.to_play]

    # --- placement from hand --------------------------------------------------------------

    def placement_problem(self, p: Point) -> str | None:
        """Why the cue ball of the player to play may not be placed at ``p``, or ``None``
        when it may (see :func:`placement_problem`)."""
        return placement_problem(self._balls, self._state.match.balls[self._state.to_play], p)

    def legal_placement(self, p: Point) -> bool:
        """``p`` is a legal place for the cue ball in hand of the player to play."""
        return self.placement_problem(p) is None

    # --- strokes and choices --------------------------------------------------------------

    def _check_open(self) -> None:
        if self._state.winner is not None:
            raise IllegalActionError(f"the game is over: {self.winner} has won")

    def play(self, action: Action) -> StrokeRecord:
        """Play one stroke of the player to play, and return its record.

        Raises :class:`IllegalPlacementError` when the placement is missing, not allowed
        (outside the D, on a ball) or given for a ball that is not in hand, and
        :class:`IllegalActionError` for a strike the table refuses or a game that is over;
        the game is unchanged then.
        """
        self._check_open()
        state = self._state
        s = state.to_play
        me = state.match.balls[s]
        name = state.match.players[s]
        from_hand = me not in self._balls
        placed = action.placed
        before = dict(self._balls)
        if from_hand:
            if placed is None:
                raise IllegalPlacementError(
                    f"placed: the {me.value} is in hand; place it in the D before playing"
                )
            problem = self.placement_problem(placed)
            if problem is not None:
                raise IllegalPlacementError(problem)
            placed = (float(placed[0]), float(placed[1]))
            before[me] = placed
        elif placed is not None:
            raise IllegalPlacementError(self.placement_problem(placed) or "placed: not in hand")
        before = {b: before[b] for b in BALL_ORDER if b in before}
        try:
            result = self._simulator.simulate(
                {b.value: p for b, p in before.items()}, me.value, action.strike
            )
        except ValueError as exc:  # the engine's refusal (PhysicsInputError) names the input
            raise IllegalActionError(f"strike: {exc}") from None
        stroke = bridge.stroke(
            result,
            me.value,
            {b.value: p for b, p in before.items()},
            placed=placed if from_hand else None,
            striker=name,
        )
        new_state, verdict = rules.judge(state, stroke)
        rest = {Ball(b): p for b, p in result.rest.items()}
        balls = settle(rest, new_state, verdict.placements)
        record = StrokeRecord(
            striker=name,
            cue_ball=me,
            before=before,
            action=action,
            result=result,
            stroke=stroke,
            verdict=verdict,
            balls_after=balls,
        )
        self._state = replace(new_state, table=dict(balls))
        self._balls = balls
        self._entries.append(record)
        return record

    def option_positions(self) -> dict[Option, Position]:
        """After a foul, the position each foul option (2.12.3) would give the incoming
        player; empty when no choice is pending."""
        if not self._state.choice_pending or self._state.winner is not None:
            return {}
        out: dict[Option, Position] = {}
        for option in (Option.AS_THEY_LIE, Option.FROM_D):
            state, verdict = rules.choose(self._state, option)
            balls = settle(self._balls, state, verdict.placements)
            out[option] = Position(balls=balls, state=replace(state, table=dict(balls)))
        return out

    def choose(self, option: Option) -> ChoiceRecord:
        """The incoming player's choice after a foul (2.12.3, decision 8)."""
        self._check_open()
        if not self._state.choice_pending:
            raise IllegalActionError(
                "choice: no foul option is pending (a choice comes right after a foul)"
            )
        state, verdict = rules.choose(self._state, option)
        balls = settle(self._balls, state, verdict.placements)
        record = ChoiceRecord(
            chooser=self.to_play, option=option, verdict=verdict, balls_after=balls
        )
        self._state = replace(state, table=dict(balls))
        self._balls = balls
        self._entries.append(record)
        return record
