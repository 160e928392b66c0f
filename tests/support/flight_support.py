"""Shots with balls in the air made by hand, for the tests of what draws or sends them
(``onered.svg``, the web's ``shot_json``): hypothesis strategies of continuous paths mixing
pieces on the bed and flights, and of shots with their flight events (``airborne``, ``land``,
``over``, ``off_table``). The drawing and the sending read only ``Segment``'s fields, so any
continuous path is a fair input; the engine's own flights are checked in tests/physics."""

from __future__ import annotations

from hypothesis import strategies as st

from onered.physics.types import Event, EventKind, Segment, ShotResult, Vec2

#: Gravity (m/s²), the flights' ``az = -G``.
G = 9.81


@st.composite
def paths(draw: st.DrawFn, start_t: float = 0.0) -> tuple[Segment, ...]:
    """A continuous path from a point on the table: pieces on the bed (decelerating) and
    flights (leaving the slate and coming down on it, or cut short), one after another."""
    t = start_t
    p: Vec2 = (draw(st.floats(0.1, 1.7)), draw(st.floats(0.1, 3.4)))
    out: list[Segment] = []
    for _ in range(draw(st.integers(1, 6))):
        v = (draw(st.floats(-3, 3)), draw(st.floats(-3, 3)))
        if draw(st.booleans()):
            vz = draw(st.floats(0.05, 2.0))
            span = 2 * vz / G * draw(st.sampled_from([1.0, 1.0, 0.5]))
            seg = Segment(t, t + span, p, v, (0.0, 0.0), z0=0.0, vz=vz, az=-G)
        else:
            span = draw(st.floats(0.01, 1.5))
            a = (-v[0] * draw(st.floats(0, 0.6)), -v[1] * draw(st.floats(0, 0.6)))
            seg = Segment(t, t + span, p, v, a)
        out.append(seg)
        t = seg.t1
        p = seg.at(t)
    return tuple(out)


NAMES = ["white", "yellow", "red", 'a<b&"c']


@st.composite
def results(draw: st.DrawFn) -> tuple[dict[str, Vec2], ShotResult]:
    """A shot: some balls moving on generated paths, each flight's landing, a ball passed
    over, and perhaps a ball off the table (its rest ``None``)."""
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    moving = {n: draw(paths()) for n in names[: draw(st.integers(1, len(names)))]}
    before = {
        n: moving[n][0].p0 if n in moving else (0.5, 1.0 + i * 0.2) for i, n in enumerate(names)
    }
    events: list[Event] = []
    for name, path in moving.items():
        for seg in path:
            if seg.airborne:
                events.append(Event(seg.t0, EventKind.AIRBORNE, (name,)))
                events.append(Event(seg.t1, EventKind.LAND, (name,)))
                if len(names) > 1:
                    other = next(n for n in names if n != name)
                    events.append(Event(seg.t0, EventKind.OVER, (name, other)))
    rest: dict[str, Vec2 | None] = {}
    off = draw(st.sampled_from([None, *moving]))
    for name in names:
        path = moving.get(name, ())
        rest[name] = path[-1].at(path[-1].t1) if path else before[name]
    if off is not None:
        rest[off] = None
        events.append(Event(moving[off][-1].t1, EventKind.OFF_TABLE, (off,), cushion="top"))
    events.sort(key=lambda e: e.t)
    duration = max(p[-1].t1 for p in moving.values())
    return before, ShotResult(tuple(events), rest, duration, moving)
