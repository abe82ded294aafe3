"""The GPU side of the tile lowering without a GPU: kernels that the emulator tests check numerically also
go through the whole tile-to-ptx path, and ptxas assembles their PTX for sm_90 (vector accesses, 8/16/64-bit
shuffles, shared-memory exchanges, atomics, loops)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from mlir import ir

from oxide.backend import compile_to_ptx
from oxide.passes.pipeline import build_pass_manager
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, tensor, unary_kernel
from tests.unit.passes.conversion.tile_to_simt.test_numeric import _norm_kernel, _reduce, _softmax_kernel


def _scan(shape, elem):
    body = (f'      %r = "tile.scan"(%a) {{dim = 1 : i64, kind = "sum", reverse = 1 : i64, unsigned = false}} : '
            f'({tensor(shape, elem)}) -> {tensor(shape, elem)}')
    return unary_kernel(shape, shape, body, elem)


def _shapes():
    body = f"""      %t = "tile.permute"(%a) {{perm = array<i64: 1, 0>}} : ({tensor([16, 32])}) -> {tensor([32, 16])}
      %c1 = arith.constant 1 : i32
      %c0 = arith.constant 0 : i32
      %e = "tile.extract"(%t, %c1, %c0) : ({tensor([32, 16])}, i32, i32) -> {tensor([16, 16])}
      %r = "tile.cat"(%e, %e) {{dim = 1 : i64}} : ({tensor([16, 16])}, {tensor([16, 16])}) -> {tensor([16, 32])}"""
    return unary_kernel([16, 32], [16, 32], body)


def _atomics():
    t, tb = tensor([64], "i32"), tensor([64], "i1")
    return module_text(f"""    gpu.func @hist(%out: !tile.ptr<i32>, %x: !tile.view<i32, array<i64: -1>>) kernel attributes {{tile.warps = 4 : i32}} {{
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<i32, array<i64: -1>>) -> !tile.partition<i32, array<i64: 64>>
      %a = "tile.load"(%p, %c0) : (!tile.partition<i32, array<i64: 64>>, i32) -> {t}
      %ones = arith.constant dense<1> : {t}
      %all = arith.constant dense<true> : {tb}
      %old = "tile.atomic_rmw"(%out, %a, %ones, %all) {{kind = "add"}} : (!tile.ptr<i32>, {t}, {t}, {tb}) -> {t}
      gpu.return
    }}""")


KERNELS = {
    "softmax_16x64_w8": lambda: _softmax_kernel(16, 64, 8),
    "softmax_4x1024": lambda: _softmax_kernel(4, 1024, 4),
    "layernorm": lambda: _norm_kernel(2, 1024, 4, False),
    "rmsnorm": lambda: _norm_kernel(4, 64, 1, True),
    "reduce_f16": lambda: _reduce((4, 256), 1, "max", "f16")[0],
    "reduce_i8": lambda: _reduce((4, 256), 1, "sum", "i8")[0],
    "reduce_f64_dim0": lambda: _reduce((256, 4), 0, "sum", "f64")[0],
    "scan_i64": lambda: _scan((4, 256), "i64"),
    "scan_f16": lambda: _scan((2, 512), "f16"),
    "shapes": _shapes,
    "atomics": _atomics,
}


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_ptxas_assembles_the_lowered_kernel(name, tmp_path):
    with context(), ir.Location.unknown():
        module = ir.Module.parse(KERNELS[name]())
        build_pass_manager("builtin.module(convert-tile-to-simt)").run(module.operation)
        ptx = "\n".join(compile_to_ptx(module, Target("sm_90")).values())
    path = tmp_path / f"{name}.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / f"{name}.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
