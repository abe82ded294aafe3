"""Device functions that are one PTX instruction (or a short fixed sequence) with no upstream op, as
`simt.inline_ptx` templates: integer dot products (`dotprod::dp4a_*`/`dp2a_*`), packed half conversions
(`convert::cvt_*`) and arithmetic (`f16x2::*`, `bf16x2::*`) on u32 words, packed atomics, classic async
copies (`async_copy::cp_async_*`), `ldmatrix` and debugging (`debug::breakpoint`, `debug::prof_trigger::<N>`,
`nanosleep`). The mbarrier functions, async-proxy fences and TMA copies are typed simt ops (barriers.py,
tma.py).

A packed f16x2/bf16x2 value is a u32 whose low half is the first (`lo`) element, as in cuda-oxide; PTX's
`cvt.*x2.f32 d, a, b` puts `a` in the upper half, hence the swapped operands of the packing conversions.
Pointer parameters name the state space the instruction addresses: `shared` takes a pointer into shared
memory (a SharedArray's or a Barrier's), `global` one into global memory (a slice's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, memref

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val, load_cell, new_cell

_CONSTRAINT = {"u16": "h", "u32": "r", "i32": "r", "u64": "l", "i64": "l", "f32": "f", "f64": "d",
               "shared": "l", "global": "l"}
_SPACES = {"shared": 3, "global": 1}


@dataclass(frozen=True)
class PtxFn:
    """One device function: its PTX template, parameter kinds, result types, and whether it is unsafe
    (takes raw pointers) or touches memory (a `~{memory}` clobber keeps loads and stores in order)."""

    asm: str
    params: tuple[str, ...]
    results: tuple[str, ...] = ()
    unsafe: bool = False
    memory: bool = False


def _binary(op: str, kind: str) -> PtxFn:
    return PtxFn(f"{op}.{kind} $0, $1, $2;", ("u32", "u32"), ("u32",))


def _unary(op: str, kind: str) -> PtxFn:
    return PtxFn(f"{op}.{kind} $0, $1;", ("u32",), ("u32",))


def _fma(modifiers: str, kind: str) -> PtxFn:
    return PtxFn(f"fma.rn{modifiers}.{kind} $0, $1, $2, $3;", ("u32", "u32", "u32"), ("u32",))


def _pack(rounding: str, kind: str) -> PtxFn:
    return PtxFn(f"cvt.{rounding}.{kind}.f32 $0, $2, $1;", ("f32", "f32"), ("u32",))


def _unpack_f16(half: str) -> str:
    return f"{{ .reg .b16 l, h; mov.b32 {{l, h}}, $1; cvt.f32.f16 $0, {half[0]}; }}"


def _copy(cache: str, size: int, zfill: bool) -> PtxFn:
    if zfill:
        return PtxFn(f"cp.async.{cache}.shared.global [$0], [$1], {size}, $2;", ("shared", "global", "u32"),
                     unsafe=True, memory=True)
    return PtxFn(f"cp.async.{cache}.shared.global [$0], [$1], {size};", ("shared", "global"), unsafe=True, memory=True)


PTX_FNS: dict[str, PtxFn] = {
    # Integer dot products: dp4a sums four byte products, dp2a.lo two 16-bit x low-byte products.
    "dp4a_s32": PtxFn("dp4a.s32.s32 $0, $1, $2, $3;", ("u32", "u32", "i32"), ("i32",)),
    "dp4a_u32": PtxFn("dp4a.u32.u32 $0, $1, $2, $3;", ("u32", "u32", "u32"), ("u32",)),
    "dp2a_s32": PtxFn("dp2a.lo.s32.s32 $0, $1, $2, $3;", ("u32", "u32", "i32"), ("i32",)),
    "dp2a_u32": PtxFn("dp2a.lo.u32.u32 $0, $1, $2, $3;", ("u32", "u32", "u32"), ("u32",)),
    # f32 pairs to packed halves.
    "cvt_f16x2_f32": _pack("rn", "f16x2"),
    "cvt_rn_f16x2_f32": _pack("rn", "f16x2"),
    "cvt_rz_f16x2_f32": _pack("rz", "f16x2"),
    "cvt_rn_relu_f16x2_f32": _pack("rn.relu", "f16x2"),
    "cvt_bf16x2_f32": _pack("rn", "bf16x2"),
    "cvt_rn_bf16x2_f32": _pack("rn", "bf16x2"),
    "cvt_rz_bf16x2_f32": _pack("rz", "bf16x2"),
    "cvt_rn_relu_bf16x2_f32": _pack("rn.relu", "bf16x2"),
    # Packed halves back to f32 (exact).
    "cvt_f32x2_f16x2": PtxFn("{ .reg .b16 l, h; mov.b32 {l, h}, $2; cvt.f32.f16 $0, l; cvt.f32.f16 $1, h; }",
                             ("u32",), ("f32", "f32")),
    "cvt_f32_f16x2_lo": PtxFn(_unpack_f16("lo"), ("u32",), ("f32",)),
    "cvt_f32_f16x2_hi": PtxFn(_unpack_f16("hi"), ("u32",), ("f32",)),
    # Packed atomic adds (sm_90): the old packed value comes back.
    "atom_add_f16x2": PtxFn("atom.global.add.noftz.f16x2 $0, [$1], $2;", ("global", "u32"), ("u32",),
                            unsafe=True, memory=True),
    "atom_add_bf16x2": PtxFn("atom.global.add.noftz.bf16x2 $0, [$1], $2;", ("global", "u32"), ("u32",),
                             unsafe=True, memory=True),
    # Classic (Ampere) async copies, global -> shared.
    **{f"cp_async_ca{'_zfill' if z else ''}_{n}": _copy("ca", n, z) for n in (4, 8, 16) for z in (False, True)},
    "cp_async_cg_16": _copy("cg", 16, False),
    "cp_async_cg_zfill_16": _copy("cg", 16, True),
    "cp_async_commit_group": PtxFn("cp.async.commit_group;", (), unsafe=True, memory=True),
    "cp_async_wait_all": PtxFn("cp.async.wait_all;", (), unsafe=True, memory=True),
    "cp_async_mbarrier_arrive": PtxFn("cp.async.mbarrier.arrive.b64 [$0];", ("shared",), unsafe=True, memory=True),
    "cp_async_mbarrier_arrive_shared": PtxFn("cp.async.mbarrier.arrive.shared.b64 [$0];", ("shared",),
                                             unsafe=True, memory=True),
    "cp_async_mbarrier_arrive_noinc": PtxFn("cp.async.mbarrier.arrive.noinc.b64 [$0];", ("shared",),
                                            unsafe=True, memory=True),
    "cp_async_mbarrier_arrive_noinc_shared": PtxFn("cp.async.mbarrier.arrive.noinc.shared.b64 [$0];", ("shared",),
                                                   unsafe=True, memory=True),
    # Debugging and timing.
    "breakpoint": PtxFn("brkpt;", ()),
    "nanosleep": PtxFn("nanosleep.u32 $0;", ("u32",)),
    "cvta_generic_to_shared_offset": PtxFn("cvta.to.shared.u64 $0, $1;", ("generic",), ("u64",), unsafe=True),
}
# Packed half arithmetic on u32 words (f16x2 from sm_53, bf16x2 from sm_90).
for _kind in ("f16x2", "bf16x2"):
    _rn = ".rn" if _kind == "bf16x2" else ""
    PTX_FNS.update({
        f"add_{_kind}": _binary(f"add{_rn}", _kind), f"sub_{_kind}": _binary(f"sub{_rn}", _kind),
        f"mul_{_kind}": _binary(f"mul{_rn}", _kind), f"min_{_kind}": _binary("min", _kind),
        f"max_{_kind}": _binary("max", _kind), f"neg_{_kind}": _unary("neg", _kind),
        f"abs_{_kind}": _unary("abs", _kind), f"fma_{_kind}": _fma("", _kind),
        f"fma_relu_{_kind}": _fma(".relu", _kind),
    })
PTX_FNS.update({"fma_sat_f16x2": _fma(".sat", "f16x2"), "fma_ftz_f16x2": _fma(".ftz", "f16x2"),
                "fma_ftz_sat_f16x2": _fma(".ftz.sat", "f16x2"), "fma_ftz_relu_f16x2": _fma(".ftz.relu", "f16x2")})
_CONSTRAINT.update(generic="l", i32="r")


def _operand(em: Emitter, kind: str, a: ast.Expr, name: str) -> ir.Value:
    if kind in ("shared", "global", "generic"):
        # The element type does not matter to the instruction; a hint lets `p.cast()` resolve.
        value = em.expr(a, T.Ptr(T.PRIMITIVES["u8"], False, _SPACES.get(kind, 0)))
        if isinstance(value.ty, T.Shared):
            value = shared_as_pointer(value)
        if not isinstance(value.ty, T.Ptr):
            raise err(a.loc, f"`{name}` takes a raw pointer here, not `{value.ty}`")
        if kind == "generic":
            return simt.PtrToIntOp.build(value.v)  # the generic address, whatever space the pointer is in
        if value.ty.space != _SPACES[kind]:
            where = {0: "generic", 1: "global", 3: "shared"}.get(value.ty.space, str(value.ty.space))
            raise err(a.loc, f"`{name}` takes a pointer into {kind} memory; this one is a {where} pointer")
        return value.v
    ty = T.PRIMITIVES[kind]
    return em.coerce(em.expr(a, ty), ty, a.loc).v


def _result(kind: str) -> tuple[T.Ty, ir.Type]:
    if kind == "bool":  # returned as a 0/1 u32 register (PTX has no predicate outputs)
        return T.BOOL, ir.IntegerType.get_signless(32)
    ty = T.PRIMITIVES[kind]
    return ty, ty.mlir()


@device_fn(*PTX_FNS)
def _ptx_fn(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
            loc: Any) -> Val:
    name = segs[-1]
    fn = PTX_FNS[name]
    if len(args) != len(fn.params):
        raise err(loc, f"`{name}` takes {len(fn.params)} argument(s) but {len(args)} were supplied")
    if fn.unsafe:
        em.require_unsafe(loc, f"`{name}`")
    operands = [_operand(em, kind, a, name) for kind, a in zip(fn.params, args)]
    results = [_result(r) for r in fn.results]
    constraints = ",".join([f"={_CONSTRAINT.get(r, 'r')}" for r in fn.results] +
                           [_CONSTRAINT[p] for p in fn.params] + (["~{memory}"] if fn.memory else []))
    values = build_inline_ptx(operands, fn.asm, constraints, [t for _, t in results])
    vals = []
    for (ty, _), v in zip(results, values):
        if isinstance(ty, T.Bool):
            v = arith.trunci(ir.IntegerType.get_signless(1), v)
        vals.append(Val(ty, v))
    if not vals:
        return Val(T.UNIT, None)
    return vals[0] if len(vals) == 1 else Val(T.Tuple(tuple(v.ty for v in vals)), vals)


@device_fn("prof_trigger")
def _prof_trigger(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    if args or len(generics) != 1:
        raise err(loc, "`debug::prof_trigger` takes its counter as a const generic: `prof_trigger::<N>()`")
    counter = em.const_arg(generics[0])
    if not 0 <= counter <= 15:
        raise err(loc, f"`prof_trigger::<{counter}>`: the performance-monitor event is 0..=15")
    build_inline_ptx([], f"pmevent {counter};", "", [])
    return Val(T.UNIT, None)


@device_fn("cp_async_wait_group")
def _wait_group(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    em.require_unsafe(loc, "`cp_async_wait_group`")
    if len(generics) == 1 and not args:
        count = em.const_arg(generics[0])
    elif len(args) == 1 and not generics:
        count = em.const_arg(args[0])
    else:
        raise err(loc, "`cp_async_wait_group` takes the number of groups left pending, a constant")
    build_inline_ptx([], f"cp.async.wait_group {count};", "~{memory}", [])
    return Val(T.UNIT, None)


# bf16 -> f32 is exact: the bf16 bits are the top half of the f32's, so unpacking is shifting and masking.
_BF16_UNPACK = {"cvt_f32x2_bf16x2": ("lo", "hi"), "cvt_f32_bf16x2_lo": ("lo",), "cvt_f32_bf16x2_hi": ("hi",)}


@device_fn(*_BF16_UNPACK)
def _bf16_unpack(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    name = segs[-1]
    if name == "cvt_f32x2_bf16x2" and len(args) == 2:
        # tcgen05's `cvt_f32x2_bf16x2(lo, hi)` packs instead: two f32 into one bf16x2 word.
        fn = _pack("rn", "bf16x2")
        operands = [_operand(em, "f32", a, name) for a in args]
        (word,) = build_inline_ptx(operands, fn.asm, "=r,f,f", [ir.IntegerType.get_signless(32)])
        return Val(T.PRIMITIVES["u32"], word)
    if len(args) != 1:
        raise err(loc, f"`{name}` takes 1 argument but {len(args)} were supplied")
    word = _operand(em, "u32", args[0], name)

    def half(which: str) -> Val:
        i32 = ir.IntegerType.get_signless(32)
        bits = arith.shli(word, arith.constant(i32, 16)) if which == "lo" else \
            arith.andi(word, arith.constant(i32, -65536))
        return Val(T.F32, arith.bitcast(T.F32.mlir(), bits))

    halves = [half(w) for w in _BF16_UNPACK[name]]
    return halves[0] if len(halves) == 1 else Val(T.Tuple((T.F32, T.F32)), halves)


def _array_of(em: Emitter, elem: T.Ty, values: list[ir.Value]) -> Val:
    """A local `[elem; len(values)]` holding `values`."""
    ty = T.Array(elem, len(values))
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(ty)
    for k, v in enumerate(values):
        memref.store(v, cell.leaves, [arith.constant(ir.IndexType.get(), k)])
    return load_cell(cell)


_LDMATRIX = {f"{prefix}x{n}{trans}{suffix}": (n, bool(trans))
             for prefix, suffix in (("ldmatrix_", ""), ("ldmatrix_m8n8_", "_b16"))
             for n in (1, 2, 4) for trans in ("", "_trans")}


@device_fn(*_LDMATRIX)
def _ldmatrix(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    """`ldmatrix_x4(p)` & co (warp-wide, sm_75): n 8x8 b16 matrices from shared memory, each lane giving one
    row address; the lane's fragments come back as a u32 (n = 1) or a `[u32; n]`."""
    name = segs[-1]
    n, trans = _LDMATRIX[name]
    if len(args) != 1:
        raise err(loc, f"`{name}` takes 1 argument but {len(args)} were supplied")
    em.require_unsafe(loc, f"`{name}`")
    address = _operand(em, "shared", args[0], name)
    registers = ", ".join(f"${i}" for i in range(n))
    asm = f"ldmatrix.sync.aligned.m8n8.x{n}{'.trans' if trans else ''}.shared.b16 {{{registers}}}, [${n}];"
    i32 = ir.IntegerType.get_signless(32)
    values = build_inline_ptx([address], asm, ",".join(["=r"] * n + ["l", "~{memory}"]), [i32] * n)
    u32 = T.PRIMITIVES["u32"]
    return Val(u32, values[0]) if n == 1 else _array_of(em, u32, list(values))


