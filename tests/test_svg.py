"""The drawings of a shot (``onered.svg``) with balls in the air: generated paths mixing
pieces on the bed and flights give well-formed SVG in both languages, the flights dashed over
their shadow and nothing on the bed dashed, landings, balls passed over and balls off the
table marked, and a side view whose heights are the pieces' own (``Segment.height_at``).

Paths are made by hand here (the engine's flights are checked in tests/physics); the
drawing only reads ``Segment``'s fields, so any continuous path is a fair input."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flight_support import G, paths, results
from onered.physics.types import EventKind, Segment, ShotResult, Vec2
from onered.svg import AIR_DASH, draw_shot, draw_shots, draw_side_view, side_profile
from onered.texts import Lang

NS = "{http://www.w3.org/2000/svg}"


def _moving(seg: Segment) -> bool:
    return seg.t1 > seg.t0 and not seg.v0 == (0.0, 0.0) == seg.a


def _curves(d: str) -> int:
    return d.count("Q")


def _by_title(root: ET.Element, cls: str) -> dict[str, ET.Element]:
    return {
        (p.findtext(f"{NS}title") or ""): p for p in root.iter(f"{NS}path") if p.get("class") == cls
    }


@given(results(), st.sampled_from(list(Lang)))
def test_a_shot_with_flights_is_well_formed_svg_its_flights_dashed_and_nothing_else(
    shot: tuple[dict[str, Vec2], ShotResult], lang: Lang
) -> None:
    before, result = shot
    root = ET.fromstring(draw_shot(before, result, title="jump <&>", lang=lang))
    ground = _by_title(root, "path")
    air = _by_title(root, "path airborne")
    shadows = [p for p in root.iter(f"{NS}path") if p.get("class") == "shadow"]
    for name, path in result.paths.items():
        flights = sum(1 for s in path if s.airborne and _moving(s))
        on_bed = sum(1 for s in path if not s.airborne and _moving(s))
        assert _curves(air[name].get("d", "")) == flights if flights else name not in air
        assert _curves(ground[name].get("d", "")) == on_bed if on_bed else name not in ground
    for p in air.values():
        assert p.get("stroke-dasharray") == AIR_DASH
    for p in ground.values():
        assert p.get("stroke-dasharray") is None
    assert len(shadows) == len(air)
    assert sorted(_curves(s.get("d", "")) for s in shadows) == sorted(
        _curves(p.get("d", "")) for p in air.values()
    )


def _points(d: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d)]


@given(
    st.floats(0.1, 1.7), st.floats(0.1, 3.4), st.floats(-3, 3), st.floats(-3, 3), st.floats(0.05, 2)
)
def test_a_flights_shadow_leaves_and_meets_the_path_on_the_slate(
    x: float, y: float, vx: float, vy: float, vz: float
) -> None:
    span = 2 * vz / G
    flight = Segment(0.0, span, (x, y), (vx, vy), (0.0, 0.0), z0=0.0, vz=vz, az=-G)
    result = ShotResult((), {"white": flight.at(span)}, span, {"white": (flight,)})
    root = ET.fromstring(draw_shot({"white": (x, y)}, result))
    air = _by_title(root, "path airborne")
    if "white" not in air:  # straight up and down: nothing to see from above
        assert vx == vy == 0
        return
    (shadow,) = [p for p in root.iter(f"{NS}path") if p.get("class") == "shadow"]
    (start, control, end) = _points(air["white"].get("d", ""))
    (s_start, s_control, s_end) = _points(shadow.get("d", ""))
    assert math.dist(start, s_start) < 0.15
    assert math.dist(end, s_end) < 0.15
    # in between it falls 0.8 times the height (the control point's: vz T/2) down-right
    gap = (s_control[0] - control[0], s_control[1] - control[1])
    assert math.hypot(*gap) == pytest.approx(0.8 * vz * span / 2 * 1000, abs=0.2)
    assert gap[0] >= -0.1
    assert gap[1] >= -0.1


@given(results())
def test_a_ball_off_the_table_is_drawn_where_it_left_and_said_so(
    shot: tuple[dict[str, Vec2], ShotResult],
) -> None:
    before, result = shot
    off = [e.balls[0] for e in result.events if e.kind is EventKind.OFF_TABLE]
    root = ET.fromstring(draw_shot(before, result))
    drawn_off = [g for g in root.iter(f"{NS}g") if g.get("class") == "ball off"]
    assert len(drawn_off) == len(off)
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    for g in drawn_off:
        (ball,) = g.iter(f"{NS}circle")
        assert 0 <= float(ball.get("cx", "")) <= width  # in sight, on the rail at the furthest
        assert 0 <= float(ball.get("cy", "")) <= height
    caption = [t.text or "" for t in root.iter(f"{NS}text")][-1]
    if off:
        assert "off the table" in caption
        assert "potted" not in caption
    lands = [c for c in root.iter(f"{NS}circle") if c.get("class") == "event land"]
    assert len(lands) == sum(1 for e in result.events if e.kind is EventKind.LAND)


@given(results())
def test_the_coachs_drawing_dashes_flights_over_their_shadow_too(
    shot: tuple[dict[str, Vec2], ShotResult],
) -> None:
    before, result = shot
    cue = next(iter(result.paths))
    root = ET.fromstring(draw_shots(before, [(result, "#1f77b4", "1")], cue))
    air = [p for p in root.iter(f"{NS}path") if p.get("class") == "path airborne"]
    assert all(p.get("stroke-dasharray") == AIR_DASH for p in air)
    assert len([p for p in root.iter(f"{NS}path") if p.get("class") == "shadow"]) == len(air)


def _covering(path: Sequence[Segment], t: float) -> list[Segment]:
    return [s for s in path if s.t0 - 1e-12 <= t <= s.t1 + 1e-12]


@given(paths())
def test_the_side_profiles_heights_are_the_pieces_heights(path: tuple[Segment, ...]) -> None:
    profile = side_profile(path)
    assert profile[0].distance == 0.0
    assert all(a.distance <= b.distance for a, b in pairwise(profile))
    assert all(a.t <= b.t for a, b in pairwise(profile))
    for point in profile:
        heights = [s.height_at(point.t) for s in _covering(path, point.t)]
        assert any(math.isclose(point.height, h, abs_tol=1e-12) for h in heights)
        assert point.height >= -1e-12
    # the distance is the length of the path seen from above: at least the straight line
    end = path[-1].at(path[-1].t1)
    assert profile[-1].distance >= math.dist(path[0].p0, end) - 1e-9


@given(results(), st.sampled_from(list(Lang)))
def test_the_side_view_draws_the_profile_to_its_own_scale(
    shot: tuple[dict[str, Vec2], ShotResult], lang: Lang
) -> None:
    before, result = shot
    ball = next(iter(result.paths))
    root = ET.fromstring(draw_side_view(before, result, ball, lang=lang))
    (plot,) = [g for g in root.iter(f"{NS}g") if g.get("class") == "plot"]
    x0, y0 = float(plot.get("data-x0", "")), float(plot.get("data-y0", ""))
    sx, sz = float(plot.get("data-sx", "")), float(plot.get("data-sz", ""))
    (line,) = [p for p in plot.iter(f"{NS}polyline") if p.get("class") == "side-path"]
    drawn = _points(line.get("points", ""))
    profile = side_profile(result.paths[ball])
    assert len(drawn) == len(profile)
    for (x, y), point in zip(drawn, profile, strict=True):
        assert math.isclose((x - x0) / sx, point.distance, abs_tol=0.06 / sx)
        assert math.isclose((y0 - y) / sz, point.height, abs_tol=0.06 / sz)
    over = [e for e in result.events if e.kind is EventKind.OVER and e.balls[0] == ball]
    passed = [e for e in root.iter(f"{NS}ellipse") if e.get("class") == "passed-over"]
    assert len(passed) == len(over)
    assert [c for c in root.iter(f"{NS}line") if c.get("class") == "cushion-height"]


def test_a_ball_that_never_moved_has_a_flat_side_view() -> None:
    result = ShotResult((), {"white": (0.5, 0.5)}, 0.0, {})
    root = ET.fromstring(draw_side_view({"white": (0.5, 0.5)}, result, "white"))
    texts = " ".join(t.text or "" for t in root.iter(f"{NS}text"))
    assert "stayed on the cloth" in texts
