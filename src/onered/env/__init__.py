"""Environments for learning agents: Gymnasium (one agent against a built-in opponent),
PettingZoo AEC (two agents) and a vectorised form (many tables per call).

Needs the ``env`` extra (gymnasium, pettingzoo); nothing else in onered imports this
package. Importing it registers ``onered/SnookerOneRed-v0`` with Gymnasium (the
Gymnasium convention for third-party environments; :func:`register` is idempotent), so::

    import gymnasium as gym
    import onered.env  # noqa: F401 - registers the environment

    env = gym.make("onered/SnookerOneRed-v0", opponent="random", target=100)
    envs = gym.make_vec("onered/SnookerOneRed-v0", num_envs=16)  # the vector form

``gym.make("onered.env:onered/SnookerOneRed-v0")`` imports it for you. See ``docs/env.md``.
"""

from __future__ import annotations

import gymnasium as gym

from onered.env.aec import AGENTS, SnookerOneRedAEC, aec_env
from onered.env.core import Config, ConfigError, Frame, Reward
from onered.env.discrete import ShotLibraryEnv
from onered.env.gym_env import SnookerOneRedEnv
from onered.env.lean import LeanGame
from onered.env.opponents import (
    OPPONENTS,
    OpponentError,
    RandomPlayer,
    ScriptedPlayer,
    make_opponent,
)
from onered.env.spaces import (
    ACTION_NAMES,
    OBS_NAMES,
    ActionError,
    Decision,
    encode_action,
    read_action,
)
from onered.env.vector import SnookerOneRedVectorEnv

ENV_ID = "onered/SnookerOneRed-v0"

__all__ = [
    "ACTION_NAMES",
    "AGENTS",
    "ENV_ID",
    "OBS_NAMES",
    "OPPONENTS",
    "ActionError",
    "Config",
    "ConfigError",
    "Decision",
    "Frame",
    "LeanGame",
    "OpponentError",
    "RandomPlayer",
    "Reward",
    "ScriptedPlayer",
    "ShotLibraryEnv",
    "SnookerOneRedAEC",
    "SnookerOneRedEnv",
    "SnookerOneRedVectorEnv",
    "aec_env",
    "encode_action",
    "make_opponent",
    "read_action",
    "register",
]


def register() -> None:
    """Register :data:`ENV_ID` with Gymnasium (single and vector entry points); a second
    call does nothing."""
    if ENV_ID in gym.registry:
        return
    gym.register(
        id=ENV_ID,
        entry_point="onered.env.gym_env:SnookerOneRedEnv",
        vector_entry_point="onered.env.vector:SnookerOneRedVectorEnv",
    )


register()
