"""oxide.ir.isolation.computed: a clean run's result comes from the forked child, and the caller's process does
not run the step again; a run that raised or reported anything is run again in the caller, so that the caller
sees exactly the reports of an unisolated run."""

from __future__ import annotations

import os
import signal

import pytest
from mlir import ir

from oxide.ir.diagnostics import collected_warnings, warn
from oxide.ir.isolation import MLIRAborted, computed


def test_a_clean_run_is_taken_from_the_child() -> None:
    ran_in: list[int] = []

    def step() -> dict[str, int]:
        ran_in.append(os.getpid())
        return {"pid": os.getpid()}

    with ir.Context() as context:
        result = computed("testing", step, context)
    assert result["pid"] != os.getpid()
    assert ran_in == []  # appended only in the child


def test_a_run_that_warns_is_run_again_in_the_caller() -> None:
    calls: list[int] = []

    def step() -> int:
        calls.append(os.getpid())
        warn(ir.Location.unknown(), "a possible race")
        return os.getpid()

    with ir.Context() as context, collected_warnings() as found:
        assert computed("testing", step, context) == os.getpid()
    assert calls == [os.getpid()]
    assert [d.message for d in found] == ["a possible race"]


def test_a_run_with_an_mlir_diagnostic_is_run_again_in_the_caller() -> None:
    calls: list[int] = []

    def step() -> int:
        calls.append(os.getpid())
        ir.Location.unknown().emit_error("upstream said no")
        return os.getpid()

    seen: list[str] = []
    with ir.Context() as context:
        handle = context.attach_diagnostic_handler(lambda d: seen.append(str(d.message)) or True)
        assert computed("testing", step, context) == os.getpid()
        handle.detach()
    assert calls == [os.getpid()]
    assert seen == ["upstream said no"]


def test_a_run_that_raises_raises_in_the_caller() -> None:
    def step() -> int:
        raise ValueError(f"raised in {os.getpid()}")

    with ir.Context() as context, pytest.raises(ValueError, match=f"raised in {os.getpid()}"):
        computed("testing", step, context)


def test_a_child_that_aborts_is_an_mlir_abort() -> None:
    def step() -> int:
        os.kill(os.getpid(), signal.SIGABRT)
        return 0

    with ir.Context() as context, pytest.raises(MLIRAborted, match="testing"):
        computed("testing", step, context)


def test_without_isolation_the_step_runs_in_the_caller(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OXIDE_NO_ISOLATION", "1")
    with ir.Context() as context:
        assert computed("testing", os.getpid, context) == os.getpid()
