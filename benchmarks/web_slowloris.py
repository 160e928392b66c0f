"""Slow clients against a real server (issue 18 item 5: 1,100 slow connections locked
everyone out).

``onered serve`` is started in a subprocess on 127.0.0.1 over a fresh data folder, with the
open-files soft limit of a default Linux session (``--nofile``, 1,024; the hard limit left
as it is: the server may raise its own). ``--slow`` connections are opened, each sends the
start of a request and then one more header line every second, never finishing (slowloris).
Meanwhile a normal client asks ``GET /api/health`` once a second (5 s timeout). Reported:
the slow connections opened, how many the server closed by the end, the normal client's
answers (answered / asked, median and worst latency) while the slow ones trickle, and the
machine's load (``uptime``).

    python benchmarks/web_slowloris.py [--slow 1100] [--seconds 30] [--nofile 1024]

Run it on an older checkout with ``PYTHONPATH=<old>/src`` for the "before" number.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import socket
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
from bench_server import free_port, start_server


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed ``sock`` (an end of file, a reset, or a 408 sent)."""
    sock.setblocking(False)
    try:
        data = sock.recv(4096)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return data == b"" or data.startswith(b"HTTP/1.1 408")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--slow", type=int, default=1100, help="slow connections (1100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they trickle")
    parser.add_argument("--nofile", type=int, default=1024, help="server's soft open files")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # the client needs the sockets
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        proc = start_server(Path(folder) / "data", port, nofile=args.nofile)
        slow: list[socket.socket] = []
        failed = 0
        try:
            for _ in range(args.slow):
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=2)
                    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
                    slow.append(s)
                except OSError:
                    failed += 1
            latencies: list[float] = []
            asked = 0
            t0 = time.monotonic()
            while time.monotonic() - t0 < args.seconds:
                tick = time.monotonic()
                for s in slow:
                    with contextlib.suppress(OSError):
                        s.sendall(b"X-Slow: 1\r\n")
                asked += 1
                start_at = time.perf_counter()
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/api/health", timeout=5).status_code == 200:
                        latencies.append(time.perf_counter() - start_at)
                time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))
            gone = sum(closed(s) for s in slow)
        finally:
            for s in slow:
                s.close()
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    load = os.getloadavg()
    print(f"slow connections opened: {len(slow)} (failed to connect: {failed})")
    print(f"closed by the server by the end: {gone} of {len(slow)}")
    if latencies:
        print(
            f"normal client answered: {len(latencies)} of {asked}; "
            f"median {statistics.median(latencies) * 1000:.1f} ms, "
            f"worst {max(latencies) * 1000:.1f} ms"
        )
    else:
        print(f"normal client answered: 0 of {asked}")
    print(f"load: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
