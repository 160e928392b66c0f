"""onered: Snooker-1-Red (English billiards with three snooker balls).

Subpackages, with dependencies pointing one way:

- ``onered.rules`` — the referee: pure, standard library only.
- ``onered.table`` — the geometry of a 12 ft table, shared by physics and referee.
- ``onered.physics`` — the event-based table simulation (knows nothing of the rules).
- ``onered.protocol`` — the JSON protocols (``docs/referee-protocol.md``,
  ``docs/shot-protocol.md``).
- ``onered.cli`` — the ``onered`` command.
"""

__version__ = "0.1.0"
