"""The physics engine's boundary values: what goes in (a launch, parameters) and what comes
out (an event log, rest positions, trajectories). Ball identities are plain strings; the
physics knows nothing of the rules of any game.

The C engine builds :class:`Event`, :class:`Segment`, :class:`Paths` and
:class:`ShotResult` as their generated ``__init__`` does: ``object.__new__(cls)``, then
``object.__setattr__`` for each field in the order of ``__match_args__``. That is their
documented construction for fast builders; it stays valid only while these classes have no
``__post_init__`` (the engine refuses a class that has one).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Any, Protocol

Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]


class EventKind(Enum):
    """Kinds of events in a shot's log (names as in ``docs/shot-protocol.md``)."""

    BALL_BALL = "ball_ball"
    CUSHION = "cushion"  # a straight cushion, or a jaw (then ``cushion == "jaw"``)
    POCKET = "pocket"
    BAULK_LINE = "baulk_line"
    SLIDE_ROLL = "slide_roll"
    ROLL_SPIN = "roll_spin"
    ROLL_STOP = "roll_stop"
    SPIN_STOP = "spin_stop"
    AIRBORNE = "airborne"  # the ball leaves the slate (a jump stroke, a bounce)
    LAND = "land"  # an airborne ball comes down on the slate (it bounces, or settles)
    OVER = "over"  # an airborne ball passes over part of another: ``balls`` = (it, that)
    OFF_TABLE = "off_table"  # the ball lands on the rail or beyond it: off the table


class Fate(IntEnum):
    """Where a ball ended a shot (the codes of ``onered.physics.batch.Shots.fate``)."""

    ON_TABLE = 0
    POCKETED = 1
    OFF_TABLE = 2


#: Bits of ``onered.physics.batch.Shots.crossed``: the ball's centre crossed the baulk
#: line into baulk (towards the bottom cushion), out of it.
CROSSED_IN = 1
CROSSED_OUT = 2


@dataclass(frozen=True, slots=True)
class Event:
    """One event at time ``t`` (seconds from the strike).

    ``cushion`` names the cushion (``bottom``, ``top``, ``left_lower``, ``left_upper``,
    ``right_lower``, ``right_upper``, or ``jaw``); for ``off_table``, the cushion the ball
    went over (``None`` over a pocket). ``pocket`` names a pocket (for a pocket event, the
    pocket whose jaw was hit, or the pocket a ball flew off the table over);
    ``direction`` is ``"in"`` or ``"out"`` for a baulk-line crossing (``in`` = towards the
    bottom cushion). For ``over``, ``balls`` is ordered: the airborne ball, then the ball
    it comes above (every other two-ball event lists the balls in the caller's order).
    """

    t: float
    kind: EventKind
    balls: tuple[str, ...]
    cushion: str | None = None
    pocket: str | None = None
    direction: str | None = None


@dataclass(frozen=True, slots=True)
class Launch:
    """The cue ball's state just after the strike: horizontal velocity (m/s), angular
    velocity (rad/s, right-hand rule, z up) and the vertical velocity ``vz`` the cue gives
    the centre (m/s; negative: down into the slate, which bounces it up with the slate's
    restitution: a jump stroke; zero for a level cue)."""

    v: Vec2
    w: Vec3
    vz: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The shot protocol's ``launch`` object (``docs/shot-protocol.md``): ``v`` and
        ``w`` as arrays, ``vz`` when it is not zero. Its reader is
        ``onered.protocol.shot.launch_from_json``: a reader checks JSON with the shared
        field readers of ``onered.protocol``, which the physics may not import."""
        out: dict[str, Any] = {"v": [float(x) for x in self.v], "w": [float(x) for x in self.w]}
        if self.vz != 0:
            out["vz"] = float(self.vz)
        return out


@dataclass(frozen=True, slots=True)
class Strike:
    """A cue action (shot protocol): launch ``speed`` of the cue ball (m/s), ``aim`` in
    degrees counter-clockwise from +x, tip offset ``side``/``height`` as fractions of R
    (right/up positive), cue ``elevation`` in degrees."""

    speed: float
    aim: float
    side: float = 0.0
    height: float = 0.0
    elevation: float = 0.0

    def to_json(self) -> dict[str, float]:
        """The shot protocol's ``strike`` object, every field written (as floats, so a
        record's text is the same whatever numbers built the strike): what the game
        records, the coach and the shot protocol write. Its reader is
        ``onered.protocol.shot.strike_from_json`` (the shot protocol owns the form and
        reads it with the shared field readers, which the physics may not import)."""
        return {
            "speed": float(self.speed),
            "aim": float(self.aim),
            "side": float(self.side),
            "height": float(self.height),
            "elevation": float(self.elevation),
        }


@dataclass(frozen=True, slots=True)
class Segment:
    """One piece of a ball's trajectory: for ``t0 <= t <= t1`` the centre is
    ``p(t) = p0 + v0*(t - t0) + 0.5*a*(t - t0)**2`` (a quadratic, as every piece is).

    ``w0`` is the angular velocity at ``t0`` and ``dw`` its constant rate of change:
    ``w(t) = w0 + dw*(t - t0)``, except that the vertical spin ``w[2]`` stops at zero
    (``dw[2]`` always points towards zero).

    ``z0``, ``vz`` and ``az`` are the height of the ball's lowest point above the slate at
    ``t0`` (m), its vertical velocity and acceleration: ``z(t) = z0 + vz*(t - t0) +
    0.5*az*(t - t0)**2``. On the bed all three are zero; in the air ``az = -g`` (a
    projectile: no drag, constant spin)."""

    t0: float
    t1: float
    p0: Vec2
    v0: Vec2
    a: Vec2
    w0: Vec3 = (0.0, 0.0, 0.0)
    dw: Vec3 = (0.0, 0.0, 0.0)
    z0: float = 0.0
    vz: float = 0.0
    az: float = 0.0

    @property
    def airborne(self) -> bool:
        """Whether the ball is in the air on this piece."""
        return self.az != 0.0

    def height_at(self, t: float) -> float:
        """The height of the ball's lowest point above the slate at ``t`` (held to
        ``[t0, t1]``, as :meth:`at`)."""
        tau = min(max(t, self.t0), self.t1) - self.t0
        return self.z0 + self.vz * tau + 0.5 * self.az * tau * tau

    def at(self, t: float) -> Vec2:
        """The centre at time ``t`` on this piece, ``t`` held to ``[t0, t1]`` (its start
        before it, its end after it): the one interpolation of a trajectory."""
        tau = min(max(t, self.t0), self.t1) - self.t0
        if tau == 0.0:
            return self.p0
        (x, y), (vx, vy), (ax, ay) = self.p0, self.v0, self.a
        return (x + vx * tau + 0.5 * ax * tau * tau, y + vy * tau + 0.5 * ay * tau * tau)


def position_at(path: Sequence[Segment], t: float, default: Vec2) -> Vec2:
    """A ball's centre at time ``t`` on its ``path`` (``default`` when the path is empty):
    :meth:`Segment.at` of the last piece starting at or before ``t`` — the first piece
    before the path starts (the ball stood at its start), the end of the piece before a
    gap, the path's end after it."""
    current: Segment | None = None
    for seg in path:
        if seg.t0 > t and current is not None:
            break
        current = seg
    return default if current is None else current.at(t)


@dataclass(slots=True, eq=False, repr=False)
class Paths(Mapping[str, tuple[Segment, ...]]):
    """Each ball's trajectory (ball name to its pieces in time order), as the engine computed
    it, turned into :class:`Segment`\\ s when first read: most callers of a full simulation
    read only the events and rest positions, and making some fifteen ten-field pieces costs
    more than the simulation itself. A read-only mapping, equal to the dict it builds; it
    pickles as that dict. Made by the C engine (``source`` its context, ``raw`` the
    segments' numbers, ``names`` the balls in engine order, ``order`` the engine indices in
    the caller's order); ``built`` caches the dict."""

    source: _PathSource
    raw: bytes
    names: tuple[str, ...]
    order: tuple[int, ...]
    built: dict[str, tuple[Segment, ...]] | None

    def _paths(self) -> dict[str, tuple[Segment, ...]]:
        built = self.built
        if built is None:
            built = self.built = self.source.paths_of(self.raw, self.names, self.order)
        return built

    def __getitem__(self, ball: str) -> tuple[Segment, ...]:
        return self._paths()[ball]

    def __iter__(self) -> Iterator[str]:
        return iter(self._paths())

    def __len__(self) -> int:
        return len(self.order)

    def __repr__(self) -> str:
        return repr(self._paths())

    def __reduce__(self) -> tuple[type[dict[str, tuple[Segment, ...]]], tuple[object, ...]]:
        return (dict, (self._paths(),))


class _PathSource(Protocol):
    """What builds :class:`Paths` (the C engine's context)."""

    def paths_of(
        self, raw: bytes, names: tuple[str, ...], order: tuple[int, ...]
    ) -> dict[str, tuple[Segment, ...]]: ...


@dataclass(frozen=True, slots=True)
class ShotResult:
    """A simulated shot: the time-ordered event log, each ball's rest position (``None``
    when it fell into a pocket or left the table: an ``off_table`` event says which), the
    time until all balls are at rest, and the paths."""

    events: tuple[Event, ...]
    rest: dict[str, Vec2 | None]
    duration: float
    paths: Mapping[str, tuple[Segment, ...]]

    def __repr__(self) -> str:
        """Short: the time to rest, the number of events and where each ball stopped (the
        events and paths in full are the fields; ``onered.svg.draw_shot`` draws them)."""
        off = {b for e in self.events if e.kind is EventKind.OFF_TABLE for b in e.balls}

        def where(name: str, p: Vec2 | None) -> str:
            if p is None:
                return "off" if name in off else "potted"
            return f"({p[0]:.3f}, {p[1]:.3f})"

        rest = ", ".join(f"{name}: {where(name, p)}" for name, p in self.rest.items())
        return f"ShotResult({self.duration:.2f} s, {len(self.events)} events, rest {{{rest}}})"
