"""Type resolution for the SIMT emitter: a written Rust type -> its semantic type (types.py), with the
compile-time integers types take (array lengths, alignments, const generics, index-space sizes).

Functions of the emitter: they read its generic bindings (`em.generics`) and the crate's items.
"""

from __future__ import annotations

import contextlib
import operator
from typing import Any, Iterator, TYPE_CHECKING

from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.paths import strip_modules
from oxide.frontends.simt.emit_support import unknown_type
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.ranges import range_type
from oxide.frontends.simt.calls.device_types import TensorMapTy, TmaDescriptorTy, device_type
from oxide.dialects.simt.shared import MAX_SHARED_ALIGN
from oxide.frontends.syntax import ast

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter

MAX_LENGTH = (1 << 31) - 1
# Compile-time integers are at most 128 bits wide in Rust (u128, i128); a fold past that is an overflow.
_CONST_LIMIT = 1 << 128
_CONST_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "<<": operator.lshift, ">>": operator.rshift}

HANDLES = (T.Slice, T.Disjoint, T.Shared, T.Ptr, T.ElemRef, T.ThreadIndex, T.Closure, T.Atomic, T.LocalRef, T.CellPtr,
            T.PlaceRef, T.FnItem, T.LocalSlice, T.PtrSlice, T.ThreadRun, T.GridRuns, T.Tile2D)


def resolve_type(em: FunctionEmitter, t: Any) -> T.Ty:
    """The semantic type of a written type."""
    if isinstance(t, ast.PathTy):
        return _path_type(em, t)
    if isinstance(t, ast.RefTy):
        return _ref_type(em, t)
    if isinstance(t, ast.ArrayTy):
        elem = resolve_type(em, t.elem)
        safety.check_stored(elem, getattr(t, "loc", None), "an array")
        return T.Array(elem, length_arg(em, t.length))
    if isinstance(t, ast.TupleTy):
        return T.UNIT if not t.elems else T.Tuple(tuple(resolve_type(em, e) for e in t.elems))
    if isinstance(t, ast.PtrTy):
        return _ptr_type(em, t)
    if isinstance(t, ast.FnPtrTy):
        return T.FnPtr()
    if isinstance(t, ast.SliceTy):
        raise err(t.loc, "an unsized slice `[T]` must be behind a reference: `&[T]`")
    raise err(getattr(t, "loc", None), f"unsupported type {t}")


def _path_type(em: FunctionEmitter, t: ast.PathTy) -> T.Ty:
    """A named type: a generic parameter, a language or device type, or the crate's own struct or enum."""
    bound = em.generics[-1].get(t.name)
    if isinstance(bound, T.Ty):
        return bound
    language = _language_type(em, t)
    if language is not None:
        return language
    if t.name == "Self" and "Self" in em.generics[-1]:
        return em.generics[-1]["Self"]
    struct = em.crate.struct(t.name)
    if struct is not None:
        return struct_type(em, struct, [resolve_type(em, a) for a in t.args])
    enum = em.crate.enum(t.name)
    if enum is not None:
        return enum_type(em, enum)
    if t.name == "Ordering":
        return T.ORDERING  # core::cmp::Ordering (a user's own `Ordering` item was found above)
    device = device_type(em, t)
    if device is not None:
        return device
    self_ty = em.generics[-1].get("Self")
    if isinstance(self_ty, T.Ty):
        # `Self::Output` inside an impl: the impl's associated type (the path's last segment names it).
        assoc = em.crate.assoc_type(getattr(self_ty, "name", self_ty.rust()).split("<")[0], t.name)
        if assoc is not None:
            return resolve_type(em, assoc)
    if t.name in ("Vec", "Box", "String", "HashMap", "Rc", "Arc"):
        raise err(t.loc, f"heap allocation (`{t.name}`) is not supported in device code")
    raise unknown_type(em.crate, t.loc, t.name)


def _language_type(em: FunctionEmitter, t: ast.PathTy) -> T.Ty | None:
    """A primitive, core or cuda_device type that no item of the crate can shadow, or None."""
    if t.name in T.PRIMITIVES:
        return T.PRIMITIVES[t.name]
    if t.name in ("!", "Infallible"):
        return T.NEVER
    if t.name == "DisjointSlice":
        elem = scalar_element(em, t.args[0], "a DisjointSlice")
        return T.Disjoint(elem, space(em, t.args[1]) if len(t.args) > 1 else "1d")
    if t.name == "Option":
        return T.OptionTy(resolve_type(em, t.args[0]))
    if t.name == "Range" and len(t.args) == 1:
        return range_type(resolve_type(em, t.args[0]))
    if t.name == "MaybeUninit" and len(t.args) == 1:
        # A local that may be uninitialised: its storage is the T's (reading before writing is UB in
        # Rust; here it reads whatever the local holds).
        return resolve_type(em, t.args[0])
    if t.name == "Uniform" and len(t.args) == 1:
        # A launch-uniform value is its value here (uniformity is not tracked yet); the host passes T.
        return resolve_type(em, t.args[0])
    if t.name == "SharedArray":
        align = align_arg(em, t.args[2], "`SharedArray`") if len(t.args) > 2 else 0
        return T.Shared(scalar_element(em, t.args[0], "a SharedArray"), length_arg(em, t.args[1]), align)
    if t.name in T.ATOMICS:
        scope, value = T.ATOMICS[t.name]
        return T.Atomic(value, scope)
    if t.name == "ThreadIndex":
        return T.ThreadIndex(space(em, t.args[-1]) if t.args else "1d")
    if t.name == "Acc64x64" and not t.args:
        return T.Array(T.Array(T.F32, 8), 4)  # cuda_device::wgmma's m64n64 f32 accumulator, 32 floats a thread
    return None


def _ref_type(em: FunctionEmitter, t: ast.RefTy) -> T.Ty:
    if isinstance(t.inner, ast.SliceTy):
        return T.Slice(scalar_element(em, t.inner.elem, "a slice"), t.mutable)
    inner = resolve_type(em, t.inner)
    if isinstance(inner, TmaDescriptorTy) and not t.mutable:
        return TensorMapTy()  # `&TmaDescriptor`: the same tensor map as `*const TmaDescriptor`
    if isinstance(inner, HANDLES):
        return inner  # `&mut DisjointSlice<T>` / `&SharedArray`: the handle already refers to the memory
    if t.mutable:
        return T.ElemRef(inner)
    return inner  # `&T` of a Copy value is passed by value


def _ptr_type(em: FunctionEmitter, t: ast.PtrTy) -> T.Ty:
    pointee = resolve_type(em, t.inner)
    if isinstance(pointee, TmaDescriptorTy) and not t.mutable:
        return TensorMapTy()  # the descriptor is read-only to the device: TMA reads it, nothing writes it
    if isinstance(pointee, T.Unit):
        return T.Ptr(T.UNIT, t.mutable, 1)  # `*const ()`: an address only, never read through
    if isinstance(t.inner, ast.PtrTy) and not t.mutable:
        # `*const *const T`: only a local array of pointers has one (local_pointers.py); it is never
        # read through memory.
        return T.Ptr(pointee, False, 1)
    if isinstance(pointee, T.Shared):
        # `*mut SharedArray<T, N>`: a pointer to the array, in shared memory (places.shared_pointer).
        return T.Ptr(T.Array(pointee.elem, pointee.length), t.mutable, 3)
    return T.Ptr(scalar_element(em, t.inner, "a raw pointer"), t.mutable, 1)


def scalar_element(em: FunctionEmitter, t: Any, container: str) -> T.Ty:
    """The element type of a slice, DisjointSlice, SharedArray or raw pointer: scalars, atomics, and
    arrays, tuples and structs built from scalars (laid out in memory as `T.mem` says)."""
    elem = resolve_type(em, t)
    if not isinstance(elem, T.Atomic) and not in_memory(elem):
        raise err(getattr(t, "loc", None), f"{container} of `{elem}` elements is not supported in device code "
                                           "(elements must be integers, floats, bools, fieldless enums, or "
                                           "arrays, tuples and structs of them)")
    return elem


def space(em: FunctionEmitter, t: Any) -> str:
    if isinstance(t, ast.PathTy):
        if t.name == "Index1D":
            return "1d"
        if t.name == "Index2D":
            return f"2d:{const_arg(em, t.args[0])}"
        if t.name in ("Runtime2DIndex", "Runtime2D"):
            return "runtime_2d"
        if t.name == "WarpIndex":
            return "warp"
        if t.name == "LinearTiles" and len(t.args) == 1:
            count = const_arg(em, t.args[0])
            if count <= 0:
                raise err(t.loc, "`LinearTiles<N>` needs N >= 1")
            check_tile_dims(em, t, [count])
            return f"tiles:{count}"
        if t.name in ("RowMajorTiles", "RuntimeRowMajorTiles") and len(t.args) == (3 if t.name == "RowMajorTiles" else 2):
            dims = [const_arg(em, a) for a in t.args]
            if min(dims) <= 0 or (len(dims) == 3 and dims[1] > dims[2]):
                raise err(t.loc, f"`{t.name}` needs tile rows and columns of at least 1"
                                 + (" and no more columns than the row stride" if len(dims) == 3 else ""))
            check_tile_dims(em, t, dims)
            return f"{'rmtiles' if len(dims) == 3 else 'rttiles'}:{':'.join(map(str, dims))}"
    raise err(getattr(t, "loc", None), f"unknown index space `{getattr(t, 'name', t)}` (Index1D, Index2D<S>, Runtime2DIndex, WarpIndex, "
                                          "LinearTiles<N>, RowMajorTiles<R, C, S>, RuntimeRowMajorTiles<R, C>)")


def check_tile_dims(em: FunctionEmitter, t: ast.PathTy, dims: list[int]) -> None:
    """A tiled index space's sizes stay within MAX_LENGTH: the view code multiplies them by 32-bit thread
    coordinates in 64 bits, which must not wrap."""
    for arg, dim in zip(t.args, dims):
        if dim > MAX_LENGTH:
            raise err(getattr(arg, "loc", None) or t.loc, f"`{t.name}` size {dim} is out of range: a tile size "
                                                          f"or row stride is from 1 to {MAX_LENGTH}")


def const_arg(em: FunctionEmitter, e: Any) -> int:
    """A compile-time integer: a literal, a const generic, a `const` item, or arithmetic on them."""
    if isinstance(e, ast.PathTy):
        e = ast.PathExpr(e.loc, [e.name])
    if isinstance(e, ast.Lit) and e.kind == "int":
        return int(e.value)
    if isinstance(e, ast.PathExpr) and len(e.segments) > 1:
        e = ast.PathExpr(e.loc, strip_modules(em, e.segments))  # `super::N16`
    if isinstance(e, ast.PathExpr) and len(e.segments) == 2:
        const = assoc_const(em, e.segments[0], e.segments[1])
        if const is not None:
            return const_arg(em, const.value)
    if isinstance(e, ast.PathExpr) and len(e.segments) == 1:
        bound = em.generics[-1].get(e.segments[0])
        if isinstance(bound, int):
            return bound
        const = em.crate.const(e.segments[0])
        if const is not None:
            return const_arg(em, const.value)
    if isinstance(e, ast.Binary) and e.op in ("+", "-", "*", "/", "%", "<<", ">>"):
        return _fold_const(e, const_arg(em, e.lhs), const_arg(em, e.rhs))
    if isinstance(e, ast.Block) and e.tail is not None and not e.stmts:
        return const_arg(em, e.tail)
    if isinstance(e, ast.Cast):
        return const_arg(em, e.operand)
    raise err(getattr(e, "loc", None), "expected a compile-time integer (a literal, a const generic or a `const`)")


def length_arg(em: FunctionEmitter, e: Any) -> int:
    """An array or shared-array length: a compile-time integer from 0 to MAX_LENGTH."""
    length = const_arg(em, e)
    if not 0 <= length <= MAX_LENGTH:
        raise err(getattr(e, "loc", None), f"array length {length} is out of range: a length is from 0 to "
                                           f"{MAX_LENGTH} (the 32-bit indices of device code)")
    return length


def align_arg(em: FunctionEmitter, e: Any, what: str) -> int:
    """A shared-memory alignment: a compile-time power of two from 1 to MAX_SHARED_ALIGN bytes."""
    align = const_arg(em, e)
    if align <= 0 or align & (align - 1) or align > MAX_SHARED_ALIGN:
        raise err(getattr(e, "loc", None), f"{what} alignment {align} must be a power of two from 1 to "
                                           f"{MAX_SHARED_ALIGN} bytes")
    return align


def assoc_const(em: FunctionEmitter, qualifier: str, name: str) -> ast.ConstDef | None:
    """`Q::NAME` where Q is a type (or a generic parameter bound to one) with an associated const NAME."""
    bound = em.generics[-1].get(qualifier)
    type_name = qualifier
    if isinstance(bound, T.Ty):
        type_name = getattr(bound, "name", bound.rust()).split("<")[0]
    return em.crate.assoc_const(type_name, name)


@contextlib.contextmanager
def _resolving(em: FunctionEmitter, kind: str, name: str, loc: Any) -> Iterator[None]:
    """Resolve the fields of struct or enum `name`; meeting it again inside them means it refers to itself,
    which is a located error (not an endless recursion)."""
    resolving = em.types_resolving
    if name in resolving:
        path = " -> ".join(resolving[resolving.index(name):] + [name])
        raise err(loc, f"{kind} `{name}` refers to itself (through `{path}`): a type that holds itself has "
                       "infinite size, and device types cannot refer to themselves through pointers either; "
                       "use indices into a buffer instead")
    resolving.append(name)
    try:
        yield
    finally:
        resolving.pop()


def struct_type(em: FunctionEmitter, struct: ast.StructDef, args: list[T.Ty]) -> T.Struct:
    bindings = dict(zip((g.name for g in struct.generics), args))
    em.generics.append({**em.generics[-1], **bindings})
    try:
        with _resolving(em, "struct", struct.name, struct.loc):
            fields = tuple((name, resolve_type(em, t)) for name, t in struct.fields)
    finally:
        em.generics.pop()
    for (name, ty), (_, written) in zip(fields, struct.fields):
        safety.check_stored(ty, getattr(written, "loc", struct.loc), f"a struct field (`{struct.name}.{name}`)")
    suffix = "<" + ", ".join(a.rust() for a in args) + ">" if args else ""
    return T.Struct(struct.name + suffix, fields, struct.align)


def enum_type(em: FunctionEmitter, enum: ast.EnumDef) -> T.Enum | T.DataEnum:
    variants, next_value = [], 0
    for name, value in enum.variants:
        next_value = value if value is not None else next_value
        variants.append((name, next_value))
        next_value += 1
    if not enum.fields:
        ty = T.Enum(enum.name, tuple(variants), enum.repr)
        try:
            ty.storage
        except ValueError:
            values = [value for _, value in variants]
            raise err(enum.loc, f"enum `{enum.name}`: its discriminants ({min(values)} to {max(values)}) fit no "
                                "integer type of 64 bits or less")
        _check_discriminants(enum, variants, ty.storage, f"its `#[repr({ty.storage})]`")
        return ty
    _check_discriminants(enum, variants, T.PRIMITIVES["i32"], "the i32 tag of an enum with fields")
    with _resolving(em, "enum", enum.name, enum.loc):
        payloads = tuple((f"#{name}", T.Tuple(tuple(resolve_type(em, t) for t in enum.fields.get(name, []))))
                         for name, _ in variants)
    return T.DataEnum(enum.name, (("#tag", T.PRIMITIVES["i32"]),) + payloads, discriminants=tuple(variants))


def _check_discriminants(enum: ast.EnumDef, variants: list[tuple[str, int]], ty: T.Int, what: str) -> None:
    """Every discriminant fits the integer the enum is stored as (a wrapped one would equal another's)."""
    low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
    for name, value in variants:
        if not low <= value <= high:
            raise err(enum.loc, f"enum `{enum.name}`: the discriminant of `{name}` is {value}, which does not fit "
                                f"{what} ({low} to {high})")


def _fold_const(e: ast.Binary, a: int, b: int) -> int:
    """Rust's `a op b` on compile-time integers: division truncates toward zero; a division by zero, a shift
    past 127 or a result past 128 bits is a located error, never a wrapped or huge Python value."""
    if e.op in ("/", "%") and b == 0:
        raise err(e.loc, f"this `{e.op}` divides by zero in a compile-time integer")
    if e.op in ("<<", ">>") and not 0 <= b < 128:
        raise err(e.loc, f"this `{e.op}` shifts by {b}: a shift amount is from 0 to 127")
    if e.op in ("/", "%"):
        quotient = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
        value = quotient if e.op == "/" else a - b * quotient
    else:
        value = _CONST_OPS[e.op](a, b)
    if not -_CONST_LIMIT <= value < _CONST_LIMIT:
        raise err(e.loc, f"this `{e.op}` overflows: compile-time integers are at most 128 bits")
    return value


def in_memory(ty: T.Ty) -> bool:
    """Whether values of `ty` can live in memory: scalars and aggregates of them (not enums with fields,
    whose register form is no memory layout)."""
    if isinstance(ty, T.DataEnum):
        return False
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum)):
        return True
    if isinstance(ty, T.Array):
        return in_memory(ty.elem)
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return bool(parts) and all(in_memory(p) for p in parts)
    return False
