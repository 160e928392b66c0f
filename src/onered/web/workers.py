"""The worker threads of a marker's every tap: a change made (judged, then waiting for its
commit) in a thread, its caller awaiting it on the event loop.

anyio's ``to_thread.run_sync`` (Starlette's ``run_in_threadpool``) wraps each call in a
capacity limiter and cancel scopes: with 50 requests at once a round trip cost about 80 µs
of CPU, against about 30 µs for the event loop's own ``run_in_executor`` on a thread pool
(measured on this machine). The pool is the process's, made on first use, with as many
threads as anyio's default limiter (40). The caller's context variables go with the call
(as with anyio): ``onered.web.store.CLAIM`` (a request's idempotency key) is read in the
thread. A caller cancelled while its call runs stops waiting; the call still runs to its end
(a change is then stored without its answer being sent, as when the client goes away).
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

#: Threads of the pool (anyio's default number of worker threads).
WORKERS = 40

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def pool() -> ThreadPoolExecutor:
    """The process's pool of worker threads (made on first use)."""
    global _pool
    made = _pool
    if made is not None:  # no lock once made: it is never replaced
        return made
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="onered-web")
        return _pool


async def run(fn: Callable[[], T]) -> T:
    """``fn()`` in a worker thread, with the caller's context variables."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool(), contextvars.copy_context().run, fn)
