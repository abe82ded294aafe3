"""Lowering hand-written tile kernels with convert-tile-to-simt and running the result on the simt emulator.

`run_tile` launches one block per tile of the output with 32 * warps threads, as the tile runtime does; view
arguments go as the contract's ABI (array, extents, strides in elements).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

import numpy as np
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.ir import make_context
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch

KERNEL_HEADER = "module attributes {gpu.container_module} {\n  gpu.module @kernels {\n"
KERNEL_FOOTER = "\n  }\n}\n"


@lru_cache(maxsize=1)
def context() -> Any:
    return make_context()


def module_text(kernels: str) -> str:
    """A tile module holding the given gpu.func texts."""
    return KERNEL_HEADER + kernels + KERNEL_FOOTER


def lower(text: str, pipeline: str = "convert-tile-to-simt") -> str:
    """The module after `pipeline`, as text."""
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        build_pass_manager(f"builtin.module({pipeline})").run(module.operation)
        return str(module)


@lru_cache(maxsize=64)
def program(text: str) -> str:
    """The emulator program of the lowered tile module."""
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        build_pass_manager("builtin.module(convert-tile-to-simt)").run(module.operation)
        return emit_program(module)


def view(array: np.ndarray) -> list[Any]:
    """The ABI arguments of a view of the C-contiguous `array`: its flat data (written in place), extents, strides."""
    assert array.flags.c_contiguous
    strides = [s // array.itemsize for s in array.strides]
    return [array.reshape(-1), *[np.int64(d) for d in array.shape], *[np.int64(s) for s in strides]]


def strided_view(base: np.ndarray, shape: Sequence[int], strides: Sequence[int], offset: int = 0) -> list[Any]:
    """The ABI arguments of a strided view into the flat array `base` (which the kernel may write)."""
    return [base[offset:], *[np.int64(d) for d in shape], *[np.int64(s) for s in strides]]


def run_tile(text: str, entry: str, grid: Sequence[int], args: Sequence[Any], warps: int = 4) -> None:
    """Lower `text` and run kernel `entry` over `grid` tile blocks (args already in the ABI, flattened)."""
    launch(program(text), entry, tuple(grid) + (1,) * (3 - len(grid)), (32 * warps, 1, 1), list(args))
