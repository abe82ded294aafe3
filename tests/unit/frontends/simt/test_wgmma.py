"""cuda_device::wgmma in the SIMT frontend: the accepted forms emit the typed simt warpgroup ops, the PTX of
every input type and several N assembles for sm_90a, the accumulator of a K loop stays in registers, sm_90 is
a located error, and the emulator runs these kernels."""

from __future__ import annotations

import re
import subprocess

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import ir
from tests.unit.frontends.simt.test_device_ptx import needs_ptxas

_HEAD = "use cuda_device::{kernel, thread, DisjointSlice};\nuse cuda_device::shared::SharedArray;\nuse cuda_device::wgmma::*;\n"


def _mma_kernel(n: int, kind: str, k: int, acc: str, extra: str = "") -> str:
    return _HEAD + f"""
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<f32>) {{
    static mut A: SharedArray<u8, 8192, 128> = SharedArray::UNINIT;
    static mut B: SharedArray<u8, 32768, 128> = SharedArray::UNINIT;
    let mut acc: {acc} = [0.0f32; {n // 2}];
    unsafe {{
        let da = make_smem_desc_swizzle_128b(&raw const A as *const u8, 16, 1024);
        let db = make_smem_desc_swizzle_128b(&raw const B as *const u8, 16, 1024);
        wgmma_fence();
        wgmma_mma_m64n{n}k{k}_f32_{kind}(&mut acc, da, db{extra});
        wgmma_commit_group();
        wgmma_wait_group::<0>();
    }}
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {{
        *o = acc[0] + acc[{n // 2 - 1}];
    }}
}}
"""


_K_LOOP = _HEAD + """
#[kernel]
pub unsafe fn gemm(mut out: DisjointSlice<f32>, k_tiles: u32) {
    static mut A: SharedArray<u8, 8192, 128> = SharedArray::UNINIT;
    static mut B: SharedArray<u8, 32768, 128> = SharedArray::UNINIT;
    let mut acc: [[f32; 8]; 16] = [[0.0f32; 8]; 16];
    let mut t = 0u32;
    while t < k_tiles {
        unsafe {
            let da = make_smem_desc_swizzle_128b(&raw const A as *const u8, 16, 1024) + (t as u64) * 2;
            let db = make_smem_desc_swizzle_128b(&raw const B as *const u8, 16, 1024) + (t as u64) * 2;
            wgmma_fence();
            wgmma_mma_m64n256k16_f32_bf16(&mut acc, da, db);
            wgmma_commit_group();
            wgmma_wait_group::<0>();
        }
        t += 1;
    }
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = acc[0][0] + acc[7][3] + acc[15][7];
    }
}
"""


def _assemble(src: str, tmp_path) -> str:
    ptx = oxide.compile(src, name="k.rs", chip="sm_90a").ptx["sm_90a"]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return ptx


_CASES = [(64, "bf16", 16, "[f32; 32]"), (128, "bf16", 16, "[[f32; 8]; 8]"), (256, "bf16", 16, "[[f32; 8]; 16]"),
          (64, "f16", 16, "Acc64x64"), (128, "f16", 16, "[f32; 64]"), (64, "tf32", 8, "[f32; 32]"),
          (256, "tf32", 8, "[f32; 128]"), (64, "e4m3", 32, "[f32; 32]"), (128, "e4m3", 32, "[f32; 64]"),
          (64, "e5m2", 32, "[f32; 32]"), (256, "e5m2", 32, "[f32; 128]"), (8, "bf16", 16, "[f32; 4]"),
          (24, "f16", 16, "[f32; 12]")]


def _kernel_for(n: int, kind: str, k: int, acc: str, extra: str = "") -> str:
    src = _mma_kernel(n, kind, k, acc, extra)
    if acc.startswith("[["):  # a nested accumulator: initialise it with a nested repeat
        src = src.replace(f"[0.0f32; {n // 2}]", f"[[0.0f32; 8]; {n // 16}]").replace(
            f"acc[0] + acc[{n // 2 - 1}]", f"acc[0][0] + acc[{n // 16 - 1}][7]")
    if acc == "Acc64x64":
        src = src.replace("[0.0f32; 32]", "zero_accumulator()").replace("acc[0] + acc[31]", "acc[0][0] + acc[3][7]")
    return src


@pytest.mark.parametrize("n,kind,k,acc", _CASES, ids=[f"m64n{c[0]}k{c[2]}_{c[1]}" for c in _CASES])
def test_the_mma_is_one_typed_op(n, kind, k, acc):
    text = ir(_kernel_for(n, kind, k, acc))
    op = re.search(r'"simt.wgmma_mma_async"\(.*', text).group(0)
    assert f"n = {n} : i64" in op and f"k = {k} : i64" in op and f'input = "{kind}"' in op
    assert op.count("f32, ") >= n // 2 and 'scale_d = "accumulate"' in op
    assert '"simt.wgmma_fence"' in text and '"simt.wgmma_commit_group"' in text
    assert '"simt.wgmma_wait_group"() {pending = 0 : i64}' in text
    assert 'swizzle = "128B"' in text and "stride_byte_offset = 1024" in text


@needs_ptxas
@pytest.mark.parametrize("n,kind,k,acc", _CASES, ids=[f"m64n{c[0]}k{c[2]}_{c[1]}" for c in _CASES])
def test_the_mma_assembles_for_sm_90a(n, kind, k, acc, tmp_path):
    ptx = _assemble(_kernel_for(n, kind, k, acc), tmp_path)
    assert f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.f32.{kind}.{kind}" in ptx
    assert ".local" not in ptx


def test_the_overwrite_form():
    text = ir(_mma_kernel(64, "bf16", 16, "[f32; 32]", ", false"))
    assert 'scale_d = "overwrite"' in text


@needs_ptxas
def test_the_k_loop_accumulator_stays_in_registers(tmp_path):
    ptx = _assemble(_K_LOOP, tmp_path)
    assert "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" in ptx
    # 128 accumulator registers per thread and not one local-memory access for them.
    assert ".local" not in ptx and "ld.local" not in ptx and "st.local" not in ptx


def test_make_smem_desc_keeps_cuda_oxides_encoding():
    src = _HEAD + """
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<u64>) {
    static mut SMEM: SharedArray<u8, 256, 128> = SharedArray::UNINIT;
    let d = unsafe { make_smem_desc(&raw const SMEM as *const u8) };
    let c = unsafe { make_smem_desc_custom(&raw const SMEM as *const u8, 64, 512, false) };
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = d ^ c;
    }
}
"""
    text = ir(src)
    assert ('{base_offset = 0 : i64, leading_byte_offset = 128 : i64, stride_byte_offset = 128 : i64, '
            'swizzle = "32B"}') in text
    assert 'leading_byte_offset = 64 : i64, stride_byte_offset = 512 : i64, swizzle = "none"' in text


@pytest.mark.parametrize("name,mode", [("none", "none"), ("32b", "32B"), ("64b", "64B"), ("128b", "128B")])
def test_the_typed_descriptor_names_its_swizzle(name, mode):
    src = _HEAD + f"""
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<u64>) {{
    static mut SMEM: SharedArray<u8, 256, 128> = SharedArray::UNINIT;
    let d = unsafe {{ make_smem_desc_swizzle_{name}(&raw const SMEM as *const u8, 32, 256) }};
    if let Some(o) = out.get_mut(thread::index_1d()) {{
        *o = d;
    }}
}}
"""
    assert f'stride_byte_offset = 256 : i64, swizzle = "{mode}"' in ir(src)


def test_setmaxnreg():
    src = _HEAD + """
#[kernel]
pub unsafe fn k() {
    if thread::threadIdx_x() < 128 {
        unsafe { setmaxnreg_dec::<40>(); }
    } else {
        unsafe { setmaxnreg_inc::<232>(); }
    }
}
"""
    text = ir(src)
    assert '"simt.setmaxnreg"() {action = "dec", regs = 40 : i64}' in text
    assert '"simt.setmaxnreg"() {action = "inc", regs = 232 : i64}' in text


def test_sm_90_is_a_located_error():
    with pytest.raises(OxideError) as caught:
        oxide.compile(_mma_kernel(64, "bf16", 16, "[f32; 32]"), name="k.rs", chip="sm_90")
    message = "error: wgmma needs sm_90a; this build targets sm_90 (compile with --chip sm_90a)"
    # The fence, the MMA, the commit and the wait each say so at their call.
    for line in (13, 14, 15, 16):
        assert f"k.rs:{line}:9: {message}" in str(caught.value)


def test_the_emulator_runs_wgmma_kernels():
    # The numerics against numpy are tests/unit/runtime/emulator/test_wgmma_kernels.py; here: zeroed shared
    # memory multiplies to a zero accumulator.
    from oxide.runtime.emulator import launch

    module = oxide.compile(_mma_kernel(64, "bf16", 16, "[f32; 32]"), name="k.rs", chip="sm_90a")
    out = np.ones(128, np.float32)
    launch(module.emulator, "k", (1, 1, 1), (128, 1, 1), [out])
    assert not out.any()
