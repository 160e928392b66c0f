"""Positions for the coach's tests, and a short played game record."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

from onered.game import Game, PhysicsSimulator
from onered.game.model import Position
from onered.rules import Ball, Match
from onered.table import LENGTH, Point

#: A mid-table position: every kind of stroke is on.
OPEN: dict[Ball, Point] = {
    Ball.WHITE: (0.6, 2.2),
    Ball.RED: (1.5, 3.0),
    Ball.YELLOW: (0.4, 1.2),
}
#: The red hanging over the left middle pocket, the white straight behind it.
HANGING: dict[Ball, Point] = {
    Ball.WHITE: (0.7, LENGTH / 2),
    Ball.RED: (0.05, LENGTH / 2),
    Ball.YELLOW: (1.4, 0.9),
}


def position(balls: dict[Ball, Point], **state: object) -> Position:
    """The white to play with ``balls`` on the table (0:0 unless ``state`` says more)."""
    game = Game(Match(100, ("Ivanov", "Petrov")), PhysicsSimulator())
    st = replace(game.state, table=dict(balls), **state)  # type: ignore[arg-type]
    return Position(balls=dict(balls), state=st)


def played_record(path: Path, strokes: int = 8, seed: int = 3) -> Path:
    """A game between two beginners, ``strokes`` strokes long, written as a game record."""
    from onered.game.record import game_lines
    from onered.players import make_player

    simulator = PhysicsSimulator()
    match = Match(100, ("Ivanov", "Petrov"))
    game = Game(match, simulator)
    players = [make_player("ai:beginner", seed + k) for k in range(2)]
    while len(game.entries) < strokes and not game.over:
        if game.state.choice_pending:
            game.choose(players[game.state.to_play].choose(game.option_positions()))
            continue
        game.play(players[game.state.to_play].decide(game.position))
    out = io.StringIO()
    for line in game_lines(game, seed=seed):
        out.write(line + "\n")
    path.write_text(out.getvalue(), encoding="utf-8")
    return path
