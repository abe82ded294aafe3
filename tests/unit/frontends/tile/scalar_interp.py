"""A reference interpreter for the scalar part of tile IR (arith, scf, tile.splat/store_own/block_id), so
that tests check what the frontend's control flow computes, not only what it prints. A kernel's result is the
scalar each `tile.store_own` splats into the output (the tests store `broadcast_scalar(result, shape)`)."""

from __future__ import annotations

import math
from typing import Any

from mlir import ir

_CMPI = {0: lambda a, b: a == b, 1: lambda a, b: a != b, 2: lambda a, b: a < b, 3: lambda a, b: a <= b,
         4: lambda a, b: a > b, 5: lambda a, b: a >= b}
_CMPF = {1: lambda a, b: a == b, 2: lambda a, b: a > b, 3: lambda a, b: a >= b, 4: lambda a, b: a < b,
         5: lambda a, b: a <= b, 13: lambda a, b: a != b}


def _wrap(value: int, width: int) -> int:
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >= 1 << (width - 1) else value


def _width(value: ir.Value) -> int:
    return ir.IntegerType(value.type).width


class Interp:
    """Runs one gpu.func with scalar arguments and block ids; `stored` collects the stored splat values."""

    def __init__(self, block_id: tuple[int, int, int] = (0, 0, 0)):
        self.block_id = block_id
        self.stored: list[Any] = []
        self.env: dict[Any, Any] = {}

    def run_block(self, block: ir.Block, args: list[Any]) -> tuple[str, list[Any]]:
        for arg, value in zip(block.arguments, args):
            self.env[arg] = value
        for op in block.operations:
            if op.name in ("scf.yield", "scf.condition", "gpu.return"):
                return op.name, [self.env[v] for v in op.operands]
            self.step(op)
        raise AssertionError("block without a terminator")

    def step(self, op: ir.Operation) -> None:
        name, ins = op.name, [self.env.get(v) for v in op.operands]
        if name == "arith.constant":
            attr = op.attributes["value"]
            if isinstance(attr, ir.DenseElementsAttr):  # a splat tile: its one value stands for it
                attr = attr.get_splat_value()
            out = [ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else ir.IntegerAttr(attr).value]
        elif name in ("arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori"):
            a, b = ins
            value = {"addi": a + b, "subi": a - b, "muli": a * b, "andi": a & b, "ori": a | b, "xori": a ^ b}[name[6:]]
            out = [_wrap(value, _width(op.results[0]))]
        elif name in ("arith.divsi", "arith.remsi"):
            a, b = ins
            q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
            out = [q if name == "arith.divsi" else a - b * q]
        elif name in ("arith.addf", "arith.subf", "arith.mulf", "arith.divf"):
            a, b = ins
            out = [{"addf": a + b, "subf": a - b, "mulf": a * b, "divf": a / b}[name[6:]]]
        elif name == "arith.cmpi":
            out = [int(_CMPI[ir.IntegerAttr(op.attributes["predicate"]).value](*ins))]
        elif name == "arith.cmpf":
            out = [int(_CMPF[ir.IntegerAttr(op.attributes["predicate"]).value](*ins))]
        elif name == "arith.select":
            out = [ins[1] if ins[0] else ins[2]]
        elif name in ("arith.sitofp", "arith.uitofp", "arith.extf", "arith.truncf"):
            out = [float(ins[0])]
        elif name == "math.sqrt":
            out = [math.sqrt(ins[0])]
        elif name == "tile.block_id":
            out = [self.block_id["xyz".index(ir.StringAttr(op.attributes["axis"]).value)]]
        elif name == "tile.splat":
            out = [ins[0]]
        elif name == "tile.store_own":
            self.stored.append(ins[1])
            out = []
        elif name == "scf.for":
            lb, ub, step, *carried = ins
            body = op.regions[0].blocks[0]
            i = lb
            while i < ub:
                _, carried = self.run_block(body, [i] + carried)
                i += step
            out = carried
        elif name == "scf.if":
            region = op.regions[0] if ins[0] else op.regions[1]
            out = self.run_block(region.blocks[0], [])[1] if len(region.blocks) else []
        elif name == "scf.while":
            before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
            carried = ins
            while True:
                _, (go, *forwarded) = self.run_block(before, carried)
                if not go:
                    out = forwarded
                    break
                _, carried = self.run_block(after, forwarded)
        else:
            raise NotImplementedError(f"scalar_interp does not run {name}")
        for result, value in zip(op.results, out):
            self.env[result] = value


def run(module: Any, entry: str, args: list[Any], block_id: tuple[int, int, int] = (0, 0, 0)) -> list[Any]:
    """Run kernel `entry` of a frontend module; the stored values, in order."""
    with module.context:
        gpu_module = module.body.operations[0]
        func = next(op for op in gpu_module.regions[0].blocks[0].operations
                    if ir.StringAttr(op.attributes["sym_name"]).value == entry)
        interp = Interp(block_id)
        kind, _ = interp.run_block(func.regions[0].blocks[0], args)
        assert kind == "gpu.return"
        return interp.stored
