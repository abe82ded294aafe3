"""Buffers of over-aligned structs (`&[F4]`, `DisjointSlice<F4>` with `#[repr(C, align(16))] struct
F4([f32; 4])`): the signature records the element layout, the runtime takes flat float32 arrays (4 values per
element) or structured arrays of the element's size, the ABI length counts elements, and a buffer whose address
is not a multiple of the alignment is a KernelArgumentError on the GPU and on the emulator alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide
from oxide.runtime import KernelArgumentError, LaunchConfig1D
from oxide.runtime.kernel import Kernel
from oxide.runtime.module import load
from oxide.runtime.signature import KernelSpec
from tests.unit.runtime.conftest import FakeGpuArray, RecordingExecutor

VECADD4 = """use cuda_device::{kernel, launch_contract, thread, DisjointSlice};

#[repr(C, align(16))]
#[derive(Clone, Copy)]
pub struct F4([f32; 4]);

#[kernel]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn vecadd4(a: &[F4], b: &[F4], mut c: DisjointSlice<F4>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(out) = c.get_mut(idx) {
        let x = a[i];
        let y = b[i];
        *out = F4([x.0[0] + y.0[0], x.0[1] + y.0[1], x.0[2] + y.0[2], x.0[3] + y.0[3]]);
    }
}
"""
CFG = LaunchConfig1D(2, 256)


@pytest.fixture(scope="module")
def spec() -> KernelSpec:
    return oxide.compile(VECADD4, "vecadd4.rs").artifact().kernels[0]


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory):
    source = Path(tmp_path_factory.mktemp("vec")) / "vecadd4.rs"
    source.write_text(VECADD4)
    return oxide.load(source, target="cpu")


def test_signature_records_the_element_layout(spec):
    a = spec.params[0]
    assert (a.kind, a.elem) == ("slice", "F4")
    assert a.layout == {"size": 16, "align": 16, "leaves": [[0, "f32"], [4, "f32"], [8, "f32"], [12, "f32"]]}
    assert KernelSpec.from_json(spec.to_json()).params[2].layout == a.layout


def test_gpu_abi_length_counts_elements(spec):
    executor = RecordingExecutor(gpu=True)
    Kernel(spec, executor)(FakeGpuArray(0x1000, 400), FakeGpuArray(0x2000, 400), FakeGpuArray(0x3000, 400),
                           config=CFG, stream=0)
    assert executor.launches[0][2] == [0x1000, 100, 0x2000, 100, 0x3000, 100]


def test_misaligned_gpu_buffer_is_refused(spec):
    kernel = Kernel(spec, RecordingExecutor(gpu=True))
    with pytest.raises(KernelArgumentError, match=r"argument `b: &\[F4\]`: the buffer's address 0x2008 is not a "
                                                  r"multiple of 16, the alignment of F4"):
        kernel(FakeGpuArray(0x1000, 400), FakeGpuArray(0x2008, 400), FakeGpuArray(0x3000, 400), config=CFG,
               stream=0)


def test_misaligned_view_is_refused_on_the_emulator_too(module):
    a = np.ones(404, np.float32)
    with pytest.raises(KernelArgumentError, match="not a multiple of 16"):
        module.vecadd4(a[1:401], a[:400].copy(), np.zeros(400, np.float32), config=CFG)


def test_flat_arrays_must_hold_whole_elements(module):
    with pytest.raises(KernelArgumentError, match=r"expected F4 elements: a numpy structured dtype of itemsize 16 "
                                                  r".* or float32 values, 4 per element; got 401 values of float32"):
        module.vecadd4(np.ones(401, np.float32), np.ones(400, np.float32), np.zeros(400, np.float32), config=CFG)


def test_structured_arrays_need_the_elements_fields(module):
    wrong = np.zeros(100, np.dtype([("v", np.float64, (2,))]))  # 16 bytes, but two f64
    with pytest.raises(KernelArgumentError, match="expected F4 elements"):
        module.vecadd4(wrong, np.ones(400, np.float32), np.zeros(400, np.float32), config=CFG)


def test_emulated_vecadd4_matches_numpy_for_flat_and_structured_arrays(module):
    rng = np.random.default_rng(3)
    a, b = rng.random(4 * 500, dtype=np.float32), rng.random(4 * 500, dtype=np.float32)
    c = np.zeros_like(a)
    module.vecadd4(a, b, c, config=CFG)
    assert np.array_equal(c, a + b)
    f4 = np.dtype([("v", np.float32, (4,))])
    out = np.zeros(500, f4)
    module.vecadd4(a.view(f4), b.view(f4), out, config=CFG)
    assert np.array_equal(out.view(np.float32), a + b)


@pytest.fixture(scope="module")
def artifact(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = Path(tmp_path_factory.mktemp("vec-artifact"))
    (out / "vecadd4.rs").write_text(VECADD4)
    oxide.build(out / "vecadd4.rs", out_dir=out / "vecadd4", chips=["sm_90"])
    return out / "vecadd4"


def test_fake_gpu_launch_of_device_buffers_and_structured_host_arrays(fake, artifact):
    module = load(artifact, target="gpu")
    kernel = module.vecadd4
    prepared = kernel.prepare(CFG)
    assert prepared.fast is not None
    a, b, c = (module.to_device(np.ones(1024, np.float32)) for _ in range(3))
    prepared(a, b, c)                                # flat float32 DeviceBuffers: the specialised function
    kernel._launch(prepared, (a, b, c), None)        # the general path
    assert fake.launches[0] == fake.launches[1]
    assert fake.launches[0]["params"] == [a.ptr, 256, b.ptr, 256, c.ptr, 256]
    f4 = np.dtype([("v", np.float32, (4,))])
    kernel(np.zeros(100, f4), np.zeros(100, f4), np.zeros(100, f4), config=CFG)  # copied to the device
    assert fake.launches[-1]["params"][1::2] == [100, 100, 100]
    with pytest.raises(KernelArgumentError, match="not a multiple of 16"):
        prepared(a[1:257], b[:256], c[:256])       # a view 4 bytes in: the general path refuses it
