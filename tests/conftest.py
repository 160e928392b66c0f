"""Settings for every test: no hypothesis deadline (the suite must pass on a machine at
load 15, where a generated example may take seconds; a test asserts behaviour, never a
time).

The tests are laid out like ``src/onered`` (``tests/rules`` for ``onered.rules`` ...); the
helpers several areas share live in ``tests/support``, which pytest puts on the import path
(``pythonpath`` in pyproject.toml), so a test imports them by name
(``from referee_support import judge``)."""

from hypothesis import settings

settings.register_profile("onered", deadline=None)
settings.load_profile("onered")
