"""The emulator's memory values: buffers (kernel arguments and shared arrays), pointers into them, and thread
index witnesses.

A slice, DisjointSlice or raw pointer parameter is a `Buffer` over the caller's numpy array (writes land in
it). A pointer or `&mut` reference is a `Ptr`: a buffer and an element offset per lane. Every buffer view
of the same memory shares one race tracker, addressed in elements of the underlying allocation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import UnsupportedOperation
from oxide.runtime.emulator.races import RaceTracker


@dataclass
class Buffer:
    """Memory a kernel addresses: `array` (1-D), what to call it in messages, the race tracker of its
    allocation (None when races are not checked), `base` (this view's first element in the tracker's
    numbering), the row width of a runtime 2-D DisjointSlice, and `unit`: how many of the array's scalars one
    element of the kernel's view spans (a struct or array element held as its scalars; 1 otherwise).

    Shared memory holds one instance per block of the batch, `block_size` elements each; a lane's index is
    relative to its block's instance, which starts at its `lane_base` (None: one block, at 0). A block that
    runs alone keeps its shared memory in its byte-addressed `window` (a SharedWindow); the array is then a
    view of the window's bytes from byte `window_offset`."""

    array: np.ndarray
    what: str
    tracker: RaceTracker | None
    base: int = 0
    width: int | None = None
    block_size: int | None = None
    lane_base: Any = None
    unit: int = 1
    window: Any = None
    window_offset: int = 0

    def __len__(self) -> int:
        return self.block_size if self.block_size is not None else len(self.array)

    @property
    def elements(self) -> int:
        """The element count of the kernel's view (`s.len()`)."""
        return len(self) // self.unit

    def view(self, start: int, length: int, unit: int = 1) -> Buffer:
        """`length` elements of `unit` scalars each from scalar `start`, as a buffer of their own
        (slice::from_raw_parts; `unit` > 1 views scalars as structs or arrays, as vector::as_vectors does)."""
        if self.block_size is not None:
            raise UnsupportedOperation("slice::from_raw_parts over shared memory")
        if self.unit != 1:
            raise UnsupportedOperation("slice::from_raw_parts over a buffer of structs or arrays")
        return Buffer(self.array[start:start + length * unit], self.what, self.tracker, self.base + start, unit=unit,
                      window=self.window, window_offset=self.window_offset + start * self.array.itemsize)

    def cast(self, dtype: np.dtype) -> Buffer:
        """The same memory read as `dtype` (same element size only, so that race records stay aligned)."""
        dtype = np.dtype(dtype)
        if dtype == self.array.dtype:
            return self
        if self.window is not None:
            return self._window_cast(dtype)
        if dtype.itemsize != self.array.dtype.itemsize:
            raise UnsupportedOperation(f"a pointer cast from {self.array.dtype} to {dtype} elements (the emulator "
                                       "reinterprets memory only between types of the same size)")
        if self.block_size is not None:
            raise UnsupportedOperation("a pointer cast of shared memory to another element type")
        return Buffer(self.array.view(dtype), self.what, self.tracker, self.base, self.width, unit=self.unit)

    def _window_cast(self, dtype: np.dtype) -> Buffer:
        """The same shared-window bytes as `dtype` elements (any size: shared memory is byte-addressed). A
        view of another element size has no race records of its own (its accesses are not race-checked)."""
        nbytes = self.array.nbytes - self.array.nbytes % dtype.itemsize
        array = self.window.bytes[self.window_offset:self.window_offset + nbytes].view(dtype)
        tracker = self.tracker if dtype.itemsize == self.array.dtype.itemsize else None
        return Buffer(array, self.what, tracker, self.base, window=self.window, window_offset=self.window_offset)


@dataclass
class Ptr:
    """A pointer (or reference): element `offset` (a scalar or one per lane) into `buffer`."""

    buffer: Buffer
    offset: Any

    def select(self, cond: Any, a: Ptr, b: Ptr) -> Ptr:
        if a.buffer.array is not b.buffer.array or a.buffer.base != b.buffer.base:
            raise UnsupportedOperation("a per-thread choice between pointers into two different buffers")
        return Ptr(a.buffer, np.where(cond, a.offset, b.offset))


@dataclass
class Witness:
    """A thread index witness: its flat `value` (or `row`/`col` for a runtime 2-D one) and `valid`."""

    value: Any
    valid: Any
    row: Any = None
    col: Any = None

    def select(self, cond: Any, a: Witness, b: Witness) -> Witness:
        def pick(x: Any, y: Any) -> Any:
            return None if x is None else np.where(cond, x, y)

        return Witness(pick(a.value, b.value), pick(a.valid, b.valid), pick(a.row, b.row), pick(a.col, b.col))
