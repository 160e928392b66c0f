"""``ShotLibraryEnv``: the single-agent environment with the shot library's actions.

The action is an index into the library's slots (:mod:`onered.env.library`): a
``Discrete(K)`` space, with ``info["action_mask"]`` and :meth:`ShotLibraryEnv.action_masks`
saying which slots hold a candidate now (the interface of sb3-contrib's ``MaskablePPO``
and RLlib's action-masking models). The chosen candidate is encoded as the wrapped
environment's action (:func:`onered.env.encode_action`) and played by it, so rewards,
termination and seeding are the wrapped environment's.

When a foul option is pending the wrapper takes it before the agent decides (the library's
:meth:`~onered.env.library.Library.option`) and the candidates and the observation are
those of the position it gives. The observation is the wrapped one followed by each slot's
estimated chance of scoring (0 for a masked slot): ``29 + K`` numbers.

``noise`` (an AI level's name, or ``None``: exact) plays each chosen stroke with that
level's execution noise (:meth:`onered.players.Noise.apply`), its draws from a generator
seeded at each ``reset`` from the episode's seed: the agent then aims as well as that
player does, and the candidates' chances matter.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np

from onered.env.core import AGENT, ConfigError, Frame
from onered.env.gym_env import SnookerOneRedEnv
from onered.env.library import Candidate, K, Library
from onered.env.spaces import ActionError, encode_action, observation_space
from onered.players import LEVELS, Level, Noise
from onered.players.strength import clamp_strike
from onered.rules import Option
from onered.table import D_CENTRE


class ShotLibraryEnv(gym.Env[np.ndarray, np.int64]):
    """``onered/SnookerOneRed-v0`` (keyword arguments: its settings) played by choosing
    one of :data:`~onered.env.library.K` candidate strokes a decision, exactly or with the
    execution ``noise`` of an AI level."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - gymnasium's convention

    def __init__(self, noise: str | None = None, **settings: Any) -> None:
        self.inner = SnookerOneRedEnv(**settings)
        self.noise: Noise | None = None
        if noise is not None:
            try:
                self.noise = LEVELS[Level(noise)].noise
            except ValueError:
                names = ", ".join(level.value for level in Level)
                raise ConfigError(
                    f"noise: expected one of {names} or None, got {noise!r}"
                ) from None
        self._noise_rng = random.Random(0)
        config = self.inner.config
        self.library = Library(config.params, config.table)
        self.action_space = gym.spaces.Discrete(K)
        base = observation_space(config.target)
        self.observation_space = gym.spaces.Box(
            np.concatenate([base.low, np.zeros(K, np.float32)]),
            np.concatenate([base.high, np.ones(K, np.float32)]),
            dtype=np.float32,
        )
        self._candidates: list[Candidate | None] = [None] * K
        self._mask = np.zeros(K, dtype=np.int8)
        self._option = Option.AS_THEY_LIE

    @property
    def frame(self) -> Frame:
        return self.inner.frame

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self._noise_rng = random.Random(int(self.np_random.integers(2**31)))
        _, info = self.inner.reset(seed=seed, options=options)
        return self._prepared(info)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        index = _index(action)
        candidate = self._candidates[index]
        if candidate is None:
            raise ActionError(f"action: slot {index} is masked (no candidate now)")
        place = candidate.placed if candidate.placed is not None else D_CENTRE
        strike = candidate.strike
        if self.noise is not None:
            strike = clamp_strike(self.noise.apply(strike, self._noise_rng))
        vector = encode_action(strike, place, self._option)
        _, reward, terminated, truncated, info = self.inner.step(vector)
        obs, info = self._prepared(info)
        return obs, reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """Which slots hold a candidate now (``MaskablePPO`` asks for this)."""
        return self._mask.astype(bool)

    def candidates(self) -> list[Candidate | None]:
        """The candidates of the current decision, one entry a slot."""
        return list(self._candidates)

    def _prepared(self, info: dict[str, Any]) -> tuple[np.ndarray, dict[str, Any]]:
        """Take a pending foul option, list the candidates, and observe."""
        frame = self.frame
        game = frame.game
        self._option = Option.AS_THEY_LIE
        if not frame.done and game.state.choice_pending:
            self._option = self.library.option(game.option_positions())
            game.choose(self._option)
        self._candidates = self.library.candidates(game.position)
        self._mask = np.array([c is not None for c in self._candidates], dtype=np.int8)
        chances = np.array(
            [0.0 if c is None else c.chance for c in self._candidates], dtype=np.float32
        )
        obs = np.concatenate([frame.observe(AGENT), chances]).astype(np.float32)
        info = dict(info)
        info["action_mask"] = self._mask.copy()
        return obs, info


def _index(action: Any) -> int:
    """``action`` as a slot index, or :class:`ActionError` naming it."""
    try:
        value = np.asarray(action)
        if value.size != 1 or not np.issubdtype(value.dtype, np.integer):
            raise TypeError
        index = int(value.reshape(()))
    except (TypeError, ValueError):
        raise ActionError(f"action: expected a slot index 0..{K - 1}, got {action!r}") from None
    if not 0 <= index < K:
        raise ActionError(f"action: expected a slot index 0..{K - 1}, got {index}")
    return index
