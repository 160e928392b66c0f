"""``onered/SnookerOneRed-v0``: one learning agent against a built-in opponent.

Each :meth:`~SnookerOneRedEnv.step` is one decision of the agent — the foul option when
one is pending, then one stroke — followed by the opponent's whole visit if the turn
passed to him. The reward is the agent's points minus the opponent's points between two
decisions of the agent (a foul's penalty counts for the player it is given to). The
episode terminates when a player reaches the target and is truncated at the stroke cap.
It renders (``render_mode``) and writes its game as a record (:meth:`save_record`):
:mod:`onered.env.render`. See ``docs/env.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from onered.env.core import AGENT, OPPONENT, Config, Frame
from onered.env.render import RENDER_FPS, RENDER_MODES, RENDER_WIDTH, Screen, write_record
from onered.env.spaces import action_space, observation_space, read_action


class SnookerOneRedEnv(gym.Env[np.ndarray, np.ndarray]):
    """Snooker-1-Red for one agent against ``opponent`` (``"random"`` or an AI level).

    Keyword arguments are the fields of :class:`~onered.env.core.Config`: ``target``
    (100), ``max_strokes`` (1000), ``opponent`` (``"random"``), ``agent_first`` (``None``:
    drawn from the seed), ``clip`` (``True``), ``params`` and ``table`` (the physics).
    ``render_mode`` is ``None``, ``"rgb_array"``, ``"ansi"`` or ``"human"`` (the text
    picture printed), ``render_width`` the pixels of an ``rgb_array`` frame's width.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium's convention
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self, render_mode: str | None = None, render_width: int = RENDER_WIDTH, **settings: Any
    ) -> None:
        self.config = Config(**settings)
        self._screen = Screen(render_mode, render_width, self.config.params, self.config.table)
        self.render_mode = self._screen.mode
        self._seed: int | None = None
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
        self._seed = seed
        frame = self.frame
        frame.start_single(self.np_random)
        frame.opponent_visit()
        self._started = True
        self._ended = False
        self._margin = frame.margin(AGENT)
        self._tally = frame.tally(AGENT)
        self._screen.shown(frame.game)
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
        self._screen.shown(frame.game)
        return frame.observe(AGENT), reward, frame.over, frame.truncated, self._info()

    def render(self) -> np.ndarray | str | None:
        """The game now in the ``render_mode``: an ``H×W×3`` ``uint8`` array of the table
        with the last stroke's paths (``rgb_array``), a text picture (``ansi``), or
        ``None`` (``human`` prints the text picture at every reset and step)."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before render()")
        return self._screen.render(self.frame.game)

    def record(self) -> str:
        """This episode's game in the record format (``docs/record-format.md``): its
        strokes played again with their paths; ``seed`` the last ``reset``'s, if given."""
        if not self._started:
            raise gym.error.ResetNeeded("call reset() before record()")
        frame = self.frame
        entrants = {AGENT: "learner", OPPONENT: self._opponent_description()}
        return self._screen.record(frame.game, seed=self._seed, entrants=entrants)

    def save_record(self, path: str | Path) -> Path:
        """Write :meth:`record` to ``path``: ``onered replay`` and ``onered advise
        --record`` read it."""
        return write_record(path, self.record())

    def _opponent_description(self) -> str:
        opponent = self.frame.opponent
        return "random" if opponent is None else opponent.description

    def _info(self) -> dict[str, Any]:
        frame = self.frame
        return {"margin": self._margin, "strokes": frame.strokes}
