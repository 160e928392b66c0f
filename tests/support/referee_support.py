"""Helpers for the referee tests: feed protocol lines, read verdicts back, build input lines.

Everything here follows ``docs/referee-protocol.md`` only; nothing in it knows how the
referee is implemented. The referee is imported lazily so that the test files collect even
while ``onered.protocol.referee`` does not exist yet.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

# --- names used throughout -----------------------------------------------------------------

#: players[0] won the lag and plays first with the white (default balls).
P1 = "Ivanov"
P2 = "Petrov"

BALLS = ("white", "yellow", "red")
BOTH_OPTIONS = ["as_they_lie", "from_d"]

#: Call texts fixed by decision 13 of docs/rules.md (English).
CALL_EN = {
    "seventy_cannons": "Seventy cannons!",
    "ten_hazards": "Ten hazards!",
    "touching_ball": "Touching ball!",
    "baulk_line_required": "Baulk line must be crossed",
    "baulk_line_crossed": "Baulk line crossed",
    "foul": "Foul",
}

# --- table geometry (docs/table.md) -------------------------------------------------------

BAULK_Y = 0.737
D_CENTRE = (0.889, 0.737)
D_RADIUS = 0.292
BALL_D = 0.0525
SPOTS: dict[str, tuple[float, float]] = {
    "billiards": (0.889, 3.245),
    "pyramid": (0.889, 2.67675),
    "centre": (0.889, 1.7845),
    "baulk_middle": (0.889, 0.737),
    "d_right": (1.181, 0.737),
    "d_left": (0.597, 0.737),
}
#: A comfortable place inside the D to put a cue ball in hand.
IN_D = [0.889, 0.6]


# --- running the referee ----------------------------------------------------------------------


@dataclass
class Judged:
    """What the referee made of some input: parsed verdicts, exit status, standard error."""

    verdicts: list[dict[str, Any]]
    status: int
    err: str
    out: str

    @property
    def last(self) -> dict[str, Any]:
        assert self.verdicts, f"no verdicts at all (status {self.status}, stderr {self.err!r})"
        return self.verdicts[-1]

    def ok(self) -> Judged:
        """Assert that every line was judged; return self for chaining."""
        assert self.status == 0, f"status {self.status}, stderr: {self.err!r}"
        return self


def encode(line: str | dict[str, Any]) -> str:
    """A protocol input line: dicts are JSON-encoded, strings are passed as they are."""
    return line if isinstance(line, str) else json.dumps(line)


def parse_verdicts(out: str) -> list[dict[str, Any]]:
    """One JSON object a non-empty output line."""
    verdicts = []
    for n, text in enumerate(out.splitlines(), 1):
        if not text.strip():
            continue
        try:
            verdict = json.loads(text)
        except json.JSONDecodeError as exc:  # pragma: no cover - a referee bug
            raise AssertionError(f"output line {n} is not JSON: {text!r}") from exc
        assert isinstance(verdict, dict), f"output line {n} is not an object: {text!r}"
        verdicts.append(verdict)
    return verdicts


def judge(lines: Sequence[str | dict[str, Any]]) -> Judged:
    """Run the in-process referee over ``lines`` and collect what it says."""
    from onered.protocol.referee import run

    out, err = io.StringIO(), io.StringIO()
    status = run([encode(line) for line in lines], out, err)
    return Judged(parse_verdicts(out.getvalue()), status, err.getvalue(), out.getvalue())


def judge_ok(lines: Sequence[str | dict[str, Any]]) -> list[dict[str, Any]]:
    """Verdicts of an input that must be judged without error."""
    return judge(lines).ok().verdicts


# --- comparing --------------------------------------------------------------------------------


def _same_scalar(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, float) or isinstance(actual, float):
        return (
            isinstance(actual, int | float)
            and isinstance(expected, int | float)
            and math.isclose(expected, actual, rel_tol=0.0, abs_tol=1e-9)
        )
    return type(expected) is type(actual) and expected == actual


def subset_mismatches(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` differs from ``expected``: dicts by the keys of ``expected``
    (recursively), lists element by element and of equal length, scalars by equality
    (``True`` is not ``1``; floats to 1e-9)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key}: missing (expected {value!r})")
            else:
                problems += subset_mismatches(value, actual[key], f"{path}.{key}")
        return problems
    if isinstance(expected, list):
        if not _same_scalar_deep(expected, actual):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        return []
    if not _same_scalar(expected, actual):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _same_scalar_deep(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(
            _same_scalar_deep(expected[k], actual[k]) for k in expected
        )
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(map(_same_scalar_deep, expected, actual))
    return _same_scalar(expected, actual)


def subset_match(expected: Any, actual: Any) -> bool:
    """True when every key of ``expected`` (recursively) matches ``actual``; lists and scalars
    must be equal."""
    return not subset_mismatches(expected, actual)


def assert_subset(expected: Any, actual: Any, where: str = "") -> None:
    problems = subset_mismatches(expected, actual)
    assert not problems, (
        (where + ": " if where else "") + "; ".join(problems) + (f"\nverdict: {json.dumps(actual)}")
    )


# --- reading verdicts -------------------------------------------------------------------------


def call_codes(verdict: dict[str, Any]) -> list[str]:
    """The codes of the verdict's calls, sorted (their order is not fixed by the protocol)."""
    return sorted(call["code"] for call in verdict["calls"])


def foul_codes(verdict: dict[str, Any]) -> list[str] | None:
    """The verdict's foul codes, sorted, or None when there was no foul."""
    foul = verdict["foul"]
    return None if foul is None else sorted(foul["codes"])


def placement_set(verdict: dict[str, Any]) -> list[str]:
    """The verdict's placements as sorted ``"ball@spot"`` strings (order-free view)."""
    return sorted(f"{p['ball']}@{p['at']}" for p in verdict["placements"])


def last_placement(verdict: dict[str, Any], ball: str) -> Any:
    """Where ``ball`` was last placed on this line, or None."""
    spots = [p["at"] for p in verdict["placements"] if p["ball"] == ball]
    return spots[-1] if spots else None


def scored_parts(verdict: dict[str, Any]) -> dict[str, int]:
    """The non-zero parts of ``scored``."""
    return {key: value for key, value in verdict["scored"].items() if value}


def augmented(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict plus order-free derived views, for table-driven expectations:
    ``$calls`` (sorted call codes), ``$fouls`` (sorted foul codes or null), ``$in_hand``
    (sorted), ``$placements`` (sorted "ball@spot"), ``$scored`` (non-zero parts)."""
    view = dict(verdict)
    view["$calls"] = call_codes(verdict)
    view["$fouls"] = foul_codes(verdict)
    view["$in_hand"] = sorted(verdict["in_hand"])
    view["$placements"] = placement_set(verdict)
    view["$scored"] = scored_parts(verdict)
    return view


# --- building input lines ---------------------------------------------------------------------


def match(
    target: int = 1000,
    players: Iterable[str] = (P1, P2),
    balls: Iterable[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    line: dict[str, Any] = {"type": "match", "target": target, "players": list(players)}
    if balls is not None:
        line["balls"] = list(balls)
    line.update(extra)
    return line


def stroke(**fields: Any) -> dict[str, Any]:
    """A ``stroke`` line; ``stroke()`` alone is a miss (``first_hit`` defaults to null)."""
    return {"type": "stroke", **fields}


def choice(option: str) -> dict[str, Any]:
    return {"type": "choice", "option": option}


def no_score() -> dict[str, Any]:
    """A fair stroke that hits the red and scores nothing: the visit ends."""
    return stroke(first_hit="red")


def pot_red(**more: Any) -> dict[str, Any]:
    return stroke(first_hit="red", potted=["red"], **more)


def cannon(first_hit: str = "red", **more: Any) -> dict[str, Any]:
    return stroke(first_hit=first_hit, cannon=True, **more)


def cannon_pot_red(**more: Any) -> dict[str, Any]:
    """Cannon off the red first, red potted: 5 points, a stroke that resets both limits."""
    return stroke(first_hit="red", cannon=True, potted=["red"], **more)


def foul_stroke(*codes: str, **more: Any) -> dict[str, Any]:
    fields: dict[str, Any] = {"first_hit": "red", "fouls": list(codes)}
    fields.update(more)
    return stroke(**fields)


def petrov_to_play() -> list[dict[str, Any]]:
    """Ivanov's first visit ends at once: Petrov brings the yellow in from the D, white and red
    are on the table (the red has been touched, so it no longer stands on a spot)."""
    return [match(), no_score()]


def ivanov_again() -> list[dict[str, Any]]:
    """Both visits have ended once: Ivanov plays the white where it lies, all three balls on the
    table, no break running, the red off its spot."""
    return [*petrov_to_play(), no_score()]


def assert_error_at(lines: Sequence[str | dict[str, Any]], n: int) -> Judged:
    """The referee stops at input line ``n`` with status 2, says ``line n:`` on standard
    error, and has printed one verdict for every non-blank line before it (and no more)."""
    judged = judge(lines)
    assert judged.status == 2, f"expected status 2, got {judged.status}; stderr {judged.err!r}"
    assert f"line {n}:" in judged.err, f"expected 'line {n}:' in stderr, got {judged.err!r}"
    earlier = [encode(line) for line in lines[: n - 1]]
    expected = sum(1 for text in earlier if text.strip())
    assert len(judged.verdicts) == expected, (
        f"expected {expected} verdicts before line {n}, got {len(judged.verdicts)}"
    )
    return judged


# --- random valid games (property tests) -------------------------------------------------------

CALLER_CODES = [
    "wrong_ball",
    "double_hit",
    "balls_moving",
    "feet_off_floor",
    "bad_from_hand",
    "in_off_from_hand",
    "jump",
    "push",
    "touched_ball",
    "before_spotting",
]
INSIDE_D = [[0.889, 0.6], [1.0, 0.7], [0.7, 0.65], [1.181, 0.737], [0.889, 0.445]]
OUTSIDE_D = [[0.889, 1.0], [0.2, 0.5]]
BALL_OF = {P1: "white", P2: "yellow"}


def other(player: str) -> str:
    return P2 if player == P1 else P1


@st.composite
def stroke_for(
    draw: Callable[..., Any], verdict: dict[str, Any], on_table: list[str] | None = None
) -> dict[str, Any]:
    """A valid stroke for the player the verdict says is to play; given the balls
    ``on_table`` before it, it may also give their rest positions (anywhere on the bed,
    now and then on a spot or touching another ball)."""
    striker = verdict["next"]
    own, opp = BALL_OF[striker], BALL_OF[other(striker)]
    opp_on = opp not in verdict["in_hand"]
    if draw(st.integers(0, 24)) == 0:
        return stroke(struck=False, fouls=[draw(st.sampled_from(CALLER_CODES))])
    hits: list[str | None] = ["red", "red", "red", None]
    if opp_on:
        hits += [opp, opp, "both"]
    first_hit = draw(st.sampled_from(hits))
    fields: dict[str, Any] = {"first_hit": first_hit}
    if first_hit == "both":
        fields["cannon"] = True
    elif first_hit is not None and opp_on:
        fields["cannon"] = draw(st.booleans())
    can_pot = [own] if first_hit is None else ["red", own] + ([opp] if opp_on else [])
    potted = [ball for ball in can_pot if draw(st.integers(0, 2)) == 0]
    fields["potted"] = potted
    if draw(st.integers(0, 14)) == 0:
        candidates = [ball for ball in can_pot if ball not in potted]
        if candidates:
            fields["off_table"] = [draw(st.sampled_from(candidates))]
    if draw(st.integers(0, 9)) == 0:
        fields["fouls"] = [draw(st.sampled_from(CALLER_CODES))]
    cue_ball_rests = own not in potted and own not in fields.get("off_table", [])
    if cue_ball_rests:
        fields["crossed_baulk"] = draw(st.booleans())
        fields["touching"] = draw(st.integers(0, 9)) == 0
    if verdict["next_from_d"] and draw(st.booleans()):
        spots = INSIDE_D + OUTSIDE_D if draw(st.integers(0, 9)) == 0 else INSIDE_D
        fields["placed"] = draw(st.sampled_from(spots))
    if on_table is not None and fields.get("struck", True) and draw(st.booleans()):
        gone = set(fields["potted"]) | set(fields.get("off_table", []))
        resting = [b for b in {*on_table, own} if b not in gone]
        fields["positions"] = {b: draw(rest_point()) for b in sorted(resting)}
    return stroke(**fields)


@st.composite
def rest_point(draw: Callable[..., Any]) -> list[float]:
    """A ball's centre at rest on the bed: anywhere, or on a spot, or by another spot."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return list(draw(st.sampled_from(list(SPOTS.values()))))
    if kind == 1:
        x, y = draw(st.sampled_from(list(SPOTS.values())))
        return [x + draw(st.floats(-0.06, 0.06)), y]
    x = draw(st.floats(BALL_D / 2, 1.778 - BALL_D / 2))
    y = draw(st.floats(BALL_D / 2, 3.569 - BALL_D / 2))
    return [x, y]


def play(
    data: st.DataObject,
    target: int,
    length: int,
    *,
    with_positions: bool = False,
    start: dict[str, Any] | None = None,
) -> tuple[list[Any], list[dict[str, Any]]]:
    """Draw a game of at most ``length`` lines after the match line, judging each line as it
    is drawn (one referee session carries the state, so a game costs its length, not its
    square); at the end the whole input is judged again in one run, which must give the same
    verdicts (a later line never changes an earlier verdict). ``with_positions``: strokes
    may give the balls' rest positions (``stroke_for``). ``start``: a first line other than
    ``match(target)`` (a ``position`` line; its players must be P1 with the white and P2)."""
    from onered.protocol.referee import RefereeSession, verdict_json

    session = RefereeSession()
    lines: list[Any] = [match(target=target) if start is None else start]
    verdicts = [_feed(session, lines[0], verdict_json)]
    for _ in range(length):
        last = verdicts[-1]
        if last["winner"] is not None:
            break
        if last["options"] and data.draw(st.integers(0, 2)) == 0:
            line = choice(data.draw(st.sampled_from(BOTH_OPTIONS)))
        else:
            table = session.state.table if session.state is not None else {}
            on_table = [b.value for b in table]
            line = data.draw(stroke_for(last, on_table if with_positions else None))
        lines.append(line)
        verdicts.append(_feed(session, line, verdict_json))
    assert judge(lines).ok().verdicts == verdicts, "a later line changed an earlier verdict"
    return lines, verdicts


def _feed(session: Any, line: dict[str, Any], verdict_json: Any) -> dict[str, Any]:
    """One line through the session, the verdict as the protocol writes it (JSON types)."""
    verdict, players = session.feed(json.loads(json.dumps(line)))
    answer: dict[str, Any] = json.loads(json.dumps(verdict_json(verdict, players)))
    return answer
