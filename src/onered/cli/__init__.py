"""The ``onered`` command: a thin dispatcher over subcommand modules.

Each subcommand lives in its own module exposing ``HELP``, ``configure(parser)`` and
``run(args) -> int``; heavy imports happen inside ``run`` so ``onered --help`` stays fast.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from onered import __version__
from onered.errors import OneredError
from onered.texts import Lang, error_message, lang_from_env

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
    "account": "onered.cli.account",
    "backup": "onered.cli.backup",
    "restore": "onered.cli.restore",
    "ratings": "onered.cli.ratings",
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
    parser.add_argument(
        "--lang",
        choices=LANGS,
        default=argparse.SUPPRESS,
        dest="top_lang",
        help="language of the errors: ru or en (default: the locale's, else en)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_SubcommandParser)
    for name, module_name in SUBCOMMANDS.items():
        module = _load(module_name)
        sp = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.configure(sp)
        _add_lang(sp)
        sp.set_defaults(_module=module_name)
    return parser


#: The languages of the words and of the errors.
LANGS = tuple(lang.value for lang in Lang)


def _add_lang(parser: argparse.ArgumentParser, dest: str = "lang") -> None:
    """``--lang`` on ``parser`` and on its own subcommands (``onered study games``), unless
    one has its own (``play``, ``advise``: the language of their words, and of their errors
    too). Left out of the arguments when not given, so a nested parser never resets it."""
    with contextlib.suppress(argparse.ArgumentError):
        parser.add_argument(
            "--lang",
            choices=LANGS,
            default=argparse.SUPPRESS,
            dest=dest,
            help="language of the errors: ru or en (default: the locale's, else en)",
        )
    for action in parser._actions:  # argparse lists nested subcommands only there
        if isinstance(action, argparse._SubParsersAction):
            for nested in action.choices.values():
                _add_lang(nested)


def language(args: argparse.Namespace) -> Lang:
    """The language of a command: its ``--lang``, else ``onered --lang``, else the locale's
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``: Russian when it starts with ``ru``), else English."""
    chosen = getattr(args, "lang", None) or getattr(args, "top_lang", None)
    return Lang(chosen) if chosen else lang_from_env(os.environ)


class FileError(OneredError):
    """A file a command cannot use: code ``cannot_read``, ``cannot_write``, ``cannot_create``
    or ``not_utf8_file``; params ``name`` and ``reason`` (the system's words for it). Raised
    from a command's ``run``, printed by :func:`main` like every error."""

    default_code = "cannot_read"

    @classmethod
    def reading(cls, name: object, exc: OSError | UnicodeDecodeError) -> FileError:
        """``name`` could not be read (``exc``): not found, not allowed, not UTF-8 text."""
        if isinstance(exc, UnicodeDecodeError):
            return cls._of("not_utf8_file", f"{name} is not UTF-8 text", name, exc.reason)
        return cls._of("cannot_read", f"cannot read {name}", name, exc.strerror)

    @classmethod
    def writing(cls, name: object, exc: OSError) -> FileError:
        """``name`` could not be written."""
        return cls._of("cannot_write", f"cannot write {name}", name, exc.strerror)

    @classmethod
    def creating(cls, name: object, exc: OSError) -> FileError:
        """The folder ``name`` could not be made."""
        return cls._of("cannot_create", f"cannot create {name}", name, exc.strerror)

    @classmethod
    def _of(cls, code: str, what: str, name: object, reason: str | None) -> FileError:
        reason = reason or "error"
        return cls(f"{what}: {reason}", code=code, params={"name": str(name), "reason": reason})


def error_line(command: str, error: OneredError, lang: Lang, where: str | None = None) -> str:
    """An error as the CLI prints it, on one line in ``lang``: ``onered <command>: <message>``
    (``<where>: `` before the message when the input it names is not in it)."""
    message = error_message(error, lang)
    return f"onered {command}: {where}: {message}" if where else f"onered {command}: {message}"


class _SubcommandParser(argparse.ArgumentParser):
    """A subcommand's parser: an argument it does not know is reported with its own usage
    (``onered play --bad`` shows ``onered play``'s options; argparse alone hands unknown
    arguments up and prints the top-level usage). Nested subcommands inherit the class."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extra = super().parse_known_args(args, namespace)
        if extra:
            self.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed, extra


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``onered`` script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    lang = language(args)
    args.lang = lang.value  # a subcommand reads the language chosen here
    try:
        status: int = _load(args._module).run(args)
    except OneredError as exc:  # every error of the root: one line in the language, status 2
        print(error_line(args.command, exc, lang), file=sys.stderr)
        return 2
    return status


def _script() -> None:  # pragma: no cover - console entry
    sys.exit(quiet_on_broken_pipe(main))


def quiet_on_broken_pipe(command: Callable[[], int]) -> int:
    """Run ``command``; when the reader of standard output goes away (``onered play | head``)
    stop quietly with status 1, as Python's documentation advises, instead of a traceback —
    one place for every subcommand."""
    try:
        status = command()
        sys.stdout.flush()  # a pipe closed after the last write fails here, not at exit
    except BrokenPipeError:
        # Point stdout at /dev/null: the interpreter's final flush must not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    return status
