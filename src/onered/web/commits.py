"""Group commit: the writes of many threads committed (and synced to disk) together.

With ``synchronous=FULL`` every commit waits for the disk (an fsync of the WAL: from a
fraction of a millisecond to several on a busy machine). Committed one by one under one
lock, the server's changes queue up behind each other's fsync. Here a writer hands its
write (a function of the connection) to :meth:`GroupCommit.run` and waits; the first
writer to find no group being committed leads: it takes every write queued so far, runs
them in one write transaction (:meth:`onered.web.db.Database.write`: SQLite's ``BEGIN
IMMEDIATE``, or a transaction on one PostgreSQL connection), each inside its own
``SAVEPOINT`` (a write alone needs none), and commits once. Writes that come while it does
so form the next group, led by one of their writers. So under load one fsync serves many
changes, and alone a change is committed at once (no timer, no waiting for company).

Each writer is answered only after the ``COMMIT`` holding its write returned: what
:meth:`~GroupCommit.run` returned is on disk, exactly as with a commit of its own. A write
that raises is rolled back to its savepoint and its error goes to its own writer only; the
group's other writes are kept. A commit that fails fails every write of its group (none
was acknowledged). Writes run in the leader's thread: they must not rely on the caller's
context variables or locks (read those before handing the write over).

A write nobody waits for in a thread (an idempotency key's answer, kept after the answer
was sent) is handed over with :meth:`GroupCommit.add`: it goes in the next group and its
``settled`` is called once that group is committed (an event loop's future can be resolved
from it), so it costs no worker thread while other writes are being committed; only when
nothing is, the caller starts a group with :meth:`GroupCommit.flush` (in a thread). A
leader whose group is done leads the next one too while the queue holds only such writes
(nobody else would).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from onered.web.db import Conn, Database

T = TypeVar("T")


class _Write(Generic[T]):
    """A write waiting in the queue, and then its outcome."""

    __slots__ = ("done", "error", "key", "result", "settled", "work")

    def __init__(
        self,
        work: Callable[[Conn], T],
        settled: Callable[[BaseException | None], None] | None = None,
        key: str = "",
    ) -> None:
        self.work = work
        #: The row the write locks first (a game's id): a group runs its writes in this order.
        self.key = key
        #: Called with the write's error (``None``: committed) when no thread waits for it.
        self.settled = settled
        self.done = False
        self.result: T | None = None
        self.error: BaseException | None = None

    def outcome(self) -> T:
        if self.error is not None:
            raise self.error
        return self.result  # type: ignore[return-value]  # set by the group's leader


class GroupCommit:
    """The writes to one database, committed in groups (see the module docstring).

    ``failed`` makes the error each write of a group gets when the group cannot be
    committed."""

    def __init__(self, db: Database, failed: Callable[[BaseException], Exception]) -> None:
        self._db = db
        self._failed = failed
        self._cond = threading.Condition(threading.Lock())
        self._queue: list[_Write[object]] = []
        self._leading = False
        #: Groups committed and writes in them (for tests and the benchmark's report).
        self.groups = 0
        self.writes = 0

    def leading(self) -> bool:
        """Whether a group is being committed now."""
        with self._cond:
            return self._leading

    def queued(self) -> int:
        """The writes waiting for the next group."""
        with self._cond:
            return len(self._queue)

    def run(self, work: Callable[[Conn], T], key: str = "") -> T:
        """Run ``work`` in a write transaction shared with the writes queued beside it;
        return what it returned once that transaction is committed, or raise what it raised
        (its own changes undone). ``key``: the row ``work`` locks first (a game's id): a
        group runs its writes in the order of their keys, so that two processes' groups
        lock rows in one order and never wait for each other in a circle (PostgreSQL)."""
        write: _Write[T] = _Write(work, key=key)
        with self._cond:
            self._queue.append(write)  # type: ignore[arg-type]  # outcome read back typed
            while self._leading and not write.done:
                self._cond.wait()
            if write.done:
                return write.outcome()
            self._leading = True
        self._lead()
        return write.outcome()

    def add(
        self,
        work: Callable[[Conn], object],
        settled: Callable[[BaseException | None], None],
    ) -> bool:
        """Queue ``work`` for the next group without waiting for it; ``settled`` is called
        (in the committing thread) with its error, ``None`` once it is committed. Returns
        whether no group is being committed: the caller must then :meth:`flush` (in a
        thread), else the group being committed sees to it."""
        with self._cond:
            self._queue.append(_Write(work, settled))
            return not self._leading

    def flush(self) -> None:
        """Commit the writes queued, unless a group is being committed (its leader takes
        them, or a writer waiting after it does)."""
        with self._cond:
            if self._leading or not self._queue:
                return
            self._leading = True
        self._lead()

    def _lead(self) -> None:
        """Commit the queue as groups (this thread leads): one group, and more while the
        queue holds only writes that no thread waits for (a waiting writer leads them)."""
        more = True
        while more:
            with self._cond:
                batch, self._queue = self._queue, []
            committed = False
            try:
                self._commit(batch)
                committed = True
            finally:
                with self._cond:
                    for done in batch:
                        done.done = True
                    more = committed and all(w.settled is not None for w in self._queue)
                    more = more and bool(self._queue)
                    self._leading = more
                    self._cond.notify_all()  # the writers answered, one to lead the next group
                for done in batch:
                    if done.settled is not None:
                        done.settled(done.error)

    def _commit(self, batch: list[_Write[object]]) -> None:
        """One transaction for ``batch``: each write in a savepoint, one commit (a write
        alone needs no savepoint: its error rolls the transaction back, two round trips
        fewer on PostgreSQL). If it cannot be committed (or anything but a write fails), no
        write of it is kept."""
        if len(batch) == 1:
            self._commit_one(batch[0])
            return
        try:
            with self._db.write() as conn:
                for write in sorted(batch, key=lambda w: w.key):
                    conn.execute("SAVEPOINT write")
                    try:
                        write.result = write.work(conn)
                    except Exception as exc:  # the write's own error, for its writer only
                        conn.execute("ROLLBACK TO SAVEPOINT write")
                        write.error = exc
                    conn.execute("RELEASE SAVEPOINT write")
        except BaseException as exc:
            error = self._failed(exc)
            for write in batch:
                write.result = None
                write.error = write.error or error
            if not isinstance(exc, Exception):
                raise  # KeyboardInterrupt, SystemExit: the writers have their error
            return
        self.groups += 1
        self.writes += len(batch)

    def _commit_one(self, write: _Write[object]) -> None:
        """:meth:`_commit` of a group of one write: its transaction rolled back on its own
        error (which it gets as it raised it), failed as a group's on anything else."""
        try:
            with self._db.write() as conn:
                try:
                    write.result = write.work(conn)
                except Exception as exc:  # the write's own error: rolled back, for its writer
                    write.error = exc
                    raise _OwnError from exc
        except _OwnError:
            write.result = None
        except BaseException as exc:
            write.result = None
            write.error = write.error or self._failed(exc)
            if not isinstance(exc, Exception):
                raise  # KeyboardInterrupt, SystemExit: the writer has its error
            return
        self.groups += 1  # counted as a group's: committed, or its one write refused
        self.writes += 1


class _OwnError(Exception):
    """A lone write raised: its transaction is rolled back and its writer gets its error."""
