"""``onered referee [FILE]``: judge a game given as referee-protocol JSON Lines.

The input is read as bytes and answered per batch of ready lines: a file at full speed, a
terminal or a pipe line by line as the lines arrive (``onered.protocol.lines``). Any bad
line, a byte that is not UTF-8 included, stops the run with ``line N: ...`` and status 2.
"""

from __future__ import annotations

import argparse
import io
import sys

HELP = "judge a game: referee-protocol JSON Lines in (FILE or stdin), one verdict a line out"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered referee``."""
    parser.add_argument("file", nargs="?", metavar="FILE", help="input JSON Lines (default: stdin)")
    parser.add_argument(
        "--summary",
        action="store_true",
        help="after the verdicts, print the final score and the winner on stderr",
    )


def run(args: argparse.Namespace) -> int:
    """Judge the input; exit status 0 when every line was judged, 2 on the first bad line."""
    from onered.protocol.referee import RefereeSession
    from onered.protocol.referee import run as judge_lines

    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    from onered.cli import FileError
    from onered.protocol.lines import reader_gone

    session = RefereeSession()
    try:
        if args.file is None or args.file == "-":
            status = judge_lines(sys.stdin, sys.stdout, sys.stderr, session=session)
        else:
            try:
                handle = open(args.file, "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                raise FileError.reading(args.file, exc) from None
            with handle:
                status = judge_lines(handle, sys.stdout, sys.stderr, session=session)
    except BrokenPipeError:  # the reader of the verdicts went away (| head)
        return reader_gone()
    if args.summary and session.state is not None:
        state = session.state
        players = state.match.players
        line = f"final score: {players[0]} {state.score[0]}, {players[1]} {state.score[1]}"
        if state.winner is not None:
            line += f"; winner: {players[state.winner]}"
        print(line, file=sys.stderr)
    return status
