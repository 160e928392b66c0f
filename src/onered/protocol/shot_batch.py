"""The shot protocol's batch path: many lines, one engine call for many positions.

:func:`play_lines` answers a list of shot lines with exactly the bytes (or the error) that
:func:`onered.protocol.shot.play_line` gives each line, but plays the shots through
:func:`onered.physics.batch.simulate_many`: the lines are read and checked, grouped by the
balls they name (in the order they name them), each group simulated in one call of the C
kernel (each shot from its own position, its strike turned into a launch in C), and the
answers written from the arrays it returns: the events from its event log through
templates of their JSON (only the time differs between two events of a kind), the numbers
as orjson writes floats (one call for all of them), the ``outcome`` read from the arrays
as :func:`onered.bridge.batch_strokes` reads it. No Python object is made per event.

Where the arrays do not answer as the single-shot path would, the line takes that path on
its own (:func:`~onered.protocol.shot.play_line`), so its answer is the same by
construction: a line that is not the common form (``params``, ``table``, a ``launch``,
integers where floats are expected in a position, anything unusual, any error: the full
reader words the message), a position or a strike the engine refuses (found by splitting
the group in halves until the bad line stands alone, so one bad line never spoils the
others), a shot with a ball in the air or off the table (the jump foul and ``off_table``
need the event log's reading), a number the engine gave that is not finite.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import orjson

from onered.bridge import BOTH, batch_reading
from onered.physics import DIRECTIONS, EVENT_KINDS, PhysicsError, PhysicsInputError
from onered.physics.batch import Fate, Shots, simulate_many
from onered.physics.cue import MAX_SPEED, within_limits
from onered.physics.engine import MAX_SPIN_SPEED
from onered.physics.types import EventKind
from onered.protocol.shot import BALL_NAMES, CUE_BALLS, play_line
from onered.table import CUSHION_NAMES, POCKET_NAMES

#: One line's answer: its output line, or the exception :func:`play_line` raised for it.
Answer = bytes | Exception
#: A line in the common form, read: its balls' names in the order given, their centres
#: (x and y of each, in that order), the cue ball's index among them, and the strike's five
#: numbers (:data:`onered.physics.batch.STRIKE_COLUMNS`).
Line = tuple[tuple[str, ...], list[float], int, list[float]]

#: The most shots in one engine call.
CHUNK = 512
#: The fewest: a batch call and its writing cost about as much as ten lines played alone
#: (about 0.2 ms), so fewer lines of a kind (a terminal, or a client that waits for each
#: answer) are played alone.
FEWEST = 12

_BALLS = frozenset(BALL_NAMES)
_CUE_BALLS = frozenset(CUE_BALLS)
_ON_TABLE = int(Fate.ON_TABLE)
_OFF_TABLE = int(Fate.OFF_TABLE)
_CUSHION = EVENT_KINDS.index(EventKind.CUSHION)
_OVER = EVENT_KINDS.index(EventKind.OVER)
_OFF = EVENT_KINDS.index(EventKind.OFF_TABLE)
_KIND_NAMES = tuple(kind.value for kind in EVENT_KINDS)


def _number(value: object, optional: bool) -> float | None:
    """A strike's number as the protocol reads it (``json_fields.number``; ``null`` or
    absent is 0 when ``optional``), or ``None`` when the full reader must look at it."""
    if type(value) is float:
        return value if value - value == 0.0 else None
    if type(value) is int:
        return float(value)  # (orjson gives ints within 64 bits: float() as the reader)
    if value is None and optional:
        return 0.0
    return None


def _read(line: bytes | str) -> Line | None:
    """The line if it is the common form and :func:`onered.protocol.shot.parse_shot`
    accepts it (every check but the position's, which the engine makes), else ``None``."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    get = obj.get
    if len(obj) != 3:  # (three: balls, cue_ball and strike, as checked below)
        if get("params") is not None or get("table") is not None or get("launch") is not None:
            return None
        seed = get("seed")
        if seed is not None and type(seed) is not int:
            return None
    balls = get("balls")
    if type(balls) is not dict or not balls:
        return None
    centres: list[float] = []
    for name, p in balls.items():
        if name not in _BALLS or type(p) is not list or len(p) != 2:
            return None
        x, y = p
        if type(x) is not float or type(y) is not float or x - x != 0.0 or y - y != 0.0:
            return None
        centres += p
    cue = get("cue_ball")
    if type(cue) is not str or cue not in _CUE_BALLS or cue not in balls:
        return None
    raw = get("strike")
    if type(raw) is not dict:
        return None
    get = raw.get
    speed, aim, side, height, elevation = (
        get("speed"),
        get("aim"),
        get("side"),
        get("height"),
        get("elevation"),
    )
    if elevation is None:  # (the optional ones: absent or null is 0)
        elevation = 0.0
    if side is None:
        side = 0.0
    if height is None:
        height = 0.0
    strike: list[Any] = [speed, aim, side, height, elevation]
    if not (
        type(speed) is float
        and type(aim) is float
        and type(side) is float
        and type(height) is float
        and type(elevation) is float
        and speed - speed + aim - aim + side - side + height - height + elevation - elevation == 0.0
    ):
        for i, value in enumerate(strike):
            if type(value) is not float or value - value != 0.0:
                number = _number(value, i >= 2)
                if number is None:
                    return None
                strike[i] = number
        speed, aim, side, height, elevation = strike
    if not within_limits(speed, aim, side, height, elevation):
        return None
    names = tuple(balls)
    return names, centres, names.index(cue), strike


def play_lines(lines: Sequence[bytes | str]) -> list[Answer]:
    """The answer of each line (non-blank shot protocol lines), in order: the output line
    :func:`onered.protocol.shot.play_line` gives it, or the exception it raises (a
    :class:`~onered.protocol.shot.ShotProtocolError`, or any other for a bug), byte for
    byte, with the common lines simulated together (see the module's docstring)."""
    answers: list[Answer | None] = [None] * len(lines)
    groups: dict[tuple[str, ...], list[tuple[int, Line]]] = {}
    for k, line in enumerate(lines if len(lines) >= FEWEST else ()):
        read = _read(line)
        if read is not None:
            group = groups.get(read[0])
            if group is None:
                groups[read[0]] = [(k, read)]
            else:
                group.append((k, read))
    for names, group in groups.items():
        if len(group) < FEWEST:
            continue
        for start in range(0, len(group), CHUNK):
            part = group[start : start + CHUNK]
            try:
                _play_group(names, part, answers)
            except Exception:  # a bug here must not lose lines: the single path answers
                for k, _ in part:
                    answers[k] = None
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
    names: tuple[str, ...], group: list[tuple[int, Line]], answers: list[Answer | None]
) -> None:
    """Simulate the shots of ``group`` (lines naming the balls ``names``) in one call and
    fill their answers; a call the engine refuses is split in halves until the line it
    refuses stands alone (left to the full path)."""
    shots = _simulate(names, [line for _, line in group])
    if shots is None:
        if len(group) > 1:
            half = len(group) // 2
            _play_group(names, group[:half], answers)
            _play_group(names, group[half:], answers)
        return
    for (k, _), answer in zip(group, _write(shots, names), strict=True):
        answers[k] = answer


def _simulate(names: tuple[str, ...], lines: list[Line]) -> Shots | None:
    """One :func:`simulate_many` call for the lines (each from its own position), or
    ``None`` when the engine refuses one of them."""
    centres: list[float] = []
    numbers: list[float] = []
    for line in lines:
        centres += line[1]
        numbers += line[3]
    positions = np.array(centres).reshape(len(lines), len(names), 2)
    cues = np.array([line[2] for line in lines])
    strikes = np.array(numbers).reshape(len(lines), 5)
    try:
        return simulate_many(positions, cues, strikes=strikes, ball_ids=names, events=True)
    except (PhysicsInputError, PhysicsError):
        return None


#: The six integer fields of an event in the log (kind, a, b, cushion, pocket, direction)
#: as they enter its code: each plus :data:`_SHIFT` (-1 is none), in :data:`_BITS` bits;
#: then a last bit, set for the last event of a shot.
_SHIFT = np.array([0, 0, 1, 1, 1, 0])
_BITS = (4, 2, 2, 3, 3, 2)
_BOUND = np.array([1 << bits for bits in _BITS])
_WEIGHTS = np.array([1 << sum(_BITS[i + 1 :]) for i in range(len(_BITS))], np.int64)
_CODES = 1 << (sum(_BITS) + 1)


@dataclass(frozen=True, slots=True, eq=False)
class _Templates:
    """The event templates of one order of the balls (filled as events come): by an
    event's code, the index of its template (-1: not made yet); the templates (an event's
    JSON after its time, and what follows it in the array) and their lengths."""

    index: npt.NDArray[np.int32] = field(default_factory=lambda: np.full(_CODES, -1, np.int32))
    texts: list[bytes] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)


_TEMPLATES: dict[tuple[str, ...], _Templates] = {}


def _event_codes(
    log: npt.NDArray[np.float64], ends: npt.NDArray[np.int64]
) -> npt.NDArray[np.int64] | None:
    """One integer per event of the log (``ends``: where each shot's events end), below
    :data:`_CODES`; ``None`` if a field does not fit its bits (an engine with more kinds
    of event or balls than this code knows: the full path then answers)."""
    fields = log[:, 1:].astype(np.int64) + _SHIFT
    if len(fields) and ((fields < 0) | (fields >= _BOUND)).any():
        return None
    code: npt.NDArray[np.int64] = fields @ _WEIGHTS
    code *= 2
    code[ends[ends > np.r_[0, ends[:-1]]] - 1] += 1
    return code


def _template(code: int, ids: tuple[str, ...], names: tuple[str, ...]) -> bytes:
    """The JSON of an event after its time, as :func:`onered.protocol.shot.events_json`
    and orjson write it, and what follows it in the events array (``,{"t":`` unless it is
    the last); the fields as the engine turns its log into ``Event``\\ s: two balls in the
    order the line gave them (``names``), but ``over``'s airborne ball first; a cushion
    event without a cushion is a jaw; ``off_table`` names the cushion it went over."""
    code, last = divmod(code, 2)
    fields = []
    for bits in reversed(_BITS):
        code, value = divmod(code, 1 << bits)
        fields.append(value)
    direction, p, c, b, a, kind = fields
    c, p, b = c - 1, p - 1, b - 1
    if b < 0:
        balls = [ids[a]]
    else:
        if kind != _OVER and names.index(ids[b]) < names.index(ids[a]):
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
    return orjson.dumps(item)[len(b'{"t":0.0') :] + (b"" if last else b',{"t":')


def _events(shots: Shots, names: tuple[str, ...]) -> tuple[bytes, list[int]] | None:
    """The events of every shot as the events arrays write them (without the first
    ``{"t":`` of each shot), joined, and where each shot's part starts (and the last
    ends): the times written by orjson in one call, each followed by its template."""
    log = shots.event_log
    if log is None:  # (simulate_many was asked for the events)
        return None
    ends = np.cumsum(shots.n_events, dtype=np.int64)
    code = _event_codes(log, ends)
    if code is None:
        return None
    table = _TEMPLATES.get(names) or _TEMPLATES.setdefault(names, _Templates())
    which = table.index[code]
    if len(which) and which.min() < 0:
        for c in np.unique(code[which < 0]).tolist():
            table.index[c] = len(table.texts)
            text = _template(c, shots.ball_ids, names)
            table.texts.append(text)
            table.sizes.append(len(text))
        which = table.index[code]
    body = orjson.dumps(log[:, 0].tolist())[1:-1]
    pieces: list[bytes] = [b""] * (2 * len(log))
    pieces[0::2] = body.split(b",") if body else []
    pieces[1::2] = np.array(table.texts, dtype=object)[which].tolist()
    commas = np.flatnonzero(np.frombuffer(body, np.uint8) == ord(","))
    sizes = np.diff(np.r_[-1, commas, len(body)]) - 1 if body else np.zeros(0, np.int64)
    sizes = sizes + np.array(table.sizes, np.int64)[which]
    starts = np.r_[0, np.cumsum(sizes)][np.r_[0, ends]]
    return b"".join(pieces), starts.tolist()


def _floats(values: npt.NDArray[np.float64]) -> list[bytes]:
    """Each number as orjson writes it (one call for all of them; NaN as ``null``)."""
    if not values.size:
        return []
    return orjson.dumps(values.ravel().tolist())[1:-1].split(b",")


#: Each ball's key in an object: ``"white":``.
_KEYS = {name: orjson.dumps(name) + b":" for name in BALL_NAMES}
#: The output line of a shot with events that left every ball on the table, by the order
#: of the balls in its line: the events, each ball's rest, the duration, the outcome up to
#: its positions, each ball's position.
_FORMATS: dict[tuple[str, ...], bytes] = {}


def _format(names: tuple[str, ...]) -> bytes:
    points = b",".join(_KEYS[name].replace(b"%", b"%%") + b"[%b]" for name in names)
    found = _FORMATS[names] = (
        b'{"events":[{"t":%b],"rest":{'
        + points
        + b'},"duration":%b,"outcome":%b'
        + points
        + b"}}}\n"
    )
    return found


def _write(shots: Shots, names: tuple[str, ...]) -> list[bytes | None]:
    """The output lines of a group's shots (lines naming the balls ``names``), ``None``
    for a shot the arrays cannot answer as the full path would (a ball in the air or off
    the table, a number not finite, a launch beyond the engine's limits)."""
    ids = shots.ball_ids
    n = len(ids)
    count = len(shots)
    events = _events(shots, names)
    if events is None:
        return [None] * count
    joined, starts = events
    # what the arrays cannot answer as the full path would: that path takes the line
    fate, rest = shots.fate, shots.rest
    on = fate == _ON_TABLE
    vx, vy, wx, wy, wz, vz = shots.launches.T
    odd = (
        (shots.flights != 0).any(axis=1)
        | (fate == _OFF_TABLE).any(axis=1)
        | ~np.isfinite(shots.duration)
        | ~(np.isfinite(rest).all(axis=2) | ~on).all(axis=1)
        # the single path's limits of a launch (``engine._launch_numbers``), which a strike
        # within the protocol's limits keeps, checked as it checks them
        | (np.sqrt(vx * vx + vy * vy + vz * vz) > MAX_SPEED * (1 + 1e-12))
        | (shots.params.R * np.sqrt(wx * wx + wy * wy + wz * wz) > MAX_SPIN_SPEED * (1 + 1e-12))
    )
    log = shots.event_log
    if log is not None and log.size:
        bad_t = ~np.isfinite(log[:, 0])
        if bad_t.any():
            odd[np.repeat(np.arange(count), shots.n_events)[bad_t]] = True
    # the outcome as the bridge reads a batch (first hit, cannon, crossing, touching) ...
    reading = batch_reading(shots)
    # ... put together (the pots, rarer, line by line)
    code = ((reading.first * 2 + reading.cannon) * 2 + reading.crossed_baulk) * 2 + reading.touching
    potted = (~on).any(axis=1)
    table = _OUTCOMES.setdefault(ids, {})
    for c in set(code.tolist()).difference(table):
        table[c] = _outcome(ids, c, ())
    outcomes = list(map(table.__getitem__, code.tolist()))
    for k in np.flatnonzero(potted).tolist():
        fates, gone = fate[k].tolist(), shots.gone[k].tolist()
        fell = tuple(ids[i] for _, i in sorted((gone[i], i) for i in range(n) if fates[i]))
        outcomes[k] = _outcome(ids, int(code[k]), fell)
    # the numbers: each ball's "x,y" in the order of the line, the durations
    order = [ids.index(name) for name in names]
    pairs = orjson.dumps(rest[:, order, :].reshape(-1, 2).tolist())[2:-2].split(b"],[")
    durations = _floats(shots.duration)
    line_of = _FORMATS.get(names) or _format(names)
    general = (potted | (shots.n_events == 0)).tolist()
    out: list[bytes | None] = []
    at = 0
    for is_odd, is_general, outcome, duration, start, end in zip(
        odd.tolist(), general, outcomes, durations, starts[:-1], starts[1:], strict=True
    ):
        mine = pairs[at : at + n]
        if is_odd:
            out.append(None)
        elif is_general:
            shown = on[at // n][order].tolist()
            out.append(_line(names, joined[start:end], mine, duration, outcome, shown))
        else:
            out.append(line_of % (joined[start:end], *mine, duration, outcome, *mine))
        at += n
    return out


def _line(
    names: tuple[str, ...],
    events: bytes,
    pairs: list[bytes],
    duration: bytes,
    outcome: bytes,
    on: list[bool],
) -> bytes:
    """An output line in general (balls potted, or no events): ``pairs`` (``x,y``) and
    ``on`` in the order of ``names``."""
    keys = _KEYS
    rest = b",".join(
        [
            keys[b] + (b"[" + p + b"]" if o else b"null")
            for b, p, o in zip(names, pairs, on, strict=True)
        ]
    )
    positions = b",".join(
        [keys[b] + b"[" + p + b"]" for b, p, o in zip(names, pairs, on, strict=True) if o]
    )
    return b"".join(
        [
            b'{"events":[{"t":' if events else b'{"events":[',
            events,
            b'],"rest":{',
            rest,
            b'},"duration":',
            duration,
            b',"outcome":',
            outcome,
            positions,
            b"}}}\n",
        ]
    )


#: The ``outcome`` object up to its positions' contents (``...,"positions":{``), by the
#: balls of a group, by the code of its first hit, cannon, crossing and touching.
_OUTCOMES: dict[tuple[str, ...], dict[int, bytes]] = {}


def _outcome(ids: tuple[str, ...], code: int, potted: tuple[str, ...]) -> bytes:
    """The ``outcome`` object's JSON before its positions, as ``Outcome.to_json`` and
    orjson write it, for a code of :func:`_write` (the first hit's index in ``ids``, the
    number of balls for both, one more for none; cannon; crossed; touching) and the pots
    (a shot read from the arrays has no ball in the air or off the table: no
    ``off_table``, no jump)."""
    code, touches = divmod(code, 2)
    code, crossed = divmod(code, 2)
    first, cannon = divmod(code, 2)
    names: list[str | None] = [*ids, BOTH, None]
    text = orjson.dumps(
        {
            "first_hit": names[first],
            "cannon": bool(cannon),
            "potted": list(potted),
            "off_table": [],
            "crossed_baulk": bool(crossed),
            "touching": bool(touches),
            "positions": {},
        }
    )
    return text[:-2]  # without the positions' closing braces
