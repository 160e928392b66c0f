"""``onered referee``: its error paths (in process and as a command), files and standard input.

Every bad input must give ``line N: ...`` on standard error and exit status 2, after the
verdicts of all earlier lines were printed (referee-protocol.md, "Errors").
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee_support import (
    IN_D,
    P1,
    P2,
    assert_error_at,
    cannon,
    choice,
    encode,
    ivanov_again,
    judge,
    match,
    no_score,
    parse_verdicts,
    pot_red,
    stroke,
)

SRC = Path(__file__).resolve().parents[2] / "src"

VERDICT_FIELDS = {
    "stroke",
    "striker",
    "ball",
    "from_d",
    "points",
    "scored",
    "foul",
    "score",
    "break",
    "visit_over",
    "next",
    "next_from_d",
    "options",
    "placements",
    "in_hand",
    "counters",
    "baulk_line",
    "calls",
    "winner",
}


def command(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    env["PYTHONIOENCODING"] = "utf-8"
    return subprocess.run(
        [sys.executable, "-m", "onered", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def as_text(lines: list[Any]) -> str:
    return "".join(encode(line) + "\n" for line in lines)


def M(**fields: Any) -> dict[str, Any]:  # noqa: N802 - reads as "the match line"
    return match(**fields)


def yellow_potted() -> list[Any]:
    """Ivanov has potted the yellow: it is off the table for the rest of his visit."""
    return [*ivanov_again(), stroke(first_hit="yellow", potted=["yellow"])]


S = stroke
STRUCK_FALSE_EXTRAS: list[tuple[str, Any]] = [
    ("first_hit", "red"),
    ("cannon", True),
    ("potted", ["red"]),
    ("off_table", ["red"]),
    ("crossed_baulk", True),
    ("touching", True),
    ("placed", [0.889, 0.6]),
    ("occupied", ["centre"]),
    ("positions", {"white": [0.5, 1.0], "yellow": [1.2, 2.0], "red": [0.3, 3.0]}),
]

#: (id, input lines, the line the referee must stop at)
ERROR_CASES: list[tuple[str, list[Any], int]] = [
    # --- not JSON, not an object, unknown type
    ("not_json", [M(), "{not json"], 2),
    ("truncated_json", [M(), pot_red(), '{"type": "stroke", '], 3),
    ("json_array", [M(), "[1, 2]"], 2),
    ("json_number", [M(), "42"], 2),
    ("json_string", [M(), '"stroke"'], 2),
    ("json_null", [M(), "null"], 2),
    ("first_line_array", ["[]"], 1),
    ("unknown_type", [M(), {"type": "pass"}], 2),
    ("missing_type", [M(), {"first_hit": "red"}], 2),
    ("type_not_a_string", [M(), {"type": 1}], 2),
    # --- the match line
    ("missing_match_stroke_first", [pot_red()], 1),
    ("missing_match_choice_first", [choice("from_d")], 1),
    ("empty_input", [], 1),
    ("only_blank_lines", ["", "   "], 1),
    ("second_match", [M(), no_score(), M()], 3),
    ("second_match_at_once", [M(), M()], 2),
    ("target_zero", [M(target=0)], 1),
    ("target_negative", [M(target=-3)], 1),
    ("target_not_integer", [M(target=1.5)], 1),
    ("target_string", [M(target="100")], 1),
    ("target_boolean", [M(target=True)], 1),
    ("target_null", [M(target=None)], 1),
    ("target_missing", [{"type": "match", "players": [P1, P2]}], 1),
    ("target_nan", ['{"type": "match", "target": NaN, "players": ["A", "B"]}'], 1),
    ("target_infinity", ['{"type": "match", "target": Infinity, "players": ["A", "B"]}'], 1),
    ("players_same_name", [M(players=["A", "A"])], 1),
    ("players_one", [M(players=["A"])], 1),
    ("players_three", [M(players=["A", "B", "C"])], 1),
    ("players_not_a_list", [{"type": "match", "target": 100, "players": "AB"}], 1),
    ("players_not_strings", [M(players=[1, 2])], 1),
    ("players_missing", [{"type": "match", "target": 100}], 1),
    ("balls_same", [M(balls=["white", "white"])], 1),
    ("balls_unknown_name", [M(balls=["blue", "yellow"])], 1),
    ("balls_red_as_cue_ball", [M(balls=["red", "yellow"])], 1),
    ("balls_one", [M(balls=["white"])], 1),
    # --- ball names
    ("first_hit_unknown_ball", [M(), S(first_hit="blue")], 2),
    ("first_hit_wrong_case", [M(), S(first_hit="Red")], 2),
    ("potted_unknown_ball", [M(), S(first_hit="red", potted=["green"])], 2),
    ("off_table_unknown_ball", [M(), S(first_hit="red", off_table=["pink"])], 2),
    ("positions_unknown_ball", [M(), S(first_hit="red", positions={"black": [1.0, 1.0]})], 2),
    # --- numbers must be finite
    ("placed_nan", [M(), '{"type": "stroke", "first_hit": "red", "placed": [NaN, 0.6]}'], 2),
    (
        "placed_minus_infinity",
        [M(), '{"type": "stroke", "first_hit": "red", "placed": [-Infinity, 0.6]}'],
        2,
    ),
    (
        "positions_infinity",
        [M(), '{"type": "stroke", "first_hit": "red", "positions": {"white": [Infinity, 1.0]}}'],
        2,
    ),
    (
        "positions_nan_later",
        [
            M(),
            pot_red(),
            '{"type": "stroke", "first_hit": "red", "positions": {"red": [0.5, NaN]}}',
        ],
        3,
    ),
    # --- wrong types or values of known stroke fields
    ("cannon_not_boolean", [*ivanov_again(), S(first_hit="red", cannon="yes")], 4),
    ("potted_not_a_list", [M(), S(first_hit="red", potted="red")], 2),
    ("fouls_not_a_list", [M(), S(first_hit="red", fouls="push")], 2),
    ("fouls_unknown_code", [M(), S(first_hit="red", fouls=["nonsense"])], 2),
    ("crossed_baulk_not_boolean", [M(), S(first_hit="red", crossed_baulk=1)], 2),
    ("touching_not_boolean", [M(), pot_red(touching="no")], 2),
    ("placed_one_number", [M(), S(first_hit="red", placed=[0.889])], 2),
    ("placed_three_numbers", [M(), S(first_hit="red", placed=[0.889, 0.6, 0.0])], 2),
    ("placed_not_numbers", [M(), S(first_hit="red", placed=["a", "b"])], 2),
    ("occupied_unknown_spot", [M(), pot_red(occupied=["nowhere"])], 2),
    ("positions_not_an_object", [M(), S(first_hit="red", positions=[[1.0, 2.0]])], 2),
    ("struck_not_boolean", [M(), S(struck="false", fouls=["push"])], 2),
    ("striker_unknown", [M(), S(striker="Sidorov", first_hit="red")], 2),
    ("striker_not_a_string", [M(), S(striker=7, first_hit="red")], 2),
    # --- impossible strokes (referee-protocol.md, "Invalid strokes are errors")
    ("not_on_table_first_hit", [M(), S(first_hit="yellow")], 2),
    ("not_on_table_potted", [M(), S(first_hit="red", potted=["yellow"])], 2),
    ("not_on_table_off_table", [M(), S(first_hit="red", off_table=["yellow"])], 2),
    (
        "not_on_table_positions",
        [M(), S(first_hit="red", positions={"white": [1.0, 2.0], "yellow": [1.5, 2.5]})],
        2,
    ),
    (
        "potted_ball_in_positions",
        [M(), pot_red(positions={"white": [1.0, 2.0], "red": [0.5, 3.0]})],
        2,
    ),
    (
        "off_table_ball_in_positions",
        [
            M(),
            S(
                first_hit="red",
                off_table=["red"],
                positions={"white": [1.0, 2.0], "red": [0.5, 3.0]},
            ),
        ],
        2,
    ),
    ("potted_yellow_first_hit", [*yellow_potted(), S(first_hit="yellow")], 5),
    ("potted_yellow_potted_again", [*yellow_potted(), S(first_hit="red", potted=["yellow"])], 5),
    ("first_hit_own_ball", [M(), S(first_hit="white")], 2),
    ("first_hit_own_ball_petrov", [M(), no_score(), S(first_hit="yellow")], 3),
    ("both_without_cannon", [*ivanov_again(), S(first_hit="both")], 4),
    ("both_with_cannon_false", [*ivanov_again(), S(first_hit="both", cannon=False)], 4),
    ("cannon_with_first_hit_null", [*ivanov_again(), S(cannon=True)], 4),
    ("cannon_first_visit", [M(), cannon()], 2),
    ("cannon_opponents_ball_potted", [*yellow_potted(), cannon()], 5),
    (
        "potted_and_off_table",
        [*ivanov_again(), S(first_hit="red", potted=["red"], off_table=["red"])],
        4,
    ),
    ("placed_not_from_hand", [*ivanov_again(), pot_red(placed=IN_D)], 4),
    ("placed_not_from_hand_after_pot", [M(), pot_red(), pot_red(placed=IN_D)], 3),
    ("struck_false_without_fouls", [*ivanov_again(), S(struck=False)], 4),
    ("struck_false_empty_fouls", [*ivanov_again(), S(struck=False, fouls=[])], 4),
    *(
        (
            f"struck_false_with_{name}",
            [*ivanov_again(), S(struck=False, fouls=["push"], **{name: value})],
            4,
        )
        for name, value in STRUCK_FALSE_EXTRAS
    ),
    # --- choice
    ("choice_right_after_match", [M(), choice("from_d")], 2),
    ("choice_after_fair_stroke", [M(), pot_red(), choice("as_they_lie")], 3),
    ("choice_after_end_of_visit", [M(), no_score(), choice("as_they_lie")], 3),
    ("choice_twice", [M(), S(), choice("as_they_lie"), choice("as_they_lie")], 4),
    ("choice_after_the_next_stroke", [M(), S(), pot_red(placed=IN_D), choice("from_d")], 4),
    ("choice_bad_option", [M(), S(), {"type": "choice", "option": "replay"}], 3),
    ("choice_missing_option", [M(), S(), {"type": "choice"}], 3),
    ("choice_option_not_a_string", [M(), S(), {"type": "choice", "option": 2}], 3),
    # --- after the end
    ("stroke_after_the_end", [M(target=3), pot_red(), pot_red()], 3),
    ("choice_after_foul_that_ended_the_game", [M(target=2), S(), choice("from_d")], 3),
    ("match_after_the_end", [M(target=3), pot_red(), M(target=3)], 3),
    # --- blank lines are skipped but counted
    ("blank_lines_counted", ["", M(), "", "   ", "garbage"], 5),
    ("blank_lines_between_verdicts", [M(), "", pot_red(), "", "{"], 5),
    # "an input without [a match line] is an error at line 1", even after blank lines
    ("blank_line_before_missing_match", ["", pot_red()], 1),
    ("match_not_first", [pot_red(), M()], 1),
]

IDS = [case[0] for case in ERROR_CASES]


def test_error_case_ids_are_unique() -> None:
    assert len(IDS) == len(set(IDS))
    assert set(COMMAND_CASES) <= set(IDS)


@pytest.mark.parametrize(("lines", "n"), [case[1:] for case in ERROR_CASES], ids=IDS)
def test_error_in_process(lines: list[Any], n: int) -> None:
    judged = assert_error_at(lines, n)
    assert "Traceback" not in judged.err


#: The command's wiring, one case of each kind (not JSON, a wrong field, a broken rule, the
#: match line missing, blank lines counted): every case is judged in process above, and the
#: command adds no checks of its own, so running all of them again in subprocesses (102
#: interpreter starts) would test nothing more.
COMMAND_CASES = [
    "not_json",
    "target_nan",
    "first_hit_own_ball",
    "stroke_after_the_end",
    "blank_line_before_missing_match",
    "blank_lines_between_verdicts",
]


@pytest.mark.parametrize(
    ("lines", "n"),
    [case[1:] for case in ERROR_CASES if case[0] in COMMAND_CASES],
    ids=[name for name in IDS if name in COMMAND_CASES],
)
def test_error_from_the_command(lines: list[Any], n: int) -> None:
    result = command("referee", stdin=as_text(lines))
    assert result.returncode == 2, result.stderr
    assert f"line {n}:" in result.stderr
    assert "Traceback" not in result.stderr
    earlier = [encode(line) for line in lines[: n - 1]]
    assert len(parse_verdicts(result.stdout)) == sum(1 for text in earlier if text.strip())


# --- reading input ----------------------------------------------------------------------------

GAME = [
    match(target=20),
    pot_red(placed=IN_D),
    stroke(first_hit="red", potted=["white"]),
    no_score(),
    stroke(first_hit="white", cannon=True, potted=["red"]),
    stroke(),
    choice("from_d"),
    stroke(first_hit="red", cannon=True, potted=["red", "white"], placed=IN_D),
]


def test_run_returns_0_and_one_verdict_per_line() -> None:
    judged = judge(GAME).ok()
    assert judged.err == ""
    assert len(judged.verdicts) == len(GAME)
    assert [v["stroke"] for v in judged.verdicts] == [0, 1, 2, 3, 4, 5, 5, 6]
    for verdict in judged.verdicts:
        assert set(verdict) >= VERDICT_FIELDS, VERDICT_FIELDS - set(verdict)


def test_run_accepts_lines_with_or_without_newlines() -> None:
    from onered.protocol.referee import run

    texts = [encode(line) for line in GAME]
    outputs = []
    for lines in (texts, [text + "\n" for text in texts]):
        out, err = io.StringIO(), io.StringIO()
        assert run(lines, out, err) == 0, err.getvalue()
        outputs.append(out.getvalue())
    assert outputs[0] == outputs[1]
    assert len(parse_verdicts(outputs[0])) == len(GAME)


def test_run_skips_blank_lines() -> None:
    judged = judge(["", GAME[0], "  ", *GAME[1:], ""]).ok()
    assert len(judged.verdicts) == len(GAME)


def test_command_reads_standard_input() -> None:
    result = command("referee", stdin=as_text(GAME))
    assert result.returncode == 0, result.stderr
    verdicts = parse_verdicts(result.stdout)
    assert len(verdicts) == len(GAME)
    assert verdicts == judge(GAME).verdicts
    assert all(line.strip() for line in result.stdout.splitlines())


def test_command_reads_a_file(tmp_path: Path) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text(as_text(GAME), encoding="utf-8")
    from_file = command("referee", str(game))
    assert from_file.returncode == 0, from_file.stderr
    from_stdin = command("referee", stdin=as_text(GAME))
    assert from_file.stdout == from_stdin.stdout
    assert len(parse_verdicts(from_file.stdout)) == len(GAME)


def test_command_reports_an_error_in_a_file(tmp_path: Path) -> None:
    game = tmp_path / "bad.jsonl"
    game.write_text(as_text([*GAME[:3], "", "oops"]), encoding="utf-8")
    result = command("referee", str(game))
    assert result.returncode == 2
    assert "line 5:" in result.stderr
    assert len(parse_verdicts(result.stdout)) == 3


def test_command_file_argument_wins_over_stdin(tmp_path: Path) -> None:
    game = tmp_path / "game.jsonl"
    game.write_text(as_text(GAME), encoding="utf-8")
    result = command("referee", str(game), stdin="garbage\n")
    assert result.returncode == 0, result.stderr
    assert len(parse_verdicts(result.stdout)) == len(GAME)


def test_command_nonexistent_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-game.jsonl"
    result = command("referee", str(missing))
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "no-such-game.jsonl" in result.stderr
    assert result.stdout == ""


def test_command_handles_non_ascii_names() -> None:
    lines = [match(target=3, players=["Иванов", "Петров"]), pot_red()]
    result = command("referee", stdin=as_text(lines))
    assert result.returncode == 0, result.stderr
    verdicts = parse_verdicts(result.stdout)
    assert verdicts[-1]["winner"] == "Иванов"
    assert verdicts[-1]["score"] == {"Иванов": 3, "Петров": 0}


def test_help_lists_referee() -> None:
    result = command("--help")
    assert result.returncode == 0
    assert "referee" in result.stdout


def test_referee_help() -> None:
    result = command("referee", "--help")
    assert result.returncode == 0
    assert "FILE" in result.stdout


def test_verdict_lines_are_json_objects() -> None:
    result = command("referee", stdin=as_text(GAME))
    for text in result.stdout.splitlines():
        assert isinstance(json.loads(text), dict)
