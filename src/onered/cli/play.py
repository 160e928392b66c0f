"""``onered play``: a game between two players on the simulated table, called as a marker
would call it, with the score after every stroke; ``--record FILE`` writes the game record.
"""

from __future__ import annotations

import argparse
import io
import sys
from typing import TYPE_CHECKING, TextIO

from onered import texts

if TYPE_CHECKING:
    from onered.game import Entry, Game, Lag, PhysicsSimulator
    from onered.players import Player
    from onered.rules import Verdict
    from onered.texts import Lang

HELP = "play a game between two players (e.g. --p1 ai:pro --p2 ai:amateur), called stroke by stroke"

#: The marker's words that are not the referee's codes, by key and language code
#: (``onered.texts``' ``play.*``).
WORDS: dict[str, dict[str, str]] = {
    key: {lang.value: text for lang, text in names.items()}
    for key, names in texts.section("play").items()
}


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered play``."""
    parser.add_argument(
        "--p1",
        default="ai:pro",
        metavar="PLAYER",
        help="first player: ai:LEVEL (novice beginner amateur club pro master), or human: "
        "you, typing your strokes (default ai:pro)",
    )
    parser.add_argument(
        "--p2", default="ai:amateur", metavar="PLAYER", help="second player (default ai:amateur)"
    )
    parser.add_argument(
        "--names", metavar="NAME1,NAME2", help="the players' names (default: from their levels)"
    )
    parser.add_argument("--target", type=int, default=100, help="points to win (default 100)")
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="seed of every random draw (default 1): same seed, same game",
    )
    parser.add_argument(
        "--lang",
        choices=("en", "ru"),
        default=None,
        help="language of the calls and errors (default: the locale's, else en)",
    )
    parser.add_argument("--record", metavar="FILE", help="write the game record (JSON Lines)")
    parser.add_argument(
        "--no-lag", action="store_true", help="no lag: the first player plays first, with the white"
    )
    parser.add_argument(
        "--max-strokes",
        type=int,
        default=3000,
        help="stop a game that has not ended after this many strokes",
    )
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def _names(args: argparse.Namespace) -> tuple[str, str]:
    """The players' names, checked as the game core checks a record's (``game.validate``):
    ``--names`` (two, separated by a comma) when given, else from the players' levels."""
    from onered.game import validate

    if args.names:
        return validate.names(str(args.names).split(","), "--names")
    base = [(spec.partition(":")[2] or spec).capitalize() for spec in (args.p1, args.p2)]
    if base[0] == base[1]:
        base = [f"{base[0]} 1", f"{base[1]} 2"]
    return validate.names(base, "--p1/--p2")


def _ball(name: str, lang: str, case: texts.Case = texts.Case.NOM) -> str:
    """A ball's name in ``case`` (``onered.texts``' one table of declensions)."""
    from onered.rules import Ball

    return texts.ball_name(Ball(name), texts.Lang(lang), case)


def describe_verdict(verdict: Verdict, players: tuple[str, str], lang: Lang) -> list[str]:
    """A stroke's verdict as the marker calls it: what scored (or the foul), then the calls."""
    from onered.rules import CallCode
    from onered.texts import text

    code = lang.value
    if verdict.foul is not None:
        fouls = ", ".join(text(c, lang) for c in verdict.foul.codes)
        receiver = players[1] if verdict.striker == players[0] else players[0]
        points = texts.count(verdict.foul.penalty, "point", lang)
        said = f"{WORDS['foul'][code]}: {fouls} — " + texts.word(
            "play.foul_to", lang, points=points, name=receiver
        )
    elif verdict.scored:
        parts = ", ".join(f"{text(kind, lang)} {value}" for kind, value in verdict.scored)
        said = parts if len(verdict.scored) == 1 else f"{parts} = {verdict.points}"
    else:
        said = WORDS["no_score"][code]
    calls = [f"«{text(c, lang)}»" for c in verdict.calls if c is not CallCode.FOUL]
    return [said, *calls]


def _score_line(verdict: Verdict, players: tuple[str, str]) -> str:
    return f"{players[0]} {verdict.score[0]} : {verdict.score[1]} {players[1]}"


class _Printer:
    """Prints the game as it is played."""

    def __init__(self, out: TextIO, lang: Lang, quiet: bool) -> None:
        self.out = out
        self.lang = lang
        self.quiet = quiet

    def lag(self, lag: Lag) -> None:
        from onered.table import BALL_RADIUS

        if self.quiet:
            return
        code = self.lang.value
        parts = []
        for s in lag.strokes:
            if s.valid and s.rest is not None:
                parts.append(
                    f"{s.player} {s.rest[1] - BALL_RADIUS:.3f} {WORDS['from_bottom'][code]}"
                )
            else:
                parts.append(f"{s.player}: {WORDS['no_lag_ball'][code]}")
        order = WORDS["first" if lag.choice.play_first else "second"][code]
        ball = texts.word(
            "play.with_ball", self.lang, ball=_ball(lag.choice.ball.value, code, texts.Case.INS)
        )
        print(
            f"{WORDS['lag'][code]}: {'; '.join(parts)}. {lag.winner} {WORDS['lag_won'][code]}, "
            f"{order} ({ball}).",
            file=self.out,
        )

    def entry(self, game: Game, entry: Entry) -> None:
        from onered.game import ChoiceRecord
        from onered.texts import text

        if self.quiet:
            return
        players = game.match.players
        code = self.lang.value
        verdict = entry.verdict
        if isinstance(entry, ChoiceRecord):
            print(
                f"     {entry.chooser} {WORDS['chooses'][code]}: {text(entry.option, self.lang)}",
                file=self.out,
            )
            return
        where = f", {WORDS['from_d'][code]}" if verdict.from_d else ""
        head = (
            f"{verdict.stroke:4d}  {verdict.striker} ({_ball(entry.cue_ball.value, code)}{where})"
        )
        said = describe_verdict(verdict, players, self.lang)
        brk = f"{WORDS['break'][code]} {verdict.break_}"
        print(
            f"{head:<34} {said[0]:<48} {brk:<12} | {_score_line(verdict, players)}", file=self.out
        )
        for call in said[1:]:
            print(f"{'':6}{call}", file=self.out)
        self.out.flush()


def _player(spec: str, name: str, seed: int, simulator: PhysicsSimulator, lang: Lang) -> Player:
    """The player ``spec`` describes (``players.parse_player``): the computer at its level,
    or for ``human`` the person at this terminal (``onered.cli.human``), spoken to in
    ``lang``."""
    from onered.cli.human import TerminalPlayer
    from onered.players import make_player, parse_player

    read = parse_player(spec)
    if read.is_computer:
        return make_player(read, seed, params=simulator.params, table=simulator.table)
    return TerminalPlayer(name, lambda: sys.stdin.readline() or None, sys.stdout, lang)


def run(args: argparse.Namespace) -> int:
    """Play the game; exit status 0 when it was played (and recorded), 2 on bad arguments."""
    import random

    from onered.cli import FileError
    from onered.cli.human import Quit
    from onered.game import PhysicsSimulator, validate
    from onered.game.record import dumps, entry_line, match_line
    from onered.players import GameSettings, play_game
    from onered.texts import Lang

    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(encoding="utf-8")
    names = _names(args)  # a refusal is an OneredError: cli.main prints it in the language
    validate.target(args.target, "--target")
    if args.max_strokes < 1:
        raise validate.ValidationError(
            "--max-strokes",
            "positive",
            f"expected a positive number, got {args.max_strokes}",
            {"where": "--max-strokes", "got": args.max_strokes},
        )
    simulator = PhysicsSimulator()
    seeds = random.Random(args.seed)
    lang = Lang(args.lang)
    players = {
        name: _player(spec, name, seeds.getrandbits(32), simulator, lang)
        for name, spec in zip(names, (args.p1, args.p2), strict=True)
    }
    record: TextIO | None = None
    if args.record:
        try:
            record = open(args.record, "w", encoding="utf-8")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise FileError.writing(args.record, exc) from None
    printer = _Printer(sys.stdout, lang, args.quiet)
    entrants = {names[0]: players[names[0]].description, names[1]: players[names[1]].description}

    def on_start(game: Game) -> None:
        if game.lag is not None:
            printer.lag(game.lag)
        if record is not None:
            line = match_line(
                game.match,
                physics=simulator.describe(),
                opening=game.opening,
                seed=args.seed,
                entrants=entrants,
                lag=game.lag,
            )
            record.write(dumps(line) + "\n")

    def on_entry(game: Game, entry: Entry) -> None:
        printer.entry(game, entry)
        if record is not None:
            record.write(dumps(entry_line(entry, game.match.players)) + "\n")
            record.flush()

    settings = GameSettings(
        target=args.target, names=names, lag=not args.no_lag, max_strokes=args.max_strokes
    )
    try:
        game = play_game(players, settings, simulator, on_entry=on_entry, on_start=on_start)
    except Quit:
        print("\n" + texts.word("human.stopped", lang), file=sys.stdout)
        return 0
    finally:
        if record is not None:
            record.close()
    _summary(game, lang, sys.stdout)
    return 0


def _summary(game: Game, lang: Lang, out: TextIO) -> None:
    from onered.game import StrokeRecord
    from onered.game.summary import highest_breaks, visits

    code = lang.value
    players = game.match.players
    score = game.state.score
    strokes = [e.verdict for e in game.entries if isinstance(e, StrokeRecord)]
    highest = highest_breaks(visits(strokes, over=game.winner is not None), players)
    tops = ", ".join(f"{name} {highest[name]}" for name in players)
    print(
        f"{WORDS['final'][code]}: {players[0]} {score[0]} : {score[1]} {players[1]} "
        f"({WORDS['highest'][code]}: {tops})",
        file=out,
    )
    if game.winner is not None:
        print(f"{game.winner} {WORDS['wins'][code]}.", file=out)
    else:
        strokes_after = texts.count(len(strokes), "stroke", lang, texts.Case.GEN)
        print(texts.word("play.stopped", lang, strokes=strokes_after), file=out)
