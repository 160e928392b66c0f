"""``onered restore IN``: a backup made by ``onered backup`` read back into the data
folder's SQLite file or into PostgreSQL (``--database``); the database must be empty, or
``--replace`` empties it first (``onered.web.backup``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from onered.cli.backup import database_flags

HELP = "restore a whole club from a file of onered backup (into an empty database)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered restore``."""
    parser.add_argument("source", metavar="IN", help="the backup file (onered backup)")
    database_flags(parser)
    parser.add_argument(
        "--replace",
        action="store_true",
        help="delete what the database holds before restoring (else a database with rows"
        " is refused)",
    )


def run(args: argparse.Namespace) -> int:
    """Restore; print what was restored."""
    from onered.cli import error_line
    from onered.texts import Lang
    from onered.web.backup import open_target, restore
    from onered.web.db import DatabaseError

    lang = Lang(args.lang)
    source = Path(args.source).expanduser()
    if not source.is_file():
        print(f"onered restore: IN: {source}: no such file", file=sys.stderr)
        return 2
    try:
        db = open_target(Path(args.data).expanduser(), args.database)
        try:
            done = restore(db, source, replace=args.replace)
        finally:
            db.close()
    except DatabaseError as exc:
        print(error_line("restore", exc, lang), file=sys.stderr)
        return 1
    print(
        f"onered restore: {done.total} rows of {len(done.rows)} tables (schema {done.schema})"
        f" restored into {db.name}"
    )
    return 0
