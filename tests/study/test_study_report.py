"""The report's plots: PNG, SVG and PDF of each at 300 dpi, titled in words (no names from
the code), drawn the same twice; the page shows the figures with their intervals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from onered.study import StudyResult, SweepSpec, run_study
from onered.study.report import DPI, FORMATS, outcome_words, param_words, player_words
from study_support import SMALL_GAMES, SMALL_SHOTS

#: Names of the code that a reader should not meet in a plot.
CODE_NAMES = re.compile(
    r"success_map|p_success|\bai:|\bp[12]\b|_x_|\be_c\b|top_right|pot_red|in_off|no_score"
    r"|cushion_model|mathavan2010|han2005|noise\."
)


def _texts(svg: Path) -> list[str]:
    """The words of an SVG saved with its text as text."""
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg.read_text(encoding="utf-8"))


def _check_plots(folder: Path, stems: tuple[str, ...]) -> None:
    for stem in stems:
        png, svg, pdf = (folder / f"{stem}.{fmt}" for fmt in FORMATS)
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert pdf.read_bytes()[:5] == b"%PDF-"
        assert svg.read_text(encoding="utf-8").lstrip().startswith("<?xml")
        # 300 dots per inch: the PNG's pHYs chunk in dots per metre
        phys = png.read_bytes().split(b"pHYs", 1)[1][:4]
        assert round(int.from_bytes(phys, "big") * 0.0254) == DPI
        words = " ".join(_texts(svg))
        assert words
        assert CODE_NAMES.search(words) is None, CODE_NAMES.search(words)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> StudyResult:
    return run_study(SMALL_GAMES, tmp_path_factory.mktemp("games"), jobs=1)


def test_the_games_plots_in_three_formats_with_words(games: StudyResult) -> None:
    assert games.report is not None
    _check_plots(games.report.parent, ("score-progression", "breaks"))
    page = games.report.read_text(encoding="utf-8")
    for fmt in FORMATS:
        assert f'href="breaks.{fmt}"' in page
    ci = games.summary["players"]["p1"]["win_rate_ci95"]
    assert f"{ci[0]:.1%}, {ci[1]:.1%}" in page  # the figures' table, Wilson's interval


def test_the_plots_are_drawn_the_same_again(games: StudyResult, tmp_path: Path) -> None:
    from onered.study.report import write_report

    assert games.report is not None
    write_report(games.spec, games.tables, games.summary, tmp_path)
    for fmt in FORMATS:
        again = (tmp_path / f"breaks.{fmt}").read_bytes()
        assert again == (games.report.parent / f"breaks.{fmt}").read_bytes()


def test_the_shots_maps_and_a_sweep_in_words(tmp_path: Path) -> None:
    shots = run_study(SMALL_SHOTS, tmp_path / "shots", jobs=1)
    assert shots.report is not None
    _check_plots(shots.report.parent, ("shots-map", "shots-outcomes"))
    sweep = SweepSpec(
        param="cushion_model",
        values=("mathavan2010", "han2005"),
        p1=SMALL_GAMES.p1,
        p2=SMALL_GAMES.p2,
        games=1,
        target=SMALL_GAMES.target,
        max_strokes=SMALL_GAMES.max_strokes,
    )
    result = run_study(sweep, tmp_path / "sweep", jobs=1)
    assert result.report is not None
    _check_plots(result.report.parent, ("sweep", "sweep-breaks"))
    assert "Han 2005" in _texts(result.report.parent / "sweep.svg")


def test_names_in_words() -> None:
    assert param_words("e_c") == "cushion restitution"
    assert param_words("noise.aim") == "aim error (degrees)"
    assert player_words("ai:pro") == "the professional level"
    assert (
        player_words("ai:club,noise.aim=0.1") == "the club player level (aim error (degrees) 0.1)"
    )
    assert outcome_words("pot_red+in_off_red") == "pot of the red + in-off the red"
    assert outcome_words("no_score") == "no score"
