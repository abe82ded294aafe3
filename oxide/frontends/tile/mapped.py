"""cutile-rs's `MappedPartitionMut<E, S, MAP>` kernel parameter and its persistent loop:

    for out_idx in z.iter_indices() {
        let (bid_m, bid_n) = out_idx.components();
        ...
        z.store(tile_z, out_idx);
    }

The loop becomes `scf.for` over this block's work items (block_id.x, + num_blocks.x, ... below
`tile.mapped_work`) around `scf.for` over the item's tiles; the index is the tile.mapped_index values of that
iteration (oxide/dialects/tile/mapped.py). The index is a compile-time-only value: nothing else makes one,
it cannot be assigned to a variable outside the loop (only scalars and tiles change in control flow), and
`z.store(tile, idx)` takes nothing else, so each block writes only its own work items' tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir

from oxide.dialects import tile
from oxide.dialects.tile.types import MAX_OUTPUT_RANK
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
# ops_memory registers `store` first: the mapped form extends it.
from oxide.frontends.tile import ops_memory  # noqa: F401
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import arg_loc, check_arity, tile_arg
from oxide.frontends.tile.registry import extend_method, method
from oxide.frontends.tile.types import I32, UNIT_V, Scalar, TileT, TupleT, V, rust_name
from oxide.frontends.tile.values import scalar_const


@dataclass(frozen=True)
class MappedT:
    """`MappedPartitionMut<E, {[S..]}, MAP>`: an output's tiles in work items of MAP tiles (0 = whole axis)."""

    elem: Scalar
    shape: tuple[int, ...]
    map: tuple[int, ...]

    def mlir(self) -> ir.Type:
        return tile.MappedMutType.get(self.elem.mlir(), tile.shape_attr(list(self.shape)),
                                      tile.shape_attr(list(self.map)))

    def rust(self) -> str:
        return f"MappedPartitionMut<{self.elem.rust()}, {{{list(self.shape)}}}, {{{list(self.map)}}}>"


@dataclass(frozen=True)
class MappedIndexT:
    """The index `for idx in z.iter_indices()` binds (cutile-rs's PartitionIndex): minted by the loop only."""

    rank: int

    def rust(self) -> str:
        return f"PartitionIndex<{self.rank}>"


def resolve_mapped(em: Any, t: ast.PathTy) -> MappedT:
    """The type `MappedPartitionMut<E, S, MAP>`, checked (rank 1 to 3, power-of-two tiles, a map entry per
    axis, none negative, one above 0)."""
    if len(t.args) != 3:
        raise err(t.loc, "`MappedPartitionMut` takes an element type, a tile shape and a map: "
                         "`MappedPartitionMut<E, {[BM, BN]}, MAP_SHAPE>`")
    elem, shape, mapping = em.scalar_type(t.args[0]), em.shape_value(t.args[1]), em.const_value(t.args[2])
    if not 1 <= len(shape) <= MAX_OUTPUT_RANK:
        raise err(t.args[1].loc, f"a mapped output has rank 1 to {MAX_OUTPUT_RANK}, got tile shape {shape}")
    if any(d <= 0 or d & (d - 1) for d in shape):
        raise err(t.args[1].loc, f"tile shape {shape}: every tile dimension must be a power of two")
    if not isinstance(mapping, list) or len(mapping) != len(shape) or any(type(m) is not int for m in mapping):
        raise err(t.args[2].loc, f"the map is one tile count per axis of the tile shape {shape} (0 = the whole "
                                 f"axis), such as `{{[4, 1]}}` or a `const MAP: [i32; {len(shape)}]` generic")
    if any(m < 0 for m in mapping) or not any(mapping):
        raise err(t.args[2].loc, f"map {mapping}: entries are tile counts of at least 0 (0 = the whole axis), and "
                                 f"at least one must be above 0")
    return MappedT(elem, tuple(shape), tuple(mapping))


def is_iter_indices(it: Any) -> bool:
    """Whether a `for` loop's iterator is `z.iter_indices()`."""
    return isinstance(it, ast.MethodCall) and it.name == "iter_indices"


def mapped_for(em: Any, e: ast.For) -> V:
    """`for idx in z.iter_indices() { body }`: this block's work items, then each item's tiles row-major."""
    check_arity(e.iter, e.iter.args, 0, "iter_indices", "for idx in z.iter_indices()")
    z = em.expr(e.iter.receiver)
    if not isinstance(z.ty, MappedT):
        raise err(e.iter.loc, f"`iter_indices()` walks a `MappedPartitionMut` kernel parameter, found "
                              f"`{rust_name(z.ty)}`")
    frame = em.loop_frame(e.label, e.body)
    if frame.exit_flag is not None:
        raise err(e.loc, "`break` out of `iter_indices()` is not supported: the persistent loop visits every tile "
                         "index of this block (use `continue` to skip one)")
    outer = em.loop_frame(None, ast.Block(e.loc, [], None))
    first = V(I32, tile.BlockIdOp.build(axis="x"))
    step = V(I32, tile.NumBlocksOp.build(axis="x"))
    work = V(I32, tile.MappedWorkOp.build(z.value))

    def item_body(item: ir.Value) -> None:
        count = V(I32, tile.MappedItemTilesOp.build(z.value, item))

        def tile_body(t: ir.Value) -> None:
            parts = [V(I32, tile.MappedIndexOp.build(z.value, item, t, axis=d)) for d in range(len(z.ty.shape))]
            em.bind_pattern(e.pattern, V(MappedIndexT(len(parts)), None, None, parts, view=z))
            em.block(e.body)

        em.counted_loop(frame, scalar_const(0, I32), count, scalar_const(1, I32), [e.body], tile_body, e.loc)

    em.counted_loop(outer, first, work, step, [e.body], item_body, e.loc)
    return UNIT_V


@method("iter_indices")
def _iter_indices(em: Any, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    raise err(e.loc, "`iter_indices()` is the iterator of a `for` loop only: `for idx in z.iter_indices() { .. }`")


@method("components", "coords")
def _components(em: Any, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
    if not isinstance(recv.ty, MappedIndexT):
        raise err(e.loc, f"no method `{name}` on `{rust_name(recv.ty)}` in tile kernels")
    check_arity(e, args, 0, name, f"idx.{name}()")
    return V(TupleT((I32,) * recv.ty.rank), None, None, list(recv.parts))


def _mapped_store(existing: Any) -> Any:
    def store(em: Any, e: Any, recv: V, args: list[V], expected: Any, name: str) -> V:
        if not isinstance(recv.ty, MappedT):
            return existing(em, e, recv, args, expected, name)
        check_arity(e, args, 2, name, "z.store(tile, idx) with `for idx in z.iter_indices()`")
        value, index = args
        if not isinstance(index.ty, MappedIndexT) or index.view is None or index.view.value != recv.value:
            raise err(arg_loc(e, 2), f"a `MappedPartitionMut` stores only at an index of its own `iter_indices()` "
                                     f"loop (`for idx in z.iter_indices() {{ .. z.store(tile, idx) }}`), found "
                                     f"`{rust_name(index.ty)}`: a block writes only the tiles of its own work items")
        ty = tile_arg(e, value, 1, "the stored value")
        want = TileT(recv.ty.elem, recv.ty.shape)
        vals.retype_tile(value, want)
        if list(ty.shape) != list(want.shape) or ty.elem != want.elem:
            raise err(arg_loc(e, 1), f"this stores a `{ty.rust()}` where the tile is `{want.rust()}`; reshape/convert "
                                     f"it to that shape and element type")
        tile.MappedStoreOp(recv.value, value.value, [p.value for p in index.parts])
        return UNIT_V

    return store


extend_method("store", _mapped_store)
