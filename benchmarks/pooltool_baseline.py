"""pooltool 0.3.3 measured in the same run: the baseline of onered's physics benchmarks.

pooltool is not a dependency of onered and is never imported in onered's environment. This
module has two sides:

- the *runner* (:func:`pooltool_seconds`, called from onered's benchmarks): makes once a
  virtual environment of its own with ``pip install pooltool-billiards==0.3.3`` (cached under
  ``~/.cache/onered-bench/pooltool-0.3.3-venv``; the environment variable
  ``ONERED_POOLTOOL_VENV`` names another place), writes the shots as JSON and runs the worker
  in that environment as a subprocess;
- the *worker* (``python pooltool_baseline.py --worker in.json out.json``, run by pooltool's
  interpreter; it imports only pooltool, numpy and the standard library): builds a pooltool
  ``System`` per shot, with the balls where onered has them on a table of onered's size and
  pocket openings, the cue ball's state set directly from onered's ``Launch`` (the angular
  velocity copied as it is: both engines use a right-handed vector in the table frame, z up,
  so topspin is along z x v in both; ``docs/pooltool_reference.py``), and times
  ``pt.simulate`` on it.

What is timed: the CPU time of ``pt.simulate(system, inplace=True)`` alone (the ``System`` is
built before the clock starts), per shot, the best of ``repeats`` passes over all shots. Numba
compiles pooltool's kernels on first use (about 50 s in a fresh environment, loaded from its
cache later); a few shots are simulated first, untimed, and that warm-up is reported apart.
The balls get onered's parameters (mass, radius, cloth and cushion friction, cushion height
and restitution); the models are pooltool 0.3.3's defaults (Han's cushions, frictionless
elastic ball-ball), built explicitly so that a user's pooltool config cannot change them.
A shot pooltool raises on is left out of the figures and counted in ``failed``.

Usage from a benchmark (``benchmarks/`` on ``sys.path``)::

    from pooltool_baseline import BaselineShot, PooltoolUnavailableError, pooltool_seconds
    shots = [BaselineShot(balls, "white", launch) for ...]   # balls: {name: (x, y)}
    try:
        got = pooltool_seconds(shots, repeats=3)
    except PooltoolUnavailableError as exc:
        print(exc)
    print(got.mean_seconds, got.mean_events, got.version, got.warmup_seconds, got.load)
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onered.physics import Launch, Params, TableSpec

VERSION = "0.3.3"
PACKAGE = f"pooltool-billiards=={VERSION}"
VENV_ENV = "ONERED_POOLTOOL_VENV"
DEFAULT_VENV = Path("~/.cache/onered-bench") / f"pooltool-{VERSION}-venv"
_MARKER = "onered-pooltool-installed"
_PIP_TIMEOUT = 1800.0


class PooltoolUnavailableError(RuntimeError):
    """pooltool could not be installed or run; the message says why (pip's or the
    worker's last lines)."""


@dataclass(frozen=True, slots=True)
class BaselineShot:
    """One shot for pooltool: ball centres (m, onered's table frame), the cue ball's name
    and onered's launch (``strike_to_launch``); level strokes only (``vz == 0``)."""

    balls: Mapping[str, tuple[float, float]]
    cue_ball: str
    launch: Launch


@dataclass(frozen=True, slots=True)
class Baseline:
    """pooltool's figures on a list of shots, in the order given.

    ``seconds``: CPU seconds of ``pt.simulate`` per shot, the best of ``repeats`` (``None``
    for a shot pooltool raised on; its index is in ``failed``); ``events``: pooltool's
    events per shot (the null events at the start and end not counted); ``first_contact``:
    the first ball the cue ball struck (``None``: none); ``rest``: where each ball came to
    rest (``None``: pocketed); ``warmup_seconds``: wall time of the
    untimed ``warmup_shots`` (numba's compilation or cache load); ``import_seconds``: wall
    time of ``import pooltool``; ``load``: the 1-minute load average before and after.
    """

    seconds: tuple[float | None, ...]
    events: tuple[int | None, ...]
    first_contact: tuple[str | None, ...]
    rest: tuple[Mapping[str, tuple[float, float] | None] | None, ...]
    failed: tuple[int, ...]
    errors: tuple[str, ...]
    version: str
    repeats: int
    warmup_shots: int
    warmup_seconds: float
    import_seconds: float
    load: tuple[float, float]
    python: str

    @property
    def mean_seconds(self) -> float:
        """Mean CPU seconds per shot over the shots pooltool simulated."""
        return statistics.fmean(s for s in self.seconds if s is not None)

    @property
    def mean_events(self) -> float:
        """Mean events per shot over the shots pooltool simulated."""
        return statistics.fmean(e for e in self.events if e is not None)

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (the means included)."""
        out = asdict(self)
        out["mean_seconds"] = self.mean_seconds
        out["mean_events"] = self.mean_events
        return out


# ----------------------------------------------------------------------------- runner
def venv_path() -> Path:
    """Where pooltool's environment lives: ``$ONERED_POOLTOOL_VENV`` or the default."""
    return Path(os.environ.get(VENV_ENV) or DEFAULT_VENV).expanduser()


def _python(env_dir: Path) -> Path:
    return env_dir / "bin" / "python"


@contextlib.contextmanager
def _locked(env_dir: Path) -> Iterator[None]:
    """Hold a lock beside ``env_dir`` so that two benchmarks never install at once."""
    env_dir.parent.mkdir(parents=True, exist_ok=True)
    with open(env_dir.parent / f".{env_dir.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _tail(text: str | bytes | None, lines: int = 12) -> str:
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    kept = [line for line in (text or "").splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def ensure_venv(env_dir: Path | None = None) -> Path:
    """The interpreter of pooltool's environment, made (venv + pip install) the first time.

    Raises :class:`PooltoolUnavailableError` with pip's last lines when that fails.
    """
    env_dir = env_dir or venv_path()
    python = _python(env_dir)
    if (env_dir / _MARKER).exists() and python.exists():
        return python
    with _locked(env_dir):
        if (env_dir / _MARKER).exists() and python.exists():
            return python
        print(f"pooltool baseline: installing {PACKAGE} into {env_dir} (once; a few minutes)")
        try:
            venv.EnvBuilder(with_pip=True, symlinks=True).create(env_dir)
        except (OSError, subprocess.CalledProcessError) as exc:
            raise PooltoolUnavailableError(
                f"cannot make a virtual environment for pooltool at {env_dir}: {exc}"
            ) from exc
        command = [str(python), "-m", "pip", "install", "--disable-pip-version-check", PACKAGE]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=_PIP_TIMEOUT, check=False
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PooltoolUnavailableError(
                f"cannot install {PACKAGE} into {env_dir}: {exc}"
            ) from exc
        if done.returncode != 0:
            raise PooltoolUnavailableError(
                f"cannot install {PACKAGE} into {env_dir} (pip exit status {done.returncode}):\n"
                f"{_tail(done.stderr or done.stdout)}"
            )
        (env_dir / _MARKER).write_text(f"{PACKAGE}\n")
    return python


def _job(
    shots: Sequence[BaselineShot], repeats: int, warmup: int, params: Params, table: TableSpec
) -> dict[str, Any]:
    """The worker's input: onered's table and ball parameters and the shots as numbers."""
    rows = []
    for i, shot in enumerate(shots):
        if shot.launch.vz != 0:
            raise ValueError(f"shots[{i}]: pooltool {VERSION} has no flight; vz must be 0")
        if shot.cue_ball not in shot.balls:
            raise ValueError(f"shots[{i}]: cue ball {shot.cue_ball!r} is not on the table")
        rows.append(
            {
                "balls": {name: [float(x), float(y)] for name, (x, y) in shot.balls.items()},
                "cue_ball": shot.cue_ball,
                "v": [float(x) for x in shot.launch.v],
                "w": [float(x) for x in shot.launch.w],
            }
        )
    return {
        "version": VERSION,
        "repeats": repeats,
        "warmup": warmup,
        "table": {
            "length": table.length,
            "width": table.width,
            "corner_opening": table.corner_opening,
            "middle_opening": table.middle_opening,
            "cushion_height": params.cushion_height,
        },
        "ball": {
            "R": params.R,
            "m": params.m,
            "g": params.g,
            "u_s": params.mu_s,
            "u_r": params.mu_r,
            # pooltool's spin friction is u_sp_proportionality * R; onered's mu_sp is u_sp
            "u_sp_proportionality": params.mu_sp / params.R,
            "e_c": params.e_c,
            "f_c": params.f_c,
        },
        "shots": rows,
    }


def pooltool_seconds(
    shots: Sequence[BaselineShot],
    repeats: int = 3,
    *,
    warmup: int = 20,
    params: Params | None = None,
    table: TableSpec | None = None,
    env_dir: Path | None = None,
) -> Baseline:
    """Time pooltool 0.3.3 on ``shots`` in its own environment (made the first time).

    ``params``/``table``: onered's ball parameters and table (the defaults when ``None``);
    ``warmup``: how many shots (the first ones, cycled if fewer) run untimed first.
    Raises :class:`PooltoolUnavailableError` when pooltool cannot be installed or run, and
    ``ValueError`` naming the shot for a shot pooltool cannot take (no shots, a ``vz``).
    """
    from onered.physics import Params, TableSpec

    if not shots:
        raise ValueError("shots: at least one shot is needed")
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}")
    job = _job(shots, repeats, max(warmup, 0), params or Params(), table or TableSpec())
    python = ensure_venv(env_dir)
    with tempfile.TemporaryDirectory(prefix="onered-pooltool-") as tmp:
        src, dst = Path(tmp) / "in.json", Path(tmp) / "out.json"
        src.write_text(json.dumps(job))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        command = [str(python), str(Path(__file__).resolve()), "--worker", str(src), str(dst)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, env=env, cwd=tmp, check=False
            )
        except OSError as exc:
            raise PooltoolUnavailableError(
                f"cannot run pooltool's interpreter {python}: {exc}"
            ) from exc
        if done.returncode != 0 or not dst.exists():
            raise PooltoolUnavailableError(
                f"the pooltool worker failed (exit status {done.returncode}):\n"
                f"{_tail(done.stderr or done.stdout)}"
            )
        got = json.loads(dst.read_text())
    if got["version"] != VERSION:
        raise PooltoolUnavailableError(
            f"{python} has pooltool {got['version']}, not {VERSION}; remove that environment"
        )
    return Baseline(
        seconds=tuple(got["seconds"]),
        events=tuple(got["events"]),
        first_contact=tuple(got["first_contact"]),
        rest=tuple(
            None if r is None else {k: None if p is None else (p[0], p[1]) for k, p in r.items()}
            for r in got["rest"]
        ),
        failed=tuple(got["failed"]),
        errors=tuple(got["errors"]),
        version=got["version"],
        repeats=repeats,
        warmup_shots=got["warmup_shots"],
        warmup_seconds=got["warmup_seconds"],
        import_seconds=got["import_seconds"],
        load=(got["load"][0], os.getloadavg()[0]),
        python=got["python"],
    )


# ----------------------------------------------------------------------------- worker
def _worker(src: Path, dst: Path) -> None:
    """Run in pooltool's environment: simulate and time the job in ``src``, write ``dst``."""
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    import numpy as np
    import pooltool as pt
    import pooltool.constants as const
    from pooltool.objects.ball.datatypes import BallState
    from pooltool.objects.table.specs import PocketTableSpecs, SnookerTableSpecs
    from pooltool.physics.engine import PhysicsEngine
    from pooltool.physics.resolve.ball_ball import BallBallModel
    from pooltool.physics.resolve.ball_cushion import BallCCushionModel, BallLCushionModel
    from pooltool.physics.resolve.ball_pocket import BallPocketModel
    from pooltool.physics.resolve.resolver import Resolver, ResolverConfig
    from pooltool.physics.resolve.stick_ball import StickBallModel
    from pooltool.physics.resolve.transition import BallTransitionModel

    import_seconds = time.perf_counter() - t0
    job = json.loads(src.read_text())
    # pooltool 0.3.3's defaults, spelled out (docs/pooltool_reference.py)
    config = ResolverConfig(
        ball_ball=BallBallModel.FRICTIONLESS_ELASTIC,
        ball_ball_params={},
        ball_linear_cushion=BallLCushionModel.HAN_2005,
        ball_linear_cushion_params={},
        ball_circular_cushion=BallCCushionModel.HAN_2005,
        ball_circular_cushion_params={},
        ball_pocket=BallPocketModel.CANONICAL,
        ball_pocket_params={},
        stick_ball=StickBallModel.INSTANTANEOUS_POINT,
        stick_ball_params={"throttle_english": True},
        transition=BallTransitionModel.CANONICAL,
        transition_params={},
    )
    engine = PhysicsEngine(resolver=Resolver.from_config(config))
    spec = job["table"]
    # The snooker table's pocket shapes at onered's size and openings, as PocketTableSpecs:
    # pooltool 0.3.3's Table.from_table_specs refuses SnookerTableSpecs itself. pooltool's
    # frame is onered's (origin at a corner of the cushion faces, x across, y up the table).
    snooker = SnookerTableSpecs()
    shape = {
        name: getattr(snooker, name)
        for name in (
            "cushion_width", "corner_pocket_angle", "corner_pocket_depth",
            "corner_pocket_radius", "corner_jaw_radius", "side_pocket_angle",
            "side_pocket_depth", "side_pocket_radius", "side_jaw_radius",
        )
    }  # fmt: skip
    table = pt.Table.from_table_specs(
        PocketTableSpecs(
            l=spec["length"],
            w=spec["width"],
            cushion_height=spec["cushion_height"],
            corner_pocket_width=spec["corner_opening"],
            side_pocket_width=spec["middle_opening"],
            **shape,
        )
    )
    ball_params = job["ball"]
    radius = ball_params["R"]

    def system(shot: dict[str, Any]) -> Any:
        balls = {}
        for name, xy in shot["balls"].items():
            ball = pt.Ball.create(name, xy=xy, **ball_params)
            if name == shot["cue_ball"]:
                v = np.array([*shot["v"], 0.0])
                w = np.array(shot["w"], dtype=float)
                rvw = np.array([ball.state.rvw[0], v, w])
                slip = v + radius * np.cross([0.0, 0.0, 1.0], w)
                moving = const.rolling if not slip.any() else const.sliding
                ball.state = BallState(rvw, moving, 0.0)
            balls[name] = ball
        cue = pt.Cue(cue_ball_id=shot["cue_ball"], V0=0.0)
        return pt.System(cue=cue, table=table, balls=balls)

    def run(shot: dict[str, Any]) -> tuple[float, Any]:
        built = system(shot)
        c0 = time.process_time()
        pt.simulate(built, engine=engine, inplace=True)
        return time.process_time() - c0, built

    shots = job["shots"]
    warmup = min(job["warmup"], 10 * len(shots))
    t0 = time.perf_counter()
    for i in range(warmup):
        with contextlib.suppress(Exception):
            run(shots[i % len(shots)])
    warmup_seconds = time.perf_counter() - t0

    n = len(shots)
    best: list[float | None] = [math.inf] * n
    events: list[int | None] = [None] * n
    first: list[str | None] = [None] * n
    rest: list[dict[str, list[float] | None] | None] = [None] * n
    errors: dict[int, str] = {}
    for _ in range(job["repeats"]):
        for i, shot in enumerate(shots):
            if i in errors:
                continue
            try:
                seconds, done = run(shot)
            except Exception as exc:  # pooltool 0.3.3 has known solver failures
                errors[i] = f"shot {i}: {type(exc).__name__}: {exc}"[:300]
                best[i] = events[i] = None
                continue
            best[i] = min(best[i] or math.inf, seconds)
            real = [e for e in done.events if e.event_type != pt.EventType.NONE]
            events[i] = len(real)
            cue = shot["cue_ball"]
            hit = next(
                (e for e in real if e.event_type == pt.EventType.BALL_BALL and cue in e.ids),
                None,
            )
            first[i] = None if hit is None else next(b for b in hit.ids if b != cue)
            rest[i] = {
                name: None if ball.state.s == const.pocketed else ball.state.rvw[0][:2].tolist()
                for name, ball in done.balls.items()
            }
    out = {
        "version": pt.__version__,
        "seconds": best,
        "events": events,
        "first_contact": first,
        "rest": rest,
        "failed": sorted(errors),
        "errors": [errors[i] for i in sorted(errors)],
        "warmup_shots": warmup,
        "warmup_seconds": warmup_seconds,
        "import_seconds": import_seconds,
        "load": [load0, os.getloadavg()[0]],
        "python": sys.version.split()[0],
    }
    dst.write_text(json.dumps(out))


def main(argv: Sequence[str]) -> int:
    """``--worker IN OUT``: the worker side; anything else prints the usage."""
    if len(argv) == 3 and argv[0] == "--worker":
        _worker(Path(argv[1]), Path(argv[2]))
        return 0
    print("usage: python pooltool_baseline.py --worker IN.json OUT.json", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
