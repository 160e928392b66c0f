"""Play mode: strokes on the simulated table, through the game loop of ``onered.game``.

A played game is stored like any other, as referee-protocol lines, but written in the layout
of the game record (``onered.game.record``): the match line carries the physics the table was
simulated with and who played (``entrants``), each stroke line the cue action, the balls
before, the events and the rest positions as well as the protocol's fields. So the stored
lines are the game record, and replaying them through the referee gives back the state and
every verdict; the position for the next stroke is the referee's table (every rest position
is known).

:func:`play` plays one stroke of the player to play; :func:`choose` takes a foul option;
:func:`shot_json` gives the animation of a shot from the simulator's own trajectories.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from onered import rules
from onered.game import (
    Action,
    Game,
    GameError,
    PhysicsSimulator,
)
from onered.game import record as game_record
from onered.physics.types import ShotResult
from onered.players.strength import Level
from onered.rules import Ball, Match, Option
from onered.table import Point
from onered.web.record import Game as Replayed


class PlayError(ValueError):
    """A stroke or choice that cannot be played; the message names the input."""


#: The AI player's strengths: the levels ``onered.players`` defines (one definition).
Strength = Level


#: An entrant's description in the record: a person, or an AI of some strength.
HUMAN = "human"


def ai_entrant(strength: Strength) -> str:
    """The record's description of an AI player, e.g. ``"ai:amateur"``."""
    return f"ai:{strength.value}"


def ai_strength(entrant: str | None) -> Strength | None:
    """The strength of an AI entrant, ``None`` for a person."""
    if entrant is None or not entrant.startswith("ai:"):
        return None
    try:
        return Strength(entrant[3:])
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Played:
    """A stroke played: the line to store and the shot to animate."""

    line: dict[str, Any]
    shot: dict[str, Any]


def match_line(match: Match, entrants: Mapping[str, str]) -> dict[str, Any]:
    """The match line of a new played game: the game record's header on the default table."""
    simulator = PhysicsSimulator()
    opening = rules.opening_verdict(rules.start(match))
    return game_record.match_line(
        match, physics=simulator.describe(), opening=opening, seed=None, entrants=entrants
    )


@lru_cache(maxsize=8)
def _simulator(physics_json: str) -> PhysicsSimulator:
    return PhysicsSimulator.from_description(json.loads(physics_json))


def simulator_for(game: Replayed) -> PhysicsSimulator:
    """The simulated table of a played game, as its match line describes it."""
    physics = game.entries[0].line.get("physics")
    if not isinstance(physics, dict):
        raise PlayError("this game has no simulated table (it was marked or imported)")
    try:
        return _simulator(json.dumps(physics, sort_keys=True))
    except ValueError as exc:
        raise PlayError(f"the game's table cannot be simulated: {exc}") from None


def entrants(game: Replayed) -> dict[str, str]:
    """Who plays: player name -> ``"human"`` or ``"ai:<strength>"``."""
    raw = game.entries[0].line.get("entrants")
    if not isinstance(raw, dict):
        return {}
    return {str(k): str(v) for k, v in raw.items()}


def playable(game: Replayed) -> bool:
    """The game can go on on the simulated table: its match line describes the table, and
    the referee knows where every ball on it lies (a played game's record)."""
    if game.entries[0].line.get("record") is None:
        return False
    try:
        simulator_for(game)
    except PlayError:
        return False
    return all(at is not None for at in game.state.table.values())


def resume(game: Replayed) -> Game:
    """The game loop at the replayed position."""
    state = game.state
    balls: dict[Ball, Point] = {}
    for ball, at in state.table.items():
        if at is None:
            raise PlayError(f"the position of the {ball.value} is not known: cannot play on")
        balls[ball] = at
    try:
        return Game.resume(state, balls, simulator_for(game))
    except GameError as exc:
        raise PlayError(str(exc)) from None


def play(game: Replayed, action: Action) -> Played:
    """Play the stroke of the player to play; raise :class:`PlayError` for an action the
    game refuses (a placement outside the D or on a ball, a strike out of range …)."""
    if game.over:
        raise PlayError(f"the game is over: {game.state.match.players[game.state.winner or 0]} won")
    loop = resume(game)
    try:
        entry = loop.play(action)
    except GameError as exc:
        raise PlayError(str(exc)) from None
    line = game_record.stroke_line(entry, game.players)
    return Played(line=line, shot=shot_json(entry.result, entry.before))


def choose(game: Replayed, option: Option) -> dict[str, Any]:
    """The line of the incoming player's foul option."""
    loop = resume(game)
    try:
        entry = loop.choose(option)
    except GameError as exc:
        raise PlayError(str(exc)) from None
    return game_record.choice_line(entry, game.players)


def _r(x: float) -> float:
    return round(float(x), 6)


def shot_json(result: ShotResult, before: Mapping[Ball, Point]) -> dict[str, Any]:
    """The animation of a shot: each ball's path as the simulator computed it, piece by
    piece ``[t0, t1, x0, y0, vx, vy, ax, ay]`` (the centre at ``t0 <= t <= t1`` is
    ``p0 + v (t - t0) + a (t - t0)^2 / 2``), the balls before, their rest (``null``:
    potted), the duration and the contacts (for the sounds and flashes of the page)."""
    paths = {
        ball: [
            [
                _r(s.t0),
                _r(s.t1),
                _r(s.p0[0]),
                _r(s.p0[1]),
                _r(s.v0[0]),
                _r(s.v0[1]),
                _r(s.a[0]),
                _r(s.a[1]),
            ]
            for s in segments
        ]
        for ball, segments in result.paths.items()
    }
    return {
        "duration": _r(result.duration),
        "before": {b.value: [_r(p[0]), _r(p[1])] for b, p in before.items()},
        "rest": {b: None if p is None else [_r(p[0]), _r(p[1])] for b, p in result.rest.items()},
        "paths": paths,
        "events": [
            {"t": _r(e.t), "type": e.kind.value, "balls": list(e.balls)}
            for e in result.events
            if e.kind.value in ("ball_ball", "cushion", "pocket")
        ],
    }


# --- the computer's turn ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Turn:
    """What the computer did: the line to store, and the shot to animate (``None`` for a
    foul option)."""

    line: dict[str, Any]
    shot: dict[str, Any] | None


def ai_turn(game: Replayed, seed: int) -> Turn:
    """The computer's turn in ``game`` (``onered.players``' AI of the entrant's strength,
    seeded with ``seed``): its foul option when one is pending, else its stroke."""
    from onered.players.ai import AIPlayer
    from onered.players.strength import STRENGTHS

    name = game.players[game.state.to_play]
    strength = ai_strength(entrants(game).get(name))
    if strength is None:
        raise PlayError(f"it is {name}'s turn, and {name} is not the computer")
    simulator = simulator_for(game)
    player = AIPlayer(
        STRENGTHS[strength.value], seed, params=simulator.params, table=simulator.table
    )
    loop = resume(game)
    if game.state.choice_pending:
        option = player.choose(loop.option_positions())
        return Turn(line=choose(game, option), shot=None)
    played = play(game, player.decide(loop.position))
    return Turn(line=played.line, shot=played.shot)
