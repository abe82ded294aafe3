"""simt atomic ops: cuda-oxide's scoped atomics `{Device,Block,System}Atomic{U32,I32,U64,I64,F16,F32,F64}` with
`AtomicOrdering`, on raw pointers into global (1), shared (3) or generic (0) memory.

A Rust atomic type is a `#[repr(transparent)]` cell over its integer or float, so `&[DeviceAtomicU32]`
is a slice of i32 and its elements reach these ops through `simt.elem_ptr`. The type's scope prefix
(Block, Device, System) is the op's `scope`; signedness, which MLIR's signless integers lose, lives in the
op's `kind` (min/max are signed, umin/umax unsigned). Every op takes its memory ordering by name
(`relaxed`, `acquire`, `release`, `acq_rel`, `seq_cst`, as Rust's `AtomicOrdering`), and `verify_()`
rejects the orderings Rust rejects at run time (a release load, an acquire store).

PTX: loads `ld.{relaxed,acquire}.{cta,gpu,sys}[.global|.shared].b32/.b64`, stores
`st.{relaxed,release}.<scope>[.space]`, read-modify-writes `atom.<sem>.<scope>[.space].{add.u32/u64/f32/f64,
and/or/xor.b32/b64, min/max.s32/s64/u32/u64, exch.b32/b64}` (sub and fsub add the negation), compare-exchange
`atom.<sem>.<scope>[.space].cas.b32/.b64`; a seq_cst op is `fence.sc.<scope>` followed by its acquire form
(release for stores). Scopes: block is `.cta`, device `.gpu`, system `.sys`. All need the PTX memory model,
sm_70+: with an older `--chip` each atomic op is a located lowering error.

Lowering: loads, stores and compare-exchange are LLVM atomic `load`/`store`/`cmpxchg` with NVPTX sync scopes
("block", "device", and the unnamed system scope). Read-modify-writes are one inline PTX `atom` each (with a
memory clobber), because LLVM 22's NVPTX backend drops the ordering and scope of `atomicrmw` (an acq_rel
system-scope add comes out as a relaxed `.gpu` one; llvm-project#179553 fixes it for LLVM 23). LLVM 22 would
also expand `atomicrmw fsub` into a compare-exchange loop; adding the negation is exact.

Verification: IRDL checks the pointer's element type against the value and result (one type variable), the
element types, the address spaces (0, 1, 3) and the string enums. The Python verifier rejects what Rust
rejects at run time or what has no meaning: a `release` or `acq_rel` load, an `acquire` or `acq_rel` store, a
`release` or `acq_rel` compare-exchange failure ordering, integer kinds on floats and float kinds on integers.

Not covered: packed `atom_add_f16x2`/`bf16x2`, `compare_exchange_weak`, cluster scope.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import I1, AnyOf, Is, Parametric, TypeVar, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError

# Only the ops reach `oxide.dialects.simt`'s namespace; the tables below are this module's.
__all__ = ["AtomicLoadOp", "AtomicStoreOp", "AtomicRmwOp", "AtomicCmpxchgOp"]

SCOPES = ("block", "device", "system")
ORDERINGS = ("relaxed", "acquire", "release", "acq_rel", "seq_cst")
INTEGER_KINDS = ("add", "sub", "and", "or", "xor", "min", "max", "umin", "umax")
FLOAT_KINDS = ("fadd", "fsub")
# xchg is `swap`, which every atomic type has.
RMW_KINDS = INTEGER_KINDS + FLOAT_KINDS + ("xchg",)

_INTEGERS = ("i32", "i64")
# f16: add/sub (atom.add.noftz.f16) and swap (a compare-and-swap loop on 16 bits), loads and stores.
_FLOATS = ("f16", "f32", "f64")
# Atomics address global, shared or generic memory; local memory (5) is private to a thread.
_ATOMIC_SPACE = AnyOf(Is("0 : i64"), Is("1 : i64"), Is("3 : i64"))

_SCOPE_ATTR = one_of(*SCOPES)
_ORDERING_ATTR = one_of(*ORDERINGS)


def _element_of(ptr_type: object) -> str:
    return str(PtrType.parameters_of(ptr_type)[0])


def _check_ordering(op_name: str, ordering: str, allowed: tuple[str, ...]) -> None:
    if ordering not in allowed:
        raise VerifyError(f"{op_name} cannot have {ordering} ordering (Rust panics on it); "
                          f"use {', '.join(allowed[:-1])} or {allowed[-1]}")


_LOAD_T = TypeVar("T", AnyOf(*(Is(t) for t in _INTEGERS + _FLOATS)))


@DIALECT.op
class AtomicLoadOp(Op):
    """`a.load(ordering)` on a `{Device,Block,System}Atomic*`: an atomic read at the type's scope
    (ordering relaxed, acquire or seq_cst)."""

    mnemonic = "atomic_load"
    ptr = Operand(Parametric(PtrType, _LOAD_T, _ATOMIC_SPACE))
    scope = Attr(_SCOPE_ATTR, "block, device or system")
    ordering = Attr(_ORDERING_ATTR, "memory ordering")
    result = Result(_LOAD_T)

    def verify_(self) -> None:
        _check_ordering("an atomic load", self.ordering, ("relaxed", "acquire", "seq_cst"))


_STORE_T = TypeVar("T", AnyOf(*(Is(t) for t in _INTEGERS + _FLOATS)))


@DIALECT.op
class AtomicStoreOp(Op):
    """`a.store(v, ordering)` on a `{Device,Block,System}Atomic*`: an atomic write at the type's scope
    (ordering relaxed, release or seq_cst)."""

    mnemonic = "atomic_store"
    ptr = Operand(Parametric(PtrType, _STORE_T, _ATOMIC_SPACE))
    value = Operand(_STORE_T)
    scope = Attr(_SCOPE_ATTR, "block, device or system")
    ordering = Attr(_ORDERING_ATTR, "memory ordering")

    def verify_(self) -> None:
        _check_ordering("an atomic store", self.ordering, ("relaxed", "release", "seq_cst"))


_RMW_T = TypeVar("T", AnyOf(*(Is(t) for t in _INTEGERS + _FLOATS)))


@DIALECT.op
class AtomicRmwOp(Op):
    """`a.fetch_add/fetch_sub/fetch_and/fetch_or/fetch_xor/fetch_min/fetch_max(v, ordering)` and
    `a.swap(v, ordering)` on a `{Device,Block,System}Atomic*`: atomically combine `value` into the
    element and return the old value. Integer kinds: add, sub, and, or, xor, min/max (signed: the I32/I64
    types), umin/umax (unsigned: U32/U64); float kinds: fadd, fsub; xchg (swap) on both."""

    mnemonic = "atomic_rmw"
    ptr = Operand(Parametric(PtrType, _RMW_T, _ATOMIC_SPACE))
    value = Operand(_RMW_T)
    kind = Attr(one_of(*RMW_KINDS), "the read-modify-write operation")
    scope = Attr(_SCOPE_ATTR, "block, device or system")
    ordering = Attr(_ORDERING_ATTR, "memory ordering")
    result = Result(_RMW_T, "the value before the operation")

    def verify_(self) -> None:
        elem = _element_of(self.ptr.type)
        if self.kind in INTEGER_KINDS and elem not in _INTEGERS:
            float_kind = f"; use f{self.kind}" if f"f{self.kind}" in FLOAT_KINDS else ""
            raise VerifyError(f"'{self.kind}' is an integer operation, but the element type is {elem}{float_kind}")
        if self.kind in FLOAT_KINDS and elem not in _FLOATS:
            raise VerifyError(f"'{self.kind}' is a float operation, but the element type is {elem}; "
                              f"use {self.kind[1:]}")


_CAS_T = TypeVar("T", AnyOf(*(Is(t) for t in _INTEGERS)))


@DIALECT.op
class AtomicCmpxchgOp(Op):
    """`a.compare_exchange(expected, desired, success, failure)` on an integer
    `{Device,Block,System}Atomic{U32,I32,U64,I64}`: store `desired` if the element equals `expected`;
    return the old value and whether the store happened (Rust's `Ok(old)` / `Err(old)`). The failure
    ordering is that of the load when the comparison fails: relaxed, acquire or seq_cst."""

    mnemonic = "atomic_cmpxchg"
    ptr = Operand(Parametric(PtrType, _CAS_T, _ATOMIC_SPACE))
    expected = Operand(_CAS_T)
    desired = Operand(_CAS_T)
    scope = Attr(_SCOPE_ATTR, "block, device or system")
    success_ordering = Attr(_ORDERING_ATTR, "ordering when the exchange happens")
    failure_ordering = Attr(_ORDERING_ATTR, "ordering when it does not (a load)")
    old = Result(_CAS_T, "the value before the operation")
    success = Result(I1, "whether `desired` was stored")

    def verify_(self) -> None:
        # A failed exchange writes nothing, so there is nothing for release semantics to order.
        _check_ordering("a compare-exchange failure", self.failure_ordering, ("relaxed", "acquire", "seq_cst"))
