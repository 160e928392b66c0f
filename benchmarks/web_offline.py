"""A reload while offline, as the issue measured it (issue 18, item 2): ``--runs`` times, a
marker's page in Debian's chromium (Playwright, headless) enters a few strokes, the browser
goes offline (``context.set_offline``), ``--taps`` more strokes are tapped and the page is
reloaded. Counted: the reloads that open the marking page (not the browser's own error page),
and of those the ones showing the server's last score and every waiting tap. Then back
online: whether the stored game is the taps, each once, in order.

The server is ``onered serve`` from this interpreter's ``onered`` (``PYTHONPATH`` picks
another checkout, e.g. the commit before the work) on a free loopback port; chromium is
``/usr/bin/chromium``. Report with the machine's load (``uptime``).

    python benchmarks/web_offline.py [--runs N] [--taps T] [--seed S]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import tempfile
from pathlib import Path
from typing import Any

import httpx
from bench_server import free_port, start_server

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def one_run(browser: Any, base: str, rng: random.Random, taps: int) -> dict[str, bool]:
    """One marker's page: strokes online, ``taps`` offline, a reload offline, back online."""
    made = httpx.post(f"{base}/api/games", json={"players": ["Ivanov", "Petrov"]}).json()
    game, token = made["id"], made["token"]
    context = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{base}/mark/{game}#token={token}")
    page.wait_for_selector("body[data-ready]")
    with contextlib.suppress(Exception):  # a service worker in charge, where there is one
        page.wait_for_selector('html[data-shell="ready"]', timeout=10_000)
    keys = ["n", "c"] + [rng.choice("cn") for _ in range(taps)]
    for n, key in enumerate(keys[:2], start=2):
        page.keyboard.press(key)
        page.wait_for_selector(f'body[data-version="{n}"]')
    score = httpx.get(f"{base}/api/games/{game}").json()["state"]["score"]
    context.set_offline(True)
    for n, key in enumerate(keys[2:], start=1):
        page.keyboard.press(key)
        page.wait_for_selector(f'body[data-queued="{n}"]')
    try:
        page.reload(timeout=15_000)
        page.wait_for_selector("body[data-ready]", timeout=15_000)
        opened = page.url.startswith(f"{base}/mark/")
    except Exception:  # the browser's own error page: no data-ready ever
        opened = False
    shown = False
    if opened:
        on_page = [
            int(page.locator(f'.player[data-player="{i}"] .player-score').inner_text())
            for i in (0, 1)
        ]
        queued = page.get_attribute("body", "data-queued")
        shown = on_page == score and queued == str(taps)
    context.set_offline(False)
    once = False
    if opened:
        try:
            page.wait_for_selector(f'body[data-version="{1 + len(keys)}"]', timeout=60_000)
            log = httpx.get(f"{base}/api/games/{game}").json()["log"]
            strokes = [e["in"].get("cannon", False) for e in log[1:]]
            once = strokes == [k == "c" for k in keys]
        except Exception:
            once = False
    context.close()
    return {"opened": opened, "shown": shown, "once": once}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--taps", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    rng = random.Random(args.seed)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(Path(tmp) / "data", port)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                runs = [
                    one_run(browser, f"http://127.0.0.1:{port}", rng, args.taps)
                    for _ in range(args.runs)
                ]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    for what in ("opened", "shown", "once"):
        print(f"{what}: {sum(r[what] for r in runs)} of {len(runs)}")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
