"""Inputs that made upstream MLIR abort or segfault the process: oxide now reports each one as a located
error before upstream sees it (exit 1), and an abort that no check foresees is an internal error (exit 2)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest

from oxide.ir.isolation import MLIRAborted, contained
from oxide.tools.entry import INTERNAL_ERROR_STATUS, run_cli

INPUTS = Path(__file__).parent / "inputs"


def _oxide_opt(path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "oxide.tools.oxide_opt", str(path), "--emit=ptx"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, "OXIDE_DEBUG": ""})


# The first line oxide-opt prints for each input: where the problem is and what it is.
EXPECTED = {
    "dense-array-of-index.mlir": ":1:56: error: a dense array cannot hold `index` elements",
    "gep-element-i0.mlir": ":7:13: error: 'llvm.getelementptr' op element type: 'i0' has no LLVM form",
    "gep-element-memref.mlir": ":12:15: error: 'llvm.getelementptr' op element type: LLVM has no type for 'memref<?xf32>'",
    "gep-element-tf32.mlir": ":7:13: error: 'llvm.getelementptr' op element type: LLVM has no type for 'tf32'",
    "global-f8-initializer.mlir": ":3:5: error: 'llvm.mlir.global' op initial value '0.000000e+00 : f8E4M3FN'",
    "inline-ptx-outside-function.mlir": ":3:7: error: 'simt.inline_ptx' op is outside any function",
    "kernel-name-non-ascii.rs": ":2:2: error: 'gpu.func' op 'hellˆp嘠o' cannot be a PTX symbol name",
    "kernel-named-underscore.rs": ":3:1: error: 'gpu.func' op '_' cannot be a PTX symbol name",
    "op-name-invalid-utf8.mlir": ":2:8: error: op name \"simt.li󻢞L\\bdevice\" is not valid UTF-8 (byte 0xbd)",
    "op-named-simt-dot.mlir": ":1:3: error: op name \"simt.\" names no operation",
    "op-named-tile-dot.mlir": ":1:3: error: op name \"tile.\" names no operation",
    "pointer-address-space-huge.mlir": ":9:22: error: 'gpu.func' op type '!llvm.ptr<2147483647>': address space "
                                       "2147483647 does not exist on NVPTX",
    "shuffle-kernels.mlir": ":59:13: error: 'llvm.getelementptr' op constant index 2147483647 is outside "
                            "[-268435456, 268435456)",
    "simt-op-outside-function.mlir": ":6:7: error: 'simt.thread_fence' op is outside any function",
    "static-shared-over-48k.rs": ":3:5: error: 'simt.shared_array' op the kernel's static shared memory is 1025024 bytes",
    "tensor-element-count-overflow.mlir": ":1:40: error: tensor type with 590295810358705651648 elements",
}


def test_every_input_has_an_expected_error() -> None:
    assert sorted(EXPECTED) == sorted(p.name for p in INPUTS.iterdir())


@pytest.mark.parametrize("path", sorted(INPUTS.iterdir()), ids=lambda p: p.name)
def test_input_that_crashed_mlir_is_a_located_error(path: Path) -> None:
    result = _oxide_opt(path)
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    assert result.stderr.startswith(f"{path}{EXPECTED[path.name]}"), result.stderr[-2000:]
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


def test_an_abort_is_an_internal_error_named_by_what_aborted(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    @click.command()
    def aborting() -> None:
        raise MLIRAborted("testing", "SIGABRT", "python3: Foo.cpp:1: void f(): Assertion `x' failed.\n")

    monkeypatch.delenv("OXIDE_DEBUG", raising=False)
    monkeypatch.setattr("sys.argv", ["aborting"])
    with pytest.raises(SystemExit) as info:
        run_cli(aborting)
    assert info.value.code == INTERNAL_ERROR_STATUS
    assert capsys.readouterr().err.startswith(
        "internal error: MLIR aborted while testing (SIGABRT): python3: Foo.cpp:1: void f(): Assertion `x' failed.\n")
