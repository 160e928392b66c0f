"""Several workers on one PostgreSQL: markers tapping, live viewers, a worker killed.

A PostgreSQL cluster is made in a temporary folder (``initdb``, run as ``postgres`` when
this runs as root; loopback only; stopped and removed at the end), and for each run an
empty database on it holds ``--markers`` marked games (made through the store before the
server starts). ``onered serve --database ... --workers N`` is started on 127.0.0.1. Then,
for ``--seconds`` after a warm-up:

- each marker taps its own game ``--rate`` times a second (``POST /api/games/{id}/mark``
  with the game's secret, the lines it saw and an ``Idempotency-Key`` per tap), on a
  keep-alive connection of its own; a tap whose answer does not come (the connection
  reset, closed, or a 502/503) is sent again, on a new connection, with the same key,
  until answered (the kernel hands the new connection to any worker);
- ``--viewers`` live viewers follow the games (``GET /api/games/{id}/events``; viewer k
  follows game k mod markers, so each game has two or three, most on another worker than
  the marker's tap), from many loopback addresses (under the per-client cap); a viewer
  whose stream ends reconnects with its ``Last-Event-ID``.

Reported: strokes acknowledged a second, a stroke's latency p50/p99/max (from when it was
due), the viewers' update latency (from a stroke's first send to its event at a viewer)
p50/p99, taps sent again, the machine's CPU use and load. Afterwards the games are read
back from the database: every acknowledged stroke must be there once (lost = acknowledged
but not stored, doubled = stored more than acknowledged: both must be 0, else the run fails).

The runs: ``--workers`` workers; the same with one worker killed with SIGKILL in the middle
(``--kill``; the parent starts another, the markers' taps in flight are sent again with
their keys to the others); and one worker (``--compare 1``) for comparison, on the same
cluster in the same session. Target (issue 23): 4 workers, 200 markers and 500 viewers,
stroke p99 <= 100 ms, 0 lost or doubled, with a worker killed too.

    python benchmarks/bench_federation.py [--workers 4] [--markers 200] [--viewers 500]
        [--rate 1] [--seconds 20] [--warmup 10] [--compare 1] [--no-kill] [--sqlite]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bench_server import cpu_seconds, free_port, healthy
from web_writes import Connection, new_games, open_store

from onered.game.marking import Part
from onered.web.store import Store

PLAYERS = ("Ivanov", "Petrov")
#: Taps that are legal in every position they come to in this order (no foul options).
TAPS: tuple[tuple[str, ...], ...] = (
    (Part.NO_SCORE.value,),
    (Part.POT_RED.value,),
    (Part.CANNON.value,),
    (Part.POT_RED.value,),
    (Part.NO_SCORE.value,),
)
#: Viewers opened from one loopback address (a club's device; under the per-client cap).
PER_ADDRESS = 8
#: Seconds a tap's try may wait for its answer before it is sent again (with its key).
TRY_TIMEOUT = 10.0
#: Tries of one tap before the marker gives it up (counted as not known: the run fails).
MOST_TRIES = 200
#: Seconds the server gets to answer its health check after starting, and to stop.
START_WAIT = 90.0
STOP_WAIT = 60.0


# --- the PostgreSQL cluster -------------------------------------------------------------


@dataclass(frozen=True)
class Cluster:
    """A running PostgreSQL cluster in a temporary folder."""

    folder: Path
    port: int
    bin_dir: Path

    def url(self, name: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def new_database(self) -> str:
        import psycopg

        name = f"bench_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def _as_owner(argv: list[str]) -> list[str]:
    """``argv`` run as ``postgres`` when we are root (the server refuses to run as root)."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@contextlib.contextmanager
def cluster(max_connections: int = 400) -> Iterator[Cluster]:
    """A PostgreSQL cluster in a temporary folder, listening on loopback only; stopped and
    removed when the block ends."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    which = shutil.which("initdb")
    if found:
        bin_dir = Path(found[0]).parent
    elif which:
        bin_dir = Path(which).resolve().parent
    else:
        raise SystemExit("PostgreSQL's server is not installed (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="onered-fed-pg-"))
    data = folder / "data"
    data.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
        shutil.chown(data, "postgres", "postgres")
    port = free_port()
    initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
    subprocess.run(
        _as_owner([*initdb, "--encoding=UTF8", "--locale=C.UTF-8"]),
        check=True,
        capture_output=True,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections={max_connections}"
    )
    pg_ctl = str(bin_dir / "pg_ctl")
    log = str(folder / "server.log")
    subprocess.run(
        _as_owner([pg_ctl, "-D", str(data), "-l", log, "-o", options, "-w", "start"]),
        check=True,
        capture_output=True,
    )
    try:
        yield Cluster(folder, port, bin_dir)
    finally:
        subprocess.run(
            _as_owner([pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(folder, ignore_errors=True)


# --- the games, the server ----------------------------------------------------------------


@dataclass
class Marker:
    """One marker's game and what it was answered."""

    game_id: str
    token: str
    first_lines: int
    lines: int
    acked: int = 0
    resent: int = 0
    unknown: int = 0
    #: Answers whose number of lines was not one more than the last (a doubled stroke).
    jumps: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: When the tap that made each revision was first sent (for the viewers' latency).
    sent: dict[int, float] = field(default_factory=dict)


def _open(url: str) -> Store:
    """The store of a PostgreSQL ``url`` (migrated) or of a data folder."""
    return open_store(Path(url), url if url.startswith("postgresql://") else None)


def make_games(url: str, n: int) -> list[Marker]:
    """``n`` marked games to 100,000 points in the database at ``url`` (a PostgreSQL URL,
    migrated first, or a data folder)."""
    store = _open(url)
    try:
        return [Marker(g, token, lines, lines) for g, token, lines in new_games(store, n)]
    finally:
        store.db.close()


def stored_lines(url: str, markers: list[Marker]) -> dict[str, int]:
    """Each game's number of stored lines."""
    store = _open(url)
    try:
        return {m.game_id: len(store.lines(m.game_id)) for m in markers}
    finally:
        store.db.close()


def start_server(
    url: str, port: int, workers: int, data: Path, log: Path
) -> subprocess.Popen[bytes]:
    """``onered serve --database url --workers N`` on 127.0.0.1:``port``, once it answers
    (``url`` a data folder: ``--data`` it; ``--workers`` only when more than one, so an
    onered from before it can be measured)."""
    flags = ["--database", url] if url.startswith("postgresql://") else []
    flags += ["--workers", str(workers)] if workers > 1 else []
    data = data if flags[:1] == ["--database"] else Path(url)
    argv = [sys.executable, "-m", "onered", "serve", "--port", str(port), "--data", str(data)]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*argv, *flags],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + START_WAIT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"onered serve exited with {proc.returncode}: {log.read_text()}")
        if healthy(port) and len(workers_of(proc.pid)) >= (workers if workers > 1 else 0):
            return proc
        time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"onered serve did not answer within {START_WAIT:.0f} s")


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=STOP_WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def workers_of(pid: int) -> list[int]:
    """The child processes of ``pid`` (the workers of ``onered serve --workers``)."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(x) for x in text.split()]


def postgres_pids(cl: Cluster) -> list[int]:
    """The cluster's processes: the postmaster (first line of ``postmaster.pid``) and its
    children (a backend per connection, the writers)."""
    try:
        head = int((cl.folder / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    return [head, *workers_of(head)]


def cpu_of(pids: list[int]) -> dict[int, float]:
    """Each living process's CPU seconds so far."""
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            out[pid] = cpu_seconds(pid)
    return out


def cpu_between(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds used between two samples by the processes alive at both (a process
    killed or started in between is left out)."""
    return sum(after[p] - before[p] for p in before if p in after)


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def busy_cpu() -> tuple[float, float]:
    """The machine's CPU time so far: busy and total (seconds, all cores, ``/proc/stat``)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    total = sum(fields[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


# --- the clients ---------------------------------------------------------------------------


#: What a lost answer looks like to the client.
LOST = (OSError, ConnectionError, asyncio.IncompleteReadError, TimeoutError, ValueError, IndexError)


async def tap_until(
    m: Marker, port: int, start: float, stop: float, rate: float, offset: float
) -> None:
    """Tap ``m``'s game ``rate`` times a second until ``stop`` (the first ``offset`` seconds
    in); latencies of the answers from ``start`` on, counted from when each tap was due.
    A tap whose answer is lost is sent again with its key until answered."""
    conn: Connection | None = None
    path = f"/api/games/{m.game_id}/mark"
    n = 0
    due = time.perf_counter() + offset
    try:
        while time.perf_counter() < stop:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            t0 = due
            due += 1 / rate
            body = json.dumps({"parts": list(TAPS[n % len(TAPS)]), "after": m.lines}).encode()
            headers = {"X-Game-Token": m.token, "Idempotency-Key": str(uuid.uuid4())}
            first_sent: float | None = None
            answer = b""
            status = 0
            for tries in range(MOST_TRIES):
                if tries:
                    m.resent += 1
                    await asyncio.sleep(min(0.5, 0.01 * tries))
                try:
                    if conn is None:
                        conn = await asyncio.wait_for(Connection.open(port), TRY_TIMEOUT)
                    if first_sent is None:
                        first_sent = time.perf_counter()
                    status, answer = await asyncio.wait_for(
                        conn.post(path, body, headers), TRY_TIMEOUT
                    )
                except LOST:
                    if conn is not None:
                        conn.close()
                    conn = None
                    continue
                if status in (502, 503):
                    continue
                break
            else:
                m.unknown += 1
                continue
            t1 = time.perf_counter()
            if status != 200:
                m.errors.append(f"{status} {answer[:200]!r}")
                if len(m.errors) > 20:
                    return
                continue
            game = json.loads(answer)["game"]
            version = int(game["state"]["version"])
            if version != m.lines + 1:
                m.jumps += 1
            m.lines = version
            m.acked += 1
            m.sent[int(game["revision"])] = first_sent or t0
            n += 1
            if t1 >= start:
                m.latencies.append(t1 - t0)
    finally:
        if conn is not None:
            conn.close()


@dataclass
class Viewer:
    """One live viewer: the game it follows and the events it got (revision, when)."""

    game: int
    source: str
    seen: list[tuple[int, float]] = field(default_factory=list)
    last_id: str | None = None
    reconnects: int = 0


async def view_until(v: Viewer, game_id: str, port: int, stop: float) -> None:
    """Follow ``game_id`` until ``stop``, reconnecting (with ``Last-Event-ID``) when the
    stream ends or breaks."""
    while time.perf_counter() < stop:
        writer: asyncio.StreamWriter | None = None
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(v.source, 0)
            )
            extra = f"Last-Event-ID: {v.last_id}\r\n" if v.last_id else ""
            writer.write(
                f"GET /api/games/{game_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Accept: text/event-stream\r\n{extra}\r\n".encode()
            )
            await writer.drain()
            async with asyncio.timeout(max(0.0, stop - time.perf_counter())):
                await _read_events(v, reader)
        except (OSError, ConnectionError, TimeoutError, asyncio.IncompleteReadError):
            pass
        finally:
            if writer is not None:
                writer.close()
        if time.perf_counter() < stop:
            v.reconnects += 1
            await asyncio.sleep(0.2)


async def _read_events(v: Viewer, reader: asyncio.StreamReader) -> None:
    """Record each ``game`` event's revision (from its ``id: R:N``) and arrival."""
    buffer = b""
    while True:
        data = await reader.read(65536)
        if not data:
            return
        now = time.perf_counter()
        buffer += data
        *blocks, buffer = buffer.split(b"\n\n")
        for block in blocks:
            for line in block.split(b"\n"):
                if line.startswith(b"id: "):
                    v.last_id = line[4:].decode().strip()
                    v.seen.append((int(v.last_id.split(":")[0]), now))


# --- a run -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    """One run's numbers."""

    label: str
    workers: int
    strokes_per_s: float
    p50: float
    p99: float
    most: float
    measured: int
    view_p50: float
    view_p99: float
    view_events: int
    resent: int
    reconnects: int
    acked: int
    stored: int
    lost: int
    doubled: int
    unknown: int
    refused: list[str]
    cpu_busy: float
    cpu_server: float
    cpu_postgres: float
    cpu_client: float
    load: str
    restarted: bool


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run_one(
    cl: Cluster | None,
    label: str,
    workers: int,
    args: argparse.Namespace,
    kill: bool,
    tmp: Path,
) -> Result:
    """One server on a fresh database (``cl``'s, or a data folder's SQLite file): markers
    and viewers for the warm-up and ``--seconds``; with ``kill``, one worker is killed
    with SIGKILL half-way."""
    url = cl.new_database() if cl is not None else str(tmp / f"sqlite-{label}")
    markers = make_games(url, args.markers)
    port = free_port()
    log = tmp / f"server-{label}.log"
    proc = start_server(url, port, workers, tmp / f"data-{label}", log)
    killed: list[int] = []
    try:
        now = time.perf_counter()
        start = now + args.warmup
        stop = start + args.seconds
        viewers = [
            Viewer(
                k % len(markers), f"127.2.{k // PER_ADDRESS // 250}.{k // PER_ADDRESS % 250 + 1}"
            )
            for k in range(args.viewers)
        ]

        async def run() -> tuple[float, float, float, float, float]:
            view_tasks = [
                asyncio.create_task(view_until(v, markers[v.game].game_id, port, stop + 1.0))
                for v in viewers
            ]
            await asyncio.sleep(0.5)  # the viewers connect before the taps start
            spread = 1 / args.rate / len(markers)
            tasks = [
                asyncio.create_task(tap_until(m, port, start, stop, args.rate, k * spread))
                for k, m in enumerate(markers)
            ]
            await asyncio.sleep(max(0.0, start - time.perf_counter()))
            busy0, total0 = busy_cpu()
            server0 = cpu_of([proc.pid, *workers_of(proc.pid)])
            pg0, own0 = cpu_of(postgres_pids(cl) if cl else []), own_cpu()
            acked0, t0 = sum(m.acked for m in markers), time.perf_counter()
            if kill:
                await asyncio.sleep(args.seconds / 2)
                pids = workers_of(proc.pid)
                if pids:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(pids[0])
            await asyncio.sleep(max(0.0, stop - time.perf_counter()))
            busy1, total1 = busy_cpu()
            server1 = cpu_of([proc.pid, *workers_of(proc.pid)])
            pg1, own1 = cpu_of(postgres_pids(cl) if cl else []), own_cpu()
            acked1, t1 = sum(m.acked for m in markers), time.perf_counter()
            await asyncio.gather(*tasks)
            await asyncio.gather(*view_tasks)
            wall = t1 - t0
            return (
                (acked1 - acked0) / wall,
                (busy1 - busy0) / max(1e-9, total1 - total0),
                cpu_between(server0, server1) / wall,
                cpu_between(pg0, pg1) / wall,
                (own1 - own0) / wall,
            )

        rate, busy, cpu_server, cpu_postgres, cpu_client = asyncio.run(run())
        restarted = bool(killed) and killed[0] not in workers_of(proc.pid)
        restarted = restarted and len(workers_of(proc.pid)) == workers
    finally:
        stop_server(proc)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    stored = stored_lines(url, markers)
    lost = doubled = 0
    for m in markers:
        strokes = stored[m.game_id] - m.first_lines
        lost += max(0, m.acked - strokes)
        doubled += max(0, strokes - m.acked)
    latencies = [x for m in markers for x in m.latencies]
    view_lat = []
    sent = [m.sent for m in markers]
    for v in viewers:
        for revision, when in v.seen:
            first = sent[v.game].get(revision)
            if first is not None and start <= first <= stop:
                view_lat.append(when - first)
    return Result(
        label=label,
        workers=workers,
        strokes_per_s=rate,
        p50=percentile(latencies, 0.5),
        p99=percentile(latencies, 0.99),
        most=max(latencies, default=float("nan")),
        measured=len(latencies),
        view_p50=percentile(view_lat, 0.5),
        view_p99=percentile(view_lat, 0.99),
        view_events=len(view_lat),
        resent=sum(m.resent for m in markers),
        reconnects=sum(v.reconnects for v in viewers),
        acked=sum(m.acked for m in markers),
        stored=sum(stored[m.game_id] - m.first_lines for m in markers),
        lost=lost,
        doubled=doubled + sum(m.jumps for m in markers),
        unknown=sum(m.unknown for m in markers),
        refused=[e for m in markers for e in m.errors],
        cpu_busy=busy,
        cpu_server=cpu_server,
        cpu_postgres=cpu_postgres,
        cpu_client=cpu_client,
        load=load,
        restarted=restarted,
    )


def report(r: Result, args: argparse.Namespace) -> None:
    ms = 1000
    print(
        f"[{r.label}] {r.workers} worker(s), {args.markers} markers at {args.rate:g} taps/s "
        f"each, {args.viewers} viewers, {args.seconds:g} s measured"
    )
    print(
        f"  strokes {r.strokes_per_s:.0f}/s; latency p50 {r.p50 * ms:.1f} ms, p99 "
        f"{r.p99 * ms:.1f} ms (goal <= 100), max {r.most * ms:.0f} ms over {r.measured}"
    )
    print(
        f"  viewers: update p50 {r.view_p50 * ms:.1f} ms, p99 {r.view_p99 * ms:.1f} ms over "
        f"{r.view_events} events; {r.reconnects} reconnects"
    )
    print(
        f"  acknowledged {r.acked}, stored {r.stored}: lost {r.lost}, doubled {r.doubled}, "
        f"not known {r.unknown}; taps sent again {r.resent}; refused {len(r.refused)}"
        + (f" (first: {r.refused[0]})" if r.refused else "")
    )
    extra = f"; the killed worker was replaced: {r.restarted}" if r.label.endswith("kill") else ""
    busy = f"{r.cpu_busy * 100:.0f} % of {os.cpu_count()} cores"
    per = (r.cpu_server + r.cpu_postgres) / r.strokes_per_s * 1000 if r.strokes_per_s else 0.0
    print(
        f"  CPU (% of a core): onered {r.cpu_server * 100:.0f}, PostgreSQL "
        f"{r.cpu_postgres * 100:.0f} ({per:.1f} ms a stroke together), this client "
        f"{r.cpu_client * 100:.0f}; machine busy {busy}; load {r.load}{extra}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=4, help="worker processes (default 4)")
    parser.add_argument("--markers", type=int, default=200, help="markers tapping at once")
    parser.add_argument("--viewers", type=int, default=500, help="live viewers")
    parser.add_argument("--rate", type=float, default=1.0, help="taps a second per marker")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds measured")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds before measuring (default 10)"
    )
    parser.add_argument(
        "--compare", type=int, default=1, help="workers of the comparison run (0: none)"
    )
    parser.add_argument("--no-kill", action="store_true", help="no run with a worker killed")
    parser.add_argument(
        "--sqlite",
        action="store_true",
        help="the data folder's SQLite file instead of PostgreSQL (also: an onered from before)",
    )
    args = parser.parse_args(argv)
    if args.markers < 1 or args.viewers < 0 or args.rate <= 0 or args.seconds <= 0:
        parser.error("--markers at least 1, --viewers not negative, --rate, --seconds positive")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    results = []
    failed = False
    made = contextlib.nullcontext(None) if args.sqlite else cluster()
    with tempfile.TemporaryDirectory(prefix="onered-fed-") as tmp, made as cl:
        plan = [(f"{args.workers}w", args.workers, False)]
        if not args.no_kill:
            plan.append((f"{args.workers}w-kill", args.workers, True))
        if args.compare:
            plan.append((f"{args.compare}w", args.compare, False))
        for label, workers, kill in plan:
            r = run_one(cl, label, workers, args, kill, Path(tmp))
            report(r, args)
            results.append(r)
            failed = failed or bool(r.lost or r.doubled or r.unknown)
    if failed:
        print("STORED GAMES DIFFER from the answers: a stroke lost, doubled or not known")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
