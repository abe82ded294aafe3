"""Frontend tests of the TMA device functions (calls/tma.py): the simt ops each form emits, the tensor-map
parameter, every rejection with its location, and that ptxas assembles the PTX for sm_90a (multicast)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, ir

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
GPU_KERNEL = Path(__file__).resolve().parents[3] / "gpu" / "kernels" / "tma_copy.rs"

SETUP = ("static mut TILE: SharedArray<f32, 512, 128> = SharedArray::UNINIT;\n"
         "static mut BAR: Barrier = Barrier::UNINIT;\n")


def tma_kernel(body: str, params: str = "map: *const TmaDescriptor, x: i32, y: i32", unsafe: bool = True) -> str:
    return f"#[kernel]\npub {'unsafe ' if unsafe else ''}fn k({params}) {{\n{SETUP}{body}\n}}\n"


def assemble(src: str, tmp_path, chip: str = "sm_90a") -> str:
    ptx = oxide.compile(src, name="k.rs", chip=chip).ptx[chip]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", f"-arch={chip}", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return ptx


def test_load_of_every_rank_emits_tma_load():
    for rank in range(1, 6):
        coords = ", ".join(["x"] * rank)
        text = ir(tma_kernel(f"cp_async_bulk_tensor_{rank}d_g2s(&raw mut TILE as *mut u8, map, {coords}, &raw mut BAR);"))
        assert f"operandSegmentSizes = array<i32: 1, 1, {rank}, 1, 0>" in text and '"simt.tma_load"' in text


def test_store_takes_the_source_first():
    text = ir(tma_kernel("cp_async_bulk_tensor_3d_s2g(&raw const TILE as *const u8, map, x, y, x);"))
    assert '"simt.tma_store"(%arg0, %3, %arg1, %arg2, %arg1) : (!simt.tensor_map, !simt.ptr<i8, 3 : i64>, i32, i32, i32)' in text


def test_multicast_passes_the_mask():
    text = ir(tma_kernel("cp_async_bulk_tensor_2d_g2s_multicast(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR, 3);"))
    assert "operandSegmentSizes = array<i32: 1, 1, 2, 1, 1>" in text and "i16" in text


def test_groups_and_prefetch():
    text = ir(tma_kernel("cp_async_bulk_commit_group();\ncp_async_bulk_wait_group(2);\n"
                         "cp_async_bulk_wait_group_read::<0>();\nprefetch_tensormap(map);", unsafe=False))
    assert '"simt.bulk_commit_group"() : () -> ()' in text
    assert '{pending = 2 : i64, until = "complete"}' in text and '{pending = 0 : i64, until = "read"}' in text
    assert '"simt.tma_prefetch"' in text


def test_reference_parameter_is_the_same_tensor_map():
    text = ir(tma_kernel("prefetch_tensormap(map);", params="map: &TmaDescriptor", unsafe=False))
    assert "!simt.tensor_map" in text


@pytest.mark.parametrize("body, message", [
    ("cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, map, x, &raw mut BAR);",
     r"k.rs:5:1: .*`cp_async_bulk_tensor_2d_g2s` takes 5 arguments but 4 were supplied"),
    ("cp_async_bulk_tensor_1d_s2g(&raw const TILE as *const u8, map, x, y);",
     r"`cp_async_bulk_tensor_1d_s2g` takes 3 arguments but 4 were supplied"),
    ("cp_async_bulk_tensor_1d_g2s(out.as_ptr() as *mut u8, map, x, &raw mut BAR);",
     r"`cp_async_bulk_tensor_1d_g2s` takes the destination in shared memory; this is a global pointer"),
    ("cp_async_bulk_tensor_1d_g2s(&raw mut TILE as *mut u8, map, x, out.as_ptr() as *mut Barrier);",
     r"takes the barrier in shared memory; this is a global pointer"),
    ("cp_async_bulk_tensor_1d_g2s(&raw mut TILE as *mut u8, out.as_ptr() as *const u8, x, &raw mut BAR);",
     r"takes the tensor map as a `\*const TmaDescriptor` kernel parameter, not `\*const u8`"),
    ("cp_async_bulk_tensor_1d_g2s(&raw mut TILE as *mut u8, map, 1.5, &raw mut BAR);",
     r"mismatched types: expected `i32`"),
    ("cp_async_bulk_tensor_2d_g2s_multicast_cg2(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR, 3);",
     r"`cp_async_bulk_tensor_2d_g2s_multicast_cg2` .*needs sm_100"),
    ("cp_async_bulk_wait_group(x);", r"k.rs:5:26: error: expected a compile-time integer"),
    ("cp_async_bulk_wait_group(4294967296);", r"`cp_async_bulk_wait_group\(4294967296\)`: the number of pending groups "
                                               r"must be 0\.\.2147483647"),
    ("cp_async_bulk_commit_group(1);", r"`cp_async_bulk_commit_group` takes no arguments"),
    ("prefetch_tensormap(map, map);", r"`prefetch_tensormap` takes 1 argument but 2 were supplied"),
])
def test_rejections_are_located(body, message):
    src = tma_kernel(body, params="map: *const TmaDescriptor, x: i32, y: i32, out: &[f32]")
    with pytest.raises(OxideError, match=message):
        build(src)


def test_copies_need_unsafe():
    src = tma_kernel("cp_async_bulk_tensor_1d_g2s(&raw mut TILE as *mut u8, map, x, &raw mut BAR);", unsafe=False)
    with pytest.raises(OxideError, match=r"cp_async_bulk_tensor_1d_g2s.*unsafe"):
        build(src)


def test_mutable_descriptor_pointer_is_not_a_tensor_map():
    src = tma_kernel("prefetch_tensormap(map);", params="map: *mut TmaDescriptor")
    with pytest.raises(OxideError, match=r"takes the tensor map as a `\*const TmaDescriptor` kernel parameter, not "
                                         r"`\*mut TmaDescriptor`"):
        build(src)


def test_multicast_needs_sm90a():
    src = tma_kernel("cp_async_bulk_tensor_2d_g2s_multicast(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR, 3);")
    with pytest.raises(OxideError, match=r"k.rs:5:1: .*TMA multicast needs sm_90a; this build targets sm_90"):
        oxide.compile(src, name="k.rs", chip="sm_90")


def test_tma_needs_sm90():
    src = tma_kernel("cp_async_bulk_tensor_1d_g2s(&raw mut TILE as *mut u8, map, x, &raw mut BAR);")
    with pytest.raises(OxideError, match=r"needs sm_90 or newer, but the target is sm_80"):
        oxide.compile(src, name="k.rs", chip="sm_80")


@needs_ptxas
def test_tensor_map_parameter_is_a_grid_constant_param(tmp_path):
    body = ("cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR);\n"
            "cp_async_bulk_tensor_2d_g2s_multicast(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR, 3);\n"
            "cp_async_bulk_tensor_5d_s2g(&raw const TILE as *const u8, map, x, y, x, y, x);\n"
            "cp_async_bulk_commit_group();\ncp_async_bulk_wait_group_read(0);\nprefetch_tensormap(map);")
    ptx = assemble(tma_kernel(body), tmp_path)
    assert ".param .align 64 .b8 k_param_0[128]" in ptx and "cvta.param.u64" in ptx
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster" in ptx
    assert "cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group" in ptx
    assert "cp.async.bulk.wait_group.read \t0;" in ptx


@needs_ptxas
def test_gpu_test_kernel_assembles(tmp_path):
    ptx = assemble(GPU_KERNEL.read_text(), tmp_path)
    assert ptx.count(".b8 tma_box_param_") == 2
