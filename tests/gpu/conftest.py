"""GPU tests: they need only numpy, cuda-python and pytest, and skip cleanly where no GPU is present.

Kernels are compiled ahead of time on the development machine into tests/fixtures/*.ptx (a unit test
keeps the fixtures equal to what the compiler produces now), so these tests import nothing of the
compiler and run where the MLIR wheels are absent.
"""

from __future__ import annotations

import pytest

def _gpu_context():
    try:
        from cuda.bindings import driver
    except ImportError:
        return None, "cuda-python is not installed"
    try:
        (err,) = driver.cuInit(0)
    except Exception as exc:  # no driver library at all (CI): cuda.pathfinder raises, not a CUresult
        return None, f"no CUDA driver ({type(exc).__name__})"
    if err != driver.CUresult.CUDA_SUCCESS:
        return None, f"cuInit failed: {err.name}"
    err, count = driver.cuDeviceGetCount()
    if err != driver.CUresult.CUDA_SUCCESS or count == 0:
        return None, "no CUDA device"
    err, device = driver.cuDeviceGet(0)
    err, context = driver.cuDevicePrimaryCtxRetain(device)
    (err,) = driver.cuCtxSetCurrent(context)
    return (driver, device), None


@pytest.fixture(scope="session")
def cuda():
    """The cuda.bindings.driver module with a current context on device 0; skips without a GPU."""
    handle, reason = _gpu_context()
    if handle is None:
        pytest.skip(f"no GPU: {reason}")
    return handle[0]


@pytest.fixture(scope="session")
def hopper_torch(cuda):
    """torch with CUDA on an sm_90 GPU (H100, H200), where the sm_90a artifacts run; skips elsewhere."""
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the sm_90a artifacts run on sm_90 GPUs (H100, H200) only")
    return torch
