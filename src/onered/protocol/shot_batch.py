"""The shot protocol's batch path: many lines, one engine call for many positions.

:func:`play_lines` answers a list of shot lines with exactly the bytes (or the error) that
:func:`onered.protocol.shot.play_line` gives each line, but plays the shots through
:func:`onered.physics.batch.simulate_many`: the lines are read and checked, the shots
grouped by the set of balls on the table, each group simulated in one call of the C
kernel (each shot from its own position, its strike turned into a launch in C), and the
answers written from the arrays it returns — the events from its event log through
templates of their JSON (only the time differs from one event to the next), the rest
positions and the duration as orjson writes floats, the ``outcome`` as
:func:`onered.bridge.batch_strokes` reads it. No Python object is made per event.

Where the arrays do not answer as the single-shot path would, the line takes that path on
its own (:func:`~onered.protocol.shot.play_line`), so its answer is the same by
construction: a line that is not the common form (``params``, ``table``, a ``launch``,
integers or anything unusual where floats are expected, any error: the full reader words
the message), a position or a strike the engine refuses (found by splitting the group in
halves until the bad line stands alone, so one bad line never spoils the others), a shot
with a ball in the air or off the table (the jump foul and ``off_table`` need the event
log's reading), or a number the engine gave that is not finite.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import orjson

from onered.bridge import BOTH, SIMULTANEOUS_S
from onered.physics import DIRECTIONS, EVENT_KINDS, PhysicsError, PhysicsInputError
from onered.physics.batch import CROSSED_IN, Fate, Shots, simulate_many
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.engine import MAX_SPIN_SPEED
from onered.physics.types import EventKind
from onered.protocol.shot import BALL_NAMES, CUE_BALLS, play_line
from onered.table import BALL_DIAMETER, CUSHION_NAMES, POCKET_NAMES, in_baulk, touching

#: One line's answer: its output line, or the error :func:`play_line` raised for it.
Answer = bytes | Exception

#: The most shots in one engine call (a batch of input lines is split into groups of the
#: same balls, each into calls of at most this many shots).
CHUNK = 512

_BALLS = frozenset(BALL_NAMES)
_CUE_BALLS = frozenset(CUE_BALLS)
_ON_TABLE = int(Fate.ON_TABLE)
_OFF_TABLE = int(Fate.OFF_TABLE)
_CUSHION = EVENT_KINDS.index(EventKind.CUSHION)
_OVER = EVENT_KINDS.index(EventKind.OVER)
_OFF = EVENT_KINDS.index(EventKind.OFF_TABLE)
_KIND_NAMES = tuple(kind.value for kind in EVENT_KINDS)
_INF = math.inf
#: What an event's JSON starts with before its time (``events_json`` writes ``t`` first).
_EVENT_HEAD = b'{"t":'
_EVENT_JOIN = b',{"t":'


@dataclass(frozen=True, slots=True)
class _Line:
    """A line in the common form, read: its balls in the order given (name, x, y), the cue
    ball and the strike's five numbers (:data:`onered.physics.batch.STRIKE_COLUMNS`)."""

    names: tuple[str, ...]
    balls: dict[str, list[float]]
    cue: str
    strike: tuple[float, float, float, float, float]


def _float(value: object) -> float | None:
    """A finite number as the protocol reads it (``json_fields.number``), or ``None`` when
    the full reader must look at it."""
    if type(value) is float:
        return value if value - value == 0.0 else None
    if type(value) is int:
        return float(value)  # (orjson gives ints within 64 bits: exact or rounded as float())
    return None


def _read(line: bytes | str) -> _Line | None:
    """The line if it is the common form that :func:`onered.protocol.shot.parse_shot`
    accepts (every check of it but the position's, which the engine makes), else ``None``."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    get = obj.get
    if get("params") is not None or get("table") is not None or get("launch") is not None:
        return None
    seed = get("seed")
    if seed is not None and type(seed) is not int:
        return None
    balls = get("balls")
    if type(balls) is not dict or not balls:
        return None
    for name, p in balls.items():
        if name not in _BALLS or type(p) is not list or len(p) != 2:
            return None
        x, y = p
        if type(x) is not float or type(y) is not float or x - x != 0.0 or y - y != 0.0:
            return None
    cue = get("cue_ball")
    if type(cue) is not str or cue not in _CUE_BALLS or cue not in balls:
        return None
    raw = get("strike")
    if type(raw) is not dict:
        return None
    speed, aim = _float(raw.get("speed")), _float(raw.get("aim"))
    side, height, elevation = (
        0.0 if raw.get(key) is None else _float(raw[key]) for key in ("side", "height", "elevation")
    )
    if speed is None or aim is None or side is None or height is None or elevation is None:
        return None
    if not (
        0 < speed <= MAX_SPEED
        and math.hypot(side, height) <= MAX_TIP_OFFSET  # (the slack band: the full path)
        and MIN_ELEVATION <= elevation <= MAX_ELEVATION
    ):
        return None
    return _Line(tuple(balls), balls, cue, (speed, aim, side, height, elevation))


def play_lines(lines: Sequence[bytes | str]) -> list[Answer]:
    """The answer of each line (non-blank shot protocol lines), in order: the output line
    :func:`onered.protocol.shot.play_line` gives it, or the exception it raises (a
    :class:`~onered.protocol.shot.ShotProtocolError`, or any other for a bug), byte for
    byte, with the common lines simulated together (see the module's docstring)."""
    answers: list[Answer | None] = [None] * len(lines)
    groups: dict[tuple[str, ...], list[tuple[int, _Line]]] = {}
    for k, line in enumerate(lines):
        read = _read(line)
        if read is not None:
            key = tuple(sorted(read.names))
            group = groups.get(key)
            if group is None:
                groups[key] = [(k, read)]
            else:
                group.append((k, read))
    for ids, group in groups.items():
        for start in range(0, len(group), CHUNK):
            _play_group(ids, group[start : start + CHUNK], answers)
    out: list[Answer] = []
    for k, answer in enumerate(answers):
        if answer is None:  # the full path, line by line
            try:
                answer = play_line(lines[k])
            except Exception as exc:  # the caller reports it in the line's place
                answer = exc
        out.append(answer)
    return out


def _play_group(
    ids: tuple[str, ...], group: list[tuple[int, _Line]], answers: list[Answer | None]
) -> None:
    """Simulate the shots of ``group`` (lines with the balls ``ids``) in one call and fill
    their answers; a call the engine refuses is split in halves until the line it refuses
    stands alone (left to the full path)."""
    shots = _simulate(ids, [line for _, line in group])
    if shots is None:
        if len(group) > 1:
            half = len(group) // 2
            _play_group(ids, group[:half], answers)
            _play_group(ids, group[half:], answers)
        return
    for (k, _), answer in zip(group, _write(shots, [line for _, line in group]), strict=True):
        answers[k] = answer


def _simulate(ids: tuple[str, ...], lines: list[_Line]) -> Shots | None:
    """One :func:`simulate_many` call for the lines (each from its own position), or
    ``None`` when the engine refuses one of them."""
    rows = [[c for name in ids for c in line.balls[name]] for line in lines]
    positions = np.array(rows, dtype=np.float64).reshape(len(lines), len(ids), 2)
    cues = np.array([ids.index(line.cue) for line in lines], dtype=np.int64)
    strikes = np.array([line.strike for line in lines], dtype=np.float64)
    try:
        return simulate_many(positions, cues, strikes=strikes, ball_ids=ids, events=True)
    except (PhysicsInputError, PhysicsError):
        return None


#: Each group's event templates: an event's JSON after its time, by its code (below).
_TEMPLATES: dict[tuple[str, ...], dict[int, bytes]] = {}
#: The orders in which lines have named their balls, numbered as they come (part of an
#: event's code: two balls are written in the line's order).
_ORDERS: dict[tuple[str, ...], int] = {}


def _event_codes(
    log: npt.NDArray[np.float64], counts: npt.NDArray[np.int32], orders: npt.NDArray[np.int64]
) -> list[int]:
    """One integer per event of the log: the order of the line's balls (``orders``, per
    shot; ``counts``: events per shot) and the event's six integer fields, four bits each
    (``b``, ``cushion`` and ``pocket`` plus one: -1 is none)."""
    fields = log[:, 1:].astype(np.int64) + np.array([0, 0, 1, 1, 1, 0])
    code = np.repeat(orders, counts)
    for column in fields.T:
        code = code * 16 + column
    codes: list[int] = code.tolist()
    return codes


def _template(code: int, ids: tuple[str, ...], orders: list[tuple[str, ...]]) -> bytes:
    """The JSON of an event after its time, as :func:`onered.protocol.shot.events_json`
    and orjson write it; the fields as the engine turns its log into ``Event``\\ s (two
    balls in the order the line gave them, but ``over``'s airborne ball first; a cushion
    event without a cushion is a jaw; ``off_table`` names the cushion it went over)."""
    code, direction = divmod(code, 16)
    code, p = divmod(code, 16)
    code, c = divmod(code, 16)
    code, b = divmod(code, 16)
    code, a = divmod(code, 16)
    order, kind = divmod(code, 16)
    c, p, b = c - 1, p - 1, b - 1
    given = orders[order]
    if b < 0:
        balls = [ids[a]]
    else:
        if kind != _OVER and given.index(ids[b]) < given.index(ids[a]):
            a, b = b, a
        balls = [ids[a], ids[b]]
    item: dict[str, object] = {"t": 0.0, "type": _KIND_NAMES[kind], "balls": balls}
    if kind == _CUSHION:
        item["cushion"] = CUSHION_NAMES[c] if c >= 0 else "jaw"
    elif kind == _OFF and c >= 0:
        item["cushion"] = CUSHION_NAMES[c]
    if p >= 0:
        item["pocket"] = POCKET_NAMES[p]
    name = DIRECTIONS[direction]
    if name is not None:
        item["direction"] = name
    return orjson.dumps(item)[len(b'{"t":0.0') :]


def _floats(values: npt.NDArray[np.float64]) -> list[bytes]:
    """Each number as orjson writes it (one call for all of them; NaN as ``null``)."""
    if not values.size:
        return []
    return orjson.dumps(values.ravel().tolist())[1:-1].split(b",")


#: Each ball's key in an object: ``"white":``.
_KEYS = {name: orjson.dumps(name) + b":" for name in BALL_NAMES}
#: How far apart (m) two centres must be for :func:`onered.table.touching` to be surely
#: false without asking it (it allows one diameter and 1e-6 m).
_SURELY_APART = BALL_DIAMETER + 1e-3
#: The output line of a shot that left every ball on the table, by the order of the balls
#: in its line: the events, each ball's rest, the duration, the outcome up to its
#: positions, each ball's position.
_FORMATS: dict[tuple[str, ...], bytes] = {}


def _format(names: tuple[str, ...]) -> bytes:
    found = _FORMATS.get(names)
    if found is None:
        points = b",".join(_KEYS[name].replace(b"%", b"%%") + b"%b" for name in names)
        found = _FORMATS[names] = (
            b'{"events":[%b],"rest":{'
            + points
            + b'},"duration":%b,"outcome":%b'
            + points
            + b"}}}\n"
        )
    return found


def _write(shots: Shots, lines: list[_Line]) -> list[bytes | None]:
    """The output lines of a group's shots, ``None`` for a shot the arrays cannot answer
    as the full path would (a ball in the air or off the table, a number not finite, a
    launch beyond the engine's limits)."""
    ids = shots.ball_ids
    n = len(ids)
    count = len(lines)
    log = shots.event_log
    if log is None:  # (simulate_many was asked for the events)
        return [None] * count
    order_index = _ORDERS
    orders = np.array(
        [order_index.setdefault(line.names, len(order_index)) for line in lines], np.int64
    )
    given = list(order_index)
    # the events: a template a kind of event, the times written in one call
    templates = _TEMPLATES.setdefault(ids, {})
    codes = _event_codes(log, shots.n_events, orders)
    for code in set(codes).difference(templates):
        templates[code] = _template(code, ids, given)
    events = list(map(bytes.__add__, _floats(log[:, 0]), map(templates.__getitem__, codes)))
    ends = np.cumsum(shots.n_events).tolist()
    # what the arrays cannot answer as the full path would: that path takes the line
    fate, rest, launch = shots.fate, shots.rest, shots.launches
    on = fate == _ON_TABLE
    vx, vy, wx, wy, wz, vz = launch.T
    odd = (
        (shots.flights != 0).any(axis=1)
        | (fate == _OFF_TABLE).any(axis=1)
        | ~np.isfinite(shots.duration)
        | ~(np.isfinite(rest).all(axis=2) | ~on).all(axis=1)
        # the single-shot path's limits of a launch (``engine._launch_numbers``), which a
        # strike within the protocol's limits keeps, checked as it checks them
        | (np.sqrt(vx * vx + vy * vy + vz * vz) > MAX_SPEED * (1 + 1e-12))
        | (shots.params.R * np.sqrt(wx * wx + wy * wy + wz * wz) > MAX_SPIN_SPEED * (1 + 1e-12))
    )
    if log.size:
        bad_t = ~np.isfinite(log[:, 0])
        if bad_t.any():
            odd[np.repeat(np.arange(count), shots.n_events)[bad_t]] = True
    # the outcome as batch_strokes reads it: the first contact (both within 1e-9 s) ...
    rows = np.arange(count)
    cue = shots.cue
    contact = shots.contact
    ranked = np.sort(contact, axis=1)
    hits = np.isfinite(contact).sum(axis=1)
    first = np.where(hits == 0, n + 1, np.argmin(contact, axis=1))
    if n > 1:
        with np.errstate(invalid="ignore"):  # (inf - inf where no ball was touched)
            first[(hits >= 2) & ~(ranked[:, 1] - ranked[:, 0] > SIMULTANEOUS_S)] = n
    first_names: list[str | None] = [*ids, BOTH, None]
    # ... the baulk line crossed into baulk, a ball touching the cue ball (both asked of
    # onered.table where the arrays cannot say no), the pots
    cue_on = on[rows, cue]
    crossed_in = ((shots.crossed[rows, cue] & CROSSED_IN) != 0) & cue_on
    apart = np.hypot(*(rest - rest[rows, cue][:, None, :]).transpose(2, 0, 1))
    others = on & cue_on[:, None]
    others[rows, cue] = False
    near = (others & ~(apart > _SURELY_APART)).any(axis=1)
    potted = (fate != _ON_TABLE).any(axis=1)
    # the numbers: each ball's point [x, y] (in the line's order), the durations
    xy = _floats(rest)
    points = [b"[" + x + b"," + y + b"]" for x, y in zip(xy[0::2], xy[1::2], strict=True)]
    perms = np.zeros((len(given), n), np.int64)  # each order's balls as engine indices
    for used in set(orders.tolist()):
        perms[used] = [ids.index(name) for name in given[used]]
    slots = (rows * n)[:, None] + perms[orders]
    points = [points[j] for j in slots.ravel().tolist()]
    durations = _floats(shots.duration)
    keys = _KEYS
    out: list[bytes | None] = []
    start = 0
    for k, (line, end, ci, is_odd, first_k, hits_k, cross_k, near_k, potted_k) in enumerate(
        zip(
            lines,
            ends,
            cue.tolist(),
            odd.tolist(),
            first.tolist(),
            hits.tolist(),
            crossed_in.tolist(),
            near.tolist(),
            potted.tolist(),
            strict=True,
        )
    ):
        if is_odd:
            out.append(None)
            start = end
            continue
        evs = _EVENT_HEAD + _EVENT_JOIN.join(events[start:end]) if end > start else b""
        start = end
        fell: tuple[str, ...] = ()
        fates: list[int] = []
        if potted_k:
            fates = fate[k].tolist()
            gone = shots.gone[k].tolist()
            fell = tuple(ids[i] for _, i in sorted((gone[i], i) for i in range(n) if fates[i]))
        key = (
            first_names[first_k],
            hits_k >= 2,
            fell,
            cross_k and _in_baulk(rest[k], ci),
            near_k and _touching(rest[k], on[k], ci),
        )
        outcome = _OUTCOMES.get(key) or _outcome(key)
        mine = points[k * n : k * n + n]
        if not potted_k:
            out.append(_format(line.names) % (evs, *mine, durations[k], outcome, *mine))
            continue
        where = dict(zip(line.names, mine, strict=True))
        rest_json = b",".join(
            [
                keys[b] + (where[b] if fates[ids.index(b)] == _ON_TABLE else b"null")
                for b in line.names
            ]
        )
        positions = b",".join(
            [keys[b] + where[b] for b in line.names if fates[ids.index(b)] == _ON_TABLE]
        )
        out.append(
            b'{"events":['
            + evs
            + b'],"rest":{'
            + rest_json
            + b'},"duration":'
            + durations[k]
            + b',"outcome":'
            + outcome
            + positions
            + b"}}}\n"
        )
    return out


def _in_baulk(rest: npt.NDArray[np.float64], ci: int) -> bool:
    """:func:`onered.table.in_baulk` of the cue ball's rest (one shot's rows)."""
    x, y = rest[ci].tolist()
    return in_baulk((x, y))


def _touching(rest: npt.NDArray[np.float64], on: npt.NDArray[np.bool_], ci: int) -> bool:
    """The cue ball rests touching a ball on the table (:func:`onered.table.touching`)."""
    points = rest.tolist()
    at = (points[ci][0], points[ci][1])
    flags = on.tolist()
    return any(touching(at, (p[0], p[1])) for i, p in enumerate(points) if i != ci and flags[i])


#: The ``outcome`` object up to its positions' contents (``...,"positions":{``), by its
#: first hit, cannon, pots, crossing of the baulk line and touching.
_OUTCOMES: dict[tuple[str | None, bool, tuple[str, ...], bool, bool], bytes] = {}


def _outcome(key: tuple[str | None, bool, tuple[str, ...], bool, bool]) -> bytes:
    """The ``outcome`` object's JSON before its positions, as ``Outcome.to_json`` and
    orjson write it (a shot read from the arrays has no ball in the air or off the table:
    no ``off_table``, no jump)."""
    first, cannon, potted, crossed, touches = key
    text = orjson.dumps(
        {
            "first_hit": first,
            "cannon": cannon,
            "potted": list(potted),
            "off_table": [],
            "crossed_baulk": crossed,
            "touching": touches,
            "positions": {},
        }
    )
    found = _OUTCOMES[key] = text[:-2]  # without the positions' closing braces
    return found
