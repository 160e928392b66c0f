"""A person at the terminal as a player (``onered play --p1 human``): he sees the table drawn
in text and types his strokes; the game loop asks him as it asks the AI (the
``onered.players.Player`` protocol), and the marker's calls are printed by ``onered play``.

A stroke is one line, ``AIM SPEED [SIDE [HEIGHT]]``:

- ``AIM``: degrees counter-clockwise from the right cushion's direction (90 = straight up
  the table, towards the top cushion), or a ball (``red``, ``yellow``, ``white``: at its
  centre, a full-ball contact) or a pocket (``top_left`` … ``bottom_right``, or ``tl`` …
  ``br``, ``ml``, ``mr``), either with ``+N`` / ``-N`` degrees after it (``red-3``: 3
  degrees to the right of the red's centre);
- ``SPEED``: the cue ball's speed in m/s (about 1 for a gentle stroke, 3 firm, 6 a power
  stroke);
- ``SIDE``, ``HEIGHT``: where the tip meets the ball, in fractions of its radius (right and
  up positive, at most 0.8 from the centre: ``0 0.4`` is top spin, ``0 -0.5`` screw).

From hand he first places his ball in the D (``X Y`` in metres, or Enter for the middle of
the baulk line); after a foul by his opponent he picks one of the options. ``help`` shows
the grammar, ``table`` draws the table again, ``quit`` (or the end of the input) stops the
game. A line that cannot be played is refused with the reason, and he types again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import TextIO

from onered.game.loop import placement_problem
from onered.game.model import Action, LagChoice, Position
from onered.physics import Params, Strike, strike_to_launch
from onered.rules import Ball, Option
from onered.rules.model import write_line
from onered.table import BAULK_Y, D_CENTRE, LENGTH, POCKET_POINTS, WIDTH, Point

#: Short names of the pockets (``tl`` for ``top_left`` …).
POCKET_SHORT = {"".join(w[0] for w in name.split("_")): name for name in POCKET_POINTS}
#: Where a ball from hand goes when the person just presses Enter: the middle of the D's line.
DEFAULT_PLACE: Point = D_CENTRE
#: The text drawing's size in characters (the table is twice as long as it is wide, and a
#: character about twice as tall as it is wide).
COLUMNS = 31
ROWS = 31

GRAMMAR = (
    "a stroke: AIM SPEED [SIDE [HEIGHT]] — AIM in degrees (90 = up the table) or a ball or "
    "pocket (red, yellow, white, tl, tr, ml, mr, bl, br; red-3 = 3 degrees right of the red), "
    "SPEED in m/s (1 gentle, 3 firm, 6 hard), SIDE/HEIGHT tip offsets in ball radii "
    "(right/up positive, within 0.8). 'table' draws the table, 'quit' stops."
)


class Quit(Exception):  # noqa: N818 - it is a request, not an error
    """The person stopped the game (``quit`` or the end of his input)."""


def draw_table(balls: Mapping[Ball, Point]) -> list[str]:
    """The table in text, seen from the baulk end (top cushion at the top): ``W``, ``Y``,
    ``R`` the balls, ``o`` the pockets, ``-`` the baulk line and ``.`` the D."""
    grid = [[" "] * COLUMNS for _ in range(ROWS)]

    def cell(p: Point) -> tuple[int, int]:
        col = round(p[0] / WIDTH * (COLUMNS - 1))
        row = round((1 - p[1] / LENGTH) * (ROWS - 1))
        return min(max(row, 0), ROWS - 1), min(max(col, 0), COLUMNS - 1)

    baulk_row, _ = cell((0.0, BAULK_Y))
    grid[baulk_row] = ["-"] * COLUMNS
    for k in range(24):  # the D's arc below the baulk line
        angle = math.pi + math.pi * k / 23
        row, col = cell((D_CENTRE[0] + 0.292 * math.cos(angle), BAULK_Y + 0.292 * math.sin(angle)))
        grid[row][col] = "."
    for point in POCKET_POINTS.values():
        row, col = cell(point)
        grid[row][col] = "o"
    for ball, p in balls.items():
        row, col = cell(p)
        grid[row][col] = ball.value[0].upper()
    border = "+" + "-" * COLUMNS + "+"
    return [border, *("|" + "".join(r) + "|" for r in grid), border]


def parse_stroke(text: str, position: Position) -> Strike:
    """The strike a line describes (see the module); ``ValueError`` says what is wrong."""
    parts = text.split()
    if not 2 <= len(parts) <= 4:
        raise ValueError("expected AIM SPEED [SIDE [HEIGHT]]")
    aim = parse_aim(parts[0], position)
    try:
        speed, *tip = (float(p) for p in parts[1:])
    except ValueError:
        raise ValueError(
            f"SPEED, SIDE and HEIGHT are numbers, got {' '.join(parts[1:])!r}"
        ) from None
    side, height = (*tip, 0.0, 0.0)[:2]
    strike = Strike(speed=speed, aim=aim, side=side, height=height)
    strike_to_launch(strike, Params())  # the engine's own limits, named in its message
    return strike


def parse_aim(text: str, position: Position) -> float:
    """Degrees, or a ball or pocket with an optional ``+N``/``-N`` (degrees) after it."""
    try:
        return float(text) % 360.0
    except ValueError:
        pass
    cut = max(text.rfind("+"), text.rfind("-"))
    name, offset = (text[:cut], text[cut:]) if cut > 0 else (text, "0")
    try:
        turn = float(offset)
    except ValueError:
        raise ValueError(f"AIM: {offset!r} is not a number of degrees") from None
    target = _target(name.lower(), position)
    cue = position.balls.get(position.cue_ball, DEFAULT_PLACE)
    if math.dist(cue, target) < 1e-9:
        raise ValueError(f"AIM: {name!r} is where the cue ball stands")
    return (math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + turn) % 360.0


def _target(name: str, position: Position) -> Point:
    pocket = POCKET_SHORT.get(name, name)
    if pocket in POCKET_POINTS:
        return POCKET_POINTS[pocket]
    try:
        ball = Ball(name)
    except ValueError:
        raise ValueError(
            f"AIM: {name!r} is neither a number of degrees, a ball nor a pocket "
            f"({', '.join(POCKET_SHORT)})"
        ) from None
    if ball is position.cue_ball:
        raise ValueError(f"AIM: the {ball.value} is your own cue ball")
    if ball not in position.balls:
        raise ValueError(f"AIM: the {ball.value} is not on the table")
    return position.balls[ball]


def parse_place(text: str, position: Position) -> Point:
    """Where the ball in hand goes: ``X Y`` in metres (Enter: the middle of the D's line);
    ``ValueError`` says why not there."""
    parts = text.replace(",", " ").split()
    if not parts:
        point = DEFAULT_PLACE
    else:
        try:
            x, y = (float(p) for p in parts)
        except ValueError:
            raise ValueError("expected X Y in metres (e.g. 0.95 0.6), or Enter") from None
        point = (x, y)
    problem = placement_problem(position.balls, position.cue_ball, point)
    if problem is not None:
        raise ValueError(problem)
    return point


class TerminalPlayer:
    """A person at a terminal: reads his answers from ``read`` (a line, or ``None`` at the
    end of the input) and writes the table and the prompts to ``out``."""

    def __init__(self, name: str, read: Callable[[], str | None], out: TextIO) -> None:
        self.name = name
        self._read = read
        self._out = out

    @property
    def description(self) -> str:
        return "human"

    def _ask(self, prompt: str) -> str:
        print(f"{self.name}, {prompt}: ", end="", file=self._out, flush=True)
        line = self._read()
        if line is None or line.strip().lower() in ("quit", "exit", "q"):
            raise Quit
        return line.strip()

    def lag(self, start: Point) -> Strike:
        """The lag: up the table to the top cushion and back; he gives the speed."""
        while True:
            text = self._ask("lag — the speed of your ball up the table (m/s, about 2.3)")
            try:
                strike = Strike(speed=float(text), aim=90.0)
                strike_to_launch(strike, Params())
            except ValueError as exc:
                print(f"  {exc}", file=self._out)
                continue
            return strike

    def lag_choice(self) -> LagChoice:
        """Having won the lag: first or second, and which ball."""
        while True:
            answer = self._ask("you won the lag: play first? [Y/n]").lower()
            if answer in ("", "y", "yes", "n", "no"):
                break
        first = answer in ("", "y", "yes")
        while True:
            ball = self._ask("your ball: white or yellow? [white]").lower() or "white"
            if ball in ("white", "w", "yellow", "y"):
                return LagChoice(first, Ball.WHITE if ball.startswith("w") else Ball.YELLOW)

    def choose(self, options: Mapping[Option, Position]) -> Option:
        """After the opponent's foul: as the balls lie, or his ball in hand."""
        names = {
            Option.AS_THEY_LIE: "play the balls as they lie",
            Option.FROM_D: "play from the D (your ball in hand)",
        }
        listed = list(options)
        for k, option in enumerate(listed, start=1):
            print(f"  {k}. {names.get(option, option.value)}", file=self._out)
        while True:
            answer = self._ask(f"your opponent fouled: choose 1-{len(listed)}")
            if answer.isdigit() and 1 <= int(answer) <= len(listed):
                return listed[int(answer) - 1]

    def show(self, position: Position) -> None:
        """The table and the position's line."""
        for line in draw_table(position.balls):
            print(line, file=self._out)
        at = ", ".join(f"{b.value} ({p[0]:.3f}, {p[1]:.3f})" for b, p in position.balls.items())
        print(f"{at}\n{write_line(position.state)}", file=self._out)

    def decide(self, position: Position) -> Action:
        """His stroke: the table shown, the placement asked from hand, then the stroke."""
        self.show(position)
        placed = None
        if position.in_hand:
            while True:
                text = self._ask(
                    f"place the {position.cue_ball.value} in the D: X Y in metres "
                    "(Enter: the middle of the baulk line)"
                )
                try:
                    placed = parse_place(text, position)
                    break
                except ValueError as exc:
                    print(f"  {exc}", file=self._out)
            position = Position({**position.balls, position.cue_ball: placed}, position.state)
        while True:
            text = self._ask(f"your stroke with the {position.cue_ball.value} ('help')")
            if text.lower() in ("help", "?", "h"):
                print(f"  {GRAMMAR}", file=self._out)
                continue
            if text.lower() == "table":
                self.show(position)
                continue
            try:
                return Action(parse_stroke(text, position), placed=placed)
            except ValueError as exc:
                print(f"  {exc}", file=self._out)
