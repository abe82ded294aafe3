"""oxide.runtime on the GPU: every example's host program, the launch API (device buffers, streams, events,
zero-copy arrays), launch-contract and overlap errors, and the emulator as the reference.

Kernels are built with the compiler on this machine through the artifact cache, or taken from a cache built
elsewhere (OXIDE_CACHE_DIR) when the MLIR wheels are absent. Without a GPU these tests skip.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "rust"
RNG = np.random.default_rng(2027)


@pytest.fixture(scope="module")
def rt(cuda):
    """oxide.runtime, with the GPU present (the `cuda` fixture skips otherwise). Kernels are built by the
    compiler here, or come from a carried artifact cache (OXIDE_CACHE_DIR) where the MLIR wheels are absent."""
    import oxide.runtime

    return oxide.runtime


def load(name: str, **kw):
    import oxide

    return oxide.load(EXAMPLES / f"{name}.rs", target="gpu", **kw)


@pytest.mark.parametrize("example", sorted(p.stem for p in EXAMPLES.glob("*.py")))
def test_example_host_program_passes_on_the_gpu(rt, example):
    result = subprocess.run([sys.executable, str(EXAMPLES / f"{example}.py")], capture_output=True, text=True,
                            timeout=600, env=dict(os.environ, OXIDE_DEVICE="gpu"), cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("PASSED")
    assert "(cpu)" not in result.stdout


def test_new_then_run_on_the_gpu(rt, tmp_path):
    # The template's kernel is the same in every new project, so a carried cache holds its build.
    oxide_cli = [sys.executable, "-m", "oxide.tools.oxide_cli"]
    assert subprocess.run([*oxide_cli, "new", "demo"], cwd=tmp_path).returncode == 0
    result = subprocess.run([*oxide_cli, "run"], cwd=tmp_path / "demo", capture_output=True, text=True, timeout=600)
    if result.returncode != 0 and "cannot compile" in result.stderr:
        pytest.skip("no compiler here and no cached build of the template kernel")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "PASSED: all 1024 elements correct" and "emulator" not in result.stderr


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_vecadd_matches_numpy_and_the_emulator(rt, n):
    import oxide

    gpu = load("vecadd")
    cpu = oxide.load(EXAMPLES / "vecadd.rs", target="cpu") if n <= 1000 else None  # the emulator is slower
    a, b = RNG.standard_normal(n, dtype=np.float32), RNG.standard_normal(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    gpu.vecadd.unchecked[(n + 255) // 256, 256](a, b, c)
    np.testing.assert_array_equal(c, a + b)
    if cpu is not None:
        reference = np.zeros(n, np.float32)
        cpu.vecadd.unchecked[(n + 255) // 256, 256](a, b, reference)
        np.testing.assert_array_equal(c, reference)


def test_device_buffers_streams_and_events(rt):
    module = load("saxpy")
    n = 1 << 16
    x, y = RNG.standard_normal(n, dtype=np.float32), RNG.standard_normal(n, dtype=np.float32)
    dx, dy, dout = module.to_device(x), module.to_device(y), module.zeros(n, np.float32)
    stream = module.stream()
    prepared = module.saxpy.prepare(rt.LaunchConfig1D(n // 256, 256))
    start, end = rt.Event(module.device), rt.Event(module.device)
    stream.record(start)
    for _ in range(10):
        prepared(1.5, dx, dy, dout, stream=stream)
    stream.record(end)
    stream.synchronize()
    assert start.elapsed_ms(end) > 0
    np.testing.assert_allclose(dout.get(), (np.float64(1.5) * x + y).astype(np.float32), rtol=1e-6, atol=1e-6)
    with pytest.raises(rt.HostArrayError, match="hint: copy it to the GPU first"):
        prepared(1.5, x, dy, dout, stream=stream)
    stream.close()


def test_zero_copy_from_cupy_and_torch(rt):
    module = load("saxpy")
    n = 4096
    tried = 0
    for name in ("cupy", "torch"):
        try:
            lib = __import__(name)
        except ImportError:
            continue
        tried += 1
        if name == "cupy":
            x, y, out = lib.arange(n, dtype=lib.float32), lib.ones(n, dtype=lib.float32), lib.zeros(n, dtype=lib.float32)
        else:
            x = lib.arange(n, dtype=lib.float32, device="cuda")
            y, out = lib.ones(n, device="cuda"), lib.zeros(n, device="cuda")
        lib.cuda.runtime.deviceSynchronize() if name == "cupy" else lib.cuda.synchronize()
        module.saxpy[n // 256, 256](2.0, x, y, out)
        got = lib.asnumpy(out) if name == "cupy" else out.cpu().numpy()
        np.testing.assert_array_equal(got, 2 * np.arange(n, dtype=np.float32) + 1)
    if not tried:
        pytest.skip("neither CuPy nor PyTorch is installed")


def test_contract_and_device_limit_errors_on_the_gpu(rt):
    module = load("transpose")
    inp, out = np.zeros((64, 64), np.float32), np.zeros((64, 64), np.float32)
    with pytest.raises(rt.LaunchContractError) as info:
        module.transpose[(2, 2), (32, 32)](inp, out, 64, 64)
    assert (info.value.field, info.value.expected, info.value.actual) == ("block", (32, 8, 1), (32, 32, 1))
    with pytest.raises(rt.LaunchContractError, match="`domain` expects a 2-D launch"):
        module.transpose[4, 256](inp, out, 64, 64)
    vecadd = load("vecadd")
    a = np.zeros(8, np.float32)
    with pytest.raises(rt.LaunchContractError, match=r"at most 1024 threads \(device limit\)"):
        vecadd.vecadd.unchecked[1, (64, 32)](a, a, np.zeros(8, np.float32))
    with pytest.raises(rt.LaunchContractError, match=r"x extent <= 1024 \(device limit\), got 2048"):
        vecadd.vecadd.unchecked[1, 2048](a, a, np.zeros(8, np.float32))


def test_overlap_errors_on_the_gpu(rt):
    module = load("saxpy")
    buf = module.to_device(np.arange(256, dtype=np.float32))
    with pytest.raises(rt.OverlapError, match="argument `out` overlaps argument `x`"):
        module.saxpy[1, 128](1.0, buf[0:128], buf[200:256], buf[100:228])
    module.saxpy[1, 128](1.0, buf[0:128], buf[0:128], buf[128:256])  # disjoint views of one allocation
    np.testing.assert_array_equal(buf.get()[128:], 2 * np.arange(128, dtype=np.float32))


_TRAP = """
import numpy as np, oxide, sys
from oxide.runtime import KernelFaultError
source = sys.argv[1]
module = oxide.load(source, target="gpu")
try:
    module.reads_past_the_end[1, 32](np.ones(32, np.float32), np.zeros(32, np.float32))
except KernelFaultError as exc:
    print("fault", exc.code, exc.kernel, exc.context_usable)
    print("message", exc)
try:
    module.to_device(np.ones(4, np.float32))
except Exception as exc:
    print("after", type(exc).__name__)
"""

_TRAPPING = """
use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[kernel]
#[launch_contract(domain = 1)]
pub fn reads_past_the_end(a: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i + 1];
    }
}
"""


def test_a_trap_names_the_kernel_and_says_the_context_is_lost(rt, tmp_path):
    import oxide
    from oxide.diagnostics import OxideError

    source = tmp_path / "trap.rs"
    source.write_text(_TRAPPING)
    try:
        oxide.build(source)  # a fixed source: a cache carried from a machine with the compiler holds it
    except OxideError as exc:
        pytest.skip(f"no compiler here and no cached build: {exc}")
    result = subprocess.run([sys.executable, "-c", _TRAP, str(source)], capture_output=True, text=True, timeout=300,
                            cwd=ROOT)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("fault CUDA_ERROR_") and lines[0].endswith(" reads_past_the_end False"), result.stdout
    assert "the GPU context of this process is unusable now" in lines[1]
    assert lines[2] in ("after KernelFaultError", "after CudaError")
