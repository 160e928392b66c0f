"""Errors raised by the physics engine."""

from __future__ import annotations

from onered.errors import OneredError


class PhysicsInputError(OneredError, ValueError):
    """An input the engine refuses: overlapping balls, a ball off the table or over a
    pocket, an unknown cue ball, a non-finite number, a launch speed out of range, an
    invalid parameter. The message names the input and what is wrong with it."""

    default_code = "physics_input"


class PhysicsError(OneredError, RuntimeError):
    """The simulation could not finish (more than ``engine.MAX_EVENTS`` events); never
    expected for physical inputs."""

    default_code = "physics_failed"
