"""The game-session core: a game as its judged lines, kept incrementally; undo, claims, the
foul option; visits and progression; exports that read back; imports checked as new games."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onered.game import record
from onered.game.marking import Mark, Part
from onered.game.record import LineKind, RecordError
from onered.game.session import CHECKPOINT, Session, SessionError
from onered.game.summary import highest_breaks, visits
from onered.protocol.referee import run as referee_run
from onered.protocol.referee import verdict_json
from onered.rules import FoulCode, Match, Option

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "century-break.jsonl"
SCENARIOS = REPO / "tests" / "rules" / "scenarios"

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


def verdicts(game: Session) -> list[dict[str, object]]:
    return [verdict_json(e.verdict, game.players) for e in game.entries]


def test_a_read_game_has_the_referees_verdicts() -> None:
    text = EXAMPLE.read_text(encoding="utf-8")
    game = Session.from_text(text)
    assert verdicts(game) == referee_verdicts(text)


def test_a_bad_line_is_named_by_its_number_and_code() -> None:
    with pytest.raises(RecordError, match="line 3: first_hit") as bad:
        Session.from_lines(lines(MATCH, NO_SCORE, {"type": "stroke", "first_hit": "blue"}))
    assert bad.value.code == "bad_line"
    assert bad.value.line == 3
    with pytest.raises(RecordError, match="line 1: the first line must be the match line"):
        Session.from_lines(lines(NO_SCORE))
    with pytest.raises(RecordError, match="line 2: not valid JSON"):
        Session.from_lines([json.dumps(MATCH), "{"])


def test_visits_progression_and_highest_breaks() -> None:
    game = Session.from_lines(lines(MATCH, NO_SCORE, CANNON, CANNON, IN_OFF, MISS))
    strokes = [e.verdict for e in game.entries if e.kind is LineKind.STROKE]
    found = visits(strokes, over=game.over)
    assert [(v.player, v.first, v.last, v.points, v.open) for v in found] == [
        ("Ivanov", 1, 1, 0, False),
        ("Petrov", 2, 5, 7, False),
    ]
    assert highest_breaks(found, game.players) == {"Ivanov": 0, "Petrov": 7}


def test_a_stroke_is_judged_from_the_current_state() -> None:
    game = Session.from_lines(lines(MATCH, NO_SCORE))
    entry = game.append(CANNON)
    assert entry.seq == 2
    assert entry.verdict.points == 2
    assert game.state.score == (0, 2)


def test_undo_drops_the_last_line_and_goes_back_to_its_state() -> None:
    game = Session.from_lines(lines(MATCH, NO_SCORE, CANNON))
    game.undo()
    assert game.state == Session.from_lines(lines(MATCH, NO_SCORE)).state
    game.undo()
    with pytest.raises(SessionError) as none:
        game.undo()
    assert none.value.code == "no_undo"


def test_a_late_claim_judges_the_last_stroke_again_with_the_foul() -> None:
    """2.12.4: a foul claimed before the next stroke: the stroke's points are lost."""
    game = Session.from_lines(lines(MATCH, NO_SCORE, CANNON))
    entry = game.claim([FoulCode.PUSH])
    assert entry.verdict.points == 0
    assert entry.verdict.foul is not None
    assert game.state.score == (2, 0)
    assert len(game) == 3
    with pytest.raises(SessionError) as again:
        game.claim([FoulCode.JUMP])
    assert again.value.code == "claim_foul"
    game.choose(Option.AS_THEY_LIE)
    with pytest.raises(SessionError) as late:
        game.claim([FoulCode.JUMP])
    assert late.value.code == "claim_none"


def test_nothing_is_taken_after_the_end() -> None:
    game = Session.new(Match(target=2, players=("A", "B")))
    game.append(NO_SCORE)
    game.append(CANNON)
    assert game.winner == "B"
    with pytest.raises(SessionError) as over:
        game.append(CANNON)
    assert over.value.code == "over"
    assert over.value.params == {"winner": "B"}


def test_a_marked_stroke_is_composed_and_judged() -> None:
    game = Session.new(Match(target=10, players=("A", "B")))
    game.mark(Mark(parts=frozenset({Part.POT_RED})))
    assert game.state.score == (3, 0)
    with pytest.raises(SessionError) as bad:
        game.mark(Mark(parts=frozenset({Part.MISS, Part.CANNON})))
    assert bad.value.code == "bad_mark"


def test_the_protocol_export_is_what_the_referee_reads_and_reads_back_equal() -> None:
    game = Session.from_lines(
        lines(MATCH, NO_SCORE, CANNON, MISS, {"type": "choice", "option": "from_d"})
    )
    text = game.export_protocol()
    assert referee_verdicts(text) == verdicts(game)
    assert Session.from_text(text).lines() == game.lines()


def test_the_record_export_carries_the_verdicts_and_imports_back() -> None:
    game = Session.from_lines(lines(MATCH, NO_SCORE, CANNON, CANNON, IN_OFF, MISS))
    text = game.export_record({"Ivanov": "human", "Petrov": "human"})
    objs = [json.loads(line) for line in text.splitlines()]
    assert objs[0]["record"] == record.RECORD_VERSION
    assert objs[0]["entrants"] == {"Ivanov": "human", "Petrov": "human"}
    assert objs[0]["opening"]["next"] == "Ivanov"
    assert objs[-1]["verdict"]["score"] == {"Ivanov": 2, "Petrov": 7}
    assert referee_verdicts(text)[-1]["score"] == {"Ivanov": 2, "Petrov": 7}
    assert verdicts(Session.from_text(text)) == verdicts(game)


def test_pairs_are_read_and_comment_lines_skipped() -> None:
    text = (SCENARIOS / "cannons_75.jsonl").read_text(encoding="utf-8")
    game = Session.from_text(text)
    pairs = [json.loads(line) for line in text.splitlines() if line.strip()]
    expected = [p for p in pairs if "in" in p]
    assert len(game) == len(expected)
    assert game.last.verdict.stroke == expected[-1]["out"]["stroke"]


def test_a_byte_order_mark_is_accepted() -> None:
    text = "\n".join(lines(MATCH, NO_SCORE, CANNON))
    data = ("\ufeff" + text).encode("utf-8")
    assert Session.from_text(record.decode(data)).lines() == Session.from_text(text).lines()


@pytest.mark.parametrize(
    ("text", "message", "code"),
    [
        ("", "line 1: the file is empty", "file_empty"),
        ('{"comment": "x"}\n', "no game lines", "file_empty"),
        (
            '{"type": "match", "target": 10, "players": ["A", "B"]}\n[1]\n',
            "line 2: expected a JSON object",
            "not_json",
        ),
        ('{"in": 5}\n', "line 1: in: expected a protocol line object", "bad_line"),
        ('{"type": "match", "record": 99}\n', "line 1: record: format version 99", "version"),
    ],
)
def test_unreadable_files_name_the_line_and_the_fault(text: str, message: str, code: str) -> None:
    with pytest.raises(RecordError, match=message) as bad:
        Session.from_text(text)
    assert bad.value.code == code


def test_a_file_too_large_or_not_utf8_is_refused_by_name() -> None:
    with pytest.raises(RecordError) as big:
        record.decode(b" " * (record.MAX_BYTES + 1))
    assert big.value.code == "file_too_large"
    with pytest.raises(RecordError, match="not UTF-8") as bad:
        record.decode(b"\xff\xfe")
    assert bad.value.code == "not_utf8"


def test_too_many_lines_are_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record, "MAX_LINES", 3)
    with pytest.raises(RecordError, match="line 4: too many lines") as many:
        Session.from_text("\n".join(lines(MATCH, NO_SCORE, NO_SCORE, NO_SCORE)))
    assert many.value.code == "too_many_lines"


@pytest.mark.parametrize(
    ("players", "target", "code"),
    [
        (["x" * 5000, "B"], 10, "name_long"),
        (["A\x00", "B"], 10, "name_chars"),
        (["A\u200b", "B"], 10, "name_chars"),
        (["A\u202e", "B"], 10, "name_chars"),
        (["", "B"], 10, "name_empty"),
        (["Ann", "ann"], 10, "names_same"),
        (["A  B", "C"], 10, "name_space"),
        (["A", "B"], 10**12, "target"),
        (["A", "B"], 0, "target"),
    ],
)
def test_an_import_is_checked_as_a_new_game_is(players: list[str], target: int, code: str) -> None:
    first = {"type": "match", "target": target, "players": players}
    with pytest.raises(RecordError) as bad:
        Session.from_text(json.dumps(first))
    assert bad.value.code == code
    assert bad.value.line == 1
    if code not in ("name_space",):
        with pytest.raises(SessionError) as new:
            Session.new(Match(target=target, players=(players[0], players[1])))
        assert new.value.code == code


def test_an_import_with_a_table_out_of_range_is_refused() -> None:
    from onered.game import PhysicsSimulator

    header = json.loads(Session.new(Match(10, ("A", "B")), simulator=PhysicsSimulator()).texts()[0])
    header["physics"]["params"]["mu_r"] = 50.0
    with pytest.raises(RecordError, match="physics") as bad:
        Session.from_text(json.dumps(header))
    assert bad.value.code == "physics"


def test_every_scenario_file_reads() -> None:
    for path in sorted(SCENARIOS.glob("*.jsonl")):
        text = path.read_text(encoding="utf-8")
        if '"error"' in text:
            continue  # files that end on a line the referee refuses
        game = Session.from_text(text, check=False)
        assert game.first.kind is LineKind.MATCH, path.name


# --- properties: the incremental state is a full replay's ---------------------------------

STROKES = [
    NO_SCORE,
    CANNON,
    IN_OFF,
    MISS,
    {"type": "stroke", "first_hit": "red", "potted": ["red"]},
    {"type": "stroke", "first_hit": "red", "cannon": True, "potted": ["red"]},
    {"type": "stroke", "first_hit": "red", "fouls": ["push"]},
    {"type": "stroke", "struck": False, "fouls": ["touched_ball"]},
]
Step = st.one_of(
    st.sampled_from([("line", s) for s in STROKES]),
    st.sampled_from([("choice", o) for o in ("as_they_lie", "from_d")]),
    st.just(("undo", None)),
    st.sampled_from([("claim", f) for f in (FoulCode.PUSH, FoulCode.JUMP)]),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(Step, max_size=3 * CHECKPOINT))
def test_the_incremental_state_equals_a_full_replay(steps: list[tuple[str, object]]) -> None:
    game = Session.new(Match(target=200, players=("A", "B")))
    for kind, arg in steps:
        try:
            if kind == "line":
                game.append(arg)  # type: ignore[arg-type]
            elif kind == "choice":
                game.append({"type": "choice", "option": arg})
            elif kind == "undo":
                game.undo()
            else:
                game.claim([arg])  # type: ignore[list-item]
        except SessionError:
            pass
        again = Session.from_lines(game.texts())
        assert game.state == again.state
        assert verdicts(game) == verdicts(again)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(STROKES), max_size=80))
def test_an_export_reimports_to_the_same_verdicts(strokes: list[dict[str, object]]) -> None:
    game = Session.new(Match(target=60, players=("Anna", "Boris")))
    for line in strokes:
        try:
            if game.state.choice_pending:
                game.append({"type": "choice", "option": "as_they_lie"})
            game.append(line)
        except SessionError:
            continue
    for text in (game.export_protocol(), game.export_record()):
        again = Session.from_text(text)
        assert verdicts(again) == verdicts(game)
        assert again.state == game.state


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(STROKES), min_size=1, max_size=40), st.integers(0, 40))
def test_a_game_started_from_a_written_position_goes_on_the_same(
    strokes: list[dict[str, object]], cut: int
) -> None:
    """A session resumed from the position written at any line (``onered.rules.position``)
    judges the rest of the game as the whole game did."""
    from onered.rules import position

    game = Session.new(Match(target=60, players=("Anna", "Boris")))
    for line in strokes:
        try:
            if game.state.choice_pending:
                game.append({"type": "choice", "option": "from_d"})
            game.append(line)
        except SessionError:
            continue
    cut = min(cut, len(game) - 1)
    resumed = Session.from_position(position.read(position.write(game.state_before(cut + 1))))
    assert resumed.first.kind is LineKind.POSITION
    for entry in game.entries[cut + 1 :]:
        assert resumed.append(entry.line).verdict == entry.verdict
    assert resumed.state == game.state
    assert Session.from_text(resumed.export_record()).state == game.state
