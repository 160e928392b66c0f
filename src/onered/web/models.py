"""The JSON API's request bodies (pydantic): what each changing route accepts.

Pydantic checks shapes and simple bounds; what a game allows (names, targets, the table's
settings, the rules) is checked by the game core, the same for every interface.
"""

from __future__ import annotations

import json
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from onered.game import marking, record
from onered.physics.cue import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, MIN_ELEVATION
from onered.physics.types import Strike
from onered.players.strength import Level
from onered.rules import FoulCode, Option


class Body(BaseModel):
    """A request body: unknown fields are refused (a typo is an error, not a no-op)."""

    model_config = ConfigDict(extra="forbid")


class NewMode(Enum):
    """The modes a game can be created in (imports have their own endpoint)."""

    MARK = "mark"
    PLAY = "play"


class CueBall(Enum):
    WHITE = "white"
    YELLOW = "yellow"


class Opponent(Enum):
    """Who plays the second player in play mode."""

    HUMAN = "human"
    AI = "ai"


class NewGame(Body):
    """A new game: ``players[breaker]`` breaks (won the lag) with ``breaker_ball``. In play
    mode against the computer, ``players[1]`` is the computer's name. Names and the target
    are checked by ``onered.game.validate`` (as an import is)."""

    mode: NewMode = NewMode.MARK
    players: list[str] = Field(min_length=2, max_length=2)
    target: int = 100
    breaker: int = Field(default=0, ge=0, le=1)
    breaker_ball: CueBall = CueBall.WHITE
    opponent: Opponent = Opponent.HUMAN
    strength: Level = Level.AMATEUR


class AfterBody(Body):
    """``after``: the number of lines the client saw (a different number is a conflict, so
    a double tap cannot enter twice)."""

    after: int | None = Field(default=None, ge=1)


class LineBody(AfterBody):
    """A referee-protocol ``stroke`` or ``choice`` line, of at most the record format's
    ``MAX_LINE_CHARS`` characters as JSON (an import's lines have the same cap)."""

    line: dict[str, Any]

    @field_validator("line")
    @classmethod
    def _not_too_long(cls, line: dict[str, Any]) -> dict[str, Any]:
        size = len(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
        if size > record.MAX_LINE_CHARS:
            raise ValueError(
                f"the line is too long ({size} characters, at most {record.MAX_LINE_CHARS})"
            )
        return line


class MarkBody(AfterBody):
    """A stroke as the marker tapped it (see ``onered.game.marking``)."""

    parts: list[marking.Part] = Field(default_factory=list, max_length=8)
    fouls: list[FoulCode] = Field(default_factory=list, max_length=20)
    first_hit: marking.Hit | None = None
    crossed_baulk: bool = False
    touching: bool = False
    off_table: list[marking.Role] = Field(default_factory=list, max_length=3)
    struck: bool = True
    out_of_turn: bool = False

    def mark(self) -> marking.Mark:
        return marking.Mark(
            parts=frozenset(self.parts),
            fouls=frozenset(self.fouls),
            first_hit=self.first_hit,
            crossed_baulk=self.crossed_baulk,
            touching=self.touching,
            off_table=frozenset(self.off_table),
            struck=self.struck,
            out_of_turn=self.out_of_turn,
        )


class ClaimBody(AfterBody):
    """Fouls claimed on the last stroke before the next one (2.12.4)."""

    fouls: list[FoulCode] = Field(min_length=1, max_length=20)


class ChoiceBody(AfterBody):
    option: Option


class StrikeBody(Body):
    """A cue action (shot protocol): launch speed m/s, aim degrees counter-clockwise from
    +x, tip offset side/height in units of R, cue elevation degrees."""

    speed: float = Field(gt=0, le=MAX_SPEED)
    aim: float = Field(ge=-360, le=720)
    side: float = Field(default=0.0, ge=-MAX_TIP_OFFSET, le=MAX_TIP_OFFSET)
    height: float = Field(default=0.0, ge=-MAX_TIP_OFFSET, le=MAX_TIP_OFFSET)
    elevation: float = Field(default=0.0, ge=MIN_ELEVATION, le=MAX_ELEVATION)

    def strike(self) -> Strike:
        """The cue action (the body is a strike's JSON form, ``Strike.to_json``'s fields,
        checked by pydantic within the shot protocol's limits)."""
        return Strike(self.speed, self.aim, self.side, self.height, self.elevation)


class PlayBody(AfterBody):
    strike: StrikeBody
    placed: tuple[float, float] | None = None
