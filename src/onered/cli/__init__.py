"""The ``onered`` command: a thin dispatcher over subcommand modules.

Each subcommand lives in its own module exposing ``HELP``, ``configure(parser)`` and
``run(args) -> int``; heavy imports happen inside ``run`` so ``onered --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from onered import __version__

#: Subcommand name -> module implementing it, in the order ``--help`` lists them.
SUBCOMMANDS: dict[str, str] = {
    "referee": "onered.cli.referee",
    "shot": "onered.cli.shot",
    "serve": "onered.cli.serve",
    "play": "onered.cli.play",
    "replay": "onered.cli.replay",
    "stats": "onered.cli.stats",
    "study": "onered.cli.study",
    "advise": "onered.cli.advise",
}


def _load(module_name: str) -> ModuleType:
    return importlib.import_module(module_name)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with one subparser per subcommand."""
    parser = argparse.ArgumentParser(
        prog="onered",
        description="Snooker-1-Red: referee, table simulation, players and interfaces.",
    )
    parser.add_argument("--version", action="version", version=f"onered {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in SUBCOMMANDS.items():
        module = _load(module_name)
        sp = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(sp)
        sp.set_defaults(_module=module_name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``onered`` script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    status: int = _load(args._module).run(args)
    return status


def _script() -> None:  # pragma: no cover - console entry
    sys.exit(main())
