"""Many shots from many positions in one engine call: arrays in, arrays out.

The search of a player, the coach, a study or a vector of learning environments asks the
table thousands of questions at a time. :func:`simulate_many` answers them in one call of
the C kernel (the one every other entry point runs, so each shot is bit for bit what
:func:`onered.physics.simulate_compact` gives for it): positions and strokes go in as NumPy
arrays, and what a caller needs to judge a stroke comes back in arrays allocated once for
the whole batch — rest positions, each ball's fate (on the table, potted, off the table)
and the pocket, the struck ball's first contact with each ball, baulk-line crossings,
cushion contacts, flights — with no Python object made per shot, and with the GIL released
while the kernel runs, so that two threads use two cores. The event log is kept only when
asked for (``events=True``); paths and full :class:`~onered.physics.types.ShotResult`\\ s
are made for one shot on demand (:meth:`Shots.result`), by running it again alone.

NumPy is the array library every user of these results already has (studies, environments,
notebooks); the engine reads and writes the arrays' memory directly (the buffer protocol),
so nothing is copied between them.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from onered.physics._engine import check_launches, launches_of
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.engine import (
    MAX_EVENTS,
    MAX_SPIN_SPEED,
    CompactShot,
    Placement,
    _context,
    _table_and_params,
    placement_error,
)
from onered.physics.errors import PhysicsError, PhysicsInputError
from onered.physics.geometry import TableSpec
from onered.physics.params import Params
from onered.physics.types import CROSSED_IN, CROSSED_OUT, Fate, ShotResult

__all__ = [
    "CROSSED_IN",
    "CROSSED_OUT",
    "LAUNCH_COLUMNS",
    "STRIKE_COLUMNS",
    "Fate",
    "Shots",
    "simulate_many",
    "strikes_to_launches",
]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int32]

#: Columns of a strikes array: launch speed (m/s), aim (degrees), side, height (fractions of
#: R), elevation (degrees), as in :class:`onered.physics.Strike`.
STRIKE_COLUMNS = ("speed", "aim", "side", "height", "elevation")
#: Columns of a launches array, as in :class:`onered.physics.Launch`.
LAUNCH_COLUMNS = ("vx", "vy", "wx", "wy", "wz", "vz")
#: The fewest shots a thread worth starting one for (below it, handing the work over costs
#: more than it saves).
SPLIT_AT = 8
#: The most threads a call may ask for.
MAX_THREADS = 64
#: The most balls in one position (the kernel's scratch is sized per call; 64 is far more
#: than any game of this kind uses).
MAX_BALLS = 64


@dataclass(frozen=True, slots=True, eq=False)
class Shots:
    """The answers of one :func:`simulate_many` call, shot ``k`` in row ``k`` of every
    array; balls in the order of :attr:`ball_ids` (sorted, the engine's order).

    - ``at``: the position each shot was played from (an index into the call's positions);
      ``cue``: the struck ball of each shot;
    - ``duration``: seconds until every ball is at rest;
    - ``rest`` (shots × balls × 2): rest positions, NaN for a ball potted or off the table;
    - ``fate`` (:class:`Fate` codes) and ``pocket`` (an index of
      ``onered.table.POCKET_NAMES``, -1 unless potted);
    - ``gone``: the index in the shot's event log of the event that potted the ball or took
      it off the table (-1: still on the table), which orders the pots of one shot;
    - ``contact``: when the struck ball first touched each ball (``inf``: never; its own
      column is always ``inf``);
    - ``crossed``: :data:`CROSSED_IN` | :data:`CROSSED_OUT` bits of baulk-line crossings;
    - ``cushions``: cushion and jaw contacts of each ball; ``flights``: times it left the
      slate; ``overs``: times it came above part of another ball in the air;
    - ``n_events``: the length of each shot's event log; ``event_log`` (events × 7, the
      integer-coded rows of :class:`onered.physics.CompactShot`) and ``event_end`` (where
      each shot's rows end) only with ``events=True``.
    """

    ball_ids: tuple[str, ...]
    at: Ints
    cue: Ints
    duration: Floats
    rest: Floats
    fate: npt.NDArray[np.int8]
    pocket: npt.NDArray[np.int8]
    gone: Ints
    contact: Floats
    crossed: npt.NDArray[np.uint8]
    cushions: Ints
    flights: npt.NDArray[np.int16]
    overs: npt.NDArray[np.int16]
    n_events: Ints
    event_log: Floats | None
    event_end: npt.NDArray[np.int64] | None
    positions: Floats
    launches: Floats
    params: Params
    table: TableSpec

    def __len__(self) -> int:
        return len(self.at)

    def events(self, k: int) -> tuple[tuple[float, int, int, int, int, int, int], ...]:
        """Shot ``k``'s event log in the compact form (``CompactShot.events``): from the kept
        log, or else by running the shot again alone (the same kernel, the same bits)."""
        if self.event_log is not None and self.event_end is not None:
            start = int(self.event_end[k - 1]) if k > 0 else 0
            rows = self.event_log[start : int(self.event_end[k])]
            # the rows as tuples built by zip over the columns (the integer codes converted
            # at once): a third of the time of converting each number
            codes = rows[:, 1:].astype(np.int64).T.tolist()
            return tuple(zip(rows[:, 0].tolist(), *codes, strict=True))
        return self.compact(k).events

    def compact(self, k: int) -> CompactShot:
        """Shot ``k`` as :func:`onered.physics.simulate_compact` gives it (run again)."""
        ctx = _context(self.params, self.table)
        flat = self.positions[int(self.at[k])].ravel().tolist()
        (raw,) = ctx.simulate(flat, int(self.cue[k]), self.launches[k].tolist(), False)
        return CompactShot(raw[1], raw[2], raw[3])

    def result(self, k: int) -> ShotResult:
        """Shot ``k`` in full, with its paths (run again, as :func:`onered.physics.simulate`
        would run it; balls in engine order)."""
        ctx = _context(self.params, self.table)
        flat = self.positions[int(self.at[k])].ravel().tolist()
        n = len(self.ball_ids)
        (built,) = ctx.results(
            flat, int(self.cue[k]), self.launches[k].tolist(), True, self.ball_ids, range(n)
        )
        if built is None:  # (simulate_many already refused such a shot)
            raise PhysicsError(f"shot {k}: did not end within {MAX_EVENTS} events")
        return built


def strikes_to_launches(strikes: npt.ArrayLike, params: Params | None = None) -> Floats:
    """Launches (shots × 6: :data:`LAUNCH_COLUMNS`) for strikes (shots × 5:
    :data:`STRIKE_COLUMNS`), bit for bit what :func:`onered.physics.strike_to_launch` gives
    each. Raises :class:`PhysicsInputError` naming the first strike out of the limits."""
    params = Params() if params is None else params
    rows = _array(strikes, "strikes", 5)
    out = np.empty((len(rows), 6))
    limits = (MAX_SPEED, MAX_TIP_OFFSET + 1e-12, MIN_ELEVATION, MAX_ELEVATION)
    k = launches_of(rows, out, params.R, params.m, params.cue_end_mass, *limits)
    if k is not None and k >= 0:
        raise PhysicsInputError(
            f"strikes[{k}] = {rows[k].tolist()} is not a stroke: speed in (0, {MAX_SPEED}] "
            f"m/s, tip offset within {MAX_TIP_OFFSET} R, elevation in "
            f"[{MIN_ELEVATION:g}, {MAX_ELEVATION:g}] degrees, every number finite"
        )
    return out


def _array(value: npt.ArrayLike, what: str, columns: int) -> Floats:
    try:
        rows = np.ascontiguousarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise PhysicsInputError(f"{what} must be an array of numbers: {error}") from None
    if rows.ndim != 2 or rows.shape[1] != columns:
        raise PhysicsInputError(
            f"{what} must have shape (shots, {columns}), got {tuple(rows.shape)}"
        )
    return rows


def _check_launches(rows: Floats, radius: float) -> None:
    """The limits :func:`onered.physics.simulate` holds a launch to, row by row (checked in
    C in one pass: ``_engine.check_launches``)."""
    limits = (MAX_SPEED * (1 + 1e-12), MAX_SPIN_SPEED * (1 + 1e-12))
    k = check_launches(rows, radius, *limits)
    if k >= 0:
        raise PhysicsInputError(
            f"launches[{k}] = {rows[k].tolist()}: a launch needs finite numbers, a speed "
            f"up to {MAX_SPEED} m/s, a spin surface speed R|w| up to {MAX_SPIN_SPEED} m/s "
            "and some speed or spin"
        )


def simulate_many(
    positions: npt.ArrayLike,
    cue: int | str | npt.ArrayLike,
    *,
    strikes: npt.ArrayLike | None = None,
    launches: npt.ArrayLike | None = None,
    at: npt.ArrayLike | None = None,
    ball_ids: Sequence[str] = ("red", "white", "yellow"),
    params: Params | None = None,
    table: TableSpec | None = None,
    events: bool = False,
    threads: int = 1,
) -> Shots:
    """Simulate many strokes from many positions in one engine call.

    ``positions``: positions × balls × 2 (centres in metres, balls in the order of
    ``ball_ids``; one position may be given as balls × 2). ``cue``: the struck ball, by
    name or index, for every position or one per position. The strokes: ``strikes``
    (shots × 5, :data:`STRIKE_COLUMNS`) or ``launches`` (shots × 6, :data:`LAUNCH_COLUMNS`).
    ``at``: the position of each shot (default: every shot from the only position, or shot
    ``k`` from position ``k`` when there are as many positions as shots). ``events``: keep
    the event logs. ``threads``: split the shots over this many threads (the kernel
    releases the GIL, so they use as many cores; the shots are the same, bit for bit;
    batches under :data:`SPLIT_AT` shots a thread are not split). Returns :class:`Shots`,
    balls in sorted order.

    Raises :class:`PhysicsInputError` naming the first input that is not a stroke or a
    position on the table (the rules of :func:`onered.physics.check_position`), and
    :class:`PhysicsError` if a shot does not end within the engine's event limit.
    """
    params, table = _table_and_params(params, table)
    ctx = _context(params, table)
    ids = tuple(ball_ids)
    if not ids or len(set(ids)) != len(ids) or not all(isinstance(b, str) for b in ids):
        raise PhysicsInputError(f"ball_ids must be distinct names, got {ball_ids!r}")
    n = len(ids)
    if n > MAX_BALLS:
        raise PhysicsInputError(f"at most {MAX_BALLS} balls a position, got {n}")
    try:
        pos = np.asarray(positions, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise PhysicsInputError(f"positions must be an array of numbers: {error}") from None
    if pos.ndim == 2:
        pos = pos[None]
    if pos.ndim != 3 or pos.shape[1:] != (n, 2) or len(pos) == 0:
        raise PhysicsInputError(
            f"positions must have shape (positions, {n}, 2) for the balls {list(ids)}, "
            f"got {tuple(np.shape(positions))}"
        )
    if not np.isfinite(pos).all():
        p = int(np.argmax(~np.isfinite(pos).all(axis=(1, 2))))
        raise PhysicsInputError(f"positions[{p}] has a number that is not finite")
    order = sorted(range(n), key=ids.__getitem__)
    engine_ids = tuple(ids[i] for i in order)
    # (the common case first: the balls already in the engine's order)
    pos = np.ascontiguousarray(pos if engine_ids == ids else pos[:, order, :])
    npos = len(pos)
    cues = _cues(cue, ids, order, npos)
    if (strikes is None) == (launches is None):
        raise PhysicsInputError("give either strikes or launches")
    if strikes is not None:
        rows = strikes_to_launches(strikes, params)
    elif launches is not None:
        rows = _array(launches, "launches", 6)
        _check_launches(rows, params.R)
    shots = len(rows)
    where = _at(at, shots, npos)
    duration = np.empty(shots)
    rest = np.empty((shots, n, 2))
    fate = np.empty((shots, n), np.int8)
    pocket = np.empty((shots, n), np.int8)
    gone = np.empty((shots, n), np.int32)
    contact = np.empty((shots, n))
    crossed = np.empty((shots, n), np.uint8)
    cushions = np.empty((shots, n), np.int32)
    flights = np.empty((shots, n), np.int16)
    overs = np.empty((shots, n), np.int16)
    n_events = np.empty(shots, np.int32)
    status = np.empty(shots, np.int8)
    event_end = np.empty(shots, np.int64)
    outputs = (status, duration, rest, fate, pocket, gone, contact, crossed, cushions,
               flights, overs, n_events, event_end)  # fmt: skip
    parts = _split(shots, threads)
    problems = np.zeros((len(parts), 4), np.int32)
    calls = [
        (pos, n, cues, rows[a:b], where[a:b], (*(o[a:b] for o in outputs), problems[k]), events)
        for k, (a, b) in enumerate(parts)
    ]
    if len(calls) == 1:
        logs = [ctx.run_many(*calls[0])]
    else:  # the kernel runs without the GIL: the parts run at once
        logs = list(_pool(len(calls)).map(lambda call: ctx.run_many(*call), calls))
    for p, code, i, j in problems.tolist():
        if p >= 0 and code != Placement.OK:
            raise placement_error(
                code, engine_ids, pos[p].ravel().tolist(), i, j, f"positions[{p}]: "
            )
    log = None
    if events:
        for a, b in parts[1:]:  # each part counts its events from its own start
            event_end[a:b] += event_end[a - 1]
        log = b"".join(part or b"" for part in logs)
    if status.any():
        k = int(np.argmax(status != 0))
        raise PhysicsError(f"shot {k}: the shot did not end within {MAX_EVENTS} events")
    return Shots(
        ball_ids=engine_ids,
        at=where,
        cue=cues[where],
        duration=duration,
        rest=rest,
        fate=fate,
        pocket=pocket,
        gone=gone,
        contact=contact,
        crossed=crossed,
        cushions=cushions,
        flights=flights,
        overs=overs,
        n_events=n_events,
        event_log=np.frombuffer(log, np.float64).reshape(-1, 7) if log is not None else None,
        event_end=event_end if events else None,
        positions=pos,
        launches=rows,
        params=params,
        table=table,
    )


def _split(shots: int, threads: int) -> list[tuple[int, int]]:
    """The contiguous parts of ``shots`` for ``threads`` threads (at most one part a
    :data:`SPLIT_AT` shots)."""
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= MAX_THREADS:
        raise PhysicsInputError(
            f"threads must be an integer from 1 to {MAX_THREADS}, got {threads!r}"
        )
    count = max(1, min(threads, shots // SPLIT_AT))
    bounds = [shots * k // count for k in range(count + 1)]
    return list(itertools.pairwise(bounds))


_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()


def _pool(size: int) -> ThreadPoolExecutor:
    """A thread pool of ``size`` workers, made on first use and kept (threads cost some
    50 us to start; a search asks for thousands of batches)."""
    with _POOLS_LOCK:
        pool = _POOLS.get(size)
        if pool is None:
            pool = _POOLS[size] = ThreadPoolExecutor(size, thread_name_prefix="onered-batch")
        return pool


def _cues(
    cue: int | str | npt.ArrayLike, ids: tuple[str, ...], order: list[int], npos: int
) -> Ints:
    """The struck ball of every position, as engine (sorted) indices."""
    if type(cue) is str and cue in ids:  # the common cases first: one ball for all
        return np.full(npos, order.index(ids.index(cue)), np.int32)
    if type(cue) is int and 0 <= cue < len(ids):
        return np.full(npos, order.index(cue), np.int32)
    rank = np.argsort(np.array(order)).astype(np.int32)  # rank[i]: ball i's engine index
    names = {b: i for i, b in enumerate(ids)}
    values = np.asarray(cue)
    if values.dtype.kind == "U":
        unknown = [c for c in values.ravel().tolist() if c not in names]
        if unknown:
            raise PhysicsInputError(f"cue {unknown[0]!r} is not one of the balls {list(ids)}")
        values = np.vectorize(names.__getitem__, otypes=[np.int64])(values)
    if values.dtype.kind not in "iu" or values.ndim > 1:
        raise PhysicsInputError(
            f"cue must be a ball's name or index, or one for each position, got {cue!r}"
        )
    values = np.broadcast_to(values, (npos,)) if values.ndim == 0 else values
    if len(values) != npos or ((values < 0) | (values >= len(ids))).any():
        raise PhysicsInputError(
            f"cue must give one ball of {list(ids)} for each of the {npos} positions"
        )
    return np.ascontiguousarray(rank[values])


def _at(at: npt.ArrayLike | None, shots: int, npos: int) -> Ints:
    if at is None:
        if npos == 1:
            return np.zeros(shots, np.int32)
        if npos == shots:
            return np.arange(shots, dtype=np.int32)
        raise PhysicsInputError(
            f"at: {shots} shots from {npos} positions: say which position each shot is from"
        )
    where = np.asarray(at)
    if where.dtype.kind not in "iu" or where.shape != (shots,):
        raise PhysicsInputError(f"at must hold one position index for each of the {shots} shots")
    if ((where < 0) | (where >= npos)).any():
        k = int(np.argmax((where < 0) | (where >= npos)))
        raise PhysicsInputError(f"at[{k}] = {int(where[k])} is not one of the {npos} positions")
    return np.ascontiguousarray(where, np.int32)
