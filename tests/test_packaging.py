"""The package as it ships: an MIT licence in the file and the metadata (the SPDX form, no
deprecation banner), and an sdist that carries the docs, the examples and every test."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def test_the_licence_is_mit_in_the_file_and_the_metadata() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "the onered authors" in text
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "MIT"  # SPDX expression, not the old table
    assert project["project"]["license-files"] == ["LICENSE"]
    assert any(r.startswith("setuptools>=77") for r in project["build-system"]["requires"])


def _shipped() -> list[str]:
    """The files git tracks under the trees an sdist must carry."""
    out = subprocess.run(
        ["git", "ls-files", "docs", "examples", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [line for line in out.splitlines() if (ROOT / line).is_file()]


@pytest.mark.slow
def test_the_sdist_carries_docs_examples_and_every_test(tmp_path: Path) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout (the list of tracked files)")
    run = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "deprecat" not in (run.stdout + run.stderr).lower()
    (sdist,) = tmp_path.glob("onered-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    missing = [path for path in _shipped() if path not in names]
    assert not missing, f"left out of the sdist: {missing[:10]}"
    for path in ("LICENSE", "README.md", "Makefile", "mkdocs.yml", "src/onered/physics/kernel.h"):
        assert path in names
