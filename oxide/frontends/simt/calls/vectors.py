"""cuda_device's `vector` module: the CUDA vector types as over-aligned structs (`F32x4` is
`#[repr(C, align(16))] struct F32x4([f32; 4])`, the layout of `float4`), and the views
`vector::as_vectors::<V>(s)` / `as_vectors_mut::<V>(s)` of a scalar slice as a slice of V: `None` when the
slice's start is not aligned to V, else the slice of its `len() / lanes` whole vectors (a tail of fewer than
`lanes` scalars is not in the view). Whole-vector reads and writes through the view are 64- or 128-bit
accesses (places.py states their alignment). A vector value has `x()`, `y()`, `z()`, `w()`, `to_array()`,
`v[i]` (bounds-checked) and the field `.0`, and is built with `V::new([..])` or `V([..])`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.indexing import array_load
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import OptionVal, Val

_LANES = {"x": 0, "y": 1, "z": 2, "w": 3}


@dataclass(frozen=True)
class VectorTy(T.Struct):
    """A cuda_device vector type: a struct of one array field, aligned to its size (8 or 16 bytes)."""

    def rust(self) -> str:
        return self.name

    @property
    def indexed(self) -> bool:
        return True

    @property
    def lanes(self) -> T.Array:
        """The array field (`.0`)."""
        return self.fields[0][1]


def _vector(name: str, scalar: str, lanes: int) -> VectorTy:
    elem = T.PRIMITIVES[scalar]
    return VectorTy(name, (("0", T.Array(elem, lanes)),), T.layout(elem)[0] * lanes)


VECTORS: dict[str, VectorTy] = {v.name: v for v in (
    _vector("F32x2", "f32", 2), _vector("F32x4", "f32", 4), _vector("F64x2", "f64", 2),
    _vector("I32x2", "i32", 2), _vector("I32x4", "i32", 4), _vector("U32x2", "u32", 2), _vector("U32x4", "u32", 4),
    _vector("I64x2", "i64", 2), _vector("U64x2", "u64", 2),
)}


def vector_type(t: ast.PathTy) -> VectorTy | None:
    """`F32x4` & co as a type (in a path or after `use cuda_device::vector::F32x4`), else None."""
    return VECTORS.get(t.name) if not t.args else None


def _one_arg(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


@device_fn("vector::as_vectors", "vector::as_vectors_mut", when=_one_arg)
def _as_vectors(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    mutable = segs[-1] == "as_vectors_mut"
    vector = _requested(em, generics, expected, loc)
    s = em.expr(args[0])
    if not (isinstance(s.ty, T.Slice) and s.ty.elem == vector.lanes.elem and (s.ty.mutable or not mutable)):
        want = f"&{'mut ' if mutable else ''}[{vector.lanes.elem}]"
        raise err(args[0].loc, f"`vector::{segs[-1]}::<{vector.name}>` takes a `{want}`, not `{s.ty}`")
    first = simt.SlicePtrOp.build(s.v, results=[T.Ptr(vector.lanes.elem, mutable, 1).mlir()])
    i64 = ir.IntegerType.get_signless(64)
    misalignment = arith.andi(simt.PtrToIntOp.build(first), arith.constant(i64, ir.IntegerAttr.get(i64, vector.align - 1)))
    aligned = arith.cmpi(arith.CmpIPredicate.eq, misalignment, arith.constant(i64, ir.IntegerAttr.get(i64, 0)))
    start = simt.PtrCastOp.build(first, results=[T.Ptr(vector, mutable, 1).mlir()])
    count = arith.divui(simt.LenOp.build(s.v), index(vector.lanes.length))
    view = T.Slice(vector, mutable)
    return Val(T.OptionTy(view), OptionVal(aligned, Val(view, simt.SliceFromPtrOp.build(start, count,
                                                                                        results=[view.mlir()]))))


def _requested(em: Emitter, generics: list[Any], expected: T.Ty | None, loc: Any) -> VectorTy:
    """The vector type of `as_vectors::<V>` (or the one the binding's annotation asks for)."""
    if len(generics) == 1:
        ty = em.resolve_type(generics[0])
    elif isinstance(expected, T.OptionTy) and isinstance(expected.inner, T.Slice):
        ty = expected.inner.elem
    else:
        raise err(loc, "cannot infer the vector type of `vector::as_vectors`; write `as_vectors::<F32x4>(s)`")
    if not isinstance(ty, VectorTy):
        raise err(loc, f"`vector::as_vectors` views a slice as vectors ({', '.join(VECTORS)}), not as `{ty}`")
    return ty


@device_fn(*VECTORS, *(f"{name}::new" for name in VECTORS), when=_one_arg)
def _new(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    """`F32x4::new([..])` and the tuple-struct constructor `F32x4([..])`."""
    vector = VECTORS[segs[-1] if segs[-1] in VECTORS else segs[-2]]
    value = em.coerce(em.expr(args[0], vector.lanes), vector.lanes, args[0].loc)
    return Val(vector, [em.owned(value)])


@device_method(VectorTy, "x", "y", "z", "w", "to_array", when=lambda em, recv, name, args, *_: not args)
def _methods(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    lanes = recv.v[0]
    if name == "to_array":
        return em.owned(lanes)
    k = _LANES[name]
    if k >= recv.ty.lanes.length:
        raise err(loc, f"`{recv.ty}` has {recv.ty.lanes.length} lanes: no `{name}()`")
    return array_load(lanes.v, index(k), recv.ty.lanes.elem)
