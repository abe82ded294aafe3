"""oxide-version-bounds-checks: one bounds check before a loop instead of one per access per iteration.

Every slice index is checked, and a failed check traps. Inside a loop, that check is a side exit on every
iteration: ptxas then neither unrolls the loop nor if-converts the guarded accesses in it, which costs up to
40% on memory-bound kernels (benchmarks/RESULTS.md). For a loop whose counter `j` starts at `j0`, grows by a
loop-invariant step `s > 0` and stays below a loop-invariant `n`, every access `x[base + a * j]` with
loop-invariant `x`, `base` and `a` reads an index between `base + a * j0` and `base + a * j_last`, where
`j_last = j0 + ((n - 1 - j0) / s) * s` is the largest counter value the loop can see. The loop is versioned:

    if loop_cannot_run || (s > 0 && base + a * j_last does not wrap && base + a * j_last < x.len() && ...) {
        the loop with those accesses unchecked
    } else {
        the original loop (every access checked, so an out-of-bounds index still traps where it happens)
    }

The fast version runs only when every index the loop could form is in bounds, whatever path each iteration
takes (early exits and guards only make it touch fewer), so no check it drops could have failed. Loops are
recognised in the two shapes the frontend emits: `scf.for` (counter = induction variable) and `scf.while`
whose condition requires `j < n` for a counter kept in a local (`memref.alloca`) that the body advances by
`j = j + s` at most once per iteration (at its top level, or under the `scf.if`s of a `break`/`continue`);
accesses use the counter as read before that advance.

Nests are versioned outermost first, and a loop's check also covers the accesses in the `scf.for` loops
inside it whose bounds and step do not change from one of its iterations to the next: an index is then a
sum of invariant terms and of counters times invariant coefficients, largest at every counter's last value.
The fast copy of a 2-D tile loop nest is then unchecked as a whole, which LLVM unrolls like nvcc's; the loops
inside each copy are versioned afterwards for whatever the outer check could not cover.

The check is cheap because every thread runs it before its first access: a product is accepted when both
factors are below 2^32 (so it cannot wrap), not by computing its high word; a loop whose index products
have a factor of 2^32 or more takes the checked copy. The checked copy ends in an instruction LLVM cannot
merge (`_merge_fence`), so the two copies stay apart and the fast one keeps its guarded accesses predicated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator

from mlir import ir
from mlir.dialects import arith, gpu, memref, scf
from mlir.dialects import func as func_d

from oxide.analysis.kernel_facts import lowered_from_tile
from oxide.analysis.nested import nested_ops
from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.ir.rules import OpMap, OpSet, is_op
from oxide.passes.base import OxidePass
from oxide.passes.registry import register_pass

_CHECKED = OpMap({simt.LoadOp: simt.LoadUncheckedOp, simt.StoreOp: simt.StoreUncheckedOp})
_CASTS = OpSet(arith.IndexCastOp, arith.IndexCastUIOp, arith.ExtUIOp)


@dataclass
class Counter:
    """A loop's counter: how to read its value at an access, and its first value, step and bound."""

    values: set[Any]      # SSA values that are the counter's current value inside the loop
    first: Any            # builds j0 before the loop (a callable taking no arguments)
    step: ir.Value
    bound: ir.Value


@dataclass
class Access:
    """A checked access `slice[sum(terms) + sum(coefficient * counter)]`, by its position in the loop walk:
    `linear` pairs a counter (its index in the loop's counter list) with its coefficient."""

    position: int
    slice: ir.Value
    terms: list[tuple]
    linear: list[tuple[int, tuple]]


def _defined_outside(value: ir.Value, loop: Any) -> bool:
    """Whether `value` is defined outside `loop` (so it is the same on every iteration)."""
    owner = value.owner
    op = owner.owner if isinstance(owner, ir.Block) else owner
    while op is not None:
        if op == loop.operation:
            return False
        op = op.parent
    return True


# Integer ops that are safe to compute before the loop whatever their operands (no division: by zero it is
# undefined, and the loop might never have divided).
_PURE = OpSet(arith.ConstantOp, arith.AddIOp, arith.SubIOp, arith.MulIOp, arith.ShLIOp, arith.AndIOp, arith.OrIOp,
              arith.XOrIOp, arith.ExtUIOp, arith.ExtSIOp, arith.TruncIOp, arith.IndexCastOp, arith.IndexCastUIOp,
              # a thread's coordinates, which `let c = thread::threadIdx_x() + i` reads again in a loop body
              simt.ThreadIdOp, simt.BlockIdOp, simt.BlockDimOp, simt.GridDimOp)


def _invariant(value: ir.Value, loop: Any) -> bool:
    """The same on every iteration: defined before the loop, or computed in it by pure integer ops from such
    values (the frontend recomputes `row * n` inside loop bodies)."""
    if _defined_outside(value, loop):
        return True
    owner = value.owner
    return (not isinstance(owner, ir.Block) and owner in _PURE
            and all(_invariant(operand, loop) for operand in owner.operands))


def _before_loop(value: ir.Value, loop: Any) -> ir.Value:
    """An invariant value usable before the loop (at the current insertion point): ops of it computed inside
    the loop are made again here."""
    if _defined_outside(value, loop):
        return value
    owner = value.owner
    operands = [_before_loop(operand, loop) for operand in owner.operands]
    attributes = {name: owner.attributes[name] for name in owner.attributes}
    return ir.Operation.create(owner.name, results=[value.type], operands=operands, attributes=attributes).result


def _strip(value: ir.Value) -> ir.Value:
    """The value under integer casts that keep it unchanged (extension, index casts)."""
    while not isinstance(value.owner, ir.Block) and value.owner in _CASTS:
        value = value.owner.operands[0]
    return value


def _conjuncts(value: ir.Value) -> Iterator[ir.Value]:
    """The i1 values whose AND is `value`."""
    owner = value.owner
    if not isinstance(owner, ir.Block) and is_op(owner, arith.AndIOp):
        for operand in owner.operands:
            yield from _conjuncts(operand)
    else:
        yield value


def _while_counter(loop: Any) -> Counter | None:
    before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
    condition = list(before.operations)[-1]
    for cond in _conjuncts(condition.operands[0]):
        cmp = cond.owner
        if isinstance(cmp, ir.Block) or not is_op(cmp, arith.CmpIOp) or cmp.attributes["predicate"].value != 6:  # ult
            continue
        load, bound = cmp.operands[0].owner, cmp.operands[1]
        if isinstance(load, ir.Block) or not is_op(load, memref.LoadOp) or len(load.operands) != 1:
            continue
        local = load.operands[0]
        if not _defined_outside(local, loop) or not _invariant(bound, loop):
            continue
        counter = _advance(loop, after, local)
        if counter is None:
            continue
        values, step = counter

        def first(local: ir.Value = local) -> ir.Value:
            return memref.load(local, [])

        return Counter(values, first, step, bound)
    return None


def _advance(loop: Any, after: Any, local: ir.Value) -> tuple[set[Any], ir.Value] | None:
    """(the loads of `local` that read the counter before its advance, the step) when the loop body stores to
    `local` exactly once, as `local = local + step`, at its top level or under `scf.if`s only (where `break`
    and `continue` put it); None otherwise. Each iteration then advances the counter by `step` once or not at
    all, and starts with `j < n`, so the counter only takes the values j0 + k * step below n."""
    stores = [op for op in nested_ops(loop) if is_op(op, memref.StoreOp) and op.operands[1] == local]
    if len(stores) != 1:
        return None
    store = stores[0]
    top = store.operation  # the store, or the scf.if around it that sits in the loop's body
    while top.parent != loop.operation:
        if not is_op(top.parent, scf.IfOp):
            return None  # in an inner loop, the counter could advance many times in one iteration
        top = top.parent
    if top.block != after:
        return None  # in the condition region
    add = store.operands[0].owner
    if isinstance(add, ir.Block) or not is_op(add, arith.AddIOp):
        return None
    for mine, step in ((add.operands[0], add.operands[1]), (add.operands[1], add.operands[0])):
        reader = mine.owner
        if not isinstance(reader, ir.Block) and is_op(reader, memref.LoadOp) and reader.operands[0] == local \
                and _invariant(step, loop):
            break
    else:
        return None
    # With no loop between them and the store, the loads the program-order walk meets first run before it.
    values: set[Any] = set()
    for op in after.operations:
        for inner in [op, *nested_ops(op)]:
            if inner == store:
                return values, step
            if is_op(inner, memref.LoadOp) and inner.operands[0] == local:
                values.add(inner.results[0])
    return values, step


def _for_counter(loop: Any) -> Counter:
    lower, upper, step = list(loop.operands)[:3]
    return Counter({loop.regions[0].blocks[0].arguments[0]}, lambda: lower, step, upper)


Product = tuple  # invariant values whose product is one term (or a counter's coefficient); () is 1
Form = tuple  # (terms: list[Product], linear: list[(counter, Product)]): sum(terms) + sum(coefficient * counter)


def _affine(value: ir.Value, counters: list[Counter], loop: Any) -> Form | None:
    """`value` as invariant terms plus counters times invariant coefficients, each term and coefficient a
    product of invariant values; None when it is not of that form. An invariant value is one term."""
    value = _strip(value)
    for k, counter in enumerate(counters):
        if value in counter.values:
            return [], [(k, ())]
    if _invariant(value, loop):
        return [(value,)], []
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    if is_op(owner, arith.MulIOp):
        a, b = owner.operands
        for varying, factor in ((a, b), (b, a)):
            if _invariant(factor, loop):
                inner = _affine(varying, counters, loop)
                if inner is not None:
                    # (sum + c * j) * f = sum * f + (c * f) * j, exactly when nothing wraps (checked at run time)
                    return [(*t, factor) for t in inner[0]], [(k, (*c, factor)) for k, c in inner[1]]
        return None
    if is_op(owner, arith.AddIOp):
        left, right = (_affine(operand, counters, loop) for operand in owner.operands)
        if left is None or right is None:
            return None
        return left[0] + right[0], left[1] + right[1]
    return None


def _inner_counters(loop: Any) -> list[Counter]:
    """The counters of the `scf.for` loops nested in `loop` whose bounds and step are the same on every
    iteration of `loop`: an access in them reads between their first and last values whenever it runs."""
    counters = []
    for op in nested_ops(loop):
        if is_op(op, scf.ForOp) and all(_invariant(v, loop) for v in list(op.operands)[:3]):
            lower = list(op.operands)[0]
            counter = _for_counter(op)
            counter.first = lambda lower=lower: _before_loop(lower, loop)
            counters.append(counter)
    return counters


def _accesses(loop: Any, counters: list[Counter]) -> list[Access]:
    found = []
    for position, op in enumerate(nested_ops(loop)):
        if op in _CHECKED and _defined_outside(op.operands[0], loop):
            form = _affine(op.operands[1], counters, loop)
            if form is not None and form[1]:  # a counter must appear: invariant accesses keep their check
                found.append(Access(position, op.operands[0], *form))
    return found


def _i64(value: ir.Value) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(i64, value)
    if value.type != i64:
        return arith.extui(i64, value)
    return value


def _fast_condition(loop: Any, counters: list[Counter], accesses: list[Access]) -> ir.Value:
    """True when the loop cannot run, or when every index each access could form is in bounds."""
    i64 = ir.IntegerType.get_signless(64)
    one, zero = arith.constant(i64, 1), arith.constant(i64, 0)
    used = sorted({0} | {k for access in accesses for k, _ in access.linear})
    ok, last, idle = None, {}, None
    for k in used:
        counter = counters[k]
        first = _i64(counter.first())
        step, bound = _i64(_before_loop(counter.step, loop)), _i64(_before_loop(counter.bound, loop))
        if k == 0:
            idle = arith.cmpi(arith.CmpIPredicate.uge, first, bound)
        positive = arith.cmpi(arith.CmpIPredicate.ugt, step, zero)
        divisor = arith.select(positive, step, one)
        span = arith.subi(arith.subi(bound, one), first)
        last[k] = arith.addi(first, arith.muli(arith.divui(span, divisor), divisor))
        # The counter must not wrap past the bound (it would start over below it, at indices not checked
        # here), and signed and unsigned order must agree (scf.for compares signed). An inner loop that may
        # not run at all fails this (its `last` is below its first): its loop nest then runs checked.
        ok = positive if ok is None else arith.andi(ok, positive)
        for value in (first, bound, arith.addi(last[k], step)):
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sge, value, zero))
        ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.uge, arith.addi(last[k], step), last[k]))
    for access in accesses:
        # The largest index: the terms plus each coefficient times its counter's last value, computed
        # exactly (any wrap-around fails `ok`); every part is non-negative, so no smaller index is larger.
        index = None
        parts = [[last[k], *coefficient] for k, coefficient in access.linear] + [list(t) for t in access.terms]
        for factors in parts:
            ok, value = _product(ok, factors, loop)
            if index is None:
                index = value
                continue
            total = arith.addi(value, index)
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.uge, total, index))
            index = total
        length = _i64(simt.LenOp.build(access.slice))
        ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.ult, index, length))
    return arith.ori(idle, ok)


def _product(ok: ir.Value, factors: list[ir.Value], loop: Any) -> tuple[ir.Value, ir.Value]:
    """(ok and the product does not wrap, the product) of invariant values, as i64.

    A product of two operands below 2^32 cannot wrap, so that is what is checked: two instructions, where the
    exact test (the high word of a 64-bit product) is a chain of 64-bit multiplies that every thread runs
    before its first access. Larger operands only take the checked copy of the loop."""
    result = _i64(_before_loop(factors[0], loop))
    for factor in factors[1:]:
        limit = arith.constant(result.type, 1 << 32)
        factor = _i64(_before_loop(factor, loop))
        ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.ult, arith.ori(result, factor), limit))
        result = arith.muli(result, factor)
    return ok, result


def _merge_fence() -> None:
    """An instruction LLVM cannot merge or move (inline PTX; a comment in the output), ending the checked copy.

    Without it, the two copies end alike (the last iteration's guarded access, then the join), and LLVM's
    SimplifyCFG sinks those common instructions into one block that both copies branch to. The fast copy then
    reaches its last access through a branch, so ptxas can no longer predicate it with the others: it waits
    for the earlier loads before issuing it (transpose: two memory latencies per tile instead of one).
    """
    build_inline_ptx([], "// end of the bounds-checked copy of a versioned loop", "", [])


def _version(loop: Any, counters: list[Counter], accesses: list[Access]) -> Any:
    """Version `loop`; return the fast (unchecked) copy."""
    with ir.InsertionPoint(loop), loop.location:
        fast = _fast_condition(loop, counters, accesses)
        branch = scf.IfOp(fast, [r.type for r in loop.results], has_else=True)
    for old, new in zip(loop.results, branch.results):
        old.replace_all_uses_with(new)
    with ir.InsertionPoint(branch.else_block), loop.location:
        slow_yield = scf.YieldOp(list(loop.results))
    loop.operation.move_before(slow_yield)
    with ir.InsertionPoint(slow_yield), loop.location:
        _merge_fence()
    with ir.InsertionPoint(branch.then_block), loop.location:
        clone = loop.operation.clone()
        scf.YieldOp(list(clone.results))
    positions = {a.position for a in accesses}
    targets = [op for position, op in enumerate(nested_ops(clone)) if position in positions]
    for op in targets:
        with ir.InsertionPoint(op), op.location:
            unchecked = _CHECKED[op]
            if op.results:
                replacement = unchecked.build(op.operands[0], op.operands[1], results=[op.results[0].type])
                op.results[0].replace_all_uses_with(replacement)
            else:
                unchecked.build(*op.operands)
        op.erase()
    return clone


def _outer_loops(op: Any) -> list[Any]:
    """The scf.for and scf.while loops in `op` that are not inside another loop in `op`, in program order."""
    found = []
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                if is_op(inner.operation, scf.ForOp, scf.WhileOp):
                    found.append(inner)
                else:
                    found.extend(_outer_loops(inner))
    return found


def _version_nest(op: Any) -> None:
    """Version the loops in `op`, outermost first: a loop's check covers the accesses of the `for` loops in it
    too (a transpose's 2-D tile loops become one unchecked nest, which LLVM unrolls whole). Then the loops
    inside each copy are versioned for the accesses left checked (those the outer check could not cover)."""
    for loop in _outer_loops(op):
        counter = _for_counter(loop) if is_op(loop.operation, scf.ForOp) else _while_counter(loop)
        if counter is not None:
            counters = [counter, *_inner_counters(loop)]
            accesses = _accesses(loop, counters)
            if accesses:
                _version_nest(_version(loop, counters, accesses))
        _version_nest(loop)


@register_pass
@dataclass(frozen=True)
class VersionBoundsChecks(OxidePass):
    """Check a loop's slice accesses once before it, and run an unchecked copy of the loop when they pass."""

    name = "oxide-version-bounds-checks"

    def run(self, module: ir.Operation) -> bool:
        # A lowered tile kernel accesses memory through raw pointers under its own masks: no slice checks.
        functions = [function for function in _functions(module) if not lowered_from_tile(function)]
        for function in functions:
            _version_nest(function)
        return bool(functions)  # a module of tile kernels only is left as it was


def _functions(module: ir.Operation) -> list[Any]:
    """The functions of the module and of its gpu.modules (a shallow walk: their bodies can be large)."""
    found = []
    for op in module.regions[0].blocks[0].operations:
        if is_op(op, gpu.GPUModuleOp):
            found += [f for f in op.regions[0].blocks[0].operations if is_op(f, gpu.GPUFuncOp, func_d.FuncOp)]
        elif is_op(op, func_d.FuncOp):
            found.append(op)
    return found
