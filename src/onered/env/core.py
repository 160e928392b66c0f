"""One game of the environment: the game, the seats, the stroke cap.

:class:`Frame` is shared by the Gymnasium, PettingZoo and vector forms. It drives a
:class:`~onered.env.lean.LeanGame` (the game loop's lean form: every stroke is read by the
bridge and judged by the referee there, never here) and adds only what an environment
needs: who sits where, the foul option and the placement taken from an action
(:mod:`onered.env.spaces`), a built-in opponent's visits, and the cap on strokes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from onered.env.lean import LeanGame
from onered.env.opponents import check_opponent, make_opponent
from onered.env.spaces import Decision, observation_values, observe, to_action
from onered.env.strokes import StrokeEngine
from onered.errors import OneredError
from onered.game import Action, Position
from onered.physics import Params, TableSpec
from onered.players import Player
from onered.rules import Match, Option, Stroke, Verdict

#: The players' names in the referee's match: the agent (or player_0/player_1 in the
#: two-agent form) and the built-in opponent.
AGENT = "agent"
OPPONENT = "opponent"
#: Seeds for the opponents are drawn below this bound from the episode's generator.
SEED_BOUND = 2**31


class _Options(Mapping[Option, Position]):
    """The foul options' positions (:meth:`LeanGame.option_positions`), worked out only when
    a player looks at them: the random player does not, and it is a tenth of its step."""

    def __init__(self, game: LeanGame) -> None:
        self._game = game
        self._positions: dict[Option, Position] | None = None

    def _get(self) -> dict[Option, Position]:
        if self._positions is None:
            self._positions = self._game.option_positions()
        return self._positions

    def __getitem__(self, option: Option) -> Position:
        return self._get()[option]

    def __iter__(self) -> Iterator[Option]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


class Reward(Enum):
    """What the single-agent and vector forms pay between two decisions of the agent.

    ``margin``: the agent's points minus the opponent's (the score difference's change:
    the opponent's fouls and visits count). ``own``: what the agent's own strokes earned,
    each stroke's points, or minus its penalty when it fouls; the opponent's points and
    fouls are not counted, so a policy cannot profit from the opponent's mistakes alone.
    """

    MARGIN = "margin"
    OWN = "own"


def own_points(verdict: Verdict) -> int:
    """The striker's own gain from one stroke under :attr:`Reward.OWN`: its points, or
    minus the penalty when the referee called a foul."""
    return -verdict.foul.penalty if verdict.foul is not None else verdict.points


def check_reward(value: object) -> Reward:
    """``value`` (a :class:`Reward` or its name) as a :class:`Reward`, or
    :class:`ConfigError` naming the setting."""
    if isinstance(value, Reward):
        return value
    try:
        return Reward(value)
    except ValueError:
        names = ", ".join(r.value for r in Reward)
        raise ConfigError(f"reward: expected one of {names}, got {value!r}") from None


class ConfigError(OneredError, ValueError):
    """An environment setting that cannot be used; the message names it."""

    default_code = "env_config"


@dataclass(frozen=True)
class Config:
    """The environment's settings.

    ``target``: points to win (2.1); ``max_strokes``: strokes of both players after which
    the episode is truncated; ``opponent``: ``random`` or an AI level (single-agent form
    only); ``agent_first``: the agent plays first (with the white) — ``None`` draws the
    order from the episode's seed; ``clip``: clip out-of-range actions (else an error);
    ``reward``: what a step pays (:class:`Reward`: ``margin``, the default, or ``own``).
    """

    target: int = 100
    max_strokes: int = 1000
    opponent: str = "random"
    agent_first: bool | None = None
    clip: bool = True
    reward: Reward = Reward.MARGIN
    params: Params = field(default_factory=Params)
    table: TableSpec = field(default_factory=TableSpec)

    def __post_init__(self) -> None:
        for name in ("target", "max_strokes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ConfigError(f"{name}: expected a positive integer, got {value!r}")
        object.__setattr__(self, "opponent", check_opponent(self.opponent))
        object.__setattr__(self, "reward", check_reward(self.reward))
        if self.agent_first is not None and not isinstance(self.agent_first, bool):
            raise ConfigError(
                f"agent_first: expected True, False or None, got {self.agent_first!r}"
            )
        if not isinstance(self.params, Params) or not isinstance(self.table, TableSpec):
            raise ConfigError("params/table: expected onered.physics Params and TableSpec")


class Frame:
    """One game in an environment: the players' names in the referee's order (the first
    plays first, with the white), the game, the built-in opponent if any, and the strokes
    played. A game begins with :meth:`start` (or :meth:`start_single`); no lag is played.
    ``engine`` simulates its strokes (shared by the tables of a vector form)."""

    def __init__(self, config: Config, engine: StrokeEngine | None = None) -> None:
        self.config = config
        self.engine = StrokeEngine(config.params, config.table) if engine is None else engine
        self.game: LeanGame
        self.names: tuple[str, str] = (AGENT, OPPONENT)
        self.opponent: Player | None = None
        self.strokes = 0
        #: each player's own points (his strokes' points less his fouls' penalties)
        self.own: dict[str, int] = {}

    def start(self, names: tuple[str, str], opponent: Player | None) -> None:
        """A new game: ``names[0]`` plays first with the white; ``opponent`` (if any)
        plays for :data:`OPPONENT`."""
        self.names = names
        self.opponent = opponent
        self.game = LeanGame(
            Match(self.config.target, names), self.config.params, self.config.table, self.engine
        )
        self.strokes = 0
        self.own = dict.fromkeys(names, 0)

    def start_single(self, rng: np.random.Generator) -> None:
        """A new single-agent game: the order (``agent_first``, or a draw) and the
        opponent's seed come from ``rng``, in that order."""
        first = self.config.agent_first
        if first is None:
            first = bool(rng.integers(2))
        seed = int(rng.integers(SEED_BOUND))
        opponent = make_opponent(
            self.config.opponent, seed, params=self.config.params, table=self.config.table
        )
        self.start((AGENT, OPPONENT) if first else (OPPONENT, AGENT), opponent)

    # --- what the game is now -------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.game.state.winner is not None

    @property
    def truncated(self) -> bool:
        return not self.over and self.strokes >= self.config.max_strokes

    @property
    def done(self) -> bool:
        return self.over or self.strokes >= self.config.max_strokes

    def seat(self, name: str) -> int:
        """The referee's index of player ``name``."""
        return 0 if self.names[0] == name else 1

    def to_play(self) -> str:
        return self.names[self.game.state.to_play]

    def margin(self, name: str) -> int:
        """``name``'s score minus his opponent's."""
        s = self.game.state.score
        k = self.seat(name)
        return s[k] - s[1 - k]

    def tally(self, name: str) -> int:
        """What the configured :class:`Reward` has paid ``name`` so far: his margin
        (``margin``) or his own points (``own``); a step's reward is its change."""
        if self.config.reward is Reward.OWN:
            return self.own[name]
        return self.margin(name)

    def observe(self, name: str) -> np.ndarray:
        game = self.game
        used = min(1.0, self.strokes / self.config.max_strokes)
        return observe(game.state, game.balls, self.seat(name), used)

    def observation_values(self, name: str) -> list[float]:
        """:meth:`observe` as Python numbers."""
        game = self.game
        used = min(1.0, self.strokes / self.config.max_strokes)
        return observation_values(game.state, game.balls, self.seat(name), used)

    # --- strokes --------------------------------------------------------------------------

    def prepare(self, decision: Decision) -> Action:
        """The player to play takes ``decision``'s foul option when one is pending, and
        the action of his stroke is returned (to :meth:`play`)."""
        game = self.game
        if game.state.choice_pending:
            game.choose(decision.option)
        return to_action(decision, game.balls, game.state)

    def play(self, action: Action, stroke: Stroke | None = None) -> None:
        """The player to play plays ``action`` (simulated now, or ``stroke``: its stroke
        from the engine's round)."""
        striker = self.names[self.game.state.to_play]
        verdict = self.game.play(action, stroke)
        self.strokes += 1
        self.own[striker] += own_points(verdict)

    def decide(self, decision: Decision) -> None:
        """The player to play takes ``decision``: the foul option, then his stroke."""
        self.play(self.prepare(decision))

    def opponent_action(self) -> Action | None:
        """The built-in opponent's next stroke (after his foul option, when one is
        pending), or ``None`` when it is not his turn, the game is over or no stroke
        remains."""
        opponent, game = self.opponent, self.game
        if (
            opponent is None
            or game.state.winner is not None
            or self.strokes >= self.config.max_strokes
            or self.to_play() != OPPONENT
        ):
            return None
        if game.state.choice_pending:
            game.choose(opponent.choose(_Options(game)))
        return opponent.decide(game.position)

    def opponent_visit(self) -> None:
        """The built-in opponent plays while it is his turn, the game is on and strokes
        remain."""
        action = self.opponent_action()
        while action is not None:
            self.play(action)
            action = self.opponent_action()
