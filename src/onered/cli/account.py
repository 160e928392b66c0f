"""``onered account``: make the first accounts on the server, list them, set a password.

The first account of a server is made here, not by a page (a page that makes an admin
would be open to whoever reaches it first): ``onered account create --club NAME --admin
EMAIL`` makes the club (if new) and its admin; ``--federation-admin EMAIL`` a federation's
admin; ``--club NAME --marker EMAIL`` a marker. The password is never an argument (it would
stay in the shell's history and in the process list): it is asked for twice on a terminal,
or read from the first line of standard input, or of ``--password-file`` (``-``: stdin).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from onered.web.accounts import Accounts
    from onered.web.db import Database

#: Longest club name (``onered.web.accounts.MAX_CLUB``; not imported: ``--help`` stays light).
MAX_CLUB = 80

HELP = "accounts: make a club's admin, a marker or a federation admin; list; set a password"

EPILOG = """examples:
  onered account create --club "Central club" --admin admin@club.example
  onered account create --club "Central club" --marker marker@club.example --password-file pw.txt
  onered account create --federation-admin chief@federation.example
  onered account list
  printf '%s\\n' "$NEW" | onered account password admin@club.example
"""

#: The data folder ``onered serve`` uses by default.
DEFAULT_DATA = "onered-data"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered account``."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    # no abbreviations: "--password SECRET" must not be taken for --password-file
    create = sub.add_parser(
        "create", help="make an account (and its club, if new)", allow_abbrev=False
    )
    who = create.add_mutually_exclusive_group(required=True)
    who.add_argument("--admin", metavar="EMAIL", help="the club's admin (needs --club)")
    who.add_argument("--marker", metavar="EMAIL", help="a marker of the club (needs --club)")
    who.add_argument("--federation-admin", metavar="EMAIL", help="a federation's admin")
    create.add_argument(
        "--club", metavar="NAME", help="the club (made when --admin names a new one)"
    )
    _password_flag(create)
    listing = sub.add_parser("list", help="the clubs and their accounts")
    password = sub.add_parser(
        "password", help="set an account's password (ends its sessions)", allow_abbrev=False
    )
    password.add_argument("email", metavar="EMAIL")
    _password_flag(password)
    for p in (create, listing, password):
        p.add_argument(
            "--data",
            metavar="DIR",
            default=DEFAULT_DATA,
            help=f"the server's data folder (default ./{DEFAULT_DATA})",
        )
        p.add_argument(
            "--database",
            metavar="URL",
            default=None,
            help="the server's database (postgresql://...; default: the data folder's)",
        )


def _password_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--password-file",
        metavar="FILE",
        default=None,
        help="read the password from FILE's first line (-: standard input)",
    )


def read_password(path: str | None, stdin: TextIO | None = None, prompt: bool | None = None) -> str:
    """The password: the first line of ``path`` (``-``: stdin), else asked twice on a
    terminal, else the first line of stdin."""
    from onered.cli import FileError
    from onered.web.accounts import AccountError

    stdin = stdin or sys.stdin
    if path is not None and path != "-":
        try:
            with open(path, encoding="utf-8") as f:
                return f.readline().rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise FileError.reading(path, exc) from exc
    if path is None and (stdin.isatty() if prompt is None else prompt):
        first = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != first:
            raise AccountError(422, "the two passwords differ", "passwords_differ")
        return first
    return stdin.readline().rstrip("\r\n")


def _database(args: argparse.Namespace) -> Database:
    from onered.web.db import Database

    db = Database(args.database) if args.database else Database.in_folder(Path(args.data))
    db.migrate()
    return db


#: The packages of the ``web`` extra this command needs.
NEEDS = ("fastapi", "argon2")


def run(args: argparse.Namespace) -> int:
    """Run ``onered account``; 2 when the ``web`` extra is missing (one line, no traceback)."""
    import importlib.util

    missing = [name for name in NEEDS if importlib.util.find_spec(name) is None]
    if missing:
        print(
            f"onered account: accounts need the 'web' extra ({', '.join(missing)} not "
            "installed); install it with:  pip install 'onered[web]'",
            file=sys.stderr,
        )
        return 2
    from onered.web.accounts import AccountError, Accounts

    db = _database(args)
    try:
        accounts = Accounts(db)
        if args.action == "list":
            return _list(accounts)
        if args.action == "password":
            found = accounts.by_email(args.email)
            if found is None:
                raise AccountError(
                    404, f"{args.email}: no such account", "no_account", {"id": args.email}
                )
            accounts.set_password(found.id, read_password(args.password_file))
            print(f"password set for {found.email}; its sessions ended")
            return 0
        return _create(accounts, args)
    finally:
        db.close()


def _list(accounts: Accounts) -> int:
    """Print the federation's admins, then each club and its accounts."""
    clubs = {c.id: c for c in accounts.clubs()}
    everyone = accounts.everyone()
    for account in everyone:
        if account.club_id is None:
            print(f"{account.role.value}\t{account.email}")
    for club in clubs.values():
        print(f"club\t{club.name}\t{club.id}")
        for account in everyone:
            if account.club_id == club.id:
                print(f"  {account.role.value}\t{account.email}")
    return 0


def _create(accounts: Accounts, args: argparse.Namespace) -> int:
    """Make the account ``args`` name (and its club, for a new club's admin)."""
    from onered.web.accounts import AccountError, Role

    if args.federation_admin:
        email, role = args.federation_admin, Role.FEDERATION_ADMIN
    elif args.admin:
        email, role = args.admin, Role.CLUB_ADMIN
    else:
        email, role = args.marker, Role.MARKER
    club = None
    if role is Role.FEDERATION_ADMIN:
        if args.club:
            raise AccountError(
                422,
                "--club: a federation admin belongs to no club",
                "bad_role",
                {"role": role.value},
            )
    else:
        if not args.club:
            raise AccountError(
                422,
                "--club: name the account's club",
                "bad_club_name",
                {"where": "--club", "max": MAX_CLUB},
            )
        club = accounts.club_named(args.club)
        if club is None and role is Role.MARKER:
            raise AccountError(
                404, f"club {args.club!r}: no such club", "no_club", {"id": args.club}
            )
    password = read_password(args.password_file)
    made_club = club is None and role is Role.CLUB_ADMIN
    if made_club:
        club = accounts.create_club(args.club)
    try:
        account = accounts.create_account(email, password, role, None if club is None else club.id)
    except AccountError:
        if made_club and club is not None:
            accounts.remove_club(club.id)
        raise
    where = f" of club {club.name!r}" if club is not None else ""
    print(f"{account.role.value} {account.email}{where}: made")
    return 0
