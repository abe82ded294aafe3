"""Launching a tile kernel of an emulator program: convert the arguments, then call the tile-block function
once per block of the grid, x fastest (the order blockIdx counts in).

Arguments, in parameter order: a numpy array for every tensor parameter (the whole output tensor for a
`&mut Tensor`, whose block-own tile the program finds from the block id; any strides), a numpy array for a
raw pointer (its flat buffer), a Python or numpy number for a scalar. bf16 tensors are their 16-bit
patterns (uint16, int16, or a 2-byte `bfloat16` dtype such as ml_dtypes'); integer tensors may be signed or
unsigned (MLIR integers are signless: the same bits).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import LaunchError
from oxide.runtime.emulator.launch import _dims, _scalar, kernel_meta
from oxide.runtime.emulator.tile import COMPUTE, STORAGE, Block, Pointer


def storage_view(value: Any, elem: str, where: str) -> np.ndarray:
    """`value` as an array of the storage dtype of tile element type `elem` (a view: writes go through)."""
    if not isinstance(value, np.ndarray):
        raise LaunchError(f"{where} is a tensor of {elem}: pass a numpy array, got {type(value).__name__}")
    want = np.dtype(STORAGE[elem])
    if value.dtype == want:
        return value
    same_bits = value.dtype.itemsize == want.itemsize
    if elem == "bf16" and same_bits and (value.dtype.kind in "iu" or value.dtype.name == "bfloat16"):
        return value.view(want)
    if want.kind in "iu" and value.dtype.kind in "iu" and same_bits:
        return value.view(want)
    raise LaunchError(f"{where} holds {elem} elements, got an array of {value.dtype}")


def _argument(kind: str, elem: str, shape: tuple[int, ...], value: Any, where: str) -> Any:
    if kind == "scalar":
        return _scalar(value, np.dtype(COMPUTE[elem]), where)
    array = storage_view(value, elem, where)
    if kind == "ptr":
        if not array.flags.c_contiguous:
            raise LaunchError(f"{where} is a raw pointer: pass a C-contiguous array")
        return Pointer(array.reshape(-1), elem)
    if array.ndim != len(shape):
        raise LaunchError(f"{where} is a rank-{len(shape)} tensor, got a {array.ndim}-D array")
    if kind in ("tile_out", "tile_mapped") and not array.flags.writeable:
        raise LaunchError(f"{where} is written by the kernel, but the array is read-only")
    return array


def launch_tile(program: str, entry: str, grid: Sequence[int] | int, args: Sequence[Any], *,
                shuffle_blocks: bool | int = False) -> None:
    """Run tile kernel `entry` of an emulator program over `grid` tile blocks; output arrays are written in place.

    `shuffle_blocks` runs the blocks in a random order (an int seeds it): only atomics can tell the orders apart.
    """
    namespace, meta = kernel_meta(program, entry)
    if "tile" not in meta:
        raise LaunchError(f"kernel `{entry}` is a SIMT kernel: launch it with oxide.runtime.emulator.launch")
    params = meta["params"]
    if len(args) != len(params):
        raise LaunchError(f"kernel `{entry}` takes {len(params)} arguments, got {len(args)}")
    values = [_argument(kind, elem, tuple(shape), value, f"kernel parameter {k} of `{entry}`")
              for k, ((kind, elem, shape), value) in enumerate(zip(params, args))]
    gx, gy, gz = _dims(grid, "grid")
    counts = (np.int32(gx), np.int32(gy), np.int32(gz))
    function, locs = meta["function"], namespace["LOCS"]
    blocks = [(x, y, z) for z in range(gz) for y in range(gy) for x in range(gx)]  # x fastest, as blockIdx counts
    if shuffle_blocks is not False:
        seed = None if shuffle_blocks is True else int(shuffle_blocks)
        blocks = [blocks[k] for k in np.random.default_rng(seed).permutation(len(blocks))]
    with np.errstate(all="ignore"):
        for x, y, z in blocks:
            function(Block(entry, locs, (np.int32(x), np.int32(y), np.int32(z)), counts), *values)
