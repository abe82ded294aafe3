"""Lowering of simt atomics to scoped PTX atomics: `ld/st.<sem>.<scope>`, `atom.<sem>.<scope>.<op>` and
`atom.<sem>.<scope>.cas`.

Loads, stores and compare-exchange go through LLVM's atomic `load`/`store`/`cmpxchg` with an NVPTX sync
scope, which LLVM 22 lowers to the scoped PTX forms. Read-modify-write ops do not: LLVM 22's NVPTX backend
drops both the ordering and the sync scope of `atomicrmw` (an acq_rel system-scope add becomes a relaxed
`.gpu` one; fixed upstream for LLVM 23 by llvm-project#179553), so they are one PTX `atom` instruction
written inline, with the ordering and scope spelled out.
"""

from __future__ import annotations


from mlir import ir
from mlir.dialects import arith, llvm

from oxide.dialects.simt import atomics as ops
from oxide.dialects.simt.types import PtrType
from oxide.ir.declare import python_value
from oxide.passes.conversion.lowering import LoweringContext, natural_alignment
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_LLVM_ORDERING = {"relaxed": llvm.AtomicOrdering.monotonic, "acquire": llvm.AtomicOrdering.acquire,
                  "release": llvm.AtomicOrdering.release, "acq_rel": llvm.AtomicOrdering.acq_rel,
                  "seq_cst": llvm.AtomicOrdering.seq_cst}
# NVPTX's LLVM sync scopes; system scope is LLVM's default one, which has no name.
_LLVM_SYNCSCOPE = {"block": "block", "device": "device", "system": None}
_PTX_SCOPE = {"block": "cta", "device": "gpu", "system": "sys"}
_PTX_SPACE = {0: "", 1: ".global", 3: ".shared"}
# The PTX `atom` operation and type class of each kind (the width comes from the element type). PTX has
# no atomic subtraction: sub and fsub add the negated value, which is exact in two's complement and IEEE.
_PTX_OP = {"add": ("add", "u"), "sub": ("add", "u"), "fadd": ("add", "f"), "fsub": ("add", "f"),
           "and": ("and", "b"), "or": ("or", "b"), "xor": ("xor", "b"), "min": ("min", "s"), "max": ("max", "s"),
           "umin": ("min", "u"), "umax": ("max", "u"), "xchg": ("exch", "b")}
# Inline-asm register constraints per element type; addresses are 64-bit in every address space.
_REGISTER = {"i32": "r", "i64": "l", "f16": "h", "f32": "f", "f64": "d"}


def _require_sm70(ctx: LoweringContext) -> None:
    # `.sem` and `.scope` qualifiers on ld/st/atom are PTX 6.0, sm_70 (the memory model's first chip).
    ctx.require_sm(70, "a scoped atomic with a memory ordering", "compile for sm_70+")


def _address(ctx: LoweringContext, ptr: ir.Value) -> tuple[ir.Value, int]:
    """The lowered pointer and its address space."""
    return ctx.parts(ptr)[0], python_value(PtrType.parameters_of(ptr.type)[1])


@lowering(ops.AtomicLoadOp)
def lower_atomic_load(ctx: LoweringContext, op: ops.AtomicLoadOp) -> ir.Value:
    _require_sm70(ctx)
    address, _ = _address(ctx, op.ptr)
    return ctx.load(op.result.type, address, ordering=_LLVM_ORDERING[op.ordering],
                    syncscope=_LLVM_SYNCSCOPE[op.scope])


@lowering(ops.AtomicStoreOp)
def lower_atomic_store(ctx: LoweringContext, op: ops.AtomicStoreOp) -> None:
    _require_sm70(ctx)
    address, _ = _address(ctx, op.ptr)
    ctx.store(op.value, address, ordering=_LLVM_ORDERING[op.ordering], syncscope=_LLVM_SYNCSCOPE[op.scope])


def atom_instruction(kind: str, elem: str, scope: str, ordering: str, space: int) -> str:
    """The PTX of one `atom` read-modify-write (operands $0 result, $1 address, $2 value)."""
    operation, type_class = _PTX_OP[kind]
    prefix = ""
    if ordering == "seq_cst":
        # The C++-to-PTX mapping of a seq_cst RMW (and LLVM's for cmpxchg): fence.sc, then an acquire
        # atom; the fence also makes the atom's write a release.
        prefix, ordering = f"fence.sc.{_PTX_SCOPE[scope]};\n\t", "acquire"
    head = f"{prefix}atom.{ordering}.{_PTX_SCOPE[scope]}{_PTX_SPACE[space]}"
    if elem == "f16" and operation == "exch":
        # PTX has no 16-bit exchange: compare-and-swap until the value read is the one replaced.
        return (f"{{ .reg .b16 e; .reg .pred p;\n\tld.volatile{_PTX_SPACE[space]}.b16 e, [$1];\n"
                f"\tXCHG: {head}.cas.b16 $0, [$1], e, $2;\n\tsetp.ne.b16 p, $0, e;\n\tmov.b16 e, $0;\n"
                "\t@p bra XCHG; }")
    if elem == "f16":
        return f"{head}.{operation}.noftz.f16 $0, [$1], $2;"  # PTX's f16 add exists only without ftz
    return f"{head}.{operation}.{type_class}{elem[1:]} $0, [$1], $2;"


@lowering(ops.AtomicRmwOp)
def lower_atomic_rmw(ctx: LoweringContext, op: ops.AtomicRmwOp) -> ir.Value:
    _require_sm70(ctx)
    address, space = _address(ctx, op.ptr)
    elem = str(op.value.type)
    value = op.value
    if op.kind == "sub":
        value = arith.subi(ctx.const(value.type, 0), value)
    elif op.kind == "fsub":
        value = arith.negf(value)
    register = _REGISTER[elem]
    # The memory clobber keeps LLVM from moving other accesses across the atomic (its ordering) and from
    # reusing a value loaded before it.
    return llvm.inline_asm(op.result.type, [address, value],
                           atom_instruction(op.kind, elem, op.scope, op.ordering, space),
                           f"={register},l,{register},~{{memory}}", has_side_effects=True)


@lowering(ops.AtomicCmpxchgOp)
def lower_atomic_cmpxchg(ctx: LoweringContext, op: ops.AtomicCmpxchgOp) -> tuple[ir.Value, ir.Value]:
    _require_sm70(ctx)
    address, _ = _address(ctx, op.ptr)
    pair = llvm.cmpxchg(address, op.expected, op.desired, _LLVM_ORDERING[op.success_ordering],
                        _LLVM_ORDERING[op.failure_ordering], syncscope=_LLVM_SYNCSCOPE[op.scope],
                        alignment=natural_alignment(op.old.type))
    return (llvm.extractvalue(op.old.type, pair, [0]),
            llvm.extractvalue(ir.IntegerType.get_signless(1), pair, [1]))
