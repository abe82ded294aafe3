"""Staged operands: a tensor that sm_90a's TMA path cannot read only because of where its rows start (a row
pitch, or a base address, that is not a multiple of 16 bytes) is copied, for the launch, into a buffer whose
rows are padded to 16 bytes, so that the kernel's TMA entry runs on it instead of its mma.sync sibling
(docs/tile-runtime.md, "Staged operands"). A 4095 x 4097 x 4096 bf16 GEMM has rows of 8194 bytes in B and C.

Per launch, on the launch's stream and in this order: each staged tensor gets a buffer (cuMemAllocAsync) filled
from the tensor (cuMemcpy2DAsync: its rows, from the tensor's pitch to the padded one); the tensor maps are
encoded on the buffers; the kernel runs with the buffers in place of the tensors; each staged output is copied
back into its tensor; the buffers are freed (cuMemFreeAsync). Every step is stream-ordered, so a queued launch
holds no buffer, launches on other streams get buffers of their own, and a graph capture records the steps as
its nodes. An output is filled before the kernel too, unless the artifact says every block stores its tile
(`tile["stores_whole"]`, backend/output_facts.py): a kernel need not write every element of its output, and the
copy back must not write what it did not.

A tensor is staged when its rows form one pitch-linear region: the innermost stride 1 and each outer stride the
next one times that one's extent (a contiguous array, or a slice of columns of one). The cost is one read and
one write of each staged input and of each output stored whole, two of other staged outputs, and the buffers'
memory while the launch runs.
`OXIDE_STAGE_OPERANDS=0` turns staging off: such launches take the mma.sync sibling, as without it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from oxide.runtime.driver import check, cuda

# TMA's alignment of a tensor's address and of every stride but the innermost (bytes).
ALIGN = 16


def enabled() -> bool:
    """Whether launches may stage operands (`OXIDE_STAGE_OPERANDS`, default on)."""
    return os.environ.get("OXIDE_STAGE_OPERANDS", "1") not in ("0", "off", "no", "false")


@dataclass(frozen=True)
class Staged:
    """One staged tensor parameter: its memory (address, shape and element strides in the order its tensor map
    reads it, `swapped` when that is the last two dimensions exchanged), the padded buffer's rows, whether the
    buffer is filled from the tensor before the launch (`fill`) and copied back after it (`output`)."""

    param: int
    ptr: int
    shape: tuple[int, ...]
    dtype: np.dtype
    rows: int
    row_bytes: int
    pitch: int
    padded: int
    fill: bool
    output: bool
    swapped: bool

    @property
    def nbytes(self) -> int:
        return self.rows * self.padded

    def buffer_strides(self) -> tuple[int, ...]:
        """The buffer's element strides, in the tensor map's order: row-major over rows of `padded` bytes."""
        strides, step = [], 1
        for axis, extent in enumerate(reversed(self.shape)):
            strides.append(step)
            step = self.padded // self.dtype.itemsize if axis == 0 else step * max(extent, 1)
        return tuple(reversed(strides))

    def abi_strides(self) -> tuple[int, ...]:
        """The buffer's element strides in the kernel's order (the map's with the swap undone)."""
        strides = self.buffer_strides()
        return (*strides[:-2], strides[-1], strides[-2]) if self.swapped else strides


def plan(param: int, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype, output: bool,
         stored_whole: bool, swapped: bool) -> Staged | None:
    """The staging of a tensor (shape and element strides in its tensor map's order; `output` for a tensor the
    kernel writes, `stored_whole` where every block stores its tile), or None when its rows are not one
    pitch-linear region (module docstring)."""
    itemsize = dtype.itemsize
    if not shape or 0 in shape or (shape[-1] > 1 and strides[-1] != 1):
        return None
    for axis in range(len(shape) - 2):
        if shape[axis] > 1 and strides[axis] != strides[axis + 1] * shape[axis + 1]:
            return None
    rows = int(np.prod(shape[:-1], dtype=np.int64)) if len(shape) > 1 else 1
    row_bytes = shape[-1] * itemsize
    pitch = strides[-2] * itemsize if len(shape) > 1 and rows > 1 else row_bytes
    if pitch < row_bytes:
        return None
    padded = -(-row_bytes // ALIGN) * ALIGN
    return Staged(param, ptr, shape, dtype, rows, row_bytes, pitch, padded, not (output and stored_whole), output,
                  swapped)


def _copy_rows(drv: Any, src: int, src_pitch: int, dst: int, dst_pitch: int, width: int, height: int,
               stream: Any, kernel: str) -> None:
    copy = drv.CUDA_MEMCPY2D()
    device = drv.CUmemorytype.CU_MEMORYTYPE_DEVICE
    copy.srcMemoryType, copy.srcDevice, copy.srcPitch = device, src, src_pitch
    copy.dstMemoryType, copy.dstDevice, copy.dstPitch = device, dst, dst_pitch
    copy.WidthInBytes, copy.Height = width, height
    check(drv.cuMemcpy2DAsync(copy, stream), "copying a staged operand", kernel)


def launch_staged(binder: Any, bound: Any, launch: Callable[[list[Any], Any], None], name: str,
                  handle: Any) -> None:
    """Enqueue `bound` (a TileBound with staged tensors, bound by TileBinder `binder`) of kernel `name` on raw
    stream `handle` (None: the legacy default stream): allocate and fill, `launch(abi, handle)` (the binding's
    entry with its launch configuration), copy back, free (module docstring)."""
    drv = cuda()
    stream = 0 if handle is None else handle
    buffers: list[tuple[Staged, int]] = []
    try:
        for staged in bound.staged:
            buffer = int(check(drv.cuMemAllocAsync(staged.nbytes, stream), "allocating a staged operand", name))
            buffers.append((staged, buffer))
            if staged.fill:
                _copy_rows(drv, staged.ptr, staged.pitch, buffer, staged.padded, staged.row_bytes, staged.rows,
                           stream, name)
        launch(binder.staged_abi(bound, {staged.param: buffer for staged, buffer in buffers}), handle)
        for staged, buffer in buffers:
            if staged.output:
                _copy_rows(drv, buffer, staged.padded, staged.ptr, staged.pitch, staged.row_bytes, staged.rows,
                           stream, name)
    finally:
        for _, buffer in buffers:  # stream-ordered: after the copies back, whether or not the launch went out
            check(drv.cuMemFreeAsync(buffer, stream), "freeing a staged operand", name)
