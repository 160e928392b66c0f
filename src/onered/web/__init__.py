"""The web app of onered: play Snooker-1-Red in a browser and mark real matches.

The rules and a game's life are the game core's (``onered.game.session``, ``.record``,
``.summary``, ``.validate``, ``.marking``, ``.pad``, ``.turns``, ``.series``, ``.shots``); the
web is routers and pydantic models over it, and a route only translates HTTP:

- ``onered.web.app`` — ``create_app``: assembles the store, the error handlers, the
  middleware and the routers (needs the ``web`` extra: ``pip install 'onered[web]'``).
- ``onered.web.pages`` — the HTML pages (one layout filled with each page's part);
  ``onered.web.api_games`` — reading, creating, importing; ``onered.web.api_play`` —
  changing a game; ``onered.web.api_live`` — a game's changes pushed as server-sent events;
  the features' routers (``api_club``, ``api_matches``, ``api_find``, ``api_players``,
  ``coach``).
- ``onered.web.games`` — each game's session kept per revision; views and changes.
- ``onered.web.view`` — what the pages get about a game; ``onered.web.models`` — the
  request bodies; ``onered.web.errors`` — every ``onered.errors.OneredError`` mapped to
  HTTP in one handler (``{"error", "message", "code", "params"}``).
- ``onered.web.store`` — the SQLite store of games, line by line (standard library only).
- ``onered.web.i18n`` — the pages' labels in Russian and English.
- ``onered.web.play`` — a shot's animation (the simulator's own trajectories).

Nothing is imported here, so ``import onered.web`` works without the extra.
"""
