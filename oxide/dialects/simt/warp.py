"""simt warp ops: shuffles, votes, match, hardware reductions, leader election and the active mask.

Every collective takes the mask of the lanes that take part (cuda-oxide's `*_sync(mask, ...)` forms; its
mask-less forms pass the full mask, 0xffffffff): each lane named in the mask must execute the same op,
and the executing lane must be in the mask. Convergence is the caller's promise here; the analyses check it.

Verification: IRDL checks every operand and result type and the string enums (`kind`); the Python verifier
checks what IRDL cannot (a shuffle's `width` is a power of two from 1 to 32). Lane ids and lane masks are
`simt.special_reg` (`laneid`, `lanemask_*`).
"""

from __future__ import annotations

from typing import Any

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import I1, INTEGER_ATTR, AnyOf, Is, TypeVar, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError

I32 = Is("i32")
# Shuffles move 32- and 64-bit values; PTX shuffles 32 bits, so 64-bit values take two shuffles.
SHUFFLE_TYPES = ("i32", "f32", "i64", "f64")
SHUFFLE_KINDS = ("idx", "up", "down", "xor")
VOTE_KINDS = ("all", "any")
REDUX_KINDS = ("add", "min", "max", "umin", "umax", "and", "or", "xor")
WARP_SIZE = 32

_SHUFFLE_T = TypeVar("T", AnyOf(*(Is(t) for t in SHUFFLE_TYPES)))


@DIALECT.op
class ShuffleOp(Op):
    """`warp::shuffle{,_xor,_up,_down}[_f32|_u64|_f64][_sync](mask, value, offset)`: read `value` from
    another lane of the same `width`-lane segment of the warp. `kind` picks the source lane: `idx` the lane
    `offset`, `up` this lane - `offset`, `down` this lane + `offset`, `xor` this lane ^ `offset`; a source
    outside the segment yields this lane's own value.

    `value` is i32, f32, i64 or f64; `width` a power of two from 1 to 32 (the builder's default is 32). PTX
    `shfl.sync.{idx,up,down,bfly}.b32` with the c operand `(32 - width) << 8 | (up ? 0 : 31)`; a 64-bit value
    is two 32-bit shuffles.
    """

    mnemonic = "shuffle"
    mask = Operand(I32, "the participating lanes")
    value = Operand(_SHUFFLE_T, "this lane's value")
    offset = Operand(I32, "source lane (idx), lane distance (up, down) or lane xor mask (xor)")
    kind = Attr(one_of(*SHUFFLE_KINDS), "idx, up, down or xor")
    width = Attr(INTEGER_ATTR, "segment width: a power of two from 1 to 32 (the whole warp by default)")
    result = Result(_SHUFFLE_T)

    def __init__(self, *operands: Any, width: int = WARP_SIZE, **kwargs: Any) -> None:
        # cuda-oxide's shuffles have no width argument: they shuffle across the whole warp.
        super().__init__(*operands, width=width, **kwargs)

    def verify_(self) -> None:
        width = self.width
        if isinstance(width, bool) or not isinstance(width, int) or not 1 <= width <= WARP_SIZE or width & (width - 1):
            raise VerifyError(f"shuffle width must be a power of two from 1 to 32, got {width}")


@DIALECT.op
class VoteOp(Op):
    """`warp::all_sync(mask, p)` / `warp::any_sync(mask, p)` (and the full-mask `all`, `any`): whether
    `pred` holds on every (`all`) or some (`any`) lane of the mask.

    PTX `vote.sync.all.pred` / `vote.sync.any.pred`.
    """

    mnemonic = "vote"
    mask = Operand(I32, "the participating lanes")
    pred = Operand(I1, "this lane's predicate")
    kind = Attr(one_of(*VOTE_KINDS), "all or any")
    result = Result(I1)


@DIALECT.op
class BallotOp(Op):
    """`warp::ballot_sync(mask, p)` (and `ballot`): bit i of the result is lane i's `pred`, for the lanes
    of the mask (0 elsewhere).

    PTX `vote.sync.ballot.b32`.
    """

    mnemonic = "ballot"
    mask = Operand(I32, "the participating lanes")
    pred = Operand(I1, "this lane's predicate")
    result = Result(I32)


_MATCH_T = AnyOf(I32, Is("i64"))


@DIALECT.op
class MatchAnyOp(Op):
    """`warp::match_any_sync(mask, v)` (u32 and `_i64`): the lanes of the mask whose `value` equals this
    lane's.

    `value` is i32 or i64: PTX `match.any.sync.b32` / `.b64`.
    """

    mnemonic = "match_any"
    mask = Operand(I32, "the participating lanes")
    value = Operand(_MATCH_T, "the value compared across lanes")
    result = Result(I32)


@DIALECT.op
class MatchAllOp(Op):
    """`warp::match_all_sync(mask, v)` (u32 and `_i64`): `all_equal` says whether every lane of the mask
    holds the same `value`; `lanes` is then the mask, else 0.

    PTX `match.all.sync.b32` / `.b64` with its `d|p` results.
    """

    mnemonic = "match_all"
    mask = Operand(I32, "the participating lanes")
    value = Operand(_MATCH_T, "the value compared across lanes")
    lanes = Result(I32)
    all_equal = Result(I1)


@DIALECT.op
class ActiveMaskOp(Op):
    """`warp::active_mask()` (`__activemask`): the lanes of the warp executing this op now. It synchronises
    nothing: use it to learn who is here, not to make them wait.

    PTX `activemask.b32`, as inline PTX.
    """

    mnemonic = "active_mask"
    result = Result(I32)


@DIALECT.op
class ReduxOp(Op):
    """`warp::redux_sync_add` / `_{min,max}_{i32,u32}` / `_{and,or,xor}`: the warp-wide reduction of `value`
    over the lanes of the mask, in hardware (sm_80+). `min`/`max` compare signed, `umin`/`umax` unsigned.

    PTX `redux.sync.{add.s32, min.s32, max.s32, min.u32, max.u32, and.b32, or.b32, xor.b32}`; with a `--chip`
    older than sm_80 the lowering is a located error.
    """

    mnemonic = "redux"
    mask = Operand(I32, "the participating lanes")
    value = Operand(I32, "this lane's value")
    kind = Attr(one_of(*REDUX_KINDS), "add, min, max, umin, umax, and, or or xor")
    result = Result(I32)


@DIALECT.op
class ElectOp(Op):
    """`warp::elect_sync(mask) -> (u32, bool)` and `is_elected_sync`: elect one lane of the mask (sm_90+);
    every lane learns the leader's lane id, and the leader alone sees `elected` true.

    PTX `elect.sync %r|%p, mask` as inline PTX (`nvvm.elect.sync` yields only the predicate); with a `--chip`
    older than sm_90 the lowering is a located error.
    """

    mnemonic = "elect"
    mask = Operand(I32, "the participating lanes")
    leader = Result(I32)
    elected = Result(I1)
