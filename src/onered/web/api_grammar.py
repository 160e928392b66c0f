"""The grammar of a player's description (``human``, ``ai:<level>[,name=value...]``) for
the pages: ``onered.players.spec`` is its one reader, and the pages read entrants with the
levels and parameters they are given here, and the home page offers these levels, instead
of a copy of their own."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from onered.players.spec import grammar_json
from onered.players.strength import Level
from onered.web.models import NewGame

router = APIRouter()


@router.get("/api/player-spec")
def player_spec() -> dict[str, Any]:
    """The kinds, separators, levels and parameters of a player's description, and the
    level a new game against the computer gets when none is asked for (``default_level``:
    the home page's choice to start with)."""
    default = NewGame.model_fields["strength"].default
    return {**grammar_json(), "default_level": Level(default).value}
