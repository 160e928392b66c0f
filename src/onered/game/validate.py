"""What a game may be started with: players' names, the target, the simulated table.

One place for the checks that creating a game and importing one share (the web, the CLI,
records read back): a name is at most :data:`MAX_NAME` printable characters, with no
control, format (invisible), separator-line, private-use or surrogate character and no
zero-width character; the target is a whole number from 1 (the rules' floor, 2.1) to
:data:`MAX_TARGET` (ours: a game to a million points is a typo, not a game); the table's
settings lie within ``onered.physics.params.PARAM_RANGES`` and
``onered.physics.geometry.TABLE_RANGES`` (checked by the engine's own dataclasses).

Each failure is a :class:`ValidationError` with a ``code`` and ``params`` an interface can
put into words (``onered.web.i18n`` has ``error.<code>``) and an English message.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from onered.errors import OneredError

#: Longest name accepted, in characters.
MAX_NAME = 40
#: Highest target accepted.
MAX_TARGET = 100_000
#: Unicode categories never allowed in a name: control, format (most invisible characters),
#: line and paragraph separators, private use, surrogates.
BANNED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs"})
#: Invisible characters of other categories (zero-width and fillers).
ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff\u180e\u3164\uffa0\u115f\u1160\u034f")


class ValidationError(OneredError, ValueError):
    """A value a game cannot start with: ``where`` names the input, ``code`` the kind of
    fault (``name_empty``, ``name_long``, ``name_chars``, ``names_same``, ``target``,
    ``physics``), ``params`` the values its message uses."""

    default_code = "invalid_value"

    def __init__(
        self, where: str, code: str, message: str, params: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.code = code
        self.message = message
        self.params = dict(params or {})


def _bad_char(c: str) -> bool:
    return unicodedata.category(c) in BANNED_CATEGORIES or c in ZERO_WIDTH


def name(raw: object, where: str) -> str:
    """A player's name, its runs of white space made one space; refused when empty, longer
    than :data:`MAX_NAME`, or holding a control or invisible character."""
    if not isinstance(raw, str):
        raise ValidationError(where, "name_chars", "a name must be text", {"where": where})
    bad = next((c for c in raw if _bad_char(c)), None)
    if bad is not None:
        point = f"U+{ord(bad):04X}"
        raise ValidationError(
            where,
            "name_chars",
            f"control or invisible characters are not allowed (found {point})",
            {"where": where, "char": point},
        )
    clean = " ".join(raw.split())
    if not clean:
        raise ValidationError(where, "name_empty", "a name must not be empty", {"where": where})
    if len(clean) > MAX_NAME:
        raise ValidationError(
            where,
            "name_long",
            f"a name has at most {MAX_NAME} characters, got {len(clean)}",
            {"where": where, "max": MAX_NAME, "got": len(clean)},
        )
    return clean


def names(raw: Sequence[object], where: str = "players") -> tuple[str, str]:
    """The two players' names, checked, and different."""
    if len(raw) != 2:
        raise ValidationError(where, "name_empty", "expected two names", {"where": where})
    a, b = (name(n, f"{where}[{i}]") for i, n in enumerate(raw))
    if a.casefold() == b.casefold():
        raise ValidationError(
            where,
            "names_same",
            f"the two names must differ, got {a!r} twice",
            {"where": where, "name": a},
        )
    return a, b


def target(raw: object, where: str = "target") -> int:
    """The points that win the game: a whole number from 1 to :data:`MAX_TARGET`."""
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= MAX_TARGET:
        shown = raw if isinstance(raw, int | float) and len(repr(raw)) < 30 else "?"
        raise ValidationError(
            where,
            "target",
            f"must be a whole number from 1 to {MAX_TARGET}, got {shown}",
            {"where": where, "max": MAX_TARGET, "got": shown},
        )
    return raw


def physics(raw: Mapping[str, Any], where: str = "physics") -> None:
    """The simulated table a record describes: every parameter within the engine's ranges
    (``PARAM_RANGES``, ``TABLE_RANGES``)."""
    from onered.game.simulator import PhysicsSimulator

    try:
        PhysicsSimulator.from_description(raw)
    except ValueError as exc:
        raise ValidationError(
            where, "physics", str(exc), {"where": where, "detail": str(exc)}
        ) from None
