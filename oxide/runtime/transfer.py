"""Device-to-device copies between any two GPU arrays (oxide's DeviceBuffer, torch, CuPy, anything with
`__cuda_array_interface__` or CUDA DLPack), stream-ordered or synchronous, and capturable into a graph: the
host side of cutile-rs's `api::memcpy`, which feeds new inputs to a replayed graph.

    oxide.runtime.copy(x, new_embedding, stream)   # queued on `stream`; both stay referenced until it ran
    oxide.runtime.copy(x, new_embedding)           # waits for the copy
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oxide.runtime.driver import Device, check, cuda
from oxide.runtime.errors import GraphError, HostArrayError, KernelArgumentError
from oxide.runtime.inflight import capturing_here, release_device
from oxide.runtime.memory import ArrayView, device_view
from oxide.runtime.stream import Stream, resolve


def _view(array: Any, role: str) -> ArrayView:
    if isinstance(array, np.ndarray):
        raise HostArrayError(f"copy: the {role} is a numpy array; copy host data with `buffer.copy_from(array)` "
                             "(or `mod.to_device(array)`), this copies between GPU arrays")
    try:
        view = device_view(array)
    except KernelArgumentError as exc:
        raise KernelArgumentError(f"copy: the {role}: {exc}") from None
    if view is None:
        raise KernelArgumentError(f"copy: the {role} is not a GPU array ({type(array).__name__}); pass a "
                                  "DeviceBuffer, a CUDA torch tensor or a CuPy array")
    return view


def copy(dst: Any, src: Any, stream: Any = None) -> None:
    """Copy GPU array `src` into GPU array `dst` (C-contiguous, the same number of bytes); stream-ordered when
    `stream` is given (oxide's or another library's), else synchronous."""
    target, source = _view(dst, "destination"), _view(src, "source")
    if target.nbytes != source.nbytes:
        raise KernelArgumentError(f"copy: the destination holds {target.nbytes} bytes ({target.shape} "
                                  f"{target.dtype}), the source {source.nbytes} ({source.shape} {source.dtype})")
    if target.ptr < source.ptr + source.nbytes and source.ptr < target.ptr + target.nbytes and target.nbytes:
        raise KernelArgumentError("copy: the destination overlaps the source; copy through a separate buffer")
    drv = cuda()
    device = stream.device if type(stream) is Stream else Device(0)
    if stream is None:
        if capturing_here():
            raise GraphError("copy: a synchronous copy inside a graph capture would wait for the device; pass the "
                             "capturing stream: oxide.runtime.copy(dst, src, stream)")
        if target.nbytes:
            check(drv.cuMemcpyDtoD(target.ptr, source.ptr, target.nbytes), "cuMemcpyDtoD")
        device.synchronize()  # a device-to-device cuMemcpy does not wait for itself
        release_device(device)
        return
    handle, ledger = resolve(stream, device, "copy")
    if target.nbytes:
        check(drv.cuMemcpyDtoDAsync(target.ptr, source.ptr, target.nbytes, handle), "cuMemcpyDtoDAsync")
    ledger.hold((dst, src))
