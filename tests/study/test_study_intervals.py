"""The summary's intervals against closed forms: Wilson's score interval, and the standard
error of points per visit clustered by game."""

from __future__ import annotations

import math
import statistics

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from onered.study.intervals import Z95, paired_ratio_diff_se, ratio_se, wilson
from onered.study.summary import clustered_se, visit_figures, win_figures


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), "Two-sided confidence intervals for the single proportion",
        # Stat. Med. 17, table I, method 3 (the score interval without continuity correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # half of ten: symmetric about a half
        (5, 10, 0.2366, 0.7634),
    ],
)
def test_wilson_gives_the_published_intervals(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(k, n) or (math.nan, math.nan)
    assert (round(lo, 4), round(hi, 4)) == (low, high)


@given(n=st.integers(1, 10_000))
def test_wilson_at_none_and_all_has_its_closed_form(n: int) -> None:
    z2 = Z95 * Z95
    lo, hi = wilson(0, n) or (math.nan, math.nan)
    assert lo == 0.0
    assert hi == pytest.approx(z2 / (n + z2), rel=1e-12)
    lo, hi = wilson(n, n) or (math.nan, math.nan)
    assert lo == pytest.approx(n / (n + z2), rel=1e-12)
    assert hi == 1.0


@given(n=st.integers(1, 5000), data=st.data())
def test_wilson_holds_the_rate_and_mirrors(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    lo, hi = wilson(k, n) or (math.nan, math.nan)
    assert 0 <= lo <= k / n <= hi <= 1
    mlo, mhi = wilson(n - k, n) or (math.nan, math.nan)
    assert (lo, hi) == pytest.approx((1 - mhi, 1 - mlo), abs=1e-12)


def test_no_games_no_interval() -> None:
    assert wilson(0, 0) is None
    assert win_figures(0, 0) == {"wins": 0, "win_rate": None, "win_rate_ci95": None}
    assert win_figures(5, 10)["win_rate_ci95"] == [0.2366, 0.7634]


@given(ys=st.lists(st.integers(0, 60), min_size=2, max_size=60))
def test_one_visit_a_game_gives_the_naive_standard_error(ys: list[int]) -> None:
    """The clustered error of a ratio equals s / sqrt(n) when every cluster has one unit."""
    naive = statistics.stdev(ys) / math.sqrt(len(ys))
    assert ratio_se(ys, [1] * len(ys)) == pytest.approx(naive, abs=1e-12)
    strokes = pd.DataFrame(
        {
            "task": range(len(ys)),
            "points": ys,
            "break": ys,
            "visit_end": True,
            "foul": "",
        }
    )
    assert clustered_se(strokes) == pytest.approx(naive, abs=1e-12)
    assert visit_figures(strokes, len(ys))["points_per_visit_se"] == pytest.approx(naive, abs=1e-4)


def test_the_clustered_error_is_that_of_the_games() -> None:
    """Two games: one of ten visits of 3 points, one of ten of 0. Counted as twenty
    independent visits the error would be 0.34; the games are two draws, whose ratios 3 and
    0 put the mean 1.5 at a standard error of 1.5 (G/(G-1) * sum (y - R m)^2 = 2 * 2 * 15^2,
    over 20^2)."""
    strokes = pd.DataFrame(
        {
            "task": [0] * 10 + [1] * 10,
            "points": [3] * 10 + [0] * 10,
            "break": [3] * 10 + [0] * 10,
            "visit_end": True,
            "foul": "",
        }
    )
    naive = statistics.stdev(strokes["points"]) / math.sqrt(20)
    assert naive == pytest.approx(0.3441, abs=1e-4)
    assert clustered_se(strokes) == pytest.approx(1.5)
    figures = visit_figures(strokes, 2)
    assert figures["points_per_visit"] == 1.5
    low, high = figures["points_per_visit_ci95"]
    assert (low, high) == (round(1.5 - Z95 * 1.5, 4), round(1.5 + Z95 * 1.5, 4))


@given(
    sizes=st.lists(st.integers(1, 8), min_size=2, max_size=20),
    ratio=st.integers(0, 20),
)
def test_games_of_one_ratio_have_no_error(sizes: list[int], ratio: int) -> None:
    assert ratio_se([ratio * m for m in sizes], sizes) == pytest.approx(0.0, abs=1e-9)


def test_fewer_than_two_games_have_no_error() -> None:
    assert ratio_se([3], [2]) is None
    assert ratio_se([], []) is None
    with pytest.raises(ValueError, match="one of each"):
        ratio_se([1, 2], [1])


@given(pairs=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=2, max_size=40))
def test_the_paired_error_of_one_unit_a_game_is_that_of_the_differences(
    pairs: list[tuple[int, int]],
) -> None:
    a = [(float(x), 1.0) for x, _ in pairs]
    b = [(float(y), 1.0) for _, y in pairs]
    d = [y - x for x, y in pairs]
    assert paired_ratio_diff_se(a, b) == pytest.approx(
        statistics.stdev(d) / math.sqrt(len(d)), abs=1e-12
    )
    assert paired_ratio_diff_se(a, a) == 0.0  # the same games: no noise in the difference


@given(
    sums=st.lists(st.tuples(st.integers(0, 40), st.integers(1, 8)), min_size=2, max_size=30),
    shift=st.integers(0, 5),
)
def test_a_paired_difference_is_as_noisy_as_its_pairs_differ(
    sums: list[tuple[int, int]], shift: int
) -> None:
    """Adding the same points to every visit at the second value moves the difference by
    them and leaves no error; two independent-looking sides have the error of the two
    ratios' errors together when their games do not covary (a side that never varies)."""
    a = [(float(y), float(m)) for y, m in sums]
    b = [(y + shift * m, m) for y, m in a]
    assert paired_ratio_diff_se(a, b) == pytest.approx(0.0, abs=1e-9)
    flat = [(2.0 * m, m) for _, m in a]  # 2 points a visit in every game: no error
    one = ratio_se([y for y, _ in a], [m for _, m in a])
    assert paired_ratio_diff_se(flat, a) == pytest.approx(one, rel=1e-9)
    with pytest.raises(ValueError, match="one pair"):
        paired_ratio_diff_se(a, a[:-1])
