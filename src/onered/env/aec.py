"""Snooker-1-Red for two learning agents: a PettingZoo AEC environment.

``player_0`` plays first (with the white), ``player_1`` second. The agent selected is
the player to play (a scoring stroke keeps the turn). Each step is one decision of that
player — the foul option when one is pending, then one stroke — with the same action and
observation spaces as the single-agent form (:mod:`onered.env.spaces`; each agent sees
the table from his own side). After every stroke both agents are rewarded: the striker's
points minus his opponent's (a foul's penalty counts for the player it is given to), and
the opposite for the other (zero-sum). The game terminates for both when one reaches the
target and is truncated for both at the stroke cap. It renders (``render_mode``) and
writes its game as a record (:meth:`~SnookerOneRedAEC.save_record`):
:mod:`onered.env.render`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from onered.env.core import Config, Frame
from onered.env.render import RENDER_FPS, RENDER_MODES, RENDER_WIDTH, Screen, write_record
from onered.env.spaces import action_space, observation_space, read_action

AGENTS: tuple[str, str] = ("player_0", "player_1")


class SnookerOneRedAEC(AECEnv):  # type: ignore[misc]  # (PettingZoo has no type information)
    """Two agents playing one game. Keyword arguments: ``target``, ``max_strokes``,
    ``clip``, ``params``, ``table`` (see :class:`~onered.env.core.Config`), and
    ``render_mode`` (``None``, ``"rgb_array"``, ``"ansi"`` or ``"human"``: the text
    picture printed after every reset and step) with ``render_width`` (pixels)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's convention
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": "snooker_one_red_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, render_mode: str | None = None, render_width: int = RENDER_WIDTH, **settings: Any
    ) -> None:
        super().__init__()
        for name in ("opponent", "agent_first"):
            if name in settings:
                raise TypeError(f"{name}: not a setting of the two-agent environment")
        self.config = Config(**settings)
        self._screen = Screen(render_mode, render_width, self.config.params, self.config.table)
        self.render_mode = self._screen.mode
        self._seed: int | None = None
        self.possible_agents = list(AGENTS)
        self._action_space = action_space()
        self._observation_space = observation_space(self.config.target)
        self.frame = Frame(self.config)
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. Nothing in it is random (the physics is deterministic and the order
        fixed); ``seed`` seeds :attr:`np_random` for wrappers that draw from it."""
        if seed is not None or not hasattr(self, "np_random"):
            self.np_random, _ = seeding.np_random(seed)
        self._seed = seed
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.frame.start(AGENTS, None)
        self.agent_selection = self.frame.to_play()
        self._started = True
        self._screen.shown(self.frame.game)

    def observe(self, agent: str) -> np.ndarray:
        return self.frame.observe(agent)

    def step(self, action: np.ndarray | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"action: {agent} is to play; None is only for an agent who is done")
        frame = self.frame
        before = frame.margin(AGENTS[0])
        frame.decide(read_action(action, clip=self.config.clip))
        gain = float(frame.margin(AGENTS[0]) - before)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {AGENTS[0]: gain, AGENTS[1]: -gain}
        if frame.over:
            self.terminations = dict.fromkeys(self.agents, True)
        elif frame.truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = frame.to_play()
        self._accumulate_rewards()
        self._screen.shown(frame.game)

    def render(self) -> np.ndarray | str | None:
        """The game now in the ``render_mode``: an ``H×W×3`` ``uint8`` array of the table
        with the last stroke's paths (``rgb_array``), a text picture (``ansi``), or
        ``None`` (``human`` prints the text picture at every reset and step)."""
        if not self._started:
            raise RuntimeError("call reset() before render()")
        return self._screen.render(self.frame.game)

    def record(self) -> str:
        """This game in the record format (``docs/record-format.md``), its strokes played
        again with their paths; ``seed`` the last ``reset``'s, if given."""
        if not self._started:
            raise RuntimeError("call reset() before record()")
        entrants = dict.fromkeys(AGENTS, "learner")
        return self._screen.record(self.frame.game, seed=self._seed, entrants=entrants)

    def save_record(self, path: str | Path) -> Path:
        """Write :meth:`record` to ``path``: ``onered replay`` and ``onered advise
        --record`` read it."""
        return write_record(path, self.record())


def aec_env(**settings: Any) -> Any:
    """The two-agent environment wrapped as PettingZoo recommends (order enforcing): a
    ``pettingzoo.AECEnv``."""
    return wrappers.OrderEnforcingWrapper(SnookerOneRedAEC(**settings))
