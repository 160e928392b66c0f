"""A game as its protocol lines: replay, progression, breaks, export and import."""

from __future__ import annotations

import io
import json

import pytest
from web_support import REPO

from onered.protocol.referee import run as referee_run
from onered.web import record as rec

EXAMPLE = REPO / "examples" / "century-break.jsonl"
SCENARIOS = REPO / "tests" / "scenarios"

MATCH = {"type": "match", "target": 10, "players": ["Ivanov", "Petrov"]}
NO_SCORE = {"type": "stroke", "first_hit": "red"}
CANNON = {"type": "stroke", "first_hit": "red", "cannon": True}
IN_OFF = {"type": "stroke", "first_hit": "red", "potted": ["yellow"]}
MISS = {"type": "stroke"}


def lines(*objs: dict[str, object]) -> list[str]:
    return [json.dumps(o) for o in objs]


def referee_verdicts(text: str) -> list[dict[str, object]]:
    out, err = io.StringIO(), io.StringIO()
    assert referee_run(io.StringIO(text), out, err) == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_replay_gives_the_referees_verdicts() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = rec.replay([line for line in text.splitlines() if line.strip()])
    expected = referee_verdicts(text)
    assert [v["out"] for v in rec.verdicts_json(game)] == expected


def test_a_bad_line_is_named_by_its_number() -> None:
    with pytest.raises(rec.RecordError, match="line 3: first_hit"):
        rec.replay(lines(MATCH, NO_SCORE, {"type": "stroke", "first_hit": "blue"}))
    with pytest.raises(rec.RecordError, match="line 1: the first line must be the match line"):
        rec.replay(lines(NO_SCORE))
    with pytest.raises(rec.RecordError, match="line 2: not valid JSON"):
        rec.replay([json.dumps(MATCH), "{"])


def test_progression_visits_and_state() -> None:
    game = rec.replay(lines(MATCH, NO_SCORE, CANNON, CANNON, IN_OFF, MISS))
    assert rec.progression(game) == [
        {"stroke": 0, "score": [0, 0]},
        {"stroke": 1, "score": [0, 0]},
        {"stroke": 2, "score": [0, 2]},
        {"stroke": 3, "score": [0, 4]},
        {"stroke": 4, "score": [0, 7]},
        {"stroke": 5, "score": [2, 7]},  # Petrov's miss: 2 to Ivanov
    ]
    assert [(v.player, v.first, v.last, v.points, v.open) for v in rec.visits(game)] == [
        ("Ivanov", 1, 1, 0, False),
        ("Petrov", 2, 5, 7, False),
    ]
    state = rec.state_json(game)
    assert state["to_play"] == "Ivanov"
    assert state["options"] == ["as_they_lie", "from_d"]
    assert state["can_undo"] is True
    assert state["can_claim"] is False  # the last stroke already is a foul


def test_jsonl_export_is_what_the_referee_reads() -> None:
    game = rec.replay(lines(MATCH, NO_SCORE, CANNON, MISS, {"type": "choice", "option": "from_d"}))
    text = rec.export_jsonl(game)
    assert referee_verdicts(text) == [v["out"] for v in rec.verdicts_json(game)]
    again = rec.replay_objects(rec.parse_file(text))
    assert again.lines() == game.lines()


def test_record_export_carries_the_verdicts_and_imports_back() -> None:
    game = rec.replay(lines(MATCH, NO_SCORE, CANNON, CANNON, IN_OFF, MISS))
    text = rec.export_record(game, {"Ivanov": "human", "Petrov": "human"})
    objs = [json.loads(line) for line in text.splitlines()]
    assert objs[0]["record"] == 1
    assert objs[0]["entrants"] == {"Ivanov": "human", "Petrov": "human"}
    assert objs[0]["opening"]["next"] == "Ivanov"
    assert [o["verdict"]["score"] for o in objs[1:]][-1] == {"Ivanov": 2, "Petrov": 7}
    # The referee ignores the extra fields: the record is a valid protocol input as well.
    assert referee_verdicts(text)[-1]["score"] == {"Ivanov": 2, "Petrov": 7}
    imported = rec.replay_objects(rec.parse_file(text))
    assert imported.state.score == game.state.score


def test_import_reads_in_out_pairs_and_skips_comment_lines() -> None:
    text = (SCENARIOS / "cannons_75.jsonl").read_text(encoding="utf-8")
    game = rec.replay_objects(rec.parse_file(text))
    pairs = [json.loads(line) for line in text.splitlines() if line.strip()]
    expected = [p for p in pairs if "in" in p]
    assert len(game.entries) == len(expected)
    assert game.entries[-1].verdict.stroke == expected[-1]["out"]["stroke"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "line 1: the file is empty"),
        ('{"comment": "x"}\n', "no protocol lines"),
        (
            '{"type": "match", "target": 10, "players": ["A", "B"]}\n[1]\n',
            "line 2: expected a JSON object",
        ),
        ('{"in": 5}\n', "line 1: in: expected a protocol line object"),
    ],
)
def test_import_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(rec.RecordError, match=message):
        rec.parse_file(text)


def test_clean_line_keeps_only_the_protocol_fields() -> None:
    assert rec.clean_line({"type": "choice", "option": "from_d", "junk": 1}) == {
        "type": "choice",
        "option": "from_d",
    }
    assert "evil" not in rec.clean_line({**CANNON, "evil": "<script>"})


def test_every_scenario_file_imports() -> None:
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        if '"error"' in text:
            continue  # files that end on a line the referee refuses
        game = rec.replay_objects(rec.parse_file(text))
        assert game.entries[0].kind is rec.LineKind.MATCH, path.name
