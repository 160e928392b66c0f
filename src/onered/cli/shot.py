"""``onered shot``: simulate one stroke (or one a line with ``--batch``) — the shot protocol.

Single mode reads one JSON object from FILE (or standard input) and prints the result as one
line of JSON; an invalid shot prints ``error: <message>`` on standard error and exits 2.

``--batch`` reads JSON Lines: each non-blank line is a shot and gets exactly one output line,
the result or ``{"error": "...", "line": N}`` (N counts every input line, blank ones too);
blank lines are skipped and produce no output, since they hold no shot. The run goes on after
a bad line, each error is also reported on standard error as ``line N: <message>``, and the
exit status is 2 if any line failed.

``--svg FILE`` also draws the shot. In batch mode each valid shot is drawn to FILE with its
input line number before the extension (``shots.svg`` → ``shots-3.svg`` for line 3), so a
picture can be matched to its line.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

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


def _numbered(path: Path, line: int) -> Path:
    """``path`` with ``-<line>`` before its extension."""
    return path.with_name(f"{path.stem}-{line}{path.suffix}")


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


def _play(text: str, svg: Path | None) -> str:
    """One shot: JSON text in, one line of result JSON out; raises ShotProtocolError or
    OSError (writing the picture)."""
    from onered.protocol.shot import dumps, loads_shot, shot_output, simulate_shot

    shot = loads_shot(text)
    result = simulate_shot(shot)
    line = dumps(shot_output(result, shot.cue_ball))
    if svg is not None:
        from onered.svg import draw_shot, save_svg
        from onered.table import BALL_RADIUS

        radius = shot.params.get("R", BALL_RADIUS)
        save_svg(svg, draw_shot(shot.balls, result, title=_title(shot), ball_radius=radius))
    return line


def _batch(lines: Iterable[str], svg: Path | None, out: TextIO, err: TextIO) -> int:
    """Play each non-blank line as it arrives (so a pipe gets results as it feeds shots)."""
    from onered.protocol.shot import ShotProtocolError, dumps

    status = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.write(_play(line, None if svg is None else _numbered(svg, number)) + "\n")
        except (ShotProtocolError, OSError) as exc:
            message = str(exc)
            out.write(dumps({"error": message, "line": number}) + "\n")
            err.write(f"line {number}: {message}\n")
            status = 2
        out.flush()
    return status


def _open(file: str | None) -> TextIO:
    """The input: FILE, or standard input when absent or ``-``."""
    if file is None or file == "-":
        return sys.stdin
    return open(file, encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    """Run ``onered shot``; 0 on success, 2 if a shot (or the input file) was bad."""
    from onered.protocol.shot import ShotProtocolError

    try:
        source = _open(args.file)
        with contextlib.nullcontext(source) if source is sys.stdin else source:
            if args.batch:
                return _batch(source, args.svg, sys.stdout, sys.stderr)
            text = source.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(f"error: cannot read {args.file or 'standard input'}: {exc}", file=sys.stderr)
        return 2
    try:
        print(_play(text, args.svg))
    except (ShotProtocolError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
