"""What a study is: its kind and settings as frozen values, and how its tasks are seeded.

A study is a list of independent *tasks* (one game, or one position of a shot family),
numbered from 0. Task ``i`` draws every random number from :func:`task_seed` of the study's
seed and ``i`` alone — in a sweep, of the study's seed and the task's game number within its
value, so game ``k`` of every value is played from the same seed (common random numbers,
``onered.study.work.seed_of``) — so a task's rows never depend on which worker ran it, on
how many workers there were, or on which tasks ran before it. A spec is written to the
study's folder as JSON (:meth:`to_json`) and read back equal (:func:`spec_from_json`): that
is how a resumed study proves it is the same study.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import Enum
from typing import Any

from onered.errors import OneredError
from onered.players.spec import PLAYER_PARAMS as _PLAYER_PARAMS
from onered.players.spec import PlayerSpecError, assignments, number, parse_player

#: Bumped when a task's rows change for the same spec (a folder of another format is refused).
#: 2: positions and coordinates in the strokes and shots, game records, a sweep's common
#: random numbers.
FORMAT = 2


class StudyError(OneredError, ValueError):
    """Settings or a study folder that cannot be used; the message names the input."""

    default_code = "study"


class Kind(Enum):
    """The three kinds of study."""

    GAMES = "games"
    SHOTS = "shots"
    SWEEP = "sweep"


class ShotKind(Enum):
    """The shot of a shots study: a pot of the object ball, or an in-off of the cue ball
    off the object ball, into the named pocket."""

    POT = "pot"
    IN_OFF = "in-off"


class Vary(Enum):
    """Which ball of a shots study stands on the grid (the other stays put)."""

    OBJECT = "object"
    CUE = "cue"


def task_seed(seed: int, index: int) -> int:
    """The seed of task ``index`` of a study seeded ``seed``: numpy's ``SeedSequence`` with
    the study's seed as entropy and the index as spawn key (the ``index``-th child of
    ``SeedSequence(seed).spawn(n)`` for any ``n > index``), as one 64-bit integer."""
    import numpy as np

    sequence = np.random.SeedSequence(seed, spawn_key=(index,))
    return int(sequence.generate_state(1, np.uint64)[0])


# --- settings shared by the kinds ---------------------------------------------------------

#: Player parameters a player description may override, and a sweep may vary
#: (``onered.players.spec``'s, the one reading of a player's description).
PLAYER_PARAMS: tuple[str, ...] = _PLAYER_PARAMS

#: A value of a table parameter: a number, or a name for a parameter that takes one
#: (:func:`named_params`: the cushion model).
Value = float | str
#: Table parameters set by name: ``(("cushion_model", "han2005"), ("e_c", 0.85))``.
Physics = tuple[tuple[str, Value], ...]


def named_params() -> dict[str, tuple[str, ...]]:
    """The fields of :class:`~onered.physics.Params` that take a name rather than a number
    (``cushion_model``), each with the names it accepts in order
    (:data:`onered.physics.params.NAMED_PARAMS`)."""
    from onered.physics.params import NAMED_PARAMS

    return dict(NAMED_PARAMS)


def _number(text: str, what: str) -> float:
    try:
        return number(text, what)
    except PlayerSpecError as exc:
        raise StudyError(str(exc)) from None


def _split(text: str, what: str) -> list[tuple[str, str]]:
    """``"a=1,b=x"`` as ``[("a", "1"), ("b", "x")]``; a name given twice is refused (the
    assignments of a player's description, ``onered.players.spec``)."""
    try:
        return assignments(text, what)
    except PlayerSpecError as exc:
        raise StudyError(str(exc)) from None


def parse_assignments(text: str, what: str) -> tuple[tuple[str, float], ...]:
    """``"a=1,b=2.5"`` as ``(("a", 1.0), ("b", 2.5))`` (empty text: no assignment)."""
    return tuple((name, _number(value, f"{what}: {name}")) for name, value in _split(text, what))


def parse_physics(text: str, what: str = "--physics") -> Physics:
    """Table parameters as :func:`parse_assignments` reads them, but a parameter that takes
    a name (:func:`named_params`) keeps its value as text, so
    ``"cushion_model=han2005,e_c=0.85"`` is ``(("cushion_model", "han2005"), ("e_c", 0.85))``.
    The names are checked by :func:`check_physics` (with the known ones in the message)."""
    named = named_params()
    return tuple(
        (name, value if name in named else _number(value, f"{what}: {name}"))
        for name, value in _split(text, what)
    )


def check_physics(physics: Physics, what: str = "--physics") -> None:
    """Each name a field of :class:`~onered.physics.Params`, each value within its range
    (a named parameter's value one of its names)."""
    from onered.physics import Params, PhysicsInputError
    from onered.physics.params import params_with

    known = {f.name for f in fields(Params)}
    for name, _ in physics:
        if name not in known:
            raise StudyError(
                f"{what}: {name!r} is not a physical parameter (expected one of "
                f"{', '.join(sorted(known))})"
            )
    try:
        params_with(dict(physics))
    except PhysicsInputError as exc:
        raise StudyError(f"{what}: {exc}") from None


def check_player(spec: str, what: str) -> None:
    """A player description: a level of ``onered.players`` (``ai:amateur``), optionally
    followed by player parameters (``ai:amateur,noise.aim=0.1,continuation=2``), read by
    ``onered.players.parse_player``; a study's players are the computer."""
    try:
        read = parse_player(spec)
    except PlayerSpecError as exc:
        raise StudyError(f"{what}: {exc}") from None
    if not read.is_computer:
        raise StudyError(
            f"{what}: player {spec!r}: a study's players are the computer (ai:<level>)"
        )


def _check_count(value: int, what: str, low: int = 1, high: int = 10_000_000) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise StudyError(f"{what}: expected a whole number in [{low}, {high}], got {value!r}")


def _check_seed(seed: int) -> None:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
        raise StudyError(f"--seed: expected a whole number in [0, 2^63), got {seed!r}")


# --- the three kinds ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GamesSpec:
    """Many games between two players: ``games`` games to ``target`` points on a table with
    the ``physics`` overrides (the players know the table they play on)."""

    p1: str = "ai:amateur"
    p2: str = "ai:beginner"
    games: int = 20
    target: int = 30
    max_strokes: int = 400
    lag: bool = True
    physics: Physics = ()
    seed: int = 1

    kind = Kind.GAMES

    def check(self) -> None:
        _check_seed(self.seed)
        _check_count(self.games, "--games")
        _check_count(self.target, "--target", 1, 10_000)
        _check_count(self.max_strokes, "--max-strokes", 1, 1_000_000)
        check_physics(self.physics)
        check_player(self.p1, "--p1")
        check_player(self.p2, "--p2")

    @property
    def tasks(self) -> int:
        return self.games


@dataclass(frozen=True, slots=True)
class ShotsSpec:
    """A family of positions and one shot with the white and the red (the yellow off the
    table, as before its owner's first visit): the ``vary`` ball on a ``grid`` (columns, rows)
    over the ``region`` (x0, x1, y0, y1) of the table, the other ball at ``fixed``; the
    ``shot`` into ``pocket`` at ``speed`` with the tip at ``side``/``height``, played
    ``samples`` times under ``player``'s execution noise at each position."""

    shot: ShotKind = ShotKind.POT
    pocket: str = "top_right"
    vary: Vary = Vary.OBJECT
    fixed: tuple[float, float] = (0.889, 1.7845)
    grid: tuple[int, int] = (12, 14)
    region: tuple[float, float, float, float] = (0.1, 1.678, 1.95, 3.45)
    player: str = "ai:amateur"
    samples: int = 200
    speed: float = 3.0
    side: float = 0.0
    height: float = 0.0
    physics: Physics = ()
    seed: int = 1

    kind = Kind.SHOTS

    def check(self) -> None:
        from onered.table import LENGTH, POCKET_NAMES, WIDTH

        _check_seed(self.seed)
        if self.pocket not in POCKET_NAMES:
            raise StudyError(
                f"--pocket: expected one of {', '.join(POCKET_NAMES)}, got {self.pocket!r}"
            )
        _check_count(self.grid[0], "--grid (columns)", 1, 500)
        _check_count(self.grid[1], "--grid (rows)", 1, 500)
        _check_count(self.samples, "--samples", 1, 1_000_000)
        x0, x1, y0, y1 = self.region
        if not (0 <= x0 <= x1 <= WIDTH and 0 <= y0 <= y1 <= LENGTH):
            raise StudyError(
                f"--region: expected x0,x1,y0,y1 with 0 <= x0 <= x1 <= {WIDTH} and "
                f"0 <= y0 <= y1 <= {LENGTH}, got {','.join(f'{v:g}' for v in self.region)}"
            )
        if not 0.05 <= self.speed <= 10.0:
            raise StudyError(f"--speed: expected a speed in [0.05, 10] m/s, got {self.speed:g}")
        if math.hypot(self.side, self.height) > 0.8:
            raise StudyError(
                f"--side/--height: the tip offset must be within 0.8 R, got "
                f"side {self.side:g}, height {self.height:g}"
            )
        check_physics(self.physics)
        check_player(self.player, "--player")
        from onered.physics import PhysicsInputError, check_position

        try:
            check_position({"white": self.fixed})
        except PhysicsInputError as exc:
            raise StudyError(f"--at: {exc}") from None

    @property
    def tasks(self) -> int:
        return self.grid[0] * self.grid[1]

    def grid_point(self, index: int) -> tuple[int, int, tuple[float, float]]:
        """Column, row and point of grid position ``index`` (row-major from the bottom left;
        cells are centred in the region, so a 1x1 grid is its middle)."""
        nx, ny = self.grid
        ix, iy = index % nx, index // nx
        x0, x1, y0, y1 = self.region
        return ix, iy, (x0 + (ix + 0.5) * (x1 - x0) / nx, y0 + (iy + 0.5) * (y1 - y0) / ny)


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """One parameter over ``values``: ``games`` games between ``p1`` and ``p2`` at each
    value. A physical parameter (a field of ``Params``) changes the table; a player
    parameter (:data:`PLAYER_PARAMS`) changes ``p1`` (``who="p1"``) or both players.

    The values are numbers, except for a physical parameter that takes a name
    (:func:`named_params`, the cushion model), whose values are names:
    ``SweepSpec(param="cushion_model", values=("mathavan2010", "han2005"))`` plays the
    same games on a table of each model (a *categorical* sweep, :attr:`categorical`)."""

    param: str = "e_c"
    values: tuple[Value, ...] = (0.7, 0.78, 0.86, 0.94)
    p1: str = "ai:amateur"
    p2: str = "ai:amateur"
    who: str = "both"
    games: int = 4
    target: int = 30
    max_strokes: int = 400
    lag: bool = True
    physics: Physics = ()
    seed: int = 1

    kind = Kind.SWEEP

    @property
    def physical(self) -> bool:
        return self.param not in PLAYER_PARAMS

    @property
    def categorical(self) -> bool:
        """The parameter takes names, not numbers (its values are names)."""
        return self.param in named_params()

    def check(self) -> None:
        from onered.physics import Params

        _check_seed(self.seed)
        _check_count(self.games, "--games")
        _check_count(self.target, "--target", 1, 10_000)
        _check_count(self.max_strokes, "--max-strokes", 1, 1_000_000)
        if not self.values:
            raise StudyError("--values: expected at least one value")
        if self.who not in ("both", "p1"):
            raise StudyError(f"--who: expected both or p1, got {self.who!r}")
        known = [f.name for f in fields(Params)]
        if self.param not in PLAYER_PARAMS and self.param not in known:
            raise StudyError(
                f"--param: {self.param!r} is neither a physical parameter ({', '.join(known)}) "
                f"nor a player parameter ({', '.join(PLAYER_PARAMS)})"
            )
        check_physics(self.physics)
        where = f"--values ({self.param})"
        if not self.categorical:
            for value in self.values:
                if isinstance(value, bool) or not isinstance(value, int | float):
                    raise StudyError(f"{where}: expected a number, got {value!r}")
        for value in self.values:
            if self.physical:
                check_physics((*self.physics, (self.param, value)), where)
            else:
                for who, spec in self.players_at(value).items():
                    check_player(spec, f"--values ({self.param}={value:g}, {who})")

    def players_at(self, value: Value) -> dict[str, str]:
        """The two players' descriptions at ``value`` (the value set on a player parameter)."""
        if self.physical:
            return {"p1": self.p1, "p2": self.p2}
        add = f",{self.param}={value!r}"
        return {"p1": self.p1 + add, "p2": self.p2 + (add if self.who == "both" else "")}

    def physics_at(self, value: Value) -> Physics:
        """The table's overrides at ``value``."""
        if not self.physical:
            return self.physics
        return (*(kv for kv in self.physics if kv[0] != self.param), (self.param, value))

    @property
    def tasks(self) -> int:
        return len(self.values) * self.games

    def task_value(self, index: int) -> tuple[int, int]:
        """The value's position and the game's number within it of task ``index``."""
        return index // self.games, index % self.games


Spec = GamesSpec | ShotsSpec | SweepSpec
_KINDS: dict[str, type[GamesSpec] | type[ShotsSpec] | type[SweepSpec]] = {
    "games": GamesSpec,
    "shots": ShotsSpec,
    "sweep": SweepSpec,
}


def to_json(spec: Spec) -> dict[str, Any]:
    """The spec as JSON data (its kind and the format included)."""
    data: dict[str, Any] = {"kind": spec.kind.value, "format": FORMAT}
    for key, value in asdict(spec).items():
        if isinstance(value, Enum):
            value = value.value
        elif isinstance(value, tuple):
            value = [list(v) if isinstance(v, tuple) else v for v in value]
        data[key] = value
    return data


def spec_from_json(data: Mapping[str, Any]) -> Spec:
    """The spec :func:`to_json` wrote; :class:`StudyError` for anything else."""
    kind = _KINDS.get(str(data.get("kind")))
    if kind is None:
        raise StudyError(f"spec: unknown kind {data.get('kind')!r}")
    if data.get("format") != FORMAT:
        raise StudyError(f"spec: format {data.get('format')!r}, this onered writes {FORMAT}")
    spec = kind()
    values: dict[str, Any] = {}
    for f in fields(kind):
        if f.name not in data:
            raise StudyError(f"spec: field {f.name!r} missing")
        raw = data[f.name]
        default = getattr(spec, f.name)
        if isinstance(default, Enum):
            raw = type(default)(raw)
        elif isinstance(default, tuple):
            raw = tuple(tuple(v) if isinstance(v, list) else v for v in raw)
        values[f.name] = raw
    return replace(spec, **values)
