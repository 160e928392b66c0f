"""The 12 ft table in the frame of the rules (``docs/table.md``), shared by physics and referee.

Origin at the bottom-left corner of the playing surface seen from the baulk end; x to the
right across the table, y up the table towards the top cushion; metres. Only geometry lives
here: no rules, no physics. Pocket and cushion geometry for the simulator is in
``onered.physics.geometry``.
"""

from __future__ import annotations

import math
from enum import Enum

#: Width (x) and length (y) of the playing surface between the cushion faces.
WIDTH = 1.778
LENGTH = 3.569
#: Ball diameter and radius.
BALL_DIAMETER = 0.0525
BALL_RADIUS = BALL_DIAMETER / 2
#: The baulk line, and the D: a semicircle on the baulk side of it.
BAULK_Y = 0.737
D_CENTRE = (0.889, 0.737)
D_RADIUS = 0.292
#: Tolerance of every geometric comparison the referee makes (decision 1, ``docs/rules.md``).
EPS = 1e-6

Point = tuple[float, float]


class Spot(Enum):
    """The named points where the referee places balls (the protocol's spot names)."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    BILLIARDS = "billiards"
    PYRAMID = "pyramid"
    CENTRE = "centre"
    BAULK_MIDDLE = "baulk_middle"
    D_RIGHT = "d_right"
    D_LEFT = "d_left"

    @property
    def point(self) -> Point:
        """The spot's coordinates in the table frame."""
        return SPOT_POINTS[self]


SPOT_POINTS: dict[Spot, Point] = {
    Spot.BILLIARDS: (0.889, 3.245),
    Spot.PYRAMID: (0.889, 2.67675),
    Spot.CENTRE: (0.889, 1.7845),
    Spot.BAULK_MIDDLE: (0.889, 0.737),
    Spot.D_RIGHT: (1.181, 0.737),
    Spot.D_LEFT: (0.597, 0.737),
}


def in_baulk(p: Point) -> bool:
    """A ball is in baulk when its centre is on the baulk line or behind it (decision 1)."""
    return p[1] <= BAULK_Y + EPS


def in_d(p: Point) -> bool:
    """A ball is in the D when its centre is inside the semicircle or on its boundary."""
    dx = p[0] - D_CENTRE[0]
    dy = p[1] - D_CENTRE[1]
    return p[1] <= BAULK_Y + EPS and math.hypot(dx, dy) <= D_RADIUS + EPS


def on_surface(p: Point, radius: float = BALL_RADIUS) -> bool:
    """The whole ball lies within the cushion faces (a ball resting against one included)."""
    x, y = p
    return radius - EPS <= x <= WIDTH - radius + EPS and radius - EPS <= y <= LENGTH - radius + EPS


def distance(a: Point, b: Point) -> float:
    """Euclidean distance between two points."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def touching(a: Point, b: Point) -> bool:
    """Two balls touch when their centres are within one diameter plus EPS (decision 2)."""
    return distance(a, b) <= BALL_DIAMETER + EPS


#: The six straight cushions (between the pocket jaws), named as seen from the baulk end.
CUSHION_NAMES: tuple[str, ...] = (
    "bottom",
    "top",
    "left_lower",
    "left_upper",
    "right_lower",
    "right_upper",
)
#: The six pockets, named as seen from the baulk end (left = x near 0, bottom = y near 0).
POCKET_NAMES: tuple[str, ...] = (
    "bottom_left",
    "bottom_right",
    "middle_left",
    "middle_right",
    "top_left",
    "top_right",
)
#: Where each pocket is: the corner of the playing surface, or the middle of a side cushion.
POCKET_POINTS: dict[str, Point] = {
    "bottom_left": (0.0, 0.0),
    "bottom_right": (WIDTH, 0.0),
    "middle_left": (0.0, LENGTH / 2),
    "middle_right": (WIDTH, LENGTH / 2),
    "top_left": (0.0, LENGTH),
    "top_right": (WIDTH, LENGTH),
}
