"""Who this thread is: thread and block dimensions (`thread::threadIdx_x()`, `block_dim_y()`, the
`uniform::` forms), special registers (`lane_id()`, `clock64()`, ...), `Uniform::new_unchecked`, the
index functions that mint a thread-index witness (`thread::index_1d()`, `index_2d::<S>()`, ...) and the
witness's methods (`get`, `is_valid`, `row`, `col`, `in_bounds`)."""

from __future__ import annotations

from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_fn, device_method
from oxide.frontends.simt.calls.scalars import i64, u32, usize
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_DIM_CALLS = {"threadIdx": simt.ThreadIdOp, "blockIdx": simt.BlockIdOp, "blockDim": simt.BlockDimOp,
              "gridDim": simt.GridDimOp, "thread_idx": simt.ThreadIdOp, "block_idx": simt.BlockIdOp,
              "block_dim": simt.BlockDimOp, "grid_dim": simt.GridDimOp}
_REGISTERS = {"lane_id": "laneid", "warp_id": "warpid", "warpid": "warpid", "nwarpid": "nwarpid", "smid": "smid",
              "nsmid": "nsmid", "lanemask_lt": "lanemask_lt", "lanemask_le": "lanemask_le",
              "lanemask_eq": "lanemask_eq", "lanemask_gt": "lanemask_gt", "lanemask_ge": "lanemask_ge",
              "clock": "clock", "clock64": "clock64", "globaltimer": "globaltimer",
              "dynamic_smem_size": "dynamic_smem_size", "total_smem_size": "total_smem_size", "gridid": "gridid"}
_AXES = ("x", "y", "z")


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _dim(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    base, _, axis = segs[-1].rpartition("_")
    return u32(_DIM_CALLS[base].build(dim=simt.DimAttr.get(axis)))


device_fn(*(f"{base}_{axis}" for base in _DIM_CALLS for axis in _AXES), when=_no_args)(_dim)
# `uniform::block_dim_x()`: the same value, which every thread of the block agrees on.
device_fn(*(f"uniform::{base}_{axis}" for base in ("block_dim", "grid_dim") for axis in _AXES))(_dim)


@device_fn("Uniform::new_unchecked", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _new_uniform(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    em.require_unsafe(loc, "`Uniform::new_unchecked`")
    return em.expr(args[0], expected)


@device_fn(*_REGISTERS, when=_no_args)
def _register(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    reg = _REGISTERS[segs[-1]]
    result = simt.SpecialRegOp.build(reg=reg, results=[ir.Type.parse(simt.indexing.SPECIAL_REGISTERS[reg])])
    return Val(T.PRIMITIVES["u64" if str(result.type) == "i64" else "u32"], result)


def _minting(arity: Callable[[list[ast.Expr]], bool]) -> Callable[..., bool]:
    """The guard of an index function: a plain helper may not mint a witness, which is refused before the
    call's shape is looked at (so the refusal names the helper whatever the arguments)."""
    def guard(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> bool:
        safety.check_index_call(em, segs[-1], loc)
        return arity(args)
    return guard


def _witness_option(witness: ir.Value, ty: T.ThreadIndex) -> Val:
    return Val(T.OptionTy(ty), OptionVal(simt.IndexValidOp.build(witness), Val(ty, witness)))


@device_fn("index_1d", when=_minting(lambda args: not args))
def _index_1d(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    return Val(T.ThreadIndex("1d"), simt.Index1DOp.build())


@device_fn("index_1d_u32", when=_minting(lambda args: True))
def _index_1d_u32(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    return Val(T.ThreadIndex("1d"), simt.Index1DU32Op.build())


@device_fn("coord_2d_u32", when=_minting(lambda args: True))
def _coord_2d_u32(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    # This thread's (row, col) as a ThreadCoord2D32: a runtime 2-D witness in the IR (valid when the launch
    # is 2-D), which only the RowMajorTiles views take. As in cuda-oxide, only under a 2-D u32 contract.
    contract = em.kernel.attrs.get("launch_contract") or {}
    if contract.get("domain") != 2 or contract.get("coordinates") != "u32":
        raise err(loc, "`thread::coord_2d_u32` needs the kernel's launch contract to state domain = 2 and "
                       "coordinates = u32: `#[launch_contract(domain = 2, coordinates = u32)]`")
    return Val(T.ThreadIndex("coord2d"), simt.Index2DRuntimeOp.build())


@device_fn("index_2d", when=_minting(lambda args: True))
def _index_2d(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    if len(generics) != 1:
        raise err(loc, "`thread::index_2d` needs the row stride: `thread::index_2d::<S>()`")
    space = f"2d:{em.const_arg(generics[0])}"
    return _witness_option(simt.Index2DOp.build(results=[T.ThreadIndex(space).mlir()]), T.ThreadIndex(space))


@device_fn("index_2d_runtime", when=_minting(lambda args: True))
def _index_2d_runtime(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                      expected: T.Ty | None, loc: Any) -> Val:
    for a in args:
        em.expr(a)  # the slice it will address; its width is bound when get_mut resolves the witness
    return _witness_option(simt.Index2DRuntimeOp.build(), T.ThreadIndex("runtime_2d"))


@device_fn("warp_index", when=_minting(lambda args: not args))
def _warp_index(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    return _witness_option(simt.WarpIndexOp.build(), T.ThreadIndex("warp"))


@device_fn("index_2d_row", "index_2d_col")
def _index_2d_axis(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    axis = "y" if segs[-1].endswith("row") else "x"
    block = arith.extui(i64(), simt.BlockIdOp.build(dim=simt.DimAttr.get(axis)))
    dim = arith.extui(i64(), simt.BlockDimOp.build(dim=simt.DimAttr.get(axis)))
    tid = arith.extui(i64(), simt.ThreadIdOp.build(dim=simt.DimAttr.get(axis)))
    return Val(T.USIZE, arith.addi(arith.muli(block, dim), tid))


# The witness's methods -------------------------------------------------------------------------------------
@device_method(T.ThreadIndex, "get", when=lambda em, recv, name, args, *_: not args)
def _get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    return usize(simt.IndexValueOp.build(recv.v))


@device_method(T.ThreadIndex, "is_valid")
def _is_valid(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    return Val(T.BOOL, simt.IndexValidOp.build(recv.v))


@device_method(T.ThreadIndex, "row", "col",
               when=lambda em, recv, name, args, *_: recv.ty.space in ("runtime_2d", "coord2d"))
def _row_col(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    op = simt.IndexRowOp if name == "row" else simt.IndexColOp
    if recv.ty.space == "coord2d":  # 32-bit coordinates (the contract's `coordinates = u32`)
        return u32(arith.index_cast(ir.IntegerType.get_signless(32), op.build(recv.v)))
    return usize(op.build(recv.v))


@device_method(T.ThreadIndex, "in_bounds", when=lambda em, recv, name, args, *_: len(args) == 1)
def _in_bounds(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    length = em.coerce(em.expr(args[0], T.USIZE), T.USIZE, args[0].loc)
    value = arith.index_cast(i64(), simt.IndexValueOp.build(recv.v))
    inside = arith.cmpi(arith.CmpIPredicate.ult, value, length.v)
    return Val(T.BOOL, arith.andi(inside, simt.IndexValidOp.build(recv.v)))


@device_method(T.ThreadIndex, OTHER)
def _not_a_witness_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                          expected: T.Ty | None) -> Val:
    safety.witness_method(recv.ty, name, loc)  # raises: a witness has only the methods above
    raise AssertionError(f"witness method `{name}` has no handler")
