"""Semantic types of the Rust subset and their MLIR form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir


class Ty:
    """Base of semantic types."""

    def mlir(self) -> ir.Type:
        """The MLIR type of a value of this type (scalars and simt handles)."""
        raise TypeError(f"{self} has no single MLIR type")

    def __str__(self) -> str:
        return self.rust()

    def rust(self) -> str:
        """How Rust writes it (for diagnostics)."""
        raise NotImplementedError


@dataclass(frozen=True)
class Int(Ty):
    bits: int
    signed: bool

    def mlir(self) -> ir.Type:
        return ir.IntegerType.get_signless(self.bits)

    def rust(self) -> str:
        return ("i" if self.signed else "u") + str(self.bits)


@dataclass(frozen=True)
class Float(Ty):
    bits: int

    def mlir(self) -> ir.Type:
        return {16: ir.F16Type.get, 32: ir.F32Type.get, 64: ir.F64Type.get}[self.bits]()

    def rust(self) -> str:
        return f"f{self.bits}"


@dataclass(frozen=True)
class Bool(Ty):
    def mlir(self) -> ir.Type:
        return ir.IntegerType.get_signless(1)

    def rust(self) -> str:
        return "bool"


@dataclass(frozen=True)
class Unit(Ty):
    def rust(self) -> str:
        return "()"


@dataclass(frozen=True)
class Never(Ty):
    def rust(self) -> str:
        return "!"


@dataclass(frozen=True)
class Slice(Ty):
    """`&[T]` / `&mut [T]`."""

    elem: Ty
    mutable: bool

    def mlir(self) -> ir.Type:
        return ir.Type.parse(f"!simt.{'slice_mut' if self.mutable else 'slice'}<{mem(self.elem)}>")

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}[{self.elem.rust()}]"


@dataclass(frozen=True)
class LocalSlice(Ty):
    """`&[T]` / `&mut [T]` of a local array (`let s: &[f32] = &arr;`): a window of the array's registers,
    not memory. It behaves as a slice in the function that borrows it and the helpers it is passed to."""

    elem: Ty
    mutable: bool

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}[{self.elem.rust()}]"


@dataclass(frozen=True)
class LocalPtr(Ty):
    """`*const T` from `arr.as_ptr()` of a local array: a position in the array's registers, not an address
    (local_pointers.py)."""

    elem: Ty

    def rust(self) -> str:
        return f"*const {self.elem.rust()}"


@dataclass(frozen=True)
class PtrSlice(Ty):
    """`&[T]` / `&mut [T]` of shared or generic memory (`slice::from_raw_parts` of such a pointer): a pointer in
    its address space and a length, kept in the frontend (the simt slice types address global memory)."""

    elem: Ty
    mutable: bool
    space: int

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}[{self.elem.rust()}]"


@dataclass(frozen=True)
class Disjoint(Ty):
    """`DisjointSlice<T, Space>`; space as in the simt dialect ("1d", "2d:S", "runtime_2d", "warp")."""

    elem: Ty
    space: str

    def mlir(self) -> ir.Type:
        # A LinearTiles<N> slice is a 1-D disjoint slice in the IR: the tiling is how the frontend hands out
        # elements (thread t owns [t*N, t*N + N)), always through a valid 1-D witness. So is RowMajorTiles<R, C, S>
        # (thread (r, c) owns an R x C tile); RuntimeRowMajorTiles<R, C> is runtime 2-D (it carries a row width).
        space = "1d" if self.space.startswith(("tiles:", "rmtiles:")) else \
            "runtime_2d" if self.space.startswith("rttiles:") else self.space
        return ir.Type.parse(f'!simt.disjoint<{mem(self.elem)}, "{space}">')

    def rust(self) -> str:
        return f"DisjointSlice<{self.elem.rust()}, {space_rust(self.space)}>"


@dataclass(frozen=True)
class ThreadRun(Ty):
    """This thread's run of a `DisjointSlice<T, LinearTiles<N>>` (`thread_run32`, `tile_thread32`): at most
    `count` consecutive elements; `whole` when the run is known to have all of them (a tile)."""

    elem: Ty
    count: int
    whole: bool

    def rust(self) -> str:
        return f"{'StaticViewMut32' if self.whole else 'ThreadRunMut32'}<{self.elem.rust()}, {self.count}>"


@dataclass(frozen=True)
class GridRuns(Ty):
    """`grid_stride_runs32(idx)` of a `DisjointSlice<T, LinearTiles<N>>`: the runs t, t + P, t + 2P, ... of
    thread t (P = gridDim.x * blockDim.x), handed out one at a time by `next_run()`."""

    elem: Ty
    count: int

    def rust(self) -> str:
        return f"GridStrideRuns32<{self.elem.rust()}, {self.count}>"


@dataclass(frozen=True)
class Tile2D(Ty):
    """This thread's `rows` x `cols` tile of a `DisjointSlice<T, RowMajorTiles<R, C, S>>` (`tile_2d32`) or of a
    `RuntimeRowMajorTiles<R, C>` one (`tile_2d32_rt`), known to lie wholly inside the slice."""

    elem: Ty
    rows: int
    cols: int
    runtime: bool

    def rust(self) -> str:
        return f"{'RuntimeTileMut32' if self.runtime else 'StaticTileMut32'}<{self.elem.rust()}, {self.rows}, {self.cols}>"


@dataclass(frozen=True)
class ThreadIndex(Ty):
    """A witness; space as in the simt dialect, or "coord2d": `thread::coord_2d_u32` (a `ThreadCoord2D32`, in the
    IR a runtime 2-D witness: this thread's (row, col))."""

    space: str

    def mlir(self) -> ir.Type:
        space = "runtime_2d" if self.space == "coord2d" else self.space
        return ir.Type.parse(f'!simt.thread_index<"{space}">')

    def rust(self) -> str:
        if self.space == "coord2d":
            return "ThreadCoord2D32"
        return f"ThreadIndex<{space_rust(self.space)}>"


@dataclass(frozen=True)
class ElemRef(Ty):
    """`&mut T` to one element of global memory (what `get_mut` yields)."""

    elem: Ty

    def mlir(self) -> ir.Type:
        return ir.Type.parse(f"!simt.ref<{mem(self.elem)}>")

    def rust(self) -> str:
        return f"&mut {self.elem.rust()}"


@dataclass(frozen=True)
class Ptr(Ty):
    """`*const T` / `*mut T` in an address space (0 generic, 1 global, 3 shared)."""

    elem: Ty
    mutable: bool
    space: int = 1

    def mlir(self) -> ir.Type:
        return ir.Type.parse(f"!simt.ptr<{mem(self.elem)}, {self.space}>")

    def rust(self) -> str:
        return f"*{'mut' if self.mutable else 'const'} {self.elem.rust()}"


@dataclass(frozen=True)
class PlaceRef(Ty):
    """`&T` / `&mut T` to a value in memory that is not one `get_mut` element: an element of a slice of
    aggregates, a row of an array in memory, an element of a shared array (`&mut TILE[i]`). It is the
    address, a `!simt.ptr` in its address space."""

    elem: Ty
    mutable: bool
    space: int = 1

    def mlir(self) -> ir.Type:
        return ir.Type.parse(f"!simt.ptr<{mem(self.elem)}, {self.space}>")

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}{self.elem.rust()}"


@dataclass(frozen=True)
class Array(Ty):
    elem: Ty
    length: int

    def mlir(self) -> ir.Type:
        """In memory (a DisjointSlice element): an LLVM array of integers or floats."""
        if not isinstance(self.elem, (Int, Float)):
            raise TypeError(f"{self} has no single MLIR type")
        return ir.Type.parse(f"!llvm.array<{self.length} x {self.elem.mlir()}>")

    def rust(self) -> str:
        return f"[{self.elem.rust()}; {self.length}]"


@dataclass(frozen=True)
class Tuple(Ty):
    elems: tuple[Ty, ...]

    def rust(self) -> str:
        return "(" + ", ".join(e.rust() for e in self.elems) + ("," if len(self.elems) == 1 else "") + ")"


@dataclass(frozen=True)
class OptionTy(Ty):
    inner: Ty

    def rust(self) -> str:
        return f"Option<{self.inner.rust()}>"


@dataclass(frozen=True)
class ResultTy(Ty):
    """`Result<T, T>` as `compare_exchange` returns it: (is_ok, the value) -- both arms carry a T."""

    ok: Ty

    def rust(self) -> str:
        return f"Result<{self.ok.rust()}, {self.ok.rust()}>"


@dataclass(frozen=True)
class Struct(Ty):
    """A struct (or the fields of another Copy aggregate); `align` is its `#[repr(align(N))]` (0: natural)."""

    name: str
    fields: tuple[tuple[str, Ty], ...]
    align: int = 0

    def field(self, name: str) -> tuple[int, Ty] | None:
        for i, (field_name, ty) in enumerate(self.fields):
            if field_name == name:
                return i, ty
        return None

    def rust(self) -> str:
        return self.name

    @property
    def indexed(self) -> bool:
        """Whether `v[i]` of a value reads element i of its one array field (cuda_device's vector types)."""
        return False


@dataclass(frozen=True)
class Enum(Ty):
    """A fieldless enum, represented by its discriminant in the integer rustc stores it as (`storage`), in
    registers and in memory alike; `repr` is its `#[repr(..)]` integer type, "C", or "" for none."""

    name: str
    variants: tuple[tuple[str, int], ...]
    repr: str = ""

    @property
    def storage(self) -> Int:
        """rustc's discriminant type: the repr's integer; for `#[repr(C)]` C's int (i32, wider if a value needs
        it); with no repr the smallest integer that holds every discriminant, signed only if one is negative."""
        if self.repr and self.repr != "C":
            return PRIMITIVES[self.repr]
        values = [value for _, value in self.variants] or [0]
        low, high = min(values), max(values)
        signed = low < 0 or self.repr == "C"  # C's int is signed
        for bits in ((32, 64) if self.repr == "C" else (8, 16, 32, 64)):
            if signed and -(1 << (bits - 1)) <= low and high < 1 << (bits - 1):
                return PRIMITIVES[f"i{bits}"]
            if not signed and high < 1 << bits:
                return PRIMITIVES[f"u{bits}"]
        raise ValueError(f"enum {self.name}: discriminants {low}..={high} fit no integer")

    def mlir(self) -> ir.Type:
        return self.storage.mlir()

    def rust(self) -> str:
        return self.name


@dataclass(frozen=True)
class DataEnum(Struct):
    """An enum whose variants carry fields (`enum E { A(u32), B(f32, f32), C }`), kept in registers as a
    struct: the discriminant (`#tag`, i32) and one tuple per variant (`#A`, `#B`, `#C`) of which only the
    discriminant's is meaningful. It never lives in memory (no slice, pointer or kernel parameter of it),
    so this representation is not an ABI."""

    discriminants: tuple[tuple[str, int], ...] = ()

    def variant(self, name: str) -> tuple[int, int, Tuple] | None:
        """(field position, discriminant, payload type) of a variant."""
        for position, (variant, discriminant) in enumerate(self.discriminants):
            if variant == name:
                return position + 1, discriminant, self.fields[position + 1][1]
        return None


@dataclass(frozen=True)
class Shared(Ty):
    """`SharedArray<T, N, ALIGN>`."""

    elem: Ty
    length: int
    align: int

    def mlir(self) -> ir.Type:
        return ir.Type.parse(f"!simt.shared<{mem(self.elem)}, {self.length}>")

    def rust(self) -> str:
        return f"SharedArray<{self.elem.rust()}, {self.length}>"


@dataclass(frozen=True)
class LocalRef(Ty):
    """`&mut x` of a `let mut` local (or `&x`): the local's storage, used in place (no address is taken)."""

    elem: Ty
    mutable: bool

    def rust(self) -> str:
        return f"&{'mut ' if self.mutable else ''}{self.elem.rust()}"


@dataclass(frozen=True)
class CellPtr(Ty):
    """`addr_of!(x)` / `addr_of_mut!(x)` of a local (or of an element or field of one): a raw pointer to the
    local's cell, dereferenced in place in unsafe code (cell_pointers.py). Locals live in registers, so it has no
    address: no arithmetic, casts or comparisons."""

    elem: Ty
    mutable: bool

    def rust(self) -> str:
        return f"*{'mut' if self.mutable else 'const'} {self.elem.rust()}"


@dataclass(frozen=True)
class Closure(Ty):
    """The type of one closure expression (each closure has its own, as in Rust)."""

    ident: int

    def rust(self) -> str:
        return "{closure}"


@dataclass(frozen=True)
class FnItem(Ty):
    """A function used as a value (`let f = plus_seven;`, `apply(plus_seven, x)`): each function has its own
    type, as in Rust, and a call through it inlines that function."""

    path: tuple[str, ...]

    def rust(self) -> str:
        return f"fn {'::'.join(self.path)}"


@dataclass(frozen=True)
class FnPtr(Ty):
    """A `fn(..) -> R` annotation. Calls are inlined, so a value of this type is always one statically
    known function item: a binding keeps the item's own type, and a choice between different functions at
    run time (an `if` yielding `inc` or `dec`) is a type error rather than an indirect call."""

    def rust(self) -> str:
        return "fn pointer"


@dataclass(frozen=True)
class Atomic(Ty):
    """`DeviceAtomicU32` & co: a cell whose operations are atomic at `scope`."""

    value: Ty
    scope: str

    def mlir(self) -> ir.Type:
        # An atomic cell is its value in memory: `&[DeviceAtomicU32]` is a slice of i32.
        return self.value.mlir()

    def rust(self) -> str:
        return f"{self.scope.capitalize()}Atomic{self.value.rust().upper()}"


def is_aggregate(t: Any) -> bool:
    """Arrays, tuples and structs: values of several scalars."""
    return isinstance(t, (Array, Tuple, Struct))


def mem(t: Ty) -> ir.Type:
    """The MLIR type of a value of `t` stored in memory (an element of a slice, DisjointSlice, shared array
    or pointee). Aggregates are LLVM aggregates: `[T; N]` is `!llvm.array<N x T>`, tuples and structs are
    `!llvm.struct<(...)>` with their fields in declaration order at the offsets `layout` gives (C layout;
    the host lays its buffers out the same way, e.g. a numpy structured dtype with align=True). Where an
    over-aligned field (`#[repr(align(N))]`) or an over-aligned struct's size puts bytes that LLVM's own
    layout would not, they are explicit `!llvm.array<k x i8>` padding fields."""
    if isinstance(t, Array):
        return ir.Type.parse(f"!llvm.array<{t.length} x {mem(t.elem)}>")
    if isinstance(t, (Tuple, Struct)):
        return ir.Type.parse("!llvm.struct<(" + ", ".join(_struct_body(t)[0]) + ")>")
    if isinstance(t, Unit):
        return ir.Type.parse("!llvm.struct<()>")  # `*const ()`: a pointer to nothing, zero bytes
    return t.mlir()


def mem_field_index(t: Tuple | Struct, position: int) -> int:
    """The index in `mem(t)`'s `!llvm.struct` of field `position` (padding fields shift the later ones)."""
    return _struct_body(t)[1][position]


def members(t: Tuple | Struct) -> list[Ty]:
    """The field types of a tuple or struct, in declaration order."""
    return list(t.elems) if isinstance(t, Tuple) else [f for _, f in t.fields]


def _struct_body(t: Tuple | Struct) -> tuple[list[str], list[int]]:
    """The LLVM field types of `mem(t)` and where each Rust field is among them."""
    body: list[str] = []
    positions: list[int] = []
    end = 0
    for part, offset in zip(members(t), field_offsets(t)):
        # LLVM places a field at its own (natural) alignment; pad up to the Rust offset where that differs.
        if -(-end // natural_align(part)) * natural_align(part) != offset:
            body.append(f"!llvm.array<{offset - end} x i8>")
        positions.append(len(body))
        body.append(str(mem(part)))
        end = offset + layout(part)[0]
    size = layout(t)[0]
    natural = max((natural_align(p) for p in members(t)), default=1)
    if -(-end // natural) * natural != size:
        body.append(f"!llvm.array<{size - end} x i8>")
    return body, positions


def natural_align(t: Ty) -> int:
    """The alignment LLVM gives `mem(t)`: the largest of its scalars' (padding fields are bytes); less than
    `layout(t)`'s where `t` holds an over-aligned struct."""
    if isinstance(t, Array):
        return natural_align(t.elem)
    if isinstance(t, (Tuple, Struct)):
        return max((natural_align(p) for p in members(t)), default=1)
    return layout(t)[1]


def field_offsets(t: Tuple | Struct) -> list[int]:
    """The byte offset of each field of `t` in memory: in order, each rounded up to its alignment."""
    offsets, end = [], 0
    for part in members(t):
        size, align = layout(part)
        offsets.append(-(-end // align) * align)
        end = offsets[-1] + size
    return offsets


def layout(t: Ty) -> tuple[int, int]:
    """(size, alignment) in bytes of a value of `t` in memory, as rustc lays out `#[repr(C)]`: fields in
    order at their alignment, the alignment the largest of the fields' and `#[repr(align(N))]`, the size
    rounded up to the alignment."""
    if isinstance(t, Array):
        size, align = layout(t.elem)
        return size * t.length, align
    if isinstance(t, (Tuple, Struct)):
        parts = members(t)
        align = max([layout(p)[1] for p in parts] + [t.align if isinstance(t, Struct) else 1, 1])
        end = field_offsets(t)[-1] + layout(parts[-1])[0] if parts else 0
        return -(-end // align) * align, align
    if isinstance(t, Bool):
        return 1, 1
    if isinstance(t, (Ptr, PlaceRef, ElemRef)):
        return 8, 8
    if isinstance(t, Atomic):
        return layout(t.value)
    if isinstance(t, Unit):
        return 0, 1
    # From `bits` for integers and floats: device types are laid out at import, with no MLIR context.
    width = t.bits // 8 if isinstance(t, (Int, Float)) else t.mlir().width // 8
    return width, width


def space_rust(space: str) -> str:
    """How cuda-oxide names an index space."""
    if space.startswith("2d:"):
        return f"Index2D<{space[3:]}>"
    if space.startswith("tiles:"):
        return f"LinearTiles<{space[6:]}>"
    if space.startswith("rmtiles:"):
        return f"RowMajorTiles<{', '.join(space[8:].split(':'))}>"
    if space.startswith("rttiles:"):
        return f"RuntimeRowMajorTiles<{', '.join(space[8:].split(':'))}>"
    return {"1d": "Index1D", "runtime_2d": "Runtime2DIndex", "warp": "WarpIndex"}[space]


class _Usize(Int):
    def rust(self) -> str:
        return "usize"


class _Isize(Int):
    def rust(self) -> str:
        return "isize"


class Char(Int):
    """`char`: a Unicode scalar value, held as its u32 code point; Rust has no arithmetic on it."""

    def rust(self) -> str:
        return "char"


USIZE = _Usize(64, False)
ISIZE = _Isize(64, True)
BOOL = Bool()
UNIT = Unit()
NEVER = Never()
F32, F64 = Float(32), Float(64)
PRIMITIVES: dict[str, Ty] = {
    "i8": Int(8, True), "i16": Int(16, True), "i32": Int(32, True), "i64": Int(64, True),
    "u8": Int(8, False), "u16": Int(16, False), "u32": Int(32, False), "u64": Int(64, False),
    "usize": USIZE, "isize": ISIZE, "f32": F32, "f64": F64, "bool": BOOL,
    # Rust's nightly `f16` (IEEE half; NVPTX computes in it from sm_53) and the 128-bit integers, which NVPTX
    # expands into 64-bit operations.
    "f16": Float(16), "i128": Int(128, True), "u128": Int(128, False), "char": Char(32, False),
}
# `core::cmp::Ordering`: `#[repr(i8)]` with the declared discriminants -1, 0, 1 (so `Less as i32` is -1).
ORDERING = Enum("Ordering", (("Less", -1), ("Equal", 0), ("Greater", 1)), "i8")
ATOMICS = {f"{scope.capitalize()}Atomic{name}": (scope, PRIMITIVES[name.lower()])
           for scope in ("device", "block", "system") for name in ("U32", "I32", "U64", "I64", "F16", "F32", "F64")}
# core::sync::atomic types compile at system scope, as in cuda-oxide.
ATOMICS.update({f"Atomic{name}": ("system", PRIMITIVES[name.lower()])
                for name in ("U32", "I32", "U64", "I64", "Usize", "Isize")})


def is_scalar(t: Any) -> bool:
    return isinstance(t, (Int, Float, Bool, Enum))
