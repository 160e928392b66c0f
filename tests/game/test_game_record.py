"""Whole games between AI players, their records, the replay and the referee."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from game_support import quick_ai, real_game_at
from onered.game import Game, PhysicsSimulator, StrokeRecord
from onered.game.record import RECORD_VERSION, RecordError, game_lines, read_record
from onered.game.replay import check_referee, replay
from onered.players import GameSettings, play_game
from onered.protocol.referee import run as referee_run
from onered.rules import Ball
from onered.table import on_surface

NAMES = ("Ivanov", "Petrov")


def play(seed: int, target: int = 30) -> tuple[Game, list[str]]:
    """A quick game between two seeded AI players, and its record's lines."""
    simulator = PhysicsSimulator()
    players = {NAMES[0]: quick_ai(seed), NAMES[1]: quick_ai(seed + 1)}
    game = play_game(players, GameSettings(target=target, names=NAMES), simulator)
    lines = game_lines(game, seed=seed, entrants={n: players[n].description for n in NAMES})
    return game, lines


@pytest.fixture(scope="module")
def played() -> tuple[Game, list[str]]:
    return play(11)


def test_a_full_game_between_ai_players_ends_with_a_winner(played: tuple[Game, list[str]]) -> None:
    game, lines = played
    assert game.over
    assert game.winner in NAMES
    assert max(game.state.score) >= 30
    assert game.lag is not None
    # the winner plays first or second as he chose (the AI by measured value)
    assert (game.lag.winner == game.match.players[0]) is game.lag.choice.play_first
    strokes = [e for e in game.entries if isinstance(e, StrokeRecord)]
    assert len(lines) == 1 + len(game.entries)
    assert strokes
    # every stroke starts where the previous stroke or choice left the balls
    after = None
    for entry in game.entries:
        if isinstance(entry, StrokeRecord) and after is not None:
            expected = dict(after)
            if entry.action.placed is not None:
                expected[entry.cue_ball] = entry.action.placed
            assert dict(entry.before) == expected
        after = entry.balls_after


def test_the_record_passes_the_referee_again_with_the_same_verdicts(
    played: tuple[Game, list[str]],
) -> None:
    _, lines = played
    out, err = io.StringIO(), io.StringIO()
    assert referee_run(lines, out, err) == 0, err.getvalue()
    verdicts = [json.loads(v) for v in out.getvalue().splitlines()]
    recorded = [json.loads(line) for line in lines]
    assert verdicts[0] == recorded[0]["opening"]
    assert verdicts[1:] == [r["verdict"] for r in recorded[1:]]
    assert verdicts[-1]["winner"] in NAMES
    assert check_referee(read_record(lines)) is None


def test_record_then_replay_is_bit_identical(played: tuple[Game, list[str]]) -> None:
    game, lines = played
    seen: list[StrokeRecord] = []
    report = replay(read_record(lines), on_stroke=seen.append)
    assert report.identical, (report.simulation, report.referee)
    assert report.winner == game.winner
    assert report.strokes == len(seen) == sum(isinstance(e, StrokeRecord) for e in game.entries)
    assert all(s.result.paths for s in seen)  # the replay has trajectories to draw


def test_the_same_seed_plays_the_same_game_and_another_seed_another() -> None:
    _, first = play(3, target=12)
    _, again = play(3, target=12)
    _, other = play(4, target=12)
    assert first == again
    assert first[1:] != other[1:]


def test_a_tampered_record_is_caught_at_its_line(played: tuple[Game, list[str]]) -> None:
    _, lines = played
    k = 2
    data = json.loads(lines[k])
    data["strike"]["aim"] += 0.5
    tampered = [*lines[:k], json.dumps(data, ensure_ascii=False), *lines[k + 1 :]]
    report = replay(read_record(tampered))
    assert not report.identical
    assert report.simulation is not None
    assert report.simulation.line == k + 1

    verdict_changed = json.loads(lines[k])
    verdict_changed["verdict"]["points"] += 1
    report = replay(read_record([*lines[:k], json.dumps(verdict_changed), *lines[k + 1 :]]))
    assert report.referee is not None
    assert report.referee.line == k + 1
    assert "points" in report.referee.what


def lines_of(*objs: object) -> Iterator[str]:
    return (json.dumps(o) for o in objs)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "line 1: empty record"),
        (["not json"], "line 1: not valid JSON"),
        (['{"type": "stroke"}'], "line 1: the first line of a record must be its match line"),
        (
            ['{"type": "match", "target": 100, "players": ["a", "b"]}'],
            "line 1: record: expected format version 2",
        ),
    ],
)
def test_unreadable_records_name_the_line(lines: list[str], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_record(lines)


def test_a_stroke_line_without_its_strike_names_the_field(played: tuple[Game, list[str]]) -> None:
    _, lines = played
    data = json.loads(lines[1])
    del data["strike"]
    with pytest.raises(RecordError, match="line 2: missing field 'strike'"):
        read_record([lines[0], json.dumps(data)])


def test_a_record_from_another_engine_is_named_as_such(played: tuple[Game, list[str]]) -> None:
    _, lines = played
    header = json.loads(lines[0])
    assert len(header["physics"]["fingerprint"]) == 16
    header["physics"]["fingerprint"] = "0123456789abcdef"
    report = replay(read_record([json.dumps(header), *lines[1:]]))
    assert report.simulation is not None
    assert report.simulation.line == 1
    assert "another version of the physics engine" in report.simulation.what
    assert report.referee is None  # the referee's verdicts do not depend on the engine


#: Positions the table left at rest in long AI games, each with a ball hanging over a
#: pocket's jaws (beyond the cushion lines, short of the fall). Before there was one
#: definition of "on the table", resuming from them failed: "the white at (1.7518, 3.5161)
#: is off the table", and a played game stopped there for good.
JAW_POSITIONS = [
    {  # the white in the top-right pocket's jaws (stroke 24 of a 150-stroke amateur game)
        Ball.WHITE: (1.751823146824025, 3.51605541988996),
        Ball.YELLOW: (1.425181134242751, 0.23121922749944235),
        Ball.RED: (1.6921557528214444, 3.5342900677351845),
    },
    {  # the red in the top-left pocket's jaws
        Ball.WHITE: (0.06094053665342433, 2.104278944115284),
        Ball.YELLOW: (0.9117352782979968, 3.3592178862672126),
        Ball.RED: (0.017433873109414355, 3.5373384143184334),
    },
    {  # the white in the bottom-left pocket's jaws
        Ball.WHITE: (0.020946637027962074, 0.03416415745026629),
        Ball.YELLOW: (0.33810497437915216, 1.4224288965721223),
        Ball.RED: (0.39677910397054916, 0.15538468664818433),
    },
]


@pytest.mark.parametrize("balls", JAW_POSITIONS)
@pytest.mark.parametrize("to_play", [0, 1])
def test_a_game_resumes_and_plays_on_from_a_ball_resting_in_a_pockets_jaws(
    balls: dict[Ball, tuple[float, float]], to_play: int
) -> None:
    assert any(not on_surface(p) for p in balls.values())  # the old rectangle refused it
    game = real_game_at(balls, to_play=to_play)
    assert game.balls == balls
    players = {NAMES[0]: quick_ai(1), NAMES[1]: quick_ai(2)}
    for _ in range(4):
        if game.over:
            break
        player = players[game.to_play]
        if game.state.choice_pending:
            game.choose(player.choose(game.option_positions()))
        entry = game.play(player.decide(game.position))
        assert entry.verdict.stroke >= 11  # the game advanced from the resumed stroke 10


# --- records from older versions and other engines -----------------------------------------

DATA = Path(__file__).parent / "data"
#: A played game, unfinished, written by record version 1 (the first line is always a match
#: line; version 2 only adds the position first line).
V1 = DATA / "record-v1.jsonl"
#: The same game as if simulated by another physics engine (another fingerprint).
OTHER_ENGINE = DATA / "record-other-engine.jsonl"


@pytest.mark.parametrize("path", [V1, OTHER_ENGINE], ids=["version-1", "other-engine"])
def test_an_old_or_foreign_record_is_readable_exportable_and_continuable(path: Path) -> None:
    from onered.game.session import Session
    from onered.players.turn import ai_turn
    from onered.protocol.referee import verdict_json

    text = path.read_text(encoding="utf-8")
    game = Session.from_text(text)
    recorded = [json.loads(line) for line in text.splitlines()]
    judged = [verdict_json(e.verdict, game.players) for e in game.entries]
    assert judged[1:] == [r["verdict"] for r in recorded[1:]]  # what was played is kept
    exported = game.export_record()
    assert json.loads(exported.splitlines()[0])["record"] == RECORD_VERSION
    again = Session.from_text(exported)
    assert again.state == game.state
    assert again.playable  # it goes on on the simulated table
    turn = ai_turn(again, seed=1)
    assert turn.line["type"] in ("stroke", "choice")
    assert len(again) == len(game) + 1


def test_replay_says_only_the_bit_exact_check_needs_the_recording_engine(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from onered.cli import main

    assert main(["replay", str(OTHER_ENGINE)]) == 1
    out = capsys.readouterr().out
    assert "another version of the physics engine (0123456789ab" in out
    assert "stays readable, exportable and can be continued" in out
    assert "the referee's check of every verdict agrees" in out
    # a record of the engine before the cushion models: another engine too, now
    assert main(["replay", str(V1)]) == 1
    assert "another version of the physics engine (971927c77217f6ef" in capsys.readouterr().out


def test_an_older_engines_record_is_simulated_again_exactly_on_its_own_table() -> None:
    # Its parameters name no cushion model: they are read as that engine's table (Han's
    # cushions, a constant restitution), which re-simulates every stroke bit for bit. Only
    # the fingerprint, which names the engine's version, tells the engines apart.
    lines = V1.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert "cushion_model" not in header["physics"]["params"]
    del header["physics"]["fingerprint"]
    report = replay(read_record([json.dumps(header), *lines[1:]]))
    assert report.strokes == 12
    assert report.identical, (report.simulation, report.referee)


def test_a_record_of_a_newer_format_is_named_as_such() -> None:
    from onered.game.record import parse_text

    header = json.loads(V1.read_text(encoding="utf-8").splitlines()[0])
    header["record"] = RECORD_VERSION + 1
    with pytest.raises(RecordError, match="a newer onered wrote it") as newer:
        parse_text(json.dumps(header))
    assert newer.value.code == "version"
