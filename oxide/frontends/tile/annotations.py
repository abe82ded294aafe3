"""cutile-rs's non-tile types as `let` annotations: `Shape<{[..]}>` / `Array<{[..]}>`, `Partition<E, S>`,
`PartitionMut<E, S>`, `PointerTile<*mut E, S>`, `Tensor<E, S>` (also behind `&`/`&mut`), `Token`, and
tuples of these with tiles and scalars.

An annotation is checked, never trusted: the value's type must be the annotated one (element type, shape and
mutability), or the `let` is a located error naming both types. These types exist only at compile time in
oxide (a partition is an SSA value of the tile dialect, a shape a list of integers), so an annotation never
converts anything; tiles and scalars keep their own rules (an annotation types literals and generic ops).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile.ops_atomic import PointerTileT, TokenT
from oxide.frontends.tile.types import PartitionT, Scalar, ShapeT, TupleT, V, ViewT, rust_name
from oxide.frontends.tile.values import coerce
from oxide.diagnostics import SourceLoc


@dataclass(frozen=True)
class ShapeOf:
    """`Shape<{[..]}>` / `Array<{[..]}>` as an annotation: a compile-time shape with these dimensions."""

    name: str
    dims: tuple[int, ...]

    def rust(self) -> str:
        return f"{self.name}<{{{list(self.dims)}}}>"


@dataclass(frozen=True)
class TensorOf:
    """`Tensor<E, S>` as an annotation: a tensor view of this element type and shape, either mutability."""

    elem: Scalar
    shape: tuple[int, ...]

    def rust(self) -> str:
        return f"Tensor<{self.elem.rust()}, {{{list(self.shape)}}}>"


ElemShape = Callable[[ast.PathTy], tuple[Scalar, tuple[int, ...]]]


def resolve(t: ast.PathTy, elem_shape: ElemShape, shape_value: Callable[[Any], list[int]]) -> Any | None:
    """The annotation type a cutile-rs type name denotes, or None when `t` names no such type."""
    if t.name in ("Shape", "Array"):
        if len(t.args) != 1:
            raise err(t.loc, f"`{t.name}` takes one shape: `{t.name}<{{[128, 64]}}>`")
        return ShapeOf(t.name, tuple(shape_value(t.args[0])))
    if t.name in ("Partition", "PartitionMut"):
        elem, shape = elem_shape(t)
        return PartitionT(elem, shape, t.name == "PartitionMut")
    if t.name == "PointerTile":
        if len(t.args) != 2 or not isinstance(t.args[0], ast.PtrTy) or not t.args[0].mutable:
            raise err(t.loc, "`PointerTile` takes a pointer type and a shape: `PointerTile<*mut f32, {[128]}>`")
        pointee = ast.PathTy(t.loc, "PointerTile", [t.args[0].inner, t.args[1]])
        return PointerTileT(*elem_shape(pointee))
    if t.name == "Token":
        if t.args:
            raise err(t.loc, "`Token` takes no generic arguments")
        return TokenT()
    if t.name == "Tensor":
        return TensorOf(*elem_shape(t))
    return None


def is_annotation_only(ty: Any) -> bool:
    """Whether `ty` only checks a value (so the initializer is emitted without an expected type)."""
    if isinstance(ty, TupleT):
        return any(is_annotation_only(e) for e in ty.elems)
    return isinstance(ty, (ShapeOf, TensorOf, PartitionT, PointerTileT, TokenT, ViewT))


def check(v: V, ty: Any, loc: SourceLoc) -> V:
    """`v` as the `let` annotation `ty` says: the same value when its type matches, else a located error."""
    if isinstance(ty, TupleT) and isinstance(v.ty, TupleT) and len(ty.elems) == len(v.parts):
        return V(v.ty, None, None, [check(p, t, loc) for p, t in zip(v.parts, ty.elems)])
    if not is_annotation_only(ty):
        return coerce(v, ty, loc, "the value")
    if not _matches(v, ty):
        raise err(loc, f"mismatched types: the value is `{describe(v)}`, but the `let` annotation says "
                       f"`{rust_name(ty)}`; fix the annotation or the value")
    return v


def _matches(v: V, ty: Any) -> bool:
    if isinstance(ty, ShapeOf):
        return isinstance(v.ty, ShapeT) and tuple(v.shape) == ty.dims
    if isinstance(ty, TensorOf):
        return isinstance(v.ty, ViewT) and (v.ty.elem, v.ty.shape) == (ty.elem, ty.shape)
    if isinstance(ty, PartitionT):
        # A partition's sub-grid is a compile-time fact of the value, not part of the type Rust writes.
        return isinstance(v.ty, PartitionT) and (v.ty.elem, v.ty.shape, v.ty.mutable) == \
            (ty.elem, ty.shape, ty.mutable)
    return v.ty == ty  # `&Tensor<..>` views, pointer tiles, tokens


def describe(v: V) -> str:
    """How Rust writes the type of `v`, with a shape's dimensions (for the mismatch message)."""
    if isinstance(v.ty, ShapeT):
        return f"Shape<{{{list(v.shape)}}}>"
    return rust_name(v.ty)
