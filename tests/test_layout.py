"""The tests are laid out like ``src/onered``: a folder of tests per package
(``tests/rules`` for ``onered.rules`` ...), a top-level test file per top-level module
(``tests/test_bridge.py`` for ``onered/bridge.py``) or for the whole house, and the helpers
several areas share in ``tests/support``. A newcomer finds a module's tests where the
module is."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).parent
SRC = TESTS.parent / "src" / "onered"
#: Folders of tests that are not a package's: shared helpers, and the data beside tests.
NOT_PACKAGES = {"support", "data", "scenarios", "positions", "__pycache__"}
#: Top-level test files about the whole house rather than one module.
WHOLE_HOUSE = {
    "test_docs.py",  # the docs' commands and snippets run as written
    "test_json_forms.py",  # every value's JSON form, across the layers
    "test_layout.py",
    "test_packaging.py",  # the sdist
    "test_repository_stands_alone.py",
    "test_seams.py",  # what one part emits the next accepts, across packages
    "test_tiers.py",  # the test tiers of make check and make test
}


def _folders(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and p.name not in NOT_PACKAGES}


def test_every_folder_of_tests_is_a_package_of_onered() -> None:
    packages = {p.name for p in SRC.iterdir() if (p / "__init__.py").is_file()}
    strays = _folders(TESTS) - packages
    assert not strays, f"tests/{sorted(strays)} name no package of src/onered"


def test_every_top_level_test_file_is_a_top_level_modules_or_the_whole_houses() -> None:
    modules = {f"test_{p.stem}.py" for p in SRC.glob("*.py") if not p.stem.startswith("_")}
    strays = {p.name for p in TESTS.glob("test_*.py")} - modules - WHOLE_HOUSE
    assert not strays, f"{sorted(strays)}: move into the folder of the package they test"


def test_shared_helpers_live_in_support_and_nowhere_else() -> None:
    helpers = {p.relative_to(TESTS) for p in TESTS.rglob("*_support.py")}
    assert helpers, "the shared helpers are in tests/support"
    assert all(p.parts[0] == "support" for p in helpers), sorted(map(str, helpers))
