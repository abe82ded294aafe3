"""Tile-kernel emulator rules for mapped partitions (oxide/dialects/tile/mapped.py): calls into
oxide.runtime.emulator.tile_mapped (`_tm`), which owns the work-item arithmetic and the masked store."""

from __future__ import annotations

import re
from typing import Any

from oxide.backend.emulator.rules import tile_rule
from oxide.backend.emulator.tile_emitter import TileEmitter, elem_name, shape_of
from oxide.dialects import tile
from oxide.ir.declare import int_value


def _layout(op: Any) -> str:
    """The tile shape and the map of the op's mapped partition (operand 0), as Python tuples (read from the
    type's text: the program is written outside any MLIR context)."""
    shape, per_item = (tuple(int(d) for d in dims.split(","))
                       for dims in re.findall(r"array<i64:\s*([\d,\s]*)>", str(op.operands[0].type)))
    return f"{shape!r}, {per_item!r}"


@tile_rule(tile.MappedWorkOp)
def emit_mapped_work(em: TileEmitter, op: Any) -> None:
    (view,) = em.args(op)
    em.assign(op, f"_tm.mapped_work({view}, {_layout(op)})")


@tile_rule(tile.MappedItemTilesOp)
def emit_mapped_item_tiles(em: TileEmitter, op: Any) -> None:
    view, item = em.args(op)
    em.assign(op, f"_tm.mapped_item_tiles({view}, {_layout(op)}, {item})")


@tile_rule(tile.MappedIndexOp)
def emit_mapped_index(em: TileEmitter, op: Any) -> None:
    view, item, t = em.args(op)
    em.assign(op, f"_tm.mapped_index({view}, {_layout(op)}, {item}, {t}, {int_value(op.attributes['axis'])})")


@tile_rule(tile.MappedStoreOp)
def emit_mapped_store(em: TileEmitter, op: Any) -> None:
    view, value, *index = em.args(op)
    type_ = op.operands[0].type
    em.line(f"_tm.mapped_store(b, {view}, {shape_of(type_)!r}, {value}, ({''.join(i + ', ' for i in index)}), "
            f"{elem_name(type_)!r}, {em.loc(op)})")
