"""The built-in opponents of the environment: a random player (fast), a scripted player
(the shot library's first candidate: fast, between random and the AI's novice) and the AI
levels.

:class:`RandomPlayer` follows the :class:`~onered.players.Player` protocol, so the game
loop asks it exactly what it asks an AI player; its every draw comes from its own seeded
``random.Random``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from onered.env.library import Library
from onered.env.spaces import place_in_d
from onered.errors import OneredError
from onered.game.loop import placement_problem
from onered.game.model import Action, LagChoice, Position
from onered.physics import Params, TableSpec
from onered.physics.types import Strike
from onered.players import (
    STRENGTHS,
    Level,
    Noise,
    Player,
    PlayerKind,
    PlayerSpec,
    PlayerSpecError,
    make_player,
    parse_player,
)
from onered.players.strength import clamp_strike
from onered.rules import Option
from onered.table import BAULK_Y, D_CENTRE, D_RADIUS, Point

#: The random player's launch speeds (m/s): from a gentle touch to a power stroke.
RANDOM_SPEEDS = (0.5, 6.0)
#: The random player's tip offsets stay within this fraction of R of the centre.
RANDOM_TIP = 0.5
#: Tries at a random place in the D before the random player takes the first free one of
#: a fixed list (two balls in the D rarely cover a random place; the bound keeps it finite).
PLACE_TRIES = 64


class RandomPlayer:
    """A random legal stroke: aim uniform round the circle, speed uniform in
    :data:`RANDOM_SPEEDS`, tip offset uniform in the disc of :data:`RANDOM_TIP` R, a
    level cue; from hand, a uniform place in the D clear of the balls; after a foul, either
    option with equal chance."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @property
    def description(self) -> str:
        return "random"

    def lag(self, start: Point) -> Strike:
        """A random lag: straight up the table at a random speed."""
        return Strike(self.rng.uniform(1.5, 3.5), 90.0)

    def lag_choice(self) -> LagChoice:
        return LagChoice()

    def choose(self, options: Mapping[Option, Position]) -> Option:
        return Option.FROM_D if self.rng.random() < 0.5 else Option.AS_THEY_LIE

    def decide(self, position: Position) -> Action:
        rng = self.rng
        aim = rng.uniform(-180.0, 180.0)
        speed = rng.uniform(*RANDOM_SPEEDS)
        r = RANDOM_TIP * math.sqrt(rng.random())
        a = rng.uniform(-math.pi, math.pi)
        strike = Strike(speed, aim, r * math.cos(a), r * math.sin(a))
        if not position.in_hand:
            return Action(strike)
        return Action(strike, self._place(position))

    def _place(self, position: Position) -> Point:
        balls, me = position.balls, position.cue_ball
        for _ in range(PLACE_TRIES):
            r = D_RADIUS * math.sqrt(self.rng.random())
            a = self.rng.uniform(0.0, math.pi)
            p = (D_CENTRE[0] + r * math.cos(a), BAULK_Y - r * math.sin(a))
            if placement_problem(balls, me, p) is None:
                return p
        return place_in_d(balls, me, D_CENTRE)


#: The scripted player's execution noise (its strokes are played with it, as an AI
#: level's are): chosen so that it plays between the random player and the novice.
SCRIPTED_NOISE = Noise(aim=1.0, speed=0.15, tip=0.1)


class ScriptedPlayer:
    """No search: the shot library's first candidate (:mod:`onered.env.library`), the
    easiest pot by its ghost-ball aim at a medium pace, else the most likely in-off or
    cannon, else a thin safety, played with :data:`SCRIPTED_NOISE` (its draws from
    ``random.Random(seed)``). From hand it places its ball on that stroke's line; after a
    foul it takes the option the library's leave model values higher."""

    def __init__(
        self,
        seed: int,
        *,
        params: Params | None = None,
        table: TableSpec | None = None,
        noise: Noise = SCRIPTED_NOISE,
    ) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.noise = noise
        self.library = Library(params, table)

    @property
    def description(self) -> str:
        return "scripted"

    def lag(self, start: Point) -> Strike:
        """Straight up the table at a middling lag pace."""
        return Strike(2.4, 90.0)

    def lag_choice(self) -> LagChoice:
        return LagChoice()

    def choose(self, options: Mapping[Option, Position]) -> Option:
        return self.library.option(options)

    def decide(self, position: Position) -> Action:
        for candidate in self.library.candidates(position):
            if candidate is not None:
                strike = clamp_strike(self.noise.apply(candidate.strike, self.rng))
                return Action(strike, candidate.placed)
        raise RuntimeError("the shot library offered no stroke")  # (its last slot always does)


#: The opponents by name: ``random``, ``scripted`` and the AI levels (a computer player's
#: description, ``ai:<level>[,name=value...]`` of ``onered.players.parse_player``, is
#: accepted too).
OPPONENTS: tuple[str, ...] = ("random", "scripted", *STRENGTHS)


class OpponentError(OneredError, ValueError):
    """An opponent name the environment does not know."""

    default_code = "opponent"


def check_opponent(name: object) -> str:
    """The canonical opponent name (``random``, ``scripted``, a level, or a computer
    player's description with parameters), or :class:`OpponentError`."""
    if name in ("random", "scripted"):
        return str(name)
    spec = _ai(name)
    if spec is not None and spec.level is not None:
        return str(spec) if spec.params else spec.level.value
    raise OpponentError(f"opponent: {name!r} is not one of {', '.join(OPPONENTS)} (or ai:<level>)")


def make_opponent(
    name: str, seed: int, *, params: Params | None = None, table: TableSpec | None = None
) -> Player:
    """The opponent ``name`` (see :func:`check_opponent`) seeded with ``seed``."""
    if name == "random":  # (every episode makes one: the common case first)
        return RandomPlayer(seed)
    if name == "scripted":
        return ScriptedPlayer(seed, params=params, table=table)
    canonical = check_opponent(name)
    spec = _ai(canonical)
    if spec is None:
        return RandomPlayer(seed)
    return make_player(spec, seed, params=params, table=table)


def _ai(name: object) -> PlayerSpec | None:
    """The computer player ``name`` describes (a level, or ``ai:<level>...``), if any."""
    if not isinstance(name, str):
        return None
    if name in STRENGTHS:
        return PlayerSpec(PlayerKind.AI, Level(name))
    try:
        spec = parse_player(name)
    except PlayerSpecError:
        return None
    return spec if spec.is_computer else None
