"""Pictures, videos and game records of the environments' games.

The environments play with :class:`~onered.env.lean.LeanGame`, which keeps no paths and no
record, only what was played (:attr:`~onered.env.lean.LeanGame.history`: each stroke's
action and each foul option). A :class:`Follower` plays that history again, when a
picture or a record is asked for, through :class:`onered.game.Game` on the same simulated
table: the same strokes with their trajectories and their records (a test holds the two
games equal), so nothing is paid for pictures while nobody looks.

- ``"rgb_array"``: :func:`rgb_frame`, the project's SVG drawer (:func:`onered.svg.draw_shot`
  for the last stroke: the balls where they started, faded, and where they stopped, the
  paths, the collisions; :func:`onered.svg.draw_shots` with no shot for a table before its
  first stroke) rasterised by resvg (the ``resvg-py`` wheel) into an ``H×W×3`` ``uint8``
  array.
- ``"ansi"``: :func:`ansi_frame`, a text picture: the score, who is to play, the last
  stroke's verdict in words and the balls on a coarse character grid of the bed.
- ``"human"``: the text picture printed to standard output after every reset and step (no
  window, no display library).

:func:`save_video` writes frames as a video (imageio with the ffmpeg of
``imageio-ffmpeg``'s wheel); :func:`record_text` writes a game in the record format of
``docs/record-format.md``, which ``onered replay`` and ``onered advise --record`` read.
Display text is English: it belongs to this interface layer, not to the game.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from onered import svg
from onered.env.lean import LeanGame
from onered.errors import OneredError
from onered.game import Game, GameError, PhysicsSimulator
from onered.game.model import ChoiceRecord, StrokeRecord
from onered.game.record import game_lines
from onered.physics import Params, TableSpec
from onered.rules import Ball, Option, Verdict
from onered.table import BAULK_Y, D_CENTRE, D_RADIUS
from onered.texts import Lang, text

#: The render modes of the environments (Gymnasium's and PettingZoo's names).
RENDER_MODES: tuple[str, ...] = ("human", "rgb_array", "ansi")
#: Frames a second of a video: one frame a decision, slow enough to follow the balls' paths.
RENDER_FPS = 2
#: The width of an ``rgb_array`` frame in pixels by default (the height follows the table:
#: 320 wide gives 630 high).
RENDER_WIDTH = 320
#: The text picture's grid: columns across the bed and rows along it (a character cell is
#: about twice as high as wide, so the grid looks like the table's 1:2).
ANSI_COLUMNS = 36
ANSI_ROWS = 36
#: The letters of the balls on the text picture.
BALL_LETTERS: Mapping[Ball, str] = {Ball.WHITE: "W", Ball.YELLOW: "Y", Ball.RED: "R"}


class RenderError(OneredError, ValueError):
    """A render setting or request that cannot be met; the message names it."""

    default_code = "env_render"


def check_render_mode(mode: object, modes: Sequence[str] = RENDER_MODES) -> str | None:
    """``mode`` if it is ``None`` or one of ``modes``; else :class:`RenderError` naming it.
    ``"rgb_array"`` also needs the rasteriser installed (:func:`check_rasteriser`)."""
    if mode is None:
        return None
    if not isinstance(mode, str) or mode not in modes:
        raise RenderError(f"render_mode: expected None or one of {', '.join(modes)}, got {mode!r}")
    if mode == "rgb_array":
        check_rasteriser()
    return mode


def check_render_width(width: object) -> int:
    """``width`` as the frames' width in pixels (16 to 4096), or :class:`RenderError`."""
    if isinstance(width, bool) or not isinstance(width, int) or not 16 <= width <= 4096:
        raise RenderError(f"render_width: expected an integer from 16 to 4096, got {width!r}")
    return width


def check_rasteriser() -> None:
    """:class:`RenderError` saying what to install when the rasteriser is missing."""
    try:
        import PIL  # noqa: F401
        import resvg_py  # noqa: F401
    except ImportError as exc:
        raise RenderError(
            f"render_mode='rgb_array' needs resvg-py and pillow ({exc.name} is missing): "
            "pip install 'onered[env]'"
        ) from None


class Follower:
    """The game of a :class:`~onered.env.lean.LeanGame` played again by
    :class:`onered.game.Game` (with paths and records), caught up on demand: each stroke is
    simulated once more the first time a picture or a record needs it."""

    def __init__(self, params: Params, table: TableSpec) -> None:
        self.simulator = PhysicsSimulator(params, table)
        self._lean: LeanGame | None = None
        self._game: Game | None = None
        self._done = 0

    def game(self, lean: LeanGame) -> Game:
        """The full game of ``lean`` as it stands now (a new game when ``lean`` is
        another game than the last one asked for)."""
        game = self._game
        if lean is not self._lean or game is None:
            game = self._game = Game(lean.state.match, self.simulator)
            self._lean = lean
            self._done = 0
        history = lean.history
        for item in history[self._done :]:
            try:
                if isinstance(item, Option):
                    game.choose(item)
                else:
                    game.play(item)
            except GameError as exc:
                raise RenderError(
                    f"the environment's game cannot be played again after stroke "
                    f"{game.state.stroke_no}: {exc}"
                ) from None
            self._done += 1
        return game

    def checked(self, lean: LeanGame) -> Game:
        """:meth:`game`, held equal to ``lean`` (the referee's state and the table);
        :class:`RenderError` if the two differ (the lean game's one documented
        difference, a stroke from hand within 1e-6 m of the baulk line, could do it)."""
        game = self.game(lean)
        if game.state != lean.state or dict(game.balls) != lean.balls:
            raise RenderError(
                f"the game played again differs from the environment's after stroke "
                f"{lean.state.stroke_no}: no record can be written of it"
            )
        return game


# --- what is said --------------------------------------------------------------------------


def score_line(game: Game) -> str:
    """``"agent 12 : 7 opponent (to 100)"``."""
    state = game.state
    players = state.match.players
    return (
        f"{players[0]} {state.score[0]} : {state.score[1]} {players[1]} (to {state.match.target})"
    )


def turn_line(game: Game) -> str:
    """Who is to play, with which ball and whether from hand; or who won."""
    state = game.state
    if state.winner is not None:
        return f"{state.winner} wins"
    ball = state.match.balls[state.to_play]
    where = ", in hand" if ball not in game.balls else ""
    option = ", foul option pending" if state.choice_pending else ""
    return f"to play: {state.match.players[state.to_play]} ({ball.value}{where}){option}"


def verdict_words(verdict: Verdict, players: tuple[str, str]) -> str:
    """A stroke's verdict in words: what scored, or the foul and whom its penalty goes to."""
    if verdict.foul is not None:
        fouls = ", ".join(text(code, Lang.EN) for code in verdict.foul.codes)
        receiver = players[1] if verdict.striker == players[0] else players[0]
        return f"foul: {fouls}; {verdict.foul.penalty} to {receiver}"
    if not verdict.scored:
        return "no score"
    parts = ", ".join(f"{text(kind, Lang.EN)} {value}" for kind, value in verdict.scored)
    return parts if len(verdict.scored) == 1 else f"{parts} = {verdict.points}"


def last_line(game: Game) -> str:
    """The last entry of the game in words: the stroke's striker, ball and verdict, or
    the foul option taken."""
    if not game.entries:
        return "last stroke: none yet"
    entry = game.entries[-1]
    if isinstance(entry, ChoiceRecord):
        return f"last: {entry.chooser} chose {text(entry.option, Lang.EN)}"
    verdict = entry.verdict
    return (
        f"last stroke ({verdict.stroke}): {entry.striker} ({entry.cue_ball.value}): "
        f"{verdict_words(verdict, game.match.players)}"
    )


# --- the text picture ----------------------------------------------------------------------


def _cell(x: float, y: float, table: TableSpec) -> tuple[int, int]:
    """The grid cell (row from the top, column) of a point of the bed."""
    col = min(ANSI_COLUMNS - 1, max(0, int(x / table.width * ANSI_COLUMNS)))
    row = min(ANSI_ROWS - 1, max(0, int((table.length - y) / table.length * ANSI_ROWS)))
    return row, col


def _d_cells(table: TableSpec) -> set[tuple[int, int]]:
    """The cells the D's half circle (below the baulk line) crosses: at each row's and
    each column's centre, where the circle is."""
    cx, cy = D_CENTRE
    cells: set[tuple[int, int]] = set()
    for row in range(ANSI_ROWS):
        y = table.length - (row + 0.5) * table.length / ANSI_ROWS
        if cy - D_RADIUS <= y <= cy:
            dx = math.sqrt(D_RADIUS**2 - (y - cy) ** 2)
            cells.update({_cell(cx - dx, y, table), _cell(cx + dx, y, table)})
    for col in range(ANSI_COLUMNS):
        x = (col + 0.5) * table.width / ANSI_COLUMNS
        if abs(x - cx) <= D_RADIUS:
            cells.add(_cell(x, cy - math.sqrt(D_RADIUS**2 - (x - cx) ** 2), table))
    return cells


def bed_grid(balls: Mapping[Ball, tuple[float, float]], table: TableSpec) -> list[str]:
    """The bed as text, seen from the baulk end (baulk at the bottom, as the SVG drawer):
    the cushions and six pockets (``o``), the baulk line (``-``), the D (``.``), the balls
    by letter (:data:`BALL_LETTERS`; two in a cell go side by side)."""
    grid = [[" "] * ANSI_COLUMNS for _ in range(ANSI_ROWS)]
    baulk_row, _ = _cell(0.0, BAULK_Y, table)
    grid[baulk_row] = ["-"] * ANSI_COLUMNS
    for row, col in _d_cells(table):
        if row != baulk_row:
            grid[row][col] = "."
    for ball in (Ball.RED, Ball.YELLOW, Ball.WHITE):
        if ball not in balls:
            continue
        row, col = _cell(*balls[ball], table)
        for c in (col, col + 1, col - 1, col + 2, col - 2):
            if 0 <= c < ANSI_COLUMNS and grid[row][c] not in BALL_LETTERS.values():
                grid[row][c] = BALL_LETTERS[ball]
                break
    middle = ANSI_ROWS // 2
    edge = "o" + "-" * ANSI_COLUMNS + "o"
    lines = [edge]
    for r, cells in enumerate(grid):
        side = "o" if r == middle else "|"
        lines.append(side + "".join(cells) + side)
    lines.append(edge)
    return lines


def ansi_frame(game: Game, table: TableSpec) -> str:
    """The text picture of ``game``: score, turn and the last stroke in words, the bed,
    and what is off the table."""
    state = game.state
    off = [b.value for b in state.match.balls if b not in game.balls]
    lines = [score_line(game), turn_line(game), last_line(game), *bed_grid(game.balls, table)]
    lines.append("W white  Y yellow  R red  - baulk line  . the D  o pockets")
    if off:
        lines.append(f"not on the table: {', '.join(off)}")
    return "\n".join(lines) + "\n"


def print_frame(game: Game, table: TableSpec) -> None:
    """``"human"`` mode: the text picture on standard output."""
    sys.stdout.write(ansi_frame(game, table) + "\n")
    sys.stdout.flush()


# --- the picture ---------------------------------------------------------------------------


def picture_svg(game: Game, table: TableSpec) -> str:
    """The SVG drawing of ``game`` now: its last stroke as ``onered replay --svg`` draws
    a stroke (the balls before it faded, their paths, where they stopped), or the table
    with the balls where they stand before the first stroke and after a foul option."""
    title = f"{score_line(game)} · {turn_line(game)}"
    last = game.entries[-1] if game.entries else None
    if isinstance(last, StrokeRecord):
        before = {b.value: p for b, p in last.before.items()}
        return svg.draw_shot(before, last.result, table=table, title=title)
    state = game.state
    balls = {b.value: p for b, p in game.balls.items()}
    cue = state.match.balls[state.to_play].value
    return svg.draw_shots(balls, [], cue, table=table, title=title, caption=last_line(game))


#: A style sheet for the rasteriser: the drawer's cloth and wood in flat colours (the
#: middles of its gradients). resvg spends more than half a frame on the two gradients
#: (47 ms against 20 ms a 320-pixel frame); a frame for a learner or a video needs none.
#: Should the drawer's elements change, this matches nothing and only the speed is lost
#: (a test checks the cloth is flat).
FLAT_STYLE = '.cloth{fill:#1d8042} rect[rx="40"]{fill:#643b1c}'


def rasterise(document: str, width: int = RENDER_WIDTH) -> np.ndarray:
    """An SVG document as an ``H×W×3`` ``uint8`` array ``width`` pixels wide (resvg,
    with :data:`FLAT_STYLE`)."""
    import resvg_py
    from PIL import Image

    png = resvg_py.svg_to_bytes(svg_string=document, width=width, style_sheet=FLAT_STYLE)
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"), dtype=np.uint8)


def rgb_frame(game: Game, table: TableSpec, width: int = RENDER_WIDTH) -> np.ndarray:
    """The picture of ``game`` (:func:`picture_svg`) as an ``H×W×3`` ``uint8`` array."""
    return rasterise(picture_svg(game, table), width)


# --- videos and records --------------------------------------------------------------------

#: Video frames are padded to a multiple of this many pixels (the codec's macro block: no
#: resizing by imageio, even sizes for H.264).
_BLOCK = 16


def _padded(frame: np.ndarray, height: int, width: int) -> np.ndarray:
    """``frame`` padded at the bottom and right to ``height × width`` with its corner's
    colour (the drawing's paper)."""
    out = np.empty((height, width, 3), dtype=np.uint8)
    out[:] = frame[0, 0]
    out[: frame.shape[0], : frame.shape[1]] = frame
    return out


def save_video(frames: Iterable[np.ndarray], path: str | Path, fps: float = RENDER_FPS) -> Path:
    """Write ``rgb_array`` frames (all of one size) as a video at ``path`` (``.mp4``:
    H.264 by the ffmpeg of the ``imageio-ffmpeg`` wheel; ``.gif`` needs only imageio and
    pillow) and return the path. Frames are padded to a multiple of 16 pixels.
    :class:`RenderError` names a bad frame or setting, or the package to install."""
    try:
        import imageio.v2 as imageio
    except ImportError:
        raise RenderError(
            "save_video needs imageio (and imageio-ffmpeg for .mp4): pip install 'onered[video]'"
        ) from None
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not 0 < fps <= 240:
        raise RenderError(f"fps: expected a number in (0, 240], got {fps!r}")
    shots = list(frames)
    if not shots:
        raise RenderError("frames: no frame to write")
    first = shots[0]
    for k, frame in enumerate(shots):
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3:
            raise RenderError(f"frames[{k}]: expected an H×W×3 uint8 array (an rgb_array frame)")
        if frame.shape != first.shape or frame.shape[2] != 3:
            raise RenderError(f"frames[{k}]: shape {frame.shape}, expected {first.shape}")
    target = Path(path)
    height = -(-first.shape[0] // _BLOCK) * _BLOCK
    width = -(-first.shape[1] // _BLOCK) * _BLOCK
    options: dict[str, Any] = {"fps": fps}
    if target.suffix.lower() == ".gif":
        options = {"duration": 1000 / fps, "loop": 0}
    try:
        with imageio.get_writer(target, **options) as writer:
            for frame in shots:
                writer.append_data(_padded(frame, height, width))  # type: ignore[attr-defined]
    except (OSError, RuntimeError, ValueError) as exc:
        raise RenderError(f"{target}: cannot write the video: {exc}") from None
    return target


def record_text(
    game: Game, *, seed: int | None = None, entrants: Mapping[str, str] | None = None
) -> str:
    """``game`` in the record format (``docs/record-format.md``), one line a JSON object."""
    return "\n".join(game_lines(game, seed=seed, entrants=entrants)) + "\n"


def write_record(path: str | Path, record: str) -> Path:
    """Write a record's text (:func:`record_text`) to ``path`` (UTF-8) and return the
    path; :class:`RenderError` names a path that cannot be written."""
    target = Path(path)
    try:
        target.write_text(record, encoding="utf-8")
    except OSError as exc:
        raise RenderError(f"{target}: cannot write the record: {exc.strerror or exc}") from None
    return target


class Screen:
    """What an environment renders: its ``render_mode`` (checked), the frames' width,
    and a :class:`Follower` of its game. ``render`` gives the mode's frame of a lean
    game; ``record`` its game record's text."""

    def __init__(
        self,
        mode: object,
        width: object,
        params: Params,
        table: TableSpec,
        modes: Sequence[str] = RENDER_MODES,
    ) -> None:
        self.mode = check_render_mode(mode, modes)
        self.width = check_render_width(width)
        self.table = table
        self.follower = Follower(params, table)

    def render(self, lean: LeanGame) -> np.ndarray | str | None:
        """The frame of the mode: an array (``rgb_array``), a string (``ansi``), or
        ``None`` (``human``: printed; no mode: nothing)."""
        mode = self.mode
        if mode is None:
            return None
        game = self.follower.game(lean)
        if mode == "rgb_array":
            return rgb_frame(game, self.table, self.width)
        if mode == "ansi":
            return ansi_frame(game, self.table)
        print_frame(game, self.table)
        return None

    def shown(self, lean: LeanGame) -> None:
        """After a reset or a step: ``human`` mode prints the picture."""
        if self.mode == "human":
            print_frame(self.follower.game(lean), self.table)

    def record(self, lean: LeanGame, *, seed: int | None, entrants: Mapping[str, str]) -> str:
        """The game record of ``lean``'s game (held equal to it first)."""
        return record_text(self.follower.checked(lean), seed=seed, entrants=entrants)
