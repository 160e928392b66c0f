"""Strict readers of JSON values shared by the protocols: each names the field it reads and
says what is wrong, so bad input gets a clear error instead of a traceback."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import NoReturn


class ProtocolError(ValueError):
    """A line or document that breaks its protocol: not JSON, a wrong type or value."""


def _reject_constant(token: str) -> NoReturn:
    raise ProtocolError(f"not valid JSON: {token} is not a number JSON allows")


def loads_object(text: str) -> dict[str, object]:
    """Parse one JSON object; NaN and Infinity tokens are refused."""
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not valid JSON: {exc.msg} at column {exc.colno}") from None
    except RecursionError:
        raise ProtocolError("not valid JSON: nested too deeply") from None
    if not isinstance(value, dict):
        raise ProtocolError(f"expected a JSON object, got {type_name(value)}")
    return value


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
    """A short JSON rendering of a value for an error message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def get_bool(obj: Mapping[str, object], key: str, default: bool) -> bool:
    value = obj.get(key, default)
    if not isinstance(value, bool):
        raise ProtocolError(f"{key}: expected true or false, got {show(value)}")
    return value


def number(value: object, where: str) -> float:
    """A finite JSON number (booleans are not numbers)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ProtocolError(f"{where}: expected a number, got {show(value)}")
    result = float(value)
    if not math.isfinite(result):
        raise ProtocolError(f"{where}: the number must be finite, got {show(value)}")
    return result


def point(value: object, where: str) -> tuple[float, float]:
    """A point ``[x, y]`` of two finite numbers."""
    if not isinstance(value, list) or len(value) != 2:
        raise ProtocolError(f"{where}: expected [x, y], got {show(value)}")
    return (number(value[0], f"{where}[0]"), number(value[1], f"{where}[1]"))


def string_list(obj: Mapping[str, object], key: str) -> list[str]:
    """An optional array of strings (default empty)."""
    value = obj.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProtocolError(f"{key}: expected an array of names, got {show(value)}")
    return list(value)
