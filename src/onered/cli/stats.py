"""``onered stats FILE...``: figures from game records or a web game's export (the referee's
lines, judged) — points per visit, breaks, fouls, kinds of score — and the break
distribution as an SVG histogram."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

HELP = "statistics of game records: points per visit, breaks, fouls, cannons/pots/in-offs"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered stats``."""
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="game records ('onered play', a web game's record) or a web game's export",
    )
    parser.add_argument(
        "--svg", metavar="OUT", type=Path, help="write the break distribution as an SVG histogram"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    """Exit status 0, or 2 when a record cannot be read or the picture cannot be written."""
    from onered.cli import FileError
    from onered.game.stats import break_histogram_svg, read_games, report

    sources = []
    for name in args.files:
        try:
            sources.append((name, Path(name).read_text(encoding="utf-8").splitlines()))
        except (OSError, UnicodeDecodeError) as exc:
            raise FileError.reading(name, exc) from None
    stats = read_games(sources)  # a StatsError: cli.main prints it in the language
    if args.json:
        data = {
            "games": stats.games,
            "finished": stats.finished,
            "players": [p.to_json() for p in stats.players.values()],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
    else:
        print(report(stats))
    if args.svg is not None:
        try:
            args.svg.write_text(break_histogram_svg(stats), encoding="utf-8")
        except OSError as exc:
            raise FileError.writing(args.svg, exc) from None
    return 0
