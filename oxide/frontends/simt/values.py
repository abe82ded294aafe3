"""Values and places while emitting: what an expression evaluates to, and where an assignment writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, memref

from oxide.dialects import simt
from oxide.frontends.simt import types as T


@dataclass
class Val:
    """A typed value. `v` is an ir.Value for scalars and simt handles, a list of Vals for tuples and
    structs, an OptionVal for Option<T>, a memref for arrays, None for `()`."""

    ty: T.Ty
    v: Any


@dataclass
class OptionVal:
    """Option<T> as (is_some, payload); the payload is meaningful only when is_some holds."""

    is_some: ir.Value
    payload: Val


@dataclass
class ArrayView:
    """An array (or a row of a nested array) in memory: a memref with one dimension per nesting level,
    and the indices already applied (`a[i]` of a `[[f32; 4]; 8]` is the view (storage, (i,)))."""

    storage: ir.Value
    prefix: tuple = ()


def array_shape(ty: T.Array) -> tuple[list[int], T.Ty]:
    """The dimensions of a (nested) array type and its scalar element type."""
    dims: list[int] = []
    t: T.Ty = ty
    while isinstance(t, T.Array):
        dims.append(t.length)
        t = t.elem
    return dims, t


def array_storage(element: T.Ty, dims: list[int]) -> Any:
    """Storage for an array of `element`s with these outer dimensions, structure of arrays: a memref per
    scalar leaf of the element (`[Pair; 8]` of `struct Pair { a: f32, b: [u32; 2] }` is
    [memref<8xf32>, memref<8x2xu32>])."""
    if isinstance(element, (T.Int, T.Float, T.Bool, T.Enum, T.Ptr, T.PlaceRef)):
        return memref.alloca(ir.MemRefType.get(dims, _storage_type(element)), [], [])
    if isinstance(element, T.Array):
        inner_dims, inner = array_shape(element)
        return array_storage(inner, dims + inner_dims)
    if isinstance(element, T.Tuple):
        return [array_storage(e, dims) for e in element.elems]
    if isinstance(element, T.Struct):
        return [array_storage(f, dims) for _, f in element.fields]
    if isinstance(element, T.Unit):
        return None  # `()` takes no storage
    raise TypeError(f"arrays of {element.rust()} are not supported yet")


def element_at(view: "ArrayView", elem: T.Ty) -> Val:
    """The element of an array view whose indices are all applied (`prefix` reaches the element)."""
    if isinstance(elem, T.Array):
        return Val(elem, view)
    if isinstance(elem, T.Unit):
        return Val(elem, None)
    if isinstance(elem, (T.Tuple, T.Struct)):
        parts = elem.elems if isinstance(elem, T.Tuple) else [f for _, f in elem.fields]
        return Val(elem, [element_at(ArrayView(leaf, view.prefix), p) for leaf, p in zip(view.storage, parts)])
    raw = memref.load(view.storage, list(view.prefix))
    return _from_storage(elem, raw)


def store_element(value: Val, view: "ArrayView", elem: T.Ty) -> None:
    """Store `value` as the element an array view reaches."""
    if isinstance(elem, T.Array):
        copy_array(value.v, view, elem)
    elif isinstance(elem, T.Unit):
        return
    elif isinstance(elem, (T.Tuple, T.Struct)):
        parts = elem.elems if isinstance(elem, T.Tuple) else [f for _, f in elem.fields]
        for leaf, part_ty, part in zip(view.storage, parts, value.v):
            store_element(part, ArrayView(leaf, view.prefix), part_ty)
    else:
        memref.store(_to_storage(elem, value), view.storage, list(view.prefix))


@dataclass
class Cell:
    """A mutable local: a memref (rank 0 for scalars, rank 1 for arrays) per scalar leaf of its type. A cell
    can also be one element of a local array (`&mut arr[j].0`): its memrefs are the array's and `prefix`
    holds the indices that reach the element."""

    ty: T.Ty
    leaves: Any  # ir.Value memref | list[Cell] for aggregates | (Cell is_some, Cell payload) for Option
    prefix: tuple = ()


def element_cell(view: "ArrayView", ty: T.Ty) -> Cell:
    """The element an array view reaches, as a cell (written and read in place)."""
    if isinstance(ty, (T.Tuple, T.Struct)) and not isinstance(ty, T.DataEnum):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return Cell(ty, [element_cell(ArrayView(leaf, view.prefix), p) for leaf, p in zip(view.storage, parts)])
    if isinstance(ty, T.DataEnum):
        raise TypeError(f"a reference to an element of type {ty.rust()}")
    return Cell(ty, view.storage, tuple(view.prefix))


def zero_value(ty: T.Ty) -> ir.Value:
    """A zero of a scalar type (used as the payload of None and for uninitialised slots)."""
    if isinstance(ty, T.Float):
        return arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), 0.0))
    return arith.constant(ty.mlir(), ir.IntegerAttr.get(ty.mlir(), 0))


def scalar_cell(ty: ir.Type) -> ir.Value:
    """A rank-0 memref for one scalar."""
    return memref.alloca(ir.MemRefType.get([], ty), [], [])


def _storage_type(ty: T.Ty) -> ir.Type:
    # Booleans are kept as i8 in memory: MLIR 22's memref lowering asserts on sub-byte element types.
    # Pointers are kept as their 64-bit address: a memref cannot hold a !simt.ptr.
    if isinstance(ty, (T.Ptr, T.PlaceRef)):
        return ir.IntegerType.get_signless(64)
    return ir.IntegerType.get_signless(8) if isinstance(ty, T.Bool) else ty.mlir()


def _to_storage(ty: T.Ty, value: "Val") -> ir.Value:
    """A scalar (or pointer) value as its memref element."""
    if isinstance(ty, T.Bool):
        return arith.extui(ir.IntegerType.get_signless(8), value.v)
    if isinstance(ty, (T.Ptr, T.PlaceRef)):
        return simt.PtrToIntOp.build(value.v)
    return value.v


def pointer_at(address: ir.Value, ty: T.Ty) -> ir.Value:
    """The pointer of type `ty` (a `Ptr` or `PlaceRef`, in its address space) at a 64-bit generic address:
    `int_to_ptr` gives the generic pointer, `from_generic` the global or shared one."""
    generic = simt.IntToPtrOp.build(address, results=[T.Ptr(ty.elem, True, 0).mlir()])
    if ty.space == 0:
        return generic
    return simt.FromGenericOp.build(generic, results=[ty.mlir()])


def _from_storage(ty: T.Ty, raw: ir.Value) -> "Val":
    """A memref element read back as a value of `ty`."""
    if isinstance(ty, T.Bool):
        return Val(ty, arith.trunci(ty.mlir(), raw))
    if isinstance(ty, (T.Ptr, T.PlaceRef)):
        return Val(ty, pointer_at(raw, ty))
    return Val(ty, raw)


def flag_cell() -> ir.Value:
    """A one-byte flag (break / continue / return pending)."""
    return scalar_cell(ir.IntegerType.get_signless(8))


def set_flag(flag: ir.Value, value: bool) -> None:
    """Store true/false into a flag cell."""
    i8 = ir.IntegerType.get_signless(8)
    memref.store(arith.constant(i8, ir.IntegerAttr.get(i8, int(value))), flag, [])


def read_flag(flag: ir.Value) -> ir.Value:
    """A flag cell's value as i1."""
    return arith.trunci(ir.IntegerType.get_signless(1), memref.load(flag, []))


def new_cell(ty: T.Ty) -> Cell:
    """Storage for a mutable local of type `ty`."""
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum, T.Ptr, T.PlaceRef)):
        return Cell(ty, scalar_cell(_storage_type(ty)))
    if isinstance(ty, T.Array):
        dims, element = array_shape(ty)
        return Cell(ty, array_storage(element, dims))
    if isinstance(ty, T.Tuple):
        return Cell(ty, [new_cell(e) for e in ty.elems])
    if isinstance(ty, T.Struct):
        return Cell(ty, [new_cell(f) for _, f in ty.fields])
    if isinstance(ty, T.OptionTy):
        return Cell(ty, (new_cell(T.BOOL), new_cell(ty.inner)))
    if isinstance(ty, (T.ThreadIndex, T.Slice, T.Disjoint, T.ElemRef, T.Shared)):
        raise TypeError(f"a mutable local of type {ty.rust()}")
    if isinstance(ty, T.Unit):
        return Cell(ty, None)
    raise TypeError(f"a mutable local of type {ty.rust()}")


def load_cell(cell: Cell) -> Val:
    """The current value of a mutable local (arrays stay in memory: their Val is the memref)."""
    ty = cell.ty
    if isinstance(ty, T.Array):
        return Val(ty, ArrayView(cell.leaves, cell.prefix))
    if isinstance(ty, (T.Tuple, T.Struct)):
        return Val(ty, [load_cell(c) for c in cell.leaves])
    if isinstance(ty, T.OptionTy):
        flag, payload = cell.leaves
        return Val(ty, OptionVal(load_cell(flag).v, load_cell(payload)))
    if isinstance(ty, T.Unit):
        return Val(ty, None)
    return _from_storage(ty, memref.load(cell.leaves, list(cell.prefix)))


def store_cell(cell: Cell, value: Val) -> None:
    """Assign a whole value to a mutable local."""
    ty = cell.ty
    if isinstance(ty, T.Array):
        copy_array(value.v, ArrayView(cell.leaves, cell.prefix), ty)
    elif isinstance(ty, (T.Tuple, T.Struct)):
        for sub, part in zip(cell.leaves, value.v):
            store_cell(sub, part)
    elif isinstance(ty, T.OptionTy):
        flag, payload = cell.leaves
        store_cell(flag, Val(T.BOOL, value.v.is_some))
        store_cell(payload, value.v.payload)
    elif isinstance(ty, T.Unit):
        return
    else:
        memref.store(_to_storage(ty, value), cell.leaves, list(cell.prefix))


# Arrays of at most this many scalars are filled and copied element by element with constant indices: LLVM's
# SROA then keeps them in registers (a wgmma accumulator of up to 128 f32 across a K loop); a loop it unrolls
# only partially would leave the array in local memory.
UNROLLED_ARRAY_SCALARS = 256


def unrolled_array(ty: T.Array) -> bool:
    """Whether an array of `ty` is small enough to be filled and copied with constant indices."""
    dims, element = array_shape(ty)
    count = 1
    for dim in dims:
        count *= dim
    # Every dimension is bounded too: an array of empty arrays has no scalars but may have 2^31 elements.
    return isinstance(element, (T.Int, T.Float, T.Bool)) and max(dims) <= UNROLLED_ARRAY_SCALARS and \
        count <= UNROLLED_ARRAY_SCALARS


def copy_array(src: "ArrayView", dst: "ArrayView", ty: T.Array) -> None:
    """Copy every element of an array view into another of the same type (arrays are values in Rust)."""
    if src.storage is dst.storage and src.prefix == dst.prefix:
        return
    from mlir.dialects import scf

    if unrolled_array(ty):
        for k in range(ty.length):
            i = arith.constant(ir.IndexType.get(), k)
            store_element(element_at(ArrayView(src.storage, src.prefix + (i,)), ty.elem),
                          ArrayView(dst.storage, dst.prefix + (i,)), ty.elem)
        return
    # One loop per nesting level: copying an element that is itself an array recurses into copy_array.
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), arith.constant(ir.IndexType.get(), ty.length),
                     arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        element = element_at(ArrayView(src.storage, src.prefix + (i,)), ty.elem)
        store_element(element, ArrayView(dst.storage, dst.prefix + (i,)), ty.elem)
        scf.YieldOp([])
