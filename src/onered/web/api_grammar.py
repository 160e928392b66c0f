"""The grammar of a player's description (``human``, ``ai:<level>[,name=value...]``) for
the pages: ``onered.players.spec`` is its one reader, and the page reads entrants with the
levels and parameters it is given here instead of a copy of its own."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from onered.players.spec import grammar_json

router = APIRouter()


@router.get("/api/player-spec")
def player_spec() -> dict[str, Any]:
    """The kinds, separators, levels and parameters of a player's description."""
    return grammar_json()
