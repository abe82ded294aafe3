"""Inputs that made upstream MLIR abort or segfault the process: oxide now exits with a status, never a signal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from oxide.ir.isolation import MLIRAborted, contained

INPUTS = Path(__file__).parent / "inputs"


def _oxide_opt(path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "oxide.tools.oxide_opt", str(path), "--emit=ptx"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "OXIDE_DEBUG": ""})


@pytest.mark.parametrize("path", sorted(INPUTS.iterdir()), ids=lambda p: p.name)
def test_input_that_crashed_mlir_ends_with_an_exit_status(path: Path) -> None:
    result = _oxide_opt(path)
    assert result.returncode in (1, 2), (result.returncode, result.stderr[-2000:])
    assert "error" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_step_that_aborts_is_reported_with_the_abort_text() -> None:
    def abort() -> None:
        os.write(2, b"python3: Foo.cpp:1: void f(): Assertion `x' failed.\n")
        os.kill(os.getpid(), signal.SIGABRT)

    with pytest.raises(MLIRAborted) as caught:
        contained("testing", abort)
    assert str(caught.value) == "MLIR aborted while testing (SIGABRT): python3: Foo.cpp:1: void f(): Assertion `x' failed."


def test_a_step_that_survives_runs_in_the_callers_process() -> None:
    effects: list[int] = []
    assert contained("testing", lambda: effects.append(os.getpid()) or 7) == 7
    assert effects == [os.getpid()]


def test_isolation_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OXIDE_NO_ISOLATION", "1")
    calls: list[int] = []
    contained("testing", lambda: calls.append(1))
    assert calls == [1]
