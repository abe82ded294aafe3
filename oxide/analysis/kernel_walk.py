"""One abstract walk of a simt kernel: which values are affine in the thread index, which are the same for
every thread (uniform), under which path conditions each op runs, and where the barriers are.

The frontends emit structured control flow only (DESIGN.md), so the walk follows `scf.if`, `scf.for`,
`scf.while` and `scf.execute_region` in program order, keeping scalar locals (rank-0 `memref.alloca`) as
abstract values. What it records (`KernelFacts`):
- every shared-memory access with its index expression, path condition and barrier interval;
- every block barrier and warp collective with the path condition it runs under.
The checks (shared_races.py, convergence.py) read those facts; nothing here reports.

Abstract values: an `Affine` for integers the walk can follow; a `Cond` for i1 values; otherwise one of
`UNIFORM` (same for the whole block), `WARP_UNIFORM` (same within each warp) or `VARYING`. An integer that is
uniform but not affine (a kernel parameter, a loaded value, a product of two symbols) becomes a fresh symbol.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, func, gpu, memref, scf

from oxide.analysis.affine import Affine, All, AnyOf, Cmp, Cond, Const, Opaque, negate
from oxide.analysis.kernel_facts import (
    BLOCK_BARRIERS, UNIFORM, VARYING, WARP_UNIFORM, AbsVal, GuardedEvent, KernelFacts, SharedAccess, Symbol,
    is_uniform, kernel_block, value_rank,
)
from oxide.analysis.nested import nested_ops
from oxide.dialects import simt
from oxide.ir.diagnostics import source_loc
from oxide.ir.rules import OpSet, RuleSet, is_op
from oxide.ir.declare import int_value

# Loop counters with more values than this are treated as unknown symbols (the race search samples them).
_MAX_ENUMERATED = 4096
_CMP = {"eq": "eq", "ne": "ne", "slt": "lt", "ult": "lt", "sle": "le", "ule": "le", "sgt": "gt", "ugt": "gt",
        "sge": "ge", "uge": "ge"}
_CMPI_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_PASS_THROUGH = OpSet(arith.IndexCastOp, arith.IndexCastUIOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp)
_WARP_COLLECTIVES = OpSet(simt.ShuffleOp, simt.VoteOp, simt.BallotOp, simt.MatchAnyOp, simt.MatchAllOp, simt.ReduxOp)
# Ops whose results differ per thread whatever their operands.
_THREAD_VARYING = OpSet(simt.SpecialRegOp, simt.AtomicRmwOp, simt.AtomicCmpxchgOp, simt.AtomicLoadOp,
                        simt.Index1DOp, simt.Index1DU32Op, simt.Index2DOp, simt.Index2DRuntimeOp, simt.WarpIndexOp,
                        simt.GetMutOp, simt.GetUncheckedMutOp, simt.ElectOp, simt.ActiveMaskOp)
_TERMINATORS = OpSet(scf.YieldOp, scf.ConditionOp, gpu.ReturnOp, func.ReturnOp)
# The walk's own rules: an op without one is walked generically (its regions, then its results' ranks by its
# operands'), so the missing-rule error is never raised.
WALK_RULES = RuleSet("the kernel walk", "the kernel walk has no rule for `{op}`")
on = WALK_RULES.lowering


def _array_name(location: ir.Location, number: int) -> str:
    """`shared array `S`` when the frontend named the declaration (a NameLoc), else its position."""
    if location.is_a_name():
        return f"shared array `{location.name_str}`"
    loc = source_loc(location)
    return f"the shared array declared at {loc}" if loc else f"shared array #{number}"


def _dim(op: Any) -> str:
    return str(op.attributes["dim"]).split('"')[1]


def _int_attr(op: Any, name: str) -> int:
    return int_value(op.attributes[name])


def _is_int(t: ir.Type) -> bool:
    return isinstance(t, (ir.IntegerType, ir.IndexType))


def _is_bool(t: ir.Type) -> bool:
    return isinstance(t, ir.IntegerType) and t.width == 1


class KernelWalk:
    """Walks one `gpu.func` kernel and fills a KernelFacts."""

    def __init__(self, func: Any):
        self.func = func
        name = ir.StringAttr(func.attributes["sym_name"]).value
        self.facts = KernelFacts(name, kernel_block(func))
        self.values: dict[Any, AbsVal] = {}
        self.locals: dict[Any, AbsVal] = {}
        self.arrays: dict[Any, str] = {}
        self.guards: list[Cond] = []
        self.loops: list[int] = []
        self.interval = 0
        self.warp_interval = 0
        self.recording = True
        self._counter = 0
        self._loop_counter = 0

    def run(self) -> KernelFacts:
        """Walk the kernel body once and return the facts."""
        body = self.func.regions[0].blocks[0]
        for arg in body.arguments:
            self.values[arg] = self._fresh(arg.type, "a kernel parameter")
        self._block(body)
        return self.facts

    def _fresh(self, t: ir.Type, describe: str, values: tuple[int, ...] | None = None) -> AbsVal:
        """A new uniform value of type `t`: a symbol for integers."""
        if _is_bool(t):
            return Opaque(True)
        if _is_int(t):
            self._counter += 1
            name = f"s{self._counter}"
            self.facts.symbols[name] = Symbol(name, describe, values, tuple(self.loops))
            return Affine.of(name)
        return UNIFORM

    def _of_rank(self, t: ir.Type, rank: int, describe: str) -> AbsVal:
        if rank == 2:
            return self._fresh(t, describe)
        if _is_bool(t):
            return Opaque(False, warp_uniform=rank == 1)
        return WARP_UNIFORM if rank == 1 else VARYING

    def get(self, value: Any) -> AbsVal:
        return self.values.get(value, VARYING)

    def _join(self, a: AbsVal, b: AbsVal, cond: AbsVal, t: ir.Type | None) -> AbsVal:
        if a == b:
            return a
        rank = min(value_rank(a), value_rank(b), value_rank(cond))
        if t is None:  # a local: its kind is that of the values stored in it
            if isinstance(a, Affine) or isinstance(b, Affine):
                t = ir.IndexType.get()
            elif not isinstance(a, str):
                t = ir.IntegerType.get_signless(1)
            else:
                return UNIFORM if rank == 2 else WARP_UNIFORM if rank == 1 else VARYING
        return self._of_rank(t, rank, "a value chosen by a branch")

    def _block(self, block: Any) -> list[AbsVal]:
        """Walk the ops of a block; return the abstract values of its terminator's operands."""
        yielded: list[AbsVal] = []
        for op in block.operations:
            if op in _TERMINATORS:
                yielded = [self.get(v) for v in op.operands]
                continue
            self._op(op)
        return yielded

    def _op(self, op: Any) -> None:
        handler = WALK_RULES.rule_for(op)
        if handler is not None:
            handler(self, op)
            return
        if op.regions:
            for region in op.regions:
                for block in region.blocks:
                    self._block(block)
        self._generic(op)

    def _generic(self, op: Any) -> None:
        name = op.operation.name
        collective = op in _WARP_COLLECTIVES
        if collective:
            mask = self.get(op.operands[0])
            full = isinstance(mask, Affine) and mask.is_constant and (mask.const & 0xFFFFFFFF) == 0xFFFFFFFF
            self._record_event(self.facts.warp_ops, op, full)
        rank = 0 if op in _THREAD_VARYING or collective else min(
            [value_rank(self.get(v)) for v in op.operands] or [2])
        if collective and not is_op(op, simt.ShuffleOp):
            rank = 1  # a vote, ballot, match or redux gives every lane of the warp the same answer
        for result in op.results:
            self.values[result] = self._of_rank(result.type, rank, f"the result of {name}")

    def _record_event(self, into: list[GuardedEvent], op: Any, full_mask: bool = False) -> None:
        if self.recording:
            into.append(GuardedEvent(op.operation.name, op.location, All(tuple(self.guards)), full_mask))

    def _affine_binary(self, op: Any, combine: Any) -> None:
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        out = combine(a, b) if isinstance(a, Affine) and isinstance(b, Affine) else None
        if out is None:
            self._generic(op)
        else:
            self.values[op.results[0]] = out

    def _rows_whole_warps(self) -> bool:
        block = self.facts.block
        return block is None or block[0] % 32 == 0

    def _shared_access(self, op: Any, write: bool) -> None:
        array, index = op.operands[0], op.operands[1]
        value = self.get(index)
        if self.recording:
            self.facts.accesses.append(SharedAccess(
                array, self.arrays.get(array, "a shared array"), write,
                value if isinstance(value, Affine) else None, All(tuple(self.guards)), op.location,
                self.interval, self.warp_interval, tuple(self.loops)))

    def _enter_loop(self, op: Any, carried_init: list[AbsVal], carried_types: list[ir.Type],
                    walk: Any) -> list[AbsVal]:
        """Walk a loop body until it is known which locals and carried values stay uniform across
        iterations, then once more recording facts. `walk(carried)` walks one iteration and returns the
        carried values it yields."""
        self._loop_counter += 1
        loop = self._loop_counter
        has_barrier = any(inner in BLOCK_BARRIERS for inner in nested_ops(op))
        if not has_barrier:
            self.facts.barrier_free_loops.add(loop)
        modified = self._modified_locals(op)
        entry_locals = dict(self.locals)
        varying = {ref for ref in modified if not is_uniform(entry_locals.get(ref, VARYING))}
        carried_varying = [not is_uniform(v) for v in carried_init]
        recording = self.recording
        self.loops.append(loop)

        def iteration(record: bool) -> list[AbsVal]:
            self.recording = record
            self.locals = dict(entry_locals)
            for ref in modified:
                self.locals[ref] = VARYING if ref in varying else UNIFORM
            carried = [self._of_rank(t, 0 if v else 2, "a loop-carried value")
                       for t, v in zip(carried_types, carried_varying)]
            return walk(carried)

        for _ in range(3):
            yielded = iteration(False)
            newly = {ref for ref in modified - varying if not is_uniform(self.locals.get(ref, VARYING))}
            grown = [i for i, v in enumerate(yielded[:len(carried_varying)])
                     if not carried_varying[i] and not is_uniform(v)]
            varying |= newly
            for i in grown:
                carried_varying[i] = True
            if not newly and not grown:
                break
        if has_barrier and recording:
            # The first iteration's head follows the code before the loop; each later head follows the
            # previous iteration's tail: both pairs run between the same two barriers.
            before = self.interval
            self.interval += 1
            self.warp_interval += 1
            head = self.interval
            self.facts.links.append((before, head, loop))
            iteration(True)
            self.facts.links.append((self.interval, head, loop))
        else:
            iteration(recording)
        self.loops.pop()
        self.recording = recording
        self.locals = dict(entry_locals)
        for ref in modified:
            self.locals[ref] = VARYING if ref in varying else UNIFORM
        return [self._of_rank(t, 0 if v else 2, "a loop result") for t, v in zip(carried_types, carried_varying)]

    def _modified_locals(self, op: Any) -> set[Any]:
        return {inner.operands[1] for inner in nested_ops(op)
                if is_op(inner, memref.StoreOp) and inner.operands[1] in self.locals}


# --- arith --------------------------------------------------------------------------------------

@on(arith.ConstantOp)
def _walk_constant(w: KernelWalk, op: Any) -> None:
    result = op.results[0]
    if _is_bool(result.type):
        w.values[result] = Const(bool(int_value(op.attributes["value"])))
    elif isinstance(result.type, ir.IntegerType) and result.type.width > 64:
        # The bindings read an IntegerAttr through int64 (LLVM asserts on wider values): an unknown here.
        w.values[result] = w._fresh(result.type, "a 128-bit constant")
    elif _is_int(result.type):
        w.values[result] = Affine.constant(int_value(op.attributes["value"]))
    else:
        w.values[result] = UNIFORM


@on(arith.AddIOp)
def _walk_addi(w: KernelWalk, op: Any) -> None:
    w._affine_binary(op, lambda a, b: a + b)


@on(arith.SubIOp)
def _walk_subi(w: KernelWalk, op: Any) -> None:
    w._affine_binary(op, lambda a, b: a - b)


@on(arith.MulIOp)
def _walk_muli(w: KernelWalk, op: Any) -> None:
    w._affine_binary(op, lambda a, b: a.scale(b.const) if b.is_constant else b.scale(a.const)
                        if a.is_constant else None)


@on(arith.ShLIOp)
def _walk_shli(w: KernelWalk, op: Any) -> None:
    w._affine_binary(op, lambda a, b: a.scale(1 << b.const) if b.is_constant and 0 <= b.const < 63 else None)


@on(arith.DivUIOp)
def _walk_divui(w: KernelWalk, op: Any) -> None:
    a, b = w.get(op.operands[0]), w.get(op.operands[1])
    if isinstance(a, Affine) and isinstance(b, Affine) and b.is_constant and a.terms == (("tid.x", 1),) \
            and a.const == 0 and b.const > 0 and b.const % 32 == 0 and w._rows_whole_warps():
        # threadIdx.x / 32k names a group of whole warps: the same on every lane of a warp.
        w.values[op.results[0]] = WARP_UNIFORM
        return
    w._generic(op)


@on(arith.CmpIOp)
def _walk_cmpi(w: KernelWalk, op: Any) -> None:
    a, b = w.get(op.operands[0]), w.get(op.operands[1])
    pred = _CMPI_NAMES[_int_attr(op, "predicate")]
    if isinstance(a, Affine) and isinstance(b, Affine):
        w.values[op.results[0]] = Cmp(_CMP[pred], a, b)
    else:
        w._generic(op)


@on(arith.AndIOp)
def _walk_andi(w: KernelWalk, op: Any) -> None:
    if not _is_bool(op.results[0].type):
        return w._generic(op)
    a, b = w.get(op.operands[0]), w.get(op.operands[1])
    if isinstance(a, Const):
        a, b = b, a
    if isinstance(b, Const):
        w.values[op.results[0]] = a if b.value else Const(False)
    elif isinstance(a, str) or isinstance(b, str):
        w._generic(op)
    else:
        w.values[op.results[0]] = All((a, b))


@on(arith.OrIOp)
def _walk_ori(w: KernelWalk, op: Any) -> None:
    if not _is_bool(op.results[0].type):
        return w._generic(op)
    a, b = w.get(op.operands[0]), w.get(op.operands[1])
    if isinstance(a, str) or isinstance(b, str):
        return w._generic(op)
    w.values[op.results[0]] = AnyOf((a, b))


@on(arith.XOrIOp)
def _walk_xori(w: KernelWalk, op: Any) -> None:
    if not _is_bool(op.results[0].type):
        return w._generic(op)
    a, b = w.get(op.operands[0]), w.get(op.operands[1])
    if isinstance(a, Const):
        a, b = b, a
    if isinstance(b, Const) and not isinstance(a, str):
        w.values[op.results[0]] = negate(a) if b.value else a
    else:
        w._generic(op)


@on(arith.SelectOp)
def _walk_select(w: KernelWalk, op: Any) -> None:
    cond, a, b = (w.get(v) for v in op.operands)
    w.values[op.results[0]] = w._join(a, b, cond, op.results[0].type)


@on(*_PASS_THROUGH.classes)
def _walk_pass_through(w: KernelWalk, op: Any) -> None:
    w.values[op.results[0]] = w.get(op.operands[0])


# --- simt indexing, shared memory, synchronisation ---------------------------------------------------

@on(simt.ThreadIdOp)
def _walk_thread_id(w: KernelWalk, op: Any) -> None:
    w.values[op.results[0]] = Affine.of("tid." + _dim(op))


@on(simt.BlockDimOp)
def _walk_block_dim(w: KernelWalk, op: Any) -> None:
    block = w.facts.block
    axis = "xyz".index(_dim(op))
    w.values[op.results[0]] = (Affine.constant(block[axis]) if block
                                  else w._fresh(op.results[0].type, f"blockDim.{_dim(op)}"))


@on(simt.BlockIdOp)
def _walk_block_id(w: KernelWalk, op: Any) -> None:
    w.values[op.results[0]] = w._fresh(op.results[0].type, f"blockIdx.{_dim(op)}")


@on(simt.GridDimOp)
def _walk_grid_dim(w: KernelWalk, op: Any) -> None:
    w.values[op.results[0]] = w._fresh(op.results[0].type, f"gridDim.{_dim(op)}")


@on(simt.IndexValueOp)
def _walk_index_value(w: KernelWalk, op: Any) -> None:
    witness = op.operands[0].owner
    if is_op(witness, simt.Index1DOp):
        # blockIdx.x * blockDim.x + threadIdx.x: a block-uniform base plus the x coordinate.
        w.values[op.results[0]] = w._fresh(op.results[0].type, "the block's first index") + Affine.of("tid.x")
    else:
        w._generic(op)


@on(simt.SharedArrayOp)
def _walk_shared_array(w: KernelWalk, op: Any) -> None:
    w.arrays[op.results[0]] = _array_name(op.location, len(w.arrays) + 1)
    w.values[op.results[0]] = UNIFORM


@on(simt.SharedLoadOp)
def _walk_shared_load(w: KernelWalk, op: Any) -> None:
    w._shared_access(op, write=False)
    w.values[op.results[0]] = w._of_rank(op.results[0].type, min(value_rank(w.get(op.operands[1])), 2),
                                               "a shared-memory value")


@on(simt.SharedStoreOp)
def _walk_shared_store(w: KernelWalk, op: Any) -> None:
    w._shared_access(op, write=True)


@on(simt.SyncThreadsOp, simt.GridSyncOp, simt.ClusterWaitOp)
def _walk_sync_threads(w: KernelWalk, op: Any) -> None:
    w._record_event(w.facts.barriers, op)
    w.interval += 1
    w.warp_interval += 1


@on(simt.WarpSyncOp)
def _walk_warp_sync(w: KernelWalk, op: Any) -> None:
    w.warp_interval += 1


# --- locals (rank-0 allocas) ------------------------------------------------------------------------

@on(memref.AllocaOp)
def _walk_local_alloca(w: KernelWalk, op: Any) -> None:
    w.locals[op.results[0]] = VARYING
    w.values[op.results[0]] = UNIFORM


@on(memref.StoreOp)
def _walk_local_store(w: KernelWalk, op: Any) -> None:
    value, ref = op.operands[0], op.operands[1]
    if ref not in w.locals:
        return
    if len(op.operands) > 2:
        # An element of a local array: keep only whether the array as a whole is uniform.
        ranks = [value_rank(w.get(v)) for v in [value, *list(op.operands)[2:]]]
        ranks.append(value_rank(w.locals[ref]))
        w.locals[ref] = UNIFORM if min(ranks) == 2 else VARYING
    else:
        w.locals[ref] = w.get(value)


@on(memref.LoadOp)
def _walk_local_load(w: KernelWalk, op: Any) -> None:
    ref = op.operands[0]
    if ref not in w.locals:
        return w._generic(op)
    state = w.locals[ref]
    if len(op.operands) > 1:
        rank = min([value_rank(state)] + [value_rank(w.get(v)) for v in list(op.operands)[1:]])
        w.values[op.results[0]] = w._of_rank(op.results[0].type, rank, "an element of a local array")
    elif state == UNIFORM:
        # Name the unknown value once: later loads before the next store read the same value.
        w.locals[ref] = w.values[op.results[0]] = w._fresh(op.results[0].type, "a local variable")
    else:
        w.values[op.results[0]] = state


# --- structured control flow ------------------------------------------------------------------------

@on(scf.IfOp)
def _walk_if(w: KernelWalk, op: Any) -> None:
    cond = w.get(op.operands[0])
    if isinstance(cond, str):
        cond = Opaque(cond == UNIFORM)
    before = dict(w.locals)
    w.guards.append(cond)
    then_vals = w._block(op.regions[0].blocks[0])
    w.guards.pop()
    then_locals, w.locals = w.locals, dict(before)
    else_vals: list[AbsVal] = []
    if op.regions[1].blocks:
        w.guards.append(negate(cond))
        else_vals = w._block(op.regions[1].blocks[0])
        w.guards.pop()
    else_locals = w.locals
    w.locals = {ref: w._join(then_locals.get(ref, VARYING), else_locals.get(ref, VARYING), cond, None)
                   for ref in set(then_locals) | set(else_locals)}
    for i, result in enumerate(op.results):
        a = then_vals[i] if i < len(then_vals) else VARYING
        b = else_vals[i] if i < len(else_vals) else VARYING
        w.values[result] = w._join(a, b, cond, result.type)


@on(scf.ExecuteRegionOp)
def _walk_execute_region(w: KernelWalk, op: Any) -> None:
    values = w._block(op.regions[0].blocks[0])
    for result, value in zip(op.results, values):
        w.values[result] = value


@on(scf.ForOp)
def _walk_for(w: KernelWalk, op: Any) -> None:
    lb, ub, step = (w.get(v) for v in list(op.operands)[:3])
    inits = [w.get(v) for v in list(op.operands)[3:]]
    body = op.regions[0].blocks[0]
    iv = body.arguments[0]
    bounded = all(isinstance(v, Affine) and v.is_constant for v in (lb, ub, step))
    trip_uniform = all(is_uniform(v) for v in (lb, ub, step))

    def walk(carried: list[AbsVal]) -> list[AbsVal]:
        if bounded and step.const > 0 and len(range(lb.const, ub.const, step.const)) <= _MAX_ENUMERATED:
            values = tuple(range(lb.const, ub.const, step.const))
            w.values[iv] = w._fresh(iv.type, "a loop counter", values)
        elif trip_uniform:
            w.values[iv] = w._fresh(iv.type, "a loop counter")
        else:
            w.values[iv] = VARYING
        for arg, value in zip(list(body.arguments)[1:], carried):
            w.values[arg] = value
        if not trip_uniform:
            w.guards.append(Opaque(False))
        out = w._block(body)
        if not trip_uniform:
            w.guards.pop()
        return out

    results = w._enter_loop(op, inits, [r.type for r in op.results], walk)
    for result, value in zip(op.results, results):
        w.values[result] = value


@on(scf.WhileOp)
def _walk_while(w: KernelWalk, op: Any) -> None:
    inits = [w.get(v) for v in op.operands]
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    condition = before.operations[len(before.operations) - 1]

    def walk(carried: list[AbsVal]) -> list[AbsVal]:
        for arg, value in zip(before.arguments, carried):
            w.values[arg] = value
        passed = w._block(before)
        cond = w.get(condition.operands[0])
        if isinstance(cond, str):
            cond = Opaque(cond == UNIFORM)
        for arg, value in zip(after.arguments, passed[1:]):
            w.values[arg] = value
        w.guards.append(cond)
        out = w._block(after)
        w.guards.pop()
        return out

    results = w._enter_loop(op, inits, [r.type for r in op.results], walk)
    for result, value in zip(op.results, results):
        w.values[result] = value


def walk_kernel(func: Any) -> KernelFacts:
    """The facts of one kernel."""
    return KernelWalk(func).run()
