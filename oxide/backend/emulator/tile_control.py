"""Tile-kernel emulator rules for structured control flow (`scf`): plain Python control flow, because a
tile block's scalars (loop bounds, conditions) are uniform -- one tile block, no lanes to mask. Tiles travel
as loop-carried values and results like any other value."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import scf

from oxide.backend.emulator.ops_control import emit_execute_region
from oxide.backend.emulator.rules import tile_rule
from oxide.backend.emulator.tile_emitter import TileEmitter

tile_rule(scf.ExecuteRegionOp)(emit_execute_region)


@tile_rule(scf.IfOp)
def emit_if(em: TileEmitter, op: Any) -> None:
    (cond,) = em.args(op)
    results = [em.result(op, k) for k in range(len(op.results))]
    em.line(f"if {cond}:")
    with em.nested(em.mask):
        for r, y in zip(results, em.block(op.regions[0].blocks[0])):
            em.line(f"{r} = {y}")
    if len(op.regions) > 1 and len(op.regions[1].blocks):
        em.line("else:")
        with em.nested(em.mask):
            for r, y in zip(results, em.block(op.regions[1].blocks[0])):
                em.line(f"{r} = {y}")


@tile_rule(scf.ForOp)
def emit_for(em: TileEmitter, op: Any) -> None:
    lower, upper, step, *inits = em.args(op)
    iv = em.fresh("i")
    carried = [em.fresh("c") for _ in inits]
    em.line(f"{iv} = {lower}")
    for name, init in zip(carried, inits):
        em.line(f"{name} = {init}")
    em.line(f"while {iv} < {upper}:")
    with em.nested(em.mask):
        yields = em.block(op.regions[0].blocks[0], [iv] + carried)
        if carried:  # one parallel assignment: a yield may name another carried value's old value
            em.line(f"{', '.join(carried)}, = ({', '.join(yields)},)")
        em.line(f"{iv} = {iv} + {step}")
    for k, name in enumerate(carried):
        em.bind(op.results[k], name)


@tile_rule(scf.WhileOp)
def emit_while(em: TileEmitter, op: Any) -> None:
    inits = em.args(op)
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = [em.fresh("c") for _ in inits]
    for name, init in zip(carried, inits):
        em.line(f"{name} = {init}")
    results = [em.result(op, k) for k in range(len(op.results))]
    em.line("while True:")
    with em.nested(em.mask):
        cond, *forwarded = em.block(before, carried)
        for r, value in zip(results, forwarded):
            em.line(f"{r} = {value}")
        em.line(f"if not {cond}:")
        em.line("    break")
        yields = em.block(after, forwarded)
        if carried:  # one parallel assignment, as in scf.for
            em.line(f"{', '.join(carried)}, = ({', '.join(yields)},)")


@tile_rule(scf.IndexSwitchOp)
def emit_index_switch(em: TileEmitter, op: Any) -> None:
    (selector,) = em.args(op)
    cases = list(ir.DenseI64ArrayAttr(op.attributes["cases"]))
    results = [em.result(op, k) for k in range(len(op.results))]
    # Region 0 is the default; regions 1.. are the cases, in the order of `cases`.
    for k, (value, region) in enumerate(zip(cases, list(op.regions)[1:])):
        em.line(f"{'if' if k == 0 else 'elif'} {selector} == {value}:")
        with em.nested(em.mask):
            for r, y in zip(results, em.block(region.blocks[0])):
                em.line(f"{r} = {y}")
    em.line("else:" if cases else "if True:")
    with em.nested(em.mask):
        for r, y in zip(results, em.block(op.regions[0].blocks[0])):
            em.line(f"{r} = {y}")
