"""The one set of strict readers of JSON fields — the protocols', the game records', the
coach's positions': each names the field it reads and says what is wrong, so bad input gets a
clear error instead of a traceback. A reader raises :class:`ProtocolError` unless its caller
names its own error family (``error=RecordError``), so each interface keeps its error while
the reading and the wording live here once.

JSON is read and written with orjson: it is several times faster than the standard library
(the protocols spend most of their time outside the engine in JSON), it refuses NaN and
Infinity, which JSON does not have, it refuses numbers too large for a double instead of
making them infinite (or, for a 4,300-digit integer, raising), it stops at a nesting depth
of 1,024 instead of exhausting Python's stack, and it checks UTF-8 itself. Integers
beyond the 64-bit range are read as floats.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

import orjson

from onered.errors import OneredError
from onered.rules.model import Ball, RulesError


class ProtocolError(OneredError, ValueError):
    """A line or document that breaks its protocol: not JSON, a wrong type or value."""

    default_code = "protocol"


#: The non-JSON number tokens some encoders write; named in the error when found.
_CONSTANTS = ("NaN", "Infinity", "-Infinity")


def _utf8_error(data: bytes | str) -> str | None:
    """What is not UTF-8 in ``data``, or ``None`` when it all is."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at byte {exc.start + 1}"
    return None


def json_error(data: bytes | str, exc: orjson.JSONDecodeError) -> ProtocolError:
    """A clear :class:`ProtocolError` for JSON text that does not parse."""
    bad_utf8 = _utf8_error(data)
    if bad_utf8 is not None:
        return ProtocolError(bad_utf8)
    doc = exc.doc if isinstance(exc.doc, str) else ""
    start = exc.pos - 1 if exc.pos > 0 and doc[exc.pos - 1 : exc.pos] == "-" else exc.pos
    rest = doc[start : start + 9]
    for token in sorted(_CONSTANTS, key=len, reverse=True):
        if rest.startswith(token):
            return ProtocolError(f"not valid JSON: {token} is not a number JSON allows")
    if exc.msg.startswith("depth limit"):
        return ProtocolError("not valid JSON: nested too deeply (more than 1024 levels)")
    if exc.msg.startswith("failed to allocate"):  # orjson's word for deep, unclosed nesting
        return ProtocolError(f"not valid JSON: unexpected end of data at column {exc.colno}")
    if exc.msg.startswith("number is infinity"):
        return ProtocolError(
            f"not valid JSON: a number too large for a double at column {exc.colno}"
        )
    return ProtocolError(f"not valid JSON: {exc.msg} at column {exc.colno}")


def loads_object(text: str | bytes) -> dict[str, object]:
    """Parse one JSON object (text or UTF-8 bytes); NaN and Infinity tokens, numbers too
    large for a double, nesting deeper than 1,024 levels and bytes that are not UTF-8 are
    refused with a :class:`ProtocolError`."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise json_error(text, exc) from None
    if type(value) is not dict:
        raise ProtocolError(f"expected a JSON object, got {type_name(value)}")
    return value


def dumps_line(obj: object) -> bytes:
    """One value as a line of JSON (UTF-8, ending in a newline). Callers make sure every
    float is finite: orjson would write NaN as ``null``."""
    return orjson.dumps(obj, option=orjson.OPT_APPEND_NEWLINE)


def type_name(value: object) -> str:
    """The JSON name of a value's type, for error messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def show(value: object) -> str:
    """A short JSON rendering of a value for an error message (its type's name when it
    is nested too deeply to write)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (RecursionError, ValueError):  # too deep, or an int of more than 4,300 digits
        return type_name(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: An error family a reader raises: built from the message alone.
ErrorType = type[OneredError]


def field(obj: Mapping[str, Any], key: str, where: str, *, error: ErrorType = ProtocolError) -> Any:
    """``obj[key]``, which must be present (``where`` names ``obj`` in the error)."""
    if key not in obj:
        raise error(f"{where}: missing field {key!r}")
    return obj[key]


def json_object(value: object, where: str, *, error: ErrorType = ProtocolError) -> dict[str, Any]:
    """A JSON object."""
    if type(value) is not dict:
        raise error(f"{where}: expected an object, got {type_name(value)}")
    return value


def get_bool(
    obj: Mapping[str, object], key: str, default: bool, *, error: ErrorType = ProtocolError
) -> bool:
    """An optional ``true`` or ``false`` (``default`` when absent)."""
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise error(f"{key}: expected true or false, got {show(value)}")
    return value


def number(value: object, where: str, *, error: ErrorType = ProtocolError) -> float:
    """A finite JSON number (booleans are not numbers)."""
    if type(value) is float and value - value == 0.0:  # the common case: finite
        return value
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise error(f"{where}: expected a number, got {show(value)}")
    try:
        result = float(value)
    except OverflowError:  # a Python int beyond the doubles (not from orjson, which refuses)
        raise error(f"{where}: the number is too large for a double") from None
    if not math.isfinite(result):
        raise error(f"{where}: the number must be finite, got {show(value)}")
    return result


def integer(
    value: object,
    where: str,
    low: int | None = None,
    high: int | None = None,
    *,
    error: ErrorType = ProtocolError,
) -> int:
    """A JSON integer within ``[low, high]`` (either bound may be open)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{where}: expected an integer, got {show(value)}")
    if low is not None and value < low:
        raise error(f"{where}: expected an integer of at least {low}, got {show(value)}")
    if high is not None and value > high:
        raise error(f"{where}: expected at most {high}, got {value}")
    return value


def point(value: object, where: str, *, error: ErrorType = ProtocolError) -> tuple[float, float]:
    """A point ``[x, y]`` of two finite numbers."""
    if type(value) is list and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float and x - x == 0.0 and y - y == 0.0:
            return (x, y)  # the common case, without building the fields' names
        return (number(x, f"{where}[0]", error=error), number(y, f"{where}[1]", error=error))
    raise error(f"{where}: expected [x, y], got {show(value)}")


def ball(value: object, where: str, *, error: ErrorType = ProtocolError) -> Ball:
    """A ball's name (``"white"``, ``"yellow"``, ``"red"``): the rules' one reader,
    :meth:`~onered.rules.Ball.named`, its refusal said in the caller's error family."""
    if not isinstance(value, str):
        raise error(f"{where}: expected a ball's name (white, yellow, red), got {show(value)}")
    try:
        return Ball.named(value, where)
    except RulesError as exc:
        raise error(exc.message) from None


def point_json(p: tuple[float, float]) -> list[float]:
    """A point as ``[x, y]`` of floats: the form :func:`point` reads back (floats, so the
    text is the same whatever numbers built the point)."""
    return [float(p[0]), float(p[1])]


def string_list(
    obj: Mapping[str, object], key: str, *, error: ErrorType = ProtocolError
) -> list[str]:
    """An optional array of strings (default empty)."""
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise error(f"{key}: expected an array of names, got {show(value)}")
    return list(value)
