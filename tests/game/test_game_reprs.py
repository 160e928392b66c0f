"""Short reprs and notebook pictures: a game, a position, a stroke and a shot show as a line
(the position's line where there is one) and draw as SVG (``_repr_svg_``, which Jupyter
shows)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from onered.game import Game, PhysicsSimulator
from onered.game.model import Action
from onered.physics import Strike
from onered.rules import Match, position


@pytest.fixture(scope="module")
def game() -> Game:
    game = Game(Match(target=10, players=("Ann", "Bob")), PhysicsSimulator())
    game.play(Action(Strike(speed=3.0, aim=91.0), placed=(0.95, 0.7)))
    return game


def _svg(text: str) -> ET.Element:
    root = ET.fromstring(text.split("?>", 1)[1])
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def test_reprs_are_one_short_line(game: Game) -> None:
    stroke = game.entries[0]
    line = position.write(game.state)
    assert repr(game.position) == f"Position({line!r})"
    assert repr(game) == f"Game(1 entries, Position({line!r}))"
    assert repr(stroke).startswith("StrokeRecord(1, 'Ann' with the white: ")
    shot = repr(stroke.result)  # type: ignore[union-attr]
    assert shot.startswith("ShotResult(")
    assert " events, rest {white: " in shot
    for shown in (repr(stroke), shot):
        assert "\n" not in shown
        assert len(shown) < 200


def test_positions_strokes_and_games_draw_as_svg(game: Game) -> None:
    stroke = game.entries[0]
    drawn = _svg(stroke._repr_svg_())  # type: ignore[union-attr]
    assert drawn.findall(".//{http://www.w3.org/2000/svg}path[@class='path']")
    assert "stroke 1: Ann (white)" in stroke._repr_svg_()  # type: ignore[union-attr]
    assert game._repr_svg_() == stroke._repr_svg_()  # type: ignore[union-attr]
    table = game.position._repr_svg_()
    _svg(table)
    assert "Ann 0 : 0 Bob" in table
    fresh = Game(Match(target=10, players=("Ann", "Bob")), PhysicsSimulator())
    assert fresh._repr_svg_() == fresh.position._repr_svg_()
