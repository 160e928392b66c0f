"""JSON Lines input and output shared by the protocols.

Input is read as bytes and cut into lines here; each line is decoded on its own (by the JSON
reader, which checks UTF-8), so one bad byte spoils its own line and no other. Lines come in
*batches*: all the complete lines the input had ready at once (:func:`line_batches`), so a
caller writes its answers for a batch in one go and flushes after it. A file is read 64 KiB
at a time (hundreds of lines, one write and one flush for them all); a terminal or a pipe
that stalls gives what has arrived, so an interactive user gets each answer as soon as the
line is complete, and no answer is held while the program waits for more input.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

#: One input line: bytes from a stream, or text from a caller that already has strings.
Line = bytes | str
#: Bytes asked for per read: at most one system call each (``read1``).
CHUNK = 1 << 16
#: Lines per batch when the caller hands over a ready list of lines.
LIST_BATCH = 1024


def _binary(source: object) -> Any | None:
    """The byte stream under ``source`` (itself, or a text stream's ``buffer``), if any."""
    if isinstance(source, io.TextIOBase):
        return getattr(source, "buffer", None)
    if isinstance(source, io.IOBase) or hasattr(source, "read1"):
        return source
    return None


def _chunks(stream: Any) -> Iterator[list[bytes]]:
    read: Callable[[int], bytes] = getattr(stream, "read1", None) or stream.read
    pending: list[bytes] = []  # the start of a line not yet complete
    while True:
        chunk = read(CHUNK)
        if not chunk:
            break
        if b"\n" not in chunk:
            pending.append(chunk)
            continue
        if pending:
            pending.append(chunk)
            chunk = b"".join(pending)
            pending = []
        lines = chunk.split(b"\n")
        tail = lines.pop()
        if tail:
            pending.append(tail)
        yield lines
    if pending:
        yield [b"".join(pending)]


def line_batches(source: IO[Any] | Iterable[Line]) -> Iterator[Sequence[Line]]:
    """The lines of ``source`` without their ``\\n``, in batches of what was ready at once.

    ``source`` is a byte stream, a text stream (its bytes are read when it has a
    ``buffer``, as ``sys.stdin`` does), or any iterable of lines (a list is cut into
    batches of :data:`LIST_BATCH`; another iterable gives one line a batch, since each
    next line may have to wait for input)."""
    stream = _binary(source)
    if stream is not None:
        yield from _chunks(stream)
        return
    if isinstance(source, list | tuple):
        for start in range(0, len(source), LIST_BATCH):
            yield [_strip_newline(line) for line in source[start : start + LIST_BATCH]]
        return
    for line in source:
        yield [_strip_newline(line)]


def _strip_newline(line: Line) -> Line:
    if isinstance(line, str):
        return line[:-1] if line.endswith("\n") else line
    return line[:-1] if line.endswith(b"\n") else line


def is_blank(line: Line) -> bool:
    """A line of whitespace only: skipped by both protocols (but counted)."""
    return not line.strip()


def sink(stream: IO[Any]) -> Callable[[bytes], None]:
    """A function writing UTF-8 bytes to ``stream`` (binary, or text with or without a
    ``buffer``) and flushing it: one call per batch of output lines."""
    if isinstance(stream, io.TextIOBase):
        buffer = getattr(stream, "buffer", None)
        if buffer is None:

            def write_text(data: bytes) -> None:
                stream.write(data.decode("utf-8"))
                stream.flush()

            return write_text

        def write_under(data: bytes) -> None:
            stream.flush()  # anything written as text before goes first
            buffer.write(data)
            buffer.flush()

        return write_under

    def write_bytes(data: bytes) -> None:
        stream.write(data)
        stream.flush()

    return write_bytes


def reader_gone() -> int:
    """After a ``BrokenPipeError`` on standard output (``... | head``): point the output at
    the null device, so that the flush at exit does not fail again, and give status 2 (not
    every line was answered). No traceback, no message: the reader asked for no more."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file descriptor (a test's captured stream)
        pass
    finally:
        os.close(devnull)
    return 2
