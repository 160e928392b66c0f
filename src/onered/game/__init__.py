"""Games of Snooker-1-Red on the simulated table: the loop joining physics and referee.

``Game(match, simulator)`` starts a game (or ``Game.resume(state, balls, simulator)`` a
constructed position); ``game.play(action)`` plays one stroke and ``game.choose(option)``
takes a foul option, each returning a record of what happened. ``onered.game.record``
writes and reads games as JSON Lines; ``onered.game.replay`` plays a record again and
checks it; ``onered.game.session`` is a game's life for every interface and
``onered.game.stats`` counts figures over games. The shot is read into the referee's
stroke by ``onered.bridge`` alone. Players (who decide the actions, the computer's turn in
a session included) are in ``onered.players``: nothing here imports them.
"""

from onered.game.lag import LAG_STARTS, lag_stroke, lag_winner, match_after_lag
from onered.game.loop import BALL_ORDER, Game, placement_point, placement_problem, settle
from onered.game.model import (
    Action,
    ChoiceRecord,
    Entry,
    GameError,
    IllegalActionError,
    IllegalPlacementError,
    Intent,
    Lag,
    LagChoice,
    LagStroke,
    Position,
    StrokeRecord,
)
from onered.game.simulator import PhysicsSimulator, Simulator

__all__ = [
    "BALL_ORDER",
    "LAG_STARTS",
    "Action",
    "ChoiceRecord",
    "Entry",
    "Game",
    "GameError",
    "IllegalActionError",
    "IllegalPlacementError",
    "Intent",
    "Lag",
    "LagChoice",
    "LagStroke",
    "PhysicsSimulator",
    "Position",
    "Simulator",
    "StrokeRecord",
    "lag_stroke",
    "lag_winner",
    "match_after_lag",
    "placement_point",
    "placement_problem",
    "settle",
]
