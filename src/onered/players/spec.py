"""Who plays, as text: a person (``human``) or the computer at a level, with the AI's
parameters overridden where given (``ai:<level>[,name=value...]``, e.g.
``ai:pro,noise.aim=0.05,continuation=5``).

This is the one reading of that grammar: records' ``entrants``, the CLI's ``--p1``/``--p2``,
the studies' players, the gym opponents and the web page (which gets the grammar from
:func:`grammar_json`) all read a description with :func:`parse_player` into a
:class:`PlayerSpec`, and write one with ``str(spec)``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from onered.errors import OneredError
from onered.game.session import HUMAN
from onered.players.strength import STRENGTHS, Level, Strength

#: The AI's parameters a description may override (and a study's sweep may vary): its
#: execution noise (``onered.players.strength.Noise``) and its ``continuation``.
PLAYER_PARAMS: tuple[str, ...] = (
    "noise.aim",
    "noise.speed",
    "noise.tip",
    "noise.elevation",
    "noise.pace",
    "noise.side",
    "continuation",
)
#: The range a ``continuation`` override must lie in (points).
CONTINUATION_RANGE = (0.0, 1000.0)
#: Between the kind and the level (``ai:pro``), and between the level and each parameter.
KIND_SEPARATOR = ":"
PARAM_SEPARATOR = ","


class PlayerSpecError(OneredError, ValueError):
    """A player description that names no known player; the message names the text."""

    default_code = "player_spec"


class PlayerKind(Enum):
    """Who plays: a person, or the computer."""

    HUMAN = HUMAN
    AI = "ai"


def assignments(text: str, what: str) -> list[tuple[str, str]]:
    """``"a=1,b=x"`` as ``[("a", "1"), ("b", "x")]`` (empty text: none); a part without
    ``=`` or a name given twice is refused (:class:`PlayerSpecError` naming ``what``)."""
    out: list[tuple[str, str]] = []
    for part in filter(None, (p.strip() for p in text.split(PARAM_SEPARATOR))):
        name, eq, value = part.partition("=")
        if not eq or not name.strip():
            raise PlayerSpecError(f"{what}: expected NAME=VALUE, got {part!r}")
        out.append((name.strip(), value.strip()))
    names = [n for n, _ in out]
    if len(set(names)) != len(names):
        raise PlayerSpecError(f"{what}: a name is given twice in {text!r}")
    return out


def number(text: str, what: str) -> float:
    """``text`` as a finite number (:class:`PlayerSpecError` naming ``what``)."""
    try:
        value = float(text)
    except ValueError:
        raise PlayerSpecError(f"{what}: expected a number, got {text!r}") from None
    if not math.isfinite(value):
        raise PlayerSpecError(f"{what}: expected a finite number, got {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A player's description read: ``kind``; for the computer its ``level`` and the
    parameters ``params`` overrides (names of :data:`PLAYER_PARAMS`, in the order given).
    Built only valid: a bad combination raises :class:`PlayerSpecError`."""

    kind: PlayerKind
    level: Level | None = None
    params: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        problem = _problem(self.kind, self.level, self.params)
        if problem is not None:
            raise PlayerSpecError(f"player {str(self)!r}: {problem}")

    def __str__(self) -> str:
        """The description as written (``human``, ``ai:pro``, ``ai:pro,noise.aim=0.05``):
        :func:`parse_player` reads it back equal."""
        if self.level is None:
            return self.kind.value
        head = f"{self.kind.value}{KIND_SEPARATOR}{self.level.value}"
        return PARAM_SEPARATOR.join([head, *(f"{k}={v!r}" for k, v in self.params)])

    @property
    def is_computer(self) -> bool:
        return self.kind is PlayerKind.AI

    def strength(self) -> Strength:
        """The computer's :class:`Strength`: its level's, with the overrides applied."""
        if self.level is None:
            raise PlayerSpecError(f"player {str(self)!r}: a person has no strength")
        return _strength(self.level, self.params)


def _strength(level: Level, params: tuple[tuple[str, float], ...]) -> Strength:
    applied = _apply(STRENGTHS[level.value], params)
    if isinstance(applied, str):
        raise PlayerSpecError(applied)
    return applied


def _apply(strength: Strength, params: tuple[tuple[str, float], ...]) -> Strength | str:
    """``strength`` with the overrides applied, or what is wrong with one."""
    names = [name for name, _ in params]
    if len(set(names)) != len(names):
        return "a parameter is given twice"
    noise: dict[str, float] = {}
    for name, value in params:
        if name not in PLAYER_PARAMS:
            return f"unknown parameter {name!r} (expected one of {', '.join(PLAYER_PARAMS)})"
        if name.startswith("noise."):
            noise[name.removeprefix("noise.")] = value
            continue
        low, high = CONTINUATION_RANGE
        if not low <= value <= high:
            return f"continuation: expected [{low:g}, {high:g}], got {value:g}"
        strength = replace(strength, continuation=value)
    try:
        return replace(strength, noise=replace(strength.noise, **noise))
    except ValueError as exc:
        return str(exc)


def _problem(
    kind: PlayerKind, level: Level | None, params: tuple[tuple[str, float], ...]
) -> str | None:
    """What is wrong with a description's parts, or ``None``."""
    if kind is PlayerKind.HUMAN:
        return None if level is None and not params else "a person has no level or parameters"
    if level is None:
        return "the computer needs a level (ai:<level>)"
    applied = _apply(STRENGTHS[level.value], params)
    return applied if isinstance(applied, str) else None


def parse_player(text: str) -> PlayerSpec:
    """A player's description read (see the module docstring); :class:`PlayerSpecError`
    names the text and what is wrong with it."""
    if not isinstance(text, str):
        raise PlayerSpecError(f"player {text!r}: expected a description such as 'ai:pro'")
    head, _, rest = text.strip().partition(PARAM_SEPARATOR)
    kind_text, colon, level_text = head.strip().partition(KIND_SEPARATOR)
    kinds = {k.value: k for k in PlayerKind}
    kind = kinds.get(kind_text.strip())
    if kind is None:
        raise PlayerSpecError(
            f"player {text!r}: unknown kind {kind_text!r} (expected {expected_players()})",
            code="unknown_player",
            params={"text": text, "expected": expected_players()},
        )
    if kind is PlayerKind.HUMAN:
        if colon or rest.strip():
            raise PlayerSpecError(f"player {text!r}: a person has no level or parameters")
        return PlayerSpec(kind)
    try:
        level = Level(level_text.strip())
    except ValueError:
        levels = ", ".join(level.value for level in Level)
        raise PlayerSpecError(
            f"player {text!r}: unknown level {level_text.strip()!r} (expected {levels})",
            code="unknown_level",
            params={"text": text, "level": level_text.strip(), "levels": levels},
        ) from None
    what = f"player {text!r}"
    params = tuple(
        (name, number(value, f"{what}: {name}")) for name, value in assignments(rest, what)
    )
    problem = _problem(kind, level, params)
    if problem is not None:
        raise PlayerSpecError(f"{what}: {problem}")
    return PlayerSpec(kind, level, params)


def expected_players() -> str:
    """The descriptions a player may have, for a message: ``human, ai:novice, …``."""
    return ", ".join([HUMAN, *(f"ai{KIND_SEPARATOR}{level.value}" for level in Level)])


def ai_entrant(level: Level) -> str:
    """The record's description of the computer at ``level``, e.g. ``"ai:amateur"``."""
    return str(PlayerSpec(PlayerKind.AI, level))


def ai_level(entrant: str | None) -> Level | None:
    """The level of a computer entrant (a record's ``entrants`` value), ``None`` for a
    person or a description that names no computer."""
    if entrant is None:
        return None
    try:
        return parse_player(entrant).level
    except PlayerSpecError:
        return None


def grammar_json() -> dict[str, Any]:
    """The grammar as data, for an interface that reads descriptions itself (the web page):
    the kinds, the separators, the levels in order and the parameters an AI may override."""
    return {
        "human": PlayerKind.HUMAN.value,
        "ai": PlayerKind.AI.value,
        "kind_separator": KIND_SEPARATOR,
        "param_separator": PARAM_SEPARATOR,
        "levels": [level.value for level in Level],
        "params": list(PLAYER_PARAMS),
    }
