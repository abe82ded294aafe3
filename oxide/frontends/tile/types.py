"""Semantic types and values of the tile frontend: scalars, tiles, tensor views, partitions, pointers,
tuples and compile-time shapes, with their tile-dialect MLIR types.

A value (`V`) pairs a type with its MLIR value; compile-time facts ride along: `const` is the folded value
of a scalar known at compile time (literals, const generics, `const` items and arithmetic on them), and a
`Shape` is a list of integers that exists only at compile time (`const_shape![128, 64]`, a `const S: [i32; 2]`
generic). Unsuffixed literals stay `Flex` until their use fixes a type, as rustc infers them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlir import ir

from oxide.dialects import tile

# cutile-rs's fp8 element types (MLIR f8E4M3FN, f8E5M2).
FP8 = ("f8e4m3fn", "f8e5m2")


@dataclass(frozen=True)
class Scalar:
    """A Rust element/scalar type: `f32`, `bf16`, `u32`, `bool`, ..."""

    name: str

    @property
    def is_float(self) -> bool:
        return self.name in ("f16", "bf16", "f32", "f64", "tf32", *FP8)

    @property
    def is_fp8(self) -> bool:
        """fp8 (`f8e4m3fn`, `f8e5m2`): loaded, stored, converted and multiplied by mma, never computed on."""
        return self.name in FP8

    @property
    def is_bool(self) -> bool:
        return self.name == "bool"

    @property
    def is_int(self) -> bool:
        return not self.is_float and not self.is_bool

    @property
    def signed(self) -> bool:
        return self.name.startswith("i")

    @property
    def bits(self) -> int:
        if self.is_fp8:
            return 8
        return 1 if self.is_bool else 16 if self.name == "bf16" else 32 if self.name == "tf32" else int(self.name[1:])

    def mlir(self) -> ir.Type:
        if self.is_bool:
            return ir.IntegerType.get_signless(1)
        if self.is_int:
            return ir.IntegerType.get_signless(self.bits)
        # tf32 is stored as f32 (its container in memory and registers); mma multiplies f32 tiles at tf32
        # precision, so a tf32 tile is an f32 tile to the IR (docs/tile-hopper.md, "Precisions").
        floats = {"f16": ir.F16Type.get, "bf16": ir.BF16Type.get, "f32": ir.F32Type.get, "f64": ir.F64Type.get,
                  "tf32": ir.F32Type.get, "f8e4m3fn": ir.Float8E4M3FNType.get, "f8e5m2": ir.Float8E5M2Type.get}
        return floats[self.name]()

    def rust(self) -> str:
        return self.name


SCALARS = {name: Scalar(name) for name in ("bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                           "f16", "bf16", "f32", "f64", "tf32", *FP8)}
# Rust's index-width integers: 64 bits on the GPU (NVPTX64 addresses), so `usize` is `u64` and `isize` `i64`
# wherever a type is written (scalars, casts, literal suffixes); messages name the 64-bit type.
SCALAR_ALIASES = {"usize": "u64", "isize": "i64"}
I32 = SCALARS["i32"]
BOOL = SCALARS["bool"]


@dataclass(frozen=True)
class Flex:
    """The type of an unsuffixed literal (`1`, `0.5`) before its use fixes one; defaults i32 / f64."""

    kind: str  # "int" | "float"

    def default(self) -> Scalar:
        return SCALARS["i32" if self.kind == "int" else "f64"]

    def rust(self) -> str:
        return "{integer}" if self.kind == "int" else "{float}"


@dataclass(frozen=True)
class TileT:
    """`Tile<E, {[..]}>`: an immutable, statically shaped tile (a builtin ranked tensor in the IR)."""

    elem: Scalar
    shape: tuple[int, ...]

    def mlir(self) -> ir.Type:
        return tile.tile_type(list(self.shape), self.elem.mlir())

    def rust(self) -> str:
        return f"Tile<{self.elem.rust()}, {{{list(self.shape)}}}>"


@dataclass(frozen=True)
class ViewT:
    """`&Tensor<E, {[..]}>` (read-only, -1 = dynamic dim) or `&mut Tensor<E, S>` (this block's own tile)."""

    elem: Scalar
    shape: tuple[int, ...]
    mutable: bool

    def mlir(self) -> ir.Type:
        kind = tile.ViewMutType if self.mutable else tile.ViewType
        return kind.get(self.elem.mlir(), tile.shape_attr(list(self.shape)))

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}Tensor<{self.elem.rust()}, {{{list(self.shape)}}}>"


@dataclass(frozen=True)
class PartitionT:
    """`x.partition(S)` / `z.partition_mut(S)`: a grid of S-shaped tiles; `grid` is the sub-grid of a
    `partition_mut` (the block's own tile / S), None for a read partition."""

    elem: Scalar
    shape: tuple[int, ...]
    mutable: bool
    grid: tuple[int, ...] | None = None

    def mlir(self) -> ir.Type:
        kind = tile.PartitionMutType if self.mutable else tile.PartitionType
        return kind.get(self.elem.mlir(), tile.shape_attr(list(self.shape)))

    def rust(self) -> str:
        return f"{'PartitionMut' if self.mutable else 'Partition'}<{self.elem.rust()}, {{{list(self.shape)}}}>"


@dataclass(frozen=True)
class PtrT:
    """`*mut E` (unsafe kernels only)."""

    elem: Scalar

    def mlir(self) -> ir.Type:
        return tile.PtrType.get(self.elem.mlir())

    def rust(self) -> str:
        return f"*mut {self.elem.rust()}"


@dataclass(frozen=True)
class TupleT:
    """`(A, B, C)`; `()` is the unit type."""

    elems: tuple[Any, ...]

    def rust(self) -> str:
        return "(" + ", ".join(e.rust() for e in self.elems) + ("," if len(self.elems) == 1 else "") + ")"


@dataclass(frozen=True)
class ShapeT:
    """A compile-time shape or index array (`const_shape![..]`, `const_array![..]`, `S`)."""

    def rust(self) -> str:
        return "Shape"


@dataclass(frozen=True)
class ArrayT:
    """`[i, j]`: a small array of runtime scalars (tile indices)."""

    def rust(self) -> str:
        return "[_; N]"


@dataclass(frozen=True)
class DimsT:
    """`x.shape()` of a tensor: its extents, read with `[i]`."""

    def rust(self) -> str:
        return "Shape"


UNIT = TupleT(())


@dataclass
class V:
    """A value: its type, its MLIR value (None for compile-time-only values and Flex literals), its folded
    constant if known; `parts` holds a tuple's or an array's elements, `shape` a ShapeT's dims, `view` the
    tensor a DimsT reads."""

    ty: Any
    value: Any = None
    const: Any = None
    parts: list["V"] = field(default_factory=list)
    shape: list[int] = field(default_factory=list)
    view: "V | None" = None
    origin: int | None = None  # the `let` whose unsuffixed literal defaulted to this value's type


def rust_name(ty: Any) -> str:
    """How Rust writes a type (for diagnostics)."""
    return ty.rust() if hasattr(ty, "rust") else str(ty)


@dataclass(frozen=True)
class MarkerT:
    """A marker argument: `rounding::NearestEven`, `reverse::Forward`, `ftz::Enabled`, ..."""

    def rust(self) -> str:
        return "marker"


@dataclass(frozen=True)
class ClosureT:
    """`|a, b| a + b`: the combining function of `reduce`/`scan` (a compile-time value)."""

    def rust(self) -> str:
        return "closure"


UNIT_V = V(UNIT)
