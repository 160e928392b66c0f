"""Fixtures of the web app's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from web_support import Api


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Api]:
    """The app in-process on an empty data folder."""
    from onered.web.app import create_app

    app = create_app(tmp_path / "data")
    yield Api(app)
    app.state.store.close()
