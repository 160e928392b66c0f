"""Accounts' costs: hashing a password, a sign-in, a signed-in request.

- **hash**: ``argon2-cffi``'s Argon2id with the server's parameters
  (``onered.web.accounts.HASHER``: 64 MiB, 3 passes, 4 lanes) — one hash, one verify;
- **sign-in**: ``POST /api/account/signin`` through the app in-process (httpx's ASGI
  transport), right password and wrong, and an unknown e-mail (which verifies a dummy
  hash: the same work, so the same time);
- **a signed-in request**: ``GET /api/account/me`` with the session cookie (a session
  looked up by its hash), against ``GET /api/register`` without it.

Wall-clock milliseconds (median and 95th percentile of ``--repeats``) and the process's CPU
milliseconds (median: Argon2id's lanes are threads, all counted; the CPU time depends little
on the load), with the load average (the machine is shared). The rate limits are lifted for the run.

    python benchmarks/bench_accounts.py [--repeats N] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from onered.web.accounts import HASHER, Accounts, Role, accounts_of
from onered.web.app import create_app
from onered.web.limits import RateLimiter

PASSWORD = "correct horse battery"


def summary(times: list[float], cpu: list[float]) -> tuple[float, float, float]:
    """Median and 95th percentile of the wall times, median of the CPU times (ms)."""
    times = sorted(times)
    return statistics.median(times), times[int(0.95 * (len(times) - 1))], statistics.median(cpu)


def timed(action: Callable[[], object], repeats: int) -> tuple[float, float, float]:
    """``action``'s wall time (median, p95) and CPU time of the process (median), in ms."""
    times, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return summary(times, cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--database", default=None, help="postgresql://... (default SQLite)")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    stored = HASHER.hash(PASSWORD)
    print(f"hash parameters: {stored.split('$')[3]}")
    rows = [
        ("argon2id hash", timed(lambda: HASHER.hash(PASSWORD), args.repeats)),
        ("argon2id verify", timed(lambda: HASHER.verify(stored, PASSWORD), args.repeats)),
    ]
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "data", database=args.database)
        accounts: Accounts = accounts_of(app)
        big = 1e9  # the rate limits lifted: the run signs in many times
        accounts.per_client = RateLimiter(big)
        accounts.per_account = RateLimiter(big)
        club = accounts.create_club("Bench club")
        accounts.create_account("bench@club.example", PASSWORD, Role.CLUB_ADMIN, club.id)

        async def run() -> None:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://b") as c:

                async def sign_in(email: str, password: str) -> int:
                    r = await c.post(
                        "/api/account/signin", json={"email": email, "password": password}
                    )
                    return r.status_code

                async def atimed(make: Callable[[], object]) -> tuple[float, float, float]:
                    times, cpu = [], []
                    for _ in range(args.repeats):
                        start, start_cpu = time.perf_counter(), time.process_time()
                        await make()  # type: ignore[misc]
                        times.append((time.perf_counter() - start) * 1000)
                        cpu.append((time.process_time() - start_cpu) * 1000)
                    return summary(times, cpu)

                rows.append(
                    (
                        "sign-in, right",
                        await atimed(lambda: sign_in("bench@club.example", PASSWORD)),
                    )
                )
                rows.append(
                    (
                        "sign-in, wrong",
                        await atimed(lambda: sign_in("bench@club.example", "x" * 12)),
                    )
                )
                rows.append(
                    ("sign-in, unknown", await atimed(lambda: sign_in("no@club.example", PASSWORD)))
                )
                assert await sign_in("bench@club.example", PASSWORD) == 200
                rows.append(
                    (
                        "GET /api/account/me, signed in",
                        await atimed(lambda: c.get("/api/account/me")),
                    )
                )
                c.cookies.clear()
                rows.append(
                    (
                        "GET /api/account/me, no cookie",
                        await atimed(lambda: c.get("/api/account/me")),
                    )
                )
                rows.append(
                    ("GET /api/register, no cookie", await atimed(lambda: c.get("/api/register")))
                )

        asyncio.run(run())
        app.state.db.close()
    for name, (median, p95, cpu) in rows:
        print(f"{name:34s} median {median:8.2f} ms   p95 {p95:8.2f} ms   CPU {cpu:8.2f} ms")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
