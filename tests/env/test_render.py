"""Rendering the environments: the modes' frames (an RGB array of the SVG drawer's picture,
a text picture, the text printed), the checkers of Gymnasium and PettingZoo with a render
mode, videos, and an episode written as a game record that ``onered replay`` plays again
to the same score (the seam "an episode's record replays")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, render_test

import onered.env
from onered.cli import main
from onered.env import AGENTS, ENV_ID, SnookerOneRedAEC, SnookerOneRedEnv, aec_env
from onered.env.render import (
    ANSI_ROWS,
    RENDER_FPS,
    RENDER_MODES,
    RenderError,
    bed_grid,
    save_video,
)
from onered.game.model import StrokeRecord
from onered.game.record import read_record
from onered.game.replay import replay
from onered.physics import TableSpec
from onered.rules import Ball, Option

ACTIONS = len(onered.env.ACTION_NAMES)


def random_actions(seed: int, n: int = 64) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return list(rng.uniform(-1, 1, size=(n, ACTIONS)).astype(np.float32))


def play_out(env: gym.Env[np.ndarray, np.ndarray], seed: int, steps: int = 200) -> None:
    """Random actions from ``seed`` until the episode ends (or ``steps`` are played)."""
    env.reset(seed=seed)
    for action in random_actions(seed, steps):
        _, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            return


def play_aec(env: SnookerOneRedAEC, seed: int) -> None:
    """Random actions for both agents until the game ends."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in env.agent_iter(max_iter=5000):
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else rng.uniform(-1, 1, ACTIONS))


# --- modes and frames ------------------------------------------------------------------------


def test_every_form_declares_its_render_modes_and_fps() -> None:
    for cls in (SnookerOneRedEnv, SnookerOneRedAEC):
        assert cls.metadata["render_modes"] == list(RENDER_MODES)
        assert cls.metadata["render_fps"] == RENDER_FPS
    vector = onered.env.SnookerOneRedVectorEnv.metadata
    assert vector["render_modes"] == ["rgb_array", "ansi"]
    assert vector["render_fps"] == RENDER_FPS


@pytest.mark.parametrize("mode", [None, "rgb_array", "ansi", "human"])
def test_gym_make_takes_each_render_mode(mode: str | None) -> None:
    env = gym.make(ENV_ID, render_mode=mode, target=30)
    assert env.render_mode == mode
    env.reset(seed=0)
    env.step(env.action_space.sample())


def test_rgb_array_is_an_rgb_picture_of_the_table() -> None:
    env = gym.make(ENV_ID, render_mode="rgb_array", target=30, render_width=200)
    env.reset(seed=1)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    assert frame.dtype == np.uint8
    assert frame.ndim == 3
    assert frame.shape[1] == 200
    assert frame.shape[2] == 3
    assert 1.8 < frame.shape[0] / frame.shape[1] < 2.1  # the table, seen from the baulk end
    # the cloth: green is the most common strong colour in the middle of the picture
    middle = frame[frame.shape[0] // 3 : 2 * frame.shape[0] // 3, 40:-40].reshape(-1, 3)
    green = (middle[:, 1].astype(int) > middle[:, 0] + 40) & (middle[:, 1] > middle[:, 2] + 40)
    assert green.mean() > 0.8


def test_a_frame_changes_after_a_stroke() -> None:
    env = gym.make(ENV_ID, render_mode="rgb_array", target=30, render_width=160)
    env.reset(seed=2)
    before = env.render()
    env.step(random_actions(2)[0])
    after = env.render()
    assert isinstance(before, np.ndarray)
    assert isinstance(after, np.ndarray)
    assert before.shape == after.shape
    assert (before != after).any(axis=2).sum() > 100


def test_ansi_shows_the_score_the_turn_the_verdict_and_the_balls() -> None:
    env = gym.make(ENV_ID, render_mode="ansi", target=30)
    env.reset(seed=3)
    first = env.render()
    assert isinstance(first, str)
    assert "last stroke: none yet" in first
    for action in random_actions(3, 4):
        env.step(action)
    text = env.render()
    assert isinstance(text, str)
    score = env.unwrapped.frame.game.state.score
    names = env.unwrapped.frame.names
    assert f"{names[0]} {score[0]} : {score[1]} {names[1]} (to 30)" in text.splitlines()[0]
    assert text.splitlines()[1].startswith(("to play: ", "agent wins", "opponent wins"))
    assert text.splitlines()[2].startswith("last stroke (")
    for ball in env.unwrapped.frame.game.balls:
        assert {Ball.WHITE: "W", Ball.YELLOW: "Y", Ball.RED: "R"}[ball] in text


def test_the_bed_grid_puts_each_ball_in_its_cell_with_baulk_line_and_d() -> None:
    table = TableSpec()
    lines = bed_grid({Ball.RED: (0.889, 3.245), Ball.WHITE: (0.03, 0.03)}, table)
    assert len(lines) == ANSI_ROWS + 2
    assert lines[0] == lines[-1]
    assert lines[0].startswith("o")
    assert lines[0].endswith("o")
    assert lines[1 + ANSI_ROWS // 2][0] == "o"  # the middle pockets
    assert lines[4].index("R") == 1 + 18  # the red on the billiards spot, in the middle
    assert lines[-2][1] == "W"  # the white in the bottom left corner
    assert any(set(line[1:-1]) == {"-"} for line in lines[1:-1])  # the baulk line
    assert sum(line.count(".") for line in lines) > 10  # the D


def test_two_balls_in_one_cell_stand_side_by_side() -> None:
    lines = bed_grid({Ball.WHITE: (1.0, 2.0), Ball.YELLOW: (1.01, 2.0)}, TableSpec())
    row = next(line for line in lines if "W" in line)
    assert "Y" in row


def test_human_prints_the_text_picture_and_render_returns_none(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = gym.make(ENV_ID, render_mode="human", target=30)
    env.reset(seed=4)
    assert "agent 0 : 0 opponent" in capsys.readouterr().out
    env.step(random_actions(4)[0])
    assert "last stroke (" in capsys.readouterr().out
    assert env.render() is None


def test_without_a_mode_render_returns_none() -> None:
    env = SnookerOneRedEnv(target=30)
    env.reset(seed=0)
    assert env.render() is None


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"render_mode": "video"}, "render_mode"),
        ({"render_mode": 3}, "render_mode"),
        ({"render_mode": "ansi", "render_width": 0}, "render_width"),
        ({"render_mode": "rgb_array", "render_width": True}, "render_width"),
    ],
)
def test_a_bad_render_setting_is_refused_by_name(settings: dict[str, object], named: str) -> None:
    for make in (SnookerOneRedEnv, SnookerOneRedAEC):
        with pytest.raises(RenderError, match=named):
            make(**settings)


def test_render_before_reset_asks_for_a_reset() -> None:
    with pytest.raises(gym.error.ResetNeeded):
        SnookerOneRedEnv(render_mode="ansi").render()


# --- the checkers ----------------------------------------------------------------------------


def test_gymnasiums_env_checker_passes_with_its_render_checks(
    recwarn: pytest.WarningsRecorder,
) -> None:
    env = gym.make(ENV_ID, render_mode="rgb_array", target=30)
    check_env(env.unwrapped)  # every declared mode is made from the spec and rendered
    render_warnings = [w for w in recwarn if "render" in str(w.message).lower()]
    assert render_warnings == []


def test_pettingzoos_render_test_passes() -> None:
    render_test(lambda render_mode=None: aec_env(render_mode=render_mode, target=30))


def test_pettingzoos_api_test_passes_while_rendering() -> None:
    api_test(aec_env(render_mode="ansi", target=30), num_cycles=100)


def test_aec_rgb_array_frame() -> None:
    env = aec_env(render_mode="rgb_array", target=30, render_width=120)
    env.reset(seed=0)
    env.step(env.action_space(AGENTS[0]).sample())
    frame = env.render()
    assert frame.dtype == np.uint8
    assert frame.shape[1:] == (120, 3)


def test_vector_form_renders_every_table() -> None:
    envs = gym.make_vec(ENV_ID, num_envs=3, render_mode="ansi", target=30)
    assert envs.render_mode == "ansi"
    envs.reset(seed=0)
    envs.step(envs.action_space.sample())
    frames = envs.render()
    assert isinstance(frames, tuple)
    assert len(frames) == 3
    assert all(isinstance(f, str) and "agent" in f for f in frames)
    rgb = onered.env.SnookerOneRedVectorEnv(2, render_mode="rgb_array", render_width=64)
    rgb.reset(seed=0)
    pictures = rgb.render()
    assert pictures is not None
    assert [p.shape[1:] for p in pictures] == [(64, 3), (64, 3)]
    envs.close()
    rgb.close()


def test_vector_form_renders_in_one_process_only() -> None:
    with pytest.raises(RenderError, match="workers=1"):
        onered.env.SnookerOneRedVectorEnv(4, workers=2, render_mode="ansi")


# --- videos ----------------------------------------------------------------------------------


def test_save_video_writes_an_mp4_of_the_frames(tmp_path: Path) -> None:
    imageio = pytest.importorskip("imageio.v2")
    pytest.importorskip("imageio_ffmpeg")
    env = gym.make(ENV_ID, render_mode="rgb_array", target=30, render_width=96)
    env.reset(seed=5)
    frames = [env.render()]
    for action in random_actions(5, 3):
        env.step(action)
        frames.append(env.render())
    path = save_video(frames, tmp_path / "episode.mp4")
    assert path.stat().st_size > 1000
    with imageio.get_reader(path) as reader:
        video = [np.asarray(frame) for frame in reader]
    assert len(video) == len(frames)
    height, width, _ = video[0].shape
    assert width % 16 == 0 == height % 16  # padded to the codec's blocks, not resized
    assert width >= 96
    assert height >= frames[0].shape[0]


def test_save_video_refuses_bad_frames_by_name(tmp_path: Path) -> None:
    pytest.importorskip("imageio")
    good = np.zeros((32, 16, 3), dtype=np.uint8)
    with pytest.raises(RenderError, match="no frame"):
        save_video([], tmp_path / "a.mp4")
    with pytest.raises(RenderError, match=r"frames\[1\]"):
        save_video([good, np.zeros((16, 16, 3), dtype=np.uint8)], tmp_path / "a.mp4")
    with pytest.raises(RenderError, match=r"frames\[0\]"):
        save_video([good.astype(np.float32)], tmp_path / "a.mp4")
    with pytest.raises(RenderError, match="fps"):
        save_video([good], tmp_path / "a.mp4", fps=0)


def test_gymnasiums_record_video_works_when_moviepy_is_installed(tmp_path: Path) -> None:
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make(ENV_ID, render_mode="rgb_array", target=10, max_strokes=6, render_width=96),
        str(tmp_path / "videos"),
        episode_trigger=lambda _: True,
        disable_logger=True,
    )
    play_out(env, 6)
    env.close()
    assert list((tmp_path / "videos").glob("*.mp4"))


# --- the game record -------------------------------------------------------------------------


def final_score(path: Path) -> tuple[tuple[int, int] | None, bool]:
    """The score after the last stroke ``onered replay``'s replay played again, and whether
    the replay was identical to the record."""
    with path.open(encoding="utf-8") as handle:
        record = read_record(handle)
    last: list[StrokeRecord] = []
    report = replay(record, on_stroke=last.append)
    return (last[-1].verdict.score if last else None), report.identical


@settings(max_examples=25)
@given(
    seed=st.integers(0, 2**31 - 1),
    target=st.integers(5, 40),
    max_strokes=st.integers(1, 40),
    first=st.sampled_from([None, True, False]),
)
def test_an_episodes_record_replays_to_its_score(
    tmp_path_factory: pytest.TempPathFactory,
    seed: int,
    target: int,
    max_strokes: int,
    first: bool | None,
) -> None:
    env = SnookerOneRedEnv(target=target, max_strokes=max_strokes, agent_first=first)
    play_out(env, seed)
    path = env.save_record(tmp_path_factory.mktemp("record") / "episode.jsonl")
    score, identical = final_score(path)
    game = env.frame.game
    assert identical
    assert score == game.state.score
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header["players"] == list(env.frame.names)
    assert header["seed"] == seed
    assert header["entrants"] == {"agent": "learner", "opponent": "random"}
    assert len(game.history) == len(path.read_text(encoding="utf-8").splitlines()) - 1


def test_a_two_agent_games_record_replays_to_its_score(tmp_path: Path) -> None:
    env = SnookerOneRedAEC(target=20, max_strokes=80)
    play_aec(env, 7)
    path = env.save_record(tmp_path / "game.jsonl")
    score, identical = final_score(path)
    assert identical
    assert score == env.frame.game.state.score


def test_onered_replay_and_advise_read_an_episodes_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = SnookerOneRedEnv(target=20, max_strokes=12)
    play_out(env, 8)
    path = env.save_record(tmp_path / "episode.jsonl")
    assert main(["replay", str(path)]) == 0
    assert "identical to the record" in capsys.readouterr().out
    args = ["advise", "--record", str(path), "--stroke", "2", "--level", "beginner"]
    assert main([*args, "--samples", "20", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["suggestions"]


def test_a_record_that_cannot_be_written_is_named(tmp_path: Path) -> None:
    env = SnookerOneRedEnv(target=20)
    env.reset(seed=0)
    with pytest.raises(RenderError, match="cannot write the record"):
        env.save_record(tmp_path / "missing" / "episode.jsonl")


def test_frames_draw_the_cloth_flat() -> None:
    """The rasteriser's style sheet (``FLAT_STYLE``) still finds the drawer's cloth: the
    middle of the bed is one colour (the gradient would cost twice the time)."""
    env = gym.make(ENV_ID, render_mode="rgb_array", target=30, render_width=160)
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray)
    h, w, _ = frame.shape
    patch = frame[h // 2 - 30 : h // 2 - 10, w // 4 : w // 2].reshape(-1, 3)
    assert len(np.unique(patch, axis=0)) == 1


def test_ansi_says_a_foul_and_whom_its_penalty_goes_to() -> None:
    env = gym.make(ENV_ID, render_mode="ansi", target=100)
    env.reset(seed=11)
    said = []
    for action in random_actions(11, 40):
        env.step(action)
        text = env.render()
        assert isinstance(text, str)
        said.append(text.splitlines()[2])
    fouls = [line for line in said if "foul:" in line]
    assert fouls  # the random opponent fouls often
    assert all(re.search(r"foul: [a-z ,-]+; \d+ to (agent|opponent)$", line) for line in fouls)


def test_a_record_against_an_ai_level_replays_with_its_intents(tmp_path: Path) -> None:
    env = SnookerOneRedEnv(target=20, max_strokes=10, opponent="novice", agent_first=False)
    play_out(env, 9)
    path = env.save_record(tmp_path / "episode.jsonl")
    score, identical = final_score(path)
    assert identical
    assert score == env.frame.game.state.score
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["entrants"]["opponent"] == "ai:novice"
    assert any("intent" in line for line in lines if line.get("striker") == "opponent")


def test_a_game_that_cannot_be_played_again_is_refused_not_recorded() -> None:
    """Should the environment's game and the one played again ever part (or the history
    hold a stroke the game refuses), the record is refused by name, never written wrong."""
    env = SnookerOneRedEnv(target=30)
    play_out(env, 10, steps=3)
    lean = env.frame.game
    lean.balls = {**lean.balls, Ball.RED: (0.5, 2.5)}  # the table moved behind its back
    with pytest.raises(RenderError, match="differs from the environment's"):
        env.record()
    env.reset(seed=10)
    lean = env.frame.game
    lean.history.append(Option.FROM_D)  # no foul option is pending at the opening
    with pytest.raises(RenderError, match="cannot be played again"):
        env.record()
