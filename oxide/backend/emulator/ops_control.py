"""Emulator rules for structured control flow (`scf`) and thread-local memory (`memref.alloca`).

Lanes diverge through masks: `scf.if` runs each branch for the lanes that take it (a branch no lane takes is
skipped) and merges yielded values by the condition; loops run while any lane is still iterating, with
per-lane exit values for the lanes that leave early. A uniform condition or trip count costs no merging.
A scalar local (`memref<T>`) is a Python variable holding a lane vector; a local array is a
(lanes, *shape) array written in place.
"""

from __future__ import annotations

from typing import Any

from mlir.dialects import memref, scf

from oxide.backend.emulator.emitter import (
    KernelEmitter,
    np_type,
    numpy_dtype,
)
from oxide.backend.emulator.rules import rule
from oxide.ir.rules import LoweringError


@rule(scf.IfOp)
def emit_if(em: KernelEmitter, op: Any) -> None:
    (cond,) = em.args(op)
    results = [em.result(op, k) for k in range(len(op.results))]
    for r in results:
        em.line(f"{r} = None")
    then_mask = em.fresh("m")
    em.line(f"{then_mask} = _v.narrow({em.mask}, {cond})")
    em.line(f"if {then_mask} is not None:")
    with em.nested(then_mask):
        for r, y in zip(results, em.block(op.regions[0].blocks[0])):
            em.line(f"{r} = {y}")
    if len(op.regions) > 1 and len(op.regions[1].blocks):
        else_mask = em.fresh("m")
        em.line(f"{else_mask} = _v.narrow_not({em.mask}, {cond})")
        em.line(f"if {else_mask} is not None:")
        with em.nested(else_mask):
            for r, y in zip(results, em.block(op.regions[1].blocks[0])):
                em.line(f"{r} = {y} if {r} is None else _v.select({cond}, {r}, {y})")


@rule(scf.ForOp)
def emit_for(em: KernelEmitter, op: Any) -> None:
    lower, upper, step, *inits = em.args(op)
    body = op.regions[0].blocks[0]
    iv = em.fresh("i")
    carried = [em.fresh("c") for _ in inits]
    em.line(f"{iv} = {lower}")
    for name, init in zip(carried, inits):
        em.line(f"{name} = {init}")
    active = em.fresh("m")
    em.line("while True:")
    em.depth += 1
    em.line(f"{active} = _v.narrow({em.mask}, {iv} < {upper})")
    em.line(f"if {active} is None:")
    em.line("    break")
    em.depth -= 1
    outer = em.mask
    with em.nested(active):
        yields = em.block(body, [iv] + carried)
        if carried:  # one parallel assignment: a yield may name another carried value's old value
            merged = ", ".join(f"_v.merge({active}, {outer}, {y}, {name})" for name, y in zip(carried, yields))
            em.line(f"{', '.join(carried)}, = ({merged},)")
        em.line(f"{iv} = {iv} + {step}")
    for k, name in enumerate(carried):
        em.bind(op.results[k], name)


@rule(scf.WhileOp)
def emit_while(em: KernelEmitter, op: Any) -> None:
    inits = em.args(op)
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carried = [em.fresh("c") for _ in inits]
    for name, init in zip(carried, inits):
        em.line(f"{name} = {init}")
    results = [em.result(op, k) for k in range(len(op.results))]
    for r in results:
        em.line(f"{r} = None")
    active = em.fresh("m")
    outer = em.mask
    em.line(f"{active} = {outer}")
    em.line("while True:")
    with em.nested(active):
        cond, *forwarded = em.block(before, carried)
        for r, value in zip(results, forwarded):
            em.line(f"{r} = _v.merge({active}, {outer}, {value}, {r})")
        em.line(f"{active} = _v.narrow({active}, {cond})")
        em.line(f"if {active} is None:")
        em.line("    break")
        yields = em.block(after, forwarded)
        if carried:  # one parallel assignment, as in scf.for
            em.line(f"{', '.join(carried)}, = ({', '.join(yields)},)")


@rule(scf.ExecuteRegionOp)
def emit_execute_region(em: KernelEmitter, op: Any) -> None:
    if len(op.regions[0].blocks) != 1:
        raise LoweringError("the emulator executes structured control flow only (one block per region)", op)
    for k, y in enumerate(em.block(op.regions[0].blocks[0])):
        em.bind(op.results[k], y)


@rule(memref.AllocaOp)
def emit_alloca(em: KernelEmitter, op: Any) -> None:
    memref = op.results[0].type
    text = str(memref)
    if "?" in text or len(op.operands):
        raise LoweringError(f"the emulator supports statically shaped locals only, not {text}", op)
    shape = [int(d) for d in text[len("memref<"):-1].split("x")[:-1]]
    element = text[len("memref<"):-1].split("x")[-1]
    if not shape:
        em.line(f"{em.result(op)} = {np_type(element, op)}(0)")
    else:
        dims = ", ".join(str(d) for d in shape)
        em.line(f"{em.result(op)} = np.zeros((c.lanes, {dims}), np.{numpy_dtype(element, op)})")


def _rank(op: Any, memref: Any) -> int:
    text = str(memref.type)
    if not text.startswith("memref<"):
        raise LoweringError(f"the emulator addresses local memrefs only, not {text}", op)
    return len(text[len("memref<"):-1].split("x")) - 1


@rule(memref.LoadOp)
def emit_load(em: KernelEmitter, op: Any) -> None:
    memref, *indices = em.args(op)
    if _rank(op, op.operands[0]) == 0:
        em.line(f"{em.result(op)} = {memref}")
    else:
        em.line(f"{em.result(op)} = _mem.local_load(c, {em.mask}, {memref}, ({', '.join(indices)},), "
                f"{em.loc(op)})")


@rule(memref.StoreOp)
def emit_store(em: KernelEmitter, op: Any) -> None:
    value, memref, *indices = em.args(op)
    if _rank(op, op.operands[1]) == 0:
        em.line(f"{memref} = _v.merge({em.mask}, m0, {value}, {memref})")
    else:
        em.line(f"_mem.local_store(c, {em.mask}, {memref}, ({', '.join(indices)},), {value}, {em.loc(op)})")


@rule(scf.IndexSwitchOp)
def emit_index_switch(em: KernelEmitter, op: Any) -> None:
    (selector,) = em.args(op)
    cases = [int(c) for c in str(op.attributes["cases"]).split(":")[1].strip().strip(">").split(",") if c.strip()]
    results = [em.result(op, k) for k in range(len(op.results))]
    for r in results:
        em.line(f"{r} = None")
    taken = []
    # Region 0 is the default; regions 1.. are the cases, in the order of `cases`.
    for value, region in [*zip(cases, list(op.regions)[1:]), (None, op.regions[0])]:
        cond = em.fresh("s")
        if value is None:
            em.line(f"{cond} = ~({' | '.join(taken)})" if taken else f"{cond} = np.bool_(True)")
        else:
            em.line(f"{cond} = {selector} == np.int64({value})")
            taken.append(cond)
        mask = em.fresh("m")
        em.line(f"{mask} = _v.narrow({em.mask}, {cond})")
        em.line(f"if {mask} is not None:")
        with em.nested(mask):
            for r, y in zip(results, em.block(region.blocks[0])):
                em.line(f"{r} = {y} if {r} is None else _v.select({cond}, {y}, {r})")
