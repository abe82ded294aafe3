"""Fixtures of the runtime tests: artifacts compiled once per session, and executors that record launches
instead of running them (so marshalling, contracts and overlap checks are tested without a GPU)."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from oxide.runtime import driver as driver_module
from oxide.runtime import inflight
from oxide.runtime.artifact import Artifact
from oxide.runtime.contract import DeviceLimits, FunctionLimits
from oxide.runtime.emulated import EMULATED_LIMITS
from oxide.runtime.kernel import Kernel
from oxide.runtime.signature import KernelSpec
from tests.unit.runtime.fake_driver import FakeDriver

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "rust"

CONTRACTED = """
use cuda_device::{kernel, launch_bounds, launch_contract, thread, DisjointSlice};

#[kernel]
#[launch_bounds(128)]
#[launch_contract(domain = 1, block = (128, 1, 1), requires = (out.len() >= n, x.len() == out.len()))]
pub fn scaled(x: &[f32], n: u32, factor: f32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        if i < n as usize {
            *o = x[i] * factor;
        }
    }
}

#[kernel]
#[launch_contract(domain = 2, dynamic_shared = 1024, min_compute_capability = (9, 0))]
pub fn two_d(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = x[0];
    }
}

#[kernel]
#[launch_bounds(256)]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn bounded(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = 1;
    }
}
"""


class RecordingFunction:
    """A function that records launches; its limits are settable."""

    def __init__(self, kernel: KernelSpec, limits: FunctionLimits):
        self.kernel, self.limits, self.shared_allowed = kernel, limits, 0

    def allow_dynamic_shared(self, nbytes: int) -> None:
        self.shared_allowed = nbytes


class RecordingExecutor:
    """Stands in for the GPU or emulator executor; `launches` holds (entry, config, abi) per launch."""

    chip = "recording"

    def __init__(self, gpu: bool, limits: DeviceLimits = EMULATED_LIMITS, max_threads: int = 1024):
        self.target = "gpu" if gpu else "cpu"
        self.limits, self.max_threads = limits, max_threads
        self.launches: list[tuple[str, Any, list[Any]]] = []

    def function(self, kernel: KernelSpec) -> RecordingFunction:
        return RecordingFunction(kernel, FunctionLimits(self.max_threads, 0))

    def launch(self, fn: RecordingFunction, config: Any, abi: list[Any], stream: Any) -> None:
        self.launches.append((fn.kernel.entry, config, abi))

    def active_clusters(self, fn: RecordingFunction, block: tuple[int, int, int], shared: int) -> None:
        return None

    def synchronize(self, kernel: str | None) -> None:
        pass


class FakeGpuArray:
    """A GPU array as CuPy/PyTorch present it: only `__cuda_array_interface__` (the pointer is made up)."""

    def __init__(self, ptr: int, n: int, dtype: Any = np.float32, shape: tuple[int, ...] | None = None):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape or (n,),
                                         "typestr": np.dtype(dtype).str, "strides": None, "version": 3}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Install the fake as cuda.bindings.driver for the runtime."""
    import cuda.bindings

    fake = FakeDriver()
    monkeypatch.setattr(cuda.bindings, "driver", fake, raising=False)
    monkeypatch.setitem(__import__("sys").modules, "cuda.bindings.driver", fake)
    driver_module.gpu_status.cache_clear()
    monkeypatch.setattr(driver_module.Device, "_instances", {})
    ledgers: dict[int, Any] = {}
    monkeypatch.setattr(inflight, "_LEDGERS", ledgers)  # each test's queued work is its own
    yield fake
    ledgers.clear()
    gc.collect()  # graphs and buffers the test left are freed through the fake, not the real driver
    driver_module.gpu_status.cache_clear()


@pytest.fixture(scope="session")
def artifact_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Artifacts of a few examples and of CONTRACTED, compiled once."""
    import oxide

    out = tmp_path_factory.mktemp("artifacts")
    source = out / "contracted.rs"
    source.write_text(CONTRACTED)
    oxide.build(source, out_dir=out / "contracted", chips=["sm_90"])
    for name, instances in [("vecadd", None), ("saxpy", None), ("stencil", None), ("particles", None),
                            ("histogram", None), ("scale_generic", {"scale": [["f32"], ["f64"]]})]:
        oxide.build(EXAMPLES / f"{name}.rs", out_dir=out / name, chips=["sm_90"], instances=instances)
    return out


@pytest.fixture
def kernel_of(artifact_dir: Path):
    """kernel_of(artifact, entry, gpu=False, **executor options) -> (Kernel, RecordingExecutor)."""

    def make(artifact: str, entry: str, gpu: bool = False, **options: Any) -> tuple[Kernel, RecordingExecutor]:
        spec = next(k for k in Artifact.load(artifact_dir / artifact).kernels if k.entry == entry)
        executor = RecordingExecutor(gpu, **options)
        return Kernel(spec, executor), executor

    return make


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the tests' artifacts out of the user's cache."""
    import os

    os.environ["OXIDE_CACHE_DIR"] = str(tmp_path_factory.mktemp("oxide-cache"))
