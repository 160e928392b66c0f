"""onered.physics: an event-based simulation of the table (no fixed time step).

Closed-form ball motion (sliding, rolling, spinning), exact event times, ball-ball
collisions with restitution and throw, cushions and jaws after Mathavan et al. (2010) or
Han (2005), pockets, and a cue strike model. The event loop is a C extension (``_engine``);
this package validates inputs and builds the results. Knows nothing of the rules of any
game.

Entry points: :func:`simulate` (one stroke), :func:`simulate_batch` (many candidate
strokes from one position), :func:`simulate_compact` (the same, lean results),
:func:`strike_to_launch` (cue action to launch state), and, for thousands of strokes from
many positions in one call with NumPy arrays in and out, ``onered.physics.batch.simulate_many``
(a module of its own, so that the single-shot entry points do not import NumPy).
"""

from onered.physics.cue import cue_speed, squirt_angle, strike_to_launch
from onered.physics.engine import (
    DIRECTIONS,
    ENGINE_VERSION,
    EVENT_KINDS,
    CompactBatch,
    CompactShot,
    check_position,
    simulate,
    simulate_batch,
    simulate_compact,
)
from onered.physics.errors import PhysicsError, PhysicsInputError
from onered.physics.geometry import Knuckle, Line, PocketShape, TableGeometry, TableSpec
from onered.physics.params import CushionModel, Params
from onered.physics.types import Event, EventKind, Launch, Segment, ShotResult, Strike

__all__ = [
    "DIRECTIONS",
    "ENGINE_VERSION",
    "EVENT_KINDS",
    "CompactBatch",
    "CompactShot",
    "CushionModel",
    "Event",
    "EventKind",
    "Knuckle",
    "Launch",
    "Line",
    "Params",
    "PhysicsError",
    "PhysicsInputError",
    "PocketShape",
    "Segment",
    "ShotResult",
    "Strike",
    "TableGeometry",
    "TableSpec",
    "check_position",
    "cue_speed",
    "simulate",
    "simulate_batch",
    "simulate_compact",
    "squirt_angle",
    "strike_to_launch",
]
