"""The root of every error onered raises on purpose: :class:`OneredError`.

Each error carries three things, so that every interface can say it in its own words:

- ``code``: a stable string naming the kind of fault (``"position"``, ``"no_undo"``,
  ``"bad_record"`` ...); an interface looks up ``error.<code>`` in :mod:`onered.texts`;
- ``message``: the English default text (what ``str(error)`` shows, give or take a prefix
  some families add, such as a record's ``line N:``);
- ``params``: the values a translation fills in (``{"line": 3, "max": 100}``); an interface
  always also has ``detail`` (the English message) to fall back on.

A family sets its default code with the class attribute ``default_code``; a raise site may
pass another (``SessionError``, ``ValidationError`` and ``RecordError`` do). Standard library
only, importing nothing from onered, so that every layer (``rules`` and ``physics`` too) may
derive from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class OneredError(Exception):
    """An error of onered's: a ``code``, an English ``message`` and ``params`` (see the
    module). Catch this to catch every refusal of bad input the project makes."""

    #: The code of errors of this class when the raise site names none.
    default_code: ClassVar[str] = "error"

    code: str
    message: str
    params: dict[str, object]

    def __init__(
        self,
        message: str = "",
        *,
        code: str | None = None,
        params: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code if code is not None else type(self).default_code
        self.params = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by state, not by constructor arguments: the families' constructors differ
        (``SessionError(code, message)``, ``ConflictError(expected, found)`` ...), and an
        error must cross a process pool unchanged."""
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


def _rebuild(
    cls: type[OneredError], args: tuple[object, ...], state: dict[str, Any]
) -> OneredError:
    """An unpickled error: ``cls`` with ``args`` and attributes ``state``, its constructor
    not called."""
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error
