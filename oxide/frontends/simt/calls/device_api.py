"""cuda_device's API and Rust's primitive methods, mapped onto simt and upstream ops; calls of the
user's own functions and methods go to the emitter's inline.py."""

from __future__ import annotations

import math as pymath
from typing import Any

from mlir import ir
from mlir.dialects import arith, math as mmath, memref, scf

from oxide.dialects import simt
from oxide.dialects.simt.printf import rust_format_to_c
from oxide.frontends.simt import safety
from oxide.frontends.simt.calls import registry
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.expressions.numeric import cast_int
from oxide.frontends.simt.expressions.placeholders import none_of, placeholder
from oxide.frontends.simt.emit_support import i1, int_attr
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.inline import inline_call, typed_args
from oxide.frontends.simt.values import OptionVal, Val, load_cell, new_cell, store_cell



def I32() -> ir.Type:
    """i32 in the current context (types are per context: never cache one at import time)."""
    return ir.IntegerType.get_signless(32)


def I64() -> ir.Type:
    """i64 in the current context."""
    return ir.IntegerType.get_signless(64)


def _attr_i64(value: int) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def _u32(v: ir.Value) -> Val:
    return Val(T.PRIMITIVES["u32"], v)


def _usize(v: ir.Value) -> Val:
    """An index-typed value as usize."""
    return Val(T.USIZE, arith.index_cast(I64(), v) if str(v.type) == "index" else v)


def _const(ty: T.Ty, value: float | int) -> ir.Value:
    if isinstance(ty, T.Float):
        return arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), float(value)))
    return arith.constant(ty.mlir(), int_attr(ty.mlir(), int(value)))


# Paths as values ------------------------------------------------------------------------------------------
# By width: f16, f32, f64.
_FLOAT_CONSTS = {"MAX": {16: 65504.0, 32: 3.4028234663852886e38, 64: 1.7976931348623157e308},
                 "MIN": {16: -65504.0, 32: -3.4028234663852886e38, 64: -1.7976931348623157e308},
                 "MIN_POSITIVE": {16: 6.103515625e-05, 32: 1.1754943508222875e-38, 64: 2.2250738585072014e-308},
                 "EPSILON": {16: 0.0009765625, 32: 1.1920929e-07, 64: 2.220446049250313e-16},
                 "INFINITY": dict.fromkeys((16, 32, 64), pymath.inf),
                 "NEG_INFINITY": dict.fromkeys((16, 32, 64), -pymath.inf),
                 "NAN": dict.fromkeys((16, 32, 64), pymath.nan)}
_MATH_CONSTS = {"PI": pymath.pi, "E": pymath.e, "TAU": pymath.tau, "SQRT_2": pymath.sqrt(2), "LN_2": pymath.log(2),
                "LN_10": pymath.log(10), "FRAC_PI_2": pymath.pi / 2, "FRAC_PI_4": pymath.pi / 4,
                "FRAC_1_SQRT_2": 1 / pymath.sqrt(2), "LOG2_E": pymath.log2(pymath.e), "LOG10_E": pymath.log10(pymath.e)}


def path_value(em: Any, e: ast.PathExpr, expected: T.Ty | None) -> Val | None:
    segs = e.segments
    if len(segs) >= 2 and segs[-2] in T.PRIMITIVES:
        ty = T.PRIMITIVES[segs[-2]]
        if isinstance(ty, T.Float) and segs[-1] in _FLOAT_CONSTS:
            return Val(ty, _const(ty, _FLOAT_CONSTS[segs[-1]][ty.bits]))
        if isinstance(ty, T.Int) and segs[-1] in ("MAX", "MIN", "BITS"):
            value = {"MAX": (1 << (ty.bits - 1)) - 1 if ty.signed else -1, "MIN": -(1 << (ty.bits - 1)) if ty.signed else 0,
                     "BITS": ty.bits}[segs[-1]]
            return Val(ty if segs[-1] != "BITS" else T.PRIMITIVES["u32"], _const(ty if segs[-1] != "BITS" else T.PRIMITIVES["u32"], value))
    if len(segs) >= 2 and segs[-2] == "consts" and segs[-1] in _MATH_CONSTS:
        ty = T.PRIMITIVES[segs[-3]] if len(segs) >= 3 and segs[-3] in ("f32", "f64") else \
            expected if isinstance(expected, T.Float) else T.F32
        return Val(ty, _const(ty, _MATH_CONSTS[segs[-1]]))
    if len(segs) >= 2 and segs[-2] == "Ordering" and em.crate.enum("Ordering") is None \
            and segs[-1] in dict(T.ORDERING.variants):
        return Val(T.ORDERING, _const(T.ORDERING.storage, dict(T.ORDERING.variants)[segs[-1]]))  # core::cmp
    if len(segs) == 2 and segs[0] == "AtomicOrdering" or (len(segs) >= 2 and segs[-2] == "Ordering"):
        return Val(T.UNIT, ("ordering", segs[-1]))
    if len(segs) >= 2:
        enum = em.crate.enum(segs[-2])
        if enum is not None:
            ty = em.enum_type(enum)
            if isinstance(ty, T.DataEnum):
                from oxide.frontends.simt.calls.core_calls import data_variant

                return data_variant(em, ty, segs[-1], [], e.loc)
            for name, value in ty.variants:
                if name == segs[-1]:
                    return Val(ty, _const(ty.storage, value))
            raise err(e.loc, f"no variant `{segs[-1]}` in enum `{segs[-2]}`")
        if segs[-2] == "Option" and segs[-1] == "None" and isinstance(expected, T.OptionTy):
            return none_of(expected)
    return None


# Calls of paths -------------------------------------------------------------------------------------------
_DIM_CALLS = {"threadIdx": simt.ThreadIdOp, "blockIdx": simt.BlockIdOp, "blockDim": simt.BlockDimOp,
              "gridDim": simt.GridDimOp, "thread_idx": simt.ThreadIdOp, "block_idx": simt.BlockIdOp,
              "block_dim": simt.BlockDimOp, "grid_dim": simt.GridDimOp}
_REGISTERS = {"lane_id": "laneid", "warp_id": "warpid", "nwarpid": "nwarpid", "smid": "smid", "nsmid": "nsmid",
              "lanemask_lt": "lanemask_lt", "lanemask_le": "lanemask_le", "lanemask_eq": "lanemask_eq",
              "lanemask_gt": "lanemask_gt", "lanemask_ge": "lanemask_ge", "clock": "clock", "clock64": "clock64",
              "globaltimer": "globaltimer", "dynamic_smem_size": "dynamic_smem_size",
              "total_smem_size": "total_smem_size", "gridid": "gridid"}
_FENCES = {"threadfence": "device", "threadfence_block": "block", "threadfence_system": "system"}


def strip_modules(em: Any, segments: list[str]) -> list[str]:
    """`crate::m::f`, `super::X`, `self::g` -> the item's own name: every item of the file shares one
    namespace here, so the module path only has to name modules of this file."""
    prefix = segments[:-1]
    if prefix and all(s in em.crate.modules or s in ("crate", "self", "super") for s in prefix):
        return segments[-1:]
    return segments


def call_path(em: Any, func: ast.PathExpr, args: list[ast.Expr], expected: T.Ty | None, loc: Any) -> Val:
    segs = strip_modules(em, func.segments)
    name = segs[-1]
    qualifier = segs[-2] if len(segs) >= 2 else None
    if len(segs) == 1:
        bound = em.lookup(name)
        if isinstance(bound, Val) and isinstance(bound.ty, T.Closure):
            return em.call_closure(bound, args, loc)
        if isinstance(bound, Val) and isinstance(bound.ty, T.FnItem):
            return call_path(em, ast.PathExpr(func.loc, list(bound.ty.path), list(bound.v or [])), args, expected, loc)
    if len(segs) == 1 and name == "Some":
        if len(args) != 1:
            raise err(loc, "`Some` takes one value")
        inner_hint = expected.inner if isinstance(expected, T.OptionTy) else None
        value = em.expr(args[0], inner_hint)
        return Val(T.OptionTy(value.ty), OptionVal(i1(True), value))
    if len(segs) == 1 or qualifier in ("self", "super", "crate", "kernels"):
        fn = em.crate.function(name)
        if fn is not None and not fn.attrs.get("kernel"):
            return inline_call(em, fn, [em.expr(a) for a in args] if not fn.params else typed_args(em, fn, args, func),
                               loc, explicit=func.generics, arg_locs=[a.loc for a in args])
        if fn is not None:
            raise err(loc, f"kernel `{name}` cannot be called from device code")
    struct = em.crate.struct(name) if len(segs) == 1 else None
    if struct is not None and all(f.isdigit() for f, _ in struct.fields):
        # `Pair(x, y)`: a tuple struct's constructor is a struct literal with fields 0, 1, ...
        if len(args) != len(struct.fields):
            raise err(loc, f"`{name}` takes {len(struct.fields)} field(s) but {len(args)} were supplied")
        return em.expr(ast.StructLit(loc, [name], [(str(i), a) for i, a in enumerate(args)]), expected)
    device = _device_call(em, segs, func.generics, args, expected, loc)
    if device is not None:
        return device
    registered = registry.call_path(em, segs, func.generics, args, expected, loc)
    if registered is not None:
        return registered
    if qualifier is not None and em.crate.enum(qualifier) is not None:
        ty = em.enum_type(em.crate.enum(qualifier))
        if isinstance(ty, T.DataEnum):
            from oxide.frontends.simt.calls.core_calls import data_variant

            return data_variant(em, ty, name, args, loc)  # `E::A(x)`
        raise err(loc, f"`{qualifier}::{name}` is not a function (the enum's variants have no fields)")
    if qualifier is not None:
        # `Type::function(args)`: an associated function of a user struct, or `f32::sqrt(x)` style.
        if qualifier in ("f32", "f64") and name == "from_bits" and len(args) == 1:
            float_ty = T.PRIMITIVES[qualifier]
            bits_ty = T.PRIMITIVES[f"u{float_ty.bits}"]
            bits = em.coerce(em.expr(args[0], bits_ty), bits_ty, args[0].loc)
            return Val(float_ty, arith.bitcast(float_ty.mlir(), bits.v))
        if qualifier in T.PRIMITIVES and args:
            receiver = em.expr(args[0], T.PRIMITIVES[qualifier])
            return primitive_method(em, receiver, name, args[1:], loc, expected)
        bound = em.generics[-1].get(qualifier)
        if isinstance(bound, T.Ty) and len(segs) == 2:
            qualifier = getattr(bound, "name", bound.rust()).split("<")[0]  # `T::f(x)` of a generic T
        method = em.crate.method(qualifier, name)
        if method is not None:
            struct = em.crate.struct(qualifier)
            self_ty = em.struct_type(struct, []) if struct is not None and not struct.generics else None
            if method.self_param is not None and args:
                # `Type::method(value, x)` / `<Type as Trait>::method(value, x)`: the first argument is self.
                from oxide.frontends.simt.expressions.patterns import referent

                self_val = em.expr(args[0], self_ty)
                if method.self_param != "&mut self":
                    self_val = referent(em, self_val)
                return inline_call(em, method, typed_args(em, method, args[1:], func), loc, self_val=self_val,
                                   arg_locs=[a.loc for a in args[1:]])
            return inline_call(em, method, typed_args(em, method, args, func), loc, self_ty=self_ty,
                               arg_locs=[a.loc for a in args])
    if name in ("vec", "Vec", "Box", "String") or qualifier in ("Vec", "Box", "String"):
        raise err(loc, "heap allocation is not supported in device code")
    if segs[0] == "std":
        raise err(loc, "`std` is not available in device code; use `core` or the cuda_device API")
    raise err(loc, f"cannot find function `{'::'.join(segs)}` in this scope")


def _disjoint_from_raw_parts(em: Any, p: Val, length: ir.Value, space_arg: ast.Expr | None, expected: T.Ty | None,
                             loc: Any) -> Val:
    """`DisjointSlice::from_raw_parts(p, len)` and `from_raw_parts_with_space(p, len, space)`: the index space is
    the expected type's (`let s: DisjointSlice<T, Index2D<16>> = ...`, a parameter's), else what the space value
    says: `()` for a 1-D slice, a `u32` row width for a runtime 2-D one."""
    space_value = em.expr(space_arg, T.PRIMITIVES["u32"]) if space_arg is not None else None
    if isinstance(expected, T.Disjoint):
        space = expected.space
    elif space_value is not None and not isinstance(space_value.ty, T.Unit):
        space = "runtime_2d"
    else:
        space = "1d"
    if space == "runtime_2d":
        if space_value is None or isinstance(space_value.ty, T.Unit):
            raise err(loc, "a runtime 2-D DisjointSlice needs its row width: "
                           "`DisjointSlice::from_raw_parts_with_space(ptr, len, row_width)`")
        width = em.coerce(space_value, T.PRIMITIVES["u32"], space_arg.loc)
        flat = simt.SliceFromPtrOp.build(p.v, length, results=[T.Disjoint(p.ty.elem, "1d").mlir()])
        result_ty = T.Disjoint(p.ty.elem, space)
        return Val(result_ty, simt.WithRowWidthOp.build(flat, width.v, results=[result_ty.mlir()]))
    if space_value is not None and not isinstance(space_value.ty, T.Unit):
        raise err(space_arg.loc, f"a `DisjointSlice<_, {T.space_rust(space)}>` has no runtime layout: its space value "
                                 f"is `()`, not `{space_value.ty}`")
    result_ty = T.Disjoint(p.ty.elem, space)
    return Val(result_ty, simt.SliceFromPtrOp.build(p.v, length, results=[result_ty.mlir()]))


def _device_call(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val | None:
    name = segs[-1]
    base, _, axis = name.rpartition("_")
    if base in _DIM_CALLS and axis in ("x", "y", "z") and not args:
        return _u32(_DIM_CALLS[base].build(dim=simt.DimAttr.get(axis)))
    if len(segs) >= 2 and segs[-2] == "uniform" and base in ("block_dim", "grid_dim") and axis in ("x", "y", "z"):
        op = simt.BlockDimOp if base == "block_dim" else simt.GridDimOp
        return _u32(op.build(dim=simt.DimAttr.get(axis)))
    if name == "new_unchecked" and len(segs) >= 2 and segs[-2] == "Uniform" and len(args) == 1:
        em.require_unsafe(loc, "`Uniform::new_unchecked`")
        return em.expr(args[0], expected)
    if name in _REGISTERS and not args:
        reg = _REGISTERS[name]
        result = simt.SpecialRegOp.build(reg=reg, results=[ir.Type.parse(simt.indexing.SPECIAL_REGISTERS[reg])])
        return Val(T.PRIMITIVES["u64" if str(result.type) == "i64" else "u32"], result)
    safety.check_index_call(em, name, loc)
    if name == "index_1d" and not args:
        return Val(T.ThreadIndex("1d"), simt.Index1DOp.build())
    if name in ("index_1d_u32",) :
        return Val(T.ThreadIndex("1d"), simt.Index1DU32Op.build())
    if name == "coord_2d_u32":
        # This thread's (row, col) as a ThreadCoord2D32: a runtime 2-D witness in the IR (valid when the launch
        # is 2-D), which only the RowMajorTiles views take. As in cuda-oxide, only under a 2-D u32 contract.
        contract = em.kernel.attrs.get("launch_contract") or {}
        if contract.get("domain") != 2 or contract.get("coordinates") != "u32":
            raise err(loc, "`thread::coord_2d_u32` needs the kernel's launch contract to state domain = 2 and "
                           "coordinates = u32: `#[launch_contract(domain = 2, coordinates = u32)]`")
        return Val(T.ThreadIndex("coord2d"), simt.Index2DRuntimeOp.build())
    if name == "index_2d":
        if len(generics) != 1:
            raise err(loc, "`thread::index_2d` needs the row stride: `thread::index_2d::<S>()`")
        space = f"2d:{em.const_arg(generics[0])}"
        witness = simt.Index2DOp.build(results=[T.ThreadIndex(space).mlir()])
        return Val(T.OptionTy(T.ThreadIndex(space)), OptionVal(simt.IndexValidOp.build(witness), Val(T.ThreadIndex(space), witness)))
    if name == "index_2d_runtime":
        for a in args:
            em.expr(a)  # the slice it will address; its width is bound when get_mut resolves the witness
        witness = simt.Index2DRuntimeOp.build()
        ty = T.ThreadIndex("runtime_2d")
        return Val(T.OptionTy(ty), OptionVal(simt.IndexValidOp.build(witness), Val(ty, witness)))
    if name == "warp_index" and not args:
        witness = simt.WarpIndexOp.build()
        ty = T.ThreadIndex("warp")
        return Val(T.OptionTy(ty), OptionVal(simt.IndexValidOp.build(witness), Val(ty, witness)))
    if name in ("index_2d_row", "index_2d_col"):
        axis = "y" if name.endswith("row") else "x"
        block = arith.extui(I64(), simt.BlockIdOp.build(dim=simt.DimAttr.get(axis)))
        dim = arith.extui(I64(), simt.BlockDimOp.build(dim=simt.DimAttr.get(axis)))
        tid = arith.extui(I64(), simt.ThreadIdOp.build(dim=simt.DimAttr.get(axis)))
        return Val(T.USIZE, arith.addi(arith.muli(block, dim), tid))
    if name in ("sync_threads", "__syncthreads", "syncthreads", "barrier") and not args:
        simt.SyncThreadsOp.build()
        return Val(T.UNIT, None)
    if name in _FENCES and not args:
        simt.ThreadFenceOp.build(scope=_FENCES[name])
        return Val(T.UNIT, None)
    if name == "sync_mask" and len(args) == 1:
        simt.WarpSyncOp.build(_u32_arg(em, args[0]))
        return Val(T.UNIT, None)
    if name == "trap" and not args:
        simt.TrapOp.build()
        return Val(T.NEVER, None)
    if name in ("read_volatile", "write_volatile", "read", "write") and len(segs) >= 2 and segs[-2] == "ptr":
        em.require_unsafe(loc, f"`ptr::{name}`")
        p = em.expr(args[0])
        if not isinstance(p.ty, T.Ptr):
            raise err(args[0].loc, f"`ptr::{name}` takes a raw pointer, not `{p.ty}`")
        if name.startswith("read"):
            return Val(p.ty.elem, (simt.VolatileLoadOp if "volatile" in name else simt.PtrLoadOp).build(p.v))
        value = em.coerce(em.expr(args[1], p.ty.elem), p.ty.elem, args[1].loc)
        (simt.VolatileStoreOp if "volatile" in name else simt.PtrStoreOp).build(p.v, value.v)
        return Val(T.UNIT, None)
    if name in ("reduce_sum_f32", "reduce_max_f32", "reduce_min_f32", "reduce_sum_f64", "reduce_max_f64",
                "reduce_min_f64") and len(args) == 1:
        return _warp_reduce(em, name, args[0], loc)
    if name == "warpid" and not args:
        return _u32(simt.SpecialRegOp.build(reg="warpid", results=[ir.IntegerType.get_signless(32)]))
    if name == "is_elected_sync" and len(args) == 1:
        _, elected = simt.ElectOp.build(_u32_arg(em, args[0]))
        return Val(T.BOOL, elected)
    warp = _warp_call(em, name, args, loc)
    if warp is not None:
        return warp
    if (name in ("from_raw_parts", "from_raw_parts_mut") and len(segs) >= 2 and segs[-2] in ("slice", "DisjointSlice")
            and len(args) == 2) or (name == "from_raw_parts_with_space" and segs[-2:] == ["DisjointSlice", name]
                                    and len(args) == 3):
        em.require_unsafe(loc, f"`{segs[-2]}::{name}`")
        p = em.expr(args[0])
        if not isinstance(p.ty, T.Ptr):
            raise err(args[0].loc, f"`{name}` takes a raw pointer, not `{p.ty}`")
        length = index_value(em, args[1])
        if p.ty.space != 1:
            if segs[-2] == "DisjointSlice":
                raise err(args[0].loc, "a DisjointSlice is built from a pointer into global memory; this one points "
                                       f"into {'shared' if p.ty.space == 3 else 'generic'} memory")
            from oxide.frontends.simt.ptr_slices import from_pointer

            return from_pointer(p, length, name.endswith("_mut"))  # shared or generic memory
        if segs[-2] == "DisjointSlice":
            return _disjoint_from_raw_parts(em, p, length, args[2] if len(args) == 3 else None, expected, loc)
        result_ty = T.Slice(p.ty.elem, name.endswith("_mut"))
        return Val(result_ty, simt.SliceFromPtrOp.build(p.v, length, results=[result_ty.mlir()]))
    if name in ("copy_nonoverlapping", "copy") and len(segs) >= 2 and segs[-2] == "ptr" and len(args) == 3:
        em.require_unsafe(loc, f"`ptr::{name}`")
        src, dst = em.expr(args[0]), em.expr(args[1])
        if not (isinstance(src.ty, T.Ptr) and isinstance(dst.ty, T.Ptr) and src.ty.elem == dst.ty.elem):
            raise err(loc, f"`ptr::{name}` takes two raw pointers to one element type")
        count = index_value(em, args[2])
        # Element by element; `copy` (memmove) of ranges that may overlap walks down from the end when the
        # destination lies above the source, so every element is read before it is overwritten.
        backward = None
        if name == "copy":
            backward = arith.cmpi(arith.CmpIPredicate.ugt, simt.PtrToIntOp.build(dst.v), simt.PtrToIntOp.build(src.v))
        loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), count, arith.constant(ir.IndexType.get(), 1))
        with ir.InsertionPoint(loop.body):
            i = loop.induction_variable
            if backward is not None:
                last = arith.subi(count, arith.constant(ir.IndexType.get(), 1))
                i = arith.select(backward, arith.subi(last, i), i)
            value = simt.PtrLoadOp.build(simt.PtrOffsetOp.build(src.v, i))
            simt.PtrStoreOp.build(simt.PtrOffsetOp.build(dst.v, i), value)
            scf.YieldOp([])
        return Val(T.UNIT, None)
    if name == "swap" and len(segs) >= 2 and segs[-2] == "mem" and len(args) == 2:
        from oxide.frontends.simt.values import Cell

        cells = []
        for a in args:
            target = a.operand if isinstance(a, ast.Unary) and a.op == "&mut" else None
            cell = em.lookup(target.segments[0]) if isinstance(target, ast.PathExpr) and len(target.segments) == 1 else None
            if not isinstance(cell, Cell):
                raise err(a.loc, "`mem::swap` takes `&mut` of two `let mut` locals here")
            cells.append(cell)
        if cells[0].ty != cells[1].ty:
            raise err(loc, f"`mem::swap` of `{cells[0].ty}` and `{cells[1].ty}`")
        first, second = load_cell(cells[0]), load_cell(cells[1])
        first, second = em.owned(first), em.owned(second)
        store_cell(cells[0], second)
        store_cell(cells[1], first)
        return Val(T.UNIT, None)
    if name == "from_ptr" and len(segs) >= 2 and segs[-2] in T.ATOMICS and len(args) == 1:
        em.require_unsafe(loc, f"`{segs[-2]}::from_ptr`")
        scope, value_ty = T.ATOMICS[segs[-2]]
        p = em.expr(args[0])
        if not (isinstance(p.ty, T.Ptr) and p.ty.elem == value_ty):
            raise err(args[0].loc, f"`{segs[-2]}::from_ptr` takes a `*mut {value_ty}`, not `{p.ty}`")
        return Val(T.Atomic(value_ty, scope), p.v)
    if name in ("get", "get_raw", "offset") and len(segs) >= 2 and segs[-2] == "DynamicSharedArray":
        if name == "get_raw":
            generics = [ast.PathTy(loc, "u8")] + list(generics[1:])
        elem = em.resolve_type(generics[0]) if generics else T.F32
        align = em.align_arg(generics[1], "`DynamicSharedArray`") if len(generics) > 1 else 16
        ptr_ty = T.Ptr(elem, True, 3)
        offset = index_value(em, args[0]) if name == "offset" and args else arith.constant(ir.IndexType.get(), 0)
        return Val(ptr_ty, simt.DynamicSharedOp.build(offset, align=_attr_i64(align), results=[ptr_ty.mlir()]))
    return None


def _u32_arg(em: Any, a: ast.Expr) -> ir.Value:
    return em.coerce(em.expr(a, T.PRIMITIVES["u32"]), T.PRIMITIVES["u32"], a.loc).v


_SHUFFLES = {"shuffle": "idx", "shuffle_xor": "xor", "shuffle_down": "down", "shuffle_up": "up",
             "shfl": "idx", "shfl_xor": "xor", "shfl_down": "down", "shfl_up": "up"}
_SHUFFLE_TYPES = {"": "u32", "_f32": "f32", "_u64": "u64", "_f64": "f64", "_i32": "i32", "_i64": "i64"}
_REDUX = {"add": "add", "min_i32": "min", "max_i32": "max", "min_u32": "umin", "max_u32": "umax", "min": "umin",
          "max": "umax", "and": "and", "or": "or", "xor": "xor"}


def _warp_call(em: Any, name: str, args: list[ast.Expr], loc: Any) -> Val | None:
    full_mask = arith.constant(I32(), ir.IntegerAttr.get(I32(), -1))
    sync = name.endswith("_sync")
    base = name[: -len("_sync")] if sync else name
    for prefix, kind in _SHUFFLES.items():
        for suffix, type_name in _SHUFFLE_TYPES.items():
            if base == prefix + suffix:
                want = 3 if sync else 2
                if len(args) != want:
                    raise err(loc, f"`{name}` takes {want} arguments")
                mask = _u32_arg(em, args[0]) if sync else full_mask
                value_ty = T.PRIMITIVES[type_name]
                value = em.coerce(em.expr(args[-2], value_ty), value_ty, args[-2].loc)
                offset = _u32_arg(em, args[-1])
                result = simt.ShuffleOp.build(mask, value.v, offset, kind=kind, width=_width_attr())
                return Val(value_ty, result)
    if base in ("all", "any", "ballot"):
        want = 2 if sync else 1
        if len(args) != want:
            raise err(loc, f"`{name}` takes {want} argument(s)")
        mask = _u32_arg(em, args[0]) if sync else full_mask
        pred = em.coerce(em.expr(args[-1], T.BOOL), T.BOOL, args[-1].loc).v
        if base == "ballot":
            return _u32(simt.BallotOp.build(mask, pred))
        return Val(T.BOOL, simt.VoteOp.build(mask, pred, kind=base))
    if base in ("match_any", "match_all", "match_any_i64", "match_all_i64") and sync:
        mask = _u32_arg(em, args[0])
        wide = base.endswith("_i64")
        ty = T.PRIMITIVES["u64" if wide else "u32"]
        value = em.coerce(em.expr(args[1], ty), ty, args[1].loc).v
        if base.startswith("match_any"):
            return _u32(simt.MatchAnyOp.build(mask, value))
        lanes, _ = simt.MatchAllOp.build(mask, value)
        return _u32(lanes)  # cuda-oxide's match_all_sync returns the mask (0 when the values differ)
    if name == "active_mask" and not args:
        return _u32(simt.ActiveMaskOp.build())
    if name.startswith("redux_sync_"):
        kind = _REDUX.get(name[len("redux_sync_"):])
        if kind is None or len(args) != 2:
            raise err(loc, f"unknown warp reduction `{name}`")
        signed = name.endswith("_i32")
        ty = T.PRIMITIVES["i32" if signed else "u32"]
        value = em.coerce(em.expr(args[1], ty), ty, args[1].loc).v
        return Val(ty, simt.ReduxOp.build(_u32_arg(em, args[0]), value, kind=kind))
    if name == "elect_sync" and len(args) == 1:
        leader, elected = simt.ElectOp.build(_u32_arg(em, args[0]))
        return Val(T.Tuple((T.PRIMITIVES["u32"], T.BOOL)), [_u32(leader), Val(T.BOOL, elected)])
    return None


def _warp_reduce(em: Any, name: str, arg: ast.Expr, loc: Any) -> Val:
    """`warp::reduce_sum_f32(v)` & co: a butterfly of five xor shuffles over the full warp."""
    ty = T.PRIMITIVES[name[-3:]]
    value = em.coerce(em.expr(arg, ty), ty, arg.loc).v
    full = arith.constant(I32(), ir.IntegerAttr.get(I32(), -1))
    combine = {"sum": arith.addf, "max": arith.maxnumf, "min": arith.minnumf}[name.split("_")[1]]
    for offset in (16, 8, 4, 2, 1):
        lane = arith.constant(I32(), ir.IntegerAttr.get(I32(), offset))
        value = combine(value, simt.ShuffleOp.build(full, value, lane, kind="xor", width=_width_attr()))
    return Val(ty, value)


def _width_attr() -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 32)


# Methods ---------------------------------------------------------------------------------------------------
def call_method(em: Any, e: ast.MethodCall, expected: T.Ty | None = None) -> Val:
    from oxide.frontends.simt.calls.language_methods import method_before_receiver, method_on_value

    early = method_before_receiver(em, e, expected)
    if early is not None:
        return early
    with safety.borrowing(em):
        recv = em.expr(e.receiver)
    atomic = _atomic_method(em, recv, e)
    if atomic is not None:
        return atomic
    handled, recv = method_on_value(em, recv, e)
    if handled is not None:
        return handled
    ty = recv.ty
    name = e.name
    if isinstance(ty, T.ThreadIndex):
        safety.witness_method(ty, name, e.loc)
        if name == "get" and not e.args:
            return _usize(simt.IndexValueOp.build(recv.v))
        if name == "is_valid":
            return Val(T.BOOL, simt.IndexValidOp.build(recv.v))
        if name in ("row", "col") and ty.space in ("runtime_2d", "coord2d"):
            op = simt.IndexRowOp if name == "row" else simt.IndexColOp
            if ty.space == "coord2d":  # 32-bit coordinates (the contract's `coordinates = u32`)
                return _u32(arith.index_cast(ir.IntegerType.get_signless(32), op.build(recv.v)))
            return _usize(op.build(recv.v))
        if name == "in_bounds" and len(e.args) == 1:
            length = em.coerce(em.expr(e.args[0], T.USIZE), T.USIZE, e.args[0].loc)
            value = arith.index_cast(I64(), simt.IndexValueOp.build(recv.v))
            inside = arith.cmpi(arith.CmpIPredicate.ult, value, length.v)
            return Val(T.BOOL, arith.andi(inside, simt.IndexValidOp.build(recv.v)))
    if isinstance(ty, (T.Slice, T.Disjoint)) and name in ("len", "is_empty") and not e.args:
        length = _usize(simt.LenOp.build(recv.v))
        if name == "len":
            return length
        return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, length.v, _const(T.USIZE, 0)))
    if isinstance(ty, T.Disjoint):
        if name == "get_mut" and len(e.args) == 1:
            witness = em.expr(e.args[0])
            if not isinstance(witness.ty, T.ThreadIndex):
                raise err(e.args[0].loc, f"`get_mut` takes a thread index (a witness), not `{witness.ty}`; "
                                         "raw indices need `unsafe { get_unchecked_mut(i) }`")
            if witness.ty.space != ty.space:
                raise err(e.args[0].loc, f"mismatched index spaces: this DisjointSlice is indexed by "
                                         f"`{T.space_rust(ty.space)}`, the witness is `{T.space_rust(witness.ty.space)}`")
            ok, ref = simt.GetMutOp.build(recv.v, witness.v)
            return Val(T.OptionTy(T.ElemRef(ty.elem)), OptionVal(ok, Val(T.ElemRef(ty.elem), ref)))
        if name == "get_mut_indexed" and not e.args:
            mint = {"1d": lambda: simt.Index1DOp.build(),
                    "runtime_2d": lambda: simt.Index2DRuntimeOp.build()}.get(ty.space)
            if ty.space.startswith("2d:"):
                mint = lambda: simt.Index2DOp.build(results=[T.ThreadIndex(ty.space).mlir()])  # noqa: E731
            if mint is None:
                raise err(e.loc, f"`get_mut_indexed` needs an Index1D or Index2D slice, not `{ty}`")
            witness = mint()
            ok, ref = simt.GetMutOp.build(recv.v, witness)
            pair = T.Tuple((T.ElemRef(ty.elem), T.ThreadIndex(ty.space)))
            return Val(T.OptionTy(pair), OptionVal(ok, Val(pair, [Val(T.ElemRef(ty.elem), ref),
                                                                    Val(T.ThreadIndex(ty.space), witness)])))
        if name == "get_unchecked_mut" and len(e.args) == 1:
            em.require_unsafe(e.loc, "`get_unchecked_mut`")
            i = index_value(em, e.args[0])
            return Val(T.ElemRef(ty.elem), simt.GetUncheckedMutOp.build(recv.v, i, results=[T.ElemRef(ty.elem).mlir()]))
        if name == "as_mut_ptr":
            if isinstance(ty.elem, T.Array):
                raise err(e.loc, "`as_mut_ptr` of a DisjointSlice of arrays is not supported in device code")
            ptr = T.Ptr(ty.elem, True, 1)
            return Val(ptr, simt.SlicePtrOp.build(recv.v, results=[ptr.mlir()]))
    if isinstance(ty, T.Slice):
        if name in ("as_ptr", "as_mut_ptr"):
            ptr = T.Ptr(ty.elem, name == "as_mut_ptr", 1)
            return Val(ptr, simt.SlicePtrOp.build(recv.v, results=[ptr.mlir()]))
        if name == "get" and len(e.args) == 1:
            i = index_value(em, e.args[0])
            length = simt.LenOp.build(recv.v)
            ok = arith.cmpi(arith.CmpIPredicate.ult, i, length)
            safe_i = arith.select(ok, i, arith.constant(ir.IndexType.get(), 0))
            load = scf.IfOp(ok, [ty.elem.mlir()], has_else=True)
            with ir.InsertionPoint(load.then_block):
                scf.YieldOp([simt.LoadUncheckedOp.build(recv.v, safe_i)])
            with ir.InsertionPoint(load.else_block):
                scf.YieldOp([placeholder(ty.elem).v])
            return Val(T.OptionTy(ty.elem), OptionVal(ok, Val(ty.elem, load.results[0])))
        if name == "get_unchecked" and len(e.args) == 1:
            em.require_unsafe(e.loc, "`get_unchecked`")
            return Val(ty.elem, simt.LoadUncheckedOp.build(recv.v, index_value(em, e.args[0])))
    if isinstance(ty, T.Shared):
        if name == "len":
            return Val(T.USIZE, _const(T.USIZE, ty.length))
        if name in ("as_ptr", "as_mut_ptr"):
            em.require_unsafe(e.loc, "a pointer into a `static mut` shared array")
            ptr = T.Ptr(ty.elem, name == "as_mut_ptr", 3)
            return Val(ptr, simt.SharedPtrOp.build(recv.v, results=[ptr.mlir()]))
    if isinstance(ty, T.Ptr):
        if name in ("add", "offset", "wrapping_add", "wrapping_offset", "sub", "wrapping_sub"):
            if not name.startswith("wrapping_"):  # the wrapping forms are safe to call (only a deref is not)
                em.require_unsafe(e.loc, f"`{name}` on a raw pointer")
            if name in ("offset", "wrapping_offset"):
                i = arith.index_cast(ir.IndexType.get(), em.coerce(em.expr(e.args[0], T.ISIZE), T.ISIZE, e.args[0].loc).v)
            else:
                i = index_value(em, e.args[0])
                if name in ("sub", "wrapping_sub"):
                    i = arith.subi(arith.constant(ir.IndexType.get(), 0), i)
            return Val(ty, simt.PtrOffsetOp.build(recv.v, i))
        if name in ("read", "read_volatile"):
            em.require_unsafe(e.loc, f"`{name}` on a raw pointer")
            op = simt.VolatileLoadOp if name == "read_volatile" else simt.PtrLoadOp
            return Val(ty.elem, op.build(recv.v))
        if name in ("write", "write_volatile"):
            em.require_unsafe(e.loc, f"`{name}` on a raw pointer")
            value = em.coerce(em.expr(e.args[0], ty.elem), ty.elem, e.args[0].loc)
            (simt.VolatileStoreOp if name == "write_volatile" else simt.PtrStoreOp).build(recv.v, value.v)
            return Val(T.UNIT, None)
    if isinstance(ty, T.OptionTy):
        return _option_method(em, recv, name, e.args, e.loc)
    if isinstance(ty, T.ResultTy):
        # (is_ok, value) has the Option shape: is_ok/unwrap are is_some/unwrap of it.
        if name == "unwrap_err":
            em.trap_unless(arith.xori(recv.v.is_some, i1(True)))
            return recv.v.payload
        as_option = {"is_ok": "is_some", "is_err": "is_none", "unwrap": "unwrap", "expect": "expect"}.get(name)
        if as_option is not None:
            return _option_method(em, recv, as_option, e.args, e.loc)
    if isinstance(ty, (T.Int, T.Float, T.Bool)):
        return primitive_method(em, recv, name, e.args, e.loc, expected)
    if isinstance(ty, T.Struct):
        base_name = ty.name.split("<")[0]
        method = em.crate.method(base_name, name)
        if method is not None:
            args = typed_args(em, method, e.args, None)
            return inline_call(em, method, args, e.loc, explicit=e.generics, self_val=recv,
                               arg_locs=[a.loc for a in e.args])
    extension = registry.call_method(em, recv, name, e.args, e.loc, expected, e.generics)
    if extension is not None:
        return extension
    if name in ("iter", "iter_mut", "map", "sum", "collect", "enumerate", "zip"):
        raise err(e.loc, f"an iterator method (`.{name}()`) is not supported in device code; loop over an index range")
    raise err(e.loc, f"no method named `{name}` found for `{ty}`")


def _option_method(em: Any, recv: Val, name: str, args: list[ast.Expr], loc: Any) -> Val:
    opt: OptionVal = recv.v
    if name == "is_some":
        return Val(T.BOOL, opt.is_some)
    if name == "is_none":
        return Val(T.BOOL, arith.xori(opt.is_some, i1(True)))
    if name in ("unwrap", "expect"):
        em.trap_unless(opt.is_some)
        return opt.payload
    if name == "unwrap_or_default" and isinstance(opt.payload.ty, (T.Int, T.Float, T.Bool)):
        return Val(opt.payload.ty, arith.select(opt.is_some, opt.payload.v, placeholder(opt.payload.ty).v))
    if name == "copied":
        return recv
    if name == "map_or" and len(args) == 2:
        f = em.expr(args[1])
        if not isinstance(f.ty, T.Closure):
            raise err(args[1].loc, "`map_or` takes a closure as its second argument")
        # The closure runs on the placeholder too when None; its result is then discarded by the select.
        em.bind("__map_or_payload", opt.payload)
        mapped = em.call_closure(f, [ast.PathExpr(loc, ["__map_or_payload"])], loc)
        default = em.coerce(em.expr(args[0], mapped.ty), mapped.ty, args[0].loc)
        if isinstance(mapped.v, ir.Value):
            return Val(default.ty, arith.select(opt.is_some, mapped.v, default.v))
    if name == "map" and len(args) == 1:
        return _option_map(em, recv, args[0], loc)
    if name == "unwrap_or" and len(args) == 1:
        from oxide.frontends.simt.calls import matrix_views

        if isinstance(opt.payload.ty, matrix_views.LineViewTy):
            return matrix_views.unwrap_or(em, recv, args[0], loc)
        other = em.coerce(em.expr(args[0], opt.payload.ty), opt.payload.ty, args[0].loc)
        if isinstance(other.v, ir.Value):
            return Val(other.ty, arith.select(opt.is_some, opt.payload.v, other.v))
    raise err(loc, f"no method named `{name}` found for `{recv.ty}`")


def _option_map(em: Any, recv: Val, f_expr: ast.Expr, loc: Any) -> Val:
    """`opt.map(f)`: f runs only when the option is Some (it may write memory); the result is Some(f(x))."""
    from oxide.frontends.simt.expressions.branch_values import value_if
    from oxide.frontends.simt.expressions.placeholders import placeholder_or_unit

    opt: OptionVal = recv.v
    f = em.expr(f_expr)
    if not isinstance(f.ty, T.Closure):
        raise err(f_expr.loc, "`map` takes a closure")
    em.bind("__map_payload", opt.payload)
    mapped = value_if(em, opt.is_some, lambda: em.call_closure(f, [ast.PathExpr(loc, ["__map_payload"])], loc),
                      lambda hint: placeholder_or_unit(hint), loc)
    return Val(T.OptionTy(mapped.ty), OptionVal(opt.is_some, mapped))


_ORDERINGS = {"Relaxed": "relaxed", "Acquire": "acquire", "Release": "release", "AcqRel": "acq_rel", "SeqCst": "seq_cst"}
_RMW = {"fetch_add": "add", "fetch_sub": "sub", "fetch_and": "and", "fetch_or": "or", "fetch_xor": "xor",
        "fetch_min": "min", "fetch_max": "max", "swap": "xchg"}


def _atomic_method(em: Any, recv: Val, e: ast.MethodCall) -> Val | None:
    """`counters[i].fetch_add(1, AtomicOrdering::Relaxed)`: an atomic cell (held as its address) in place."""
    if not isinstance(recv.ty, T.Atomic):
        return None
    return atomic_on_pointer(em, recv.v, recv.ty.value, recv.ty.scope, e.name, e.args, e.loc)


def _ordering(em: Any, a: ast.Expr) -> str:
    value = em.expr(a)
    if isinstance(value.v, tuple) and value.v[0] == "ordering" and value.v[1] in _ORDERINGS:
        return _ORDERINGS[value.v[1]]
    raise err(a.loc, "expected an ordering: `AtomicOrdering::Relaxed`, `Acquire`, `Release`, `AcqRel` or `SeqCst`")


def atomic_on_pointer(em: Any, ptr: ir.Value, ty: T.Ty, scope: str, name: str, args: list[ast.Expr], loc: Any) -> Val:
    if name == "load":
        return Val(ty, simt.AtomicLoadOp.build(ptr, scope=scope, ordering=_ordering(em, args[0])))
    if name == "store":
        value = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        simt.AtomicStoreOp.build(ptr, value.v, scope=scope, ordering=_ordering(em, args[1]))
        return Val(T.UNIT, None)
    if name in _RMW:
        kind = _RMW[name]
        if isinstance(ty, T.Float) and kind in ("add", "sub"):
            kind = "f" + kind
        if isinstance(ty, T.Int) and not ty.signed and kind in ("min", "max"):
            kind = "u" + kind
        value = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        return Val(ty, simt.AtomicRmwOp.build(ptr, value.v, kind=kind, scope=scope, ordering=_ordering(em, args[1])))
    if name in ("compare_exchange", "compare_exchange_weak"):
        expected = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        desired = em.coerce(em.expr(args[1], ty), ty, args[1].loc)
        old, ok = simt.AtomicCmpxchgOp.build(ptr, expected.v, desired.v, scope=scope,
                                              success_ordering=_ordering(em, args[2]),
                                              failure_ordering=_ordering(em, args[3]))
        # Rust: Ok(previous) when it stored, Err(current) when it did not; both are `old`.
        return Val(T.ResultTy(ty), OptionVal(ok, Val(ty, old)))
    raise err(loc, f"no atomic method named `{name}`")


# Primitive methods ----------------------------------------------------------------------------------------
_FLOAT_UNARY = {"exp": mmath.exp, "exp2": mmath.exp2, "ln": mmath.log, "log2": mmath.log2, "log10": mmath.log10,
                "sin": mmath.sin, "cos": mmath.cos, "tan": mmath.tan, "floor": mmath.floor, "ceil": mmath.ceil,
                "round": mmath.round, "round_ties_even": mmath.roundeven, "abs": mmath.absf, "asin": mmath.asin,
                "acos": mmath.acos, "atan": mmath.atan, "sinh": mmath.sinh, "cosh": mmath.cosh, "tanh": mmath.tanh,
                "asinh": mmath.asinh, "acosh": mmath.acosh, "atanh": mmath.atanh, "cbrt": mmath.cbrt,
                "exp_m1": mmath.expm1, "ln_1p": mmath.log1p}


# How many arguments the scalar methods that take some expect (besides the receiver): a call with another
# count is refused instead of reading past the written arguments or ignoring extra ones.
_METHOD_ARITY = {"powf": 1, "powi": 1, "mul_add": 2, "copysign": 1, "atan2": 1, "min": 1, "max": 1, "minimum": 1,
                 "maximum": 1, "clamp": 2, "is_multiple_of": 1, "overflowing_add": 1, "overflowing_sub": 1,
                 "rotate_left": 1, "rotate_right": 1, "wrapping_add": 1, "wrapping_sub": 1, "wrapping_mul": 1,
                 "pow": 1, "div_ceil": 1, "rem_euclid": 1}


def primitive_method(em: Any, recv: Val, name: str, args: list[ast.Expr], loc: Any, expected: T.Ty | None) -> Val:
    ty = recv.ty
    wanted = _METHOD_ARITY.get(name)
    if wanted is not None and isinstance(ty, (T.Int, T.Float)) and len(args) != wanted:
        raise err(loc, f"`{name}` expects {wanted} argument{'s' if wanted > 1 else ''}, got {len(args)}")

    def arg(i: int, want: T.Ty | None = None) -> Val:
        want = want or ty
        return em.coerce(em.expr(args[i], want), want, args[i].loc)

    if isinstance(ty, T.Float):
        x = recv.v
        if name in _FLOAT_UNARY and not args:
            return Val(ty, _FLOAT_UNARY[name](x))
        if name == "sqrt" and not args:
            if ty.bits == 32:  # math.sqrt on f32 is sqrt.approx (no prec-sqrt flag); Rust's is correctly rounded
                return Val(ty, simt.LibdeviceOp.build([x], fn="sqrt", results=[ty.mlir()]))
            return Val(ty, mmath.sqrt(x))
        if name in ("trunc", "hypot"):
            operands = [x] + ([arg(0).v] if name == "hypot" else [])
            return Val(ty, simt.LibdeviceOp.build(operands, fn=name, results=[ty.mlir()]))
        if name == "fract":
            trunc = simt.LibdeviceOp.build([x], fn="trunc", results=[ty.mlir()])
            return Val(ty, arith.subf(x, trunc))
        if name == "powf":
            return Val(ty, mmath.powf(x, arg(0).v))
        if name == "powi":
            return Val(ty, mmath.fpowi(x, arg(0, T.PRIMITIVES["i32"]).v))
        if name == "mul_add":
            return Val(ty, mmath.fma(x, arg(0).v, arg(1).v))
        if name == "copysign":
            return Val(ty, mmath.copysign(x, arg(0).v))
        if name == "atan2":
            return Val(ty, mmath.atan2(x, arg(0).v))
        if name in ("min", "max"):
            return Val(ty, (arith.minnumf if name == "min" else arith.maxnumf)(x, arg(0).v))
        if name in ("minimum", "maximum"):
            return Val(ty, (arith.minimumf if name == "minimum" else arith.maximumf)(x, arg(0).v))
        if name == "clamp":
            lo, hi = arg(0).v, arg(1).v
            below = arith.cmpf(arith.CmpFPredicate.OLT, x, lo)
            above = arith.cmpf(arith.CmpFPredicate.OGT, x, hi)
            return Val(ty, arith.select(above, hi, arith.select(below, lo, x)))
        if name == "recip":
            return Val(ty, arith.divf(_const(ty, 1.0), x))
        if name == "to_degrees":
            return Val(ty, arith.mulf(x, _const(ty, 57.2957795130823208767981548141051703)))
        if name == "to_radians":
            return Val(ty, arith.mulf(x, _const(ty, pymath.pi / 180.0)))
        if name == "sin_cos":
            return Val(T.Tuple((ty, ty)), [Val(ty, mmath.sin(x)), Val(ty, mmath.cos(x))])
        if name == "signum":
            nan = arith.cmpf(arith.CmpFPredicate.UNO, x, x)
            return Val(ty, arith.select(nan, x, mmath.copysign(_const(ty, 1.0), x)))
        if name == "is_nan":
            return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.UNO, x, x))
        if name == "is_finite":
            return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.OLT, mmath.absf(x), _const(ty, pymath.inf)))
        if name == "is_infinite":
            return Val(T.BOOL, arith.cmpf(arith.CmpFPredicate.OEQ, mmath.absf(x), _const(ty, pymath.inf)))
        if name == "is_sign_negative":
            return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.slt, arith.bitcast(ir.IntegerType.get_signless(ty.bits), x),
                                          _const(T.Int(ty.bits, True), 0)))
        if name == "to_bits":
            out = T.PRIMITIVES[f"u{ty.bits}"]
            return Val(out, arith.bitcast(out.mlir(), x))
    if name == "get" and not args:
        return recv  # `Uniform<T>::get()`: a uniform value is its value here
    if isinstance(ty, T.Int):
        x = recv.v
        if name in ("min", "max"):
            pick = {("min", True): arith.minsi, ("min", False): arith.minui,
                    ("max", True): arith.maxsi, ("max", False): arith.maxui}[(name, ty.signed)]
            return Val(ty, pick(x, arg(0).v))
        if name == "clamp":
            lo, hi = arg(0).v, arg(1).v
            if ty.signed:
                return Val(ty, arith.minsi(arith.maxsi(x, lo), hi))
            return Val(ty, arith.minui(arith.maxui(x, lo), hi))
        if name == "is_multiple_of":
            d = arg(0).v
            zero = _const(ty, 0)
            safe_d = arith.select(arith.cmpi(arith.CmpIPredicate.eq, d, zero), _const(ty, 1), d)
            divisible = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(x, safe_d), zero)
            # Rust: `n.is_multiple_of(0)` is true only for n == 0.
            return Val(T.BOOL, arith.select(arith.cmpi(arith.CmpIPredicate.eq, d, zero),
                                            arith.cmpi(arith.CmpIPredicate.eq, x, zero), divisible))
        if name in ("overflowing_add", "overflowing_sub"):
            other = arg(0).v
            result = (arith.addi if name == "overflowing_add" else arith.subi)(x, other)
            if ty.signed:
                # Overflow iff the operands' signs agree (add) / differ (sub) and the result's sign differs.
                zero = _const(ty, 0)
                sx, so, sr = (arith.cmpi(arith.CmpIPredicate.slt, v, zero) for v in (x, other, result))
                same = arith.xori(arith.xori(sx, so), i1(name == "overflowing_add"))
                overflow = arith.andi(same, arith.xori(sx, sr))
            else:
                pred = arith.CmpIPredicate.ult if name == "overflowing_add" else arith.CmpIPredicate.ugt
                overflow = arith.cmpi(pred, result, x)
            return Val(T.Tuple((ty, T.BOOL)), [Val(ty, result), Val(T.BOOL, overflow)])
        if name in ("rotate_left", "rotate_right"):
            n = cast_int(arg(0, T.PRIMITIVES["u32"]).v, T.PRIMITIVES["u32"], ty)
            mask = _const(ty, ty.bits - 1)
            left = arith.andi(n, mask) if name == "rotate_left" else arith.andi(arith.subi(_const(ty, 0), n), mask)
            right = arith.andi(arith.subi(_const(ty, 0), left), mask)
            return Val(ty, arith.ori(arith.shli(x, left), arith.shrui(x, right)))
        if name in ("wrapping_add", "wrapping_sub", "wrapping_mul"):
            op = {"wrapping_add": arith.addi, "wrapping_sub": arith.subi, "wrapping_mul": arith.muli}[name]
            return Val(ty, op(x, arg(0).v))
        if name == "abs" and ty.signed:
            return Val(ty, mmath.absi(x))
        if name == "pow":
            exponent = arg(0, T.PRIMITIVES["u32"]).v
            return Val(ty, _int_pow(em, x, exponent, ty))
        if name in ("count_ones", "leading_zeros", "trailing_zeros"):
            return Val(T.PRIMITIVES["u32"], cast_int(_bit_count(name, x), T.Int(ty.bits, False), T.PRIMITIVES["u32"]))
        if name == "is_power_of_two":
            ones = cast_int(_bit_count("count_ones", x), T.Int(ty.bits, False), T.PRIMITIVES["u32"])
            return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, ones, _const(T.PRIMITIVES["u32"], 1)))
        if name in ("div_ceil",):
            d = arg(0).v
            em.check_division(recv, Val(ty, d), ty)
            one = _const(ty, 1)
            return Val(ty, arith.divui(arith.subi(arith.addi(x, d), one), d))
        if name in ("rem_euclid",):
            d = arg(0).v
            r = arith.remsi(x, d) if ty.signed else arith.remui(x, d)
            if ty.signed:
                neg = arith.cmpi(arith.CmpIPredicate.slt, r, _const(ty, 0))
                r = arith.select(neg, arith.addi(r, mmath.absi(d)), r)
            return Val(ty, r)
    extension = registry.call_method(em, recv, name, args, loc, expected)
    if extension is not None:
        return extension
    raise err(loc, f"no method named `{name}` found for `{ty}` in device code")


def _bit_count(name: str, x: ir.Value) -> ir.Value:
    """ctpop / ctlz / cttz as LLVM intrinsics (convert-gpu-to-nvvm has no lowering of math.ctpop on MLIR 22);
    a zero input is defined (Rust: leading_zeros(0) is the bit width)."""
    from mlir.dialects import llvm

    if name == "count_ones":
        return llvm.intr_ctpop(x)
    return (llvm.intr_ctlz if name == "leading_zeros" else llvm.intr_cttz)(x, False)


def _int_pow(em: Any, base: ir.Value, exponent: ir.Value, ty: T.Int) -> ir.Value:
    """base^exponent by repeated squaring (wrapping), in an scf.while over the exponent's bits."""
    with ir.InsertionPoint.at_block_begin(em.entry):
        acc, b, n = new_cell(ty).leaves, new_cell(ty).leaves, new_cell(T.PRIMITIVES["u32"]).leaves
    memref.store(_const(ty, 1), acc, [])
    memref.store(base, b, [])
    memref.store(exponent, n, [])
    loop = scf.WhileOp([], [])
    before = loop.before.blocks.append()
    with ir.InsertionPoint(before):
        scf.ConditionOp(arith.cmpi(arith.CmpIPredicate.ne, memref.load(n, []), _const(T.PRIMITIVES["u32"], 0)), [])
    after = loop.after.blocks.append()
    with ir.InsertionPoint(after):
        cur_n, cur_b = memref.load(n, []), memref.load(b, [])
        odd = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(cur_n, _const(T.PRIMITIVES["u32"], 1)), _const(T.PRIMITIVES["u32"], 0))
        cur_acc = memref.load(acc, [])
        memref.store(arith.select(odd, arith.muli(cur_acc, cur_b), cur_acc), acc, [])
        memref.store(arith.muli(cur_b, cur_b), b, [])
        memref.store(arith.shrui(cur_n, _const(T.PRIMITIVES["u32"], 1)), n, [])
        scf.YieldOp([])
    return memref.load(acc, [])


# Macros ----------------------------------------------------------------------------------------------------
def macro(em: Any, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    name = e.name
    if name in ("gpu_printf", "printf"):
        if not e.args or not (isinstance(e.args[0], ast.Lit) and e.args[0].kind == "str"):
            raise err(e.loc, f"`{name}!` needs a string literal format as its first argument")
        values = [em.expr(a) for a in e.args[1:]]
        for a, v in zip(e.args[1:], values):
            if not isinstance(v.ty, (T.Int, T.Float, T.Bool)):
                raise err(a.loc, f"`{name}!` cannot print a value of type `{v.ty}`")
        try:
            fmt = rust_format_to_c(e.args[0].value, [_printf_type(v.ty) for v in values])
        except ValueError as exc:
            raise err(e.args[0].loc, f"invalid format string: {exc}") from None
        # The value of `gpu_printf!(...)` is vprintf's i32: the argument count, negative on an error.
        widened = [_widen(v) for v in values]
        order = "".join({"i32": "i", "i64": "l", "f64": "d"}[str(w.type)] for w in widened)
        groups = [[w for w, kind in zip(widened, order) if kind == k] for k in "ild"]
        count = simt.PrintfOp.build(*groups, format=fmt, order=order, results=[I32()])
        return Val(T.PRIMITIVES["i32"], count)
    if name in ("assert", "gpu_assert", "assert_eq", "assert_ne"):
        if name in ("assert_eq", "assert_ne"):
            a, b = em.expr(e.args[0]), None
            b = em.expr(e.args[1], a.ty)
            from oxide.frontends.simt.expressions.operators import binary_values

            cond = binary_values(em, "==" if name == "assert_eq" else "!=", a, b, e.loc).v
            message = f"assertion failed: {name}"
        else:
            cond = em.coerce(em.expr(e.args[0], T.BOOL), T.BOOL, e.args[0].loc).v
            message = e.args[1].value if len(e.args) > 1 and isinstance(e.args[1], ast.Lit) and e.args[1].kind == "str" \
                else "assertion failed"
        if name == "gpu_assert" and len(e.args) == 1:
            em.trap_unless(cond)
        else:
            simt.AssertOp.build(cond, message=message)
        return Val(T.UNIT, None)
    if name in ("debug_assert", "debug_assert_eq", "debug_assert_ne"):
        return Val(T.UNIT, None)  # cuda-oxide builds with debug assertions off
    if name in ("panic", "unreachable", "todo", "unimplemented"):
        simt.TrapOp.build()
        return Val(T.NEVER, None)
    if name in ("addr_of", "addr_of_mut") and len(e.args) == 1:
        from oxide.frontends.simt.cell_pointers import address_of_local

        local = address_of_local(em, e.args[0], name == "addr_of_mut", e.loc)
        if local is not None:
            return local
        target = em.expr(e.args[0])
        if isinstance(target.ty, T.Shared):
            ptr = T.Ptr(target.ty.elem, name == "addr_of_mut", 3)
            return Val(ptr, simt.SharedPtrOp.build(target.v, results=[ptr.mlir()]))
        raise err(e.args[0].loc, f"`{name}!` of a `{target.ty}` is not supported in device code (only of a SharedArray or a local)")
    if name in ("println", "print", "format", "write", "writeln", "eprintln", "dbg"):
        raise err(e.loc, f"`{name}!` (core::fmt) is not supported in device code; use `gpu_printf!`")
    if name in ("vec",):
        raise err(e.loc, "heap allocation (`vec!`) is not supported in device code")
    if name == "asm":
        raise err(e.loc, "Rust `asm!` is not supported in device code")
    if name == "ptx_asm":
        from oxide.frontends.simt.calls.ptx_asm import ptx_asm

        return ptx_asm(em, e)
    raise err(e.loc, f"the macro `{name}!` is not supported in device code")


def _printf_type(ty: T.Ty) -> str:
    if isinstance(ty, T.Bool):
        return "bool"
    return ty.rust()


def _widen(v: Val) -> ir.Value:
    """C varargs promotion: bool/i8/i16 -> i32, f16/f32 -> f64."""
    if isinstance(v.ty, T.Bool):
        return arith.extui(I32(), v.v)
    if isinstance(v.ty, T.Int) and v.ty.bits < 32:
        return (arith.extsi if v.ty.signed else arith.extui)(I32(), v.v)
    if isinstance(v.ty, T.Float) and v.ty.bits < 64:
        return arith.extf(ir.F64Type.get(), v.v)
    return v.v
