"""A shot's flights sent to the pages (``onered.web.play.shot_json``): a piece in the air
carries its height (``z0, vz, az`` after the eight numbers of the plane), a piece on the bed
stays eight numbers; the struck ball and the flight's marks are sent; a jump played through
the API arrives as the engine computed it; the table served has the cushion's height."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given

from flight_support import results
from onered.game import PhysicsSimulator
from onered.physics import Params, Strike, simulate, strike_to_launch
from onered.physics.types import ShotResult, Vec2
from onered.rules import Ball
from onered.web.play import shot_json
from web_support import Api

#: A jump from the D: the white struck down at 45° at 4 m/s.
JUMP = {"speed": 4.0, "aim": 90.0, "side": 0.0, "height": 0.0, "elevation": 45.0}


@given(results())
def test_every_piece_is_sent_with_its_height_in_the_air_and_without_on_the_bed(
    shot: tuple[dict[str, Vec2], ShotResult],
) -> None:
    before, result = shot
    known = {Ball(b): p for b, p in before.items() if b in {x.value for x in Ball}}
    sent = json.loads(json.dumps(shot_json(result, known)))
    for ball, path in result.paths.items():
        pieces = sent["paths"][ball]
        assert len(pieces) == len(path)
        for piece, seg in zip(pieces, path, strict=True):
            plane = [seg.t0, seg.t1, *seg.p0, *seg.v0, *seg.a]
            air = [seg.z0, seg.vz, seg.az] if seg.airborne else []
            assert piece == [round(x, 6) for x in plane + air]
    # the struck ball: the first moving from the strike (here every path starts then)
    moving = (b for b, p in result.paths.items() if p[0].v0 != (0.0, 0.0) or p[0].vz != 0)
    assert sent["cue"] == next(moving, None)
    kinds = {e["type"] for e in sent["events"]}
    assert kinds <= {"ball_ball", "cushion", "pocket", "land", "over", "off_table"}
    flights = sum(1 for path in result.paths.values() for s in path if s.airborne)
    assert ("land" in kinds) == (flights > 0)


def new_play(api: Api) -> tuple[str, str]:
    r = api.post("/api/games", json={"mode": "play", "players": ["Ann", "Bob"], "target": 30})
    assert r.status == 201, r.text
    return r.body["id"], r.body["token"]


def test_a_jump_played_is_sent_as_the_engine_flew_it(api: Api) -> None:
    assert api.get("/api/table").body["cushion_height"] == Params().cushion_height
    game, token = new_play(api)
    r = api.post(
        f"/api/games/{game}/play", json={"strike": JUMP, "placed": [0.95, 0.62]}, token=token
    )
    assert r.status == 200, r.text
    shot: dict[str, Any] = r.body["shot"]
    sim = PhysicsSimulator()
    result = simulate(
        {"white": (0.95, 0.62), "red": (0.889, 3.245)},
        "white",
        strike_to_launch(Strike(**JUMP), sim.params),
        sim.params,
        sim.table,
    )
    assert shot["cue"] == "white"
    white = shot["paths"]["white"]
    flights = [p for p in white if len(p) == 11]
    assert flights, "a jump stroke leaves the slate"
    for piece, seg in zip(white, result.paths["white"], strict=True):
        assert (len(piece) == 11) == seg.airborne
        if seg.airborne:
            assert piece[8:] == [round(seg.z0, 6), round(seg.vz, 6), round(seg.az, 6)]
    assert any(e["type"] == "land" and e["balls"] == ["white"] for e in shot["events"])
