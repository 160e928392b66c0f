"""Pockets, jaws and the table geometry."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from onered.physics import (
    EventKind,
    Launch,
    Params,
    PhysicsInputError,
    Strike,
    TableSpec,
    simulate,
    strike_to_launch,
    validation,
)
from onered.table import LENGTH, POCKET_NAMES, WIDTH
from physics_helpers import clearance

P = Params()
R = P.R
SPEC = TableSpec()
GEO = SPEC.geometry()


@pytest.mark.parametrize("pocket", POCKET_NAMES)
def test_a_ball_sent_at_a_pocket_drops_into_it(pocket: str) -> None:
    shape = GEO.pockets[POCKET_NAMES.index(pocket)]
    start = (0.889, 1.0 if shape.fall_centre[1] < LENGTH / 2 else LENGTH - 1.0)
    if pocket.startswith("middle"):
        start = (0.889, LENGTH / 2 - 0.3)
    aim = math.degrees(math.atan2(shape.fall_centre[1] - start[1], shape.fall_centre[0] - start[0]))
    result = simulate(
        {"white": start, "red": (0.3, LENGTH / 2)}, "white", strike_to_launch(Strike(2.0, aim), P)
    )
    pots = [e for e in result.events if e.kind is EventKind.POCKET]
    assert [(e.balls, e.pocket, e.cushion) for e in pots] == [(("white",), pocket, None)]
    assert result.rest["white"] is None
    last = result.paths["white"][-1]
    assert last.t1 == pots[0].t
    assert result.events[-1].t <= result.duration
    assert result.rest["red"] == (0.3, LENGTH / 2)


def test_potting_the_red_leaves_the_cue_ball_on_the_table() -> None:
    shape = GEO.pockets[POCKET_NAMES.index("top_right")]
    red = (WIDTH - 0.3, LENGTH - 0.3)
    d = math.dist(red, shape.fall_centre)
    ux, uy = (shape.fall_centre[0] - red[0]) / d, (shape.fall_centre[1] - red[1]) / d
    white = (red[0] - 0.5 * ux, red[1] - 0.5 * uy)
    aim = math.degrees(math.atan2(uy, ux))
    result = simulate(
        {"white": white, "red": red}, "white", strike_to_launch(Strike(1.5, aim, height=-0.3), P)
    )
    hit = next(e for e in result.events if e.kind is EventKind.BALL_BALL)
    assert hit.balls == ("white", "red")
    assert [(e.balls, e.pocket) for e in result.events if e.kind is EventKind.POCKET] == [
        (("red",), "top_right")
    ]
    assert result.rest["red"] is None
    assert result.rest["white"] is not None


def test_a_jaw_rattle_that_stays_out() -> None:
    result = simulate(
        {"white": (0.0285, 0.5)}, "white", Launch((-0.0871557, -0.9961947), (0, 0, 0))
    )
    jaws = [e for e in result.events if e.kind is EventKind.CUSHION and e.cushion == "jaw"]
    assert len(jaws) >= 1
    assert {e.pocket for e in jaws} == {"bottom_left"}
    assert all(e.kind is not EventKind.POCKET for e in result.events)
    rest = result.rest["white"]
    assert rest is not None
    assert clearance(SPEC, R, *rest) > -1e-9
    # wherever it stopped, the next stroke may be played from there
    again = simulate({"white": rest}, "white", Launch((0.5, 0.5), (0, 0, 0)))
    assert again.duration > 0


def test_a_tighter_middle_pocket_rejects_what_the_default_one_takes() -> None:
    # a rolling ball at 30 degrees to the pocket's axis, its path 13 mm off the middle of
    # the mouth: it pots past the default's knuckle (80 mm), meets the tighter one's (76 mm)
    wide = validation.pots("middle_left", 30.0, 0.013, 1.0)
    tighter = replace(SPEC, middle_opening=0.076)
    tight = validation.pots("middle_left", 30.0, 0.013, 1.0, table=tighter)
    assert wide
    assert not tight


def test_pocket_geometry_follows_its_parameters() -> None:
    for shape in GEO.pockets:
        opening = SPEC.middle_opening if shape.name.startswith("middle") else SPEC.corner_opening
        assert math.dist(*shape.jaw_points) == pytest.approx(opening, abs=1e-12)
        for facing, knuckle in zip(shape.facings, shape.knuckles, strict=True):
            # the knuckle touches the facing where the facing starts
            assert math.dist(knuckle.centre, facing.start) == pytest.approx(
                knuckle.radius, abs=1e-12
            )
            along = (facing.end[0] - facing.start[0], facing.end[1] - facing.start[1])
            radial = (knuckle.centre[0] - facing.start[0], knuckle.centre[1] - facing.start[1])
            assert along[0] * radial[0] + along[1] * radial[1] == pytest.approx(0.0, abs=1e-12)
        # the fall reaches no ball lying on the surface
        cx = min(max(shape.fall_centre[0], R), WIDTH - R)
        cy = min(max(shape.fall_centre[1], R), LENGTH - R)
        assert math.dist((cx, cy), shape.fall_centre) > shape.fall_radius
    for cushion in GEO.cushions:
        for knuckle in (k for p in GEO.pockets for k in p.knuckles):
            if (
                math.dist(knuckle.start, cushion.start) < 1e-12
                or math.dist(knuckle.start, cushion.end) < 1e-12
            ):
                break
        else:
            pytest.fail(f"{cushion.cushion} does not end on a knuckle")
    xs = [p[0] for p in GEO.outline]
    ys = [p[1] for p in GEO.outline]
    area = sum(xs[i - 1] * ys[i] - xs[i] * ys[i - 1] for i in range(len(xs))) / 2
    assert area > WIDTH * LENGTH  # counter-clockwise, and the pocket mouths add to it


@pytest.mark.parametrize(
    ("change", "word"),
    [
        ({"corner_opening": -0.08}, "corner_opening"),
        ({"middle_facing_angle": 45.0}, "middle_facing_angle"),
        ({"corner_knuckle_radius": 0.5}, "corner_knuckle_radius"),
        ({"width": float("nan")}, "width"),
        ({"baulk_y": 5.0}, "baulk_y"),
    ],
)
def test_bad_table_specs_are_refused(change: dict[str, float], word: str) -> None:
    with pytest.raises(PhysicsInputError, match=word):
        replace(SPEC, **change)


@pytest.mark.parametrize(
    ("spec", "word"),
    [
        (replace(SPEC, middle_opening=0.05), "narrow"),
        (replace(SPEC, corner_fall_radius=0.005), "fall"),
        (replace(SPEC, middle_fall_depth=0.01), "fall"),
    ],
)
def test_tables_the_ball_does_not_fit_are_refused(spec: TableSpec, word: str) -> None:
    with pytest.raises(PhysicsInputError, match=word):
        simulate({"white": (0.889, 1.0)}, "white", Launch((1.0, 0.0), (0, 0, 0)), table=spec)


def test_every_position_on_the_surface_is_a_legal_start() -> None:
    from onered.table import on_surface

    step = 0.002
    corner = [(R + i * step, R + j * step) for i in range(90) for j in range(90)]
    middle = [(R + i * step, LENGTH / 2 - 0.1 + j * step) for i in range(60) for j in range(100)]
    for point in corner + middle:
        if on_surface(point):
            simulate({"white": point}, "white", Launch((0.0, 0.1), (0, 0, 0)))
