"""``onered ratings``: the ratings of a server's database, worked out again or listed.

``onered ratings rebuild`` records every decided match the database holds that the ratings
have not (a hook that failed, a database from before the ratings) and works every rating
out again in the order the matches finished (after a change of the readings, or of the
register's starting ratings); ``onered ratings list`` prints the ranking (``--target N``:
at one target; none: over all targets). See ``docs/ratings.md``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

HELP = "ratings: rebuild them from every finished match, or list the ranking"

EPILOG = """examples:
  onered ratings rebuild
  onered ratings list --target 100 --limit 20
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered ratings``."""
    from onered.cli.backup import database_flags

    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    rebuild = sub.add_parser("rebuild", help="record missing matches, work every rating out again")
    listing = sub.add_parser("list", help="the ranking, best first")
    listing.add_argument(
        "--target", type=int, default=0, help="points a game is played to (default 0: all)"
    )
    listing.add_argument("--limit", type=int, default=50, help="players listed (default 50)")
    database_flags(rebuild)
    database_flags(listing)


def run(args: argparse.Namespace) -> int:
    """Run ``onered ratings``."""
    from onered.web import ratings
    from onered.web.backup import open_target

    db = open_target(Path(args.data).expanduser(), args.database)
    db.migrate()
    try:
        if args.action == "rebuild":
            new = ratings.catch_up(db, ratings.finished_in_store(db))
            with db.read() as c:
                total = int(c.execute("SELECT COUNT(*) FROM rating_matches").fetchone()[0])
            print(f"{new} matches recorded now; ratings worked out again from {total}")
            return 0
        now = time.time()
        found = ratings.ranking(db, max(0, args.target), max(1, args.limit))
        if not found:
            print("no rated players")
        for rank, entry in enumerate(found, 1):
            r = entry.standing.at(now, ratings.POLICY)
            s = entry.standing
            print(
                f"{rank:>3}  {entry.name:<30} {r.rating:7.1f} ± {2 * r.deviation:5.1f}"
                f"  {s.matches} matches, {s.wins}/{s.games} games"
            )
        return 0
    finally:
        db.close()
