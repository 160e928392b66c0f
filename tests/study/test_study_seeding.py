"""Seeding and specs: a task's seed depends on the study's seed and its index only (in a
sweep, on its game's number within its value: common random numbers), a task's rows on
nothing else (not on the tasks run before it, nor on how the study was split between runs),
and a spec written reads back equal."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from onered.study import (
    GamesSpec,
    ShotKind,
    ShotsSpec,
    StudyError,
    StudyResult,
    SweepSpec,
    Vary,
    run_study,
    task_seed,
)
from onered.study.spec import (
    named_params,
    parse_assignments,
    parse_physics,
    spec_from_json,
    to_json,
)
from onered.study.store import Folder
from onered.study.work import run_task, seed_of
from study_support import SMALL_SHOTS


@given(seed=st.integers(0, 2**63 - 1), index=st.integers(0, 10_000), extra=st.integers(1, 50))
def test_task_seed_is_the_index_th_child_whatever_the_number_of_tasks(
    seed: int, index: int, extra: int
) -> None:
    child = np.random.SeedSequence(seed).spawn(index + extra)[index]
    assert task_seed(seed, index) == int(child.generate_state(1, np.uint64)[0])


@given(
    seed=st.integers(0, 2**32), indices=st.sets(st.integers(0, 100_000), min_size=2, max_size=40)
)
def test_task_seeds_differ_between_tasks(seed: int, indices: set[int]) -> None:
    assert len({task_seed(seed, i) for i in indices}) == len(indices)


@given(
    seed=st.integers(0, 2**63 - 1),
    values=st.integers(1, 6),
    games=st.integers(1, 50),
    data=st.data(),
)
def test_a_tasks_seed_is_its_index_s_or_in_a_sweep_its_game_s(
    seed: int, values: int, games: int, data: st.DataObject
) -> None:
    sweep = SweepSpec(values=tuple(0.7 + 0.01 * k for k in range(values)), games=games, seed=seed)
    index = data.draw(st.integers(0, sweep.tasks - 1))
    k, game = sweep.task_value(index)
    assert seed_of(sweep, index) == task_seed(seed, game)
    # every value's game k alike; the games of one value all different
    assert {seed_of(sweep, v * games + game) for v in range(values)} == {task_seed(seed, game)}
    assert len({seed_of(sweep, k * games + g) for g in range(games)}) == games
    for spec in (GamesSpec(games=sweep.tasks, seed=seed), replace(SMALL_SHOTS, seed=seed)):
        if index < spec.tasks:
            assert seed_of(spec, index) == task_seed(seed, index)


@pytest.mark.slow  # make check leaves it out; make test runs it
@settings(max_examples=10, deadline=None)
@given(order=st.permutations(range(SMALL_SHOTS.tasks)))
def test_a_tasks_rows_do_not_depend_on_the_tasks_run_before_it(order: list[int]) -> None:
    alone = {i: run_task(SMALL_SHOTS, i) for i in (0, 4, 8)}
    ran = {i: run_task(SMALL_SHOTS, i) for i in order}
    for i, rows in alone.items():
        assert ran[i] == rows


_names = st.sampled_from(["e_c", "mu_r", "f_c"])
_models = st.sampled_from(["mathavan2010", "han2005"])
_physics = st.tuples(
    st.dictionaries(_names, st.floats(0.01, 0.09), max_size=2),
    st.lists(_models, max_size=1),
).map(lambda d: (*sorted(d[0].items()), *(("cushion_model", m) for m in d[1])))
SPECS = st.one_of(
    st.builds(
        GamesSpec,
        p1=st.sampled_from(["ai:pro", "ai:novice,noise.aim=0.5"]),
        games=st.integers(1, 1000),
        target=st.integers(1, 200),
        lag=st.booleans(),
        physics=_physics,
        seed=st.integers(0, 2**63 - 1),
    ),
    st.builds(
        ShotsSpec,
        shot=st.sampled_from(ShotKind),
        vary=st.sampled_from(Vary),
        grid=st.tuples(st.integers(1, 50), st.integers(1, 50)),
        speed=st.floats(0.1, 9.0),
        seed=st.integers(0, 2**63 - 1),
    ),
    st.builds(
        SweepSpec,
        param=st.sampled_from(["e_c", "noise.aim"]),
        values=st.lists(st.floats(0.0, 1.0), min_size=1, max_size=5).map(tuple),
        who=st.sampled_from(["both", "p1"]),
    ),
    st.builds(
        SweepSpec,
        param=st.just("cushion_model"),
        values=st.lists(_models, min_size=1, max_size=3).map(tuple),
        physics=_physics,
    ),
)


@given(spec=SPECS)
def test_a_spec_written_as_json_reads_back_equal(spec: GamesSpec | ShotsSpec | SweepSpec) -> None:
    assert spec_from_json(json.loads(json.dumps(to_json(spec)))) == spec


def test_a_spec_of_another_format_is_refused() -> None:
    data = to_json(GamesSpec())
    data["format"] = 99
    with pytest.raises(StudyError, match="format 99"):
        spec_from_json(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("e_c", "expected NAME=VALUE"),
        ("e_c=x", "e_c: expected a number"),
        ("e_c=nan", "finite"),
        ("e_c=1,e_c=2", "given twice"),
    ],
)
def test_bad_assignments_are_named(text: str, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        parse_assignments(text, "--physics")


def test_the_cushion_model_is_read_by_name_and_the_others_as_numbers() -> None:
    assert named_params() == {"cushion_model": ("mathavan2010", "han2005")}
    assert parse_physics("cushion_model=han2005, e_c=0.85") == (
        ("cushion_model", "han2005"),
        ("e_c", 0.85),
    )
    with pytest.raises(StudyError, match="--physics: e_c: expected a number, got 'han2005'"):
        parse_physics("e_c=han2005")
    with pytest.raises(StudyError, match="--physics: a name is given twice"):
        parse_physics("cushion_model=han2005,cushion_model=han2005")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            GamesSpec(physics=(("cushion_model", "han"),)),
            r"--physics: params.cushion_model: must be one of mathavan2010, han2005, got 'han'",
        ),
        (
            SweepSpec(param="cushion_model"),  # the default values are numbers
            r"--values \(cushion_model\): params.cushion_model: must be one of .*, got 0.7",
        ),
        (
            SweepSpec(param="cushion_model", values=("han2005", "x")),
            r"--values \(cushion_model\): .* got 'x'",
        ),
        (SweepSpec(param="e_c", values=(0.8, "han2005")), r"--values \(e_c\): expected a number"),
        (SweepSpec(param="noise.aim", values=("0.1",)), r"--values \(noise.aim\): expected a num"),
    ],
)
def test_a_value_of_the_wrong_kind_is_named(spec: GamesSpec | SweepSpec, message: str) -> None:
    with pytest.raises(StudyError, match=message):
        spec.check()


def test_a_sweep_of_the_cushion_model_changes_the_table() -> None:
    from onered.physics import CushionModel

    spec = SweepSpec(
        param="cushion_model",
        values=("mathavan2010", CushionModel.HAN2005),  # the model itself is a name too
        physics=(("cushion_model", "han2005"), ("e_c", 0.85)),
    )
    spec.check()
    assert spec.categorical
    assert not SweepSpec().categorical
    assert spec.physics_at("mathavan2010") == (("e_c", 0.85), ("cushion_model", "mathavan2010"))
    assert spec_from_json(json.loads(json.dumps(to_json(spec)))) == spec


def test_a_sweep_of_a_player_parameter_changes_the_players_named() -> None:
    both = SweepSpec(param="noise.aim", p1="ai:pro", p2="ai:club", who="both")
    assert both.players_at(0.1) == {"p1": "ai:pro,noise.aim=0.1", "p2": "ai:club,noise.aim=0.1"}
    one = SweepSpec(param="noise.aim", p1="ai:pro", p2="ai:club", who="p1")
    assert one.players_at(0.1) == {"p1": "ai:pro,noise.aim=0.1", "p2": "ai:club"}
    assert one.physics_at(0.1) == ()


def test_a_sweep_of_a_physical_parameter_changes_the_table() -> None:
    spec = SweepSpec(param="e_c", physics=(("e_c", 0.5), ("mu_r", 0.02)))
    assert spec.physics_at(0.9) == (("mu_r", 0.02), ("e_c", 0.9))
    assert spec.players_at(0.9) == {"p1": spec.p1, "p2": spec.p2}


@pytest.fixture(scope="module")
def straight_shots(tmp_path_factory: pytest.TempPathFactory) -> StudyResult:
    return run_study(SMALL_SHOTS, tmp_path_factory.mktemp("straight"), jobs=2, report=False)


@settings(max_examples=5, deadline=None)
@given(first=st.sets(st.integers(0, SMALL_SHOTS.tasks - 1)))
def test_a_study_done_in_two_parts_equals_one_done_at_once(
    straight_shots: StudyResult, first: set[int]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Folder(Path(tmp), SMALL_SHOTS)
        folder.open()
        for i in sorted(first):  # what a first, stopped run had written
            folder.write_part(i, run_task(SMALL_SHOTS, i), {"node": "a", "process": 0})
        resumed = run_study(SMALL_SHOTS, tmp, jobs=1, report=False)
        for name in ("positions", "shots"):
            pd.testing.assert_frame_equal(resumed.tables[name], straight_shots.tables[name])
        kept = set(resumed.tasks[resumed.tasks["node"] == "a"]["task"])
        assert kept == first  # not run again
