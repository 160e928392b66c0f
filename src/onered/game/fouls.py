"""Fouls the referee protocol leaves to its caller, read from a simulated shot.

Of the caller's foul codes, only one can happen on a simulated table: a wrong stroke from
hand (2.6, 2.11(6), ``bad_from_hand``) — the placement outside the D the referee derives
itself, but whether the ball was played out of baulk it cannot know. The others (a double
hit, a push, a jump, feet off the floor, touching a ball) are things a player's body does,
which the simulation does not model.

The reading (2.6.3–2.6.6 of the original, decision 7 of ``docs/rules.md`` as corrected on
2026-12-03): from hand, before the cue ball touches a ball in baulk, comes back across the
baulk line into baulk, or comes to rest in baulk, it must have touched a ball out of baulk or a
cushion at a point out of baulk (2.6.3, 2.6.4). Cushions in baulk may be used on the way
out (2.6.5). So a ball in baulk may not be played directly (2.6.6) — "in baulk" by its
centre (decision 1), so a ball whose centre is on the line is in baulk however far it
overhangs, and one whose centre is beyond the line is not — but it may be played after a
cushion out of baulk (2.6.4). A cue ball that falls into a pocket without touching
anything is a miss (and, with every object ball in baulk, ``in_off_from_hand``), which the
referee derives. Pocket jaws are part of the cushion.

One reading, :func:`bad_from_hand_touches`, over the cue ball's :class:`Touch`\\ es; the
game loop feeds it a full shot (:func:`bad_from_hand`), the AI its compact simulations
(:func:`bad_from_hand_compact`), so both judge every stroke alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from enum import Enum

from onered.physics import DIRECTIONS, EVENT_KINDS
from onered.physics.types import EventKind, Segment, ShotResult
from onered.table import BAULK_Y, Point, in_baulk

#: Event codes of the compact form.
_BALL_BALL = EVENT_KINDS.index(EventKind.BALL_BALL)
_CUSHION = EVENT_KINDS.index(EventKind.CUSHION)
_POCKET = EVENT_KINDS.index(EventKind.POCKET)
_BAULK_LINE = EVENT_KINDS.index(EventKind.BAULK_LINE)
_IN, _OUT = DIRECTIONS.index("in"), DIRECTIONS.index("out")


class Touch(Enum):
    """What the cue ball met, in the terms of 2.6: only these matter to the reading."""

    BALL_IN_BAULK = "ball_in_baulk"  # a ball whose centre stood in baulk (decision 1)
    BALL_OUT_OF_BAULK = "ball_out_of_baulk"
    CUSHION_IN_BAULK = "cushion_in_baulk"  # allowed on the way out (2.6.5), counts for nothing
    CUSHION_OUT_OF_BAULK = "cushion_out_of_baulk"
    LEAVES_BAULK = "leaves_baulk"  # its centre crossed the baulk line away from the bottom
    ENTERS_BAULK = "enters_baulk"  # ... and towards it
    FALLS = "falls"  # into a pocket


def bad_from_hand_touches(touches: Iterable[Touch], rests_in_baulk: bool) -> bool:
    """The stroke from hand was not played out of baulk (decision 7, see the module
    docstring): ``touches`` are the cue ball's in time order, ``rests_in_baulk`` whether
    it came to rest with its centre in baulk (``False`` when it fell)."""
    played_out = left = False
    for touch in touches:
        if touch is Touch.BALL_OUT_OF_BAULK or touch is Touch.FALLS:
            return False
        if touch is Touch.BALL_IN_BAULK:
            return not played_out
        if touch is Touch.CUSHION_OUT_OF_BAULK:
            played_out = True
        elif touch is Touch.LEAVES_BAULK:
            left = True
        elif touch is Touch.ENTERS_BAULK and left and not played_out:
            # back into baulk (2.6.4); a ball placed a hair beyond the line (still in the D
            # by decision 1's tolerance) that is played straight down has not come back
            return True
    return not played_out and rests_in_baulk


def position_at(path: Sequence[Segment], t: float, default: Point) -> Point:
    """A ball's centre at time ``t``: the trajectory piece covering ``t`` (the last one
    that starts at or before it), or ``default`` when the path is empty."""
    current: Segment | None = None
    for seg in path:
        if seg.t0 <= t:
            current = seg
        else:
            break
    if current is None:
        return default
    tau = min(t, current.t1) - current.t0
    return (
        current.p0[0] + current.v0[0] * tau + 0.5 * current.a[0] * tau * tau,
        current.p0[1] + current.v0[1] * tau + 0.5 * current.a[1] * tau * tau,
    )


def _shot_touches(result: ShotResult, cue: str, before: Mapping[str, Point]) -> Iterator[Touch]:
    path = result.paths.get(cue, ())
    start = before[cue]
    beyond = start[1] > BAULK_Y  # which side of the line the engine has the cue ball on
    for event in result.events:
        if cue not in event.balls:
            continue
        kind = event.kind
        if kind is EventKind.BALL_BALL:
            other = event.balls[0] if event.balls[1] == cue else event.balls[1]
            yield Touch.BALL_IN_BAULK if in_baulk(before[other]) else Touch.BALL_OUT_OF_BAULK
        elif kind is EventKind.CUSHION:
            # located on the path (decision 1, exactly); without one, by the crossings
            out = not in_baulk(position_at(path, event.t, start)) if path else beyond
            yield Touch.CUSHION_OUT_OF_BAULK if out else Touch.CUSHION_IN_BAULK
        elif kind is EventKind.BAULK_LINE:
            beyond = event.direction == "out"
            yield Touch.LEAVES_BAULK if beyond else Touch.ENTERS_BAULK
        elif kind is EventKind.POCKET:
            yield Touch.FALLS


def bad_from_hand(result: ShotResult, cue: str, before: Mapping[str, Point]) -> bool:
    """The stroke from hand was not played out of baulk (decision 7). ``before`` holds
    every ball's centre before the stroke, the cue ball's placement included; cushion
    contacts are located on the cue ball's path in ``result`` (without a path, by its
    baulk-line crossings)."""
    rest = result.rest.get(cue)
    rests_in_baulk = rest is not None and in_baulk(rest)
    return bad_from_hand_touches(_shot_touches(result, cue, before), rests_in_baulk)


def _compact_touches(
    events: Iterable[tuple[float, int, int, int, int, int, int]],
    ids: Sequence[str],
    ci: int,
    before: Mapping[str, Point],
) -> Iterator[Touch]:
    beyond = before[ids[ci]][1] > BAULK_Y
    for _t, kind, a, b, _cushion, _pocket, direction in events:
        if a != ci and b != ci:
            continue
        if kind == _BALL_BALL:
            other = ids[b if a == ci else a]
            yield Touch.BALL_IN_BAULK if in_baulk(before[other]) else Touch.BALL_OUT_OF_BAULK
        elif kind == _CUSHION:
            # no path in the compact form: the cue ball's side of the line, by its crossings
            yield Touch.CUSHION_OUT_OF_BAULK if beyond else Touch.CUSHION_IN_BAULK
        elif kind == _BAULK_LINE and direction in (_IN, _OUT):
            beyond = direction == _OUT
            yield Touch.LEAVES_BAULK if beyond else Touch.ENTERS_BAULK
        elif kind == _POCKET:
            yield Touch.FALLS


def bad_from_hand_compact(
    events: Iterable[tuple[float, int, int, int, int, int, int]],
    rest: Sequence[Point | None],
    ids: Sequence[str],
    cue: str,
    before: Mapping[str, Point],
) -> bool:
    """:func:`bad_from_hand` for a shot of ``onered.physics.simulate_compact`` (its
    ``events`` and ``rest``, the batch's ``ids``). With no trajectories, a cushion
    contact is placed by the side of the baulk line the cue ball's crossings put it on,
    which differs from :func:`bad_from_hand` only within 1e-6 m of the line."""
    ci = ids.index(cue)
    end = rest[ci]
    rests_in_baulk = end is not None and in_baulk(end)
    return bad_from_hand_touches(_compact_touches(events, ids, ci, before), rests_in_baulk)
