"""The table the game is played on: a small protocol over the physics engine.

The game loop needs one thing of the physics — "these balls, this strike, what happens" —
and the record needs to say which table and parameters were used, so that a replay
simulates the same table. :class:`PhysicsSimulator` is the real table; tests may pass any
object with the same two methods.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from onered.physics.types import ShotResult, Strike
from onered.table import Point

if TYPE_CHECKING:
    from onered.physics import Params, TableSpec


class Simulator(Protocol):
    """Simulates one stroke on a table."""

    def simulate(self, balls: Mapping[str, Point], cue_ball: str, strike: Strike) -> ShotResult:
        """The shot of ``strike`` on ``cue_ball`` with ``balls`` (name -> centre) at rest."""
        ...

    def describe(self) -> dict[str, Any]:
        """The table and parameters as JSON data, for the game record."""
        ...

    def check(self, balls: Mapping[str, Point]) -> None:
        """Raise ``ValueError`` naming a ball that may not stand where ``balls`` puts it
        (the table's one definition of "on the table")."""
        ...


#: Canonical strokes whose simulation identifies an engine: a break-off from the D at the
#: red on its spot, a cut with side and screw, a long power stroke round the table.
_PROBES: tuple[tuple[dict[str, Point], Strike], ...] = (
    ({"white": (0.95, 0.65), "red": (0.889, 3.245)}, Strike(2.4, 88.7, 0.0, 0.3)),
    (
        {"white": (0.6, 1.2), "yellow": (1.2, 2.0), "red": (1.0, 2.6)},
        Strike(1.7, 61.0, 0.25, -0.4),
    ),
    ({"white": (0.3, 0.4), "red": (1.5, 3.3)}, Strike(6.5, 37.0, -0.3, 0.5)),
)


@lru_cache(maxsize=8)
def fingerprint(params: Params, table: TableSpec) -> str:
    """A short hash of what the engine makes of a few canonical strokes on this table:
    records made by engines with different fingerprints cannot replay one another exactly
    (any change to the engine's arithmetic changes the last bits of a result)."""
    from onered.physics import ENGINE_VERSION, simulate, strike_to_launch

    digest = hashlib.sha256(f"engine {ENGINE_VERSION}".encode())
    for balls, strike in _PROBES:
        result = simulate(balls, "white", strike_to_launch(strike, params), params, table)
        for e in result.events:
            digest.update(repr((e.t, e.kind.value, e.balls, e.cushion, e.pocket)).encode())
        digest.update(repr(sorted(result.rest.items())).encode())
    return digest.hexdigest()[:16]


def _default_params() -> Params:
    from onered.physics import Params

    return Params()


def _default_table() -> TableSpec:
    from onered.physics import TableSpec

    return TableSpec()


@dataclass(frozen=True)
class PhysicsSimulator:
    """The simulated 12 ft table of ``onered.physics`` with its parameters."""

    params: Params = field(default_factory=_default_params)
    table: TableSpec = field(default_factory=_default_table)

    def simulate(self, balls: Mapping[str, Point], cue_ball: str, strike: Strike) -> ShotResult:
        """Simulate with the engine; its refusals (``PhysicsInputError``) pass through."""
        from onered.physics import simulate, strike_to_launch

        launch = strike_to_launch(strike, self.params)
        return simulate(balls, cue_ball, launch, self.params, self.table)

    def check(self, balls: Mapping[str, Point]) -> None:
        """The engine's :func:`~onered.physics.check_position` on this table: every rest
        position the engine leaves is accepted (``PhysicsInputError`` otherwise)."""
        from onered.physics import check_position

        check_position(balls, self.params, self.table)

    def describe(self) -> dict[str, Any]:
        """``{"params": {...}, "table": {...}, "fingerprint": "..."}``: every field, so a
        replay needs no defaults, and the engine's :func:`fingerprint` on them."""
        return {
            "params": self.params.as_json(),
            "table": asdict(self.table),
            "fingerprint": fingerprint(self.params, self.table),
        }

    @classmethod
    def from_description(cls, data: Mapping[str, Any]) -> PhysicsSimulator:
        """The simulator a record describes; ``ValueError`` (naming the field) when the
        description does not fit this engine. Parameters without a cushion model were
        written by an older engine and mean its table (``params_from_fields``)."""
        from onered.physics import PhysicsInputError, TableSpec
        from onered.physics.params import params_from_fields

        built: dict[str, Any] = {}  # a "fingerprint" is read by the replay, not here
        def table_from_fields(values: Mapping[str, Any]) -> TableSpec:
            return TableSpec(**values)

        for key, kind in (("params", params_from_fields), ("table", table_from_fields)):
            values = data.get(key, {})
            if not isinstance(values, Mapping):
                raise ValueError(f"physics.{key}: expected an object, got {type(values).__name__}")
            try:
                built[key] = kind(values)
            except TypeError as exc:  # (an unknown field of the table)
                raise ValueError(f"physics.{key}: {exc}") from None
            except PhysicsInputError as exc:
                raise ValueError(f"physics.{key}: {exc}") from None
        return cls(params=built["params"], table=built["table"])
