"""Both protocols against broken input: numbers too large for a double, bytes that are not
UTF-8, any nesting depth, wrong types and values, truncated and mutated lines. Never a
traceback: ``onered shot --batch`` answers every line (an error line for a bad one) and goes
on, ``onered referee`` stops at the bad line with ``line N: ...``; both exit 2. Also: the
output of a batch is written per batch of ready input, so a pipe gets each answer at once."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from onered.cli import main
from onered.cli.shot import batch
from onered.physics.geometry import TABLE_RANGES
from onered.physics.params import PARAM_RANGES
from onered.protocol.lines import line_batches
from onered.protocol.referee import run as referee_run
from onered.protocol.shot import TABLE_NAMES

SRC = Path(__file__).resolve().parents[2] / "src"

SHOT: dict[str, Any] = {
    "balls": {"white": [0.889, 0.8], "yellow": [1.2, 2.0], "red": [0.889, 3.245]},
    "cue_ball": "white",
    "strike": {"speed": 2.5, "aim": 90.0, "side": 0.1, "height": 0.3, "elevation": 5.0},
    "params": {"mu_r": 0.01},
    "table": {"corner_opening": 0.086},
}
GAME: list[dict[str, Any]] = [
    {"type": "match", "target": 100, "players": ["Ivanov", "Petrov"]},
    {"type": "stroke", "placed": [0.889, 0.6], "first_hit": "red", "cannon": False,
     "potted": ["red"], "positions": {"white": [0.5, 1.0]}},
    {"type": "stroke", "first_hit": "red", "fouls": ["push"]},
    {"type": "choice", "option": "from_d"},
    {"type": "stroke", "placed": [0.8, 0.6], "first_hit": None, "occupied": ["centre"]},
]  # fmt: skip


def encode(obj: object) -> bytes:
    return json.dumps(obj).encode()


# --- mutations of valid lines -------------------------------------------------------------

WRONG_VALUES: list[Any] = [None, True, "x", "", 0, -1, 1.5, [], {}, [1, 2, 3], {"a": 1}, "1e999"]
HUGE = [
    "1" + "0" * 309,
    "-1" + "0" * 400,
    "9" * 4301,
    "1" * 20000,
    "1e999",
    "-1e400",
    "1" + "0" * 30,
    "18446744073709551616",
]
BAD_BYTES = [b"\xff", b"\x80", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xfe\xff", b"\xf4\x90\x80\x80"]


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``obj``."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(obj))
    target = copy
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copy


def mutate(obj: dict[str, Any], rng: random.Random) -> bytes:
    """One broken (or, by chance, still valid) line made from a valid one."""
    kind = rng.randrange(9)
    text = encode(obj)
    path = rng.choice(_paths(obj))
    if kind == 0:  # truncated
        return text[: rng.randrange(len(text))]
    if kind == 1:  # a byte replaced, or a bad byte inserted (never a newline)
        at = rng.randrange(len(text))
        if rng.random() < 0.5:
            return text[:at] + rng.choice(BAD_BYTES) + text[at:]
        byte = rng.choice([b for b in range(256) if b != 0x0A])
        return text[:at] + bytes([byte]) + text[at + 1 :]
    if kind == 2:  # a value replaced by a number too large for a double
        marker = "__HUGE__"
        return encode(_set(obj, path, marker)).replace(b'"__HUGE__"', rng.choice(HUGE).encode())
    if kind == 3:  # a value nested deeply
        depth = rng.choice([2, 100, 999, 1023, 1024, 1025, 5000, 200_000])
        marker = "__DEEP__"
        deep = b"[" * depth + b"1" + b"]" * depth
        if rng.random() < 0.3:
            deep = b"[" * depth  # unclosed
        return encode(_set(obj, path, marker)).replace(b'"__DEEP__"', deep)
    if kind == 4:  # a value of the wrong type
        return encode(_set(obj, path, rng.choice(WRONG_VALUES)))
    if kind == 5:  # a NaN or an Infinity
        marker = "__NAN__"
        token = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"nan", b"inf"])
        return encode(_set(obj, path, marker)).replace(b'"__NAN__"', token)
    if kind == 6:  # an out-of-range parameter or pocket
        key, ranges = rng.choice([("params", PARAM_RANGES), ("table", TABLE_RANGES)])
        names = list(ranges) if key == "params" else list(TABLE_NAMES)
        value = rng.choice([0, -1, 1e-300, 1e300, 1e10, -0.0, 0.5, 3.0, 100])
        return encode({**obj, key: {rng.choice(names): value}})
    if kind == 7:  # not an object, or garbage
        return rng.choice([b"[]", b"null", b"42", b'"shot"', b"{", b"}", b"\xef\xbb\xbf{}", b"\t"])
    return text + rng.choice([b" x", b"}", b",", b"\x00", b" {}"])  # trailing content


def shot_corpus(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    lines = [mutate(SHOT, rng) for _ in range(n)]
    assert all(b"\n" not in line for line in lines)
    return lines


def referee_corpus(n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [mutate(rng.choice(GAME), rng) for _ in range(n)]


# --- onered shot --batch ------------------------------------------------------------------


def run_batch(lines: list[bytes]) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.BytesIO(), io.BytesIO()
    status = batch(io.BytesIO(b"\n".join(lines) + b"\n"), out, err)
    answers = [orjson.loads(line) for line in out.getvalue().splitlines()]
    return status, answers, err.getvalue().decode("utf-8")


def assert_one_answer_per_line(lines: list[bytes], answers: list[dict[str, Any]]) -> None:
    numbers = [i for i, line in enumerate(lines, start=1) if line.strip()]
    assert len(answers) == len(numbers)
    for number, answer in zip(numbers, answers, strict=True):
        if "error" in answer:
            assert answer["line"] == number
            assert "internal error" not in answer["error"]
        else:
            assert set(answer) == {"events", "rest", "duration", "outcome"}


def test_four_thousand_broken_shot_lines_each_get_their_own_answer() -> None:
    lines = shot_corpus(4000, seed=11)
    status, answers, err = run_batch(lines)
    assert status == 2
    assert_one_answer_per_line(lines, answers)
    errors = sum("error" in a for a in answers)
    assert errors >= 3500
    assert err.count("\n") == errors
    assert "Traceback" not in err


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=80).map(lambda b: b.replace(b"\n", b" ")),
            st.integers(min_value=0).map(lambda seed: mutate(SHOT, random.Random(seed))),
            st.just(encode(SHOT)),
            st.recursive(
                st.none() | st.booleans() | st.floats(allow_nan=False) | st.text(max_size=5),
                lambda inner: (
                    st.lists(inner, max_size=3)
                    | st.dictionaries(st.sampled_from(list(SHOT)), inner, max_size=4)
                ),
                max_leaves=12,
            ).map(lambda v: encode(v)),
        ),
        min_size=1,
        max_size=12,
    )
)
def test_generated_shot_lines_never_lose_a_line(lines: list[bytes]) -> None:
    status, answers, _ = run_batch(lines)
    assert_one_answer_per_line(lines, answers)
    assert status == (2 if any("error" in a for a in answers) else 0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b'{"balls": {"white": [1' + b"0" * 309 + b", 1.0]}}", "a number too large for a double"),
        (b'{"balls": {"white": [' + b"9" * 4301 + b", 1.0]}}", "a number too large for a double"),
        (b'{"balls": "\xff"}', "not UTF-8 text: byte 0xff at byte 12"),
        (b"[" * 100_000, "nested too deeply"),
        (b"[" * 700, "not valid JSON: unexpected end of data"),
        (b'{"a": ' + b"[" * 900 + b"]" * 900 + b"}", "balls: required"),
        (b'{"balls": ' + b"[" * 900 + b"]" * 900 + b"}", "balls: expected an object, got an"),
    ],
    ids=[
        "309 digits",
        "4301 digits",
        "bad byte",
        "deep",
        "deep unclosed",
        "deep unknown field",
        "deep value",
    ],
)
def test_a_bad_line_in_a_batch_spoils_only_itself(bad: bytes, message: str) -> None:
    status, answers, err = run_batch([encode(SHOT), bad, encode(SHOT)])
    assert status == 2
    assert "outcome" in answers[0]
    assert "outcome" in answers[2]
    assert answers[1]["line"] == 2
    assert message in answers[1]["error"]
    assert err.startswith(f"line 2: {answers[1]['error']}")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"balls": {"white": [1' + b"0" * 400 + b", 1]}}", "error: not valid JSON: a number"),
        (b'{"cue_ball": "wh\xffite"}', "error: not UTF-8 text: byte 0xff"),
        (b"[" * 50_000 + b"]" * 50_000, "error: not valid JSON: nested too deeply"),
        (b'{"balls": {}, "params": {"g": 1e-300}}', "error: params.g: must lie in [1, 30]"),
    ],
)
def test_single_mode_reports_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, message: str
) -> None:
    path = tmp_path / "shot.json"
    path.write_bytes(data)
    assert main(["shot", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(message)
    assert err.count("\n") == 1


# --- onered referee -----------------------------------------------------------------------


def run_referee(lines: list[bytes]) -> tuple[int, list[dict[str, Any]], str]:
    out, err = io.BytesIO(), io.StringIO()
    status = referee_run(io.BytesIO(b"\n".join(lines) + b"\n"), out, err)
    return status, [orjson.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_the_game_used_for_fuzzing_is_valid() -> None:
    status, verdicts, err = run_referee([encode(line) for line in GAME])
    assert (status, err, len(verdicts)) == (0, "", len(GAME))


def test_three_thousand_broken_referee_lines_each_stop_the_game_at_their_line() -> None:
    prefix = [encode(line) for line in GAME[:2]]
    stopped = 0
    for bad in referee_corpus(3000, seed=5):
        status, verdicts, err = run_referee([*prefix, bad])
        assert "internal error" not in err
        assert "Traceback" not in err
        if status == 0:  # a mutation that is still a valid line, or a blank one
            assert len(verdicts) == (3 if bad.strip() else 2)
            continue
        stopped += 1
        assert status == 2
        assert len(verdicts) == 2  # every verdict before the bad line
        assert err.startswith("line 3: ")
        assert err.count("\n") == 1
    assert stopped >= 2500


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"\n", b" ")))
def test_any_bytes_after_the_match_line_are_judged_or_refused(bad: bytes) -> None:
    status, verdicts, err = run_referee([encode(GAME[0]), bad])
    if bad.strip():
        assert status in (0, 2)
        assert (len(verdicts), err.startswith("line 2: ")) == (
            (2, False) if status == 0 else (1, True)
        )
    else:
        assert (status, len(verdicts)) == (0, 1)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (b'{"type": "stroke", "placed": [0.8, 1' + b"0" * 309 + b"]}", "a number too large"),
        (b'{"type": "stroke", "striker": "\xff"}', "not UTF-8 text: byte 0xff"),
        (b'{"type": "stroke", "positions": ' + b"[" * 5000, "nested too deeply"),
        (b'{"type": "stroke", "positions": ' + b"[" * 990 + b"]" * 990 + b"}", "positions: "),
    ],
)
def test_a_bad_referee_line_is_reported_with_its_number(bad: bytes, message: str) -> None:
    status, verdicts, err = run_referee([encode(GAME[0]), b"", bad, encode(GAME[1])])
    assert status == 2
    assert len(verdicts) == 1
    assert err.startswith("line 3: ")
    assert message in err


def test_a_bad_byte_before_the_match_line_is_at_its_own_line() -> None:
    status, verdicts, err = run_referee([b"", b"\xff"])
    assert (status, verdicts) == (2, [])
    assert err == "line 2: not UTF-8 text: byte 0xff at byte 1\n"


# --- through the command, once ------------------------------------------------------------


def command(*args: str, stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "onered", *args],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_the_shot_command_answers_every_broken_line(tmp_path: Path) -> None:
    lines = shot_corpus(1000, seed=23)
    path = tmp_path / "broken.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    done = command("shot", "--batch", str(path), stdin=b"")
    assert done.returncode == 2
    assert b"Traceback" not in done.stderr
    answers = [orjson.loads(line) for line in done.stdout.splitlines()]
    assert_one_answer_per_line(lines, answers)


@pytest.mark.parametrize(
    "bad",
    [b"\xff\xfe", b'{"type": "stroke", "placed": [' + b"9" * 5000 + b", 1]}", b"[" * 300_000],
    ids=["bad bytes", "5000 digits", "deep"],
)
def test_the_referee_command_reports_a_broken_line(bad: bytes) -> None:
    game = b"\n".join(encode(line) for line in GAME[:2]) + b"\n"
    done = command("referee", stdin=game + bad + b"\n" + encode(GAME[2]) + b"\n")
    assert done.returncode == 2
    assert len(done.stdout.splitlines()) == 2
    assert done.stderr.decode().startswith("line 3: ")
    assert b"Traceback" not in done.stderr


# --- answers are written per batch of ready input ------------------------------------------


def test_line_batches_give_what_a_pipe_has_ready_without_waiting_for_more() -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, "rb") as reader, os.fdopen(write_end, "wb") as writer:
        batches = line_batches(reader)
        writer.write(b"one\n")
        writer.flush()
        assert next(batches) == [b"one"]  # the writer is still open: no waiting for EOF
        writer.write(b"two\nthree\nfour")
        writer.flush()
        assert next(batches) == [b"two", b"three"]
        writer.close()
        assert next(batches) == [b"four"]
        assert next(batches, None) is None


@pytest.mark.parametrize(
    ("args", "first", "second"),
    [
        (["shot", "--batch"], encode(SHOT), encode(SHOT)),
        (["referee"], encode(GAME[0]), encode(GAME[1])),
    ],
    ids=["shot", "referee"],
)
def test_an_interactive_user_gets_each_answer_at_once(
    args: list[str], first: bytes, second: bytes
) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "onered", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    got: list[bytes] = []

    def read_one() -> None:
        assert proc.stdout is not None
        got.append(proc.stdout.readline())

    try:
        for line in (first, second):
            proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            reader = threading.Thread(target=read_one, daemon=True)
            reader.start()
            reader.join(timeout=30)  # stdin stays open: the answer must come anyway
            assert not reader.is_alive(), "no answer while the input stays open"
            assert got[-1].endswith(b"\n")
            orjson.loads(got[-1])
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
    assert proc.returncode == 0


@pytest.mark.parametrize("args", [["shot", "--batch"], ["referee"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(args: list[str], tmp_path: Path) -> None:
    lines = [encode(SHOT)] * 3000 if args[0] == "shot" else [encode(GAME[0])]
    if args[0] == "referee":
        lines += [encode({"type": "stroke", "placed": [0.8, 0.6], "first_hit": "red"})]
        lines += [encode({"type": "stroke", "first_hit": "red"})] * 30_000
    path = tmp_path / "input.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "onered", *args, str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 2
    assert b"Traceback" not in err
    assert b"BrokenPipe" not in err
