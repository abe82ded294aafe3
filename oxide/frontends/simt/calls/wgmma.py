"""`cuda_device::wgmma`: warpgroup MMA on Hopper (sm_90a) as typed simt ops.

- `wgmma_fence()`, `wgmma_commit_group()`, `wgmma_wait_group::<N>()` (N a constant, 0..=7);
- `make_smem_desc(p)` (cuda-oxide's fixed descriptor: 32-byte swizzle field, both byte offsets 128),
  `make_smem_desc_custom(p, leading_dim, stride, swizzle_128b)`, and ours,
  `make_smem_desc_swizzle_{none,32b,64b,128b}(p, leading_byte_offset, stride_byte_offset)`, which name the
  swizzle; offsets are constants, checked by the op's verifier;
- `wgmma_mma_m64n{N}k{K}_f32_{bf16,f16,tf32,e4m3,e5m2}(&mut acc, desc_a, desc_b[, accumulate])` for every
  N of the ISA, with `acc` any local f32 array of N/2 elements (`Acc64x64 = [[f32; 8]; 4]` for N = 64),
  row-major order being the register order; `zero_accumulator()`;
- `setmaxnreg_inc::<N>()` / `setmaxnreg_dec::<N>()`.

The accumulator stays a local array: its elements are loaded with constant indices, passed to the op and
stored back, so LLVM promotes the whole array to registers across a K loop.
"""

from __future__ import annotations

import re
from typing import Any

from mlir import ir
from mlir.dialects import arith, memref

from oxide.dialects import simt
from oxide.dialects.simt import wgmma as ops
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Cell, Val, array_shape, load_cell, new_cell
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

U64 = T.PRIMITIVES["u64"]
ACC64X64 = T.Array(T.Array(T.F32, 8), 4)
# cuda-oxide's `make_smem_desc` encoding, ((address >> 4) & 0x3fff) | 0xC000000800080000: both byte offsets
# 128 and swizzle field 3, which the PTX ISA reads as the 32-byte swizzle.
_FIXED_DESC = {"leading_byte_offset": 128, "stride_byte_offset": 128, "swizzle": "32B", "base_offset": 0}
_SWIZZLED = {f"make_smem_desc_swizzle_{name.lower()}": name for name in ops.SWIZZLES}
_MMA_NAME = re.compile(r"wgmma_mma_m64n(\d+)k(\d+)_f32_(\w+)")
# Every name of the family: each legal N with each K, so that a wrong K is a located error naming the right one.
_MMA_NAMES = [f"wgmma_mma_m64n{n}k{k}_f32_{kind}" for kind in ops.WGMMA_INPUTS for n in range(8, 257, 8)
              for k in sorted(set(ops.WGMMA_K.values()))]


def _unit() -> Val:
    return Val(T.UNIT, None)


def _no_args(name: str, args: list[ast.Expr], loc: Any) -> None:
    if args:
        raise err(loc, f"`{name}` takes no arguments but {len(args)} were supplied")


def _const_generic(em: Emitter, name: str, generics: list[Any], args: list[ast.Expr], loc: Any) -> int:
    if args or len(generics) != 1:
        raise err(loc, f"`{name}` takes its count as a const generic: `{name}::<N>()`")
    return em.const_arg(generics[0])


@device_fn("wgmma_fence", "wgmma_commit_group")
def _wgmma_sync(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    name = segs[-1]
    _no_args(name, args, loc)
    (simt.WgmmaFenceOp if name == "wgmma_fence" else simt.WgmmaCommitGroupOp)()
    return _unit()


@device_fn("wgmma_wait_group")
def _wgmma_wait_group(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                      expected: T.Ty | None, loc: Any) -> Val:
    pending = _const_generic(em, "wgmma_wait_group", generics, args, loc)
    if not 0 <= pending <= ops.MAX_PENDING:
        raise err(loc, f"`wgmma_wait_group::<{pending}>`: at most {ops.MAX_PENDING} groups may stay pending; "
                       f"N is 0..={ops.MAX_PENDING}")
    simt.WgmmaWaitGroupOp(pending=pending)
    return _unit()


def _shared_pointer(em: Emitter, a: ast.Expr, name: str) -> ir.Value:
    value = em.expr(a, T.Ptr(T.PRIMITIVES["u8"], False, 3))
    if isinstance(value.ty, T.Shared):
        value = shared_as_pointer(value, False)
    if not isinstance(value.ty, T.Ptr) or value.ty.space != 3:
        what = f"a {('generic', 'global')[value.ty.space]} pointer" if isinstance(value.ty, T.Ptr) and \
            value.ty.space in (0, 1) else f"`{value.ty.rust()}`"
        raise err(a.loc, f"`{name}` takes a pointer into shared memory (`&raw const SMEM as *const u8`), not {what}")
    return value.v


def _descriptor(address: ir.Value, **fields: Any) -> Val:
    return Val(U64, simt.SmemDescOp.build(address, **fields))


def _offset(em: Emitter, a: ast.Expr, name: str, what: str) -> int:
    value = em.const_arg(a)
    if not 0 <= value < ops.DESC_OFFSET_LIMIT or value % 16:
        raise err(a.loc, f"`{name}`: the {what} is {value} bytes; it must be a multiple of 16 below "
                         f"{ops.DESC_OFFSET_LIMIT}")
    return value


@device_fn("make_smem_desc")
def _make_smem_desc(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    if len(args) != 1:
        raise err(loc, f"`make_smem_desc` takes 1 argument (a shared pointer) but {len(args)} were supplied")
    em.require_unsafe(loc, "`make_smem_desc`")
    return _descriptor(_shared_pointer(em, args[0], "make_smem_desc"), **_FIXED_DESC)


@device_fn("make_smem_desc_custom")
def _make_smem_desc_custom(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                           expected: T.Ty | None, loc: Any) -> Val:
    name = "make_smem_desc_custom"
    if len(args) != 4:
        raise err(loc, f"`{name}` takes 4 arguments (ptr, leading_dim, stride, swizzle_128b) but {len(args)} were "
                       "supplied")
    em.require_unsafe(loc, f"`{name}`")
    address = _shared_pointer(em, args[0], name)
    flag = args[3]
    if not (isinstance(flag, ast.Lit) and flag.kind == "bool"):
        raise err(flag.loc, f"`{name}`: `swizzle_128b` must be the literal `true` or `false` (the swizzle is part "
                            "of the descriptor's encoding, fixed at compile time)")
    return _descriptor(address, leading_byte_offset=_offset(em, args[1], name, "leading dimension"),
                       stride_byte_offset=_offset(em, args[2], name, "stride"),
                       swizzle="128B" if flag.value else "none", base_offset=0)


@device_fn(*_SWIZZLED)
def _make_smem_desc_swizzled(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                             expected: T.Ty | None, loc: Any) -> Val:
    name = segs[-1]
    if len(args) != 3:
        raise err(loc, f"`{name}` takes 3 arguments (ptr, leading_byte_offset, stride_byte_offset) but {len(args)} "
                       "were supplied")
    em.require_unsafe(loc, f"`{name}`")
    address = _shared_pointer(em, args[0], name)
    return _descriptor(address, leading_byte_offset=_offset(em, args[1], name, "leading byte offset"),
                       stride_byte_offset=_offset(em, args[2], name, "stride byte offset"),
                       swizzle=_SWIZZLED[name], base_offset=0)


@device_fn("zero_accumulator")
def _zero_accumulator(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                      expected: T.Ty | None, loc: Any) -> Val:
    _no_args("zero_accumulator", args, loc)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(ACC64X64)
    zero = arith.constant(T.F32.mlir(), ir.FloatAttr.get(T.F32.mlir(), 0.0))
    for position in _positions([4, 8]):
        memref.store(zero, cell.leaves, _indices(position))
    return load_cell(cell)


def _positions(dims: list[int]) -> list[tuple[int, ...]]:
    """Every index tuple of an array of these dimensions, in row-major order."""
    out: list[tuple[int, ...]] = [()]
    for dim in dims:
        out = [p + (i,) for p in out for i in range(dim)]
    return out


def _indices(position: tuple[Any, ...]) -> list[ir.Value]:
    return [i if isinstance(i, ir.Value) else arith.constant(ir.IndexType.get(), i) for i in position]


def _accumulator(em: Emitter, a: ast.Expr, name: str, n: int) -> Cell:
    """The local f32 array `a` names (`&mut acc`), with N/2 elements."""
    value = em.expr(a)
    shape = array_shape(value.ty.elem) if isinstance(value.ty, T.LocalRef) and \
        isinstance(value.ty.elem, T.Array) else None
    want = n // 2
    if shape is None or not value.ty.mutable or shape[1] != T.F32 or _count(shape[0]) != want:
        raise err(a.loc, f"`{name}` takes `&mut acc` of a local f32 array of {want} elements per thread "
                         f"(`[f32; {want}]` or `[[f32; 8]; {want // 8}]`), not `{value.ty.rust()}`"
                  if want % 8 == 0 else
                  f"`{name}` takes `&mut acc` of a local `[f32; {want}]` array, not `{value.ty.rust()}`")
    return value.v


def _count(dims: list[int]) -> int:
    total = 1
    for dim in dims:
        total *= dim
    return total


@device_fn(*_MMA_NAMES)
def _wgmma_mma(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    name = segs[-1]
    n, k, kind = _MMA_NAME.fullmatch(name).groups()  # type: ignore[union-attr]
    n, k = int(n), int(k)
    if k != ops.WGMMA_K[kind]:
        right = f"wgmma_mma_m64n{n}k{ops.WGMMA_K[kind]}_f32_{kind}"
        raise err(loc, f"`{name}`: {kind} wgmma has k = {ops.WGMMA_K[kind]}, not {k}; use `{right}`")
    if len(args) not in (3, 4):
        raise err(loc, f"`{name}` takes (&mut acc, desc_a, desc_b) or (&mut acc, desc_a, desc_b, accumulate) but "
                       f"{len(args)} arguments were supplied")
    em.require_unsafe(loc, f"`{name}`")
    cell = _accumulator(em, args[0], name, n)
    desc_a, desc_b = (em.coerce(em.expr(a, U64), U64, a.loc).v for a in args[1:3])
    accumulate = True
    if len(args) == 4:
        flag = args[3]
        if not (isinstance(flag, ast.Lit) and flag.kind == "bool"):
            raise err(flag.loc, f"`{name}`: `accumulate` must be the literal `true` (D += A x B) or `false` "
                                "(D = A x B)")
        accumulate = flag.value
    positions = [cell.prefix + p for p in _positions(array_shape(cell.ty)[0])]
    values = [memref.load(cell.leaves, _indices(p)) for p in positions]
    op = simt.WgmmaMmaAsyncOp(
        values, desc_a, desc_b, results=[v.type for v in values], m=64, n=n, k=k, input=kind,
        accumulator="f32", scale_d="accumulate" if accumulate else "overwrite", negate_a=False, negate_b=False,
        transpose_a=False, transpose_b=False)
    for value, p in zip(op.result, positions):
        memref.store(value, cell.leaves, _indices(p))
    return _unit()


@device_fn("setmaxnreg_inc", "setmaxnreg_dec")
def _setmaxnreg(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    name = segs[-1]
    em.require_unsafe(loc, f"`{name}`")
    regs = _const_generic(em, name, generics, args, loc)
    low, high = ops.SETMAXNREG_RANGE
    if not (low <= regs <= high and regs % 8 == 0):
        raise err(loc, f"`{name}::<{regs}>`: the register count must be a multiple of 8 from {low} to {high}")
    simt.SetMaxNRegOp(regs=regs, action=name.rsplit("_", 1)[1])
    return _unit()
