"""The web app of onered: play Snooker-1-Red in a browser and mark real matches.

Layers, each importing only the ones above it:

- ``onered.web.record`` — a game as its referee-protocol lines, replayed through
  ``onered.rules``: state, verdicts, score progression, breaks, export and import.
- ``onered.web.marking`` — the marker's taps (cannon, pot red, in-off …) as a ``stroke`` line.
- ``onered.web.store`` — the SQLite store of games, line by line (standard library only).
- ``onered.web.i18n`` — the page's labels in Russian and English.
- ``onered.web.play`` — play mode: a stroke on the simulated table, and the AI's turn.
- ``onered.web.app`` — the FastAPI application and its static front end (needs the ``web``
  extra: ``pip install 'onered[web]'``).

Nothing is imported here, so ``import onered.web`` works without the extra.
"""
