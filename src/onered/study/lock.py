"""One run at a time in a study's folder: an exclusive ``flock`` on ``DIR/.lock``.

Why ``flock`` and not a pid file: the kernel releases the lock when its process ends in any
way — a normal exit, an exception, Ctrl+C, ``kill -9``, a crash — so a lock is never left
behind and a stale one needs no guessing. A pid file alone needs a liveness check
(``kill(pid, 0)``) that a reused pid fools and that cannot see a process on another host
sharing the folder. The file still holds the owner's pid, host and start time, but only to
name it in the refusal; whether the folder is in use is the lock's answer alone.

The lock is taken without waiting (``LOCK_NB``): a second run is refused at once, never
queued behind the first. Worker processes forked while the lock is held close their copy
of its descriptor (``os.register_at_fork``), so a worker left running after its parent was
killed does not keep the folder locked.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import json
import os
import platform
from collections.abc import Iterator
from pathlib import Path

from onered.study.spec import StudyError

#: The lock file's name in the study's folder.
LOCK = ".lock"

_held: set[int] = set()  # descriptors of the locks this process holds
_hooked = False


class StudyLockedError(StudyError):
    """The folder is in use by another run (``pid`` on ``host``, when it could be read)."""

    default_code = "study_locked"

    def __init__(self, folder: Path, owner: dict[str, object]) -> None:
        self.folder = folder
        pid, host, since = owner.get("pid"), owner.get("host"), owner.get("since")
        who = f"process {pid} on {host}" if pid and host else "another process"
        when = f", running since {since}" if since else ""
        super().__init__(
            f"--out: {folder} is in use by another run ({who}{when}); wait for it to end, "
            "or stop it (its lock goes with it), or choose another --out",
            params={"folder": str(folder), **({"pid": pid, "host": host} if pid and host else {})},
        )


def _close_in_child() -> None:
    """After a fork, in the child: drop this process's lock descriptors (the parent keeps
    the locks; a worker outliving it must not)."""
    for fd in list(_held):
        with contextlib.suppress(OSError):
            os.close(fd)
    _held.clear()


def _owner(fd: int) -> dict[str, object]:
    try:
        text = os.pread(fd, 4096, 0).decode("utf-8", "replace")
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """Hold the folder's lock for the ``with`` block (creating the folder if needed: it is
    removed again if the block leaves it holding nothing but the lock). Refused at once
    with :class:`StudyLockedError` naming the owner when another run holds it."""
    global _hooked
    if folder.exists() and not folder.is_dir():
        raise StudyError(f"--out: {folder} exists and is not a folder")
    made = [d for d in (folder, *folder.parents) if not d.exists()]  # deepest first
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StudyError(f"--out: cannot create {folder}: {exc.strerror}") from None
    path = folder / LOCK
    fd = _acquire(folder, path)
    if not _hooked:
        os.register_at_fork(after_in_child=_close_in_child)
        _hooked = True
    _held.add(fd)
    try:
        owner = {
            "pid": os.getpid(),
            "host": platform.node(),
            "since": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        }
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
            os.pwrite(fd, (json.dumps(owner) + "\n").encode(), 0)
        yield
    finally:
        if made and [p.name for p in folder.iterdir()] == [LOCK]:
            with contextlib.suppress(OSError):  # nothing was written: leave no folder
                path.unlink()
                for made_dir in made:
                    made_dir.rmdir()
        _held.discard(fd)
        os.close(fd)  # the lock goes with the last descriptor


def _acquire(folder: Path, path: Path) -> int:
    """A descriptor of ``path`` holding its exclusive lock. Retried when the file was
    removed or replaced between opening and locking (the lock must be on the file the
    folder holds now, not on a removed one)."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise StudyError(f"--out: cannot create {path}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = _owner(fd)
            os.close(fd)
            raise StudyLockedError(folder, owner) from None
        except OSError as exc:
            os.close(fd)
            raise StudyError(
                f"--out: cannot lock {path} ({exc.strerror}); the folder's file system does "
                "not support locks: choose a folder on a local disk"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)
