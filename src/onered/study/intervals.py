"""Intervals and standard errors of a study's figures (standard library only).

- :func:`wilson`: the Wilson score interval of a proportion (Wilson 1927, "Probable
  inference, the law of succession, and statistical inference", JASA 22(158): 209-212):
  unlike the normal approximation ``p +- z sqrt(p(1-p)/n)`` it stays within [0, 1] and does
  not shrink to a point at 0 or n successes, which a few games often give.
- :func:`ratio_se`: the standard error of a ratio of sums ``R = sum(y) / sum(m)`` over
  independent clusters (here: games), by linearisation (the delta method) with the
  small-sample factor ``G / (G - 1)`` — the cluster-robust variance of the ratio estimator
  (Cameron & Miller 2015, "A practitioner's guide to cluster-robust inference", J. Human
  Resources 50(2): 317-372; Cochran 1977, "Sampling techniques", 3rd ed., section 6.4).
  Visits of one game are not independent (the same players, the same table, one game's
  run of the balls), so the games are the units drawn, and a visit's points count only
  through its game's sums.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` in ``n`` trials (``None`` when ``n`` is
    0): ``(p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)`` with ``p = k/n``."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes: expected 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    scale = 1 + z2 / n
    # at none and at all the bound is exactly 0 or 1 (the formula's, without its rounding)
    low = 0.0 if successes == 0 else max(0.0, (centre - half) / scale)
    high = 1.0 if successes == n else min(1.0, (centre + half) / scale)
    return (low, high)


def ratio_se(sums: Sequence[float], counts: Sequence[float]) -> float | None:
    """The cluster-robust standard error of ``R = sum(sums) / sum(counts)``, cluster ``g``
    having the total ``sums[g]`` over its ``counts[g]`` units:
    ``sqrt(G / (G - 1) * sum((y_g - R m_g)^2)) / sum(m_g)`` (``None`` with fewer than two
    clusters or no unit). With one unit per cluster it is the usual ``s / sqrt(n)``."""
    if len(sums) != len(counts):
        raise ValueError("sums and counts: expected one of each per cluster")
    g = len(sums)
    total = float(sum(counts))
    if g < 2 or total <= 0:
        return None
    r = sum(sums) / total
    squares = sum((y - r * m) ** 2 for y, m in zip(sums, counts, strict=True))
    return math.sqrt(g / (g - 1) * squares) / total


def paired_ratio_diff_se(
    a: Sequence[tuple[float, float]], b: Sequence[tuple[float, float]]
) -> float | None:
    """The standard error of ``R_b - R_a``, each a ratio of sums as in :func:`ratio_se`,
    whose clusters are paired: ``a[g]`` and ``b[g]`` are the sums and counts of cluster
    ``g`` under two conditions (game ``g`` of two values of a sweep, played from one seed).
    By linearisation, cluster ``g`` moves the difference by
    ``e_g = (y_bg - R_b m_bg) / M_b - (y_ag - R_a m_ag) / M_a`` (``M`` the total counts), and
    ``se = sqrt(G / (G - 1) * sum(e_g^2))``: the covariance of the pair is in it, so what
    the two conditions share does not count as noise. ``None`` with fewer than two pairs or
    no unit on either side. With one unit per cluster it is the error of the mean of the
    paired differences, ``sd(d) / sqrt(G)``."""
    if len(a) != len(b):
        raise ValueError("a and b: expected one pair of sums per cluster")
    g = len(a)
    total_a = float(sum(m for _, m in a))
    total_b = float(sum(m for _, m in b))
    if g < 2 or total_a <= 0 or total_b <= 0:
        return None
    r_a = sum(y for y, _ in a) / total_a
    r_b = sum(y for y, _ in b) / total_b
    squares = sum(
        ((yb - r_b * mb) / total_b - (ya - r_a * ma) / total_a) ** 2
        for (ya, ma), (yb, mb) in zip(a, b, strict=True)
    )
    return math.sqrt(g / (g - 1) * squares)
