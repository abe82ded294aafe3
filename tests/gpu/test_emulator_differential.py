"""Differential test: every Rust example runs on the GPU (PTX fixtures) and on the emulator (emulator program
fixtures, tests/fixtures/emulator/) from the same inputs, and the results agree.

Both fixtures come from tests/fixtures/sources.py, so this needs only numpy, cuda-python and oxide.runtime
(no MLIR). Integer results and the single-rounding float kernels must match bit for bit; float results of
longer computations within a few ulp (the emulator fuses multiply-adds where NVPTX does, and its
libdevice-equivalent functions are numpy's). It skips without a GPU.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

from oxide.runtime.emulator import launch as emulate
from tests.gpu.harness import FIXTURES, DeviceArray, launch, load

RNG = np.random.default_rng(2027)


@dataclass
class Buffer:
    """A slice argument: `host` is copied to both targets; `width` makes it a runtime 2-D DisjointSlice."""

    host: np.ndarray
    width: int | None = None


@dataclass
class Case:
    example: str
    entry: str
    grid: tuple[int, ...]
    block: tuple[int, ...]
    args: list[Any]
    exact: bool


def _normal(*shape: int, dtype: Any = np.float32) -> np.ndarray:
    return RNG.standard_normal(shape).astype(dtype)


def _cases() -> list[Case]:
    n = 3333
    m, k, cols = 96, 70, 64
    h, w = 50, 70
    rows, tcols = 70, 100
    blocks = (256 * 9 + 17 + 255) // 256
    return [
        Case("vecadd", "vecadd", ((n + 255) // 256,), (256,), [Buffer(_normal(n)), Buffer(_normal(n)),
                                                                Buffer(np.zeros(n, np.float32))], True),
        Case("saxpy", "saxpy", ((n + 127) // 128,), (128,), [np.float32(2.5), Buffer(_normal(n)), Buffer(_normal(n)),
                                                              Buffer(np.zeros(n, np.float32))], True),
        *[Case("scale_generic", f"scale_{t}", ((n + 255) // 256,), (256,),
               [Buffer((RNG.standard_normal(n) * 100).astype(d)), d(3), Buffer(np.zeros(n, d))], True)
          for t, d in (("f32", np.float32), ("f64", np.float64), ("i32", np.int32))],
        *[Case(stem, f"{stem}_64", (cols // 16, m // 16), (16, 16),
               [Buffer(_normal(m, k)), Buffer(_normal(k, cols)), k, Buffer(np.zeros((m, cols), np.float32))], False)
          for stem in ("sgemm_naive", "sgemm_tiled")],
        Case("block_reduce", "block_sum", (blocks,), (256,), [Buffer(_normal(256 * 9 + 17)),
                                                              Buffer(np.zeros(blocks, np.float32))], False),
        Case("warp_reduce", "warp_sum", ((32 * 50 + 7 + 127) // 128,), (128,),
             [Buffer(_normal(32 * 50 + 7)), Buffer(np.zeros(51, np.float32))], False),
        Case("histogram", "histogram", ((20_000 + 255) // 256,), (256,),
             [Buffer(RNG.integers(0, 1 << 30, 20_000).astype(np.uint32)), Buffer(np.zeros(37, np.uint32))], True),
        Case("stencil", "stencil", ((w + 15) // 16, (h + 15) // 16), (16, 16),
             [Buffer(_normal(h, w)), w, h, Buffer(np.zeros((h, w), np.float32), width=w)], False),
        Case("transpose", "transpose", ((tcols + 31) // 32, (rows + 31) // 32), (32, 8),
             [Buffer(_normal(rows, tcols)), Buffer(np.zeros((tcols, rows), np.float32)), rows, tcols], True),
        Case("particles", "advance", ((1000 + 255) // 256,), (256,),
             [Buffer(_normal(1000)), Buffer(_normal(1000)), np.float32(0.5), np.float32(-2.0), np.float32(0.25),
              Buffer(np.zeros(1000, np.float32))], False),
    ]


CASES = _cases()


def _gpu_args(cuda: Any, args: list[Any]) -> tuple[list[Any], list[DeviceArray | None]]:
    flat: list[Any] = []
    devices: list[DeviceArray | None] = []
    for arg in args:
        if isinstance(arg, Buffer):
            device = DeviceArray(cuda, arg.host)
            flat += [device, arg.host.size] + ([np.uint32(arg.width)] if arg.width is not None else [])
            devices.append(device)
        else:
            flat.append(arg)
            devices.append(None)
    return flat, devices


def _emulator_args(args: list[Any]) -> list[Any]:
    out: list[Any] = []
    for arg in args:
        if isinstance(arg, Buffer):
            copy = arg.host.copy().reshape(-1)
            out.append(copy if arg.width is None else (copy, arg.width))
        else:
            out.append(arg)
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.entry for c in CASES])
def test_gpu_and_emulator_agree(cuda, case):
    gpu_flat, devices = _gpu_args(cuda, case.args)
    launch(cuda, load(cuda, f"rust_{case.example}.ptx", case.entry), case.grid, case.block, gpu_flat)
    program = (FIXTURES / "emulator" / f"rust_{case.example}.py").read_text()
    emulated = _emulator_args(case.args)
    emulate(program, case.entry, case.grid, case.block, emulated)
    for device, value in zip(devices, emulated):
        if device is None:
            continue
        got_gpu = device.get().reshape(-1)
        got_emu = value[0] if isinstance(value, tuple) else value
        if case.exact or got_gpu.dtype.kind != "f":
            np.testing.assert_array_equal(got_emu, got_gpu)
        else:
            np.testing.assert_allclose(got_emu, got_gpu, rtol=2e-6, atol=2e-6)


_PRINTF = textwrap.dedent(
    """
    import numpy as np
    from cuda.bindings import driver
    from tests.gpu.conftest import _gpu_context
    from tests.gpu.harness import launch, load
    _gpu_context()
    launch(driver, load(driver, "rust_printf.ptx", "hello"), [3], [64], [np.float32(1.5)])
    """
)


def test_printf_agrees(cuda, capsys):
    result = subprocess.run([sys.executable, "-c", _PRINTF], check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    emulate((FIXTURES / "emulator" / "rust_printf.py").read_text(), "hello", (3,), (64,), [np.float32(1.5)])
    emulated = capsys.readouterr().out.splitlines()
    assert emulated == [f"block {b} of 3: scale = 1.500, mask 0xff" for b in range(3)]  # thread order
    assert sorted(result.stdout.splitlines()) == emulated  # the GPU prints in any order


