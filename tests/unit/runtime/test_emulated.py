"""The runtime on the emulator (target="cpu"): the same launchers, checks and errors as on the GPU."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.runtime import (KernelFaultError, LaunchConfig1D, LaunchContractError, OverlapError, RowWidth,
                           UncontractedLaunchError)
from tests.unit.runtime.conftest import EXAMPLES
from tests.unit.runtime.contract_cases import CASES, SOURCE, check_case

pytest.importorskip("oxide.runtime.emulator", reason="the emulator is not installed")
pytest.importorskip("oxide.backend.emulator", reason="the emulator is not installed")

TRAPPING = """
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


@pytest.fixture(scope="module")
def cpu():
    """load(example, **kw) on the emulator."""
    return lambda name, **kw: oxide.load(EXAMPLES / f"{name}.rs", target="cpu", **kw)


def test_module_on_the_emulator(cpu):
    module = cpu("saxpy")
    assert module.target == "cpu" and module.notice == "running on the emulator (target cpu)"
    x, y = np.arange(300, dtype=np.float32), np.ones(300, np.float32)
    out = module.zeros(300, np.float32)
    module.saxpy(2.0, x, y, out, config=LaunchConfig1D(3, 128))
    np.testing.assert_array_equal(out.get(), 2 * x + 1)
    assert "saxpy" in dir(module) and "on cpu (emulator)" in repr(module)


def test_contract_and_overlap_errors_on_the_emulator(cpu):
    module = cpu("saxpy")
    x = np.ones(64, np.float32)
    with pytest.raises(LaunchContractError, match="launch contract `domain` expects a 1-D launch"):
        module.saxpy[(1, 1), (64, 1)](1.0, x, x, np.zeros(64, np.float32))
    with pytest.raises(OverlapError, match="argument `out` overlaps argument `y`"):
        module.saxpy[1, 64](1.0, np.ones(64, np.float32), x, x)
    with pytest.raises(UncontractedLaunchError):
        cpu("vecadd").vecadd[1, 64](x, x, np.zeros(64, np.float32))


def test_views_of_one_buffer_that_do_not_overlap(cpu):
    module = cpu("saxpy")
    buf = module.to_device(np.arange(128, dtype=np.float32))
    module.saxpy[1, 64](1.0, buf[0:64], buf[0:64], buf[64:128])
    np.testing.assert_array_equal(buf.get()[64:], 2 * np.arange(64, dtype=np.float32))


def test_generic_kernels_and_row_widths_on_the_emulator(cpu):
    scale = cpu("scale_generic", instances={"scale": [["f32"], ["f64"], ["i32"]]})
    x = np.arange(10, dtype=np.int32)
    out = np.zeros(10, np.int32)
    scale.scale.unchecked[1, 32](x, 3, out)
    np.testing.assert_array_equal(out, 3 * x)
    stencil = cpu("stencil")
    grid = np.ones(12, np.float32)
    out = np.zeros(12, np.float32)
    stencil.stencil[(1, 1), (4, 4)](grid, 4, 3, RowWidth(out, 4))
    assert out.reshape(3, 4)[1, 1:3].tolist() == [1.0, 1.0] and out.reshape(3, 4)[0].tolist() == [0.0] * 4


def test_a_trap_on_the_emulator_names_the_kernel_and_leaves_it_usable(tmp_path):
    source = tmp_path / "trap.rs"
    source.write_text(TRAPPING)
    module = oxide.load(source, target="cpu")
    a = np.ones(32, np.float32)
    with pytest.raises(KernelFaultError, match=r"kernel `reads_past_the_end` \(emulator\): OutOfBounds") as info:
        module.reads_past_the_end[1, 32](a, np.zeros(32, np.float32))
    assert info.value.context_usable
    out = np.zeros(31, np.float32)
    module.reads_past_the_end[1, 32](a, out)  # in bounds now: the process and module still work
    assert out.tolist() == [1.0] * 31


def test_generic_kernels_without_instances_compile_on_first_use(cpu):
    module = cpu("scale_generic")
    x64 = np.arange(5, dtype=np.float64)
    out64 = np.zeros(5)
    module.scale.unchecked[1, 32](x64, 2.0, out64)
    x32 = np.arange(5, dtype=np.int32)
    out32 = np.zeros(5, np.int32)
    module.scale.unchecked[1, 32](x32, 3, out32)
    assert out64.tolist() == [0, 2, 4, 6, 8] and out32.tolist() == [0, 3, 6, 9, 12]
    assert sorted(module.scale.loaded) == [("f64",), ("i32",)]


@pytest.fixture(scope="module")
def contracted(tmp_path_factory):
    source = tmp_path_factory.mktemp("contracts") / "contracts.rs"
    source.write_text(SOURCE)
    return oxide.load(source, target="cpu")


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_every_contract_failure_on_the_emulator(contracted, case):
    _, launch, error, field, fragment = case
    check_case(contracted, launch, error, field, fragment)


def test_the_contracted_kernels_run_when_launched_correctly(contracted):
    x, out = contracted.to_device(np.full(128, 3.0, np.float32)), contracted.zeros(128, np.float32)
    contracted.scaled[1, 128](x, 100, 2.0, out)
    assert out.get().tolist() == [6.0] * 100 + [0.0] * 28
    shared_in, shared_out = contracted.to_device(np.full(4, 5.0, np.float32)), contracted.zeros(256, np.float32)
    contracted.two_d[(1, 1), (16, 16), None, 1024](shared_in, shared_out)
    assert shared_out.get().tolist() == [5.0] * 256
