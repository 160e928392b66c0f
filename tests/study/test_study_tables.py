"""Tables a paper can use: every stroke's position before and after (written and as
coordinates), its placement and pockets; a game record per game that replays to the game's
score and that the coach reads; the spec and versions in every table's metadata; a sweep's
games on common random numbers."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.game import StrokeRecord
from onered.game.record import read_record
from onered.game.replay import replay
from onered.rules import Ball, position
from onered.study import StudyResult, SweepSpec, run_study, task_seed
from onered.study.spec import to_json
from onered.study.store import METADATA_KEY, RECORDS, metadata
from onered.study.work import BALLS, RECORD, play_one, run_task, seed_of
from study_support import SMALL_GAMES, SMALL_SHOTS


def _game(seed: int, physics: tuple[tuple[str, Any], ...] = ()) -> dict[str, Any]:
    spec = replace(SMALL_GAMES, games=1, seed=seed, physics=physics)
    return run_task(spec, 0)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 40))
def test_every_stroke_has_its_positions_placement_and_pockets(seed: int) -> None:
    rows = _game(seed)
    strokes = rows["strokes"]
    assert strokes
    for k, s in enumerate(strokes):
        before = position.read(s["position_before"])
        after = position.read(s["position_after"])
        assert after.stroke_no == s["stroke"] == before.stroke_no + 1
        # the written position before has every ball the coordinates have, but the cue
        # ball played from hand (in hand before the stroke: placed, then struck)
        cue = s["cue_ball"]
        placed = s["placed_x"] is not None
        assert placed == (s["placed_y"] is not None) == (Ball(cue) not in before.table)
        if placed:
            assert (s["placed_x"], s["placed_y"]) == (s[f"{cue}_x_before"], s[f"{cue}_y_before"])
        for ball in BALLS:
            at = (s[f"{ball}_x_before"], s[f"{ball}_y_before"])
            if ball == cue and placed:
                continue
            written = before.table.get(Ball(ball))
            assert at == ((None, None) if written is None else tuple(written))
            # after: where the ball came to rest, None when it fell or left the table
            pocket = s[f"pocket_{ball}"]
            rest = (s[f"{ball}_x_after"], s[f"{ball}_y_after"])
            potted = ball in s["potted"].split("+")
            assert bool(pocket) == potted
            if potted:
                assert rest == (None, None)
        # the next stroke starts where this one's position ends, unless a choice came between
        if k + 1 < len(strokes) and not strokes[k + 1]["option"]:
            assert strokes[k + 1]["position_before"] == s["position_after"]


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 40), fast=st.booleans())
def test_a_study_games_record_replays_to_the_games_score(seed: int, fast: bool) -> None:
    physics = (("e_c", 0.9),) if fast else ()
    rows = _game(seed, physics)
    game = rows["games"][0]
    record = read_record(row["line"] for row in rows[RECORD])
    assert record.header.seed == game["seed"]
    assert dict(record.header.entrants) == {"p1": game["p1"], "p2": game["p2"]}
    replayed: list[StrokeRecord] = []
    report = replay(record, on_stroke=replayed.append)
    assert report.identical
    assert report.strokes == game["strokes"]
    assert (report.winner or "") == game["winner"]
    players = record.header.match.players
    score = dict(zip(players, replayed[-1].verdict.score, strict=True))
    assert (score["p1"], score["p2"]) == (game["score_p1"], game["score_p2"])


@pytest.fixture(scope="module")
def games_study(tmp_path_factory: pytest.TempPathFactory) -> StudyResult:
    return run_study(SMALL_GAMES, tmp_path_factory.mktemp("tables"), jobs=1, report=False)


def test_the_folder_holds_a_record_per_game_that_replay_and_advise_read(
    games_study: StudyResult, capsys: pytest.CaptureFixture[str]
) -> None:
    from onered.cli import main

    files = sorted((games_study.folder / RECORDS).glob("*.jsonl"))
    assert [f.name for f in files] == [f"{i:06d}.jsonl" for i in range(SMALL_GAMES.games)]
    for task, file in enumerate(files):
        assert file.read_text(encoding="utf-8").splitlines() == [
            r["line"] for r in run_task(SMALL_GAMES, task)[RECORD]
        ]
    longest = max(files, key=lambda f: len(f.read_text(encoding="utf-8").splitlines()))
    assert main(["replay", str(longest)]) == 0
    assert "identical to the record" in capsys.readouterr().out
    advice = ["advise", "--record", str(longest), "--stroke", "2", "--level", "novice"]
    assert main([*advice, "--samples", "10", "--count", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)
    # and a stroke's written position is a position file the coach reads
    text = games_study.strokes["position_before"].iloc[-1]
    where = games_study.folder / "position.txt"
    where.write_text(text + "\n", encoding="utf-8")
    assert main(["advise", str(where), "--level", "novice", "--samples", "10", "--json"]) == 0


def test_every_table_carries_the_spec_and_the_versions(
    games_study: StudyResult, tmp_path: Path
) -> None:
    shots = run_study(SMALL_SHOTS, tmp_path / "shots", jobs=1, report=False)
    for study in (games_study, shots):
        files = sorted(study.folder.glob("*.parquet"))
        assert len(files) == 3  # two tables and tasks
        for file in files:
            meta = json.loads(pq.read_schema(file).metadata[METADATA_KEY])
            assert meta == json.loads(json.dumps(metadata(study.spec)))
            assert meta["spec"] == to_json(study.spec)
            assert set(meta["versions"]) == {"onered", "engine", "python", "pyarrow", "numpy"}


def test_a_shots_study_has_its_start_positions_and_rests() -> None:
    rows = run_task(SMALL_SHOTS, 4)
    (where,) = rows["positions"]
    start = position.read(where["position"])
    assert start.table == {
        Ball.WHITE: (where["white_x"], where["white_y"]),
        Ball.RED: (where["red_x"], where["red_y"]),
    }
    low, high = where["p_success_low"], where["p_success_high"]
    assert 0 <= low <= where["p_success"] <= high <= 1
    for shot in rows["shots"]:
        for ball in ("white", "red"):
            rest = (shot[f"{ball}_x_after"], shot[f"{ball}_y_after"])
            assert (rest == (None, None)) == bool(shot[f"pocket_{ball}"])
            assert all(c is None or math.isfinite(c) for c in rest)


def test_a_sweeps_values_play_the_same_games(tmp_path: Path) -> None:
    """Common random numbers: game k of every value is played from one seed, so a value
    that changes nothing gives the very same games at every value."""
    spec = SweepSpec(
        param="noise.aim",
        values=(0.5, 0.5, 0.8),
        p1=SMALL_GAMES.p1,
        p2=SMALL_GAMES.p2,
        games=2,
        target=SMALL_GAMES.target,
        max_strokes=SMALL_GAMES.max_strokes,
        seed=5,
    )
    assert [seed_of(spec, i) for i in range(spec.tasks)] == [
        task_seed(5, k) for _ in spec.values for k in range(spec.games)
    ]
    result = run_study(spec, tmp_path / "sweep", jobs=1, report=False)
    games = result.games
    for value in range(len(spec.values)):
        assert games[games["value_index"] == value]["seed"].tolist() == [
            task_seed(5, 0),
            task_seed(5, 1),
        ]
    drop = ["task", "value_index"]
    same = [
        result.strokes[result.strokes["value_index"] == k].drop(columns=drop).reset_index(drop=True)
        for k in (0, 1)
    ]
    assert same[0].equals(same[1])
    # and the summary's paired comparison finds no difference, with no error
    equal = result.summary["values"][1]["against_first"]
    assert equal["p1_win_rate"] == {"diff": 0.0, "se": 0.0, "ci95": [0.0, 0.0]}
    for who in ("p1", "p2", "both"):
        figures = equal["points_per_visit"][who]
        assert figures is None or figures["diff"] == figures["se"] == 0.0
    assert result.summary["values"][0]["against_first"] is None
    # a sweep's game k is the game a games study plays from the same seed and players
    players = spec.players_at(0.5)
    row, _, _ = play_one(
        players["p1"], players["p2"], spec.target, spec.max_strokes, spec.lag, (), task_seed(5, 1)
    )
    second = games[(games["value_index"] == 0) & (games["game"] == 1)].iloc[0]
    assert (row["score_p1"], row["score_p2"]) == (second["score_p1"], second["score_p2"])
