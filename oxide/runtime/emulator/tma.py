"""The TMA box-copy model (cp.async.bulk.tensor, tiled mode): a box of a global tensor to or from the
shared window, in the byte layout TMA uses (rows of the box's innermost extent, optionally swizzled).

Dimensions, box extents, coordinates and element strides are innermost first, as a tensor map lists them;
the tensor is a C-ordered numpy array (its last axis is the innermost dimension). Coordinates outside the
tensor (negative too) read as the fill (zero, or NaN for floats when asked) and are not written by a store.
A load marks the bytes it writes pending on its mbarrier and then completes its bytes there (complete_tx):
the bytes become readable when the barrier's phase completes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from oxide.runtime.emulator.mbarrier import Mbarrier
from oxide.runtime.emulator.shared_window import SharedMemoryError, SharedWindow, swizzle


def _box_indices(tensor: np.ndarray, box: Sequence[int], coords: Sequence[int],
                 element_strides: Sequence[int] | None) -> tuple[tuple[np.ndarray, ...], np.ndarray, tuple[int, ...]]:
    """Per box element (C order, outermost first): its index into the tensor, whether it is in bounds, and
    the box shape as loaded (outermost first)."""
    rank = tensor.ndim
    if not len(box) == len(coords) == rank:
        raise SharedMemoryError(f"a rank-{rank} tensor needs {rank} box extents and coordinates, got "
                                f"{len(box)} and {len(coords)}")
    strides = element_strides or (1,) * rank
    axes = []
    for k in range(rank):  # k: dimension, innermost first
        count = -(-int(box[k]) // int(strides[k]))
        axes.append(int(coords[k]) + np.arange(count) * int(strides[k]))
    grids = np.meshgrid(*axes[::-1], indexing="ij")
    shape = tuple(len(a) for a in axes[::-1])
    inside = np.ones(shape, np.bool_)
    for axis, grid in enumerate(grids):
        inside &= (grid >= 0) & (grid < tensor.shape[axis])
    return tuple(np.where(inside, g, 0) for g in grids), inside, shape


def _physical(shape: tuple[int, ...], itemsize: int, mode: int) -> np.ndarray:
    """The byte offset in shared memory of each byte of the box (dense C order, then swizzled)."""
    row = shape[-1] * itemsize
    if mode and row != mode:
        raise SharedMemoryError(f"a {mode}-byte swizzle needs a box whose innermost extent is {mode} bytes, "
                                f"got {row}")
    return swizzle(np.arange(int(np.prod(shape)) * itemsize), mode)


def _check_destination(address: int, mode: int) -> None:
    alignment = 8 * mode if mode else 128  # a swizzle atom is 8 rows of the swizzle span
    if address % alignment:
        raise SharedMemoryError(f"a TMA box{f' with a {mode}-byte swizzle' if mode else ''} needs shared memory "
                                f"aligned to {alignment} bytes; shared address {address:#x} is not")


def box_load(window: SharedWindow, address: int, barrier: Mbarrier, tensor: np.ndarray, box: Sequence[int],
             coords: Sequence[int], *, element_strides: Sequence[int] | None = None, swizzle_mode: int = 0,
             nan_fill: bool = False) -> int:
    """Copy the box at `coords` into shared memory at `address`; complete its bytes on `barrier`. Returns
    the byte count."""
    _check_destination(address, swizzle_mode)
    index, inside, shape = _box_indices(tensor, box, coords, element_strides)
    fill = np.nan if nan_fill and tensor.dtype.kind == "f" else 0
    values = np.where(inside, tensor[index], np.array(fill).astype(tensor.dtype)).astype(tensor.dtype)
    raw = values.reshape(-1).view(np.uint8)
    where = address + _physical(shape, tensor.dtype.itemsize, swizzle_mode)
    if where.size:
        window.view(address, np.uint8, raw.size)  # inside the window
        window.bytes[where] = raw
        window.mark_pending(address, raw.size, barrier.address)
    barrier.complete_tx(raw.size)
    return raw.size


def box_store(window: SharedWindow, address: int, tensor: np.ndarray, box: Sequence[int], coords: Sequence[int],
              *, swizzle_mode: int = 0) -> None:
    """Copy the box in shared memory at `address` to the tensor at `coords`; out-of-bounds elements are not
    written."""
    _check_destination(address, swizzle_mode)
    index, inside, shape = _box_indices(tensor, box, coords, None)
    nbytes = int(np.prod(shape)) * tensor.dtype.itemsize
    window.check_ready(address, nbytes)
    window.view(address, np.uint8, nbytes)
    raw = window.bytes[address + _physical(shape, tensor.dtype.itemsize, swizzle_mode)]
    values = raw.view(tensor.dtype).reshape(shape)
    tensor[tuple(i[inside] for i in index)] = values[inside]
