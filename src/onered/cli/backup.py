"""``onered backup OUT``: every table of the web database (games, matches, accounts,
tournaments, ratings ...) in one portable file (``onered.web.backup``), from the data
folder's SQLite file or from PostgreSQL (``--database``); ``onered restore`` reads it back
into either."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "back up a whole club (every table of the web database) into one file"

#: The data folder when neither --data nor --database is given (as ``onered serve``'s).
DEFAULT_DATA = "onered-data"


def database_flags(parser: argparse.ArgumentParser) -> None:
    """``--data`` and ``--database``, as ``onered serve`` has them."""
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=DEFAULT_DATA,
        help=f"data folder of the SQLite database (default ./{DEFAULT_DATA})",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="a PostgreSQL database instead (postgresql://user:password@host:port/name)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered backup``."""
    parser.add_argument("out", metavar="OUT", help="the file to write (gzip JSON Lines)")
    database_flags(parser)


def run(args: argparse.Namespace) -> int:
    """Write the backup; print what it holds."""
    from onered.cli import error_line
    from onered.texts import Lang
    from onered.web.backup import backup, open_target
    from onered.web.db import DatabaseError

    lang = Lang(args.lang)
    data = Path(args.data).expanduser()
    if args.database is None and not (data / "onered.sqlite3").is_file():
        print(f"onered backup: --data: {data}: no onered database there", file=sys.stderr)
        return 2
    try:
        db = open_target(data, args.database)
        try:
            db.migrate()  # a folder of an older onered is taken in first, as serve does
            done = backup(db, Path(args.out).expanduser())
        finally:
            db.close()
    except DatabaseError as exc:
        print(error_line("backup", exc, lang), file=sys.stderr)
        return 1
    print(
        f"onered backup: {done.total} rows of {len(done.rows)} tables, schema {done.schema},"
        f" written to {args.out}"
    )
    return 0
