"""The README's and the docs' examples run as written, so they cannot go stale.

From ``README.md`` and ``docs/*.md``, every fenced block marked ```` ```sh ```` or
```` ```python ```` is taken, in the order of its document:

- a ``sh`` block gives its ``onered`` commands: each logical line (quotes and ``\\``
  continuations joined) of which a pipeline stage is ``onered …``. Each runs under bash
  (``pipefail``) with the installed ``onered`` first on ``PATH``, in a folder of its own per
  document (with ``examples/`` linked in, as at the top of a clone), and must succeed with
  no traceback. Other lines (``make``, ``pip install``, ``python benchmarks/…``) are not run,
  nor ``onered serve`` (a server that does not end);
- a ``python`` block is exec'd, in that folder, in one namespace per document (a later
  block may use what an earlier one defined, as a reader does).

A block is opted out by an HTML comment (invisible on the page) on the line before its
fence: ``<!-- docs-test: skip -->`` (never run here: a cluster, an hour of games) or
``<!-- docs-test: slow -->`` (run in the slow tier only; a fast block must not need it).
The ``onered study`` commands of skipped blocks are still parsed, and two different studies
in one document may not share an output folder (they would refuse each other's folder).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The most one command may take (seconds), on a loaded machine.
COMMAND_TIMEOUT = 300
_FENCE = re.compile(r"^```(\w*)\s*$")
_MARKER = re.compile(r"<!--\s*docs-test:\s*(skip|slow)\b[^>]*-->")


@dataclass(frozen=True)
class Block:
    """A fenced block: its document, the line of its fence, language, text and marker."""

    document: Path
    line: int
    lang: str
    text: str
    marker: str | None

    @property
    def where(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def blocks(document: Path) -> list[Block]:
    """The ``sh`` and ``python`` blocks of a document, in order."""
    lines = document.read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    k = 0
    while k < len(lines):
        fence = _FENCE.match(lines[k])
        if fence is None:
            k += 1
            continue
        start = k
        end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("```"))
        before = next((lines[j] for j in range(start - 1, -1, -1) if lines[j].strip()), "")
        marker = _MARKER.search(before)
        if fence.group(1) in ("sh", "python"):
            found.append(
                Block(
                    document,
                    start + 1,
                    fence.group(1),
                    "\n".join(lines[start + 1 : end]) + "\n",
                    marker.group(1) if marker else None,
                )
            )
        k = end + 1
    return found


def _complete(text: str) -> bool:
    if text.rstrip().endswith("\\"):
        return False
    try:
        _words(text)
    except ValueError:  # an open quotation: the command goes on on the next line
        return False
    return True


def commands(block: Block) -> list[str]:
    """The ``onered`` commands of a ``sh`` block (logical lines, comments kept for bash)."""
    out: list[str] = []
    current = ""
    for line in block.text.splitlines():
        current = f"{current}\n{line}" if current else line
        if not _complete(current):
            continue
        words = _words(current)
        stages = " ".join(words).split("|")
        if any(stage.split()[:1] == ["onered"] for stage in stages if stage.strip()):
            out.append(current)
        current = ""
    return out


def _words(command: str) -> list[str]:
    """A command's words as bash sees them (a ``\\`` at a line's end joins the lines)."""
    return shlex.split(command.replace("\\\n", " "), comments=True)


def _runs(command: str) -> bool:
    return _words(command)[:2] != ["onered", "serve"]


def _run_sh(block: Block, folder: Path) -> None:
    env = dict(os.environ)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_COLOR"] = "1"
    for command in filter(_runs, commands(block)):
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,  # a command that asks (--p1 human) sees the input end
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
        )
        said = f"{block.where}: `{command}` exited {done.returncode}: {done.stderr[-1500:]}"
        assert done.returncode == 0, said
        assert "Traceback" not in done.stderr, said


def _run_python(block: Block, namespace: dict[str, object]) -> None:
    code = compile(block.text, block.where, "exec")
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, namespace)


def _run_document(document: Path, tmp_path: Path, *, slow: bool) -> int:
    """Run the document's blocks in order (the slow ones too when ``slow``); how many ran."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    namespace: dict[str, object] = {"__name__": "__docs__"}
    ran = 0
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        for block in blocks(document):
            if block.marker == "skip" or (block.marker == "slow" and not slow):
                continue
            if block.lang == "sh":
                _run_sh(block, tmp_path)
            else:
                _run_python(block, namespace)
            ran += 1
    finally:
        os.chdir(cwd)
    return ran


_IDS = [str(d.relative_to(ROOT)) for d in DOCUMENTS]


@pytest.mark.parametrize("document", DOCUMENTS, ids=_IDS)
def test_the_examples_run_as_written(document: Path, tmp_path: Path) -> None:
    _run_document(document, tmp_path, slow=False)


_SLOW = [d for d in DOCUMENTS if any(b.marker == "slow" for b in blocks(d))]


@pytest.mark.slow
@pytest.mark.parametrize("document", _SLOW, ids=[str(d.relative_to(ROOT)) for d in _SLOW])
def test_the_slow_examples_run_as_written(document: Path, tmp_path: Path) -> None:
    assert _run_document(document, tmp_path, slow=True) > 0


def test_the_readme_has_examples_that_run() -> None:
    runnable = [b for b in blocks(ROOT / "README.md") if b.marker != "skip"]
    assert sum(len(commands(b)) for b in runnable if b.lang == "sh") >= 12
    assert sum(1 for b in runnable if b.lang == "python") >= 3


#: A study's options that say how to run it, not what it is (the same study either way).
_HOW = {"jobs", "backend", "address", "out", "quiet", "progress"}


def _study_args(command: str) -> list[str] | None:
    words = _words(command)
    return words[2:] if words[:2] == ["onered", "study"] else None


@pytest.mark.parametrize("document", DOCUMENTS, ids=_IDS)
def test_the_documented_studies_parse_and_keep_apart(document: Path) -> None:
    """Each ``onered study`` command parses; different studies name different folders."""
    from onered.cli import build_parser

    parser = build_parser()
    folders: dict[Path, dict[str, object]] = {}
    for block in blocks(document):
        if block.lang != "sh":
            continue
        for command in commands(block):
            argv = _study_args(command)
            if argv is None:
                continue
            with contextlib.redirect_stderr(io.StringIO()) as err:
                try:
                    args = parser.parse_args(["study", *argv])
                except SystemExit:
                    pytest.fail(f"{block.where}: `{command}` does not parse: {err.getvalue()}")
            if args.kind == "run":  # a folder's own study again, resumed or extended
                continue
            out = Path(getattr(args, "out", None) or f"onered-study/{args.kind}")
            settings = {k: v for k, v in vars(args).items() if k not in _HOW}
            if out in folders and folders[out] != settings:
                pytest.fail(
                    f"{block.where}: `{command}` writes into {out}, which another study of "
                    "the same page uses: it would be refused; give it its own --out"
                )
            folders[out] = settings
