"""The key of a tile launch's arguments, for reusing its checked binding (tile_kernel.py).

A tile launch's checks (element types, ranks, static dims, partition grid, overlaps, the launch-time variant and
its tensor maps) depend only on each argument's device address, shape, strides and element type, and on the
scalars' values. When two launches have the same key, the first one's checked binding is the second one's
too, so relaunching a kernel on the same tensors costs a key and the driver call (the checks cost several
times the few microseconds a small kernel runs for). An argument the key does not cover (a host array, which
is copied per launch; an unknown object) makes the launch take the general path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from oxide.runtime.memory import DeviceBuffer
from oxide.runtime.tile import MappedPartition, Partition

_SCALARS = (bool, int, float)


def launch_key(args: Sequence[Any]) -> tuple | None:
    """A hashable summary of `args` that fixes every launch check's outcome, or None."""
    key = []
    for value in args:
        if type(value) is MappedPartition:  # the map and the block count fix the grid and the launch checks
            part = _part(value.array)
            key.append(("mapped", value.partition.tile_shape, value.map, value.blocks, part))
        else:
            part = _part(value.array) if type(value) is Partition else _part(value)
            key.append(part if type(value) is not Partition else ("partition", value.tile_shape, part))
        if part is None:
            return None
    return tuple(key)


def _part(value: Any) -> tuple | None:
    kind = type(value)
    if kind in _SCALARS:
        return kind, value
    if kind.__module__ == "torch" and kind.__name__ == "Tensor":
        if not value.is_cuda:
            return None
        return "torch", value.data_ptr(), tuple(value.shape), value.stride(), value.dtype, value.get_device()
    if kind is DeviceBuffer:
        return "buffer", value.ptr, value.shape, value.dtype
    interface = getattr(value, "__cuda_array_interface__", None) if kind.__module__.startswith("cupy") else None
    if interface is not None:
        return ("cai", interface["data"][0], tuple(interface["shape"]), interface.get("strides"),
                interface["typestr"])
    return None
