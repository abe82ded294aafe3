"""Frontend tests of clusters and grid groups (calls/cluster.py, calls/grid_groups.py): the simt ops they emit,
`#[cooperative_launch]` and its hidden workspace parameter, each rejection, and PTX that ptxas assembles for
sm_90a."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, ir, kernel

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")

COOPERATIVE = "#[kernel]\n#[cooperative_launch]\npub fn k({params}) {{\n{body}\n}}\n{extra}"
SHARED = "static mut S: SharedArray<u32, 1> = SharedArray::UNINIT;\n"


def cooperative(params: str, body: str, extra: str = "") -> str:
    return COOPERATIVE.format(params=params, body=body, extra=extra)


def test_the_split_cluster_barrier_emits_each_variant():
    body = ("unsafe {\ncluster::barrier_cluster_arrive();\ncluster::barrier_cluster_arrive_aligned();\n"
            "cluster::barrier_cluster_arrive_relaxed();\ncluster::barrier_cluster_arrive_relaxed_aligned();\n"
            "cluster::barrier_cluster_wait();\ncluster::barrier_cluster_wait_aligned();\n}")
    text = ir(kernel("", body))
    for relaxed, aligned in (("false", "false"), ("false", "true"), ("true", "false"), ("true", "true")):
        assert f'"simt.cluster_arrive"() {{aligned = {aligned}, relaxed = {relaxed}}}' in text
    assert '"simt.cluster_wait"() {aligned = false}' in text and '"simt.cluster_wait"() {aligned = true}' in text


def test_the_split_cluster_barrier_needs_unsafe():
    with pytest.raises(OxideError, match="barrier_cluster_arrive_relaxed.*unsafe"):
        build(kernel("", "cluster::barrier_cluster_arrive_relaxed();"))


def test_cluster_sync_and_this_cluster_sync_are_the_aligned_barrier():
    text = ir(kernel("", "cluster::cluster_sync();\nthis_cluster().sync();"))
    assert text.count('"simt.cluster_arrive"() {aligned = true, relaxed = false}') == 2
    assert text.count('"simt.cluster_wait"() {aligned = true}') == 2


def test_a_shared_pointer_maps_into_shared_cluster_memory():
    body = (SHARED + "unsafe {\nlet p = cluster::map_shared_rank(core::ptr::addr_of!(S) as *const u32, 1);\n"
            "let q = cluster::map_shared_rank_mut(core::ptr::addr_of_mut!(S) as *mut u32, 0);\n*q = *p;\n"
            "let v = cluster::dsmem_read_u32(core::ptr::addr_of!(S) as *const u32, 1);\n}")
    text = ir(kernel("", body))
    assert text.count("-> !simt.ptr<i32, 7 : i64>") == 3
    assert '"simt.ptr_load"' in text and '"simt.ptr_store"' in text and "simt.inline_ptx" not in text


def test_map_shared_rank_needs_unsafe_and_a_shared_or_generic_pointer():
    with pytest.raises(OxideError, match="`cluster::map_shared_rank` .*unsafe"):
        build(kernel("", SHARED + "let p = cluster::map_shared_rank(core::ptr::addr_of!(S) as *const u32, 1);"))
    with pytest.raises(OxideError, match="`map_shared_rank` takes a pointer to a shared variable .*not `u32`"):
        build(kernel("x: u32", "let p = unsafe { cluster::map_shared_rank(x, 1) };"))


def test_dsmem_read_u32_reads_a_u32():
    with pytest.raises(OxideError, match="`dsmem_read_u32` reads a `u32`, but the pointer is `\\*const f32`"):
        build(kernel("", "static mut F: SharedArray<f32, 1> = SharedArray::UNINIT;\n"
                         "let v = unsafe { cluster::dsmem_read_u32(core::ptr::addr_of!(F) as *const f32, 1) };"))


def test_a_cooperative_kernel_takes_the_workspace_last_and_syncs_on_it():
    result = build(cooperative("n: u32", "grid::sync();\nthis_grid().sync();"))
    text = str(result.module)
    assert "simt.cooperative" in text and "%arg1: !simt.ptr<i32, 1 : i64>" in text
    assert text.count('"simt.grid_sync"(%arg1)') == 2
    (info,) = result.kernels
    assert info.cooperative and [p.name for p in info.params] == ["n"]


def test_grid_sync_in_a_device_function_uses_the_kernels_workspace():
    helper = "#[device]\nfn phase() {\ngrid::sync();\n}\n"
    assert '"simt.grid_sync"' in ir(cooperative("", "phase();", helper))
    with pytest.raises(OxideError, match=r"`grid::sync\(\)` in `phase`, inlined into kernel `k`, needs a cooperative "
                                         r"launch .* add #\[cooperative_launch\] to kernel `k`"):
        build(kernel("", "phase();", helper))


def test_this_grid_sync_without_the_attribute_is_a_located_error():
    with pytest.raises(OxideError, match=r"add #\[cooperative_launch\] to kernel `k`") as info:
        build(kernel("", "let g = this_grid();\ng.sync();"))
    assert (info.value.diagnostics[0].loc.line, info.value.diagnostics[0].loc.col) == (4, 1)


def test_cooperative_launch_takes_no_arguments():
    with pytest.raises(OxideError, match=r"#\[cooperative_launch\] takes no arguments"):
        build("#[kernel]\n#[cooperative_launch(2)]\npub fn k() {}\n")


def test_grid_and_cluster_queries_need_no_cooperative_launch():
    body = ("let g = this_grid();\nlet c = this_cluster();\n"
            "let r = g.thread_rank() + g.size() + g.num_blocks() + g.block_rank() + c.thread_rank() + c.size()"
            " + c.num_blocks() + c.block_rank();\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = r; }")
    text = ir(kernel("mut out: DisjointSlice<u32>", body))
    assert 'reg = "cluster_ctarank"' in text and 'reg = "cluster_nctarank"' in text and "simt.grid_dim" in text


@needs_ptxas
def test_cluster_and_grid_kernels_assemble_for_sm90a(tmp_path):
    src = cooperative("mut out: DisjointSlice<u32>",
                      "let g = this_grid();\nlet r = g.thread_rank();\ngrid::sync();\n"
                      "if let Some(o) = out.get_mut(thread::index_1d()) { *o = r + g.size(); }",
                      "#[kernel]\n#[cluster_launch(2, 1, 1)]\npub unsafe fn c(mut out: DisjointSlice<u32>) {\n" + SHARED
                      + "*(core::ptr::addr_of_mut!(S) as *mut u32) = cluster::block_rank();\ncluster::cluster_sync();\n"
                      "let other = (cluster::block_rank() + 1) % cluster::cluster_size();\n"
                      "let v = cluster::dsmem_read_u32(core::ptr::addr_of!(S) as *const u32, other);\n"
                      "cluster::barrier_cluster_arrive_relaxed_aligned();\ncluster::barrier_cluster_wait_aligned();\n"
                      "if let Some(o) = out.get_mut(thread::index_1d()) { *o = v; }\n}\n")
    ptx = oxide.compile(src, name="k.rs", chip="sm_90a").ptx["sm_90a"]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "ld.acquire.gpu.global.b32" in ptx and "mapa.shared::cluster.u64" in ptx
    assert "ld.shared::cluster.b32" in ptx and "barrier.cluster.arrive.relaxed.aligned;" in ptx
