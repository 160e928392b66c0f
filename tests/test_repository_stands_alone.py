"""The repository stands alone: the files its source, tests, docs and README cite are in it.

A clone must be able to follow its own references: no path outside the repository
(``shared/...``, the design notes), and every ``docs/...`` path a file cites exists.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
TREES = ("src", "tests", "docs", "benchmarks", "examples")
SUFFIXES = {".py", ".md", ".txt", ".jsonl", ".js", ".html", ".css", ".toml", ".c", ".h", ".pyi"}
#: Paths outside the repository that were once cited, and the design notes beside them.
OUTSIDE = re.compile(r"shared/|\bRULES\.md|PHYSICS\.md|STYLE\.md|GAME-KNOWLEDGE\.md")
#: A path into docs/ as the files cite it: docs/name.md, docs/rules/..., with no trailing dot.
DOCS_PATH = re.compile(r"\bdocs/[A-Za-z0-9_./-]*[A-Za-z0-9_]")


def cited_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "Makefile"]
    for tree in TREES:
        files += [
            p
            for p in (ROOT / tree).rglob("*")
            if p.suffix in SUFFIXES and p.is_file() and p != Path(__file__)
        ]
    return sorted(files)


FILES = cited_files()


def test_the_rules_text_ships_with_the_repository() -> None:
    text = (ROOT / "docs" / "rules" / "snooker-1-red.rules.ru.txt").read_text(encoding="utf-8")
    assert "2.13.4" in text
    assert "Снукер - 1 красный" in text


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_no_reference_outside_the_repository(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    found = [m.group(0) for m in OUTSIDE.finditer(text)]
    assert not found, f"{path.relative_to(ROOT)} cites files outside the repository: {found}"
    missing = sorted(
        {m.group(0) for m in DOCS_PATH.finditer(text) if not (ROOT / m.group(0)).exists()}
    )
    assert not missing, f"{path.relative_to(ROOT)} cites docs that do not exist: {missing}"
