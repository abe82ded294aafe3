"""A minimal launcher for the GPU tests: load a PTX fixture with cuda.bindings and run one kernel.

This is test scaffolding, not oxide's runtime (that is oxide.runtime): it knows only raw pointers and
scalars, and it imports nothing of the compiler.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any, Sequence

import numpy as np

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def check(driver: Any, result: Any) -> Any:
    """Assert a cuda.bindings call succeeded; return its value (or values)."""
    err = result[0] if isinstance(result, tuple) else result
    assert err == driver.CUresult.CUDA_SUCCESS, f"CUDA call failed: {err}"
    if isinstance(result, tuple):
        return result[1] if len(result) == 2 else result[1:]
    return None


def load(driver: Any, fixture: str, entry: str) -> Any:
    """The CUfunction `entry` of tests/fixtures/<fixture>."""
    ptx = (FIXTURES / fixture).read_bytes() + b"\0"
    module = check(driver, driver.cuModuleLoadData(ptx))
    return check(driver, driver.cuModuleGetFunction(module, entry.encode()))


class DeviceArray:
    """A numpy array copied to the GPU; `.ptr` is its device address, `.get()` copies it back."""

    def __init__(self, driver: Any, host: np.ndarray):
        self.driver, self.host = driver, np.ascontiguousarray(host)
        self.ptr = check(driver, driver.cuMemAlloc(max(self.host.nbytes, 1)))
        if self.host.nbytes:
            check(driver, driver.cuMemcpyHtoD(self.ptr, self.host.ctypes.data, self.host.nbytes))

    def get(self) -> np.ndarray:
        out = np.empty_like(self.host)
        if out.nbytes:
            check(self.driver, self.driver.cuMemcpyDtoH(out.ctypes.data, self.ptr, out.nbytes))
        return out

    def free(self) -> None:
        check(self.driver, self.driver.cuMemFree(self.ptr))


def _ctype(arg: Any) -> Any:
    if isinstance(arg, DeviceArray):
        return ctypes.c_uint64(int(arg.ptr))
    if isinstance(arg, np.generic):
        return np.ctypeslib.as_ctypes_type(arg.dtype)(arg.item())
    if isinstance(arg, bool):
        return ctypes.c_bool(arg)
    if isinstance(arg, int):
        return ctypes.c_uint64(arg)
    raise TypeError(f"cannot pass {arg!r} to a kernel; use DeviceArray, a numpy scalar, or an int (u64)")


def launch_status(driver: Any, function: Any, grid: Sequence[int], block: Sequence[int], args: Sequence[Any],
                  shared_bytes: int = 0) -> Any:
    """Launch and synchronise; return the CUresult (for kernels meant to trap). A slice parameter is two
    arguments: DeviceArray, then its length (int)."""
    holders = [_ctype(a) for a in args]
    pointers = (ctypes.c_void_p * max(len(holders), 1))(*[ctypes.addressof(h) for h in holders])
    gx, gy, gz = (list(grid) + [1, 1])[:3]
    bx, by, bz = (list(block) + [1, 1])[:3]
    err = driver.cuLaunchKernel(function, gx, gy, gz, bx, by, bz, shared_bytes, 0, ctypes.addressof(pointers), 0)[0]
    if err != driver.CUresult.CUDA_SUCCESS:
        return err
    return driver.cuCtxSynchronize()[0]


def launch(driver: Any, function: Any, grid: Sequence[int], block: Sequence[int], args: Sequence[Any],
           shared_bytes: int = 0) -> None:
    """Launch, synchronise, and fail the test if either fails."""
    check(driver, launch_status(driver, function, grid, block, args, shared_bytes))
