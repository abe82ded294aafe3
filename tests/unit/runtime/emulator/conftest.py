"""With OXIDE_TEST_EMULATOR_SCHEDULE=warps, every SIMT launch of these tests that does not name its mode runs
scheduled (one coroutine per warp), which shows that both modes give the same results."""

from __future__ import annotations

import importlib
import os

import pytest



@pytest.fixture(autouse=True)
def _emulator_schedule(monkeypatch: pytest.MonkeyPatch) -> None:
    mode = os.environ.get("OXIDE_TEST_EMULATOR_SCHEDULE")
    if mode:
        # The module: the package's attribute of the same name is the launch function.
        monkeypatch.setattr(importlib.import_module("oxide.runtime.emulator.launch"), "DEFAULT_SCHEDULE", mode)
