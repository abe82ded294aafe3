"""Kernel parameters by value fit CUDA's parameter space (4,096 bytes, each ABI parameter at its alignment);
a larger one is refused before anything is expanded, so no array length can make the compiler loop for long
(issue 15: `[u32; 4294967296]` hung). The refusals themselves are in rejections/param_*.rs."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build

# 255 (u8, u64) pairs take 255 * 16 = 4,080 bytes (each u64 aligned to 8), the slice the last 16.
_FULL = """use cuda_device::kernel;
#[kernel]
pub unsafe fn k(a: [(u8, u64); 255], o: &mut [u32]) { o[0] = a[254].0 as u32; }
"""


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_a_full_parameter_space_compiles_and_assembles(tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(oxide.compile(_FULL, "k.rs").ptx["sm_90"])
    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)


def test_aligned_pairs_beyond_the_space_are_refused_at_the_parameter():
    # 257 pairs are 4,104 bytes unaligned, but each u64 starts 8-aligned: 4,112 bytes.
    with pytest.raises(OxideError, match=r"`a` of type `\[\(u8, u64\); 257\]` takes 4,112 bytes") as info:
        build(_FULL.replace("255", "257"))
    assert (info.value.diagnostics[0].loc.line, info.value.diagnostics[0].loc.col) == (3, 17)


def test_a_huge_array_of_zero_sized_elements_takes_no_parameters():
    src = """use cuda_device::kernel;
#[kernel]
pub unsafe fn k(z: [[u32; 0]; 2147483647], o: &mut [u32]) { o[0] = 1; }
"""
    (info,) = build(src).kernels
    assert [p.mlir_types for p in info.params] == [[], ["!simt.slice_mut<i32>"]]
