"""The AI player: a search over simulated strokes (``onered.players.search``), a level of
play (``onered.players.strength``) and its own seeded random generator.

Every random draw — the noise samples the search judges strokes by, and the execution
noise of the stroke it finally plays — comes from ``random.Random(seed)``, so the same seed
in the same position gives the same stroke, and a game between seeded players is the same
game every time. The cue is never lower than the rail and the balls behind allow
(``onered.players.elevation``): the stroke played is raised to that elevation after the
noise, as every stroke the search simulated was.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from onered import rules
from onered.game.loop import placement_point, placement_problem
from onered.game.model import Action, Intent, LagChoice, Position
from onered.physics import Params, TableSpec, simulate
from onered.physics import strike_to_launch as _to_launch
from onered.physics.types import Strike
from onered.players.elevation import Clearance
from onered.players.search import Searcher
from onered.players.strength import Strength
from onered.rules import Ball, Match, Option
from onered.table import BALL_RADIUS, Point


class AIPlayer:
    """A computer player of a given :class:`Strength`."""

    def __init__(
        self,
        strength: Strength,
        seed: int,
        *,
        params: Params | None = None,
        table: TableSpec | None = None,
    ) -> None:
        self.strength = strength
        self.seed = seed
        self.params = params if params is not None else Params()
        self.table = table if table is not None else TableSpec()
        self.rng = random.Random(seed)
        self.searcher = Searcher(strength, self.params, self.table)

    @property
    def description(self) -> str:
        return f"ai:{self.strength.name}"

    def lag(self, start: Point) -> Strike:
        """Straight up the table at the speed that, on this table, brings the ball back to
        rest nearest the bottom cushion without touching it; then the player's noise (the
        cue raised over the bottom cushion as it must be)."""
        clear = Clearance(start, (), self.params, self.table)
        best: tuple[float, float] | None = None
        speed = 1.2
        while speed <= 4.0:
            launch = _to_launch(clear.lift(Strike(speed, 90.0)), self.params)
            result = simulate({"white": start}, "white", launch, self.params, self.table)
            rest = result.rest["white"]
            bottom = any(e.cushion == "bottom" for e in result.events)
            top = any(e.cushion == "top" for e in result.events)
            if rest is not None and top and not bottom:
                gap = rest[1] - BALL_RADIUS
                if best is None or gap < best[0]:
                    best = (gap, speed)
            speed += 0.05
        chosen = best[1] if best is not None else 2.5
        nominal = clear.lift(Strike(chosen, 90.0))
        return clear.lift(self.strength.noise.apply(nominal, self.rng))

    def lag_choice(self) -> LagChoice:
        """Order and ball from measured value: the search's value of the opening (2.3.3)
        for this player is the value of playing first; playing second gives the opening
        to the opponent, worth as much to him (he is taken to be as strong), so
        ``-value`` to this player. The two balls are alike on the simulated table, so
        the ball is a draw from the player's seeded generator, not always the white."""
        value = self.opening_value()
        ball = Ball.WHITE if self.rng.random() < 0.5 else Ball.YELLOW
        return LagChoice(play_first=value >= -value, ball=ball)  # first: value; second: -value

    def opening_value(self) -> float:
        """The search's value of the opening position for the player who starts."""
        state = rules.start(Match(target=100, players=("first", "second")))
        opening = rules.opening_verdict(state)
        balls = {p.ball: placement_point(p) for p in opening.placements}
        return self.searcher.position_value(Position(balls=balls, state=state), self.seed)

    def choose(self, options: Mapping[Option, Position]) -> Option:
        """The foul option (2.12.3) whose position is worth more to this player, by the
        leave evaluation (:meth:`Searcher.option_values`: the chance and size of each
        scoring stroke on offer under his noise, from the tolerance of each; ties: as
        they lie). The search's own expected value (:meth:`Searcher.position_value`) is
        not used here: its noiseless scan can rank a hard pot above a sitter, where the
        leave evaluation weighs each stroke by its chance."""
        values = self.searcher.option_values(dict(options))
        return max(
            (Option.AS_THEY_LIE, Option.FROM_D),
            key=lambda o: values.get(o, -math.inf) + (1e-9 if o is Option.AS_THEY_LIE else 0.0),
        )

    def decide(self, position: Position) -> Action:
        """Search for the best stroke, then play it with this player's execution noise."""
        choice = self.searcher.decide(position, self.rng)
        if choice.placed is not None:
            problem = placement_problem(position.balls, position.cue_ball, choice.placed)
            if problem is not None:  # the search only offers legal places: a bug
                raise RuntimeError(f"the AI chose an illegal placement: {problem}")
        clear = self.searcher.clearance(position, choice.placed)
        played = clear.lift(self.strength.noise.apply(choice.strike, self.rng))
        return Action(
            strike=played,
            placed=choice.placed,
            intent=Intent(nominal=choice.strike, scores=choice.scores, expected=choice.value),
        )
