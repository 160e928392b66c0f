"""The ``onered`` dispatcher: a wrong flag shows the subcommand's usage; a reader that goes
away (``onered … | head``) ends the command quietly."""

from __future__ import annotations

import subprocess
import sys

import pytest

from onered.cli import main


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["play", "--bogus"], "usage: onered play "),
        (["referee", "--bogus", "x"], "usage: onered referee "),
        (["study", "games", "--bogus"], "usage: onered study games "),
        (["--bogus"], "usage: onered [-h]"),
    ],
)
def test_a_wrong_flag_prints_the_usage_of_its_subcommand(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(usage)
    assert "unrecognized arguments: --bogus" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--target", "30", "--p1", "ai:novice", "--p2", "ai:novice"],
        ["referee", "--summary", "examples/century-break.jsonl"],
    ],
)
def test_a_closed_pipe_ends_the_command_quietly(argv: list[str]) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "onered", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        assert proc.stdout is not None
        assert proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # the reader goes away, as `head -1` does
        err = proc.stderr.read().decode()
        status = proc.wait()
    assert "Traceback" not in err
    assert "BrokenPipeError" not in err
    assert status in (0, 1)
