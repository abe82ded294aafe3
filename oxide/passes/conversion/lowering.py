"""The type-splitting conversion framework (simt -> NVVM): a `Conversion` (its rules are an
oxide.ir.rules.RuleSet keyed by op class, one function per source op), a lowering context, and the driver
that rewrites function signatures and ops.

A rule takes the context and the op (its typed OpView), builds the replacement at the op, and returns
the new values for the op's results: one Value per plain result, a list of Values for a result whose
type the conversion splits (a slice becomes pointer + length). The driver ties those back to the old
results with `builtin.unrealized_conversion_cast` ops marked `oxide.parts`, which later rules read
through (`ctx.parts`) and upstream `reconcile-unrealized-casts` removes. An op of the source dialect
with no rule is a located error, never a silent skip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from mlir import ir
from mlir.dialects import arith, builtin, func, gpu, llvm, scf

from oxide.ir.rules import FollowsFailure, LoweringError, OpSet, RuleSet, is_op
from oxide.ir.walk import walk
from oxide.passes.base import PassError

PARTS_MARKER = "oxide.parts"
# Marks an op whose rule failed: a rule that then needs the lowered form of one of its results raises
# FollowsFailure, which is not reported (a consequence of the error already reported); that op is marked in
# turn. Errors of its own that such an op has are still reported.
FAILED_MARKER = "oxide.lowering_failed"


# The ops whose body holds the ops a conversion lowers (and whose signature it converts).
FUNCTIONS = OpSet(gpu.GPUFuncOp, func.FuncOp)


@dataclass(frozen=True)
class Conversion:
    """One dialect conversion: the dialect whose ops it lowers, its rules (keyed by op class), and the type
    converter that splits the dialect's types."""

    dialect: str
    convert_type: Callable[[ir.Type], list[ir.Type] | None]
    rules: RuleSet


class LoweringContext:
    """What a rule sees: helpers to build common values, the enclosing function, the conversion's options."""

    def __init__(self, conversion: Conversion, symbol_table_op: ir.Operation, options: Any):
        self.conversion = conversion
        self.container = symbol_table_op
        self.options = options
        self.current: ir.Operation | None = None  # the op being lowered
        self._names: set[str] = set()
        # Facts rules derive from types (parsed from their text, so slow) and ask again for every op: kept per
        # conversion run, so no type outlives its context here.
        self.type_facts: dict[tuple[str, ir.Type], Any] = {}
        # The parts casts made so far, in creation order: what `finish` removes when nothing uses them, without
        # walking the lowered kernel for them (the dialect's ops are leaves, so no cast is erased with a region).
        self.casts: list[ir.Operation] = []

    # Values ---------------------------------------------------------------------------------------
    def parts(self, value: ir.Value) -> list[ir.Value]:
        """The lowered values standing for a value of a converted type."""
        owner = value.owner
        if not isinstance(owner, ir.Block) and FAILED_MARKER in owner.attributes:
            raise FollowsFailure(f"{value.type} comes from an op that could not be lowered")
        if not is_op(owner, builtin.UnrealizedConversionCastOp) or PARTS_MARKER not in owner.attributes:
            raise LoweringError(f"internal error: no lowered form for a value of type {value.type}")
        return list(owner.operands)

    def const(self, type_: str | ir.Type, value: int | float) -> ir.Value:
        """An arith.constant of an integer, index or float type."""
        t = ir.Type.parse(type_) if isinstance(type_, str) else type_
        if isinstance(t, (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
            return arith.constant(t, ir.FloatAttr.get(t, float(value)))
        return arith.constant(t, ir.IntegerAttr.get(t, int(value)))

    def i64(self, value: ir.Value) -> ir.Value:
        """An index or narrower integer as i64 (zero-extended: indices here are never negative)."""
        t = value.type  # tested by class, not by its printed text: every address computation asks
        if isinstance(t, ir.IndexType):
            return arith.index_cast(ir.IntegerType.get_signless(64), value)
        if isinstance(t, ir.IntegerType) and t.is_signless and t.width == 64:
            return value
        return arith.extui(ir.IntegerType.get_signless(64), value)

    def index(self, value: ir.Value) -> ir.Value:
        """An integer as index."""
        return value if isinstance(value.type, ir.IndexType) else arith.index_cast(ir.IndexType.get(), value)

    def sreg(self, name: str, type_: str = "i32") -> ir.Value:
        """Read the PTX special register %name (`tid.x`, `laneid`, `clock64`, ...).

        blockDim (`ntid.*`) is a constant when the kernel's contract fixes the block shape: the runtime
        rejects any other launch, and index arithmetic then folds as in hand-written CUDA."""
        block = self.block_shape()
        if name.startswith("ntid.") and block is not None:
            return self.const(type_, block["xyz".index(name[-1])])
        attributes = {}
        bound = block["xyz".index(name[-1])] if name.startswith("tid.") and block is not None else \
            32 if name == "laneid" else None
        if bound is not None:
            # The value range lets LLVM fold bounds checks on shared arrays indexed by the thread id.
            attributes["range"] = ir.Attribute.parse(f"#llvm.constant_range<i32, 0, {bound}>")
        op = ir.Operation.create(f"nvvm.read.ptx.sreg.{name}", results=[ir.Type.parse(type_)], attributes=attributes)
        return op.result

    def block_shape(self) -> list[int] | None:
        """The exact block shape the enclosing kernel's contract states, if any."""
        contract = self.function_attr("simt.contract")
        if contract is None:
            return None
        entries = ir.DictAttr(contract)
        return list(ir.DenseI32ArrayAttr(entries["block"])) if "block" in entries else None

    def trap_unless(self, ok: ir.Value) -> None:
        """Trap (a Rust panic: out-of-bounds index, failed assert) when `ok` is false."""
        failed = arith.xori(ok, self.const("i1", 1))
        branch = scf.IfOp(failed)
        with ir.InsertionPoint(branch.then_block):
            llvm.intr_trap()
            scf.YieldOp([])

    def gep(self, base: ir.Value, index: ir.Value, elem: ir.Type) -> ir.Value:
        """&base[index] for elements of type `elem` (index as i64)."""
        dynamic = -2147483648  # LLVM's marker for "the next index is an SSA operand"
        return llvm.getelementptr(base.type, base, [self.i64(index)], ir.DenseI32ArrayAttr.get([dynamic]),
                                  ir.TypeAttr.get(elem), llvm.GEPNoWrapFlags.inbounds)

    def load(self, type_: ir.Type, address: ir.Value, **flags: Any) -> ir.Value:
        """llvm.load at the type's natural alignment, which Rust guarantees for every element."""
        flags.setdefault("alignment", natural_alignment(type_))
        return llvm.load(type_, address, **flags)

    def store(self, value: ir.Value, address: ir.Value, **flags: Any) -> None:
        """llvm.store at the value type's natural alignment."""
        flags.setdefault("alignment", natural_alignment(value.type))
        llvm.store(value, address, **flags)

    def require_sm(self, minimum: int, what: str, instead: str) -> None:
        """Raise LoweringError unless the conversion's target (options.target) is sm_<minimum> or newer."""
        target = self.options.target
        if target.sm < minimum:
            raise LoweringError(f"{what} needs sm_{minimum} or newer, but the target is {target.chip}; {instead}")

    def require_arch_specific(self, sm: int, what: str) -> None:
        """Raise LoweringError unless the target is sm_<sm>a: the arch-specific instructions (wgmma, setmaxnreg,
        TMA multicast) exist only there, and PTX that uses them runs on that architecture alone."""
        target = self.options.target
        if target.sm != sm or not target.arch_specific:
            raise LoweringError(f"{what} needs sm_{sm}a; this build targets {target.chip} "
                                f"(compile with --chip sm_{sm}a)")

    def unique_symbol(self, prefix: str) -> str:
        """A symbol name not yet used in the gpu.module."""
        existing = {ir.StringAttr(op.attributes["sym_name"]).value
                    for op in self.container.regions[0].blocks[0].operations if "sym_name" in op.attributes}
        n = 0
        while f"{prefix}_{n}" in existing or f"{prefix}_{n}" in self._names:
            n += 1
        self._names.add(f"{prefix}_{n}")
        return f"{prefix}_{n}"

    def at_module_start(self) -> ir.InsertionPoint:
        """Where globals go: the start of the gpu.module body."""
        return ir.InsertionPoint.at_block_begin(self.container.regions[0].blocks[0])

    def function_attr(self, name: str) -> ir.Attribute | None:
        """An attribute of the function being lowered (kernel contract facts live there)."""
        # Looked up here, not for every op lowered: few rules ask (a walk up the parents each).
        function = _enclosing_function(self.current) if self.current is not None else None
        if function is None or name not in function.attributes:
            return None
        return function.attributes[name]


def natural_alignment(t: ir.Type) -> int:
    """Bytes of an integer, float or vector type: its natural alignment. Stated explicitly on every access
    because LLVM otherwise assumes the default data layout's 4-byte alignment for i64 and splits the access."""
    if isinstance(t, ir.VectorType):
        return natural_alignment(t.element_type) * t.shape[0]
    width = t.width if hasattr(t, "width") else 64
    return max(width // 8, 1)


def _tie(ctx: LoweringContext, old: ir.Value, parts: Sequence[ir.Value]) -> None:
    cast = ir.Operation.create(builtin.UnrealizedConversionCastOp.OPERATION_NAME, results=[old.type],
                               operands=list(parts),
                               attributes={PARTS_MARKER: ir.UnitAttr.get()})
    ctx.casts.append(cast)
    old.replace_all_uses_with(cast.result)


def _is_converted(conversion: Conversion, t: ir.Type) -> bool:
    return conversion.convert_type(t) is not None


def convert_signature(ctx: LoweringContext, func: ir.Operation) -> None:
    """Split the converted-type arguments of a gpu.func / func.func into their parts, in place."""
    ruleset = ctx.conversion
    if not func.regions[0].blocks:
        return
    entry = func.regions[0].blocks[0]
    old_args = list(entry.arguments)
    if not any(_is_converted(ruleset, a.type) for a in old_args):
        return
    new_types: list[ir.Type] = []
    with ir.InsertionPoint.at_block_begin(entry):
        for arg in old_args:
            lowered = ruleset.convert_type(arg.type)
            if lowered is None:
                fresh = entry.add_argument(arg.type, arg.location)
                arg.replace_all_uses_with(fresh)
                new_types.append(arg.type)
            else:
                fresh_parts = [entry.add_argument(t, arg.location) for t in lowered]
                with arg.location:
                    _tie(ctx, arg, fresh_parts)
                new_types.extend(lowered)
    for _ in old_args:
        entry.erase_argument(0)
    old_type = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
    func.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(new_types, list(old_type.results)))


def lower_ops(ctx: LoweringContext, root: ir.Operation) -> list[tuple[ir.Location, str]]:
    """Apply the rules to every op of the rule set's dialect under `root`, in program order, and split the
    converted-type results of an scf.if once its branches are lowered (post-order: the dialect's ops are leaves,
    so they keep program order, and an scf.if comes after its branches and before any use of its results).
    The failures of the rules, else the ops outside the dialect that take or yield converted types."""
    prefix = ctx.conversion.dialect + "."
    todo: list[ir.Operation] = []
    strays = _StrayValues(ctx.conversion)
    if_name = scf.IfOp.OPERATION_NAME

    cast_name = builtin.UnrealizedConversionCastOp.OPERATION_NAME

    def lowered(op: ir.Operation, name: str) -> bool:
        """Whether the lowering rewrites `op`: the dialect's ops, and the scf.if ops whose results it splits."""
        return name.startswith(prefix) or (name == if_name and any(map(strays.converted, op.results.types)))

    def collect(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if lowered(op, name):
            todo.append(op)
            strays.screen_uses(op, prefix)
        elif name != cast_name or PARTS_MARKER not in op.attributes:  # not a signature's parts cast
            strays.screen(op)
        else:
            strays.screen_uses(op, prefix)
        return ir.WalkResult.ADVANCE

    def check(op: ir.Operation) -> ir.WalkResult:
        name = op.name
        if not lowered(op, name) and (name != cast_name or PARTS_MARKER not in op.attributes):
            strays.check(op)
        return ir.WalkResult.ADVANCE

    walk(root, collect, ir.WalkOrder.POST_ORDER)
    if strays.suspect:  # some op outside the dialect may touch a converted type: find which, in program order
        walk(root, check, ir.WalkOrder.POST_ORDER)
    failures: list[tuple[ir.Location, str]] = []

    def fail(op: ir.Operation, exc: LoweringError) -> None:
        op.attributes[FAILED_MARKER] = ir.UnitAttr.get()
        if not isinstance(exc, FollowsFailure):
            failures.append((exc.location, exc.message))

    for op in todo:
        if is_op(op, scf.IfOp):
            try:
                _split_if_results(ctx, op)
            except LoweringError as exc:
                fail(op, exc.at(op))
            continue
        ctx.current = op
        try:
            with ir.InsertionPoint(op), op.location:
                new = ctx.conversion.rules.apply(op, ctx, op.opview)
                _replace(ctx, op, new)
        except LoweringError as exc:
            fail(op, exc.at(op))
    return failures or strays.problems


class _StrayValues:
    """The ops outside the dialect that take or yield values of converted types: nothing can lower them.

    Checked before the lowering: the lowering changes no such op's types (a lowered result is replaced by a
    parts cast of the same type), except the scf.if results it splits, whose yields are exempt here. Reading
    every operand's type costs two calls into the bindings per value, so the walk that finds the dialect's ops
    screens from the other side: a converted value is a result of an op the lowering rewrites or of a
    signature's parts cast (whose users it reads), or else a result or block argument of another op (which it
    reads the types of, one call per op). Only where that finds some op outside the dialect touching a
    converted type (`suspect`) does `check` read every op's operands, to report each such op in program
    order."""

    def __init__(self, conversion: Conversion):
        self.conversion = conversion
        self.problems: list[tuple[ir.Location, str]] = []
        self.suspect = False
        self._converted: dict[ir.Type, bool] = {}  # a kernel has thousands of values and a few types

    def screen_uses(self, op: ir.Operation, prefix: str) -> None:
        """Suspect a stray if a converted result of `op` is used outside the dialect (split yields aside)."""
        for result, t in zip(op.results, op.results.types):
            if not self.converted(t):
                continue
            for use in result.uses:
                user = use.owner
                if not user.name.startswith(prefix) and not self._split_yield(user):
                    self.suspect = True
                    return

    def screen(self, op: ir.Operation) -> None:
        """Suspect a stray if `op`, outside the dialect, yields a converted type or has a block argument of one."""
        if any(map(self.converted, op.results.types)) or (len(op.regions) and any(
                self.converted(arg.type) for region in op.regions for block in region.blocks
                for arg in block.arguments)):
            self.suspect = True

    def converted(self, t: ir.Type) -> bool:
        """Whether the conversion splits `t`."""
        known = self._converted.get(t)
        if known is None:
            known = self._converted[t] = _is_converted(self.conversion, t)
        return known

    def check(self, op: ir.Operation) -> None:
        """Record `op` if one of its operands or results has a converted type (once per op)."""
        # The results' types in one call (`types`); operand lists have no such accessor.
        for t in [value.type for value in op.operands] + op.results.types:
            if self.converted(t) and not self._split_yield(op):
                self.problems.append((op.location, f"'{op.name}' cannot take or produce a value of type "
                                                   f"{t}; only simt ops may use it"))
                return

    def _split_yield(self, op: ir.Operation) -> bool:
        parent = op.parent
        return (op.name == scf.YieldOp.OPERATION_NAME and parent is not None and parent.name == scf.IfOp.OPERATION_NAME
                and any(self.converted(r.type) for r in parent.results))


def _split_if_results(ctx: LoweringContext, op: ir.Operation) -> None:
    """Rebuild an scf.if that yields values of converted types (a thread index witness chosen by a branch)
    as one yielding their parts; its branches, already lowered, yield the parts of what they yielded."""
    ruleset = ctx.conversion
    new_types: list[ir.Type] = []
    for result in op.results:
        new_types.extend(ruleset.convert_type(result.type) or [result.type])
    with ir.InsertionPoint(op), op.location:
        new = ir.Operation.create(scf.IfOp.OPERATION_NAME, results=new_types, operands=list(op.operands),
                                  regions=len(op.regions))
    for region, target in zip(op.regions, new.regions):
        for block in list(region.blocks):
            block.append_to(target)
            terminator = list(block.operations)[-1]
            parts: list[ir.Value] = []
            for value in terminator.operands:
                parts.extend(ctx.parts(value) if _is_converted(ruleset, value.type) else [value])
            with ir.InsertionPoint(terminator), terminator.location:
                ir.Operation.create(scf.YieldOp.OPERATION_NAME, operands=parts)
            terminator.erase()
    position = 0
    with ir.InsertionPoint(op), op.location:
        for result in op.results:
            width = len(ruleset.convert_type(result.type) or [result.type])
            pieces = list(new.results)[position:position + width]
            if _is_converted(ruleset, result.type):
                _tie(ctx, result, pieces)
            else:
                result.replace_all_uses_with(pieces[0])
            position += width
    op.erase()


def _enclosing_function(op: ir.Operation) -> ir.Operation | None:
    parent = op.parent
    while parent is not None and parent not in FUNCTIONS:
        parent = parent.parent
    return parent


def _replace(ctx: LoweringContext, op: ir.Operation, new: Any) -> None:
    results = list(op.results)
    if not results:
        op.erase()
        return
    values = new if len(results) > 1 else [new]
    for old, replacement in zip(results, values):
        if isinstance(replacement, (list, tuple)):
            _tie(ctx, old, replacement)
        else:
            old.replace_all_uses_with(replacement)
    op.erase()


def finish(ctx: LoweringContext) -> None:
    """Remove the parts casts nothing uses any more (their users were the dialect's ops, now lowered)."""
    for cast in reversed(ctx.casts):  # users before the casts they use: a chain of dead casts goes at once
        if not list(cast.result.uses):
            cast.erase()


def run_conversion(conversion: Conversion, container: ir.Operation, options: Any) -> None:
    """Convert everything under `container` (a gpu.module); raise PassError with every failure."""
    ctx = LoweringContext(conversion, container, options)
    for op in container.regions[0].blocks[0].operations:
        if op in FUNCTIONS:
            convert_signature(ctx, op.operation)
    failures = lower_ops(ctx, container)
    if failures:
        raise PassError(failures)
    finish(ctx)
