"""The shot protocol's batch path (``onered.protocol.shot_batch.play_lines``): for any
lines, the answers are byte for byte those of ``play_line`` line by line (the same output,
or the same error), and the common lines take the batch's engine call, a bad one among them
taking the single path alone."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.cli.shot import batch
from onered.protocol import shot_batch
from onered.protocol.shot import ShotProtocolError, play_line
from onered.protocol.shot_batch import play_lines
from onered.table import BALL_DIAMETER, BALL_RADIUS, LENGTH, WIDTH

NAMES = ("white", "yellow", "red")


def one_by_one(lines: list[bytes]) -> list[bytes | str]:
    """Each line's answer by the single path: its output, or its error's type and text."""
    out: list[bytes | str] = []
    for line in lines:
        try:
            out.append(play_line(line))
        except Exception as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def together(lines: list[bytes]) -> list[bytes | str]:
    """The same from the batch path."""
    return [
        got if isinstance(got, bytes) else f"{type(got).__name__}: {got}"
        for got in play_lines(lines)
    ]


def _point(draw: st.DrawFn, others: list[list[float]]) -> list[float]:
    """A ball's centre: anywhere on the bed, against a cushion or a pocket, touching or
    overlapping another ball, or off the table."""
    kind = draw(st.sampled_from(["free"] * 6 + ["touch", "edge", "off"]))
    if kind == "touch" and others:
        x, y = draw(st.sampled_from(others))
        angle = draw(st.floats(0, 2 * math.pi))
        gap = draw(st.sampled_from([0.0, 1e-9, 5e-7, 2e-6, 0.01, -1e-4]))
        r = BALL_DIAMETER + gap
        return [x + r * math.cos(angle), y + r * math.sin(angle)]
    if kind == "edge":
        x = draw(st.sampled_from([BALL_RADIUS, WIDTH - BALL_RADIUS, 0.01, WIDTH / 2]))
        return [x, draw(st.floats(0.0, LENGTH))]
    if kind == "off":
        return [draw(st.floats(-0.1, WIDTH + 0.1)), draw(st.floats(-0.1, LENGTH + 0.1))]
    return [
        draw(st.floats(BALL_RADIUS, WIDTH - BALL_RADIUS)),
        draw(st.floats(BALL_RADIUS, LENGTH - BALL_RADIUS)),
    ]


@st.composite
def shot_lines(draw: st.DrawFn) -> bytes:
    """A shot line: mostly the common form (any balls in any order, a strike that may be
    hard, elevated, at the limits or beyond them), and now and then a launch, overrides,
    integers, nulls, a wrong field or no JSON at all."""
    names = draw(st.permutations(NAMES))[: draw(st.integers(1, 3))]
    balls: dict[str, list[float]] = {}
    for name in names:
        balls[name] = _point(draw, list(balls.values()))
    cue = draw(st.sampled_from([n for n in names if n != "red"] or ["white"]))
    target = draw(st.sampled_from(list(balls.values())))
    start = balls.get(cue, target)
    aim = math.degrees(math.atan2(target[1] - start[1], target[0] - start[0]))
    if draw(st.integers(0, 9)) == 0:  # the white straight between two touching balls
        balls = {"white": [0.889, 1.0], "red": [0.889 - BALL_RADIUS, 2.0]}
        balls["yellow"] = [0.889 + BALL_RADIUS, 2.0]
        cue, aim = "white", 90.0
    strike: dict[str, Any] = {
        "speed": draw(st.sampled_from([0.3, 1.0, 2.5, 4.0, 6.0, 10.0] * 3 + [10.5, 0.0])),
        "aim": aim + draw(st.sampled_from([0.0, 0.0, 0.5, -3.0, 20.0, 180.0])),
        "side": draw(st.sampled_from([0.0, 0.0, 0.3, -0.5, None, 0.8])),
        "height": draw(st.sampled_from([0.0, 0.0, 0.4, -0.6, None, 0.6 + 1e-10])),
    }
    elevation = draw(st.sampled_from([None, 0.0, 0.0, None, 0.0, 5.0, 30.0, 80.0, 95.0]))
    if elevation is not None:
        strike["elevation"] = elevation
    obj: dict[str, Any] = {"balls": balls, "cue_ball": cue, "strike": strike}
    extra = draw(
        st.sampled_from(["none"] * 16 + ["launch", "params", "int", "seed", "bad", "text"])
    )
    if extra == "launch":
        del obj["strike"]
        obj["launch"] = {"v": [0.3, 2.0], "w": [-60.0, 0.0, 5.0]}
    elif extra == "params":
        obj["params"] = {"mu_r": 0.01}
    elif extra == "int":
        strike["speed"] = 2
        strike["aim"] = 90
    elif extra == "seed":
        obj["seed"] = draw(st.sampled_from([7, True, "x", None]))
    elif extra == "bad":
        obj["cue_ball"] = draw(st.sampled_from(["red", "green", 3]))
    elif extra == "text":
        return draw(st.sampled_from([b"{", b"[1]", b"\xff{}", b'{"balls": NaN}']))
    return json.dumps(obj).encode()


@settings(max_examples=150)
@given(st.lists(shot_lines(), min_size=1, max_size=24))
def test_batch_answers_are_the_single_paths(lines: list[bytes]) -> None:
    with pytest.MonkeyPatch.context() as patch:  # (every group a batch call, however small)
        patch.setattr(shot_batch, "FEWEST", 1)
        assert together(lines) == one_by_one(lines)


def test_a_few_lines_are_played_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [json.dumps(_aimed(k)).encode() for k in range(shot_batch.FEWEST - 1)]
    singles: list[bytes | str] = []

    def counted(line: bytes | str) -> bytes:
        singles.append(line)
        return play_line(line)

    monkeypatch.setattr(shot_batch, "play_line", counted)
    assert together(lines) == one_by_one(lines)
    assert singles == lines


def _aimed(k: int) -> dict[str, Any]:
    """A plain 3-ball shot, the white aimed at the red (k varies the speed)."""
    return {
        "balls": {"white": [0.889, 0.8], "yellow": [1.2, 2.0], "red": [0.889, 2.5]},
        "cue_ball": "white",
        "strike": {"speed": 1.0 + 0.1 * k, "aim": 90.0 + 0.2 * k, "side": 0.1},
    }


def test_common_lines_take_the_batch_and_a_bad_line_takes_the_single_path_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [json.dumps(_aimed(k)).encode() for k in range(40)]
    overlapping = _aimed(0)
    overlapping["balls"]["yellow"] = [0.889, 0.8 + BALL_DIAMETER / 2]  # into the white
    lines[17] = json.dumps(overlapping).encode()
    expected = one_by_one(lines)
    singles: list[bytes | str] = []

    def counted(line: bytes | str) -> bytes:
        singles.append(line)
        return play_line(line)

    monkeypatch.setattr(shot_batch, "play_line", counted)
    assert together(lines) == expected
    assert singles == [lines[17]]
    assert expected[17] == "ShotProtocolError: balls.white: at (0.889, 0.8) overlaps balls.yellow"


def test_an_error_stays_on_its_line_in_the_command() -> None:
    lines = [json.dumps(_aimed(k)) for k in range(20)]
    lines[2] = json.dumps({**_aimed(2), "strike": {"speed": 12, "aim": 0}})
    out, err = io.BytesIO(), io.BytesIO()
    assert batch(io.BytesIO(("\n".join(lines) + "\n").encode()), out, err) == 2
    answers = out.getvalue().decode().splitlines()
    assert len(answers) == 20
    assert json.loads(answers[2]) == {
        "error": "strike.speed: must be > 0 and at most 10, got 12",
        "line": 3,
    }
    for k in (0, 1, *range(3, 20)):
        assert answers[k].encode() + b"\n" == play_line(lines[k])
    assert err.getvalue() == b"line 3: strike.speed: must be > 0 and at most 10, got 12\n"


def test_an_unexpected_failure_is_reported_on_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(line: bytes | str) -> bytes:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(shot_batch, "play_line", broken)
    lines = [b"{}"] + [json.dumps(_aimed(k)).encode() for k in range(shot_batch.FEWEST)]
    got = play_lines(lines)
    assert isinstance(got[0], ZeroDivisionError)
    assert got[1:] == [play_line(line) for line in lines[1:]]
    with pytest.raises(ShotProtocolError):
        play_line(b"{}")


def test_a_failure_of_the_batch_leaves_its_lines_to_the_single_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(shots: object, names: object) -> list[bytes | None]:
        raise RuntimeError("a bug in the batch")

    lines = [json.dumps(_aimed(k)).encode() for k in range(shot_batch.FEWEST)]
    monkeypatch.setattr(shot_batch, "_write", broken)
    assert play_lines(lines) == [play_line(line) for line in lines]
