"""Reductions and scans along one dimension, by a butterfly over the dimension's coordinate bits.

For each coordinate bit of the dimension, lowest first, every element combines its running total with that
of its partner (the element whose coordinate differs in that bit): in-thread when the bit is a register bit,
by `shuffle.xor` when it is a lane bit, through the shared scratch memory when it is a warp bit. After all
bits each element holds the total of its line (the reduction); a scan also keeps, per element, the prefix:
an element in the upper half of a pair takes its partner's total in front of its own prefix (the lower
half, for a reverse scan). All four kinds are commutative, so both partners compute the same total. A
reduction, whose order does not matter, takes the register bits first, then the lane bits, then all warp
bits at once (one shared-memory round).

The reduction's result keeps the source layout minus the dimension: its register bits are dropped and its
lane and warp bits hold copies (replication), so broadcasting the result back along that dimension, as
softmax and layernorm do, moves no data.
"""

from __future__ import annotations

from collections.abc import Callable

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.passes.conversion.tile_to_simt.context import TileLowering, bit_width, i_type
from oxide.passes.conversion.tile_to_simt.layouts import (
    LANE_BITS,
    WARP_SIZE,
    Bit,
    Layout,
    TileValue,
)
from oxide.passes.conversion.tile_to_simt.rules import lowering

Combine = Callable[[ir.Value, ir.Value], ir.Value]
FULL_MASK = -1  # 0xffffffff as i32: every lane of the warp takes part
_FLOAT = ("f16", "bf16", "f32", "f64")


def combiner(kind: str, unsigned: bool, elem: ir.Type) -> Combine:
    """The binary op of a reduction kind on scalars of `elem`."""
    if str(elem) in _FLOAT:
        ops = {"sum": arith.addf, "prod": arith.mulf, "max": arith.maximumf, "min": arith.minimumf}
    else:
        ops = {"sum": arith.addi, "prod": arith.muli, "max": arith.maxui if unsigned else arith.maxsi,
               "min": arith.minui if unsigned else arith.minsi}
    return ops[kind]


def shuffle_xor(ctx: TileLowering, value: ir.Value, lane_mask: int) -> ir.Value:
    """The value of the lane `lane ^ lane_mask` (any scalar type up to 64 bits)."""
    return _shuffle(ctx, value, ctx.i32(lane_mask), "xor")


def _shuffle(ctx: TileLowering, value: ir.Value, offset: ir.Value, kind: str) -> ir.Value:
    """simt.shuffle of any scalar type up to 64 bits (narrower ones travel widened to i32)."""
    t = value.type
    text = str(t)
    if text in ("i32", "f32", "i64", "f64"):
        return simt.ShuffleOp.build(ctx.i32(FULL_MASK), value, offset, kind=kind)
    width = bit_width(t)
    bits = arith.bitcast(i_type(width), value) if text in _FLOAT else value
    wide = arith.extui(i_type(32), bits)
    moved = simt.ShuffleOp.build(ctx.i32(FULL_MASK), wide, offset, kind=kind)
    narrow = arith.trunci(i_type(width), moved)
    return arith.bitcast(t, narrow) if text in _FLOAT else narrow


def _publish(ctx: TileLowering, values: dict[int, ir.Value]) -> tuple[ir.Type, int, ir.Value]:
    """Write this thread's `values` to the shared scratch, register r at slot r * threads + tid (a warp writes
    consecutive words: no bank conflicts), then barrier; (element type, threads, scratch base)."""
    elem = next(iter(values.values())).type
    threads = 32 * ctx.warps
    base = ctx.scratch(elem, len(values) * threads)
    ctx.scratch_begin()
    for r, value in enumerate(values.values()):
        ctx.scratch_store(base, arith.addi(ctx.tid, ctx.i32(r * threads)) if r else ctx.tid, value)
    ctx.barrier()
    return elem, threads, base


def _partner_through_shared(ctx: TileLowering, values: dict[int, ir.Value], thread_bit: int) -> dict[int, ir.Value]:
    """For the given registers, the value the thread `tid ^ (1 << thread_bit)` (another warp) holds in the
    same register, through shared memory (the scratch holds only the values exchanged)."""
    elem, threads, base = _publish(ctx, values)
    partner = arith.xori(ctx.tid, ctx.i32(1 << thread_bit))
    return {j: ctx.scratch_load(base, arith.addi(partner, ctx.i32(r * threads)) if r else partner, elem)
            for r, j in enumerate(values)}


def _total_across_warps(ctx: TileLowering, values: dict[int, ir.Value], thread_bits: list[int], alike: int,
                        combine: Combine) -> dict[int, ir.Value]:
    """For the given registers, the combination over every warp that differs only in `thread_bits` (warp bits
    of the thread id, lowest coordinate bit first), in one shared-memory round: each thread writes its values at
    slot r * threads + tid, then reads all the warps' and combines them in coordinate order, so that every
    thread computes the same total. `alike` masks the other thread-id bits along which the values are already
    equal (lane bits of the reduced dimension, replicated bits)."""
    threads = 32 * ctx.warps
    slots = len(values) << len(thread_bits)
    if (threads - 1) & ~alike == sum(1 << b for b in thread_bits) and (slots <= WARP_SIZE or slots % WARP_SIZE == 0):
        return _total_by_lanes(ctx, values, thread_bits, combine)
    elem, threads, base = _publish(ctx, values)
    others = arith.andi(ctx.tid, ctx.i32(~sum(1 << b for b in thread_bits)))
    sources = []
    for a in range(1 << len(thread_bits)):
        spread = sum(1 << b for i, b in enumerate(thread_bits) if (a >> i) & 1)
        sources.append(arith.ori(others, ctx.i32(spread)) if spread else others)
    totals = {}
    for r, j in enumerate(values):
        total = None
        for source in sources:
            value = ctx.scratch_load(base, arith.addi(source, ctx.i32(r * threads)) if r else source, elem)
            total = value if total is None else combine(total, value)
        totals[j] = total
    return totals


def _total_by_lanes(ctx: TileLowering, values: dict[int, ir.Value], thread_bits: list[int],
                    combine: Combine) -> dict[int, ir.Value]:
    """`_total_across_warps` when a warp's threads all hold the same values, which differ only across
    `thread_bits`: each warp writes register r of its combination a at slot r * W + a (W = 2^len(thread_bits)
    warp combinations), lane r * W + a reads it back (slots past a warp's 32 lanes in further chunks of 32), a
    butterfly over the low lane bits totals each register, and each total is shuffled from its register's
    first lane.

    Why: read slot by slot, every thread loads all the slots; a [4, 4096] LayerNorm at 8 warps loaded 32 per
    reduction and kept their 32 lane-dependent 64-bit addresses live from the mean's reduction to the
    variance's, beside its row: 154 registers, one block of 256 threads per SM. Here a thread loads one slot
    (128 registers, two blocks per SM). Reading all the slots at the first lane's copies instead (constant
    addresses) also gave 128, but let ptxas issue the 32 loads at once and took RMSNorm from 112 to 118."""
    elem = next(iter(values.values())).type
    spread_bits = len(thread_bits)
    slots = len(values) << spread_bits
    base = ctx.scratch(elem, slots)
    ctx.scratch_begin()
    combination = None
    for i, b in enumerate(thread_bits):
        bit = arith.andi(arith.shrui(ctx.tid, ctx.i32(b - i)), ctx.i32(1 << i))
        combination = bit if combination is None else arith.ori(combination, bit)
    # The warp's lanes hold the same values: its first lane writes them.
    first = arith.cmpi(arith.CmpIPredicate.eq, arith.andi(ctx.tid, ctx.i32(WARP_SIZE - 1)), ctx.i32(0))
    branch = scf.IfOp(first, [])
    with ir.InsertionPoint(branch.then_block):
        for r, value in enumerate(values.values()):
            ctx.scratch_store(base, arith.addi(combination, ctx.i32(r << spread_bits)) if r else combination, value)
        scf.YieldOp([])
    ctx.barrier()
    # More slots than lanes (a [4, 4096] row at 16 warps: 4 rows x 16 warps): lane l reads slot l + 32 c of
    # each chunk c, and a chunk holds 32 / W registers' slots.
    lanes = min(slots, WARP_SIZE)
    lane = arith.andi(ctx.tid, ctx.i32(lanes - 1))
    chunks = []
    for c in range(slots // lanes):
        total = ctx.scratch_load(base, arith.addi(lane, ctx.i32(c * WARP_SIZE)) if c else lane, elem)
        for i in range(spread_bits):
            total = combine(total, shuffle_xor(ctx, total, 1 << i))
        chunks.append(total)
    if len(values) == 1:
        return {j: chunks[0] for j in values}  # every lane read a slot of the one register
    per_chunk = lanes >> spread_bits
    return {j: _shuffle(ctx, chunks[r // per_chunk], ctx.i32((r % per_chunk) << spread_bits), "idx")
            for r, j in enumerate(values)}


def butterfly(ctx: TileLowering, tile: TileValue, dim: int, combine: Combine, scan: bool,
              reverse: bool) -> tuple[list[ir.Value], list[ir.Value]]:
    """(totals, prefixes) per register after combining along `dim` (prefixes only when `scan`).

    A scan must take the bits in increasing significance. A reduction takes its register bits first, after
    which the registers that differ only in those bits hold the same total, so the shuffles and the
    shared-memory round move one value per distinct total; then its lane bits; then all its warp bits in one
    shared-memory round."""
    layout = tile.layout
    totals = dict(enumerate(tile.values))
    prefixes = dict(enumerate(tile.values))
    order = list(range(layout.shape[dim].bit_length() - 1))
    in_registers = [k for k, bit in enumerate(layout.registers) if bit.dim == dim]
    warp_bits = [layout.thread_bits.index(Bit(dim, b)) for b in order if Bit(dim, b) in layout.warps]
    if not scan:
        order.sort(key=lambda b: 0 if Bit(dim, b) in layout.registers else 1 if Bit(dim, b) in layout.lanes else 2)
    for b in order:
        target = Bit(dim, b)
        if target in layout.registers:
            k = layout.registers.index(target)
            for j in range(layout.per_thread):
                if (j >> k) & 1:
                    continue
                upper = j | (1 << k)
                if scan:
                    if reverse:
                        prefixes[j] = combine(prefixes[j], totals[upper])
                    else:
                        prefixes[upper] = combine(totals[j], prefixes[upper])
                totals[j] = totals[upper] = combine(totals[j], totals[upper])
            continue
        if not scan:
            # Register bits are done: keep one representative per distinct total.
            totals = {j: v for j, v in totals.items() if not any((j >> k) & 1 for k in in_registers)}
            if target in layout.warps:
                alike = sum(1 << k for k, bit in enumerate(layout.thread_bits) if bit is None or bit.dim == dim)
                totals = _total_across_warps(ctx, totals, warp_bits, alike & ~sum(1 << b for b in warp_bits),
                                             combine)
                break
        thread_bit = layout.thread_bits.index(target)
        if thread_bit < LANE_BITS:
            partners = {j: shuffle_xor(ctx, t, 1 << thread_bit) for j, t in totals.items()}
        else:
            partners = _partner_through_shared(ctx, totals, thread_bit)
        if scan:
            is_upper = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(ctx.tid, ctx.i32(1 << thread_bit)), ctx.i32(0))
            takes = arith.xori(is_upper, ctx.const(i_type(1), 1)) if reverse else is_upper
            prefixes = {j: arith.select(takes, combine(partners[j], s) if not reverse else combine(s, partners[j]), s)
                        for j, s in prefixes.items()}
        totals = {j: combine(t, partners[j]) for j, t in totals.items()}
    # A register left out above holds its representative's total (its `dim` register bits cleared).
    clear = ~sum(1 << k for k in in_registers)
    return ([totals[j] if j in totals else totals[j & clear] for j in range(layout.per_thread)],
            [prefixes[j] for j in range(layout.per_thread)])


def drop_dim(layout: Layout, dim: int) -> tuple[Layout, list[int]]:
    """The layout of a reduction's result, and which source registers (those with no `dim` bit) it keeps."""

    def renumber(bit: Bit | None) -> Bit | None:
        if bit is None or bit.dim == dim:
            return None
        return Bit(bit.dim - 1, bit.bit) if bit.dim > dim else bit

    kept_bits = [k for k, bit in enumerate(layout.registers) if bit.dim != dim]
    shape = layout.shape[:dim] + layout.shape[dim + 1:]
    result = Layout(shape, tuple(renumber(layout.registers[k]) for k in kept_bits),
                    tuple(renumber(b) for b in layout.lanes), tuple(renumber(b) for b in layout.warps), layout.kind)
    keep = [sum(1 << kept_bits[i] for i in range(len(kept_bits)) if (j >> i) & 1) for j in range(result.per_thread)]
    return result, keep


def _kind(op: object) -> tuple[str, bool]:
    return ir.StringAttr(op.operation.attributes["kind"]).value, bool(op.unsigned)


@lowering(T.ReduceOp)
def lower_reduce(ctx: TileLowering, op: T.ReduceOp) -> TileValue:
    """Combine along `dim`; the result drops it."""
    tile = ctx.tile(op.source)
    kind, unsigned = _kind(op)
    dim = op.dim
    result_layout, keep = drop_dim(tile.layout, dim)
    if tile.is_splat and kind in ("max", "min"):
        return ctx.splat(tile.values[0], result_layout)
    totals, _ = butterfly(ctx, tile, dim, combiner(kind, unsigned, tile.values[0].type), scan=False, reverse=False)
    return TileValue(result_layout, [totals[j] for j in keep])


@lowering(T.ScanOp)
def lower_scan(ctx: TileLowering, op: T.ScanOp) -> TileValue:
    """Inclusive prefix combination along `dim` (from the end when `reverse`)."""
    tile = ctx.tile(op.source)
    kind, unsigned = _kind(op)
    _, prefixes = butterfly(ctx, tile, op.dim, combiner(kind, unsigned, tile.values[0].type), scan=True,
                            reverse=bool(op.reverse))
    return TileValue(tile.layout, prefixes)
