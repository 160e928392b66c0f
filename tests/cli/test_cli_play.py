"""``onered play`` checks its names and target as importing a game does (``game.validate``):
what the command accepts, it records so that import reads it back; what import refuses, the
command refuses before playing."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from onered.cli import main
from onered.game.record import RecordError
from onered.game.session import Session


def _play(tmp_path: Path, *extra: str) -> tuple[int, str, Path]:
    path = tmp_path / "game.jsonl"
    path.unlink(missing_ok=True)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        status = main(
            [
                *("play", "--quiet", "--no-lag", "--max-strokes", "1", "--record", str(path)),
                *("--p1", "ai:novice", "--p2", "ai:novice", *extra),
            ]
        )
    return status, err.getvalue(), path


def _imports(path: Path) -> bool:
    try:
        Session.from_text(path.read_text(encoding="utf-8"))
    except RecordError:
        return False
    return True


def test_a_target_import_refuses_is_refused_before_playing(tmp_path: Path) -> None:
    status, err, path = _play(tmp_path, "--target", "200000")
    assert status == 2
    assert err.startswith("onered play: --target:")
    assert "200000" in err
    assert "Traceback" not in err
    assert not path.exists()


@pytest.mark.parametrize(
    ("names", "where"),
    [("Ann,ann", "--names"), ("Ann", "--names"), ("Ann,\u200bBob", "--names[1]"), (",Bob", "")],
)
def test_names_import_refuses_are_refused(tmp_path: Path, names: str, where: str) -> None:
    status, err, path = _play(tmp_path, f"--names={names}")
    assert status == 2
    assert err.startswith(f"onered play: {where}")
    assert not path.exists()


def test_names_are_written_as_import_keeps_them(tmp_path: Path) -> None:
    status, _, path = _play(tmp_path, "--names", "  Ann   Lee , Bob", "--target", "3")
    assert status == 0
    assert Session.from_text(path.read_text(encoding="utf-8")).match.players == ("Ann Lee", "Bob")


_NAME = st.one_of(
    st.text(st.sampled_from("Ann Bob\tЁж"), max_size=45),  # mostly names import keeps
    st.text(st.characters(codec="utf-8", exclude_characters=","), max_size=45),
)


@settings(max_examples=25)
@given(a=_NAME, b=_NAME, target=st.one_of(st.integers(1, 200), st.integers(-5, 200_000)))
def test_the_command_refuses_exactly_what_import_refuses(
    tmp_path_factory: pytest.TempPathFactory, a: str, b: str, target: int
) -> None:
    tmp_path = tmp_path_factory.mktemp("names")
    status, err, path = _play(tmp_path, f"--names={a},{b}", f"--target={target}")
    event(f"status {status}")
    if status == 0:
        assert _imports(path)
    else:
        assert status == 2
        assert "Traceback" not in err
        assert not path.exists()
