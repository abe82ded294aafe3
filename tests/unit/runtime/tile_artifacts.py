"""Hand-made tile kernel artifacts for the runtime tests: the signature from the kernel's MLIR parameter
types (as the frontend reports them), the emulator program from hand-written tile IR, and PTX whose entry
declares the contract ABI (an empty body for the fake driver; for tests/gpu, the hand-written kernels in
tests/fixtures/tile_runtime/, which `write_gpu_fixtures` turns into artifacts there)."""

from __future__ import annotations

from pathlib import Path

from oxide.runtime.artifact import Artifact
from oxide.runtime.signature import KernelSpec, param_spec
from tests.unit.runtime.emulator.tile.helpers import module, out, part, program, tensor, view

# add(z: &mut Tensor<f32, {[128]}>, x: &Tensor<f32, {[-1]}>, y: &Tensor<f32, {[-1]}>): z = x + y * s
ADD_PARAMS = [("z", "&mut Tensor<f32, {[128]}>", out("f32", 128)), ("x", "&Tensor<f32, {[-1]}>", view("f32", -1)),
              ("y", "&Tensor<f32, {[-1]}>", view("f32", -1)), ("s", "f32", "f32")]
ADD_BODY = f"""
      %bid = "tile.block_id"() {{axis = "x"}} : () -> i32
      %px = "tile.make_partition"(%x) : ({view('f32', -1)}) -> {part('f32', 128)}
      %py = "tile.make_partition"(%y) : ({view('f32', -1)}) -> {part('f32', 128)}
      %a = "tile.load"(%px, %bid) : ({part('f32', 128)}, i32) -> {tensor('f32', 128)}
      %b = "tile.load"(%py, %bid) : ({part('f32', 128)}, i32) -> {tensor('f32', 128)}
      %t = "tile.splat"(%s) : (f32) -> {tensor('f32', 128)}
      %m = arith.mulf %b, %t : {tensor('f32', 128)}
      %c = arith.addf %a, %m : {tensor('f32', 128)}
      "tile.store_own"(%z, %c) : ({out('f32', 128)}, {tensor('f32', 128)}) -> ()"""

# rowsum(z: &mut Tensor<f32, {[4, 1]}>, w: &mut Tensor<f32, {[4, 8]}>, x: &Tensor<f32, {[-1, 8]}>):
# z = row sums of x, w = x * 2 (two outputs that must share a grid)
ROWSUM_PARAMS = [("z", "&mut Tensor<f32, {[4, 1]}>", out("f32", 4, 1)),
                 ("w", "&mut Tensor<f32, {[4, 8]}>", out("f32", 4, 8)),
                 ("x", "&Tensor<f32, {[-1, 8]}>", view("f32", -1, 8))]
ROWSUM_BODY = f"""
      %bid = "tile.block_id"() {{axis = "x"}} : () -> i32
      %c0 = arith.constant 0 : i32
      %px = "tile.make_partition"(%x) : ({view('f32', -1, 8)}) -> {part('f32', 4, 8)}
      %a = "tile.load"(%px, %bid, %c0) : ({part('f32', 4, 8)}, i32, i32) -> {tensor('f32', 4, 8)}
      %s = "tile.reduce"(%a) {{dim = 1 : i64, kind = "sum", unsigned = 0 : i64}} : ({tensor('f32', 4, 8)}) -> {tensor('f32', 4)}
      %r = "tile.reshape"(%s) : ({tensor('f32', 4)}) -> {tensor('f32', 4, 1)}
      "tile.store_own"(%z, %r) : ({out('f32', 4, 1)}, {tensor('f32', 4, 1)}) -> ()
      %d = arith.addf %a, %a : {tensor('f32', 4, 8)}
      "tile.store_own"(%w, %d) : ({out('f32', 4, 8)}, {tensor('f32', 4, 8)}) -> ()"""

# bump(counts: *mut i32, idx: &Tensor<i32, {[8]}>): counts[idx[i]] += 1 (an unsafe kernel, no output)
BUMP_PARAMS = [("counts", "*mut i32", "!tile.ptr<i32>"), ("idx", "&Tensor<i32, {[8]}>", view("i32", 8))]
BUMP_BODY = f"""
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%idx) : ({view('i32', 8)}) -> {part('i32', 8)}
      %off = "tile.load"(%p, %c0) : ({part('i32', 8)}, i32) -> tensor<8xi32>
      %one = arith.constant dense<1> : tensor<8xi32>
      %all = arith.constant dense<true> : tensor<8xi1>
      %old = "tile.atomic_rmw"(%counts, %off, %one, %all) {{kind = "add"}} : (!tile.ptr<i32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi1>) -> tensor<8xi32>"""

KERNELS = {"add": (ADD_PARAMS, ADD_BODY), "rowsum": (ROWSUM_PARAMS, ROWSUM_BODY), "bump": (BUMP_PARAMS, BUMP_BODY)}
_PTX_TYPES = {"u64": ".u64", "i64": ".u64", "f32": ".f32", "i32": ".u32", "u32": ".u32"}


def spec(name: str, warps: int = 4) -> KernelSpec:
    """The signature of hand-made kernel `name`."""
    params, _ = KERNELS[name]
    return KernelSpec(name, name, [param_spec(p, rust, [mlir]) for p, rust, mlir in params], tile={"warps": warps})


def _ptx(kernel: KernelSpec) -> str:
    entries = [f".param {_PTX_TYPES[a]} {kernel.entry}_param_{k}"
               for k, a in enumerate(a for p in kernel.params for a in p.abi)]
    return f".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry {kernel.entry}(\n  " \
           + ",\n  ".join(entries) + "\n)\n{\n  ret;\n}\n"


def write(directory: Path, name: str, warps: int = 4, ptx: str | None = None) -> Path:
    """Write the artifact of hand-made kernel `name` into `directory` (with `ptx`, else an empty-bodied
    entry); its JSON path."""
    params, body = KERNELS[name]
    text = module(", ".join(f"%{p}: {mlir}" for p, _, mlir in params), body, name, warps)
    kernel = spec(name, warps)
    return Artifact(name, [kernel], {"sm_90": ptx or _ptx(kernel)}, program(text)).write(directory)


GPU_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "tile_runtime"
GPU_WARPS = {"add": 4, "rowsum": 1, "bump": 4}  # the block sizes the hand-written PTX assumes


def write_gpu_fixtures(directory: Path = GPU_FIXTURES) -> list[Path]:
    """(Re)write the artifacts of tests/gpu/test_tile_runtime.py around the hand-written PTX in GPU_FIXTURES."""
    return [write(directory, name, warps, (GPU_FIXTURES / f"{name}.sm_90.ptx").read_text(encoding="utf-8"))
            for name, warps in GPU_WARPS.items()]
