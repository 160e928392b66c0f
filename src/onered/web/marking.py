"""The marker's taps, for the web's modules: defined in ``onered.game.marking`` (the core),
named here too so the pages' modules keep their imports."""

from onered.game.marking import CALLER_FOULS, Hit, Mark, MarkError, Part, Role, compose, striker_of

__all__ = ["CALLER_FOULS", "Hit", "Mark", "MarkError", "Part", "Role", "compose", "striker_of"]
