"""Table geometry for the simulator: cushions, pocket jaws (straight facings and rounded
knuckles) and pocket falls, derived from a few documented parameters.

Frame and names are those of :mod:`onered.table` (x across, y up the table, metres; pocket
and cushion names as seen from the baulk end).

Each pocket is built the same way. The two cushion nose lines that meet at a pocket stop at
its *jaw points*; the pocket's ``opening`` is the distance between them (for a corner pocket
the jaw points lie at ``opening/sqrt(2)`` from the corner along each cushion line; for a
middle pocket at ``opening/2`` either side of the middle). From each jaw point a straight
*facing* runs into the pocket, turned by ``facing_angle`` from the pocket axis towards the
axis (positive: the pocket narrows inwards), for ``jaw_depth`` metres. The corner between
nose and facing is rounded by a *knuckle*: a circle of radius ``knuckle_radius`` tangent to
both lines. A ball is potted when its centre enters the *fall*: a circle of radius
``fall_radius`` centred on the pocket axis ``fall_depth`` behind the mouth line (the line
through the two jaw points).

The defaults (``docs/table.md`` says where each comes from: snooker's templates are not
published): corner and middle openings of 86 and 80 mm at the cushion line (typical of open
simulators), facings at pool's cut angles (7 and 14 degrees from the axis, WPA/BCA), 10 and
5 mm knuckles, and the slate's edges 15 and 3 mm behind the mouths, chosen so that the
effective pocket sizes follow the shape of Alciatore's published ones and a ball running
along a cushion drops into a corner (``docs/physics-validation.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from onered import table
from onered.physics.errors import PhysicsInputError
from onered.physics.params import Range, check_ranges
from onered.physics.types import Vec2

_OPENING = Range(0.04, 0.2, "m")  # from the smallest ball's diameter to twice a wide pocket
_FACING_ANGLE = Range(-30.0, 30.0, "degrees")
_KNUCKLE = Range(0.0, 0.1, "m", low_open=True)
_DEPTH = Range(0.0, 0.2, "m", low_open=True)

#: The range of every field of :class:`TableSpec` (the one place where they live). A table
#: must also fit the ball (:meth:`TableSpec.check_ball_radius`), and ``baulk_y`` lie
#: strictly between 0 and ``length``.
TABLE_RANGES: dict[str, Range] = {
    "width": Range(0.5, 5.0, "m"),
    "length": Range(0.5, 5.0, "m"),
    "baulk_y": Range(0.0, 5.0, "m", low_open=True),
    **{
        f"{kind}_{name}": valid
        for kind in ("corner", "middle")
        for name, valid in (
            ("opening", _OPENING),
            ("facing_angle", _FACING_ANGLE),
            ("knuckle_radius", _KNUCKLE),
            ("jaw_depth", _DEPTH),
            ("fall_radius", _DEPTH),
            ("fall_depth", _DEPTH),
        )
    },
}


@dataclass(frozen=True, slots=True)
class TableSpec:
    """The table as the simulator sees it. Override fields with ``dataclasses.replace``.

    Lengths are metres, angles degrees. ``corner_*`` fields describe the four corner
    pockets, ``middle_*`` the two middle pockets (see the module docstring for the
    construction).
    """

    width: float = table.WIDTH
    length: float = table.LENGTH
    baulk_y: float = table.BAULK_Y
    corner_opening: float = 0.086
    corner_facing_angle: float = 7.0
    corner_knuckle_radius: float = 0.01
    corner_jaw_depth: float = 0.06
    corner_fall_radius: float = 0.045
    corner_fall_depth: float = 0.06
    middle_opening: float = 0.080
    middle_facing_angle: float = 14.0
    middle_knuckle_radius: float = 0.005
    middle_jaw_depth: float = 0.045
    middle_fall_radius: float = 0.04
    middle_fall_depth: float = 0.043

    def __post_init__(self) -> None:
        check_ranges("table", self, TABLE_RANGES)
        if not 0 < self.baulk_y < self.length:
            raise PhysicsInputError(
                f"table.baulk_y: must lie on the table, in (0, length), got {self.baulk_y!r}"
            )
        for kind in ("corner", "middle"):
            tangent = _knuckle_tangent_length(self, kind)
            if tangent >= getattr(self, f"{kind}_jaw_depth"):
                raise PhysicsInputError(
                    f"table.{kind}_knuckle_radius is too large for table.{kind}_jaw_depth: "
                    "the rounding would cover the whole facing"
                )
        straight = min(
            self.width - 2 * self.corner_opening / math.sqrt(2),
            (self.length - self.middle_opening) / 2 - self.corner_opening / math.sqrt(2),
        )
        if straight <= _knuckle_tangent_length(self, "corner") + _knuckle_tangent_length(
            self, "middle"
        ):
            raise PhysicsInputError("table: the pockets leave no straight cushion between them")

    def geometry(self) -> TableGeometry:
        """The derived cushion segments, knuckles and pockets (cached per spec)."""
        return _geometry(self)

    def check_ball_radius(self, radius: float) -> None:
        """Raise :class:`PhysicsInputError` unless balls of ``radius`` fit this table: a
        ball must pass the jaws into the fall, the fall must catch every ball that gets
        past the facings, and no fall may reach a ball resting on the playing surface."""
        _check_ball_radius(self, radius)


@dataclass(frozen=True, slots=True)
class Line:
    """A straight cushion nose or jaw facing: the segment ``start``-``end`` with the unit
    ``normal`` pointing to the side where balls are. ``cushion`` is a cushion name, or
    ``"jaw"`` for a facing (then ``pocket`` names its pocket)."""

    start: Vec2
    end: Vec2
    normal: Vec2
    cushion: str
    pocket: str | None = None


@dataclass(frozen=True, slots=True)
class Knuckle:
    """The rounded end of a cushion at a pocket: a circle of ``radius`` around ``centre``;
    its exposed arc runs from ``start`` (on the cushion nose) to ``end`` (on the facing)."""

    centre: Vec2
    radius: float
    start: Vec2
    end: Vec2
    pocket: str


@dataclass(frozen=True, slots=True)
class PocketShape:
    """One pocket: its jaw points, facings, knuckles and fall circle."""

    name: str
    jaw_points: tuple[Vec2, Vec2]
    facings: tuple[Line, Line]
    knuckles: tuple[Knuckle, Knuckle]
    fall_centre: Vec2
    fall_radius: float
    axis: Vec2  # unit vector from the mouth into the pocket


@dataclass(frozen=True, slots=True)
class TableGeometry:
    """Everything a ball can meet: six straight cushions (in ``table.CUSHION_NAMES``
    order) and six pockets (in ``table.POCKET_NAMES`` order), plus the outline polygon of
    the region the ball centres may occupy (cushion lines, facings, and the line joining
    the facing ends of each pocket), counter-clockwise."""

    cushions: tuple[Line, ...]
    pockets: tuple[PocketShape, ...]
    outline: tuple[Vec2, ...]
    baulk_y: float


def _unit(x: float, y: float) -> Vec2:
    n = math.hypot(x, y)
    return (x / n, y / n)


def _knuckle_tangent_length(spec: TableSpec, kind: str) -> float:
    """Distance from a jaw point to where the knuckle meets the nose and the facing."""
    beta = math.radians(getattr(spec, f"{kind}_facing_angle"))
    # interior angle of the cushion body at the jaw point, between nose and facing
    base = 135.0 if kind == "corner" else 90.0
    alpha = math.radians(base) + beta
    radius: float = getattr(spec, f"{kind}_knuckle_radius")
    return radius / math.tan(alpha / 2)


def _pocket(
    spec: TableSpec,
    name: str,
    kind: str,
    jaws: tuple[Vec2, Vec2],
    noses: tuple[Vec2, Vec2],
    axis: Vec2,
) -> PocketShape:
    """Build a pocket from its jaw points, the nose directions (along each cushion, away
    from the pocket) and the axis (out of the table)."""
    beta = math.radians(getattr(spec, f"{kind}_facing_angle"))
    rho: float = getattr(spec, f"{kind}_knuckle_radius")
    depth: float = getattr(spec, f"{kind}_jaw_depth")
    mouth = ((jaws[0][0] + jaws[1][0]) / 2, (jaws[0][1] + jaws[1][1]) / 2)
    facings: list[Line] = []
    knuckles: list[Knuckle] = []
    ends: list[Vec2] = []
    for jaw, nose in zip(jaws, noses, strict=True):
        towards_axis = _unit(mouth[0] - jaw[0], mouth[1] - jaw[1])
        f = (
            axis[0] * math.cos(beta) + towards_axis[0] * math.sin(beta),
            axis[1] * math.cos(beta) + towards_axis[1] * math.sin(beta),
        )
        alpha = math.acos(max(-1.0, min(1.0, nose[0] * f[0] + nose[1] * f[1])))
        tangent = rho / math.tan(alpha / 2)
        bis = _unit(nose[0] + f[0], nose[1] + f[1])
        dist = rho / math.sin(alpha / 2)
        centre = (jaw[0] + bis[0] * dist, jaw[1] + bis[1] * dist)
        on_nose = (jaw[0] + nose[0] * tangent, jaw[1] + nose[1] * tangent)
        on_facing = (jaw[0] + f[0] * tangent, jaw[1] + f[1] * tangent)
        end = (jaw[0] + f[0] * depth, jaw[1] + f[1] * depth)
        # the facing's free side is the one away from the nose (the cushion body)
        normal = (-f[1], f[0])
        if normal[0] * nose[0] + normal[1] * nose[1] > 0:
            normal = (f[1], -f[0])
        facings.append(Line(on_facing, end, normal, "jaw", name))
        knuckles.append(Knuckle(centre, rho, on_nose, on_facing, name))
        ends.append(end)
    fall_depth: float = getattr(spec, f"{kind}_fall_depth")
    fall = (mouth[0] + axis[0] * fall_depth, mouth[1] + axis[1] * fall_depth)
    return PocketShape(
        name=name,
        jaw_points=jaws,
        facings=(facings[0], facings[1]),
        knuckles=(knuckles[0], knuckles[1]),
        fall_centre=fall,
        fall_radius=getattr(spec, f"{kind}_fall_radius"),
        axis=axis,
    )


@lru_cache(maxsize=32)
def _geometry(spec: TableSpec) -> TableGeometry:
    w, length = spec.width, spec.length
    a = spec.corner_opening / math.sqrt(2)
    hm = spec.middle_opening / 2
    ym = length / 2
    s2 = 1 / math.sqrt(2)
    # name, kind, jaw points in counter-clockwise boundary order, nose directions, axis
    layout: dict[str, tuple[str, tuple[Vec2, Vec2], tuple[Vec2, Vec2], Vec2]] = {
        "bottom_left": ("corner", ((0.0, a), (a, 0.0)), ((0, 1), (1, 0)), (-s2, -s2)),
        "bottom_right": ("corner", ((w - a, 0.0), (w, a)), ((-1, 0), (0, 1)), (s2, -s2)),
        "middle_left": ("middle", ((0.0, ym + hm), (0.0, ym - hm)), ((0, 1), (0, -1)), (-1, 0)),
        "middle_right": ("middle", ((w, ym - hm), (w, ym + hm)), ((0, -1), (0, 1)), (1, 0)),
        "top_left": ("corner", ((a, length), (0.0, length - a)), ((1, 0), (0, -1)), (-s2, s2)),
        "top_right": ("corner", ((w, length - a), (w - a, length)), ((0, -1), (-1, 0)), (s2, s2)),
    }
    shapes = {
        name: _pocket(spec, name, kind, jaws, noses, axis)
        for name, (kind, jaws, noses, axis) in layout.items()
    }
    pockets = tuple(shapes[name] for name in table.POCKET_NAMES)

    def nose_end(pocket: str, jaw: int) -> Vec2:
        return shapes[pocket].knuckles[jaw].start

    # each straight cushion runs from the knuckle of the pocket behind it (its jaw 1, where
    # the boundary leaves that pocket) to the knuckle of the pocket ahead (its jaw 0)
    runs = {
        "bottom": ("bottom_left", "bottom_right", (0.0, 1.0)),
        "top": ("top_right", "top_left", (0.0, -1.0)),
        "left_lower": ("middle_left", "bottom_left", (1.0, 0.0)),
        "left_upper": ("top_left", "middle_left", (1.0, 0.0)),
        "right_lower": ("bottom_right", "middle_right", (-1.0, 0.0)),
        "right_upper": ("middle_right", "top_right", (-1.0, 0.0)),
    }
    cushions = tuple(
        Line(nose_end(runs[name][0], 1), nose_end(runs[name][1], 0), runs[name][2], name)
        for name in table.CUSHION_NAMES
    )
    # outline, counter-clockwise: each pocket adds jaw 0, both facing ends, jaw 1
    outline: list[Vec2] = []
    for name in (
        "bottom_left",
        "bottom_right",
        "middle_right",
        "top_right",
        "top_left",
        "middle_left",
    ):
        p = shapes[name]
        outline += [p.jaw_points[0], p.facings[0].end, p.facings[1].end, p.jaw_points[1]]
    return TableGeometry(cushions, pockets, tuple(outline), spec.baulk_y)


def _check_ball_radius(spec: TableSpec, radius: float) -> None:
    geo = spec.geometry()
    for p in geo.pockets:
        kind = "middle" if p.name.startswith("middle") else "corner"
        # the ball-centre corridor at the end of the facings must be open and inside the fall
        pts = []
        for f in p.facings:
            pts.append((f.end[0] + f.normal[0] * radius, f.end[1] + f.normal[1] * radius))
        width = math.dist(p.facings[0].end, p.facings[1].end)
        if width <= 2 * radius:
            raise PhysicsInputError(
                f"table: the {kind} pockets are too narrow at the end of the facings for a "
                f"ball of radius {radius}"
            )
        for q in pts:
            if math.dist(q, p.fall_centre) >= p.fall_radius:
                raise PhysicsInputError(
                    f"table: the {kind} pocket fall does not cover the end of the jaws "
                    f"(increase {kind}_fall_radius or decrease {kind}_fall_depth)"
                )
        # no fall may reach a ball lying on the surface (centre within the faces less R)
        cx = min(max(p.fall_centre[0], radius), spec.width - radius)
        cy = min(max(p.fall_centre[1], radius), spec.length - radius)
        if math.dist((cx, cy), p.fall_centre) <= p.fall_radius:
            raise PhysicsInputError(
                f"table: the {kind} pocket fall reaches onto the playing surface "
                f"(decrease {kind}_fall_radius or increase {kind}_fall_depth)"
            )
        # a ball must be able to enter between the knuckles
        k0, k1 = p.knuckles
        if math.dist(k0.centre, k1.centre) - k0.radius - k1.radius <= 2 * radius:
            raise PhysicsInputError(f"table: the {kind} pocket opening is narrower than a ball")


#: The pockets of the engines before ``ENGINE_VERSION`` 3 (5-degree facings, 40 and 30 mm
#: knuckles, falls close behind the mouths): for comparisons and for the stress
#: regressions found on them.
LEGACY_TABLE = TableSpec(
    corner_facing_angle=5.0,
    corner_knuckle_radius=0.04,
    corner_fall_depth=0.055,
    middle_facing_angle=5.0,
    middle_knuckle_radius=0.03,
    middle_fall_depth=0.045,
)
