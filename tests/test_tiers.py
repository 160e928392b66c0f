"""The test tiers: ``make check`` runs the tests that are neither ``slow`` nor ``browser``,
``make test`` (CI) runs them all. A test that drives a browser must say so, or the fast tier
would start chromium."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
ROOT = TESTS.parent
#: What makes a test file a browser test: playwright, or the browser fixture of the web tests.
DRIVES_A_BROWSER = re.compile(r"playwright|from test_web_browser import|\bbrowser: Any\b")
MARKED = re.compile(r"^pytestmark = (\[[^\]]*)?pytest\.mark\.browser", re.MULTILINE)
BROWSER_FILES = sorted(
    p
    for p in TESTS.rglob("test_*.py")
    if p != Path(__file__) and DRIVES_A_BROWSER.search(p.read_text(encoding="utf-8"))
)


def test_there_are_browser_tests() -> None:
    assert len(BROWSER_FILES) >= 3


@pytest.mark.parametrize("path", BROWSER_FILES, ids=[p.name for p in BROWSER_FILES])
def test_every_browser_test_is_marked(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert MARKED.search(text), f"{path.relative_to(ROOT)}: add pytestmark = pytest.mark.browser"


def test_the_tiers_are_registered_and_make_check_leaves_them_out() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"slow:' in pyproject
    assert '"browser:' in pyproject
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = makefile.split("\ncheck:", 1)[1].split("\n\n", 1)[0]
    assert '-m "not slow and not browser"' in check
    full = makefile.split("\ntest:", 1)[1].split("\n\n", 1)[0]
    assert '-m "slow or not slow"' in full
