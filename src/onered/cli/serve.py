"""``onered serve``: the web app — play in a browser, mark real matches, keep the records.

Needs the ``web`` extra (``pip install 'onered[web]'``: FastAPI and uvicorn); without it the
command says so and exits 2. Games are kept in an SQLite database in the data folder
(``--data``, default ``./onered-data``).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

HELP = "serve the web app: play in a browser, mark real matches, game records"

#: Defaults: loopback only, and a data folder in the current directory.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_DATA = "onered-data"
#: The packages of the ``web`` extra.
WEB_PACKAGES = ("fastapi", "uvicorn")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``onered serve``."""
    parser.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST})"
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--data",
        metavar="DIR",
        default=DEFAULT_DATA,
        help=f"folder of the games database (default ./{DEFAULT_DATA}, created if missing)",
    )


def missing_packages() -> list[str]:
    """The packages of the ``web`` extra that are not installed."""
    return [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted; 2 when the extra is missing or the data folder is unusable."""
    missing = missing_packages()
    if missing:
        print(
            f"onered serve: the web app needs the 'web' extra ({', '.join(missing)} not "
            "installed); install it with:  pip install 'onered[web]'",
            file=sys.stderr,
        )
        return 2
    if not 0 < args.port < 65536:
        print(f"onered serve: --port: {args.port} is not a port (1-65535)", file=sys.stderr)
        return 2
    import uvicorn

    from onered.web.app import create_app
    from onered.web.store import StoreError

    data = Path(args.data).expanduser().resolve()
    try:
        app = create_app(data)
    except StoreError as exc:
        print(f"onered serve: --data: {exc}", file=sys.stderr)
        return 2
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"onered: open http://{host}:{args.port}/ in a browser (Ctrl+C stops)", flush=True)
    print(f"onered: games are kept in {data}", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
