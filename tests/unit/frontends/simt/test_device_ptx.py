"""Frontend tests of the device functions that become PTX instructions (intrinsics/ptx_fns.py, warp_partial.py,
cooperative.py): the simt IR they emit and, since the point is the instruction, that ptxas assembles the PTX
for sm_90."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, ir, kernel

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")


def assemble(src: str, tmp_path) -> str:
    """The PTX of `src`, after checking that ptxas accepts it."""
    ptx = oxide.compile(src, name="k.rs").ptx["sm_90"]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return ptx


def unsafe_kernel(params: str, body: str) -> str:
    return f"#[kernel]\npub unsafe fn k({params}) {{\n{body}\n}}\n"


# Dot products and packed halves -------------------------------------------------------------------------------
def test_dp4a_and_dp2a_are_one_instruction():
    text = ir(kernel("a: u32, b: u32, c: i32, u: u32, mut out: DisjointSlice<i32>",
                     "let x = dp4a_s32(a, b, c);\nlet y = dp4a_u32(a, b, u);\nlet z = dp2a_s32(a, b, c);"))
    assert 'asm = "dp4a.s32.s32 $0, $1, $2, $3;"' in text and 'constraints = "=r,r,r,r"' in text
    assert 'asm = "dp4a.u32.u32' in text and 'asm = "dp2a.lo.s32.s32' in text


def test_dp4a_argument_types_are_checked():
    with pytest.raises(OxideError, match="mismatched types: expected `i32`, found `u32`"):
        build(kernel("a: u32, b: u32, c: u32", "let x = dp4a_s32(a, b, c);"))


def test_packing_conversion_puts_the_first_value_in_the_low_half():
    # PTX's cvt.*x2.f32 d, a, b stores a in the upper half: the operands are swapped.
    text = ir(kernel("lo: f32, hi: f32", "let w = cvt_f16x2_f32(lo, hi);\nlet b = cvt_rz_bf16x2_f32(lo, hi);"))
    assert 'asm = "cvt.rn.f16x2.f32 $0, $2, $1;"' in text and 'asm = "cvt.rz.bf16x2.f32 $0, $2, $1;"' in text


def test_bf16_unpacking_is_exact_shifts():
    text = ir(kernel("w: u32", "let (lo, hi) = cvt_f32x2_bf16x2(w);\nlet h = cvt_f32_bf16x2_hi(w);"))
    assert "arith.shli" in text and "arith.constant -65536 : i32" in text and "simt.inline_ptx" not in text


def test_tcgen05_cvt_f32x2_bf16x2_with_two_floats_packs():
    assert 'asm = "cvt.rn.bf16x2.f32 $0, $2, $1;"' in ir(kernel("a: f32", "let w = cvt_f32x2_bf16x2(a, 4.0);"))


@needs_ptxas
def test_packed_half_arithmetic_assembles(tmp_path):
    body = ("let a = cvt_f16x2_f32(x, y);\nlet b = cvt_rn_bf16x2_f32(x, y);\n"
            "let r = fma_relu_f16x2(add_f16x2(a, a), mul_f16x2(a, a), neg_f16x2(a));\n"
            "let s = fma_bf16x2(max_bf16x2(b, b), abs_bf16x2(b), sub_bf16x2(b, b));\n"
            "let (f, g) = cvt_f32x2_f16x2(r);\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = f + g + cvt_f32_f16x2_hi(s) + cvt_f32_bf16x2_lo(s); }")
    ptx = assemble(kernel("x: f32, y: f32, mut out: DisjointSlice<f32>", body), tmp_path)
    assert "fma.rn.relu.f16x2" in ptx and "fma.rn.bf16x2" in ptx and "cvt.f32.f16" in ptx


# Async copies and mbarriers ----------------------------------------------------------------------------------------
_CP_ASYNC = ("static mut SMEM: SharedArray<u32, 32> = SharedArray::UNINIT;\n"
             "static mut BAR: Barrier = Barrier::UNINIT;\n"
             "let dst = (core::ptr::addr_of_mut!(SMEM) as *mut u32).add(1);\n"
             "let src = input.as_ptr();\n"
             "cp_async_ca_4(dst, src);\ncp_async_cg_zfill_16(dst, src.cast(), 3);\ncp_async_commit_group();\n"
             "cp_async_wait_group(0);\ncp_async_wait_all();\n"
             "mbarrier_init(&raw mut BAR, 32);\ncp_async_mbarrier_arrive_noinc(&raw mut BAR);\n"
             "let token = mbarrier_arrive(&raw const BAR);\nmbarrier_wait(&raw const BAR, token);\n"
             "let done = mbarrier_test_wait(&raw const BAR, token);\nmbarrier_inval(&raw mut BAR);\n"
             "fence_proxy_async_shared_cta();")


def test_cp_async_and_mbarrier_ir():
    text = ir(unsafe_kernel("input: &[u32]", _CP_ASYNC))
    assert 'asm = "cp.async.ca.shared.global [$0], [$1], 4;"' in text
    assert 'constraints = "l,l,r,~{memory}"' in text  # zfill: the source size is a register
    assert 'asm = "cp.async.wait_group 0;"' in text
    assert '"simt.mbarrier_arrive"(%' in text and '"simt.mbarrier_wait"(%' in text  # typed ops, not inline PTX
    assert "{align = 8 : i64} : () -> !simt.shared<i64, 1 : i64>" in text  # a Barrier: one aligned u64 in shared memory


@needs_ptxas
def test_cp_async_and_mbarrier_assemble(tmp_path):
    ptx = assemble(unsafe_kernel("input: &[u32]", _CP_ASYNC), tmp_path)
    assert "cp.async.ca.shared.global" in ptx and "mbarrier.try_wait.shared.b64" in ptx


def test_cp_async_needs_unsafe():
    with pytest.raises(OxideError, match="`cp_async_commit_group` is unsafe"):
        build(kernel("", "cp_async_commit_group();"))


def test_cp_async_checks_the_state_spaces():
    with pytest.raises(OxideError, match="takes a pointer into shared memory; this one is a global pointer"):
        build(unsafe_kernel("input: &[u32]", "cp_async_ca_4(input.as_ptr(), input.as_ptr());"))


# Debugging ----------------------------------------------------------------------------------------------------
@needs_ptxas
def test_breakpoint_prof_trigger_and_nanosleep(tmp_path):
    ptx = assemble(kernel("n: u32", "debug::breakpoint();\ndebug::prof_trigger::<3>();\nnanosleep(n);"), tmp_path)
    assert "brkpt;" in ptx and "pmevent 3;" in ptx and "nanosleep.u32" in ptx


def test_prof_trigger_range_is_checked():
    with pytest.raises(OxideError, match=r"`prof_trigger::<16>`: the performance-monitor event is 0..=15"):
        build(kernel("", "debug::prof_trigger::<16>();"))


# Partial warp reductions --------------------------------------------------------------------------------------
def test_partial_reduction_masks_the_live_lanes():
    text = ir(kernel("x: f32, mut out: DisjointSlice<f32>",
                     "let t = warp::reduce_sum_f32_partial(x, warp::live_lanes_1d());"))
    # Five clamped index shuffles and one broadcast from lane 0, all under the live-lane mask.
    assert text.count('"simt.shuffle"') == 6 and 'kind = "idx"' in text and 'kind = "xor"' not in text
    assert text.count("arith.addf") == 5 and text.count("arith.minui") >= 6


@needs_ptxas
def test_partial_reductions_assemble(tmp_path):
    body = ("let n = warp::live_lanes_1d();\nlet a = warp::reduce_max_f32_partial(x, n);\n"
            "let b = warp::reduce_min_f64_partial(x as f64, n);\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = a + b as f32; }")
    ptx = assemble(kernel("x: f32, mut out: DisjointSlice<f32>", body), tmp_path)
    assert "shfl.sync.idx.b32" in ptx and "max.f32" in ptx


# Cooperative groups -------------------------------------------------------------------------------------------
def test_tile_ballot_is_tile_relative():
    text = ir(kernel("mut out: DisjointSlice<u32>",
                     "let tile = this_thread_block().tiled_partition::<16>();\nlet m = tile.ballot(true);\n"
                     "let r = tile.thread_rank();"))
    # The tile's member mask 0xffff << base, and the ballot shifted back down by the base lane.
    assert '"simt.ballot"' in text and "arith.constant 65535 : i32" in text and "arith.shrui" in text


def test_full_warp_tile_uses_the_full_mask():
    text = ir(kernel("v: u32", "let w = this_thread_block().tiled_partition::<32>();\nlet x = w.shfl(v, 0);"))
    assert "arith.constant -1 : i32" in text and "width = 32" in text and "arith.shrui" not in text


@needs_ptxas
def test_cooperative_groups_assemble(tmp_path):
    body = ("let block = this_thread_block();\nlet tile = block.tiled_partition::<8>();\n"
            "block.sync();\ntile.sync();\nlet lane = tile.thread_rank();\n"
            "let a = tile.shfl_xor(v, 1) + tile.shfl_down(v, 2) + tile.shfl_up(v, 1) + tile.shfl(v, 0);\n"
            "let b = tile.ballot(v > 3) + tile.match_any(v) + tile.meta_group_rank() + block.size();\n"
            "let c = tile.shfl_xor_f32(v as f32, 4);\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = a + b + lane + c as u32 + (tile.any(v == 0) as u32); }")
    ptx = assemble(kernel("v: u32, mut out: DisjointSlice<u32>", body), tmp_path)
    assert "shfl.sync.bfly.b32" in ptx and "vote.sync.ballot.b32" in ptx and "match.any.sync.b32" in ptx


def test_tiled_partition_size_is_checked():
    with pytest.raises(OxideError, match=r"`tiled_partition::<12>`: a warp tile has 1, 2, 4, 8, 16 or 32 threads"):
        build(kernel("", "let t = this_thread_block().tiled_partition::<12>();"))


# ptx_asm! ---------------------------------------------------------------------------------------------------
def test_ptx_asm_renumbers_operands_for_llvm():
    body = ("let x = 3u32;\nlet mut acc = 1u64;\nlet doubled: u32;\n"
            "unsafe { ptx_asm!(\"add.u32 %1, %0, %0; add.u64 %2, %2, 5; mov.u32 %%r0, %1;\", in(\"r\") x, "
            "out(\"=r\") doubled, inout(\"+l\") acc, clobber(\"memory\"), options(register_only)); }")
    text = ir(kernel("", body))
    # Outputs first ($0 doubled, $1 acc), then inputs ($2 x), then acc's tied input.
    assert 'asm = "add.u32 $0, $2, $2; add.u64 $1, $1, 5; mov.u32 %r0, $0;"' in text
    assert 'constraints = "=r,=l,r,1,~{memory}"' in text


def test_ptx_asm_splices_constant_strings():
    body = ('const MODE: &[u8; 6] = b".wide\\0";\nlet p: u64;\nlet x = 2u32;\n'
            'unsafe { ptx_asm!("mul%1.u32 %0, %2, %2;", out("=l") p, in("C") MODE, in("r") x); }')
    assert 'asm = "mul.wide.u32 $0, $1, $1;"' in ir(kernel("", body))


@needs_ptxas
def test_ptx_asm_assembles_with_mixed_outputs(tmp_path):
    body = ("let mut c = 1u32;\nlet mut s = 0.5f32;\nlet w: u64;\n"
            "unsafe { ptx_asm!(\"add.u32 %0, %0, 1; add.f32 %1, %1, %3; mov.u64 %2, %%globaltimer;\", "
            "inout(\"+r\") c, inout(\"+f\") s, out(\"=l\") w, in(\"f\") 0.25f32); }\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = c as f32 + s + w as f32; }")
    ptx = assemble(kernel("mut out: DisjointSlice<f32>", body), tmp_path)
    assert "mov.u64" in ptx and "%globaltimer" in ptx


def test_ptx_asm_checks_register_classes():
    with pytest.raises(OxideError, match="a `r` register does not hold a `u64`"):
        build(kernel("", "let x: u64;\nunsafe { ptx_asm!(\"mov.u32 %0, 1;\", out(\"=r\") x); }"))


def test_ptx_asm_operand_numbers_are_checked():
    with pytest.raises(OxideError, match="`%3` in the PTX text names no operand"):
        build(kernel("", "let x: u32;\nunsafe { ptx_asm!(\"mov.u32 %0, %3;\", out(\"=r\") x); }"))


# Clusters and constant memory ---------------------------------------------------------------------------------
@needs_ptxas
def test_cluster_functions_assemble(tmp_path):
    src = ("#[kernel]\n#[cluster_launch(4, 1, 1)]\npub unsafe fn k(mut out: DisjointSlice<u32>) {\n"
           "static mut S: SharedArray<u32, 1> = SharedArray::UNINIT;\n"
           "let r = cluster::block_rank() + cluster::cluster_size() + cluster::cluster_ctaidX() + cluster::cluster_idx()"
           " + cluster::num_clusters();\ncluster::cluster_sync();\n"
           "let v = cluster::dsmem_read_u32(core::ptr::addr_of!(S) as *const u32, 0);\n"
           "let p = cluster::map_shared_rank(core::ptr::addr_of!(S) as *const u32, 1);\n"
           "if let Some(o) = out.get_mut(thread::index_1d()) { *o = r + v + *p; }\n}\n")
    ptx = assemble(src, tmp_path)
    assert ".reqnctapercluster 4, 1, 1" in ptx and "%cluster_ctarank" in ptx and "mapa.shared::cluster.u64" in ptx
    assert "barrier.cluster.arrive.aligned;" in ptx and "%nclusterid.y" in ptx


def test_cluster_registers_need_sm90():
    src = kernel("mut out: DisjointSlice<u32>", "let r = cluster::block_rank();")
    with pytest.raises(OxideError, match="needs sm_90 or newer"):
        oxide.compile(src, name="k.rs", chip="sm_80")


def test_cluster_launch_dims_are_checked():
    src = "#[kernel]\n#[cluster_launch(4, 4, 1)]\npub fn k(n: u32) {}\n"
    with pytest.raises(OxideError, match="at most 8 blocks"):
        oxide.compile(src, name="k.rs")


_CONSTANTS = ("#[constant]\nstatic SCALE: ConstantMemory<f32> = ConstantMemory::UNINIT;\n"
              "#[constant]\nstatic COEFFS: ConstantMemory<[u32; 4]> = ConstantMemory::UNINIT;\n")


def test_constant_memory_is_an_external_global():
    text = ir(_CONSTANTS + kernel("mut out: DisjointSlice<f32>",
                                  "let s = SCALE.get();\nlet c = COEFFS.get();\nlet t = SCALE.get() + c[1] as f32;"))
    # Declared once, externally visible and not `constant`: the host writes it, loads must stay loads.
    assert text.count("llvm.mlir.global external @SCALE(0.000000e+00 : f32) {addr_space = 4 : i32} : f32") == 1
    assert "llvm.mlir.global external @COEFFS(dense<0> : tensor<4xi32>) {addr_space = 4 : i32} : !llvm.array<4 x i32>" in text
    assert text.count('"simt.constant_addr"() {symbol = "SCALE"}') == 2


@needs_ptxas
def test_constant_memory_loads_are_not_folded(tmp_path):
    src = _CONSTANTS + kernel("mut out: DisjointSlice<f32>",
                              "let c = COEFFS.get();\nif let Some(o) = out.get_mut(thread::index_1d()) "
                              "{ *o = SCALE.get() * c[3] as f32; }")
    ptx = assemble(src, tmp_path)
    assert ".visible .const .align 4 .f32 SCALE;" in ptx and "ld.const.b32" in ptx and "[COEFFS+12]" in ptx


def test_constant_memory_of_a_nested_array_is_rejected():
    src = "#[constant]\nstatic M: ConstantMemory<[[f32; 2]; 2]> = ConstantMemory::UNINIT;\n" + kernel("", "let m = M.get();")
    with pytest.raises(OxideError, match=r"`ConstantMemory<\[\[f32; 2\]; 2\]>` is not supported"):
        build(src)


# core::intrinsics atomics and ldmatrix --------------------------------------------------------------------------
def test_core_intrinsic_atomics_are_system_scope():
    body = ("let p = c.as_ptr() as *mut u32;\n"
            "let v = unsafe { core::intrinsics::atomic_load::<u32, { core::intrinsics::AtomicOrdering::Acquire }>(p) };\n"
            "unsafe { core::intrinsics::atomic_store::<u32, { core::intrinsics::AtomicOrdering::Release }>(p, v) };\n"
            "let (o, ok) = unsafe { core::intrinsics::atomic_cxchg::<u32, { core::intrinsics::AtomicOrdering::Release },"
            " { core::intrinsics::AtomicOrdering::Acquire }>(p, v, v + 1) };\n"
            "let w = unsafe { core::intrinsics::atomic_xadd::<u32, { core::intrinsics::AtomicOrdering::Relaxed }>(p, 1) };")
    text = ir(kernel("c: &[u32]", body))
    assert 'ordering = "acquire", scope = "system"' in text and 'ordering = "release", scope = "system"' in text
    assert 'failure_ordering = "acquire", scope = "system", success_ordering = "release"' in text
    assert 'kind = "add", ordering = "relaxed", scope = "system"' in text


def test_core_intrinsic_atomic_pointer_type_is_checked():
    body = ("let p = c.as_ptr() as *mut u32;\n"
            "let v = unsafe { core::intrinsics::atomic_load::<u64, { core::intrinsics::AtomicOrdering::Acquire }>(p) };")
    with pytest.raises(OxideError, match=r"`atomic_load` takes a `\*mut u64`, not `\*mut u32`"):
        build(kernel("c: &[u32]", body))


@needs_ptxas
def test_ldmatrix_returns_the_fragments(tmp_path):
    body = ("static mut M: SharedArray<u32, 128, 16> = SharedArray::UNINIT;\n"
            "let p = (core::ptr::addr_of_mut!(M) as *mut u32).add(warp::lane_id() as usize * 4);\n"
            "let a = ldmatrix_x1(p.cast_const());\nlet b = ldmatrix_x4_trans(p.cast_const());\n"
            "let c = ldmatrix_m8n8_x2_b16(p.cast_const());\n"
            "if let Some(o) = out.get_mut(thread::index_1d()) { *o = a + b[3] + c[1]; }")
    ptx = assemble(unsafe_kernel("mut out: DisjointSlice<u32>", body), tmp_path)
    assert "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in ptx and "ldmatrix.sync.aligned.m8n8.x1.shared.b16" in ptx


@needs_ptxas
def test_rows_of_a_disjoint_slice_are_strided_by_the_row_size(tmp_path):
    body = ("if let Some(row) = out.get_mut(thread::index_1d()) {\nrow[0] = 1;\nrow[6] = 2;\n}")
    ptx = assemble(kernel("mut out: DisjointSlice<[u32; 7]>", body), tmp_path)
    assert "28" in ptx and "[%rd" in ptx and "+24]" in ptx  # 7 x 4-byte rows; element 6 at byte 24


@needs_ptxas
def test_tma_tile_copy_with_expect_tx(tmp_path):
    body = ("static mut TILE: SharedArray<f32, 256, 128> = SharedArray::UNINIT;\n"
            "static mut BAR: Barrier = Barrier::UNINIT;\n"
            "mbarrier_init(&raw mut BAR, 1);\nfence_proxy_async_shared_cta();\n"
            "cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, map, x, y, &raw mut BAR);\n"
            "let token = mbarrier_arrive_expect_tx(&raw const BAR, 1, 1024);\n"
            "while !mbarrier_try_wait(&raw const BAR, token) {}\n"
            "cp_async_bulk_tensor_2d_s2g(&raw const TILE as *const u8, map, x, y);\ncp_async_bulk_commit_group();")
    ptx = assemble(unsafe_kernel("map: *const TmaDescriptor, x: i32, y: i32", body), tmp_path)
    assert "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes" in ptx
    assert "mbarrier.arrive.expect_tx.shared.b64" in ptx and "cp.async.bulk.tensor.2d.global.shared::cta" in ptx


@needs_ptxas
def test_f16_atomics(tmp_path):
    body = ("let cell = unsafe { &*(h.as_ptr() as *const DeviceAtomicF16) };\n"
            "let a = cell.fetch_add(1.0f16, AtomicOrdering::Relaxed);\nlet b = cell.swap(a, AtomicOrdering::AcqRel);\n"
            "let c = cell.load(AtomicOrdering::Acquire);\ncell.store(c + b, AtomicOrdering::Release);")
    ptx = assemble(kernel("h: &[f16]", body), tmp_path)
    assert "atom.relaxed.gpu.global.add.noftz.f16" in ptx and "atom.acq_rel.gpu.global.cas.b16" in ptx


@needs_ptxas
def test_managed_barrier_typestate(tmp_path):
    body = ("static mut BAR: Barrier = Barrier::UNINIT;\n"
            "let bar = ManagedBarrier::<Uninit, TmaBarrier>::from_static(&raw mut BAR);\n"
            "let bar = unsafe { bar.init(32) };\nlet t = bar.arrive();\nbar.wait(t);\n"
            "let done = bar.try_wait(t);\nlet _dead = unsafe { bar.inval() };")
    ptx = assemble(kernel("", body), tmp_path)
    assert "mbarrier.init.shared.b64" in ptx and "fence.proxy.async.shared::cta;" in ptx
    assert "mbarrier.inval.shared.b64" in ptx


def test_managed_barrier_wrong_state_is_a_type_error():
    body = ("static mut BAR: Barrier = Barrier::UNINIT;\n"
            "let bar = ManagedBarrier::<Uninit, GeneralBarrier>::from_static(&raw mut BAR);\nlet t = bar.arrive();")
    with pytest.raises(OxideError, match=r"`arrive` needs a `ManagedBarrier<Ready, _>`; this one is "
                                         r"`ManagedBarrier<Uninit, GeneralBarrier>`"):
        build(kernel("", body))


def test_ptr_copy_is_a_memmove():
    text = ir(unsafe_kernel("p: *mut i32, n: usize", "core::ptr::copy(p, p.add(1), n);"))
    # Destination above the source: copy from the last element down; else upward.
    # One loop; its index runs down (last - i) when the destination lies above the source.
    assert '"simt.ptr_to_int"' in text and "arith.cmpi ugt" in text and "arith.select" in text
    assert "arith.subi" in text


@needs_ptxas
def test_mutable_pointers_and_pointer_valued_branches(tmp_path):
    body = ("let mut q = p;\nlet mut i = 0usize;\nwhile i < n { q = q.add(1); i += 1; }\n"
            "let r = if c { q } else { p };\nlet z: *const f32 = core::ptr::null();\n"
            "out[0] = *r + (z.is_null() as u32) as f32;")
    text = ir(unsafe_kernel("p: *const f32, n: usize, c: bool, out: &mut [f32]", body))
    # The pointer cell holds the generic address; it reads back as a generic pointer.
    assert "memref<i64>" in text and '"simt.int_to_ptr"' in text and "!simt.ptr<f32, 0 : i64>" in text
    assemble(unsafe_kernel("p: *const f32, n: usize, c: bool, out: &mut [f32]", body), tmp_path)


def test_null_needs_a_pointee_type():
    with pytest.raises(OxideError, match=r"cannot infer the pointee type of `ptr::null\(\)`"):
        build(unsafe_kernel("", "let z = core::ptr::null();"))
