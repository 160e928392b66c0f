"""The error root: every exception class onered defines derives from ``OneredError`` and
carries a code, an English message and params, unchanged through pickling."""

from __future__ import annotations

import importlib
import inspect
import pickle
import pkgutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import onered
from onered.errors import OneredError
from onered.game.record import RecordError
from onered.game.session import SessionError
from onered.game.validate import ValidationError
from onered.study.runner import StudyInterruptedError
from onered.texts import ru
from onered.web.errors import ApiError
from onered.web.match_store import MatchConflictError
from onered.web.store import ConflictError

#: Modules that do something when imported (the ``python -m onered`` entry).
_NOT_IMPORTED = {"onered.__main__"}
#: Exceptions that are signals, not errors (like ``KeyboardInterrupt``): never shown as one.
#: Internal signals are the same: a group commit's lone write that raised (its writer gets the
#: write's own error) and a tournament's lost race (retried, never shown).
_SIGNALS = {
    "onered.cli.human.Quit",
    "onered.web.commits._OwnError",
    "onered.web.tournaments._LostRaceError",
}


def _exception_classes() -> list[type[BaseException]]:
    """Every exception class defined in a module of onered."""
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(onered.__path__, "onered."):
        if info.name in _NOT_IMPORTED:
            continue
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            name = f"{value.__module__}.{value.__qualname__}"
            if (
                issubclass(value, BaseException)
                and value.__module__ == module.__name__
                and name not in _SIGNALS
            ):
                found.append(value)
    return found


CLASSES = _exception_classes()


def test_the_walk_finds_the_families() -> None:
    names = {cls.__name__ for cls in CLASSES}
    for expected in ("RulesError", "PhysicsInputError", "SessionError", "ApiError", "StudyError"):
        assert expected in names


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_exception_derives_from_the_root(cls: type[BaseException]) -> None:
    assert issubclass(cls, OneredError)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_family_has_its_own_code(cls: type[BaseException]) -> None:
    if not issubclass(cls, OneredError):
        pytest.fail(f"{cls.__qualname__} is not an OneredError")
    assert cls.default_code.isidentifier()
    parents = [base for base in cls.__mro__[1:] if issubclass(base, OneredError)]
    assert "default_code" in vars(cls), f"{cls.__qualname__} names no code of its own"
    assert all(cls.default_code != base.default_code for base in parents)


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_family_has_words(cls: type[BaseException]) -> None:
    """``error.<code>`` of every family's code exists (both languages: tests/texts/test_texts.py):
    the CLI and the pages say it in their language."""
    if issubclass(cls, OneredError):
        assert f"error.{cls.default_code}" in ru.WORDS


def _message_only(cls: type[OneredError]) -> bool:
    """Whether the class takes the root's constructor (a message) as it is."""
    return cls.__init__ is OneredError.__init__


@pytest.mark.parametrize(
    "cls",
    [cls for cls in CLASSES if issubclass(cls, OneredError) and _message_only(cls)],
    ids=lambda cls: cls.__qualname__,
)
def test_a_message_keeps_its_constructor(cls: type[OneredError]) -> None:
    """Callers pass a message, as before the root: it is ``str(error)`` and ``message``,
    with the family's code and no params (a record's error gives its words ``detail``)."""
    error = cls("a message")
    assert str(error) == error.message == "a message"
    assert error.code == cls.default_code
    assert error.params in ({}, {"detail": "a message"})
    assert isinstance(pickle.loads(pickle.dumps(error)), cls)


def _families() -> list[OneredError]:
    return [
        SessionError("no_undo", "nothing to take back", {"seq": 3}),
        ValidationError("names", "names_same", "the two names must differ", {"name": "Ann"}),
        RecordError("expected an object", line=4, code="bad_line"),
        ConflictError(5, 7),
        MatchConflictError(1, 2),
        StudyInterruptedError(Path("out"), 3, 9),
        ApiError(404, "game 'x': no such game", "no_game", {"id": "x"}),
    ]


@pytest.mark.parametrize("error", _families(), ids=lambda e: type(e).__name__)
def test_families_with_their_own_constructors(error: OneredError) -> None:
    assert error.code.isidentifier()
    assert error.message
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert (str(again), again.code, again.message, again.params) == (
        str(error),
        error.code,
        error.message,
        error.params,
    )


def test_params_where_the_message_is_built_from_values() -> None:
    assert ConflictError(5, 7).params == {"expected": 5, "found": 7}
    assert MatchConflictError(1, 2).params == {"expected": 1, "found": 2}
    assert StudyInterruptedError(Path("out"), 3, 9).params == {
        "folder": "out",
        "done": 3,
        "total": 9,
    }
    record = RecordError("not JSON", line=2, code="not_json")
    assert str(record) == "line 2: not JSON"
    assert (record.message, record.params["line"]) == ("not JSON", 2)


_VALUES = st.one_of(st.integers(), st.text(max_size=20), st.none(), st.floats(allow_nan=False))


@given(
    message=st.text(max_size=40),
    code=st.none() | st.from_regex(r"[a-z_]{1,12}", fullmatch=True),
    params=st.dictionaries(st.text(max_size=8), _VALUES, max_size=4),
)
def test_root_round_trips(message: str, code: str | None, params: dict[str, object]) -> None:
    error = OneredError(message, code=code, params=params)
    assert error.code == (code if code is not None else "error")
    assert (error.message, error.params, str(error)) == (message, params, message)
    again = pickle.loads(pickle.dumps(error))
    assert (again.message, again.code, again.params, again.args) == (
        error.message,
        error.code,
        error.params,
        error.args,
    )
