"""tile.mma through convert-tile-to-simt for the GEMM shapes the Tile track targets: the K loop holds exactly
the planned ldmatrix and mma.sync ops (three per fragment for f32-accurate f32, 3xTF32) and two barriers
(stage, then read), the accumulator is carried in registers, and the PTX assembles with ptxas."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from mlir import ir

from oxide.passes.conversion.tile_to_simt import mma
from oxide.passes.conversion.tile_to_simt import mma_layouts as ml
from tests.unit.passes.conversion.tile_to_simt.harness import context, lower, module_text

# (M, N, K, warps, input, accumulator)
GEMMS = [
    (128, 128, 32, 8, "bf16", "f32"),
    (128, 128, 64, 8, "bf16", "f32"),
    (128, 128, 32, 4, "bf16", "f32"),
    (64, 64, 32, 4, "bf16", "f32"),
    (64, 64, 64, 4, "bf16", "f32"),
    (64, 64, 32, 4, "f16", "f32"),
    (64, 64, 32, 4, "f16", "f16"),
    (64, 64, 32, 4, "f32", "f32"),
    (128, 64, 32, 4, "f32", "f32"),
    (64, 64, 32, 4, "tf32", "f32"),
]


def tile_elem(ein: str) -> str:
    """The tile IR's element type of test input type `ein` ("tf32": f32 tiles whose mma has `tile.tf32`)."""
    return "f32" if ein == "tf32" else ein


def gemm(m: int, n: int, k: int, warps: int, ein: str, eacc: str) -> str:
    """C = A @ B over a K loop, one MxN tile of C per block (the GEMM example's tile IR); `ein` "tf32" is f32
    tiles whose mma asks for tf32 products."""
    attr = " {tile.tf32}" if ein == "tf32" else ""
    ein = tile_elem(ein)
    pa = f"!tile.partition<{ein}, array<i64: {m}, {k}>>"
    pb = f"!tile.partition<{ein}, array<i64: {k}, {n}>>"
    view = f"!tile.view<{ein}, array<i64: -1, -1>>"
    out = f"!tile.view_mut<{eacc}, array<i64: {m}, {n}>>"
    acc = f"tensor<{m}x{n}x{eacc}>"
    return f"""
    gpu.func @gemm(%c: {out}, %a: {view}, %b: {view}) kernel attributes {{tile.warps = {warps} : i32}} {{
      %bm = "tile.block_id"() {{axis = "x"}} : () -> i32
      %bn = "tile.block_id"() {{axis = "y"}} : () -> i32
      %pa = "tile.make_partition"(%a) : ({view}) -> {pa}
      %pb = "tile.make_partition"(%b) : ({view}) -> {pb}
      %nk = "tile.num_tiles"(%pa) {{axis = 1 : i64}} : ({pa}) -> i32
      %zero = arith.constant dense<0.0> : {acc}
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> ({acc}) : i32 {{
        %ta = "tile.load"(%pa, %bm, %k) : ({pa}, i32, i32) -> tensor<{m}x{k}x{ein}>
        %tb = "tile.load"(%pb, %k, %bn) : ({pb}, i32, i32) -> tensor<{k}x{n}x{ein}>
        %r = "tile.mma"(%ta, %tb, %acc0){attr} : (tensor<{m}x{k}x{ein}>, tensor<{k}x{n}x{ein}>, {acc}) -> {acc}
        scf.yield %r : {acc}
      }}
      "tile.store_own"(%c, %acc) : ({out}, {acc}) -> ()
      gpu.return
    }}"""


def _op_names(root: ir.Operation) -> list[str]:
    """The ops under `root` in program order (inline PTX by its template)."""
    names: list[str] = []

    def collect(op: ir.Operation) -> ir.WalkResult:
        names.append(op.name if op.name != "simt.inline_ptx" else ir.StringAttr(op.attributes["asm"]).value)
        return ir.WalkResult.ADVANCE

    root.walk(collect, ir.WalkOrder.PRE_ORDER)
    return names


def ops_in_k_loop(text: str) -> list[str]:
    """The ops inside the lowered kernel's K loop (the scf.for that holds mma.sync), in program order."""
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        loops: list[ir.Operation] = []

        def find(op: ir.Operation) -> ir.WalkResult:
            if op.name == "scf.for":
                loops.append(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(find, ir.WalkOrder.PRE_ORDER)
        return [names for names in map(_op_names, loops) if "nvvm.mma.sync" in names][-1]


@pytest.mark.parametrize("m,n,k,warps,ein,eacc", GEMMS)
def test_k_loop_runs_the_planned_tensor_core_ops(m, n, k, warps, ein, eacc):
    plan = ml.plan_mma([m, k], [k, n], tile_elem(ein), eacc, warps)
    # The synchronous staging: a loop whose loads tile-prefetch-loads moved one iteration ahead is not the
    # GEMM pattern the cp.async pipeline takes (test_mma_pipeline.py checks that one's K loop).
    text = lower(module_text(gemm(m, n, k, warps, ein, eacc)), "tile-prefetch-loads,convert-tile-to-simt")
    ops = ops_in_k_loop(text)
    fm, fn = plan.fragments
    products = 3 if ein == "f32" else 1  # 3xTF32: lo_a hi_b, hi_a lo_b, hi_a hi_b
    assert ops.count("nvvm.mma.sync") == products * fm * fn * plan.k_steps
    a_loads = sum(op.startswith("ldmatrix.sync.aligned.m8n8.x4.shared") for op in ops)
    b_loads = sum(".trans." in op for op in ops)
    assert a_loads == fm * plan.k_steps
    if tile_elem(ein) == "f32":
        assert b_loads == 0  # tf32 B fragments come from scalar shared loads
    else:
        assert b_loads == (fn // 2 if plan.b_pairs else fn) * plan.k_steps
    # Double-buffered staging (when two buffers fit) needs one barrier per iteration, between staging and
    # reading; single-buffered staging one more before staging (the previous iteration's readers are done).
    double = 2 * plan.shared_bytes <= mma.DOUBLE_BUFFER_BYTES
    assert ops.count("simt.sync_threads") == (1 if double else 2)
    # After the last mma.sync the loop only yields: the accumulator is not converted inside the loop.
    last = len(ops) - 1 - ops[::-1].index("nvvm.mma.sync")
    assert set(ops[last + 1:]) <= {"llvm.extractvalue", "vector.extract", "scf.yield"}


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("m,n,k,warps,ein,eacc", GEMMS)
def test_gemm_ptx_assembles(m, n, k, warps, ein, eacc, tmp_path):
    from oxide.backend import compile_to_ptx
    from oxide.target import Target

    with context(), ir.Location.unknown():
        module = ir.Module.parse(lower(module_text(gemm(m, n, k, warps, ein, eacc))))
        ptx = "\n".join(compile_to_ptx(module, Target("sm_90")).values())
    inputs = "tf32" if tile_elem(ein) == "f32" else ein
    shape = "m16n8k8" if inputs == "tf32" else "m16n8k16"
    assert f"mma.sync.aligned.{shape}.row.col.{eacc}.{inputs}.{inputs}.{eacc}" in ptx
    (tmp_path / "gemm.ptx").write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90", str(tmp_path / "gemm.ptx"), "-o", str(tmp_path / "gemm.cubin")],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
