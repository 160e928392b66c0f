"""The environments' engine path: the strokes of many games through the C kernel.

Every stroke an environment plays goes through :class:`StrokeEngine`, which has two ways
of running a round of shots (each from its own game's position), bit for bit the same:

- **each shot alone** (one thread, the default): the kernel's single-position entry, as
  :func:`onered.physics.simulate_compact` runs it but without re-checking what the game
  has checked (balls placed legally, strikes within the cue's limits; a cheap test still
  sends a bad strike to the physics' own error), read by :func:`onered.bridge.compact_stroke`;
- **the batch** (``threads=2``, rounds of :data:`SPLIT_AT` shots or more):
  :func:`onered.physics.batch.simulate_many` with the round split over two threads (the
  kernel releases the GIL), read by :func:`onered.bridge.batch_strokes`: no Python object
  per shot until the reading.

Why alone on one thread: measured in the vector form (64 tables, random opponent, six
interleaved runs, load 4.1-4.8 on 2 cores) each shot alone gave 12,500-13,100
table-steps per CPU-second and the batch kernel in one call a round 10,600-11,500. The
kernel is about a tenth of a step either way; the batch's reading (the arrays converted,
the kept event log turned into tuples for the strokes from hand, half the random
opponent's) costs more per shot than the compact entry's tuples built in C. The batch is
kept for what only it can do, the kernel of a round on two cores at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from onered import bridge, rules
from onered.physics import Params, TableSpec, strike_to_launch
from onered.physics._engine import Context, launch_of
from onered.physics.batch import simulate_many
from onered.physics.cue import within_limits
from onered.physics.engine import (
    MAX_EVENTS,
    CompactShot,
    _context_of,
    placement_error,
)
from onered.physics.errors import PhysicsError, PhysicsInputError
from onered.physics.types import Strike
from onered.table import Point

#: The engine's input for one stroke: the balls (name -> centre, in sorted name order, the
#: engine's; the cue ball at its placement when from hand), the cue ball's name, the strike
#: and whether it is played from hand.
Shot = tuple[dict[str, Point], str, Strike, bool]
#: Rounds of at least this many shots are split over two threads (when asked for): below
#: it, handing half to the other thread costs more than it saves.
SPLIT_AT = 16


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

    def close(self) -> None:
        """Nothing to stop: the batch's threads are the physics' kept pool (kept for the
        environments' ``close``)."""

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
        if not within_limits(*row):
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
        """Shots whose balls are ``ids`` (sorted names) in one batch, split over the
        engine's threads, read by ``bridge.batch_strokes``."""
        rows = [(s.speed, s.aim, s.side, s.height, s.elevation) for _, _, s, _ in shots]
        try:  # the batch checks the strikes itself (in C) ...
            batch = simulate_many(
                [[names[b] for b in ids] for names, _, _, _ in shots],
                np.array([ids.index(cue) for _, cue, _, _ in shots], np.int32),
                strikes=rows,
                ball_ids=ids,
                params=self.params,
                table=self.table,
                events=True,
                threads=self.threads,
            )
        except PhysicsInputError:
            # ... and a refused one is named by the physics' own error for one strike
            for _, _, strike, _ in shots:
                strike_to_launch(strike, self.params)
            raise
        placed = [names[cue] if hand else None for names, cue, _, hand in shots]
        before: list[Mapping[str, Point] | None] = [
            names if hand else None for names, _, _, hand in shots
        ]
        return bridge.batch_strokes(batch, placed=placed, before=before)
