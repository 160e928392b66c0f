"""Statistics from game records: visits, breaks, fouls, kinds of score, the histogram."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from game_support import ANY, IN_D, P1, P2, R, Step, W, Y, game_at, hit, pocket
from onered.game import Action
from onered.game.record import iter_lines
from onered.game.session import Session
from onered.game.stats import BREAK_BINS, StatsError, break_histogram_svg, read_games, report
from onered.rules import Match, Option

MID = {W: (0.5, 1.2), Y: (1.2, 2.0), R: (1.0, 2.6)}


def scripted_record() -> list[str]:
    """Ivanov: red pot 3, cannon 2, a miss (foul); Petrov as they lie: an in-off 3, then
    from hand nothing; Ivanov: red pot 3 to win at 18."""
    steps = [
        Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None}),
        Step((hit(0.3, "white", "yellow"), hit(0.8, "white", "red")), {"white": (0.6, 1.9)}),
        Step((), {"white": (0.7, 2.9)}),
        Step((hit(0.5, "yellow", "red"), pocket(1.0, "yellow", "middle_right")), {"yellow": None}),
        Step((hit(0.5, "yellow", "red"),), {"yellow": (1.3, 1.4)}),
        Step((hit(0.5, "white", "red"), pocket(1.2, "red")), {"red": None}),
    ]
    game = game_at(MID, *steps, score=(10, 0), target=18)
    game.play(Action(ANY))
    game.play(Action(ANY))
    game.play(Action(ANY))
    game.choose(Option.AS_THEY_LIE)
    game.play(Action(ANY))
    game.play(Action(ANY, placed=IN_D))
    game.play(Action(ANY))
    assert game.winner == P1
    return list(
        iter_lines(
            game.match,
            game.entries,
            physics={},
            opening=game.opening,
            entrants={P1: "ai:pro", P2: "ai:amateur"},
        )
    )


def test_visits_breaks_fouls_and_shares_are_read_from_the_verdicts() -> None:
    stats = read_games([("game", scripted_record())])
    assert stats.games == 1
    assert stats.finished == 1
    ivanov, petrov = stats.players[P1], stats.players[P2]
    assert ivanov.wins == 1
    assert petrov.wins == 0
    assert ivanov.breaks == (5, 3)
    assert petrov.breaks == (3,)
    assert ivanov.visits == 2
    assert ivanov.points == 8
    assert ivanov.points_per_visit == 4.0
    assert ivanov.highest_break == 5
    assert ivanov.average_break == 4.0
    assert dict(ivanov.fouls) == {"miss": 1}
    assert ivanov.fouls_per_game == 1.0
    assert petrov.penalties_received == 2
    assert ivanov.share("pot") == pytest.approx(6 / 8)
    assert ivanov.share("cannon") == 0.25
    assert petrov.share("in_off") == 1.0
    assert ivanov.distribution()[1] == 2  # both breaks in 1-9
    data = ivanov.to_json()
    assert data["players"] == ["ai:pro"]
    assert data["break_distribution"]["1-9"] == 2
    assert "points per visit    4.00" in report(stats)


def test_several_records_add_up_and_centuries_are_counted() -> None:
    lines = scripted_record()
    century = [json.loads(line) for line in lines]
    century[2]["verdict"]["break"] = 104  # pretend the cannon took the break past 100
    century[2]["verdict"]["visit_over"] = True
    edited = [json.dumps(obj) for obj in century]
    stats = read_games([("a", lines), ("b", edited)])
    assert stats.games == 2
    assert stats.players[P1].games == 2
    assert stats.players[P1].breaks_at_least(100) == 1
    assert stats.players[P1].century_games == 1


def test_the_histogram_is_an_svg_with_a_bar_per_class_and_player() -> None:
    stats = read_games([("game", scripted_record())])
    root = ET.fromstring(break_histogram_svg(stats))
    assert root.tag.endswith("svg")
    bars = [e for e in root.iter() if e.tag.endswith("rect") and e.find("{*}title") is not None]
    assert len(bars) == 2 * len(BREAK_BINS)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{"], "g: line 1: not valid JSON"),
        (['{"type": "stroke"}'], "g: line 1: the first line must be the match line"),
        (['{"type": "stroke", "verdict": {}}'], "g: line 1: a record starts with its match line"),
        (
            [
                '{"type": "match", "players": ["a", "b"], "target": 9, "record": 2}',
                '{"type": "stroke"}',
            ],
            "g: line 2: verdict: missing",
        ),
        # the header is read by the protocol's one reader of a match line
        (
            ['{"type": "match", "players": ["a", "a"], "target": 9, "record": 2}'],
            "g: line 1: players: the two names must differ",
        ),
        (
            ['{"type": "match", "players": ["a", "b"], "record": 2}'],
            "g: line 1: target: expected an integer of at least 1",
        ),
        (
            ['{"type": "match", "players": ["a", "b"], "target": 10}', '{"type": "strok"}'],
            "g: line 2: type: unknown line type",
        ),
    ],
)
def test_unreadable_records_are_named(lines: list[str], message: str) -> None:
    with pytest.raises(StatsError, match=message):
        read_games([("g", lines)])


def _marked_game() -> Session:
    game = Session.new(Match(target=20, players=(P1, P2)))
    for line in (
        {"type": "stroke", "first_hit": "red", "potted": ["red"]},
        {"type": "stroke", "first_hit": "red"},
        {"type": "stroke", "first_hit": "red", "fouls": ["push"]},
        {"type": "choice", "option": "as_they_lie"},
        {"type": "stroke", "first_hit": "red", "potted": ["red"]},
    ):
        game.append(line)
    return game


def test_an_exported_marked_game_is_read_as_its_record_is(tmp_path: Path) -> None:
    from onered.cli import main

    game = _marked_game()
    exported, record = game.export_protocol(), game.export_record()
    assert "verdict" not in exported  # the web's export: the referee's lines only
    from_export = read_games([("export", exported.splitlines())])
    from_record = read_games([("record", record.splitlines())])
    assert from_export == from_record
    assert from_export.players[P1].points == 6
    assert from_export.players[P1].penalties_received == 2
    path = tmp_path / "export.jsonl"
    path.write_text(exported, encoding="utf-8")
    assert main(["stats", str(path), "--json"]) == 0
