"""Lowering of simt warp ops to NVVM: `shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`, `elect.sync`
and `activemask`.

The ops PTX has no NVVM op for with the results simt needs (the leader lane of `elect.sync`, the
active mask) are one-instruction inline PTX.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, nvvm

from oxide.dialects.simt import warp as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_SHUFFLE_KIND = {"idx": nvvm.ShflKind.idx, "up": nvvm.ShflKind.up, "down": nvvm.ShflKind.down,
                 "xor": nvvm.ShflKind.bfly}
_VOTE_KIND = {"all": nvvm.VoteSyncKind.all, "any": nvvm.VoteSyncKind.any}
_REDUX_KIND = {"add": nvvm.ReduxKind.ADD, "min": nvvm.ReduxKind.MIN, "max": nvvm.ReduxKind.MAX,
               "umin": nvvm.ReduxKind.UMIN, "umax": nvvm.ReduxKind.UMAX, "and": nvvm.ReduxKind.AND,
               "or": nvvm.ReduxKind.OR, "xor": nvvm.ReduxKind.XOR}


def _i(width: int) -> ir.Type:
    return ir.IntegerType.get_signless(width)


@lowering(ops.ShuffleOp)
def lower_shuffle(ctx: LoweringContext, op: ops.ShuffleOp) -> ir.Value:
    # PTX packs the segment into operand c: bits 12:8 mask off the lanes of other width-lane segments,
    # bits 4:0 are the bound lane (`up` stops at the segment's first lane, the other kinds at its last).
    bound = 0 if op.kind == "up" else ops.WARP_SIZE - 1
    segment = ctx.const("i32", (ops.WARP_SIZE - op.width) << 8 | bound)
    kind = _SHUFFLE_KIND[op.kind]

    def shuffle32(value: ir.Value) -> ir.Value:
        return nvvm.shfl_sync(value.type, op.mask, value, op.offset, segment, kind)

    value = op.value
    if str(value.type) in ("i32", "f32"):
        return shuffle32(value)
    # PTX shuffles 32 bits: move both halves of a 64-bit value from the same source lane and rejoin them.
    bits = value if str(value.type) == "i64" else arith.bitcast(_i(64), value)
    thirty_two = ctx.const("i64", 32)
    low = shuffle32(arith.trunci(_i(32), bits))
    high = shuffle32(arith.trunci(_i(32), arith.shrui(bits, thirty_two)))
    joined = arith.ori(arith.extui(_i(64), low), arith.shli(arith.extui(_i(64), high), thirty_two))
    return joined if str(value.type) == "i64" else arith.bitcast(value.type, joined)


@lowering(ops.VoteOp)
def lower_vote(ctx: LoweringContext, op: ops.VoteOp) -> ir.Value:
    return nvvm.vote_sync(_i(1), op.mask, op.pred, _VOTE_KIND[op.kind])


@lowering(ops.BallotOp)
def lower_ballot(ctx: LoweringContext, op: ops.BallotOp) -> ir.Value:
    return nvvm.vote_sync(_i(32), op.mask, op.pred, nvvm.VoteSyncKind.ballot)


@lowering(ops.MatchAnyOp)
def lower_match_any(ctx: LoweringContext, op: ops.MatchAnyOp) -> ir.Value:
    return nvvm.match_sync(_i(32), op.mask, op.value, nvvm.MatchSyncKind.any)


@lowering(ops.MatchAllOp)
def lower_match_all(ctx: LoweringContext, op: ops.MatchAllOp) -> list[ir.Value]:
    pair = nvvm.match_sync(ir.Type.parse("!llvm.struct<(i32, i1)>"), op.mask, op.value, nvvm.MatchSyncKind.all)
    return [llvm.extractvalue(_i(32), pair, [0]), llvm.extractvalue(_i(1), pair, [1])]


@lowering(ops.ActiveMaskOp)
def lower_active_mask(ctx: LoweringContext, op: ops.ActiveMaskOp) -> ir.Value:
    # inline_ptx is side-effecting, so two reads in different branches stay two reads.
    return nvvm.inline_ptx([_i(32)], [], [], "activemask.b32 $0;")


@lowering(ops.ReduxOp)
def lower_redux(ctx: LoweringContext, op: ops.ReduxOp) -> ir.Value:
    ctx.require_sm(80, "redux.sync", "reduce across the warp with shuffles (simt.shuffle kind \"xor\") instead")
    return nvvm.redux_sync(_i(32), op.value, _REDUX_KIND[op.kind], op.mask)


@lowering(ops.ElectOp)
def lower_elect(ctx: LoweringContext, op: ops.ElectOp) -> list[ir.Value]:
    ctx.require_sm(90, "elect.sync", "pick the lowest lane of the mask (count trailing zeros) instead")
    # nvvm.elect.sync yields only the predicate; the PTX instruction also writes the leader's lane.
    leader, elected = nvvm.inline_ptx([_i(32), _i(1)], [op.mask], [], "elect.sync $0|$1, $2;")
    return [leader, elected]
