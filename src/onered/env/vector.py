"""Many tables per call: a Gymnasium ``VectorEnv`` of ``onered/SnookerOneRed-v0``.

Each table is the single-agent environment's :class:`~onered.env.core.Frame`, seeded and
reset exactly as ``gymnasium.vector.SyncVectorEnv`` seeds and autoresets single
environments (``reset(seed=s)`` seeds table ``i`` with ``s + i``; next-step autoreset), so
the results are those of the single environments, table for table.

A step runs in rounds: first every table's agent stroke, then, round after round, the
opponents' strokes of the tables where the opponent is to play. The strokes of a round,
each from its own table's position, go to the :class:`~onered.env.strokes.StrokeEngine`
together: on one thread each is simulated alone (the fastest measured on one core), with
``threads=2`` a round of many is one call of the batch kernel a thread, run at once (the
kernel releases the GIL); each game then has its stroke judged
(:meth:`~onered.env.lean.LeanGame.judge`). ``workers`` shares the tables out over
processes, which run the Python of a step (nine tenths of it) on as many cores.
``render_mode`` (``"rgb_array"`` or ``"ansi"``, in one process) renders every table
(:mod:`onered.env.render`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from onered.env.core import AGENT, Config, Frame
from onered.env.render import RENDER_FPS, RENDER_WIDTH, RenderError, Screen
from onered.env.spaces import ACTION_NAMES, action_space, observation_space, read_action
from onered.env.strokes import StrokeEngine
from onered.env.workers import Workers
from onered.game import Action


class SnookerOneRedVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` tables of the single-agent environment; ``threads=2`` runs a round's
    strokes through the batch kernel on two threads; ``workers`` (> 1) shares the tables
    out over that many processes (:mod:`onered.env.workers`: the Python of a step runs on
    as many cores); the other keyword arguments are the single environment's settings
    (:class:`~onered.env.core.Config`). The results are the same whatever the threads and
    workers."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - gymnasium's convention
        "render_modes": ["rgb_array", "ansi"],
        "render_fps": RENDER_FPS,
        "autoreset_mode": AutoresetMode.NEXT_STEP,
    }

    def __init__(
        self,
        num_envs: int = 8,
        threads: int = 1,
        workers: int = 1,
        render_mode: str | None = None,
        render_width: int = RENDER_WIDTH,
        **settings: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs: expected a positive integer, got {num_envs!r}")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ValueError(f"workers: expected a positive integer, got {workers!r}")
        self.config = Config(**settings)
        if render_mode is not None and workers > 1 and num_envs > 1:
            raise RenderError("render_mode: the tables are rendered in one process: workers=1")
        self._screens = [
            Screen(
                render_mode,
                render_width,
                self.config.params,
                self.config.table,
                self.metadata["render_modes"],
            )
            for _ in range(num_envs)
        ]
        self.render_mode = self._screens[0].mode
        self._workers = (
            Workers(num_envs, min(workers, num_envs), {"threads": threads, **settings})
            if workers > 1 and num_envs > 1
            else None
        )
        self.engine = StrokeEngine(self.config.params, self.config.table, threads)
        self.num_envs = num_envs
        self.single_action_space = action_space()
        self.single_observation_space = observation_space(self.config.target)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.frames = [Frame(self.config, self.engine) for _ in range(num_envs)]
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._margins = [0] * num_envs
        self._tallies = [0] * num_envs
        self._ended = np.zeros(num_envs, dtype=bool)
        self._started = False

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Reset every table: ``seed`` an integer (table ``i`` gets ``seed + i``), a list
        of seeds, or ``None`` (each table goes on with its own generator)."""
        n = self.num_envs
        if seed is None:
            seeds: list[int | None] = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed: expected {n} seeds, got {len(seeds)}")
        if isinstance(seed, int):
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        if self._workers is not None:
            self._started = True
            return self._workers.reset(seeds)
        for i, s in enumerate(seeds):
            self._reset_table(i, s)
        self._ended[:] = False
        self._started = True
        return self._observe(), self._infos()

    def _reset_table(self, i: int, seed: int | None) -> None:
        """As ``SnookerOneRedEnv.reset``: seed (or go on with) the table's generator, start
        a game and play the opponent's first visit if he starts."""
        rng = self._rngs[i]
        if seed is not None or rng is None:
            rng = self._rngs[i] = seeding.np_random(seed)[0]
        frame = self.frames[i]
        frame.start_single(rng)
        frame.opponent_visit()
        self._margins[i] = frame.margin(AGENT)
        self._tallies[i] = frame.tally(AGENT)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        n = self.num_envs
        acts = np.asarray(actions)
        if acts.shape != (n, len(ACTION_NAMES)):
            raise ValueError(f"actions: expected shape {(n, len(ACTION_NAMES))}, got {acts.shape}")
        if self._workers is not None:
            return self._workers.step(acts)
        rewards = np.zeros(n, dtype=np.float64)
        ended = self._ended
        jobs: list[tuple[int, Action]] = []
        for i, frame in enumerate(self.frames):
            if ended[i]:
                self._reset_table(i, None)
                continue
            decision = read_action(acts[i], clip=self.config.clip)
            if frame.done:  # an opening visit of the opponent ended the game
                continue
            jobs.append((i, frame.prepare(decision)))
        playing = [i for i in range(n) if not ended[i]]
        while jobs:
            self._play(jobs)
            jobs = []
            for i in playing:
                action = self.frames[i].opponent_action()
                if action is not None:
                    jobs.append((i, action))
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        for i in playing:
            frame = self.frames[i]
            self._margins[i] = frame.margin(AGENT)
            tally = frame.tally(AGENT)  # (the margin, or the agent's own points: config.reward)
            rewards[i] = tally - self._tallies[i]
            self._tallies[i] = tally
            terminated[i] = frame.over
            truncated[i] = frame.truncated
        self._ended = terminated | truncated
        return self._observe(), rewards, terminated, truncated, self._infos()

    def _play(self, jobs: list[tuple[int, Action]]) -> None:
        """Simulate the round's strokes together (the engine's round), then have each
        judged in its game."""
        frames = self.frames
        shots = [frames[i].game.shot(action) for i, action in jobs]
        strokes = self.engine.strokes(shots)
        for (i, action), stroke in zip(jobs, strokes, strict=True):
            frames[i].play(action, stroke)

    def render(self) -> tuple[Any, ...] | None:
        """Every table's frame in the ``render_mode`` (``rgb_array``: arrays, ``ansi``:
        strings), in table order; ``None`` without a mode."""
        if self.render_mode is None:
            return None
        if not self._started:
            raise RuntimeError("call reset() before render()")
        return tuple(
            screen.render(frame.game)
            for screen, frame in zip(self._screens, self.frames, strict=True)
        )

    def close(self, **kwargs: Any) -> None:
        self.engine.close()
        if self._workers is not None:
            self._workers.close()
        super().close(**kwargs)

    def _observe(self) -> np.ndarray:
        values = [frame.observation_values(AGENT) for frame in self.frames]
        return np.array(values, dtype=np.float32)

    def _infos(self) -> dict[str, Any]:
        everyone = np.ones(self.num_envs, dtype=bool)
        return {
            "margin": np.array(self._margins, dtype=np.int64),
            "_margin": everyone,
            "strokes": np.array([f.strokes for f in self.frames], dtype=np.int64),
            "_strokes": everyone.copy(),
        }
