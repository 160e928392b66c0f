"""``onered study``: many games, a shot over a family of positions, or a parameter sweep,
on every core (or on Ray), written as Parquet tables, a summary and a report.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HELP = "studies: many games, shot maps, parameter sweeps (tables, summary, report)"

#: Examples shown under ``onered study --help``.
EPILOG = """examples:
  onered study games --p1 ai:pro --p2 ai:amateur --games 200 --target 100
  onered study shots --shot pot --pocket top_right --player ai:amateur
  onered study sweep --param e_c --from 0.7 --to 0.95 --steps 6 --games 10
  onered study sweep --param cushion_model --values mathavan2010,han2005
  onered study games --physics cushion_model=han2005,e_c=0.85
  onered study games --backend ray --address 127.0.0.1:6379
  onered study run onered-study/games                 # the study in a folder, again
  onered study run onered-study/games --games 40      # ... extended to 40 games
  onered study run my-study.json --out my-study       # a spec file written by hand
the report lands in <out>/report/index.html (default out: ./onered-study/<kind>)"""


def _common(p: argparse.ArgumentParser, kind: str) -> None:
    p.add_argument(
        "--out", metavar="DIR", help=f"the study's folder (default ./onered-study/{kind})"
    )
    p.add_argument("--seed", type=int, default=1, help="the study's seed (default 1)")
    _how(p)
    p.add_argument(
        "--physics",
        default="",
        metavar="NAME=V,...",
        help="table parameters: numbers, the cushion model by name (cushion_model=han2005)",
    )


def _how(p: argparse.ArgumentParser) -> None:
    """How a study runs (not what it is): workers, backend, progress bar."""
    p.add_argument(
        "--jobs", type=int, help="worker processes (local: default one per core; ray: local CPUs)"
    )
    p.add_argument("--backend", choices=("local", "ray"), default="local", help="default local")
    p.add_argument("--address", help="with --backend ray: join the cluster at HOST:PORT")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _game_settings(p: argparse.ArgumentParser, games: int, p1: str, p2: str) -> None:
    p.add_argument("--p1", default=p1, metavar="PLAYER", help=f"first player (default {p1})")
    p.add_argument("--p2", default=p2, metavar="PLAYER", help=f"second player (default {p2})")
    p.add_argument("--games", type=int, default=games, help=f"games (default {games})")
    p.add_argument("--target", type=int, default=30, help="points to win (default 30)")
    p.add_argument("--max-strokes", type=int, default=400, help="stop a game after (400)")
    p.add_argument("--no-lag", action="store_true", help="p1 plays first, no lag")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered study``."""
    from onered.table import POCKET_NAMES

    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    sub = parser.add_subparsers(dest="kind", metavar="KIND")
    players = "PLAYER is a level (ai:beginner, ai:amateur, ai:pro, ...) with optional parameters: "
    players += "ai:pro,noise.aim=0.05,continuation=5"

    games = sub.add_parser("games", help="many games between two players", description=players)
    _game_settings(games, 20, "ai:amateur", "ai:beginner")
    _common(games, "games")

    shots = sub.add_parser(
        "shots",
        help="probability of each outcome of a shot over a grid of positions",
        description="One shot (a pot or an in-off of the red into --pocket) from every "
        "position of a grid, played --samples times with --player's execution noise.",
    )
    shots.add_argument(
        "--shot", choices=("pot", "in-off"), default="pot", help="pot or in-off the red (pot)"
    )
    shots.add_argument(
        "--pocket",
        choices=POCKET_NAMES,
        default="top_right",
        metavar="POCKET",
        help=f"the pocket: {', '.join(POCKET_NAMES)} (default top_right)",
    )
    shots.add_argument(
        "--vary", choices=("object", "cue"), default="object", help="the ball on the grid"
    )
    shots.add_argument(
        "--at", default="0.889,1.7845", metavar="X,Y", help="the other ball (default centre spot)"
    )
    shots.add_argument("--grid", default="12x14", metavar="NXxNY", help="columns x rows (12x14)")
    shots.add_argument(
        "--region",
        default="0.1,1.678,1.95,3.45",
        metavar="X0,X1,Y0,Y1",
        help="the grid's area, metres (default: the top half, inside the cushions)",
    )
    shots.add_argument("--player", default="ai:amateur", help="whose noise (default ai:amateur)")
    shots.add_argument("--samples", type=int, default=200, help="strokes per position (200)")
    shots.add_argument("--speed", type=float, default=3.0, help="m/s (default 3.0)")
    shots.add_argument("--side", type=float, default=0.0, help="tip side, fraction of R")
    shots.add_argument("--height", type=float, default=0.0, help="tip height, fraction of R")
    _common(shots, "shots")

    sweep = sub.add_parser(
        "sweep",
        help="one physical or player parameter over a range",
        description="A physical parameter (a field of onered.physics.Params, e.g. e_c, mu_r) "
        "or a player parameter (noise.aim, noise.speed, noise.tip, noise.elevation, "
        "continuation) over a range; "
        "or the cushion model over its names (--param cushion_model --values "
        "mathavan2010,han2005; every model without --values); --games games at each value. "
        f"{players}",
    )
    sweep.add_argument("--param", default="e_c", help="the parameter (default e_c)")
    sweep.add_argument(
        "--values", metavar="V1,V2,...", help="the values, numbers or names (or --from/--to)"
    )
    sweep.add_argument("--from", dest="start", type=float, help="first value (default 0.7)")
    sweep.add_argument("--to", dest="stop", type=float, help="last value (default 0.94)")
    sweep.add_argument("--steps", type=int, help="values from --from to --to (default 4)")
    sweep.add_argument(
        "--who", choices=("both", "p1"), default="both", help="whom a player parameter changes"
    )
    _game_settings(sweep, 4, "ai:amateur", "ai:amateur")
    _common(sweep, "sweep")

    rerun = sub.add_parser(
        "run",
        help="a study from its spec file, or the study in a folder (resume it, extend it)",
        description="Run the study a spec file describes: the spec.json a study's folder "
        "holds, or one written by hand (kind and the fields it changes; the others take "
        "their defaults). Given a folder, run the study in it: resume it, or with --games "
        "or --samples extend it.",
    )
    rerun.add_argument("spec", metavar="SPEC", help="a spec file (JSON), or a study's folder")
    rerun.add_argument(
        "--out",
        metavar="DIR",
        help="the study's folder (default: SPEC when it is a folder, or the folder whose "
        "spec.json it is; else ./onered-study/<kind>)",
    )
    rerun.add_argument(
        "--games", type=int, help="games (a sweep: per value) instead of the spec's: more extend it"
    )
    rerun.add_argument(
        "--samples", type=int, help="a shots study's samples per position: more extend it"
    )
    _how(rerun)


def _floats(text: str, n: int | None, what: str) -> tuple[float, ...]:
    from onered.study.spec import StudyError

    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise StudyError(f"{what}: expected numbers separated by commas, got {text!r}") from None
    if n is not None and len(values) != n:
        raise StudyError(f"{what}: expected {n} numbers, got {text!r}")
    return values


def _spec(args: argparse.Namespace) -> Any:
    from onered.study import GamesSpec, ShotKind, ShotsSpec, StudyError, SweepSpec, Vary
    from onered.study.spec import parse_physics

    physics = parse_physics(args.physics)
    if args.kind in ("games", "sweep"):
        games: dict[str, Any] = {
            "p1": args.p1,
            "p2": args.p2,
            "games": args.games,
            "target": args.target,
            "max_strokes": args.max_strokes,
            "lag": not args.no_lag,
            "physics": physics,
            "seed": args.seed,
        }
    if args.kind == "games":
        return GamesSpec(**games)
    if args.kind == "shots":
        nx, x, ny = str(args.grid).lower().partition("x")
        if not (x and nx.strip().isdigit() and ny.strip().isdigit()):
            raise StudyError(f"--grid: expected COLUMNSxROWS such as 12x14, got {args.grid!r}")
        fixed = _floats(args.at, 2, "--at")
        region = _floats(args.region, 4, "--region")
        return ShotsSpec(
            shot=ShotKind(args.shot),
            pocket=args.pocket,
            vary=Vary(args.vary),
            fixed=(fixed[0], fixed[1]),
            grid=(int(nx), int(ny)),
            region=(region[0], region[1], region[2], region[3]),
            player=args.player,
            samples=args.samples,
            speed=args.speed,
            side=args.side,
            height=args.height,
            physics=physics,
            seed=args.seed,
        )
    return SweepSpec(param=args.param, values=_sweep_values(args), who=args.who, **games)


def _from_file(args: argparse.Namespace) -> tuple[Any, Path]:
    """``study run``: the study of the spec file (or folder) ``args.spec``, resized by
    ``--games``/``--samples``, and its folder."""
    from dataclasses import replace

    from onered.study.spec import StudyError
    from onered.study.specfile import read_spec
    from onered.study.store import PARTS, SIZE, SPEC

    source = Path(args.spec)
    spec = read_spec(source)
    size = SIZE[spec.kind.value]
    for flag, value in (("games", args.games), ("samples", args.samples)):
        if value is None:
            continue
        if flag != size:
            raise StudyError(
                f"--{flag}: a {spec.kind.value} study has no {flag}; its size is --{size}"
            )
        spec = replace(spec, **{size: value})
    if args.out:
        out = Path(args.out)
    elif source.is_dir():
        out = source
    elif source.name == SPEC and (source.parent / PARTS).is_dir():
        out = source.parent
    else:
        out = Path("onered-study", spec.kind.value)
    return spec, out


#: ``--from``, ``--to``, ``--steps`` when not given (the spec's default values).
START, STOP, STEPS = 0.7, 0.94, 4


def _sweep_values(args: argparse.Namespace) -> tuple[float | str, ...]:
    """The values of a sweep: ``--values`` (numbers; names for a parameter that takes
    them, the cushion model), or ``--steps`` numbers from ``--from`` to ``--to``. A range
    of a parameter that takes names is refused, naming the flags given and the names."""
    from onered.study.spec import StudyError, named_params

    names = named_params().get(args.param)
    if names is not None:
        flags = {"--from": args.start, "--to": args.stop, "--steps": args.steps}
        given = [flag for flag, value in flags.items() if value is not None]
        if given:
            raise StudyError(
                f"{'/'.join(given)}: {args.param} takes names, not a range of numbers; "
                f"give them with --values (one or more of {','.join(names)})"
            )
        if not args.values:
            return names
        return tuple(v.strip() for v in args.values.split(","))
    if args.values:
        return _floats(args.values, None, "--values")
    start = START if args.start is None else args.start
    stop = STOP if args.stop is None else args.stop
    n = STEPS if args.steps is None else args.steps
    if not 1 <= n <= 1000:
        raise StudyError(f"--steps: expected a number in [1, 1000], got {n}")
    values = tuple(start + (stop - start) * k / max(1, n - 1) for k in range(n))
    return tuple(round(v, 12) for v in values)


def run(args: argparse.Namespace) -> int:
    """Run the study; 0 when done, 2 on bad arguments, 130 when stopped by Ctrl+C."""
    if args.kind is None:
        print(
            "onered study: choose a kind: games, shots or sweep, or run SPEC (see --help)",
            file=sys.stderr,
        )
        return 2
    from onered.cli import error_line
    from onered.study import StudyInterruptedError, run_study
    from onered.texts import Lang

    try:
        if args.kind == "run":
            spec, out = _from_file(args)
        else:
            spec = _spec(args)
            out = Path(args.out) if args.out else Path("onered-study", args.kind)
        result = run_study(
            spec,
            out,
            jobs=args.jobs,
            backend=args.backend,
            address=args.address,
            progress=not args.no_progress,
        )
    except StudyInterruptedError as exc:
        print(error_line("study", exc, Lang(args.lang)), file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("onered study: stopped", file=sys.stderr)
        return 130
    print(f"tables: {', '.join(str(out / f'{t}.parquet') for t in result.tables)}")
    print(f"summary: {out / 'summary.json'}")
    if result.report is not None:
        print(f"report: {result.report}")
    return 0
