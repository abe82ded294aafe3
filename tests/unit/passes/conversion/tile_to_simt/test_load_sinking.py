"""Load sinking (load_sinking.py): a read-only tile load moves down to its first use, past loads and work on
loaded data, but not past a store nor above a tile made from coordinates alone."""

from __future__ import annotations

from mlir import ir

from oxide.passes.conversion.tile_to_simt.load_sinking import sink_loads

from .harness import context, module_text

_ROW = "!tile.view<f32, array<i64: -1>>"
_PART = "!tile.partition<f32, array<i64: 64>>"


def _order(body: str, params: str) -> list[str]:
    """The kernel's ops after sink_loads, each named by its result's name in `body` (stores "store")."""
    names = [line.split("=")[0].strip() if "=" in line.split("(")[0] else "store"
             for line in body.splitlines()]
    text = module_text(f"""    gpu.func @k({params}) kernel attributes {{tile.warps = 1 : i32}} {{
{body}
      gpu.return
    }}""")
    with context(), ir.Location.unknown():
        module = ir.Module.parse(text)
        func = module.body.operations[0].regions[0].blocks[0].operations[0].operation
        block = func.regions[0].blocks[0]
        before = [op.operation for op in block.operations][:-1]
        sink_loads(func)
        after = [op.operation for op in block.operations][:-1]
        return [names[before.index(op)] for op in after]


def test_a_late_operand_is_loaded_after_the_work_before_its_use():
    # y = x * w + b: b is loaded after the product, w after x's load and before the product.
    body = f"""      %c0 = arith.constant 0 : i32
      %px = "tile.make_partition"(%x) : ({_ROW}) -> {_PART}
      %pw = "tile.make_partition"(%w) : ({_ROW}) -> {_PART}
      %pb = "tile.make_partition"(%b) : ({_ROW}) -> {_PART}
      %tx = "tile.load"(%px, %c0) : ({_PART}, i32) -> tensor<64xf32>
      %tw = "tile.load"(%pw, %c0) : ({_PART}, i32) -> tensor<64xf32>
      %tb = "tile.load"(%pb, %c0) : ({_PART}, i32) -> tensor<64xf32>
      %xw = arith.mulf %tx, %tw : tensor<64xf32>
      %y = arith.addf %xw, %tb : tensor<64xf32>
      "tile.store_own"(%z, %y) : (!tile.view_mut<f32, array<i64: 64>>, tensor<64xf32>) -> ()"""
    order = _order(body, f"%z: !tile.view_mut<f32, array<i64: 64>>, %x: {_ROW}, %w: {_ROW}, %b: {_ROW}")
    assert order.index("%tb") == order.index("%xw") + 1
    assert order.index("%tx") < order.index("%tw") < order.index("%xw")


def test_a_load_stays_above_a_store():
    body = f"""      %c0 = arith.constant 0 : i32
      %px = "tile.make_partition"(%x) : ({_ROW}) -> {_PART}
      %pb = "tile.make_partition"(%b) : ({_ROW}) -> {_PART}
      %tx = "tile.load"(%px, %c0) : ({_PART}, i32) -> tensor<64xf32>
      %tb = "tile.load"(%pb, %c0) : ({_PART}, i32) -> tensor<64xf32>
      "tile.store_own"(%z, %tx) : (!tile.view_mut<f32, array<i64: 64>>, tensor<64xf32>) -> ()
      %y = arith.addf %tb, %tb : tensor<64xf32>
      "tile.store_own"(%z, %y) : (!tile.view_mut<f32, array<i64: 64>>, tensor<64xf32>) -> ()"""
    order = _order(body, f"%z: !tile.view_mut<f32, array<i64: 64>>, %x: {_ROW}, %b: {_ROW}")
    assert order.index("%tb") < order.index("store")


def test_a_load_stays_above_a_tile_made_from_coordinates():
    # A column mask (iota < n) below the load stays below it: held across the load it cost registers.
    body = f"""      %c0 = arith.constant 0 : i32
      %px = "tile.make_partition"(%x) : ({_ROW}) -> {_PART}
      %tx = "tile.load"(%px, %c0) : ({_PART}, i32) -> tensor<64xf32>
      %cols = "tile.iota"() : () -> tensor<64xi32>
      %n = "tile.splat"(%c0) : (i32) -> tensor<64xi32>
      %in = arith.cmpi slt, %cols, %n : tensor<64xi32>
      %y = arith.select %in, %tx, %tx : tensor<64xi1>, tensor<64xf32>
      "tile.store_own"(%z, %y) : (!tile.view_mut<f32, array<i64: 64>>, tensor<64xf32>) -> ()"""
    order = _order(body, f"%z: !tile.view_mut<f32, array<i64: 64>>, %x: {_ROW}")
    assert order == ["%c0", "%px", "%tx", "%cols", "%n", "%in", "%y", "store"]
