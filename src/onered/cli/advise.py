"""``onered advise``: the coach's best strokes for a position — from a position file (the
written position, or its JSON form) or from a game record at stroke N."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from onered.cli import FileError
from onered.errors import OneredError

if TYPE_CHECKING:
    from onered.coach import Advice
    from onered.game.model import Action, Position

HELP = "advise on a position: the best strokes for a level, with their odds (--svg: draw them)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered advise``."""
    parser.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="a position: written as 'onered.rules.position' writes it, or its JSON form "
        "(see docs/coach.md); '-' reads standard input",
    )
    parser.add_argument(
        "--record", metavar="GAME", type=Path, help="a game record (JSON Lines) instead of FILE"
    )
    parser.add_argument(
        "--stroke",
        metavar="N",
        type=int,
        help="with --record: advise on the position before stroke N (1 = the first)",
    )
    parser.add_argument("--level", default="pro", help="the player's level (default: pro)")
    parser.add_argument(
        "--lang",
        choices=("ru", "en"),
        default=None,
        help="language of the words and errors (default: the locale's, else en)",
    )
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    parser.add_argument("--svg", metavar="FILE", type=Path, help="draw the suggestions into FILE")
    parser.add_argument("--count", type=int, default=5, help="suggestions to give (default 5)")
    parser.add_argument(
        "--samples", type=int, default=200, help="noise samples per stroke (default 200)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the noise samples")


class _InputError(OneredError):
    """Bad input: the message is printed and the exit status is 2."""

    default_code = "input"


def _read_text(name: str) -> str:
    try:
        if name == "-":
            return sys.stdin.read()
        return Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FileError.reading(name, exc) from None


def _position_from_file(name: str) -> Position:
    """A position file: the JSON form when it starts with '{', else the written form."""
    from onered.coach import AdviceError
    from onered.coach.position import position_from_json, position_from_text

    text = _read_text(name)
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise _InputError(f"{name}: not valid JSON: {exc.msg} (line {exc.lineno})") from None
        try:
            return position_from_json(obj)
        except AdviceError as exc:
            raise _InputError(f"{name}: {exc}") from None
    try:
        return position_from_text(text)
    except AdviceError as exc:
        raise _InputError(f"{name}: {exc}") from None


def _position_from_record(path: Path, stroke: int | None) -> tuple[Position, Action | None]:
    """The position before stroke ``stroke`` of a game record (any layout the game core
    reads), and the stroke played there."""
    from onered.coach import AdviceError
    from onered.coach.position import played_at, position_before
    from onered.game.record import RecordError, decode
    from onered.game.session import Session

    if stroke is None:
        raise _InputError("--record needs --stroke N (the stroke to advise on)")
    try:
        session = Session.from_text(decode(path.read_bytes()), check=False)
    except OSError as exc:
        raise FileError.reading(path, exc) from None
    except RecordError as exc:
        raise _InputError(f"{path}: {exc}") from None
    try:
        return position_before(session, stroke), played_at(session, stroke)
    except AdviceError as exc:
        raise _InputError(f"{path}: {exc}") from None


def draw(advice: Advice, title: str) -> str:
    """The suggestions drawn on the table (paths in the colours of their ranks)."""
    from onered.coach.report import PATH_LANE, RANK_COLOURS
    from onered.svg import draw_shots

    position = advice.position
    before = {b.value: p for b, p in position.balls.items()}
    shots = []
    for s in advice.suggestions:
        placed = s.action.placed
        if placed is not None:
            before[position.cue_ball.value] = placed  # the best suggestion's placement
            break
    for s in advice.suggestions:
        colour = RANK_COLOURS[(s.rank - 1) % len(RANK_COLOURS)]
        shots.append((s.shot, colour, str(s.rank)))
    caption = " · ".join(
        f"{s.rank}: {100 * s.odds.p_score:.0f}% {s.odds.value:+.1f}" for s in advice.suggestions
    )
    return draw_shots(
        before, shots, position.cue_ball.value, title=title, caption=caption, lane=PATH_LANE
    )


def run(args: argparse.Namespace) -> int:
    """Exit status 0 with the advice printed, 2 for input that cannot be advised on."""
    from onered.coach import Coach, level_strength
    from onered.coach.report import advice_json, advice_text
    from onered.texts import Lang

    # a refusal is an OneredError: cli.main prints it in the language
    if (args.file is None) == (args.record is None):
        raise _InputError(
            "give a position FILE or --record GAME --stroke N (one of them)",
            code="position_or_record",
        )
    if args.stroke is not None and args.record is None:
        raise _InputError("--stroke N goes with --record GAME", code="stroke_needs_record")
    strength = level_strength(args.level)
    played = None
    if args.record is not None:
        position, played = _position_from_record(args.record, args.stroke)
    else:
        position = _position_from_file(args.file)
    advice = Coach(strength).advise(
        position, count=args.count, samples=args.samples, seed=args.seed, played=played
    )
    lang = Lang(args.lang)
    if args.svg is not None:
        try:
            args.svg.write_text(draw(advice, f"onered advise · {advice.level}"), encoding="utf-8")
        except OSError as exc:
            raise FileError.writing(args.svg, exc) from None
    if args.json:
        print(json.dumps(advice_json(advice, lang), ensure_ascii=False, indent=1))
    else:
        print(advice_text(advice, lang))
    return 0
