"""The root isolation behind event times, on the degenerate cases that matter."""

from __future__ import annotations

import math

import pytest

from onered.physics._engine import first_entry


def _expand(roots: list[float], scale: float = 1.0) -> list[float]:
    """Coefficients (ascending) of scale * prod(t - r)."""
    c = [scale]
    for r in roots:
        c = [0.0, *c]
        for k in range(len(c) - 1):
            c[k] -= r * c[k + 1]
    return c


@pytest.mark.parametrize(
    ("roots", "first"),
    [
        ([1.0, 2.0, 3.0, 4.0], 1.0),  # enters at 1 (leaves at 2, enters again at 3)
        ([1e-6, 2.0, 3.0, 5.0], 1e-6),
        ([0.25, 0.75, 1.5, 9.0], 0.25),
    ],
)
def test_quartic_first_entry_is_exact(roots: list[float], first: float) -> None:
    c = _expand(roots, 3.0)
    assert math.isclose(first_entry(c, 10.0), first, rel_tol=1e-14)


def test_a_double_root_is_a_touch_and_is_found() -> None:
    # (t - 0.5)^2 (t - 3)(t - 4), exactly representable: zero is reached at 0.5 (a graze,
    # which the engine then refuses as an impact because nothing approaches)
    assert math.isclose(first_entry([3.0, -13.75, 19.25, -8.0, 1.0], 10.0), 0.5, rel_tol=1e-7)


def test_close_roots_are_found_to_their_conditioning() -> None:
    c = _expand([0.1, 0.10000001, 7.0, 8.0])
    t = first_entry(c, 10.0)
    assert abs(t - 0.1) < 1e-8
    assert sum(ck * t**k for k, ck in enumerate(c)) <= 1e-14


def test_entry_beyond_the_horizon_is_none() -> None:
    assert first_entry(_expand([1.0, 2.0, 3.0, 4.0]), 0.9) == math.inf


def test_vanishing_leading_terms_drop_to_lower_degree() -> None:
    # parallel balls with the same acceleration: the quartic is a quadratic (c3 = c4 = 0)
    assert math.isclose(
        first_entry([4.0, -4.0, 1.0, 0.0, 0.0], 10.0), 2.0, rel_tol=1e-12
    )  # (t-2)^2
    assert math.isclose(first_entry([2.0, -1.0, 0.0, 0.0, 0.0], 10.0), 2.0, rel_tol=1e-15)
    # side by side at equal speeds: constant distance, never an entry
    assert first_entry([0.5, 0.0, 0.0, 0.0, 0.0], 10.0) == math.inf


def test_touching_now_counts_only_when_closing() -> None:
    assert first_entry([0.0, -1.0, 1.0, 0.0, 0.0], 5.0) == 0.0  # touching and closing
    assert first_entry([-1e-17, 1.0, 0.0, 0.0, 0.0], 5.0) == math.inf  # touching, parting
    assert first_entry([0.0, 0.0, -1.0], 5.0) == 0.0  # touching, pressed together
    # parting now, but pulled back later: the re-entry is found
    assert math.isclose(first_entry([0.0, 1.0, -1.0], 5.0), 1.0, rel_tol=1e-15)
    assert math.isclose(first_entry([0.0, 1.0, -1.0, 0.0, 0.0], 5.0), 1.0, rel_tol=1e-15)


def test_quadratic_closed_form_is_stable_for_tiny_leading_terms() -> None:
    # c2 ~ 1e-20: the root near c0 / -c1 must not be lost to cancellation
    assert math.isclose(first_entry([1.0, -1.0, 1e-20], 5.0), 1.0, rel_tol=1e-15)
    # underflowing excursion above zero: no spurious entry at t = 0
    assert first_entry([0.0, 5e-324, -1e-310], 1.0) == math.inf
