"""A study read from a spec file: the ``spec.json`` a study's folder holds, or one written
by hand (``onered study run FILE``).

A hand-written spec gives ``kind`` and the fields it changes; the others take the
defaults of the kind's spec (:class:`~onered.study.GamesSpec` ...), ``format`` may be left
out, and the folder's ``engine`` key is ignored (the folder checks it). Every fault is one
:class:`SpecFileError` naming the file and the field, never a traceback: a field the kind
does not have, a value of the wrong type, a value out of its range (the spec's own
checks, their flags read as the fields they set).
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from enum import Enum
from pathlib import Path
from typing import Any

from onered.study.spec import (
    _KINDS,
    FORMAT,
    Spec,
    StudyError,
    spec_from_json,
    to_json,
)
from onered.study.store import SPEC

#: Keys of a spec file that are no field of its kind's spec.
_META = ("kind", "format", "engine")
#: The flags of the spec's checks that do not read as their field.
_FIELDS = {"at": "fixed", "max-strokes": "max_strokes"}


class SpecFileError(StudyError):
    """A spec file that cannot be run: ``file`` and the ``reason`` (its field first)."""

    default_code = "study_spec"

    def __init__(self, file: Path, reason: str) -> None:
        self.file, self.reason = file, reason
        super().__init__(f"{file}: {reason}", params={"file": str(file), "reason": reason})


def spec_path(path: Path) -> Path:
    """The spec file of ``path``: itself, or a study folder's ``spec.json``."""
    return path / SPEC if path.is_dir() else path


def read_spec(path: str | Path) -> Spec:
    """The study of the spec file ``path`` (or of the study folder ``path``), checked."""
    file = spec_path(Path(path))
    if Path(path).is_dir() and not file.exists():
        raise SpecFileError(Path(path), f"holds no study (no {SPEC})")
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecFileError(file, f"cannot be read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise SpecFileError(file, "is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SpecFileError(
            file, f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}"
        ) from None
    if not isinstance(data, dict):
        raise SpecFileError(
            file, f"expected a JSON object of the study's fields, got {type(data).__name__}"
        )
    return spec_of(data, file)


def spec_of(data: dict[str, Any], file: Path) -> Spec:
    """The study of a spec file's JSON ``data`` (faults named with ``file``)."""
    kind = data.get("kind")
    if kind not in _KINDS:
        raise SpecFileError(file, f"kind: expected one of {', '.join(_KINDS)}, got {kind!r}")
    if data.get("format", FORMAT) != FORMAT:
        raise SpecFileError(
            file,
            f"format: {data['format']!r}, this onered reads format {FORMAT} (a folder of an "
            "older onered: run the study again in a new folder)",
        )
    spec_type = _KINDS[kind]
    names = [f.name for f in fields(spec_type)]
    for key in data:
        if key not in names and key not in _META:
            raise SpecFileError(
                file, f"{key}: not a field of a {kind} study (its fields: {', '.join(names)})"
            )
    full = to_json(spec_type())
    defaults = spec_type()
    for name in names:
        if name in data:
            full[name] = _checked(name, data[name], getattr(defaults, name), file)
    try:
        spec = spec_from_json(full)
        spec.check()
    except StudyError as exc:
        raise SpecFileError(file, _as_fields(str(exc))) from None
    except (TypeError, ValueError) as exc:  # a value its field cannot take
        raise SpecFileError(file, f"{exc}") from None
    return spec


def _checked(name: str, raw: Any, default: Any, file: Path) -> Any:
    """``raw`` as JSON of the type of ``default`` (a number for a number, a list of the
    same length for a point, a grid or a region ...); else :class:`SpecFileError`."""

    def wrong(expected: str) -> SpecFileError:
        return SpecFileError(file, f"{name}: expected {expected}, got {json.dumps(raw)}")

    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise wrong("true or false")
        return raw
    if isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise wrong("a whole number")
        return raw
    if isinstance(default, float):
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise wrong("a number")
        return float(raw)
    if isinstance(default, str):
        if not isinstance(raw, str):
            raise wrong("text")
        return raw
    if isinstance(default, Enum):
        choices = [m.value for m in type(default)]
        if raw not in choices:
            raise wrong(f"one of {', '.join(map(str, choices))}")
        return raw
    if name == "physics":
        pairs = isinstance(raw, list) and all(
            isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in raw
        )
        if not pairs:
            raise wrong('a list of [name, value] pairs, e.g. [["e_c", 0.85]]')
        return raw
    if name == "values":
        if not isinstance(raw, list) or not all(_number_or_name(v) for v in raw):
            raise wrong("a list of numbers (or of names, for the cushion model)")
        return raw
    if isinstance(default, tuple):  # a point, a grid, a region: numbers of a fixed count
        ints = all(isinstance(v, int) for v in default)
        size = len(default)
        kind = "whole numbers" if ints else "numbers"
        if not isinstance(raw, list) or len(raw) != size:
            raise wrong(f"a list of {size} {kind}")
        return [
            _checked(f"{name}[{i}]", v, d, file)
            for i, (v, d) in enumerate(zip(raw, default, strict=True))
        ]
    return raw


def _number_or_name(value: Any) -> bool:
    return isinstance(value, str) or (
        isinstance(value, int | float) and not isinstance(value, bool)
    )


def _as_fields(message: str) -> str:
    """A check's message with its flags read as fields: ``--max-strokes: ...`` is
    ``max_strokes: ...``, ``--at: ...`` is ``fixed: ...`` (in the part before the first
    ``: ``, where the check names its input)."""
    head, sep, rest = message.partition(": ")
    if not sep:
        return message

    def field(match: re.Match[str]) -> str:
        flag = match.group(1)
        return _FIELDS.get(flag, flag.replace("-", "_"))

    return re.sub(r"--([a-z][a-z0-9-]*)", field, head) + sep + rest
