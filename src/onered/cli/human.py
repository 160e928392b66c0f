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

Every word he reads is in his language (``onered play --lang``: the ``human.*`` words of
:mod:`onered.texts`); he may also answer in Russian (balls «красный», pockets «лв» …, «да»,
«помощь», a decimal comma), whatever the language.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable, Mapping
from typing import TextIO

from onered import texts
from onered.game.loop import placement_problem
from onered.game.model import Action, LagChoice, Position
from onered.physics import Params, PhysicsInputError, Strike, strike_to_launch
from onered.physics.cue import MAX_SPEED, MAX_TIP_OFFSET
from onered.rules import Ball, Option
from onered.rules.model import write_line
from onered.table import (
    BALL_DIAMETER,
    BAULK_Y,
    D_CENTRE,
    D_RADIUS,
    EPS,
    LENGTH,
    POCKET_POINTS,
    WIDTH,
    Point,
    in_d,
)
from onered.texts import Case, Lang

#: Short names of the pockets (``tl`` for ``top_left`` …, «лв» in Russian), in every language.
POCKET_SHORT = {
    texts.word(f"human.pocket.{name}", lang): name for lang in Lang for name in POCKET_POINTS
}
#: Where a ball from hand goes when the person just presses Enter: the middle of the D's line.
DEFAULT_PLACE: Point = D_CENTRE
#: The text drawing's size in characters (the table is twice as long as it is wide, and a
#: character about twice as tall as it is wide).
COLUMNS = 31
ROWS = 31


def _answers(key: str, *english: str, initials: bool = True) -> frozenset[str]:
    """What a person may type for the word ``human.word.<key>``: the word in every language,
    its first letter (when ``initials``), and the English aliases given."""
    said = {_plain(texts.word(f"human.word.{key}", lang)) for lang in Lang}
    return frozenset(said | ({w[0] for w in said} if initials else set()) | set(english))


def _plain(text: str) -> str:
    """An answer as it is compared: stripped, lower case, a diaeresis dropped (so a Russian
    «е» typed for «ё» is understood)."""
    decomposed = unicodedata.normalize("NFD", text.strip().lower()).replace("\u0308", "")
    return unicodedata.normalize("NFC", decomposed)


def _number(text: str) -> float:
    """A number as typed, a decimal comma allowed (``ValueError`` when it is none)."""
    return float(text.strip(",").replace(",", "."))


#: The answers to a yes/no question, and the commands of the stroke prompt.
YES = _answers("yes", "y")
NO = _answers("no", "n")
HELP = _answers("help", "?")
TABLE = _answers("table")
QUIT = _answers("quit", "exit", "q", initials=False)  # a stray letter does not end a game
#: The balls by every name a person may type: the English value and each language's name.
BALL_NAMES = {
    _plain(name): ball
    for ball in Ball
    for name in (ball.value, *(texts.ball_name(ball, lang) for lang in Lang))
}


def grammar(lang: Lang) -> str:
    """The stroke's grammar in ``lang`` (what ``help`` shows)."""
    return texts.word(
        "human.grammar",
        lang,
        pockets=_pockets(lang),
        max_tip=MAX_TIP_OFFSET,
        table=texts.word("human.word.table", lang),
        quit=texts.word("human.word.quit", lang),
    )


def _pockets(lang: Lang) -> str:
    return ", ".join(texts.word(f"human.pocket.{name}", lang) for name in POCKET_POINTS)


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
        row, col = cell(
            (D_CENTRE[0] + D_RADIUS * math.cos(angle), BAULK_Y + D_RADIUS * math.sin(angle))
        )
        grid[row][col] = "."
    for point in POCKET_POINTS.values():
        row, col = cell(point)
        grid[row][col] = "o"
    for ball, p in balls.items():
        row, col = cell(p)
        grid[row][col] = ball.value[0].upper()
    border = "+" + "-" * COLUMNS + "+"
    return [border, *("|" + "".join(r) + "|" for r in grid), border]


def parse_stroke(text: str, position: Position, lang: Lang = Lang.EN) -> Strike:
    """The strike a line describes (see the module); ``ValueError`` says in ``lang`` what is
    wrong."""
    parts = text.split()
    if not 2 <= len(parts) <= 4:
        raise ValueError(texts.word("human.error.stroke", lang))
    aim = parse_aim(parts[0], position, lang)
    try:
        speed, *tip = (_number(p) for p in parts[1:])
    except ValueError:
        raise ValueError(texts.word("human.error.numbers", lang, got=" ".join(parts[1:]))) from None
    side, height = (*tip, 0.0, 0.0)[:2]
    strike = Strike(speed=speed, aim=aim, side=side, height=height)
    try:
        strike_to_launch(strike, Params())  # the engine's own limits, checked there only
    except PhysicsInputError as exc:
        field = _FIELDS.get(exc.code)  # the part of the line at fault, as the help names it
        said = texts.error_message(exc, lang)
        raise ValueError(f"{texts.word(field, lang)}: {said}" if field else said) from None
    return strike


#: The part of a stroke's line the engine's refusal is about, by the refusal's code.
_FIELDS = {"strike_speed": "human.field.speed", "strike_tip": "human.field.tip"}


def parse_aim(text: str, position: Position, lang: Lang = Lang.EN) -> float:
    """Degrees, or a ball or pocket with an optional ``+N``/``-N`` (degrees) after it."""
    try:
        degrees = _number(text)
    except ValueError:
        degrees = None
    if degrees is not None:
        if not math.isfinite(degrees):
            raise ValueError(texts.word("human.error.direction", lang, got=text))
        return degrees % 360.0
    cut = max(text.rfind("+"), text.rfind("-"))
    name, offset = (text[:cut], text[cut:]) if cut > 0 else (text, "0")
    try:
        turn = _number(offset)
    except ValueError:
        turn = math.nan
    if not math.isfinite(turn):
        raise ValueError(texts.word("human.error.degrees", lang, got=offset))
    target = _target(name, position, lang)
    cue = position.balls.get(position.cue_ball, DEFAULT_PLACE)
    if math.dist(cue, target) < 1e-9:
        raise ValueError(texts.word("human.error.at_cue", lang, got=name))
    return (math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + turn) % 360.0


def _target(name: str, position: Position, lang: Lang) -> Point:
    plain = _plain(name)
    pocket = POCKET_SHORT.get(plain, plain)
    if pocket in POCKET_POINTS:
        return POCKET_POINTS[pocket]
    ball = BALL_NAMES.get(plain)
    if ball is None:
        raise ValueError(texts.word("human.error.target", lang, got=name, pockets=_pockets(lang)))
    if ball is position.cue_ball:
        raise ValueError(texts.word("human.error.own_ball", lang, ball=texts.ball_name(ball, lang)))
    if ball not in position.balls:
        said = texts.ball_name(ball, lang, Case.GEN)
        raise ValueError(texts.word("human.error.off_table", lang, ball=said))
    return position.balls[ball]


def _point(p: Point) -> str:
    return f"({p[0]:.4f}, {p[1]:.4f})"


def parse_place(text: str, position: Position, lang: Lang = Lang.EN) -> Point:
    """Where the ball in hand goes: ``X Y`` in metres (Enter: the middle of the D's line);
    ``ValueError`` says in ``lang`` why not there. The game decides
    (``game.loop.placement_problem``); this only says its refusal in words."""
    parts = text.split()
    if len(parts) == 1:  # "0.95,0.6"
        parts = parts[0].split(",")
    if not parts:
        point = DEFAULT_PLACE
    else:
        try:
            x, y = (_number(p) for p in parts)
        except ValueError:
            raise ValueError(texts.word("human.error.place", lang)) from None
        point = (x, y)
    problem = placement_problem(position.balls, position.cue_ball, point)
    if problem is None:
        return point
    if not in_d(point):
        raise ValueError(
            texts.word(
                "human.error.outside_d",
                lang,
                point=_point(point),
                radius=D_RADIUS,
                centre=f"({D_CENTRE[0]:g}, {D_CENTRE[1]:g})",
            )
        )
    for ball, at in position.balls.items():
        if math.dist(point, at) <= BALL_DIAMETER + EPS:
            said = texts.ball_name(ball, lang, Case.GEN)
            raise ValueError(
                texts.word(
                    "human.error.touches", lang, point=_point(point), ball=said, at=_point(at)
                )
            )
    raise ValueError(problem)  # pragma: no cover - the game's other refusals are not typed


class TerminalPlayer:
    """A person at a terminal: reads his answers from ``read`` (a line, or ``None`` at the
    end of the input) and writes the table and the prompts to ``out``, in ``lang``."""

    def __init__(
        self,
        name: str,
        read: Callable[[], str | None],
        out: TextIO,
        lang: Lang = Lang.EN,
    ) -> None:
        self.name = name
        self.lang = lang
        self._read = read
        self._out = out

    @property
    def description(self) -> str:
        return "human"

    def _word(self, key: str, **fields: object) -> str:
        return texts.word(key, self.lang, **fields)

    def _ask(self, prompt: str) -> str:
        print(f"{self.name}, {prompt}: ", end="", file=self._out, flush=True)
        line = self._read()
        if line is None or _plain(line) in QUIT:
            raise Quit
        return line.strip()

    def _say(self, text: str) -> None:
        print(f"  {text}", file=self._out)

    def lag(self, start: Point) -> Strike:
        """The lag: up the table to the top cushion and back; he gives the speed."""
        while True:
            text = self._ask(self._word("human.ask.lag"))
            try:
                strike = Strike(speed=_number(text), aim=90.0)
                strike_to_launch(strike, Params())
            except ValueError:
                self._say(self._word("human.error.lag", max=MAX_SPEED, got=text))
                continue
            return strike

    def lag_choice(self) -> LagChoice:
        """Having won the lag: first or second, and which ball."""
        while True:
            answer = _plain(self._ask(self._word("human.ask.first")))
            if answer in YES or answer in NO or not answer:
                break
        first = answer not in NO
        white, yellow = (texts.ball_name(b, self.lang) for b in (Ball.WHITE, Ball.YELLOW))
        initials = {_plain(n)[0]: b for n, b in BALL_NAMES.items()}
        while True:
            answer = _plain(self._ask(self._word("human.ask.ball", white=white, yellow=yellow)))
            ball = (BALL_NAMES.get(answer) or initials.get(answer)) if answer else Ball.WHITE
            if ball in (Ball.WHITE, Ball.YELLOW):
                return LagChoice(first, ball)

    def choose(self, options: Mapping[Option, Position]) -> Option:
        """After the opponent's foul: as the balls lie, or his ball in hand."""
        listed = list(options)
        for k, option in enumerate(listed, start=1):
            self._say(f"{k}. {texts.text(option, self.lang)}")
        while True:
            answer = self._ask(self._word("human.ask.option", n=len(listed)))
            if answer.isdigit() and 1 <= int(answer) <= len(listed):
                return listed[int(answer) - 1]

    def show(self, position: Position) -> None:
        """The table and the position's line."""
        for line in draw_table(position.balls):
            print(line, file=self._out)
        at = ", ".join(
            f"{texts.ball_name(b, self.lang)} ({p[0]:.3f}, {p[1]:.3f})"
            for b, p in position.balls.items()
        )
        print(f"{at}\n{write_line(position.state)}", file=self._out)

    def decide(self, position: Position) -> Action:
        """His stroke: the table shown, the placement asked from hand, then the stroke."""
        self.show(position)
        placed = None
        cue = position.cue_ball
        if position.in_hand:
            while True:
                text = self._ask(
                    self._word("human.ask.place", ball=texts.ball_name(cue, self.lang, Case.ACC))
                )
                try:
                    placed = parse_place(text, position, self.lang)
                    break
                except ValueError as exc:
                    self._say(str(exc))
            position = Position({**position.balls, cue: placed}, position.state)
        help_word = self._word("human.word.help")
        while True:
            text = self._ask(
                self._word(
                    "human.ask.stroke",
                    ball=texts.ball_name(cue, self.lang, Case.INS),
                    help=help_word,
                )
            )
            if _plain(text) in HELP:
                self._say(grammar(self.lang))
                continue
            if _plain(text) in TABLE:
                self.show(position)
                continue
            try:
                return Action(parse_stroke(text, position, self.lang), placed=placed)
            except ValueError as exc:
                self._say(str(exc))
