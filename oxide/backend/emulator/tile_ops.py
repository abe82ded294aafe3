"""Tile-kernel emulator rules for the tile dialect: each op becomes a numpy expression or a call into
oxide.runtime.emulator.tile (`_t`), which owns the semantics (zero-padded loads, masked stores, the
own-tile check, reductions, mma, atomics)."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.backend.emulator.rules import tile_rule
from oxide.backend.emulator.tile_emitter import (
    TileEmitter,
    compute_type,
    elem_name,
    shape_of,
)
from oxide.dialects import tile
from oxide.ir.declare import int_value

_AXES = {"x": 0, "y": 1, "z": 2}


def _string(op: Any, name: str) -> str:
    return ir.StringAttr(op.attributes[name]).value


def _int(op: Any, name: str) -> int:
    return int_value(op.attributes[name])


def _tuple(names: list[str]) -> str:
    return f"({''.join(n + ', ' for n in names)})"


# Block ids, extents ------------------------------------------------------------------------------------
@tile_rule(tile.BlockIdOp)
def emit_block_id(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"b.block_id[{_AXES[_string(op, 'axis')]}]")


@tile_rule(tile.NumBlocksOp)
def emit_num_blocks(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"b.grid[{_AXES[_string(op, 'axis')]}]")


@tile_rule(tile.DimOp)
def emit_dim(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"np.int32({em.args(op)[0]}.shape[{_int(op, 'axis')}])")


@tile_rule(tile.NumTilesOp)
def emit_num_tiles(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"_t.num_tiles({em.args(op)[0]}, {_int(op, 'axis')})")


# Partitions, loads, stores -----------------------------------------------------------------------------
@tile_rule(tile.PartitionOp)
def emit_make_partition(em: TileEmitter, op: Any) -> None:
    (view,) = em.args(op)
    result = op.results[0].type
    em.assign(op, f"_t.partition({view}, {shape_of(result)!r}, {elem_name(result)!r})")


@tile_rule(tile.PartitionMutOp)
def emit_make_partition_mut(em: TileEmitter, op: Any) -> None:
    (view,) = em.args(op)
    result = op.results[0].type
    own = shape_of(op.operands[0].type)
    em.assign(op, f"_t.partition_mut(b, {view}, {own!r}, {shape_of(result)!r}, {elem_name(result)!r})")


@tile_rule(tile.LoadOp)
def emit_load(em: TileEmitter, op: Any) -> None:
    partition, *index = em.args(op)
    em.assign(op, f"_t.load({partition}, {_tuple(index)})")


@tile_rule(tile.StoreOp)
def emit_store(em: TileEmitter, op: Any) -> None:
    partition, value, *index = em.args(op)
    em.line(f"_t.store(b, {partition}, {value}, {_tuple(index)}, {em.loc(op)})")


@tile_rule(tile.LoadOwnOp)
def emit_load_own(em: TileEmitter, op: Any) -> None:
    (view,) = em.args(op)
    type_ = op.operands[0].type
    em.assign(op, f"_t.load_own(b, {view}, {shape_of(type_)!r}, {elem_name(type_)!r})")


@tile_rule(tile.StoreOwnOp)
def emit_store_own(em: TileEmitter, op: Any) -> None:
    view, value = em.args(op)
    type_ = op.operands[0].type
    em.line(f"_t.store_own(b, {view}, {shape_of(type_)!r}, {value}, {elem_name(type_)!r})")


# Creation and shape ops --------------------------------------------------------------------------------
@tile_rule(tile.SplatOp)
def emit_splat(em: TileEmitter, op: Any) -> None:
    type_ = op.results[0].type
    em.assign(op, f"_t.splat({em.args(op)[0]}, {shape_of(type_)!r}, {compute_type(type_, op)})")


@tile_rule(tile.IotaOp)
def emit_iota(em: TileEmitter, op: Any) -> None:
    type_ = op.results[0].type
    em.assign(op, f"np.arange({shape_of(type_)[0]}, dtype={compute_type(type_, op)})")


@tile_rule(tile.BroadcastOp)
def emit_broadcast(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"_t.broadcast({em.args(op)[0]}, {shape_of(op.results[0].type)!r})")


@tile_rule(tile.ReshapeOp)
def emit_reshape(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"np.reshape({em.args(op)[0]}, {shape_of(op.results[0].type)!r})")


@tile_rule(tile.PermuteOp)
def emit_permute(em: TileEmitter, op: Any) -> None:
    perm = tuple(ir.DenseI64ArrayAttr(op.attributes["perm"]))
    em.assign(op, f"np.transpose({em.args(op)[0]}, {perm!r})")


@tile_rule(tile.CatOp)
def emit_cat(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.assign(op, f"np.concatenate(({a}, {b}), axis={_int(op, 'dim')})")


@tile_rule(tile.ExtractOp)
def emit_extract(em: TileEmitter, op: Any) -> None:
    source, *index = em.args(op)
    shape = shape_of(op.results[0].type)
    em.assign(op, f"_t.extract(b, {source}, {_tuple(index)}, {shape!r}, {em.loc(op)})")


@tile_rule(tile.ToScalarOp)
def emit_to_scalar(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"_t.to_scalar({em.args(op)[0]})")


# Reductions, scans, mma, atomics -----------------------------------------------------------------------
@tile_rule(tile.ReduceOp)
def emit_reduce(em: TileEmitter, op: Any) -> None:
    elem = elem_name(op.results[0].type)
    em.assign(op, f"_t.reduce({em.args(op)[0]}, {_int(op, 'dim')}, {_string(op, 'kind')!r}, "
                  f"{bool(_int(op, 'unsigned'))}, {elem!r})")


@tile_rule(tile.ScanOp)
def emit_scan(em: TileEmitter, op: Any) -> None:
    elem = elem_name(op.results[0].type)
    em.assign(op, f"_t.scan({em.args(op)[0]}, {_int(op, 'dim')}, {_string(op, 'kind')!r}, "
                  f"{bool(_int(op, 'reverse'))}, {bool(_int(op, 'unsigned'))}, {elem!r})")


@tile_rule(tile.MmaOp)
def emit_mma(em: TileEmitter, op: Any) -> None:
    a, b, acc = em.args(op)
    elem, acc_elem = elem_name(op.operands[0].type), elem_name(op.results[0].type)
    tf32 = ", tf32_products=True" if tile.multiplies_as_tf32(op) else ""
    em.assign(op, f"_t.mma({a}, {b}, {acc}, {elem!r}, {acc_elem!r}{tf32})")


@tile_rule(tile.AtomicRmwOp)
def emit_atomic_rmw(em: TileEmitter, op: Any) -> None:
    ptr, offsets, values, mask = em.args(op)
    em.assign(op, f"_t.atomic_rmw(b, {ptr}, {offsets}, {values}, {mask}, {_string(op, 'kind')!r}, {em.loc(op)})")


@tile_rule(tile.LoadPtrOp)
def emit_load_ptr(em: TileEmitter, op: Any) -> None:
    ptr, offsets, mask, padding = em.args(op)
    em.assign(op, f"_t.load_ptr(b, {ptr}, {offsets}, {mask}, {padding}, {em.loc(op)})")


@tile_rule(tile.StorePtrOp)
def emit_store_ptr(em: TileEmitter, op: Any) -> None:
    ptr, offsets, values, mask = em.args(op)
    em.line(f"_t.store_ptr(b, {ptr}, {offsets}, {values}, {mask}, {em.loc(op)})")


@tile_rule(tile.PrintOp)
def emit_print(em: TileEmitter, op: Any) -> None:
    # The operands come grouped by type; `order` gives the format order back (as simt.printf's rule does).
    names = em.args(op)
    groups = {kind: iter([n for n, v in zip(names, op.operands) if str(v.type) == t])
              for kind, t in (("i", "i32"), ("l", "i64"), ("d", "f64"))}
    ordered = [next(groups[kind]) for kind in _string(op, "order")]
    em.line(f"_d.block_printf({_string(op, 'format')!r}{''.join(f', {a}' for a in ordered)})")
