"""``onered/SnookerOneRed-v0``: one learning agent against a built-in opponent.

Each :meth:`~SnookerOneRedEnv.step` is one decision of the agent — the foul option when
one is pending, then one stroke — followed by the opponent's whole visit if the turn
passed to him. The reward is the agent's points minus the opponent's points between two
decisions of the agent (a foul's penalty counts for the player it is given to). The
episode terminates when a player reaches the target and is truncated at the stroke cap.
See ``docs/env.md``.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from onered.env.core import AGENT, Config, Frame
from onered.env.spaces import action_space, observation_space, read_action


class SnookerOneRedEnv(gym.Env[np.ndarray, np.ndarray]):
    """Snooker-1-Red for one agent against ``opponent`` (``"random"`` or an AI level).

    Keyword arguments are the fields of :class:`~onered.env.core.Config`: ``target``
    (100), ``max_strokes`` (1000), ``opponent`` (``"random"``), ``agent_first`` (``None``:
    drawn from the seed), ``clip`` (``True``), ``params`` and ``table`` (the physics).
    """

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 - gymnasium's convention

    def __init__(self, **settings: Any) -> None:
        self.config = Config(**settings)
        self.action_space = action_space()
        self.observation_space = observation_space(self.config.target)
        self.frame = Frame(self.config)
        self._started = False
        self._ended = False
        self._margin = 0
        self._tally = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; with the opponent starting, his first visit is played here (its
        points are ``info["margin"]``, the agent's score minus the opponent's). Should
        that visit end the game (the target reached, or the stroke cap used), the first
        step ends the episode at once, with reward 0, without playing its action."""
        super().reset(seed=seed)
        frame = self.frame
        frame.start_single(self.np_random)
        frame.opponent_visit()
        self._started = True
        self._ended = False
        self._margin = frame.margin(AGENT)
        self._tally = frame.tally(AGENT)
        return frame.observe(AGENT), self._info()

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before step()")
        if self._ended:
            raise gym.error.ResetNeeded("the episode has ended: call reset()")
        frame = self.frame
        decision = read_action(action, clip=self.config.clip)
        if not frame.done:  # (an opening visit of the opponent may end the game)
            frame.decide(decision)
            frame.opponent_visit()
        self._margin = frame.margin(AGENT)
        tally = frame.tally(AGENT)  # (the margin, or the agent's own points: config.reward)
        reward = float(tally - self._tally)
        self._tally = tally
        self._ended = frame.done
        return frame.observe(AGENT), reward, frame.over, frame.truncated, self._info()

    def _info(self) -> dict[str, Any]:
        frame = self.frame
        return {"margin": self._margin, "strokes": frame.strokes}
