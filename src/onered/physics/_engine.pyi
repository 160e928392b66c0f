"""Type stub of the C extension (``_engine.c``, the glue over the kernel ``kernel.c``)."""

from collections.abc import Sequence
from typing import TypeAlias

from onered.physics.params import Params
from onered.physics.types import ShotResult

#: (t, kind, a, b, cushion, pocket, direction), integer-coded as in engine.CompactShot
RawEvent: TypeAlias = tuple[float, int, int, int, int, int, int]
#: t0, t1, x, y, vx, vy, ax, ay, wx, wy, wz, dwx, dwy, dwz
RawSegment: TypeAlias = tuple[float, ...]
#: (status, duration, rest per ball, events, segments per ball or None)
RawShot: TypeAlias = tuple[
    int,
    float,
    tuple[tuple[float, float] | None, ...],
    tuple[RawEvent, ...],
    tuple[tuple[RawSegment, ...], ...] | None,
]

class Context:
    """Parameters and table geometry, parsed once for many simulations."""

    def __init__(
        self,
        params: Params,
        geometry: Sequence[float],
        builders: tuple[object, ...],
        max_events: int,
        cushion_model: int,
    ) -> None:
        """``params``: read by field name; ``geometry``: the flat layout of
        ``engine._geometry_numbers``; ``builders``: the result classes (called to build
        results) and the name tables of ``engine._BUILDERS``; ``cushion_model``: a
        model's code (``CushionModel.code``, the ``CUSHION_*`` constants)."""
    def validate(self, positions: Sequence[float]) -> tuple[int, int, int] | None:
        """None, or (code, ball, other): a ``PLACE_*`` code (``engine.Placement``), the
        first ball that may not stand there and the pocket, cushion or ball in the way."""
    def simulate(
        self, positions: Sequence[float], cue: int, launches: Sequence[float], paths: bool
    ) -> list[RawShot]: ...
    def results(
        self,
        positions: Sequence[float],
        cue: int,
        launches: Sequence[float],
        paths: bool,
        names: tuple[str, ...],
        order: Sequence[int],
    ) -> list[ShotResult | None]: ...
    def run_many(
        self,
        positions: object,
        n: int,
        cue: object,
        launches: object,
        at: object,
        outputs: tuple[object, ...],
        keep_events: bool,
        /,
    ) -> bytes | None:
        """Run shot k from position at[k] (positions: float64, positions x n x 2; cue:
        int32 per position; launches: float64, shots x 6; at: int32 per shot) with the GIL
        released, writing into outputs (buffers, in order: status int8, duration float64,
        rest float64 x n x 2, fate int8 x n, pocket int8 x n, gone int32 x n, contact
        float64 x n, crossed uint8 x n, cushions int32 x n, flights int16 x n, overs int16
        x n, n_events int32, event_end int64, problem int32 x 4). Every position is checked
        first: problem = (position, PLACE_* code, ball, other) of the first that may not
        stand, and no shot runs. Returns the shots' event logs (7 doubles an event) when
        keep_events, else None."""

#: The Params fields the kernel reads, in its order (kernel_set_phys).
PHYS_FIELDS: tuple[str, ...]
PLACE_OK: int
PLACE_OFF_TABLE: int
PLACE_OVER_POCKET: int
PLACE_CUSHION: int
PLACE_JAW: int
PLACE_BALL: int
CUSHION_MATHAVAN2010: int
CUSHION_HAN2005: int

def first_entry(coefficients: Sequence[float], horizon: float) -> float:
    """The first t in [0, horizon] where c0 + c1 t + ... enters <= 0 from above (0 if it is
    <= 0 and decreasing at t = 0), else inf; quadratics in closed form, else by exact root
    isolation."""

def check_launches(
    launches: object, radius: float, max_speed: float, max_spin: float, /
) -> int:
    """The first launch (float64, 6 a row) out of the limits (a number not finite, a
    speed above max_speed, R|w| above max_spin, or no speed nor spin), else -1."""

def launch_of(
    speed: float,
    aim: float,
    side: float,
    height: float,
    elevation: float,
    radius: float,
    m: float,
    cue_end_mass: float,
    /,
) -> tuple[float, float, float, float, float, float]:
    """The launch (vx, vy, wx, wy, wz, vz) of a checked strike (``strike_to_launch``)."""

def launches_of(
    strikes: object,
    out: object,
    radius: float,
    m: float,
    cue_end_mass: float,
    /,
    *limits: float,
) -> int | None:
    """Launches (float64, 6 a row) into out for strikes (float64, 5 a row); with the four
    limits (max speed, max tip offset, min and max elevation) the strikes are checked
    first: the index of the first out of them (nothing written), else -1."""
