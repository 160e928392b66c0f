"""The shot protocol (``docs/shot-protocol.md``): input checks, output, and the
``onered shot`` command in single, ``--batch`` and ``--svg`` modes."""

from __future__ import annotations

import copy
import io
import json
import math
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from onered.cli import main
from onered.physics.types import Event, EventKind, Launch, Segment, ShotResult, Strike
from onered.protocol.referee import RefereeSession, parse_stroke
from onered.protocol.shot import (
    ShotProtocolError,
    loads_shot,
    parse_shot,
    shot_output,
    simulate_shot,
)
from onered.svg import draw_shot
from onered.table import BALL_DIAMETER, BALL_RADIUS, LENGTH, WIDTH

SHOT: dict[str, Any] = {
    "balls": {"white": [0.889, 0.8], "yellow": [1.2, 2.0], "red": [0.889, 3.245]},
    "cue_ball": "white",
    "strike": {"speed": 2.5, "aim": 90.0, "side": 0.0, "height": 0.3, "elevation": 0.0},
    "params": {"mu_r": 0.01},
}

# A straight pot into the top-right pocket: red 0.25 m from the corner on the diagonal, the
# white 0.15 m behind it on the same line (so it still slides at contact and stops: a stun).
_D = math.sqrt(0.5)
POT: dict[str, Any] = {
    "balls": {
        "white": [WIDTH - (0.25 + 0.15) * _D, LENGTH - (0.25 + 0.15) * _D],
        "red": [WIDTH - 0.25 * _D, LENGTH - 0.25 * _D],
        "yellow": [0.889, 1.0],
    },
    "cue_ball": "white",
    "strike": {"speed": 1.5, "aim": 45.0},
}


def shot_with(**changes: Any) -> dict[str, Any]:
    """A copy of SHOT with top-level fields replaced (``None`` removes the field)."""
    out = copy.deepcopy(SHOT)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def strike_with(**changes: Any) -> dict[str, Any]:
    strike = {**SHOT["strike"], **changes}
    return shot_with(strike={k: v for k, v in strike.items() if v is not None})


def balls_with(**changes: Any) -> dict[str, Any]:
    balls = {**SHOT["balls"], **changes}
    return shot_with(balls={k: v for k, v in balls.items() if v is not None})


# --- input checks: each error names the field and what is wrong --------------------------

ERRORS: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "expected a JSON object, got an array"),
    ("no balls", shot_with(balls=None), "balls: required"),
    (
        "balls not an object",
        shot_with(balls=[[0.5, 0.5]]),
        "balls: expected an object, got an array",
    ),
    ("unknown ball", balls_with(blue=[0.5, 2.0]), "balls: unknown ball 'blue'"),
    ("position a string", balls_with(white="here"), 'balls.white: expected [x, y], got "here"'),
    (
        "position 3 numbers",
        balls_with(white=[0.5, 1.0, 0.0]),
        "balls.white: expected [x, y], got [0.5, 1.0, 0.0]",
    ),
    (
        "coordinate a string",
        balls_with(white=[0.5, "1"]),
        'balls.white[1]: expected a number, got "1"',
    ),
    (
        "coordinate a boolean",
        balls_with(white=[True, 1.0]),
        "balls.white[0]: expected a number, got true",
    ),
    (
        "coordinate infinite",
        balls_with(white=[0.5, 1e400]),
        "balls.white[1]: the number must be finite",
    ),
    (
        "coordinate NaN",
        balls_with(white=[math.nan, 1.0]),
        "balls.white[0]: the number must be finite",
    ),
    (
        "overlapping balls",
        balls_with(red=[0.889 + BALL_DIAMETER * 0.9, 0.8]),
        "balls.red: at (0.93625, 0.8) overlaps balls.white",
    ),
    (
        "ball into the side cushion",
        balls_with(red=[0.01, 2.0]),
        "balls.red: at (0.01, 2) overlaps the left_upper cushion",
    ),
    (
        "ball beyond the top",
        balls_with(red=[0.9, 3.6]),
        "balls.red: at (0.9, 3.6) is off the table",
    ),
    (
        "ball at negative x",
        balls_with(yellow=[-0.5, 2.0]),
        "balls.yellow: at (-0.5, 2) is off the table",
    ),
    (
        "ball in a pocket's fall",
        balls_with(red=[-0.03, LENGTH / 2]),
        "balls.red: at (-0.03, 1.7845) is over the middle_left pocket",
    ),
    ("no cue ball", shot_with(cue_ball=None), "cue_ball: required"),
    ("cue ball a number", shot_with(cue_ball=1), "cue_ball: expected a string, got a number"),
    ("cue ball the red", shot_with(cue_ball="red"), "cue_ball: must be one of white, yellow"),
    (
        "cue ball not on the table",
        {**balls_with(yellow=None), "cue_ball": "yellow"},
        "cue_ball: 'yellow' is not on the table",
    ),
    (
        "strike and launch",
        shot_with(launch={"v": [0.0, 1.0], "w": [0.0, 0.0, 0.0]}),
        "strike, launch: give one of them, not both",
    ),
    ("neither strike nor launch", shot_with(strike=None), "strike, launch: one of them is"),
    ("strike not an object", shot_with(strike=2.5), "strike: expected an object, got a number"),
    ("no speed", strike_with(speed=None), "strike.speed: required"),
    ("no aim", strike_with(aim=None), "strike.aim: required"),
    ("speed 0", strike_with(speed=0), "strike.speed: must be > 0 and at most 10, got 0"),
    ("speed 12", strike_with(speed=12), "strike.speed: must be > 0 and at most 10, got 12"),
    ("speed negative", strike_with(speed=-1.5), "strike.speed: must be > 0 and at most 10"),
    ("speed a string", strike_with(speed="fast"), 'strike.speed: expected a number, got "fast"'),
    ("aim infinite", strike_with(aim=1e999), "strike.aim: the number must be finite"),
    ("side beyond 0.8", strike_with(side=0.9, height=0.0), "strike: tip offset"),
    ("offset beyond 0.8", strike_with(side=0.6, height=0.6), "got 0.848528"),
    ("height a boolean", strike_with(height=False), "strike.height: expected a number, got false"),
    ("elevation 95", strike_with(elevation=95), "strike.elevation: must be between 0 and 90"),
    ("elevation < 0", strike_with(elevation=-1), "strike.elevation: must be between 0 and 90"),
    (
        "launch not an object",
        shot_with(strike=None, launch=[1, 2]),
        "launch: expected an object, got an array",
    ),
    ("launch without v", shot_with(strike=None, launch={"w": [0, 0, 0]}), "launch.v: required"),
    ("launch without w", shot_with(strike=None, launch={"v": [0, 1]}), "launch.w: required"),
    (
        "launch w of 2",
        shot_with(strike=None, launch={"v": [0, 1], "w": [0, 0]}),
        "launch.w: expected an array of 3 numbers, got [0, 0]",
    ),
    (
        "launch v infinite",
        shot_with(strike=None, launch={"v": [0, 1e400], "w": [0, 0, 0]}),
        "launch.v[1]: the number must be finite",
    ),
    ("params not an object", shot_with(params=[0.01]), "params: expected an object, got an array"),
    ("unknown param", shot_with(params={"mu_x": 0.1}), "params: unknown parameter 'mu_x'"),
    ("negative param", shot_with(params={"mu_r": -0.01}), "params.mu_r: must lie in [0.001, 0.1]"),
    ("zero param", shot_with(params={"g": 0}), "params.g: must lie in [1, 30] m/s^2, got 0"),
    ("tiny gravity", shot_with(params={"g": 1e-300}), "params.g: must lie in [1, 30] m/s^2"),
    ("restitution > 1", shot_with(params={"e_b": 1.5}), "params.e_b: must lie in [0, 1], got 1.5"),
    ("negative friction", shot_with(params={"f_c": -0.2}), "params.f_c: must lie in [0, 1]"),
    (
        "spin that never decays",
        shot_with(params={"mu_sp": 0}),
        "params.mu_sp: must lie in [0.001, 0.1], got 0",
    ),
    ("ball too big", shot_with(params={"R": 0.1}), "params.R: must lie in [0.02, 0.035] m"),
    ("heavy ball", shot_with(params={"m": 5}), "params.m: must lie in [0.05, 0.5] kg"),
    ("throw friction", shot_with(params={"mu_b_b": 2}), "params.mu_b_b: must lie in [0, 0.5]"),
    (
        "cushion below the equator",
        shot_with(params={"cushion_height": 0.021}),
        "params.cushion_height: must lie in [R, 2R)",
    ),
    ("light cue", shot_with(params={"cue_mass": 0.01}), "params.cue_mass: must lie in [0.1, 2]"),
    (
        "cue end heavier than the cue",
        shot_with(params={"cue_mass": 0.1, "cue_end_mass": 0.1}),
        "params.cue_end_mass: must lie in [0, cue_mass)",
    ),
    ("table not an object", shot_with(table=1), "table: expected an object, got a number"),
    ("unknown table field", shot_with(table={"width": 2.0}), "table: unknown parameter 'width'"),
    (
        "pocket too wide",
        shot_with(table={"corner_opening": 0.5}),
        "table.corner_opening: must lie in [0.04, 0.2] m, got 0.5",
    ),
    (
        "pocket narrower than the ball",
        shot_with(table={"middle_opening": 0.05}),
        "table: the middle pockets are too narrow",
    ),
    ("table field a string", shot_with(table={"corner_opening": "x"}), "table.corner_opening:"),
    (
        "param a string",
        shot_with(params={"m": "heavy"}),
        'params.m: expected a number, got "heavy"',
    ),
    ("param infinite", shot_with(params={"R": 1e400}), "params.R: the number must be finite"),
    ("seed a float", shot_with(seed=1.5), "seed: must be an integer, got 1.5"),
    ("seed a string", shot_with(seed="7"), 'seed: must be an integer, got "7"'),
    ("seed a boolean", shot_with(seed=True), "seed: must be an integer, got true"),
]


@pytest.mark.parametrize(
    ("shot", "message"), [(s, m) for _, s, m in ERRORS], ids=[name for name, _, _ in ERRORS]
)
def test_invalid_shot_is_an_error_naming_the_field(shot: Any, message: str) -> None:
    with pytest.raises(ShotProtocolError) as info:
        parse_shot(shot)
    assert message in str(info.value)


def test_protocol_error_is_a_value_error() -> None:
    assert issubclass(ShotProtocolError, ValueError)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON: unexpected end of data at column 2"),
        ("", "not valid JSON: Input is a zero-length, empty document"),
        ('{"balls": {}} trailing', "not valid JSON: unexpected content after document"),
        ('{"a": 1' + "0" * 400 + "}", "not valid JSON: a number too large for a double"),
        ('{"a": 1' + "0" * 5000 + "}", "not valid JSON: a number too large for a double"),
        ('{"a": 1e999}', "not valid JSON: a number too large for a double"),
        ("[" * 2000, "not valid JSON: nested too deeply"),
        ('{"balls": "\udc80"}', "not UTF-8 text: byte 0xed at byte 12"),
        ('{"balls": {"white": [NaN, 1.0]}}', "not valid JSON: NaN is not a number JSON allows"),
        ('{"balls": {"white": [Infinity, 1.0]}}', "not valid JSON: Infinity is not a number"),
        ('{"balls": {"white": [-Infinity, 1.0]}}', "not valid JSON: -Infinity is not a number"),
        ("[" * 100_000, "not valid JSON"),
        ("[1, 2]", "expected a JSON object, got an array"),
    ],
)
def test_bad_json(text: str, message: str) -> None:
    with pytest.raises(ShotProtocolError) as info:
        loads_shot(text)
    assert str(info.value).startswith(message)


# --- valid inputs -------------------------------------------------------------------------


def test_the_protocol_example_parses() -> None:
    shot = parse_shot(SHOT)
    assert shot.balls == {"white": (0.889, 0.8), "yellow": (1.2, 2.0), "red": (0.889, 3.245)}
    assert shot.cue_ball == "white"
    assert shot.cue == Strike(speed=2.5, aim=90.0, side=0.0, height=0.3, elevation=0.0)
    assert shot.params == {"mu_r": 0.01}
    assert shot.seed is None


def test_optional_fields_default_and_null_means_absent() -> None:
    shot = parse_shot(
        {
            **shot_with(params=None),
            "strike": {"speed": 1, "aim": 0, "side": None},
            "launch": None,
            "seed": None,
        }
    )
    assert shot.cue == Strike(speed=1.0, aim=0.0, side=0.0, height=0.0, elevation=0.0)
    assert shot.params == {}


def test_launch_is_taken_as_is() -> None:
    launch = {"v": [0.0, 2.0], "w": [-2.0 / BALL_RADIUS, 0.0, 5.0]}
    shot = parse_shot(shot_with(strike=None, launch=launch))
    assert shot.cue == Launch(v=(0.0, 2.0), w=(-2.0 / BALL_RADIUS, 0.0, 5.0))


@pytest.mark.parametrize(
    "strike",
    [
        {"speed": 10, "aim": 0},
        {"speed": 1e-3, "aim": -720},
        {"speed": 2, "aim": 0, "side": 0.8},
        {"speed": 2, "aim": 0, "side": -0.48, "height": 0.64},
        {"speed": 2, "aim": 0, "elevation": 90},
    ],
)
def test_limits_are_inclusive(strike: dict[str, Any]) -> None:
    assert isinstance(parse_shot(shot_with(strike=strike)).cue, Strike)


def test_touching_balls_and_a_ball_against_a_cushion_are_allowed() -> None:
    shot = parse_shot(
        balls_with(red=[0.889 + BALL_DIAMETER, 0.8], yellow=[BALL_RADIUS, LENGTH - BALL_RADIUS])
    )
    assert set(shot.balls) == {"white", "yellow", "red"}


def test_ball_radius_override_is_used_for_overlap() -> None:
    # 5.5 cm apart: clear of each other with R = 26.25 mm, overlapping with R = 28 mm.
    shot = balls_with(red=[0.889 + 0.055, 0.8])
    parse_shot(shot)
    with pytest.raises(
        ShotProtocolError, match=r"balls\.red: at \(0\.944, 0\.8\) overlaps balls\.white"
    ):
        parse_shot({**shot, "params": {"R": 0.028}})


def test_unknown_top_level_fields_are_ignored() -> None:
    assert parse_shot({**SHOT, "comment": "break-off", "version": 1}) == parse_shot(SHOT)


def test_seed_is_an_integer() -> None:
    assert parse_shot(shot_with(seed=-42)).seed == -42


# --- the command: errors ------------------------------------------------------------------


def run_cli(args: list[str], stdin: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["shot", *args])


def test_cli_single_error_goes_to_stderr_with_status_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status = run_cli([], json.dumps(strike_with(speed=12)), monkeypatch)
    out, err = capsys.readouterr()
    assert status == 2
    assert out == ""
    assert err == "error: strike.speed: must be > 0 and at most 10, got 12\n"


def test_cli_single_bad_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli([], "not json", monkeypatch) == 2
    assert capsys.readouterr().err.startswith("error: not valid JSON: ")


def test_cli_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shot", str(tmp_path / "nope.json")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot read ")


def test_cli_batch_reports_each_bad_line_and_goes_on(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["{oops", "", "   ", json.dumps(shot_with(cue_ball="red")), "[]"]
    status = run_cli(["--batch"], "\n".join(lines) + "\n", monkeypatch)
    out, err = capsys.readouterr()
    assert status == 2
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["line"] for r in results] == [1, 4, 5]  # blank lines: no output, but counted
    assert results[0]["error"].startswith("not valid JSON")
    assert results[1]["error"].startswith("cue_ball: must be one of white, yellow")
    assert results[2]["error"] == "expected a JSON object, got an array"
    assert err.splitlines()[1].startswith("line 4: cue_ball:")


def test_cli_subprocess_error(tmp_path: Path) -> None:
    path = tmp_path / "shot.json"
    path.write_text(json.dumps(shot_with(strike=None)), encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "onered", "shot", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "error: strike, launch: one of them is required\n"


# --- drawing (hand-made result: no engine needed) -----------------------------------------


def _hand_made_result() -> ShotResult:
    white = (
        Segment(0.0, 0.5, (0.889, 0.8), (0.0, 2.0), (0.0, -1.0)),
        Segment(0.5, 1.0, (0.889, 1.675), (0.3, 0.5), (-0.6, -1.0)),
    )
    red = (Segment(0.5, 1.3, (0.889, 1.728), (0.0, 1.5), (0.0, -0.9)),)
    return ShotResult(
        events=(
            Event(0.5, EventKind.BALL_BALL, ("white", "red")),
            Event(1.3, EventKind.POCKET, ("red",), pocket="top_left"),
        ),
        rest={"white": (0.9, 2.0), "red": None},
        duration=1.3,
        paths={"white": white, "red": red},
    )


def test_draw_shot_is_well_formed_svg_with_every_ball() -> None:
    svg = draw_shot(
        {"white": (0.889, 0.8), "red": (0.889, 1.728)}, _hand_made_result(), title="a <pot> & co"
    )
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    circles = [c.get("class", "") for c in root.iter(f"{ns}circle")]
    assert circles.count("pocket") == 6
    assert circles.count("ball start") == 2
    assert circles.count("ball rest") == 1  # the red is in a pocket
    assert circles.count("event ball_ball") == 1
    paths = [p for p in root.iter(f"{ns}path") if p.get("class") == "path"]
    assert len(paths) == 2
    assert all(p.get("d", "").count("Q") >= 1 for p in paths)
    assert "a <pot> & co" in "".join(root.itertext())


# --- with the physics engine --------------------------------------------------------------

BALL_NAMES = {"white", "yellow", "red"}


def check_referee_stroke(outcome: dict[str, Any], cue: str, on_table: set[str]) -> None:
    """The outcome's fields and types are those of a valid referee ``stroke`` line
    (``fouls`` only for a jump, decision 17)."""
    assert set(outcome) - {"fouls"} == {
        "first_hit",
        "cannon",
        "potted",
        "off_table",
        "crossed_baulk",
        "touching",
        "positions",
    }
    assert outcome.get("fouls", ["jump"]) == ["jump"]
    objects = on_table - {cue}
    assert outcome["first_hit"] is None or outcome["first_hit"] in objects | {"both"}
    assert isinstance(outcome["cannon"], bool)
    assert isinstance(outcome["crossed_baulk"], bool)
    assert isinstance(outcome["touching"], bool)
    if outcome["first_hit"] == "both":
        assert outcome["cannon"]
    if outcome["cannon"]:
        assert outcome["first_hit"] is not None
    assert isinstance(outcome["potted"], list)
    assert set(outcome["potted"]) <= on_table
    assert set(outcome["off_table"]) <= on_table
    assert not set(outcome["off_table"]) & set(outcome["potted"])
    positions = outcome["positions"]
    assert set(positions) == on_table - set(outcome["potted"]) - set(outcome["off_table"])
    for p in positions.values():
        assert len(p) == 2
        assert all(isinstance(c, float) and math.isfinite(c) for c in p)
    # The referee's own reader of stroke lines takes it (types and names).
    stroke = parse_stroke({"type": "stroke", **outcome})
    assert stroke.cannon == outcome["cannon"]
    assert stroke.positions is not None
    assert {b.value for b in stroke.positions} == set(positions)


def test_straight_pot_into_a_top_pocket() -> None:
    shot = parse_shot(POT)
    out = shot_output(simulate_shot(shot), shot.cue_ball)
    pockets = [e for e in out["events"] if e["type"] == "pocket"]
    assert pockets == [
        {"t": pockets[0]["t"], "type": "pocket", "balls": ["red"], "pocket": "top_right"}
    ]
    assert out["outcome"]["potted"] == ["red"]
    assert out["outcome"]["first_hit"] == "red"
    assert out["rest"]["red"] is None
    assert "red" not in out["outcome"]["positions"]
    check_referee_stroke(out["outcome"], "white", set(POT["balls"]))


def test_output_shape_and_time_order() -> None:
    out = shot_output(simulate_shot(parse_shot(SHOT)), "white")
    assert set(out) == {"events", "rest", "duration", "outcome"}
    times = [e["t"] for e in out["events"]]
    assert times == sorted(times)
    assert all(isinstance(t, float) and math.isfinite(t) for t in times)
    assert all(0 <= t <= out["duration"] for t in times)
    kinds = {k.value for k in EventKind}
    for e in out["events"]:
        assert e["type"] in kinds
        assert set(e["balls"]) <= BALL_NAMES
        if e["type"] == "cushion":
            assert e["cushion"] in {
                "bottom",
                "top",
                "left_lower",
                "left_upper",
                "right_lower",
                "right_upper",
                "jaw",
            }
        if e["type"] == "baulk_line":
            assert e["direction"] in {"in", "out"}
    assert set(out["rest"]) == BALL_NAMES
    check_referee_stroke(out["outcome"], "white", BALL_NAMES)
    json.dumps(out, allow_nan=False)


def test_launch_gives_the_same_kind_of_output() -> None:
    launch = {"v": [0.0, 2.0], "w": [-2.0 / BALL_RADIUS, 0.0, 0.0]}
    out = shot_output(simulate_shot(parse_shot(shot_with(strike=None, launch=launch))), "white")
    assert out["outcome"]["first_hit"] == "red"  # straight up the table onto the red
    check_referee_stroke(out["outcome"], "white", BALL_NAMES)


def test_a_jump_and_a_ball_off_the_table_are_in_the_outcome() -> None:
    """Decisions 17 and 18 in the shot protocol: the cue ball struck down at 60 degrees flies
    over the red 0.3 m ahead (a jump: ``fouls``), and struck harder from near the top
    cushion it flies off the table (``off_table``, no rest position)."""
    balls = {"white": [0.9, 1.0], "red": [0.9, 1.3], "yellow": [0.3, 2.0]}
    jump = shot_with(
        balls=balls, strike={"speed": 5.0, "aim": 90.0, "height": 0.3, "elevation": 60.0}
    )
    out = shot_output(simulate_shot(parse_shot(jump)), "white")
    assert out["outcome"]["fouls"] == ["jump"]
    assert any(e["type"] == "over" and e["balls"] == ["white", "red"] for e in out["events"])
    check_referee_stroke(out["outcome"], "white", BALL_NAMES)
    balls = {"white": [0.9, 3.2], "red": [0.9, 1.0], "yellow": [0.3, 2.0]}
    off = shot_with(balls=balls, strike={"speed": 5.0, "aim": 90.0, "elevation": 45.0})
    out = shot_output(simulate_shot(parse_shot(off)), "white")
    assert out["outcome"]["off_table"] == ["white"]
    assert out["rest"]["white"] is None
    check_referee_stroke(out["outcome"], "white", BALL_NAMES)


def test_same_input_same_output() -> None:
    first = shot_output(simulate_shot(parse_shot(SHOT)), "white")
    assert shot_output(simulate_shot(parse_shot(SHOT)), "white") == first


@pytest.mark.parametrize("aim", [0.0, 33.0, 71.0, 90.0, 128.0, 200.0, 270.0, 315.0])
def test_outcomes_are_valid_strokes_from_many_directions(aim: float) -> None:
    shot = parse_shot(strike_with(aim=aim, speed=4.0, side=0.3, height=-0.2))
    check_referee_stroke(shot_output(simulate_shot(shot), "white")["outcome"], "white", BALL_NAMES)


def test_cli_single_shot_prints_the_result(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli([], json.dumps(POT), monkeypatch) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"]["potted"] == ["red"]


def test_cli_batch_mixes_results_and_errors(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [json.dumps(POT), "", json.dumps(strike_with(speed=0)), json.dumps(SHOT)]
    assert run_cli(["--batch"], "\n".join(lines), monkeypatch) == 2
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(results) == 3
    assert results[0]["outcome"]["potted"] == ["red"]
    assert results[1] == {"error": "strike.speed: must be > 0 and at most 10, got 0", "line": 3}
    assert "outcome" in results[2]


def test_cli_batch_all_good_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run_cli(["--batch"], json.dumps(POT) + "\n" + json.dumps(SHOT) + "\n", monkeypatch) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2


def test_cli_subprocess_single_and_batch(tmp_path: Path) -> None:
    path = tmp_path / "shots.jsonl"
    path.write_text(json.dumps(POT) + "\n" + json.dumps(SHOT) + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "onered", "shot"]
    single = subprocess.run(cmd, input=json.dumps(POT), capture_output=True, text=True, check=False)
    assert single.returncode == 0, single.stderr
    assert json.loads(single.stdout)["outcome"]["potted"] == ["red"]
    batch = subprocess.run(
        [*cmd, "--batch", str(path)], capture_output=True, text=True, check=False
    )
    assert batch.returncode == 0, batch.stderr
    first_hits = [json.loads(line)["outcome"]["first_hit"] for line in batch.stdout.splitlines()]
    assert first_hits == ["red", "red"]


def test_cli_svg_single(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "pot.svg"
    assert run_cli(["--svg", str(svg)], json.dumps(POT), monkeypatch) == 0
    root = ET.parse(svg).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert json.loads(capsys.readouterr().out)["outcome"]["potted"] == ["red"]


def test_cli_svg_batch_numbers_files_by_input_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "shots.svg"
    lines = [json.dumps(POT), "", "{bad", json.dumps(SHOT)]
    assert run_cli(["--batch", "--svg", str(svg)], "\n".join(lines), monkeypatch) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shots-1.svg", "shots-4.svg"]
    for name in ("shots-1.svg", "shots-4.svg"):
        ET.parse(tmp_path / name)
    assert len(capsys.readouterr().out.splitlines()) == 3


def test_cli_svg_unwritable_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    svg = tmp_path / "missing-dir" / "pot.svg"
    assert run_cli(["--svg", str(svg)], json.dumps(POT), monkeypatch) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_simultaneous_contact_with_both_object_balls_is_both() -> None:
    # The white runs straight up onto two touching balls placed symmetrically about its line.
    shot = parse_shot(
        {
            "balls": {
                "white": [0.889, 1.0],
                "red": [0.889 - BALL_RADIUS, 1.5],
                "yellow": [0.889 + BALL_RADIUS, 1.5],
            },
            "cue_ball": "white",
            "strike": {"speed": 2.0, "aim": 90.0},
        }
    )
    out = shot_output(simulate_shot(shot), "white")
    assert out["outcome"]["first_hit"] == "both"
    assert out["outcome"]["cannon"] is True
    check_referee_stroke(out["outcome"], "white", BALL_NAMES)


def test_the_referee_judges_a_simulated_opening_stroke() -> None:
    # Opening stroke: white from the D onto the red on the billiards spot, yellow not yet
    # on the table (2.3, docs/rules.md).
    start = {"white": [0.889, 0.6], "red": [0.889, 3.245]}
    shot = parse_shot({"balls": start, "cue_ball": "white", "strike": {"speed": 3, "aim": 90}})
    outcome = shot_output(simulate_shot(shot), "white")["outcome"]
    assert outcome["first_hit"] == "red"
    session = RefereeSession()
    session.feed({"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]})
    verdict, _ = session.feed({"type": "stroke", "placed": start["white"], **outcome})
    assert verdict.stroke == 1
    assert verdict.foul is None or "miss" not in {c.value for c in verdict.foul.codes}


@pytest.mark.parametrize(
    ("launch", "message"),
    [
        ({"v": [0.0, 0.0], "w": [0.0, 0.0, 0.0]}, "simulation: "),
        ({"v": [0.0, 11.0], "w": [0.0, 0.0, 0.0]}, "simulation: "),
    ],
    ids=["launch that does not move the ball", "launch faster than 10 m/s"],
)
def test_engine_refusals_are_protocol_errors(
    launch: dict[str, Any],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shot = parse_shot(shot_with(strike=None, launch=launch))
    with pytest.raises(ShotProtocolError, match=message):
        simulate_shot(shot)
    lines = [json.dumps(shot_with(strike=None, launch=launch)), json.dumps(POT)]
    assert run_cli(["--batch"], "\n".join(lines), monkeypatch) == 2
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert results[0]["error"].startswith(message)
    assert results[1]["outcome"]["potted"] == ["red"]


def test_each_segment_is_drawn_as_its_exact_quadratic_bezier() -> None:
    seg = Segment(0.2, 1.0, (0.5, 1.0), (0.4, 1.6), (-0.3, -1.2))
    result = ShotResult(
        events=(), rest={"white": (0.0, 0.0)}, duration=1.0, paths={"white": (seg,)}
    )
    root = ET.fromstring(draw_shot({"white": seg.p0}, result))
    (path,) = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("class") == "path"]
    move, curve = path.get("d", "").split(" ", 1)
    x0, y0 = map(float, move[1:].split(","))
    (cx, cy), (ex, ey) = (map(float, c.split(",")) for c in curve[1:].split(" "))
    span = seg.t1 - seg.t0
    # picture units are millimetres with y pointing down the page
    assert (cx - x0, cy - y0) == pytest.approx(
        (seg.v0[0] * span / 2 * 1000, -seg.v0[1] * span / 2 * 1000), abs=0.11
    )
    end = [seg.v0[i] * span + seg.a[i] * span**2 / 2 for i in (0, 1)]
    assert (ex - x0, ey - y0) == pytest.approx((end[0] * 1000, -end[1] * 1000), abs=0.11)


def test_a_result_without_paths_still_draws_the_balls() -> None:
    result = ShotResult(events=(), rest={"white": (0.6, 0.5), "red": None}, duration=2.0, paths={})
    root = ET.fromstring(draw_shot({"white": (0.889, 0.6), "red": (0.889, 3.245)}, result))
    classes = [c.get("class", "") for c in root.iter("{http://www.w3.org/2000/svg}circle")]
    assert classes.count("ball start") == 2
    assert classes.count("ball rest") == 1
