"""``onered shot``: simulate one stroke (or one a line with ``--batch``) — the shot protocol.

Single mode reads one JSON object from FILE (or standard input) and prints the result as one
line of JSON; an invalid shot prints ``error: <message>`` on standard error and exits 2.

``--batch`` reads JSON Lines: each non-blank line is a shot and gets exactly one output line,
the result or ``{"error": "...", "line": N}`` (N counts every input line, blank ones too);
blank lines are skipped and produce no output, since they hold no shot. The run goes on after
a bad line (not JSON, not UTF-8, a number too large, nesting too deep, a wrong field), each
error is also reported on standard error as ``line N: <message>``, and the exit status is 2
if any line failed. Input is read as bytes and answered in batches: everything that was
ready at once is answered, then written and flushed together (see
:mod:`onered.protocol.lines`), so a file runs at full speed and a terminal or a pipe gets
each answer as soon as its line is complete. The lines of a batch are played together
(:func:`onered.protocol.shot_batch.play_lines`: one engine call for many positions),
each answer byte for byte what the line alone would get.

``--svg FILE`` also draws the shot. In batch mode each valid shot is drawn to FILE with its
input line number before the extension (``shots.svg`` → ``shots-3.svg`` for line 3), so a
picture can be matched to its line. ``--side-view BALL`` (with ``--svg``) also draws that
ball's path seen from the side, its height against the distance it travelled, to FILE with
``-side`` before the extension (``shot-side.svg``, ``shots-3-side.svg``). The pictures' words
are in the command's language (``--lang``).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from onered.texts import Lang

if TYPE_CHECKING:
    from onered.protocol.shot import ShotInput

HELP = "simulate a stroke: shot protocol JSON in, events, rest positions and outcome out"


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the ``shot`` arguments."""
    parser.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="shot input (JSON; JSON Lines with --batch); standard input when absent or -",
    )
    parser.add_argument(
        "--batch", action="store_true", help="JSON Lines: one shot a line, one result a line"
    )
    parser.add_argument(
        "--svg",
        metavar="SVG",
        type=Path,
        help="also draw the shot to this SVG file (batch: numbered by input line, e.g. x-3.svg)",
    )
    parser.add_argument(
        "--side-view",
        metavar="BALL",
        help="with --svg: also draw BALL's path seen from the side (height against distance) "
        "to the SVG file's name with -side (x-side.svg)",
    )


def _numbered(path: Path, line: int | str) -> Path:
    """``path`` with ``-<line>`` before its extension."""
    return path.with_name(f"{path.stem}-{line}{path.suffix}")


@dataclass(frozen=True, slots=True)
class Drawing:
    """What ``--svg`` draws: the shot to ``svg``, and ``side``'s side view next to it; the
    words in ``lang``."""

    svg: Path
    side: str | None = None
    lang: Lang = Lang.EN

    def numbered(self, line: int) -> Drawing:
        """The drawing of input line ``line`` of a batch."""
        return replace(self, svg=_numbered(self.svg, line))


def _title(shot: ShotInput) -> str:
    """A one-line description of the cue action for the picture."""
    from onered.physics.types import Strike

    cue = shot.cue
    if isinstance(cue, Strike):
        return (
            f"{shot.cue_ball}: speed {cue.speed:g} m/s, aim {cue.aim:g}°, side {cue.side:g}, "
            f"height {cue.height:g}, elevation {cue.elevation:g}°"
        )
    return f"{shot.cue_ball}: launch v = ({cue.v[0]:g}, {cue.v[1]:g}) m/s"


def _play(text: str | bytes, drawing: Drawing | None) -> bytes:
    """One shot: JSON in, one line of result JSON out; raises ShotProtocolError (the side
    view of a ball not in the shot too) or OSError (writing a picture)."""
    from onered.protocol.json_fields import dumps_line
    from onered.protocol.shot import (
        ShotProtocolError,
        loads_shot,
        play_line,
        shot_output_fast,
        simulate_shot,
    )

    if drawing is None:
        return play_line(text)
    from onered.svg import draw_shot, draw_side_view, save_svg

    shot = loads_shot(text)
    side = drawing.side
    if side is not None and side not in shot.balls:
        balls = ", ".join(shot.balls)
        raise ShotProtocolError(f"--side-view: no ball {side!r} in the shot (balls: {balls})")
    result = simulate_shot(shot)
    line = dumps_line(shot_output_fast(result, shot.cue_ball))
    title = _title(shot)
    physics, lang = shot.physics, drawing.lang
    save_svg(
        drawing.svg,
        draw_shot(shot.balls, result, title=title, ball_radius=physics.R, lang=lang),
    )
    if side is not None:
        picture = draw_side_view(
            shot.balls,
            result,
            side,
            cushion_height=physics.cushion_height,
            ball_radius=physics.R,
            lang=lang,
        )
        save_svg(_numbered(drawing.svg, "side"), picture)
    return line


def _answers(
    shots: Sequence[bytes | str], numbers: Sequence[int], drawing: Drawing | None
) -> list[bytes | Exception]:
    """The answer (an output line, or the exception raised) of each shot line of a batch
    (``numbers``: their input line numbers, for the pictures). Without pictures the lines
    are played together (:func:`onered.protocol.shot_batch.play_lines`), with them one by
    one."""
    if drawing is None:
        from onered.protocol.shot_batch import play_lines

        return play_lines(shots)
    answers: list[bytes | Exception] = []
    for at, line in zip(numbers, shots, strict=True):
        try:
            answers.append(_play(line, drawing.numbered(at)))
        except Exception as exc:  # reported in the line's place
            answers.append(exc)
    return answers


def batch(
    source: IO[Any] | Iterable[str], out: IO[Any], err: IO[Any], drawing: Drawing | None = None
) -> int:
    """``onered shot --batch``: one output line per non-blank input line, answers written
    and flushed per batch of ready input; 2 if any line failed, else 0."""
    from onered.protocol.lines import is_blank, line_batches, sink
    from onered.protocol.shot import ShotProtocolError, error_line

    write_out, write_err = sink(out), sink(err)
    status = 0
    number = 0
    for lines in line_batches(source):
        answers: list[bytes] = []
        problems: list[str] = []
        numbers = [number + k for k, line in enumerate(lines, 1) if not is_blank(line)]
        shots = [lines[at - number - 1] for at in numbers]
        number += len(lines)
        for at, got in zip(numbers, _answers(shots, numbers, drawing), strict=True):
            if isinstance(got, bytes):
                answers.append(got)
                continue
            if isinstance(got, ShotProtocolError | OSError):
                message = str(got)
            else:  # a bug must not lose the rest of the batch
                message = f"internal error: {type(got).__name__}: {got}"
            answers.append(error_line(message, at))
            problems.append(f"line {at}: {message}\n")
            status = 2
        if answers:
            write_out(b"".join(answers))
        if problems:
            write_err("".join(problems).encode("utf-8", "replace"))
    return status


def _read(file: str | None) -> bytes:
    """All of FILE, or of standard input when absent or ``-``, as bytes."""
    if file is None or file == "-":
        stdin = sys.stdin
        buffer = getattr(stdin, "buffer", None)
        if buffer is not None:
            data: bytes = buffer.read()
            return data
        return stdin.read().encode("utf-8", "surrogatepass")
    with open(file, "rb") as handle:
        return handle.read()


def run(args: argparse.Namespace) -> int:
    """Run ``onered shot``; 0 on success, 2 if a shot (or the input file) was bad."""
    from onered.cli import language
    from onered.protocol.lines import reader_gone, sink
    from onered.protocol.shot import ShotProtocolError

    if args.side_view is not None and args.svg is None:
        print("error: --side-view BALL needs --svg FILE (the shot's picture)", file=sys.stderr)
        return 2
    drawing = None if args.svg is None else Drawing(args.svg, args.side_view, language(args))
    try:
        if args.batch:
            # The batch plays lines through NumPy arrays and uses no linear algebra:
            # OpenBLAS's thread pool, started when NumPy is imported, would cost a third of
            # NumPy's import (about 40 ms of CPU) for nothing. A user's setting stands.
            os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
            if args.file is None or args.file == "-":
                return batch(sys.stdin, sys.stdout, sys.stderr, drawing)
            with open(args.file, "rb") as handle:
                return batch(handle, sys.stdout, sys.stderr, drawing)
        data = _read(args.file)
    except BrokenPipeError:  # the reader of the output went away (| head)
        return reader_gone()
    except OSError as exc:
        print(f"error: cannot read {args.file or 'standard input'}: {exc}", file=sys.stderr)
        return 2
    try:
        line = _play(data, drawing)
    except (ShotProtocolError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # never a traceback for an input
        print(f"error: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    try:
        sink(sys.stdout)(line)
    except BrokenPipeError:
        return reader_gone()
    return 0
