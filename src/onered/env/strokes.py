"""The environments' engine path: the strokes of many games through the C kernel.

Every stroke an environment plays goes through :class:`StrokeEngine`, which has two ways
of running a round of shots (each from its own game's position), bit for bit the same:

- **each shot alone** (one thread, the default): the kernel's single-position entry, as
  :func:`onered.physics.simulate_compact` runs it but without re-checking what the game
  has checked (balls placed legally, strikes within the cue's limits; a cheap test still
  sends a bad strike to the physics' own error), read by :func:`onered.bridge.compact_stroke`;
- **the batch kernel** (``threads=2``, rounds of :data:`SPLIT_AT` shots or more): the
  round's positions and strikes written into arrays allocated once and reused, simulated by
  the kernel of :func:`onered.physics.batch.simulate_many` in two halves at once on two
  threads (it releases the GIL), read by :func:`onered.bridge.batch_strokes`: no Python
  object per shot until the reading.

Why alone on one thread: measured in the vector form (64 tables, random opponent, six
interleaved runs, load 4.1-4.8 on 2 cores) each shot alone gave 12,500-13,100
table-steps per CPU-second and the batch kernel in one call a round 10,600-11,500. The
kernel is about a tenth of a step either way; the batch's reading (the arrays converted,
the kept event log turned into tuples for the strokes from hand, half the random
opponent's) costs more per shot than the compact entry's tuples built in C. The batch is
kept for what only it can do, the kernel of a round on two cores at once.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import numpy.typing as npt

from onered import bridge, rules
from onered.physics import Params, TableSpec, strike_to_launch
from onered.physics._engine import Context, launch_of, launches_of
from onered.physics.batch import Shots
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.engine import (
    MAX_EVENTS,
    CompactShot,
    Placement,
    _context_of,
    placement_error,
)
from onered.physics.errors import PhysicsError
from onered.physics.types import Strike
from onered.table import Point

#: The engine's input for one stroke: the balls (name -> centre, in sorted name order, the
#: engine's; the cue ball at its placement when from hand), the cue ball's name, the strike
#: and whether it is played from hand.
Shot = tuple[dict[str, Point], str, Strike, bool]
#: Rounds of at least this many shots are split over two threads (when asked for): below
#: it, handing half to the other thread costs more than it saves.
SPLIT_AT = 16


class _Round:
    """The arrays of a round of ``count`` shots from positions of ``n`` balls (views of the
    engine's buffers, made once per size) and the packers that fill its inputs."""

    __slots__ = (
        "at",
        "count",
        "cue",
        "cues",
        "halves",
        "launches",
        "outputs",
        "places",
        "positions",
        "problem",
        "strikes",
        "strokes",
    )

    def __init__(self, count: int, n: int) -> None:
        self.count = count
        self.positions = np.zeros((count, n, 2))
        self.cue = np.zeros(count, np.int32)
        self.strikes = np.zeros((count, 5))
        self.launches = np.zeros((count, 6))
        self.at = np.arange(count, dtype=np.int32)
        self.outputs: tuple[npt.NDArray[Any], ...] = (
            np.zeros(count, np.int8),  # status
            np.zeros(count),  # duration
            np.zeros((count, n, 2)),  # rest
            np.zeros((count, n), np.int8),  # fate
            np.zeros((count, n), np.int8),  # pocket
            np.zeros((count, n), np.int32),  # gone
            np.zeros((count, n)),  # contact
            np.zeros((count, n), np.uint8),  # crossed
            np.zeros((count, n), np.int32),  # cushions
            np.zeros((count, n), np.int16),  # flights
            np.zeros((count, n), np.int16),  # overs
            np.zeros(count, np.int32),  # n_events
            np.zeros(count, np.int64),  # event_end
        )
        self.problem = np.zeros((2, 4), np.int32)
        self.places = struct.Struct(f"{2 * n * count}d")
        self.cues = struct.Struct(f"{count}i")
        self.strokes = struct.Struct(f"{5 * count}d")
        # the two halves' arguments of Context.run_many (a round split over two threads)
        h = count // 2
        self.halves = tuple(
            (
                self.positions[a:b],
                n,
                self.cue[a:b],
                self.launches[a:b],
                self.at[: b - a],
                (*(out[a:b] for out in self.outputs), self.problem[k]),
                True,
            )
            for k, (a, b) in enumerate(((0, h), (h, count)))
        )


class StrokeEngine:
    """The strokes of many games with the physics ``params`` on ``table``: each shot alone
    (``threads=1``), or rounds of :data:`SPLIT_AT` shots or more through the batch kernel
    on two threads, one call a half per set of balls on the table (``threads=2``)."""

    def __init__(self, params: Params, table: TableSpec, threads: int = 1) -> None:
        if threads not in (1, 2):
            raise ValueError(f"threads: expected 1 or 2, got {threads!r}")
        self.params = params
        self.table = table
        self.threads = threads
        self._context: Context = _context_of(params, table)
        self._rounds: dict[tuple[int, int], _Round] = {}
        self._pool: ThreadPoolExecutor | None = None

    def close(self) -> None:
        """Stop the second thread (if one was started)."""
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def strokes(self, shots: Sequence[Shot]) -> list[rules.Stroke]:
        """The referee's strokes of ``shots``, in order."""
        if self.threads == 1 or len(shots) < SPLIT_AT:
            return [self._alone(shot) for shot in shots]
        first = tuple(shots[0][0])
        if all(len(s[0]) == len(first) and tuple(s[0]) == first for s in shots):
            return self._strokes(first, shots)
        groups: dict[tuple[str, ...], list[int]] = {}
        for k, shot in enumerate(shots):
            groups.setdefault(tuple(shot[0]), []).append(k)
        out: list[rules.Stroke | None] = [None] * len(shots)
        for ids, members in groups.items():
            done = self._strokes(ids, [shots[k] for k in members])
            for k, stroke in zip(members, done, strict=True):
                out[k] = stroke
        return [s for s in out if s is not None]

    def _alone(self, shot: Shot) -> rules.Stroke:
        """One shot through the kernel's single-position entry (as ``simulate_compact``
        runs it, without its checks of what the game has checked), read by
        ``compact_stroke``: the same kernel, the same bits as in a round."""
        names, cue, strike, hand = shot
        ids = tuple(names)
        flat = [c for p in names.values() for c in p]
        ctx = self._context
        problem = ctx.validate(flat)
        if problem is not None:
            raise placement_error(problem[0], ids, flat, problem[1], problem[2])
        s, params = strike, self.params
        row = (s.speed, s.aim, s.side, s.height, s.elevation)
        if not _within_limits(row):
            strike_to_launch(strike, params)  # raises the physics' error
        launch = launch_of(*row, params.R, params.m, params.cue_end_mass)
        (raw,) = ctx.simulate(flat, ids.index(cue), list(launch), False)
        if raw[0] != 0:
            raise PhysicsError(f"shot 0: the shot did not end within {MAX_EVENTS} events")
        return bridge.compact_stroke(
            CompactShot(raw[1], raw[2], raw[3]),
            ids,
            cue,
            placed=names[cue] if hand else None,
            before=names,
        )

    def _strokes(self, ids: tuple[str, ...], shots: Sequence[Shot]) -> list[rules.Stroke]:
        """Shots whose balls are ``ids`` (sorted names) in one kernel call (or two at once)."""
        count, n = len(shots), len(ids)
        key = (n, count)
        r = self._rounds.get(key)
        if r is None:
            r = self._rounds[key] = _Round(count, n)
        r.places.pack_into(
            r.positions.data, 0, *[c for names, _, _, _ in shots for b in ids for c in names[b]]
        )
        r.cues.pack_into(r.cue.data, 0, *[ids.index(cue) for _, cue, _, _ in shots])
        rows = [(s.speed, s.aim, s.side, s.height, s.elevation) for _, _, s, _ in shots]
        for row, (_, _, strike, _) in zip(rows, shots, strict=True):
            if not _within_limits(row):
                strike_to_launch(strike, self.params)  # raises the physics' error
        r.strokes.pack_into(r.strikes.data, 0, *[x for row in rows for x in row])
        params = self.params
        launches_of(r.strikes, r.launches, params.R, params.m, params.cue_end_mass)
        log = self._run(r)
        self._check(r, ids)
        (_, duration, rest, fate, pocket, gone, contact, crossed, cushions, flights, overs,
         n_events, event_end) = r.outputs  # fmt: skip
        batch = Shots(
            ids,
            r.at,
            r.cue,
            duration,
            rest,
            fate,
            pocket,
            gone,
            contact,
            crossed,
            cushions,
            flights,
            overs,
            n_events,
            np.frombuffer(log, np.float64).reshape(-1, 7),
            event_end,
            r.positions,
            r.launches,
            params,
            self.table,
        )
        placed = [names[cue] if hand else None for names, cue, _, hand in shots]
        before: list[Mapping[str, Point] | None] = [
            names if hand else None for names, _, _, hand in shots
        ]
        return bridge.batch_strokes(batch, placed=placed, before=before)

    def _run(self, r: _Round) -> bytes:
        """Run the round's shots, in one call or in two halves at once; the event logs of
        all of them, in order (``event_end`` counts from the first)."""
        run = self._context.run_many
        r.problem[1, 0] = -1
        if r.count < SPLIT_AT:  # (a round of one set of balls, smaller than the whole)
            log = run(r.positions, r.positions.shape[1], r.cue, r.launches, r.at,
                      (*r.outputs, r.problem[0]), True)  # fmt: skip
            return log if log is not None else b""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="onered-env-engine")
        second = self._pool.submit(run, *r.halves[1])
        a = run(*r.halves[0]) or b""
        b = second.result() or b""
        r.outputs[12][r.count // 2 :] += len(a) // 56  # the second half's ends: after the first's
        return a + b

    def _check(self, r: _Round, ids: tuple[str, ...]) -> None:
        """Raise what :func:`~onered.physics.batch.simulate_many` raises for a position
        that may not stand or a shot that did not end (neither happens in a game)."""
        problem = r.problem.tolist()
        for half, (p, code, i, j) in enumerate(problem):
            if p >= 0 and code != Placement.OK:
                p += half * (r.count // 2)
                flat = r.positions[p].ravel().tolist()
                raise placement_error(code, ids, flat, i, j, f"positions[{p}]: ")
        status = r.outputs[0]
        if status.tobytes().count(0) != r.count:
            k = int(np.argmax(status != 0))
            raise PhysicsError(f"shot {k}: the shot did not end within {MAX_EVENTS} events")


def _within_limits(row: tuple[float, float, float, float, float]) -> bool:
    """The strike can be played (the cue's limits of ``strike_to_launch``, every number
    finite): the cheap test before the physics' own, which names what is wrong."""
    speed, aim, side, height, elevation = row
    try:
        return (
            0 < speed <= MAX_SPEED
            and math.isfinite(aim)
            and math.hypot(side, height) <= MAX_TIP_OFFSET + 1e-12
            and MIN_ELEVATION <= elevation <= MAX_ELEVATION
        )
    except TypeError:
        return False
