"""The event-based table simulation: validated entry points over the C event loop.

Model (the C kernel, ``kernel.c``, implements exactly this; ``_engine.c`` is its CPython glue):

- **Motion between events** is in closed form (Leckie & Greenspan 2005). A ball with slip
  ``u = v + R z x w`` at the cloth slides: ``a = -mu_s g u^``,
  ``dw/dt = (5 mu_s g / 2R) z x u^``, until ``t_s = 2|u0| / (7 mu_s g)``. A rolling ball
  slows at ``mu_r g`` and stops after ``|v0| / (mu_r g)``, having run ``|v0|^2/(2 mu_r g)``.
  The vertical-axis spin falls by ``5 mu_sp g / (2R)`` rad/s^2 in every state (pooltool's
  convention); a ball that stops rolling with spin left spins in place until it is gone.
- **Events** are the exact first roots of low-degree polynomials in time: ball-ball
  contact ``|r1 - r2| = 2R`` (quartic), a cushion nose or jaw facing at distance R
  (quadratic, contact point within the segment), a rounded knuckle at distance
  ``R + rho`` (quartic), the pocket fall: the centre enters the fall circle (quartic), the
  baulk line ``y = 0.737`` (quadratic), and the motion transitions. Each ball's next
  events are cached and recomputed only when its motion changes. Ties in time resolve in
  a fixed order: by ball (ids sorted), then transition, table contact, baulk line, and
  ball pairs.
- **Ball-ball** collisions: equal masses, normal impulse with restitution ``e_b``,
  friction at the contact ``mu = mu_b_a + mu_b_b exp(-mu_b_c |slip|)`` (Alciatore TP A-14)
  limited to stopping the slip: cut- and spin-induced throw.
- **Cushions, jaw facings and knuckles**: the cushion model of ``Params.cushion_model``
  (``cushion.c``, one C function per model): Mathavan, Jackson & Parkin (2010) by default
  (the ball stays on the bed; friction at the cushion and at the bed; compression and
  restitution integrated over the impulse), or Han (2005), with the nose touching the
  ball at ``cushion_height``. A rebound too slow to leave the cushion against the cloth
  friction pressing the ball back (an excursion under 10 micrometres) settles the ball
  against the cushion instead.
- **Flight** (ENGINE_VERSION 4): a ball leaves the slate when its vertical velocity says so.
  An elevated cue drives the ball down into the slate (the launch's ``vz``); the slate
  answers with restitution ``e_table`` on the vertical speed and the cloth's friction
  ``mu_s`` at the contact point, up to stopping the slip (the same bounce as a landing). A
  rebound faster than 0.05 m/s (a hop of 0.13 mm) flies; slower, the ball stays on the bed.
  In the air the centre moves uniformly in x, y, the lowest point's height is ``z0 + vz t -
  g t^2 / 2``, the spin is kept (no drag). Events in the air, all exact roots: coming down
  to the slate (a quadratic: it bounces, or falls into a pocket when over its fall circle or
  past its mouth); the face of a cushion or jaw facing (a vertical wall up to the nose
  height ``cushion_height``, met while the centre is at or below it: the cushion model in
  the plane, the flight goes on); its nose edge (the centre above the nose, the sphere
  touching the edge line: a quartic; Newton's restitution ``e_c`` along the 3-D normal, no
  friction); a knuckle (a vertical cylinder up to the nose height, met while the ball's
  lowest point is below it, else passed over; coming down onto its top bounces with ``e_c``
  or rests there, off the table); coming down to the nose height over the solid beyond the
  bed's outline (the cushions' and jaws' tops, the rail, the wood behind a pocket: not over
  a fall circle nor between a pocket's facings) or passing the rail's outer edge
  ``rail_width`` beyond the outline: off the table (an ``off_table`` event; the ball stays
  where it left, its rest position ``None``); its centre over a pocket's hole while its
  lowest point is below the nose height (the jaws and the pocket's back hold it: it drops
  in); ball-ball contact in three dimensions (a quartic; the impulse along the 3-D line of
  centres, then, for a ball on the bed driven down into the slate, the slate's bounce as for
  an elevated cue: impulses in sequence, as pooltool resolves a cue driving a ball down); an
  airborne ball passing over part of another (its closest horizontal approach at a distance
  of the centres under 2R without touching: an ``over`` event, once per flight and pair, the
  airborne ball first). A ball coming down on top of another that would rebound off it
  slower than 0.05 m/s would bounce ever lower without end: it is taken as come to rest on
  it, neither on the bed nor in a pocket: off the table. Ball contacts on the bed are
  horizontal and the cushion's nose lies above the ball's centre (pushing it down, which
  Mathavan's model keeps on the bed), so a stroke with a level cue never leaves the slate,
  and gives bit for bit what ENGINE_VERSION 3 gave (3,000 random level strokes compared).
- **Pushes**: a ball pressed into another by cloth friction (a push stroke, or a ball with
  top spin just behind another) would bounce ever more often with ever smaller speeds.
  When a rebound would part the balls by less than 10 micrometres before they meet again,
  the contact is resolved as a sustained push: a plastic impulse between the balls plus
  the cloth-friction impulses that stop their slip along the line of centres (closed
  form, energy only decreases); if rolling resistance alone still presses them, they roll
  on together.
- **Contacts are exact at every seam**: a pair of balls, or a ball and a cushion, jaw
  facing or knuckle, within 1e-11 m of contact (touching, frozen, or up to 1e-5 m into a
  straight cushion or facing by input tolerance) is never judged by the rounding noise of
  its contact polynomial near t = 0. Approach and separation are read from the exact
  relative velocity along the line of centres (or the normal) at the current time: closing
  faster than 1e-12 m/s is an impact now; not parting and pressed (the distance's
  curvature below -1e-13 m/s^2 times the contact distance) is a push now; otherwise the
  contact is taken as exact and parting, and the next contact is the first root of the
  polynomial divided by t (or t^2). A graze (touching later with a normal speed under
  1e-12 m/s, not pressed) is no impact, and the search goes on from the grazing point, so
  a re-entry after it is never lost. A resolved contact is never re-detected: impulses
  leave it parting, pushes and settled cushion contacts leave it unpressed.
- **Squeezes and jams**: a ball caught between a ball and a cushion with next to no speed
  hands a sliver of speed back and forth at one instant; after 64 events at the same
  instant, a ball in such a contact slower than 1e-6 m/s stops where it is (keeping its
  vertical spin). Chains of contacts at one instant that still carry speed (plastic
  balls, e_b = 0, driven into a cushion) settle by themselves within a few thousand
  events; after 4,096 at one instant the balls in them are taken as jammed and stop
  whatever their speed (two balls rolling on together into a jaw never settle: one shot
  in a million of the stress benchmark; of its first 50,000 awkward shots, one settling
  chain ran longer, 4,452 events, and is cut; no ordinary shot comes near). Energy only
  decreases.
- **Degenerate cases**: balls rolling side by side give a quartic with vanishing leading
  terms, which the root isolation handles as a lower degree; a crossing of the baulk line
  is reported once even when the ball rolls along it.
- **Every motion ends**: the engine refuses ``mu_sp <= 0`` (a spinning ball would never
  stop), and its C kernel reports an infinite duration, never the time of the last event,
  should a ball still spin at the end.

On the table (:func:`check_position`, the C ``check_point``; every rest position satisfies
it, which the stress benchmark ``benchmarks/stress_physics.py`` checks over a million
shots): a ball may stand at centre (x, y) when

1. the centre is not inside any pocket's fall circle by more than 1e-6 m (a ball whose
   centre reaches the fall circle while moving falls at once, so one at rest never has it
   inside; one resting exactly on the circle's edge is on the table);
2. the centre lies inside the outline polygon: the cushion nose lines, the jaw facings and
   the line joining the inner ends of each pocket's facings (so balls may rest in the
   pocket mouths and between the jaws);
3. the ball overlaps no cushion nose segment, jaw facing segment or knuckle by more than
   1e-6 m (centre at least R - 1e-6 from each segment, at least rho + R - 1e-6 from each
   knuckle centre);
4. and no other ball by more than 1e-6 m (centres at least 2R - 1e-6 apart).

The engine keeps balls within 1e-11 m of these bounds (besides a start already within the
1e-6 m tolerance), so what one stroke leaves is always the next stroke's input.

Changed with the exact contacts: event times of second and later contacts of one pair may
differ in their last bits, and slow approaches between 1e-12 and 1e-9 m/s (or pressing
between 1e-13 and 1e-9 m/s^2), which used to pass as grazes and let balls sink into each
other or a cushion, are now contacts, so a few shots gain a tiny extra rebound (of 4,000
varied strokes, 350 differ, 72 in their events). The canonical strokes of
``onered.game.simulator.fingerprint`` happen not to meet these cases, so :data:`ENGINE_VERSION`
went from 1 to 2 and is hashed into the fingerprint: records made by the older engine replay
with a notice instead of a false claim of bit-exactness.

Changed with the real table (ENGINE_VERSION 3): the cushion models (Mathavan's by default),
the measured cloth (mu_s 0.212, mu_r 0.0127, side spin slowing at 22 rad/s^2), a livelier
restitution above 2.5 m/s, and pockets with facings at pool's cut angles (7 and 14 degrees),
10 and 5 mm knuckles and the slate's edges 15 and 3 mm behind the mouths (docs/table.md):
every simulated result changes. Records of older engines name no
cushion model; they are read as Han's (``params_from_fields``) and replay with a notice.

Changed with the flight (ENGINE_VERSION 4): strokes with an elevated cue (the slate's
bounce and friction at the strike, jumps, balls leaving the table); level strokes are
unchanged.

Determinism: one code path, IEEE doubles in a fixed order; the same inputs give
bit-identical outputs.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from onered import table as _table
from onered.physics._engine import Context
from onered.physics.cue import MAX_SPEED
from onered.physics.errors import PhysicsError, PhysicsInputError
from onered.physics.geometry import Line, TableSpec
from onered.physics.params import Params
from onered.physics.types import Event, EventKind, Launch, Paths, Segment, ShotResult, Vec2

if TYPE_CHECKING:
    from onered.physics._engine import RawShot

#: Event kinds by the integer code used in :class:`CompactShot` events.
EVENT_KINDS: tuple[EventKind, ...] = tuple(EventKind)
#: Baulk-line directions by code (0: not a baulk-line event).
DIRECTIONS: tuple[str | None, ...] = (None, "in", "out")
#: Largest spin surface speed R|w| (m/s) accepted; the largest launch speed is the cue's.
MAX_SPIN_SPEED = 25.0
#: Bumped whenever the engine's results change for some input (part of the replay fingerprint).
ENGINE_VERSION = 4
#: A safety bound on events in one shot (physical shots have tens).
MAX_EVENTS = 10_000

_DEFAULT_PARAMS = Params()
_DEFAULT_TABLE = TableSpec()


class CompactShot(NamedTuple):
    """A shot in the lean form of :func:`simulate_compact`.

    ``rest`` holds each ball's rest position (``None`` if potted or off the table) in the order of
    :attr:`CompactBatch.ball_ids`. Each event is a tuple of integers after its time:
    ``(t, kind, a, b, cushion, pocket, direction)``: ``kind`` indexes
    :data:`EVENT_KINDS`, ``a`` and ``b`` index ``ball_ids`` (``b = -1`` unless a ball-ball
    event), ``cushion`` indexes ``onered.table.CUSHION_NAMES`` (``-1``: none, or a jaw
    when ``kind`` is a cushion), ``pocket`` indexes ``onered.table.POCKET_NAMES`` (for a
    pocket or a jaw, else ``-1``), ``direction`` indexes :data:`DIRECTIONS`. For
    ``over``, ``a`` is the airborne ball and ``b`` the ball below it; for ``off_table``,
    ``cushion`` is the cushion the ball went over (or ``-1`` with ``pocket`` set).
    """

    duration: float
    rest: tuple[Vec2 | None, ...]
    events: tuple[tuple[float, int, int, int, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class CompactBatch:
    """Many shots from one position in the lean form: no trajectories, integer-coded
    events (see :class:`CompactShot`)."""

    ball_ids: tuple[str, ...]
    shots: tuple[CompactShot, ...]


class Placement(IntEnum):
    """Why a ball may not stand where it is: the codes of ``Context.validate``, mirroring
    the C kernel's ``PLACE_*`` enum (``kernel.h``; the extension exports them as
    ``_engine.PLACE_*``, and a test checks they agree)."""

    OK = 0
    OFF_TABLE = 1
    OVER_POCKET = 2
    CUSHION = 3
    JAW = 4
    BALL = 5


@lru_cache(maxsize=16)
def _context_of(params: Params, table: TableSpec) -> Context:
    """The C engine's view of parameters and table (built once per pair): the C side reads
    the :class:`Params` fields by name, the geometry in the flat layout of
    :func:`_geometry_numbers`."""
    table.check_ball_radius(params.R)
    if not params.mu_sp > 0:
        raise PhysicsInputError(
            f"params.mu_sp must be positive (spin would never stop), got {params.mu_sp!r}"
        )
    return Context(
        params, _geometry_numbers(table), _BUILDERS, MAX_EVENTS, params.cushion_model.code
    )


_LAST: list[tuple[Params, TableSpec, Context]] = []


def _context(params: Params, table: TableSpec) -> Context:
    """:func:`_context_of` for the pair last asked for, found by identity before hashing
    (hashing a parameter set costs more than a shot's glue; callers repeat their pair)."""
    if _LAST:
        p, t, ctx = _LAST[0]
        if p is params and t is table:
            return ctx
    ctx = _context_of(params, table)
    _LAST[:] = [(params, table, ctx)]
    return ctx


def _geometry_numbers(table: TableSpec) -> tuple[float, ...]:
    """The table in the flat layout the C kernel reads (documented at
    ``kernel_set_geometry`` in ``kernel.h``): baulk line; each cushion's line; each
    pocket's fall circle, facing lines and knuckles; the outline polygon. A line is its
    start, unit tangent, unit normal and length."""
    geo = table.geometry()
    flat: list[float] = [geo.baulk_y]
    for line in geo.cushions:
        flat += _line(line)
    for pocket in geo.pockets:
        flat += [*pocket.fall_centre, pocket.fall_radius]
        for facing in pocket.facings:
            flat += _line(facing)
        for knuckle in pocket.knuckles:
            flat += [*knuckle.centre, knuckle.radius]
    flat.append(float(len(geo.outline)))
    for point in geo.outline:
        flat += point
    return tuple(flat)


#: What the C engine needs to build results: the result classes (it makes them), then the
#: names it indexes (event kinds; cushions with "jaw" and None; pockets with None;
#: directions).
_BUILDERS = (
    Event,
    Segment,
    ShotResult,
    Paths,
    tuple(EventKind),
    (*_table.CUSHION_NAMES, "jaw", None),
    (*_table.POCKET_NAMES, None),
    (None, "in", "out"),
)


def _line(line: Line) -> list[float]:
    (x0, y0), (x1, y1) = line.start, line.end
    length = math.hypot(x1 - x0, y1 - y0)
    return [x0, y0, (x1 - x0) / length, (y1 - y0) / length, *line.normal, length]


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PhysicsInputError(f"{what} must be a number, got {value!r}")
    if not math.isfinite(value):
        raise PhysicsInputError(f"{what} must be finite, got {value!r}")
    return float(value)


_PLAIN = frozenset((float, int))


def _vector(value: object, size: int, what: str) -> tuple[float, ...]:
    if (
        isinstance(value, tuple | list)
        and len(value) == size
        and set(map(type, value)) <= _PLAIN
        and all(map(math.isfinite, value))
    ):
        return tuple(value)  # the common case: plain finite numbers
    if not isinstance(value, tuple | list) or len(value) != size:
        raise PhysicsInputError(f"{what} must be {size} numbers, got {value!r}")
    return tuple(_number(x, f"{what}[{k}]") for k, x in enumerate(value))


def _table_and_params(params: Params | None, table: TableSpec | None) -> tuple[Params, TableSpec]:
    params = _DEFAULT_PARAMS if params is None else params
    table = _DEFAULT_TABLE if table is None else table
    if not isinstance(params, Params):
        raise PhysicsInputError(f"params must be a Params, got {type(params).__name__}")
    if not isinstance(table, TableSpec):
        raise PhysicsInputError(f"table must be a TableSpec, got {type(table).__name__}")
    return params, table


def _positions(balls: Mapping[str, tuple[float, float]]) -> tuple[tuple[str, ...], list[float]]:
    """The ball ids in engine order (sorted) and their flat, checked coordinates."""
    if (type(balls) is not dict and not isinstance(balls, Mapping)) or not balls:
        raise PhysicsInputError("balls must be a non-empty mapping of ball id to [x, y]")
    for ball in balls:
        if type(ball) is not str and not isinstance(ball, str):  # (str enums are names too)
            raise PhysicsInputError(f"ball ids must be strings, got {ball!r}")
    ids = tuple(sorted(balls))
    flat: list[float] = []
    isfinite = math.isfinite
    for ball in ids:
        at = balls[ball]
        if (
            type(at) is tuple
            and len(at) == 2
            and type(at[0]) is float
            and type(at[1]) is float
            and isfinite(at[0])
            and isfinite(at[1])
        ):
            flat += at  # the common case: a checked pair of floats, no message built
        else:
            flat += _vector(at, 2, f"balls[{ball!r}]")
    return ids, flat


def placement_error(
    code: int, ids: Sequence[str], flat: Sequence[float], i: int, j: int, prefix: str = ""
) -> PhysicsInputError:
    """The error for ball ``i`` of ``ids`` (centres ``flat``: x, y per ball) that may not
    stand where it is (``code``, a :class:`Placement`; ``j`` the pocket, cushion or ball in
    the way), one wording for every entry point."""
    name = ids[i]
    where = f"{prefix}balls[{name!r}] at ({flat[2 * i]:.6g}, {flat[2 * i + 1]:.6g})"
    if code == Placement.OFF_TABLE:
        return PhysicsInputError(f"{where} is off the table")
    if code == Placement.OVER_POCKET:
        return PhysicsInputError(f"{where} is over the {_table.POCKET_NAMES[j]} pocket")
    if code == Placement.CUSHION:
        return PhysicsInputError(f"{where} overlaps the {_table.CUSHION_NAMES[j]} cushion")
    if code == Placement.JAW:
        return PhysicsInputError(f"{where} overlaps a jaw of the {_table.POCKET_NAMES[j]} pocket")
    return PhysicsInputError(f"{where} overlaps balls[{ids[j]!r}]")


def _check_placement(ctx: Context, ids: tuple[str, ...], flat: Sequence[float]) -> None:
    """Raise :class:`PhysicsInputError` naming the first ball that may not stand where it is."""
    problem = ctx.validate(flat)
    if problem is not None:
        raise placement_error(*problem[:1], ids, flat, *problem[1:])


def check_position(
    balls: Mapping[str, tuple[float, float]],
    params: Params | None = None,
    table: TableSpec | None = None,
) -> None:
    """The one definition of "on the table" for balls at rest, used by every interface.

    A ball may stand wherever its centre is not inside a pocket's fall circle, lies within
    the bed's outline (pocket mouths and jaws included) and the ball overlaps no cushion,
    jaw facing or knuckle, nor another ball, by more than 1e-6 m. Every rest position the
    engine produces satisfies this, so what one stroke leaves is the next stroke's input.
    Raises :class:`PhysicsInputError` naming the first ball that breaks it.
    """
    params, table = _table_and_params(params, table)
    ids, flat = _positions(balls)
    _check_placement(_context(params, table), ids, flat)


def _prepare(
    balls: Mapping[str, tuple[float, float]],
    cue_ball: str,
    params: Params | None,
    table: TableSpec | None,
) -> tuple[Context, Params, tuple[str, ...], list[float], int]:
    """Check the position; return the engine, the ball ids in engine order (sorted), the
    flat positions and the cue ball's index."""
    params, table = _table_and_params(params, table)
    ids, flat = _positions(balls)
    if not isinstance(cue_ball, str) or cue_ball not in balls:
        raise PhysicsInputError(
            f"cue_ball {cue_ball!r} is not one of the balls on the table {sorted(balls)}"
        )
    ctx = _context(params, table)
    _check_placement(ctx, ids, flat)
    return ctx, params, ids, flat, ids.index(cue_ball)


def _launch_numbers(launch: Launch, params: Params, what: str) -> list[float]:
    if not isinstance(launch, Launch):
        raise PhysicsInputError(f"{what} must be a Launch, got {type(launch).__name__}")
    v: tuple[float, ...] = launch.v
    w: tuple[float, ...] = launch.w
    vz = launch.vz
    if not (
        type(v) is tuple
        and type(w) is tuple
        and len(v) == 2
        and len(w) == 3
        and type(vz) is float
        and all(type(x) is float for x in v)
        and all(type(x) is float for x in w)
        and math.isfinite(vz + sum(v) + sum(w))  # (inf - inf is nan: not finite either)
    ):  # not the common case of plain finite floats: check each, naming the bad one
        v = _vector(v, 2, f"{what}.v")
        w = _vector(w, 3, f"{what}.w")
        vz = _number(vz, f"{what}.vz")
    vx, vy = v
    wx, wy, wz = w
    speed = math.sqrt(vx * vx + vy * vy + vz * vz)
    spin = params.R * math.sqrt(wx * wx + wy * wy + wz * wz)
    if speed > MAX_SPEED * (1 + 1e-12):  # (a strike at exactly MAX_SPEED may round up)
        raise PhysicsInputError(
            f"{what}.v: speed {speed:.6g} m/s is above the limit of {MAX_SPEED} m/s"
        )
    if spin > MAX_SPIN_SPEED * (1 + 1e-12):
        raise PhysicsInputError(
            f"{what}.w: spin surface speed R|w| = {spin:.6g} m/s is above the limit of "
            f"{MAX_SPIN_SPEED} m/s"
        )
    if speed == 0 and spin == 0:
        raise PhysicsInputError(f"{what}: speed must be > 0 (the ball neither moves nor spins)")
    return [vx, vy, wx, wy, wz, vz]


def _check_status(raw: RawShot, what: str) -> None:
    if raw[0] != 0:
        raise PhysicsError(f"{what}: the shot did not end within {MAX_EVENTS} events")


def _run(
    ctx: Context,
    ids: tuple[str, ...],
    flat: list[float],
    cue: int,
    numbers: list[float],
    order: list[str],
    paths: bool,
) -> list[ShotResult]:
    """Run shots and build full results (in C, which calls the result classes)."""
    built = ctx.results(flat, cue, numbers, paths, ids, [ids.index(b) for b in order])
    out = []
    for k, result in enumerate(built):
        if result is None:
            raise PhysicsError(f"launches[{k}]: the shot did not end within {MAX_EVENTS} events")
        out.append(result)
    return out


def simulate(
    balls: Mapping[str, tuple[float, float]],
    cue_ball: str,
    launch: Launch,
    params: Params | None = None,
    table: TableSpec | None = None,
) -> ShotResult:
    """Simulate one stroke: ``cue_ball`` leaves its position with ``launch``, every other
    ball starts at rest; run until all balls are at rest or potted.

    Raises :class:`PhysicsInputError` for overlapping balls, a ball off the table or over
    a pocket, an unknown cue ball, a non-finite number, a launch speed above 10 m/s or a
    launch that does not move the ball.
    """
    ctx, params, ids, flat, cue = _prepare(balls, cue_ball, params, table)
    numbers = _launch_numbers(launch, params, "launch")
    return _run(ctx, ids, flat, cue, numbers, list(balls), True)[0]


def simulate_batch(
    balls: Mapping[str, tuple[float, float]],
    cue_ball: str,
    launches: Sequence[Launch],
    params: Params | None = None,
    table: TableSpec | None = None,
    *,
    paths: bool = True,
) -> list[ShotResult]:
    """Simulate many candidate strokes from one position (one engine call); results in
    the order of ``launches``. With ``paths=False`` the results carry no trajectories
    (``paths == {}``), which roughly halves the cost. See :func:`simulate_compact` for
    the leanest form."""
    ctx, params, ids, flat, cue = _prepare(balls, cue_ball, params, table)
    numbers: list[float] = []
    for k, launch in enumerate(launches):
        numbers += _launch_numbers(launch, params, f"launches[{k}]")
    return _run(ctx, ids, flat, cue, numbers, list(balls), paths)


def simulate_compact(
    balls: Mapping[str, tuple[float, float]],
    cue_ball: str,
    launches: Sequence[Launch],
    params: Params | None = None,
    table: TableSpec | None = None,
) -> CompactBatch:
    """Simulate many candidate strokes and return only rest positions, durations and
    integer-coded events (see :class:`CompactShot`): the fastest entry point, meant for
    players that search over many shots."""
    ctx, params, ids, flat, cue = _prepare(balls, cue_ball, params, table)
    numbers: list[float] = []
    for k, launch in enumerate(launches):
        numbers += _launch_numbers(launch, params, f"launches[{k}]")
    raws = ctx.simulate(flat, cue, numbers, False)
    shots = []
    for k, raw in enumerate(raws):
        _check_status(raw, f"launches[{k}]")
        shots.append(CompactShot(raw[1], raw[2], raw[3]))
    return CompactBatch(ids, tuple(shots))
