"""Run the PTX oxide emits on the GPU and compare with numpy (vecadd; libdevice exp*sin)."""

from __future__ import annotations

import ctypes

import numpy as np
import pytest


def check(driver, result):
    err = result[0] if isinstance(result, tuple) else result
    assert err == driver.CUresult.CUDA_SUCCESS, err
    return result[1] if isinstance(result, tuple) and len(result) == 2 else result[1:] if isinstance(result, tuple) else None


def load(driver, ptx: str, entry: str):
    module = check(driver, driver.cuModuleLoadData(ptx.encode() + b"\0"))
    return check(driver, driver.cuModuleGetFunction(module, entry.encode()))


def to_device(driver, array: np.ndarray):
    ptr = check(driver, driver.cuMemAlloc(array.nbytes))
    check(driver, driver.cuMemcpyHtoD(ptr, array.ctypes.data, array.nbytes))
    return ptr


def launch(driver, function, grid: int, block: int, args: list):
    holders = [ctypes.c_uint64(int(a)) for a in args]
    pointers = (ctypes.c_void_p * len(holders))(*[ctypes.addressof(h) for h in holders])
    check(driver, driver.cuLaunchKernel(function, grid, 1, 1, block, 1, 1, 0, 0, ctypes.addressof(pointers), 0))
    check(driver, driver.cuCtxSynchronize())


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_vecadd(cuda, fixture_ptx, n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n, dtype=np.float32)
    b = rng.standard_normal(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    function = load(cuda, fixture_ptx("vecadd.ptx"), "vecadd")
    da, db, dc = to_device(cuda, a), to_device(cuda, b), to_device(cuda, c)
    block = 256
    launch(cuda, function, (n + block - 1) // block, block, [da, db, dc, n])
    check(cuda, cuda.cuMemcpyDtoH(c.ctypes.data, dc, c.nbytes))
    np.testing.assert_array_equal(c, a + b)
    for ptr in (da, db, dc):
        check(cuda, cuda.cuMemFree(ptr))


def test_libdevice_exp_sin(cuda, fixture_ptx):
    n = 256
    x = np.random.default_rng(7).uniform(-4, 4, n).astype(np.float32)
    out = np.zeros(n, dtype=np.float32)
    function = load(cuda, fixture_ptx("exp_sin.ptx"), "exp_sin")
    dx, do = to_device(cuda, x), to_device(cuda, out)
    launch(cuda, function, 1, n, [dx, do])
    check(cuda, cuda.cuMemcpyDtoH(out.ctypes.data, do, out.nbytes))
    np.testing.assert_allclose(out, np.exp(x) * np.sin(x), rtol=2e-6, atol=1e-6)
