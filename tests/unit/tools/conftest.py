"""CLI test fixtures: a private artifact cache, and click's runner in a fresh directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the tests' artifacts out of the user's cache (shared by the session, so sources compile once)."""
    os.environ["OXIDE_CACHE_DIR"] = str(tmp_path_factory.mktemp("oxide-cache"))


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """A CliRunner whose working directory is an empty temporary directory."""
    monkeypatch.chdir(tmp_path)
    return CliRunner()
