"""``onered replay FILE``: simulate a game record again and check it; ``--svg DIR`` draws
every stroke."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "re-simulate a game record and check it line by line (--svg DIR: draw every stroke)"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered replay``."""
    parser.add_argument("file", metavar="FILE", help="a game record written by 'onered play'")
    parser.add_argument(
        "--svg", metavar="DIR", type=Path, help="draw every stroke into DIR (stroke-0001.svg, ...)"
    )


def run(args: argparse.Namespace) -> int:
    """Exit status 0 when the replay is identical, 1 when it differs, 2 when the record
    cannot be read (or the pictures cannot be written)."""
    from onered.cli import FileError, error_line
    from onered.game import StrokeRecord
    from onered.game.record import RecordError, read_record
    from onered.game.replay import replay
    from onered.texts import Lang

    try:
        with open(args.file, encoding="utf-8") as handle:
            record = read_record(handle)
    except (OSError, UnicodeDecodeError) as exc:
        raise FileError.reading(args.file, exc) from None
    except RecordError as exc:
        print(error_line("replay", exc, Lang(args.lang), where=args.file), file=sys.stderr)
        return 2
    svg_dir: Path | None = args.svg
    if svg_dir is not None:
        try:
            svg_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileError.creating(svg_dir, exc) from None

    def draw(stroke: StrokeRecord) -> None:
        from onered.svg import draw_shot, save_svg

        if svg_dir is None:
            return
        verdict = stroke.verdict
        scored = ", ".join(f"{k.value} {v}" for k, v in verdict.scored) or "no score"
        if verdict.foul is not None:
            scored = "foul: " + ", ".join(c.value for c in verdict.foul.codes)
        title = (
            f"{verdict.stroke}. {stroke.striker} ({stroke.cue_ball.value}) — {scored}; "
            f"{verdict.score[0]}:{verdict.score[1]}"
        )
        before = {b.value: p for b, p in stroke.before.items()}
        save_svg(
            svg_dir / f"stroke-{verdict.stroke:04d}.svg",
            draw_shot(before, stroke.result, title=title),
        )

    try:
        report = replay(record, on_stroke=draw)
    except ValueError as exc:
        print(f"onered replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        raise FileError.writing(exc.filename or "a picture", exc) from None
    played = f"{report.strokes} strokes and {report.choices} choices played again"
    print(_summary(record.lines))
    if report.identical:
        winner = f"; winner {report.winner}" if report.winner else ""
        print(f"{args.file}: {played}: identical to the record, and the referee agrees{winner}")
        return 0
    if report.simulation is not None and "physics.fingerprint" in report.simulation.what:
        agrees = "agrees" if report.referee is None else "differs (below)"
        print(
            f"{args.file}: {report.simulation.what}. Only this bit-exact re-simulation needs "
            f"the engine that played the game: the record stays readable, exportable and "
            f"can be continued, and the referee's check of every verdict {agrees}."
        )
    elif report.simulation is not None:
        print(
            f"{args.file}: line {report.simulation.line}: the replay differs: "
            f"{report.simulation.what}"
        )
    if report.referee is not None:
        print(
            f"{args.file}: line {report.referee.line}: the referee differs: {report.referee.what}"
        )
    return 1


def _summary(lines: tuple[str, ...]) -> str:
    """The final score and the highest breaks, as the referee judges the record's lines
    (``onered.game.summary``: the same reading as ``onered play`` and ``onered stats``)."""
    from onered.game.record import LineKind, RecordError
    from onered.game.session import Session
    from onered.game.summary import highest_breaks, visits

    try:
        game = Session.from_lines(lines)
    except RecordError as exc:
        return f"the referee refuses the record: {exc}"
    strokes = [e.verdict for e in game.entries if e.kind is LineKind.STROKE]
    top = highest_breaks(visits(strokes, over=game.over), game.players)
    a, b = game.players
    score = game.state.score
    return f"score {a} {score[0]} : {score[1]} {b} (highest breaks: {a} {top[a]}, {b} {top[b]})"
