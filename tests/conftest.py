"""Settings for every test: no hypothesis deadline (the suite must pass on a machine at
load 15, where a generated example may take seconds; a test asserts behaviour, never a
time)."""

from hypothesis import settings

settings.register_profile("onered", deadline=None)
settings.load_profile("onered")
