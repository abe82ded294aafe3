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

from dataclasses import dataclass, field
from typing import Any, Iterable, Union

import numpy as np
from mlir import ir

from oxide.analysis.affine import (
    Affine, All, AnyOf, Cmp, Cond, Const, Not, Opaque, cond_thread_dependent, negate,
)
from oxide.analysis.nested import nested_ops
from oxide.ir.diagnostics import source_loc

UNIFORM = "uniform"
WARP_UNIFORM = "warp-uniform"
VARYING = "varying"
AbsVal = Union[Affine, Cmp, Not, All, AnyOf, Const, Opaque, str]

# Loop counters with more values than this are treated as unknown symbols (the race search samples them).
_MAX_ENUMERATED = 4096
_CMP = {"eq": "eq", "ne": "ne", "slt": "lt", "ult": "lt", "sle": "le", "ule": "le", "sgt": "gt", "ugt": "gt",
        "sge": "ge", "uge": "ge"}
_CMPI_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_PASS_THROUGH = {"arith.index_cast", "arith.index_castui", "arith.extui", "arith.extsi", "arith.trunci"}
_WARP_COLLECTIVES = {"simt.shuffle", "simt.vote", "simt.ballot", "simt.match_any", "simt.match_all", "simt.redux"}
# Ops whose results differ per thread whatever their operands.
_THREAD_VARYING = {"simt.special_reg", "simt.atomic_rmw", "simt.atomic_cmpxchg", "simt.atomic_load", "simt.clock",
                   "simt.index_1d", "simt.index_1d_u32", "simt.index_2d", "simt.index_2d_runtime", "simt.warp_index",
                   "simt.get_mut", "simt.get_unchecked_mut", "simt.elect", "simt.active_mask"}


@dataclass(frozen=True)
class Symbol:
    """A value that is the same for every thread of the block at one point: `values` lists the ones it can
    take when known (a loop counter over constant bounds); `loops` are the loops it was created in."""

    name: str
    describe: str
    values: tuple[int, ...] | None
    loops: tuple[int, ...]


@dataclass(frozen=True)
class SharedAccess:
    """One read or write of a shared array element by every thread that reaches it."""

    array: Any
    array_name: str
    write: bool
    index: Affine | None
    guard: Cond
    location: ir.Location
    interval: int
    warp_interval: int
    loops: tuple[int, ...]


@dataclass(frozen=True)
class GuardedEvent:
    """A barrier or warp collective and the path condition it runs under."""

    op_name: str
    location: ir.Location
    guard: Cond
    full_mask: bool = False


@dataclass
class KernelFacts:
    """What the walk found in one kernel."""

    name: str
    block: tuple[int, int, int] | None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    accesses: list[SharedAccess] = field(default_factory=list)
    barriers: list[GuardedEvent] = field(default_factory=list)
    warp_ops: list[GuardedEvent] = field(default_factory=list)
    # (interval before a loop or at a loop's end, interval at the loop's head, loop id): concurrent pairs.
    links: list[tuple[int, int, int]] = field(default_factory=list)
    barrier_free_loops: set[int] = field(default_factory=set)


def is_uniform(value: AbsVal) -> bool:
    """Whether the value is the same for every thread of the block."""
    if isinstance(value, Affine):
        return not value.thread_dependent
    if isinstance(value, str):
        return value == UNIFORM
    return not cond_thread_dependent(value)


def _rank(value: AbsVal) -> int:
    if is_uniform(value):
        return 2
    if value == WARP_UNIFORM or (isinstance(value, Opaque) and value.warp_uniform):
        return 1
    return 0


def kernel_block(func: Any) -> tuple[int, int, int] | None:
    """The exact block shape a kernel's `simt.contract` declares, if any."""
    if "simt.contract" not in func.attributes:
        return None
    contract = ir.DictAttr(func.attributes["simt.contract"])
    if "block" not in contract:
        return None
    dims = [int(x) for x in ir.DenseI32ArrayAttr(contract["block"])]
    return (dims + [1, 1, 1])[:3]  # type: ignore[return-value]


def _array_name(location: ir.Location, number: int) -> str:
    """`shared array `S`` when the frontend named the declaration (a NameLoc), else its position."""
    if location.is_a_name():
        return f"shared array `{location.name_str}`"
    loc = source_loc(location)
    return f"the shared array declared at {loc}" if loc else f"shared array #{number}"


def _dim(op: Any) -> str:
    return str(op.attributes["dim"]).split('"')[1]


def _int_attr(op: Any, name: str) -> int:
    return ir.IntegerAttr(op.attributes[name]).value


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

    # --- values -------------------------------------------------------------------------------------

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
        rank = min(_rank(a), _rank(b), _rank(cond))
        if t is None:  # a local: its kind is that of the values stored in it
            if isinstance(a, Affine) or isinstance(b, Affine):
                t = ir.IndexType.get()
            elif not isinstance(a, str):
                t = ir.IntegerType.get_signless(1)
            else:
                return UNIFORM if rank == 2 else WARP_UNIFORM if rank == 1 else VARYING
        return self._of_rank(t, rank, "a value chosen by a branch")

    # --- walking ------------------------------------------------------------------------------------

    def _block(self, block: Any) -> list[AbsVal]:
        """Walk the ops of a block; return the abstract values of its terminator's operands."""
        yielded: list[AbsVal] = []
        for op in block.operations:
            name = op.operation.name
            if name in ("scf.yield", "scf.condition", "gpu.return", "func.return"):
                yielded = [self.get(v) for v in op.operands]
                continue
            self._op(op, name)
        return yielded

    def _op(self, op: Any, name: str) -> None:
        handler = getattr(self, "_op_" + name.replace(".", "_"), None)
        if handler is not None:
            handler(op)
            return
        if op.regions:
            for region in op.regions:
                for block in region.blocks:
                    self._block(block)
        self._generic(op, name)

    def _generic(self, op: Any, name: str) -> None:
        if name in _WARP_COLLECTIVES:
            mask = self.get(op.operands[0])
            full = isinstance(mask, Affine) and mask.is_constant and (mask.const & 0xFFFFFFFF) == 0xFFFFFFFF
            self._record_event(self.facts.warp_ops, name, op, full)
        rank = 0 if name in _THREAD_VARYING or name in _WARP_COLLECTIVES else min(
            [_rank(self.get(v)) for v in op.operands] or [2])
        if name in _WARP_COLLECTIVES and name != "simt.shuffle":
            rank = 1  # a vote, ballot, match or redux gives every lane of the warp the same answer
        for result in op.results:
            self.values[result] = self._of_rank(result.type, rank, f"the result of {name}")

    def _record_event(self, into: list[GuardedEvent], name: str, op: Any, full_mask: bool = False) -> None:
        if self.recording:
            into.append(GuardedEvent(name, op.location, All(tuple(self.guards)), full_mask))

    # --- arith --------------------------------------------------------------------------------------

    def _op_arith_constant(self, op: Any) -> None:
        result = op.results[0]
        if _is_bool(result.type):
            self.values[result] = Const(bool(ir.IntegerAttr(op.attributes["value"]).value))
        elif isinstance(result.type, ir.IntegerType) and result.type.width > 64:
            # The bindings read an IntegerAttr through int64 (LLVM asserts on wider values): an unknown here.
            self.values[result] = self._fresh(result.type, "a 128-bit constant")
        elif _is_int(result.type):
            self.values[result] = Affine.constant(ir.IntegerAttr(op.attributes["value"]).value)
        else:
            self.values[result] = UNIFORM

    def _affine_binary(self, op: Any, combine: Any) -> None:
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        out = combine(a, b) if isinstance(a, Affine) and isinstance(b, Affine) else None
        if out is None:
            self._generic(op, op.operation.name)
        else:
            self.values[op.results[0]] = out

    def _op_arith_addi(self, op: Any) -> None:
        self._affine_binary(op, lambda a, b: a + b)

    def _op_arith_subi(self, op: Any) -> None:
        self._affine_binary(op, lambda a, b: a - b)

    def _op_arith_muli(self, op: Any) -> None:
        self._affine_binary(op, lambda a, b: a.scale(b.const) if b.is_constant else b.scale(a.const)
                            if a.is_constant else None)

    def _op_arith_shli(self, op: Any) -> None:
        self._affine_binary(op, lambda a, b: a.scale(1 << b.const) if b.is_constant and 0 <= b.const < 63 else None)

    def _op_arith_divui(self, op: Any) -> None:
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        if isinstance(a, Affine) and isinstance(b, Affine) and b.is_constant and a.terms == (("tid.x", 1),) \
                and a.const == 0 and b.const > 0 and b.const % 32 == 0 and self._rows_whole_warps():
            # threadIdx.x / 32k names a group of whole warps: the same on every lane of a warp.
            self.values[op.results[0]] = WARP_UNIFORM
            return
        self._generic(op, "arith.divui")

    def _rows_whole_warps(self) -> bool:
        block = self.facts.block
        return block is None or block[0] % 32 == 0

    def _op_arith_cmpi(self, op: Any) -> None:
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        pred = _CMPI_NAMES[_int_attr(op, "predicate")]
        if isinstance(a, Affine) and isinstance(b, Affine):
            self.values[op.results[0]] = Cmp(_CMP[pred], a, b)
        else:
            self._generic(op, "arith.cmpi")

    def _op_arith_andi(self, op: Any) -> None:
        if not _is_bool(op.results[0].type):
            return self._generic(op, "arith.andi")
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        if isinstance(a, Const):
            a, b = b, a
        if isinstance(b, Const):
            self.values[op.results[0]] = a if b.value else Const(False)
        elif isinstance(a, str) or isinstance(b, str):
            self._generic(op, "arith.andi")
        else:
            self.values[op.results[0]] = All((a, b))

    def _op_arith_ori(self, op: Any) -> None:
        if not _is_bool(op.results[0].type):
            return self._generic(op, "arith.ori")
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        if isinstance(a, str) or isinstance(b, str):
            return self._generic(op, "arith.ori")
        self.values[op.results[0]] = AnyOf((a, b))

    def _op_arith_xori(self, op: Any) -> None:
        if not _is_bool(op.results[0].type):
            return self._generic(op, "arith.xori")
        a, b = self.get(op.operands[0]), self.get(op.operands[1])
        if isinstance(a, Const):
            a, b = b, a
        if isinstance(b, Const) and not isinstance(a, str):
            self.values[op.results[0]] = negate(a) if b.value else a
        else:
            self._generic(op, "arith.xori")

    def _op_arith_select(self, op: Any) -> None:
        cond, a, b = (self.get(v) for v in op.operands)
        self.values[op.results[0]] = self._join(a, b, cond, op.results[0].type)

    def _pass_through(self, op: Any) -> None:
        self.values[op.results[0]] = self.get(op.operands[0])

    # --- simt indexing, shared memory, synchronisation ---------------------------------------------------

    def _op_simt_thread_id(self, op: Any) -> None:
        self.values[op.results[0]] = Affine.of("tid." + _dim(op))

    def _op_simt_block_dim(self, op: Any) -> None:
        block = self.facts.block
        axis = "xyz".index(_dim(op))
        self.values[op.results[0]] = (Affine.constant(block[axis]) if block
                                      else self._fresh(op.results[0].type, f"blockDim.{_dim(op)}"))

    def _op_simt_block_id(self, op: Any) -> None:
        self.values[op.results[0]] = self._fresh(op.results[0].type, f"blockIdx.{_dim(op)}")

    def _op_simt_grid_dim(self, op: Any) -> None:
        self.values[op.results[0]] = self._fresh(op.results[0].type, f"gridDim.{_dim(op)}")

    def _op_simt_index_value(self, op: Any) -> None:
        witness = op.operands[0].owner
        if witness.name == "simt.index_1d":
            # blockIdx.x * blockDim.x + threadIdx.x: a block-uniform base plus the x coordinate.
            self.values[op.results[0]] = self._fresh(op.results[0].type, "the block's first index") + Affine.of("tid.x")
        else:
            self._generic(op, "simt.index_value")

    def _op_simt_shared_array(self, op: Any) -> None:
        self.arrays[op.results[0]] = _array_name(op.location, len(self.arrays) + 1)
        self.values[op.results[0]] = UNIFORM

    def _shared_access(self, op: Any, write: bool) -> None:
        array, index = op.operands[0], op.operands[1]
        value = self.get(index)
        if self.recording:
            self.facts.accesses.append(SharedAccess(
                array, self.arrays.get(array, "a shared array"), write,
                value if isinstance(value, Affine) else None, All(tuple(self.guards)), op.location,
                self.interval, self.warp_interval, tuple(self.loops)))

    def _op_simt_shared_load(self, op: Any) -> None:
        self._shared_access(op, write=False)
        self.values[op.results[0]] = self._of_rank(op.results[0].type, min(_rank(self.get(op.operands[1])), 2),
                                                   "a shared-memory value")

    def _op_simt_shared_store(self, op: Any) -> None:
        self._shared_access(op, write=True)

    def _op_simt_sync_threads(self, op: Any) -> None:
        self._record_event(self.facts.barriers, "simt.sync_threads", op)
        self.interval += 1
        self.warp_interval += 1

    def _op_simt_warp_sync(self, op: Any) -> None:
        self.warp_interval += 1

    # --- locals (rank-0 allocas) ------------------------------------------------------------------------

    def _op_memref_alloca(self, op: Any) -> None:
        self.locals[op.results[0]] = VARYING
        self.values[op.results[0]] = UNIFORM

    def _op_memref_store(self, op: Any) -> None:
        value, ref = op.operands[0], op.operands[1]
        if ref not in self.locals:
            return
        if len(op.operands) > 2:
            # An element of a local array: keep only whether the array as a whole is uniform.
            ranks = [_rank(self.get(v)) for v in [value, *list(op.operands)[2:]]]
            ranks.append(_rank(self.locals[ref]))
            self.locals[ref] = UNIFORM if min(ranks) == 2 else VARYING
        else:
            self.locals[ref] = self.get(value)

    def _op_memref_load(self, op: Any) -> None:
        ref = op.operands[0]
        if ref not in self.locals:
            return self._generic(op, "memref.load")
        state = self.locals[ref]
        if len(op.operands) > 1:
            rank = min([_rank(state)] + [_rank(self.get(v)) for v in list(op.operands)[1:]])
            self.values[op.results[0]] = self._of_rank(op.results[0].type, rank, "an element of a local array")
        elif state == UNIFORM:
            # Name the unknown value once: later loads before the next store read the same value.
            self.locals[ref] = self.values[op.results[0]] = self._fresh(op.results[0].type, "a local variable")
        else:
            self.values[op.results[0]] = state

    # --- structured control flow ------------------------------------------------------------------------

    def _op_scf_if(self, op: Any) -> None:
        cond = self.get(op.operands[0])
        if isinstance(cond, str):
            cond = Opaque(cond == UNIFORM)
        before = dict(self.locals)
        self.guards.append(cond)
        then_vals = self._block(op.regions[0].blocks[0])
        self.guards.pop()
        then_locals, self.locals = self.locals, dict(before)
        else_vals: list[AbsVal] = []
        if op.regions[1].blocks:
            self.guards.append(negate(cond))
            else_vals = self._block(op.regions[1].blocks[0])
            self.guards.pop()
        else_locals = self.locals
        self.locals = {ref: self._join(then_locals.get(ref, VARYING), else_locals.get(ref, VARYING), cond, None)
                       for ref in set(then_locals) | set(else_locals)}
        for i, result in enumerate(op.results):
            a = then_vals[i] if i < len(then_vals) else VARYING
            b = else_vals[i] if i < len(else_vals) else VARYING
            self.values[result] = self._join(a, b, cond, result.type)

    def _op_scf_execute_region(self, op: Any) -> None:
        values = self._block(op.regions[0].blocks[0])
        for result, value in zip(op.results, values):
            self.values[result] = value

    def _enter_loop(self, op: Any, carried_init: list[AbsVal], carried_types: list[ir.Type],
                    walk: Any) -> list[AbsVal]:
        """Walk a loop body until it is known which locals and carried values stay uniform across
        iterations, then once more recording facts. `walk(carried)` walks one iteration and returns the
        carried values it yields."""
        self._loop_counter += 1
        loop = self._loop_counter
        has_barrier = any(inner.operation.name == "simt.sync_threads" for inner in nested_ops(op))
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
                if inner.operation.name == "memref.store" and inner.operands[1] in self.locals}

    def _op_scf_for(self, op: Any) -> None:
        lb, ub, step = (self.get(v) for v in list(op.operands)[:3])
        inits = [self.get(v) for v in list(op.operands)[3:]]
        body = op.regions[0].blocks[0]
        iv = body.arguments[0]
        bounded = all(isinstance(v, Affine) and v.is_constant for v in (lb, ub, step))
        trip_uniform = all(is_uniform(v) for v in (lb, ub, step))

        def walk(carried: list[AbsVal]) -> list[AbsVal]:
            if bounded and step.const > 0 and len(range(lb.const, ub.const, step.const)) <= _MAX_ENUMERATED:
                values = tuple(range(lb.const, ub.const, step.const))
                self.values[iv] = self._fresh(iv.type, "a loop counter", values)
            elif trip_uniform:
                self.values[iv] = self._fresh(iv.type, "a loop counter")
            else:
                self.values[iv] = VARYING
            for arg, value in zip(list(body.arguments)[1:], carried):
                self.values[arg] = value
            if not trip_uniform:
                self.guards.append(Opaque(False))
            out = self._block(body)
            if not trip_uniform:
                self.guards.pop()
            return out

        results = self._enter_loop(op, inits, [r.type for r in op.results], walk)
        for result, value in zip(op.results, results):
            self.values[result] = value

    def _op_scf_while(self, op: Any) -> None:
        inits = [self.get(v) for v in op.operands]
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        condition = before.operations[len(before.operations) - 1]

        def walk(carried: list[AbsVal]) -> list[AbsVal]:
            for arg, value in zip(before.arguments, carried):
                self.values[arg] = value
            passed = self._block(before)
            cond = self.get(condition.operands[0])
            if isinstance(cond, str):
                cond = Opaque(cond == UNIFORM)
            for arg, value in zip(after.arguments, passed[1:]):
                self.values[arg] = value
            self.guards.append(cond)
            out = self._block(after)
            self.guards.pop()
            return out

        results = self._enter_loop(op, inits, [r.type for r in op.results], walk)
        for result, value in zip(op.results, results):
            self.values[result] = value


for _name in _PASS_THROUGH:
    setattr(KernelWalk, "_op_" + _name.replace(".", "_"), KernelWalk._pass_through)


def kernels(module: Any) -> Iterable[Any]:
    """Every `gpu.func ... kernel` in a module."""
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "gpu.module":
            for inner in op.regions[0].blocks[0].operations:
                if inner.operation.name == "gpu.func" and "gpu.kernel" in inner.attributes:
                    yield inner


def lowered_from_tile(func: Any) -> bool:
    """Whether a kernel is the simt form of a tile kernel (it keeps `tile.warps`). Its shared memory,
    barriers and bounds are the tile lowering's, not the user's: the user-facing SIMT analyses skip it (the
    lowering's own tests run its kernels under the emulator's race checker and compute-sanitizer)."""
    return func is not None and "tile.warps" in func.attributes


def walk_kernel(func: Any) -> KernelFacts:
    """The facts of one kernel."""
    return KernelWalk(func).run()


def thread_grid(block: tuple[int, int, int]) -> dict[str, np.ndarray]:
    """Every thread of a block: its coordinates, flat, in linear-id order."""
    z, y, x = np.meshgrid(np.arange(block[2]), np.arange(block[1]), np.arange(block[0]), indexing="ij")
    return {"tid.x": x.ravel().astype(np.int64), "tid.y": y.ravel().astype(np.int64),
            "tid.z": z.ravel().astype(np.int64)}

