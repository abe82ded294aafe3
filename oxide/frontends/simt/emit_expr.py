"""Expression emission (methods of FunctionEmitter, kept apart from statements and names)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.kernel_module import Retype
from oxide.frontends.simt import branch_results, safety
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_places import as_value, assign_place, borrow, is_place_syntax, place_or_value
from oxide.frontends.simt.emit_support import err, i1, index, int_attr, unknown_type
from oxide.frontends.syntax.literals import check_float_range
from oxide.frontends.simt.values import (
    ArrayView, Cell, OptionVal, Val, element_at, element_cell, load_cell, new_cell, pointer_at, store_cell,
    store_element, zero_value,
)


# Literals and names ---------------------------------------------------------------------------------------
def e_Lit(self, e: ast.Lit, expected: T.Ty | None) -> Val:
    if e.kind == "bool":
        return Val(T.BOOL, i1(e.value))
    if e.kind == "str":
        raise err(e.loc, "string values are not supported in device code (only as a gpu_printf! format)")
    if e.kind == "int":
        ty = T.PRIMITIVES[e.suffix] if e.suffix else expected if isinstance(expected, (T.Int, T.Float)) else T.PRIMITIVES["i32"]
        if isinstance(ty, T.Float):
            check_float_range(float(e.value), ty.rust(), e.loc)
            return Val(ty, arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), float(e.value))))
        bits = ty.bits
        value = e.value
        if not (-(1 << (bits - 1)) if ty.signed else 0) <= value < (1 << bits):
            if value >= (1 << bits) or not ty.signed:
                raise err(e.loc, f"literal out of range for `{ty}`")
        if value >= (1 << (bits - 1)):
            value -= 1 << bits  # MLIR takes the two's-complement bit pattern as a signed value
        v = Val(ty, arith.constant(ty.mlir(), int_attr(ty.mlir(), value)))
        v.literal = e if not e.suffix and not isinstance(expected, (T.Int, T.Float)) else None
        return v
    ty = T.PRIMITIVES[e.suffix] if e.suffix else expected if isinstance(expected, T.Float) else T.F64
    check_float_range(e.value, ty.rust(), e.loc)  # `let x: f32 = 1e39;` would be infinity
    v = Val(ty, arith.constant(ty.mlir(), ir.FloatAttr.get(ty.mlir(), e.value)))
    v.literal = e if not e.suffix and not isinstance(expected, T.Float) else None
    return v


def e_PathExpr(self, e: ast.PathExpr, expected: T.Ty | None) -> Val:
    from oxide.frontends.simt.device_api import strip_modules

    segments = strip_modules(self, e.segments) if len(e.segments) > 1 else e.segments
    if len(segments) == 1:
        name = segments[0]
        bound = self.lookup(name)
        if isinstance(bound, Cell):
            value = load_cell(bound)
            value.flex = getattr(bound, "flex", None)
            return value
        if isinstance(bound, Val):
            safety.use_binding(self, name, bound, e.loc)
            return bound
        generic = self.generics[-1].get(name)
        if isinstance(generic, int):
            ty = expected if isinstance(expected, T.Int) else T.USIZE
            low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
            if not low <= generic <= high:
                raise err(e.loc, f"const generic `{name}` is {generic}, which does not fit in `{ty}` "
                                 f"({low} to {high}); instantiate it with a value in range")
            return Val(ty, arith.constant(ty.mlir(), int_attr(ty.mlir(), generic)))
        const = self.crate.const(name)
        if const is not None:
            ty = self.resolve_type(const.ty)
            from oxide.frontends.simt.intrinsics.constant_memory import ConstantMemoryTy, constant_memory_handle

            if isinstance(ty, ConstantMemoryTy):
                return constant_memory_handle(self, name, ty)  # a `#[constant] static`: read through its address
            return self.coerce(self.expr(const.value, ty), ty, const.value.loc)
        if name == "None":
            if not isinstance(expected, T.OptionTy):
                raise err(e.loc, "cannot infer the type of `None` here; annotate the binding")
            return none_of(expected)
    from oxide.frontends.simt.device_api import path_value

    value = path_value(self, e, expected)
    if value is not None:
        return value
    assoc = self.assoc_const(segments[0], segments[1]) if len(segments) == 2 else None
    if assoc is not None:
        ty = self.resolve_type(assoc.ty)  # `P::TAG`, `Self::N`, `Config::SCALE`
        return self.coerce(self.expr(assoc.value, ty), ty, assoc.value.loc)
    struct = self.crate.struct(segments[0]) if len(segments) == 1 else None
    if struct is not None and not struct.fields:
        return self.expr(ast.StructLit(e.loc, [segments[0]], []), expected)  # a unit struct: `Marker`
    fn = self.crate.function(segments[0]) if len(segments) == 1 else None
    if fn is not None and not fn.attrs.get("kernel"):
        return Val(T.FnItem((segments[-1],)), list(e.generics))  # a function used as a value (and its turbofish)
    raise err(e.loc, f"cannot find value `{'::'.join(e.segments)}` in this scope")


def none_of(ty: T.OptionTy) -> Val:
    return Val(ty, OptionVal(i1(False), placeholder(ty.inner)))


def placeholder(ty: T.Ty) -> Val:
    """A value of `ty` that is never read (the payload of None)."""
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum)):
        return Val(ty, zero_value(ty))
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return Val(ty, [placeholder(p) for p in parts])
    if isinstance(ty, T.Ptr):
        generic = T.Ptr(ty.elem, ty.mutable, 0)
        null = simt.IntToPtrOp.build(arith.constant(ir.IntegerType.get_signless(64), 0), results=[generic.mlir()])
        return Val(ty, null if ty.space == 0 else simt.FromGenericOp.build(null, results=[ty.mlir()]))
    if isinstance(ty, T.ThreadIndex):
        return Val(ty, branch_results.placeholder_leaves(ty)[0])
    raise TypeError(f"no placeholder for {ty}")


# Operators ------------------------------------------------------------------------------------------------
_ARITH = {"+": ("addi", "addi", "addf"), "-": ("subi", "subi", "subf"), "*": ("muli", "muli", "mulf"),
          "/": ("divsi", "divui", "divf"), "%": ("remsi", "remui", "remf"), "&": ("andi", "andi", None),
          "|": ("ori", "ori", None), "^": ("xori", "xori", None), "<<": ("shli", "shli", None),
          ">>": ("shrsi", "shrui", None)}
_CMP_INT = {"==": ("eq", "eq"), "!=": ("ne", "ne"), "<": ("slt", "ult"), "<=": ("sle", "ule"),
            ">": ("sgt", "ugt"), ">=": ("sge", "uge")}
_CMP_FLOAT = {"==": "oeq", "!=": "une", "<": "olt", "<=": "ole", ">": "ogt", ">=": "oge"}


def _is_plain_literal(e: ast.Expr) -> bool:
    if isinstance(e, ast.Unary) and e.op == "-":
        return _is_plain_literal(e.operand)
    return isinstance(e, ast.Lit) and e.kind in ("int", "float") and not e.suffix


def operands(self, lhs: ast.Expr, rhs: ast.Expr, expected: T.Ty | None) -> tuple[Val, Val]:
    """Both operands of a binary operator, an unsuffixed literal taking the other side's type."""
    if _is_plain_literal(lhs) and not _is_plain_literal(rhs):
        b = self.expr(rhs, expected)
        return self.expr(lhs, b.ty), b
    a = self.expr(lhs, expected)
    b = self.expr(rhs, a.ty if _is_plain_literal(rhs) or isinstance(a.ty, (T.Int, T.Float)) else None)
    return a, b


def unify(self, a: Val, b: Val, loc: Any, what: str) -> T.Ty:
    """The common type of two operands, or a located mismatch (retrying literal-typed variables)."""
    if a.ty == b.ty:
        return a.ty
    for flexible, other in ((a, b), (b, a)):
        if getattr(flexible, "flex", None) is not None and isinstance(other.ty, (T.Int, T.Float)):
            raise Retype(flexible.flex, other.ty)
    raise err(loc, f"mismatched types in {what}: `{a.ty}` and `{b.ty}`")


_OPERATOR_TRAITS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "bitand", "|": "bitor",
                    "^": "bitxor", "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _overloaded(self, op: str, a: Val, b: Val, loc: Any) -> Val | None:
    """`a op b` on a user struct: its `impl Add for T { fn add(self, rhs) }` (or Sub, Mul, ...), inlined."""
    if not isinstance(a.ty, T.Struct) or op not in _OPERATOR_TRAITS:
        return None
    from oxide.frontends.simt.device_api import inline_call

    base = a.ty.name.split("<")[0]
    method = self.crate.method(base, _OPERATOR_TRAITS[op])
    if method is None:
        return None
    return inline_call(self, method, [b], loc, self_val=a)


def binary_values(self, op: str, a: Val, b: Val, loc: Any) -> Val:
    overloaded = _overloaded(self, op, a, b, loc)
    if overloaded is not None:
        return overloaded
    if op in ("<<", ">>"):
        if not (isinstance(a.ty, T.Int) and isinstance(b.ty, T.Int)):
            raise err(loc, f"cannot shift `{a.ty}` by `{b.ty}`")
        amount = cast_int(b.v, b.ty, a.ty)
        # Rust without overflow checks shifts by the amount modulo the bit width (LLVM would give poison).
        amount = arith.andi(amount, arith.constant(a.ty.mlir(), ir.IntegerAttr.get(a.ty.mlir(), a.ty.bits - 1)))
        name = _ARITH[op][0 if a.ty.signed else 1]
        return Val(a.ty, getattr(arith, name)(a.v, amount))
    ty = unify(self, a, b, loc, f"`{op}`")
    if isinstance(ty, T.Char) and op not in _CMP_INT:
        raise err(loc, f"no operator `{op}` for `char` (Rust has no arithmetic on chars); convert with `as u32`")
    if op in _CMP_INT:
        if isinstance(ty, T.Float):
            pred = getattr(arith.CmpFPredicate, _CMP_FLOAT[op].upper())
            return Val(T.BOOL, arith.cmpf(pred, a.v, b.v))
        if isinstance(ty, (T.Int, T.Bool, T.Enum)):
            signed = _signed(ty)
            pred = getattr(arith.CmpIPredicate, _CMP_INT[op][0 if signed else 1])
            return Val(T.BOOL, arith.cmpi(pred, a.v, b.v))
        if isinstance(ty, T.Ptr):  # raw pointers compare by address
            pred = getattr(arith.CmpIPredicate, _CMP_INT[op][1])
            return Val(T.BOOL, arith.cmpi(pred, simt.PtrToIntOp.build(a.v), simt.PtrToIntOp.build(b.v)))
        if isinstance(ty, T.CellPtr):
            from oxide.frontends.simt.cell_pointers import no_address

            raise no_address(loc, "a comparison")
        raise err(loc, f"cannot compare values of type `{ty}`")
    if op in ("&", "|", "^") and isinstance(ty, T.Bool):
        return Val(T.BOOL, getattr(arith, _ARITH[op][0])(a.v, b.v))
    if isinstance(ty, T.Float):
        name = _ARITH[op][2]
        if name is None:
            raise err(loc, f"no operator `{op}` for `{ty}`")
        # FMA contraction is on, as in cuda-oxide and nvcc (--fmad=true): a * b + c may become one fma.
        flags = ir.Attribute.parse("#arith.fastmath<contract>") if op in ("+", "-", "*") else None
        out = Val(ty, getattr(arith, name)(a.v, b.v, fastmath=flags) if flags else getattr(arith, name)(a.v, b.v))
    elif isinstance(ty, T.Int):
        if op in ("/", "%"):
            self.check_division(a, b, ty)
        out = Val(ty, getattr(arith, _ARITH[op][0 if ty.signed else 1])(a.v, b.v))
    else:
        raise err(loc, f"no operator `{op}` for `{ty}`")
    out.flex = getattr(a, "flex", None) or getattr(b, "flex", None)
    return out


def check_division(self, a: Val, b: Val, ty: T.Int) -> None:
    """Rust panics (here: traps) on division by zero and on MIN / -1."""
    zero = arith.constant(ty.mlir(), int_attr(ty.mlir(), 0))
    ok = arith.cmpi(arith.CmpIPredicate.ne, b.v, zero)
    if ty.signed:
        minimum = arith.constant(ty.mlir(), int_attr(ty.mlir(), -(1 << (ty.bits - 1))))
        minus_one = arith.constant(ty.mlir(), int_attr(ty.mlir(), -1))
        overflow = arith.andi(arith.cmpi(arith.CmpIPredicate.eq, a.v, minimum),
                              arith.cmpi(arith.CmpIPredicate.eq, b.v, minus_one))
        ok = arith.andi(ok, arith.xori(overflow, i1(True)))
    self.trap_unless(ok)


def trap_unless(self, ok: ir.Value) -> None:
    branch = scf.IfOp(arith.xori(ok, i1(True)))
    with ir.InsertionPoint(branch.then_block):
        simt.TrapOp.build()
        scf.YieldOp([])


def e_Binary(self, e: ast.Binary, expected: T.Ty | None) -> Val:
    if e.op in ("&&", "||"):
        a = self.coerce(self.expr(e.lhs, T.BOOL), T.BOOL, e.lhs.loc)
        branch = scf.IfOp(a.v, [ir.IntegerType.get_signless(1)], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            if e.op == "&&":
                scf.YieldOp([self.coerce(self.expr(e.rhs, T.BOOL), T.BOOL, e.rhs.loc).v])
            else:
                scf.YieldOp([i1(True)])
        with ir.InsertionPoint(branch.else_block):
            if e.op == "&&":
                scf.YieldOp([i1(False)])
            else:
                scf.YieldOp([self.coerce(self.expr(e.rhs, T.BOOL), T.BOOL, e.rhs.loc).v])
        return Val(T.BOOL, branch.results[0])
    cmp = e.op in _CMP_INT
    a, b = operands(self, e.lhs, e.rhs, None if cmp else expected)
    return binary_values(self, e.op, a, b, e.loc)


def e_Unary(self, e: ast.Unary, expected: T.Ty | None) -> Val:
    if e.op == "-":
        v = self.expr(e.operand, expected)
        if isinstance(v.ty, T.Struct) and self.crate.method(v.ty.name.split("<")[0], "neg") is not None:
            from oxide.frontends.simt.device_api import inline_call

            return inline_call(self, self.crate.method(v.ty.name.split("<")[0], "neg"), [], e.loc, self_val=v)
        if isinstance(v.ty, T.Float):
            return Val(v.ty, arith.negf(v.v))
        if isinstance(v.ty, T.Int) and v.ty.signed:
            zero = arith.constant(v.ty.mlir(), ir.IntegerAttr.get(v.ty.mlir(), 0))
            return Val(v.ty, arith.subi(zero, v.v))
        raise err(e.loc, f"cannot negate `{v.ty}`")
    if e.op == "!":
        v = self.expr(e.operand, expected)
        if isinstance(v.ty, (T.Bool, T.Int)):
            ones = arith.constant(v.ty.mlir(), ir.IntegerAttr.get(v.ty.mlir(), -1))
            return Val(v.ty, arith.xori(v.v, ones))
        raise err(e.loc, f"cannot apply `!` to `{v.ty}`")
    if e.op == "*":
        return as_value(self, place_or_value(self, e))
    if e.op in ("&", "&mut"):
        if e.op == "&mut":
            cell = _local_cell(self, e.operand)
            if cell is None and isinstance(e.operand, (ast.Index, ast.Field)) \
                    and not (isinstance(e.operand, ast.Index) and isinstance(e.operand.index, ast.Range)):
                place = _element_place(self, e.operand)  # `&mut arr[j].0`: an element of a local array
                if place is not None:
                    try:
                        cell = element_cell(*place)
                    except TypeError as exc:
                        raise err(e.loc, f"{exc} is not supported in device code") from None
            if cell is not None:
                return Val(T.LocalRef(cell.ty, True), cell)
        if is_place_syntax(e.operand):
            handle = borrow(self, e)
        else:
            handle = self.expr(e.operand, expected if e.op == "&" else None)
        if e.op == "&" or isinstance(handle.ty, (T.Slice, T.Disjoint, T.Shared, T.Ptr, T.ElemRef, T.Atomic, T.PlaceRef,
                                                 T.FnItem, T.Closure, T.LocalSlice, T.PtrSlice)):
            return handle  # `&x` of a Copy value is the value; `&mut` of a handle is a reborrow of its memory
        raise err(e.loc, "taking `&mut` of anything but a `let mut` local (or a field of one) is not supported "
                         "in device code")
    raise err(e.loc, f"unary `{e.op}` is not supported")


def deref_value(self, v: Val, e: ast.Unary) -> Val:
    """`*v` when v is not a reference into memory: a local's storage (also through an `addr_of!` pointer), the
    element a pointer into a local array is at, an element reference, a pointer to an atomic cell, or a by-value
    `&T`."""
    if isinstance(v.ty, T.LocalRef):
        return load_cell(v.v)
    if isinstance(v.ty, T.CellPtr):
        self.require_unsafe(e.loc, "dereferencing a raw pointer")
        return load_cell(v.v)  # `addr_of!(x)`: the local's cell
    if isinstance(v.ty, T.LocalPtr):
        from oxide.frontends.simt import local_pointers

        return local_pointers.read(self, v, e.loc)  # `arr.as_ptr()`: the element at its position
    if isinstance(v.ty, T.ElemRef):
        return Val(v.ty.elem, simt.RefLoadOp.build(v.v))
    if isinstance(v.ty, T.Ptr):
        self.require_unsafe(e.loc, "dereferencing a raw pointer")
        return Val(v.ty.elem, v.v)  # `&*(p as *const DeviceAtomicU32)`: the cell, in place
    return v  # `*x` of a by-value `&T`


def _signed(ty: T.Ty) -> bool:
    """Whether an integer, bool or enum compares and extends as signed (an enum as its discriminant type)."""
    if isinstance(ty, T.Enum):
        ty = ty.storage
    return isinstance(ty, T.Int) and ty.signed


def cast_int(v: ir.Value, src: T.Ty, dst: T.Int) -> ir.Value:
    """Integer (or bool/enum) to integer, as `as` does: truncate, or extend by the source's signedness."""
    src_bits = 1 if isinstance(src, T.Bool) else src.mlir().width
    signed = _signed(src)
    if src_bits == dst.bits:
        return v
    if src_bits > dst.bits:
        return arith.trunci(dst.mlir(), v)
    return (arith.extsi if signed else arith.extui)(dst.mlir(), v)


def e_Cast(self, e: ast.Cast, expected: T.Ty | None) -> Val:
    dst = self.resolve_type(e.target)
    src = self.expr(e.operand, dst if _is_plain_literal(e.operand) else None)
    s = src.ty
    if s == dst:
        return src
    if isinstance(dst, T.Int) and isinstance(s, (T.Int, T.Bool, T.Enum)):
        return Val(dst, cast_int(src.v, s, dst))
    if isinstance(dst, T.Float) and isinstance(s, T.Int):
        if s.bits > 64:
            # Likewise a 128-bit integer to a float: a library call NVPTX does not have.
            narrow = "i64" if s.signed else "u64"
            raise err(e.loc, f"`{s}` as `{dst}`: the GPU has no conversion from a 128-bit integer to a float; "
                             f"convert through 64 bits (`x as {narrow} as {dst}`)")
        return Val(dst, (arith.sitofp if s.signed else arith.uitofp)(dst.mlir(), src.v))
    if isinstance(dst, T.Float) and isinstance(s, T.Float):
        return Val(dst, (arith.extf if dst.bits > s.bits else arith.truncf)(dst.mlir(), src.v))
    if isinstance(dst, T.Int) and isinstance(s, T.Float):
        if dst.bits > 64:
            # LLVM lowers a float-to-i128 conversion to a library call that NVPTX does not have.
            narrow = "i64" if dst.signed else "u64"
            raise err(e.loc, f"`{s}` as `{dst}`: the GPU has no conversion from a float to a 128-bit integer; "
                             f"convert through 64 bits (`x as {narrow} as {dst}`)")
        return Val(dst, saturating_fptoi(self, src.v, s, dst))
    if isinstance(dst, T.Ptr) and isinstance(s, T.ElemRef) and dst.elem == s.elem:
        return Val(T.Ptr(dst.elem, dst.mutable, 1), simt.RefPtrOp.build(src.v, results=[T.Ptr(dst.elem, True, 1).mlir()]))
    if isinstance(dst, T.Int) and isinstance(s, (T.Ptr, T.Shared)) and dst.bits == 64:
        # `p as usize` / `&raw const SMEM as u64`: the generic address.
        ptr = src.v if isinstance(s, T.Ptr) else simt.SharedPtrOp.build(src.v, results=[T.Ptr(s.elem, True, 3).mlir()])
        return Val(dst, simt.PtrToIntOp.build(ptr))
    if isinstance(dst, T.Ptr) and isinstance(s, T.Shared):
        # `&raw const SMEM as *const u8`: the shared array's address, in the shared address space.
        src = Val(T.Ptr(s.elem, True, 3), simt.SharedPtrOp.build(src.v, results=[T.Ptr(s.elem, True, 3).mlir()]))
        s = src.ty
    if isinstance(dst, T.Ptr) and isinstance(s, T.Int) and s.bits == 64:
        dst = T.Ptr(dst.elem, dst.mutable, 0)  # `addr as *mut T`: an integer address is a generic pointer
        return Val(dst, simt.IntToPtrOp.build(src.v, results=[dst.mlir()]))
    if isinstance(dst, T.Ptr) and isinstance(s, T.Ptr):
        if dst.elem == s.elem and dst.space == s.space:
            return Val(dst, src.v)
        dst = T.Ptr(dst.elem, dst.mutable, s.space)  # a cast keeps the address space it points into
        return Val(dst, simt.PtrCastOp.build(src.v, results=[dst.mlir()]))
    from oxide.frontends.simt.intrinsics.casts import address_cast

    converted = address_cast(self, src, dst)
    if converted is not None:
        return converted
    return _bad_cast(e, s, dst)


def _bad_cast(e: ast.Cast, s: T.Ty, dst: T.Ty) -> Val:
    if isinstance(s, T.CellPtr):
        from oxide.frontends.simt.cell_pointers import no_address

        raise no_address(e.loc, f"a cast to `{dst}`")
    raise err(e.loc, f"non-primitive cast: `{s}` as `{dst}`")


def saturating_fptoi(self, v: ir.Value, src: T.Float, dst: T.Int) -> ir.Value:
    """Rust's float-to-int `as`: NaN -> 0, out-of-range values clamp to MIN/MAX."""
    lo = -(2 ** (dst.bits - 1)) if dst.signed else 0
    hi = 2 ** (dst.bits - 1) - 1 if dst.signed else 2 ** dst.bits - 1
    f = src.mlir()
    lo_f = arith.constant(f, ir.FloatAttr.get(f, float(lo)))
    hi_f = arith.constant(f, ir.FloatAttr.get(f, float(hi)))
    clamped = arith.minimumf(arith.maximumf(v, lo_f), hi_f)
    converted = (arith.fptosi if dst.signed else arith.fptoui)(dst.mlir(), clamped)
    hi_i = arith.constant(dst.mlir(), int_attr(dst.mlir(), hi))
    too_big = arith.cmpf(arith.CmpFPredicate.OGE, v, hi_f)
    converted = arith.select(too_big, hi_i, converted)
    is_nan = arith.cmpf(arith.CmpFPredicate.UNO, v, v)
    return arith.select(is_nan, arith.constant(dst.mlir(), ir.IntegerAttr.get(dst.mlir(), 0)), converted)


# Places ---------------------------------------------------------------------------------------------------
def index_value(self, e: ast.Expr) -> ir.Value:
    """An index expression as `index` (Rust indexes with usize)."""
    v = self.expr(e, T.USIZE)
    if not isinstance(v.ty, T.Int) or v.ty != T.USIZE:
        if getattr(v, "flex", None) is not None:
            raise Retype(v.flex, T.USIZE)
        raise err(e.loc, f"the type `[T]` cannot be indexed by `{v.ty}`: indices are `usize`")
    return arith.index_cast(ir.IndexType.get(), v.v)


def e_Index(self, e: ast.Index, expected: T.Ty | None) -> Val:
    return as_value(self, place_or_value(self, e))


def index_on_value(self, base: Val, e: ast.Index) -> Val:
    """`base[i]` read from an evaluated base that is not a memory place (scalar slices, local arrays)."""
    ty = base.ty
    if isinstance(ty, T.LocalSlice):
        from oxide.frontends.simt.local_slices import read

        return read(self, base, index_value(self, e.index))
    if isinstance(ty, T.Slice):
        i = index_value(self, e.index)
        if isinstance(ty.elem, T.Atomic):
            # An atomic cell is used in place, never read as a whole: its value is its address.
            ptr = T.Ptr(ty.elem.value, True, 1)
            return Val(ty.elem, simt.ElemPtrOp.build(base.v, i, results=[ptr.mlir()]))
        op = simt.LoadUncheckedOp if self.unchecked else simt.LoadOp
        return Val(ty.elem, op.build(base.v, i))
    if isinstance(ty, T.Shared):
        self.require_unsafe(e.loc, "reading a `static mut` shared array")
        return Val(ty.elem, simt.SharedLoadOp.build(base.v, index_value(self, e.index)))
    if isinstance(ty, T.Array):
        i = index_value(self, e.index)
        self.check_array_bounds(i, ty.length)
        return element_at(ArrayView(base.v.storage, base.v.prefix + (i,)), ty.elem)
    if isinstance(ty, T.Struct) and ty.indexed:
        return index_on_value(self, base.v[0], e)
    if isinstance(ty, T.Ptr):
        raise err(e.loc, "a raw pointer cannot be indexed; use `unsafe { *p.add(i) }`")
    if isinstance(ty, T.Disjoint):
        raise err(e.loc, "a DisjointSlice cannot be indexed directly; write through `get_mut(thread_index)`")
    raise err(e.loc, f"cannot index into a value of type `{ty}`")


def array_load(view: ArrayView, i: ir.Value, elem: T.Ty) -> Val:
    """Element i of an array view."""
    return element_at(ArrayView(view.storage, view.prefix + (i,)), elem)


def array_store(value: Val, view: ArrayView, i: ir.Value, elem: T.Ty) -> None:
    """Store element i of an array view."""
    store_element(value, ArrayView(view.storage, view.prefix + (i,)), elem)


def _array_place(self, e: ast.Expr) -> tuple[ArrayView, T.Array] | None:
    """The storage of a `let mut` array (or a row of one: `a[i]` of a nested array), for assignment."""
    if isinstance(e, ast.Index):
        outer = _array_place(self, e.base)
        if outer is None or not isinstance(outer[1].elem, T.Array):
            return None
        view, ty = outer
        i = index_value(self, e.index)
        self.check_array_bounds(i, ty.length)
        return ArrayView(view.storage, view.prefix + (i,)), ty.elem
    cell = _local_cell(self, e)
    if cell is not None and isinstance(cell.ty, T.Array):
        return ArrayView(cell.leaves), cell.ty
    if isinstance(e, ast.Field):
        place = _element_place(self, e)
        if place is not None and isinstance(place[1], T.Array):
            return place
    return None


def _element_place(self, e: ast.Expr) -> tuple[ArrayView, T.Ty] | None:
    """Where `arr[i]` or `arr[i].field...` of a `let mut` array lives (structure of arrays)."""
    if isinstance(e, ast.Index):
        outer = _array_place(self, e.base)
        if outer is None:
            return None
        view, ty = outer
        i = index_value(self, e.index)
        self.check_array_bounds(i, ty.length)
        return ArrayView(view.storage, view.prefix + (i,)), ty.elem
    if isinstance(e, ast.Field):
        inner = _element_place(self, e.base)
        if inner is None:
            return None
        view, ty = inner
        if isinstance(ty, T.Tuple) and e.name.isdigit() and int(e.name) < len(ty.elems):
            return ArrayView(view.storage[int(e.name)], view.prefix), ty.elems[int(e.name)]
        if isinstance(ty, T.Struct) and ty.field(e.name) is not None:
            index_, field_ty = ty.field(e.name)
            return ArrayView(view.storage[index_], view.prefix), field_ty
    return None


def check_array_bounds(self, i: ir.Value, length: int) -> None:
    if not self.unchecked:
        self.trap_unless(arith.cmpi(arith.CmpIPredicate.ult, i, index(length)))


def e_Field(self, e: ast.Field, expected: T.Ty | None) -> Val:
    return as_value(self, place_or_value(self, e))


def field_of(self, base: Val, name: str, loc: Any) -> Val:
    ty = base.ty
    if isinstance(ty, T.Tuple) and name.isdigit() and int(name) < len(ty.elems):
        return base.v[int(name)]
    if isinstance(ty, T.Struct):
        found = ty.field(name)
        if found is not None:
            return base.v[found[0]]
    raise err(loc, f"no field `{name}` on type `{ty}`")


def e_Assign(self, e: ast.Assign, expected: T.Ty | None) -> Val:
    target = e.target
    current = None
    if e.op is not None:
        current = self.expr(target)
        value = self.expr(e.value, current.ty)
        value = binary_values(self, e.op, current, value, e.loc)
    else:
        value = None
    assign(self, target, value, e.value, e.loc)
    return Val(T.UNIT, None)


def assign(self, target: ast.Expr, value: Val | None, value_expr: ast.Expr, loc: Any) -> None:
    """Store into a place: a mutable local (or a field/element of one), `*r`, `s[i]`, `TILE[i]`."""

    def rhs(ty: T.Ty) -> Val:
        v = value if value is not None else self.expr(value_expr, ty)
        if v.ty != ty and getattr(v, "flex", None) is not None and isinstance(ty, (T.Int, T.Float)):
            raise Retype(v.flex, ty)
        return self.coerce(v, ty, value_expr.loc)

    if isinstance(target, ast.PathExpr) and len(target.segments) == 1:
        bound = self.lookup(target.segments[0])
        if isinstance(bound, Cell):
            v = value if value is not None else self.expr(value_expr, bound.ty)
            if v.ty != bound.ty and getattr(bound, "flex", None) is not None and isinstance(v.ty, (T.Int, T.Float)):
                raise Retype(bound.flex, v.ty)
            store_cell(bound, self.coerce(v, bound.ty, value_expr.loc))
            return
        if isinstance(bound, Val):
            raise err(target.loc, f"cannot assign twice to immutable variable `{target.segments[0]}`; "
                                  f"declare it `let mut {target.segments[0]}`")
        raise err(target.loc, f"cannot find value `{target.segments[0]}` in this scope")
    if isinstance(target, ast.Unary) and target.op == "*":
        ref = assign_place(self, target, rhs)
        if ref is True:
            return
        if isinstance(ref.ty, T.LocalRef):
            store_cell(ref.v, rhs(ref.ty.elem))
            return
        if isinstance(ref.ty, T.CellPtr):
            self.require_unsafe(target.loc, "writing through a raw pointer")
            if not ref.ty.mutable:
                raise err(target.loc, "cannot assign through a `*const` pointer")
            store_cell(ref.v, rhs(ref.ty.elem))
            return
        if isinstance(ref.ty, T.ElemRef):
            simt.RefStoreOp.build(ref.v, rhs(ref.ty.elem).v)
            return
        if isinstance(ref.ty, T.Ptr):
            self.require_unsafe(target.loc, "writing through a raw pointer")
            if not ref.ty.mutable:
                raise err(target.loc, "cannot write through a `*const` pointer")
            simt.PtrStoreOp.build(ref.v, rhs(ref.ty.elem).v)
            return
        raise err(target.loc, f"cannot assign through a value of type `{ref.ty}`")
    if isinstance(target, ast.Index):
        base_expr = target.base
        place = _array_place(self, base_expr)
        if place is not None:
            view, array_ty = place
            i = index_value(self, target.index)
            self.check_array_bounds(i, array_ty.length)
            array_store(rhs(array_ty.elem), view, i, array_ty.elem)
            return
        base = assign_place(self, target, rhs)
        if base is True:
            return
        if isinstance(base.ty, T.LocalSlice):
            from oxide.frontends.simt.local_slices import write

            i = index_value(self, target.index)
            write(self, base, i, rhs(base.ty.elem), target.loc)
            return
        if isinstance(base.ty, T.Slice):
            if not base.ty.mutable:
                raise err(target.loc, "cannot assign to an element of a `&[T]`; only `&mut [T]` or a DisjointSlice "
                                      "(through get_mut) are writable")
            i = index_value(self, target.index)
            simt.StoreOp.build(base.v, i, rhs(base.ty.elem).v)
            return
        if isinstance(base.ty, T.Shared):
            self.require_unsafe(target.loc, "writing a `static mut` shared array")
            i = index_value(self, target.index)
            simt.SharedStoreOp.build(base.v, i, rhs(base.ty.elem).v)
            return
        if isinstance(base.ty, T.Disjoint):
            raise err(target.loc, "a DisjointSlice is written only through `get_mut(thread_index)`")
        if isinstance(base.ty, T.Array):
            raise err(target.loc, "cannot assign to an element of an immutable array; declare it `let mut`")
        raise err(target.loc, f"cannot assign to an element of `{base.ty}`")
    if isinstance(target, ast.Field):
        path = []
        node: Any = target
        while isinstance(node, ast.Field):
            path.append(node.name)
            node = node.base
        if isinstance(node, ast.PathExpr) and isinstance(self.lookup(node.segments[0]), Cell):
            cell = self.lookup(node.segments[0])
            for name in reversed(path):
                cell = _sub_cell(cell, name, target.loc)
            store_cell(cell, rhs(cell.ty))
            return
        place = _element_place(self, target)
        if place is not None:
            store_element(rhs(place[1]), place[0], place[1])
            return
        if assign_place(self, target, rhs) is True:
            return
        raise err(target.loc, "can only assign to fields of a `let mut` local (or of an element in memory)")
    raise err(target.loc, "invalid left-hand side of assignment")


def _local_cell(self, e: ast.Expr) -> Cell | None:
    """The storage of `x`, `x.f`, `x.0.g` when x is a `let mut` local, else None; also of `(*p).f` when p is an
    `addr_of_mut!` pointer to one (unsafe)."""
    path: list[str] = []
    while isinstance(e, ast.Field):
        path.append(e.name)
        e = e.base
    through_pointer = isinstance(e, ast.Unary) and e.op == "*"
    if through_pointer:
        e = e.operand
    if not (isinstance(e, ast.PathExpr) and len(e.segments) == 1):
        return None
    cell = self.lookup(e.segments[0])
    if through_pointer:
        if not (isinstance(cell, Val) and isinstance(cell.ty, T.CellPtr) and cell.ty.mutable):
            return None
        self.require_unsafe(e.loc, "dereferencing a raw pointer")
        cell = cell.v
    if isinstance(cell, Val) and isinstance(cell.ty, T.LocalRef):
        cell = cell.v  # a `&mut local` binding: places through it are the local's
    if not isinstance(cell, Cell):
        return None
    for name in reversed(path):
        cell = _sub_cell(cell, name, e.loc)
    return cell


def _sub_cell(cell: Cell, name: str, loc: Any) -> Cell:
    if isinstance(cell.ty, T.Tuple) and name.isdigit():
        return cell.leaves[int(name)]
    if isinstance(cell.ty, T.Struct):
        found = cell.ty.field(name)
        if found is not None:
            return cell.leaves[found[0]]
    raise err(loc, f"no field `{name}` on type `{cell.ty}`")


# Control flow ---------------------------------------------------------------------------------------------
def e_Block(self, e: ast.Block, expected: T.Ty | None) -> Val:
    if e.unsafe:
        was = self.in_unsafe
        self.in_unsafe = True
        try:
            return self.block(e, expected)
        finally:
            self.in_unsafe = was
    return self.block(e, expected)


def _same_pointer_type(a: T.Ty, b: T.Ty) -> bool:
    """Two raw pointers Rust sees as one type (they may point into different address spaces here; a pointer
    cell keeps the generic address, which covers both)."""
    return isinstance(a, T.Ptr) and isinstance(b, T.Ptr) and a.elem == b.elem and a.mutable == b.mutable


def value_if(self, cond: ir.Value, then_fn: Any, else_fn: Any, loc: Any) -> Val:
    """scf.if whose branches produce values; the value goes through a cell (a memref LLVM promotes).
    Addresses (pointers, references into memory) go through an integer cell, or, when one branch diverges
    and the other yields an address computed before the `if`, are that address. A value holding a thread
    index witness, which has no memory form, becomes results of the scf.if (branch_results.py).
    `else_fn(hint)` gets the then-branch's type, so an unsuffixed literal there takes it."""
    probe: dict[str, Any] = {}
    branch = scf.IfOp(cond, has_else=True)
    result_cell: Cell | None = None
    yielded: dict[int, Val] = {}
    in_registers: dict[int, Val] = {}
    for side, (block, fn) in enumerate(((branch.then_block, then_fn), (branch.else_block, else_fn))):
        with ir.InsertionPoint(block):
            value = fn() if fn is then_fn else fn(probe.get("ty"))
            if not isinstance(value.ty, (T.Unit, T.Never)):
                if "ty" not in probe:
                    probe["ty"] = value.ty
                elif isinstance(value.ty, T.Ptr) and isinstance(probe["ty"], T.Ptr) \
                        and value.ty.elem == probe["ty"].elem and value.ty.space != probe["ty"].space:
                    # One `*const T` from two address spaces (a global pointer or `ptr::null()`): the result is
                    # the generic pointer (both branches yield their generic address).
                    probe["ty"] = T.Ptr(value.ty.elem, value.ty.mutable and probe["ty"].mutable, 0)
                elif value.ty != probe["ty"] and _pointer_space_union(probe["ty"], value.ty) is not None:
                    # `(p_global, n)` and `(ptr::null(), 0)`: an aggregate whose pointers come from two address
                    # spaces; a cell keeps each pointer's generic address, read back as the generic pointer.
                    probe["ty"] = _pointer_space_union(probe["ty"], value.ty)
                elif value.ty != probe["ty"]:
                    if isinstance(value.ty, T.FnItem) and isinstance(probe["ty"], T.FnItem):
                        raise err(loc, "choosing a function at run time (an indirect call through a function "
                                       "pointer) is not supported in device code; call each function in its branch")
                    raise err(loc, f"`if` and `else` have incompatible types: `{probe['ty']}` and `{value.ty}`")
                if branch_results.yields_in_registers(value.ty):
                    in_registers[side] = value
                elif isinstance(value.ty, (T.Ptr, T.ElemRef, T.PlaceRef, T.FnItem)):
                    yielded[side] = value
                if side not in in_registers and not isinstance(value.ty, T.FnItem):  # FnItem: nothing to carry
                    if side in yielded:
                        value = address_value(value)
                    if result_cell is None:
                        try:
                            with ir.InsertionPoint.at_block_begin(self.entry):
                                result_cell = new_cell(value.ty)
                        except TypeError:
                            raise err(loc, f"an `if`/`match` that yields a `{value.ty}` is not supported in device "
                                           "code; compute the value after the branch") from None
                    store_cell(result_cell, value)
            scf.YieldOp([])
    if in_registers:
        return branch_results.with_results(branch, probe["ty"], in_registers)
    if yielded and isinstance(probe["ty"], T.FnItem):
        return next(iter(yielded.values()))
    if yielded:
        only = list(yielded.values())
        if len(only) == 1 and _defined_outside(only[0].v, branch.operation):
            return only[0]  # the other branch diverged: nothing reads the result there
        return address_from(load_cell(result_cell), probe["ty"])
    if result_cell is None:
        return Val(T.UNIT, None)
    return load_cell(_retyped(result_cell, probe["ty"]))


def _pointer_space_union(a: T.Ty, b: T.Ty) -> T.Ty | None:
    """The type of one aggregate value from two branches whose pointers may point into different address
    spaces (those pointers become generic ones), or None when the types differ otherwise."""
    if isinstance(a, T.Ptr) and isinstance(b, T.Ptr) and a.elem == b.elem:
        return T.Ptr(a.elem, a.mutable and b.mutable, a.space if a.space == b.space else 0)
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.elems) == len(b.elems):
        parts = [_pointer_space_union(x, y) for x, y in zip(a.elems, b.elems)]
        return None if None in parts else T.Tuple(tuple(parts))
    if isinstance(a, T.OptionTy) and isinstance(b, T.OptionTy):
        inner = _pointer_space_union(a.inner, b.inner)
        return None if inner is None else T.OptionTy(inner)
    return a if a == b else None


def _retyped(cell: Cell, ty: T.Ty) -> Cell:
    """The same storage read as `ty` (a pointer cell holds an address whatever its address space)."""
    if cell.ty == ty:
        return cell
    if isinstance(ty, T.Tuple):
        return Cell(ty, [_retyped(c, t) for c, t in zip(cell.leaves, ty.elems)])
    if isinstance(ty, T.OptionTy):
        flag, payload = cell.leaves
        return Cell(ty, (flag, _retyped(payload, ty.inner)))
    return Cell(ty, cell.leaves, cell.prefix)


def address_value(value: Val) -> Val:
    """A pointer or reference into memory as its 64-bit address (to keep it in a local)."""
    ptr = value.v
    if isinstance(value.ty, T.ElemRef):
        ptr = simt.RefPtrOp.build(ptr, results=[T.Ptr(value.ty.elem, True, 1).mlir()])
    return Val(T.Int(64, False), simt.PtrToIntOp.build(ptr))


def address_from(address: Val, ty: T.Ty) -> Val:
    """The pointer or reference of type `ty` at a 64-bit address (the inverse of address_value); an element
    reference comes back as the equivalent reference into memory."""
    if isinstance(ty, T.ElemRef):
        ty = T.PlaceRef(ty.elem, True, 1)
    return Val(ty, pointer_at(address.v, ty))


def _defined_outside(value: ir.Value, op: ir.Operation) -> bool:
    """Whether `value` is defined outside `op` (so it dominates both of op's regions)."""
    owner = value.owner
    node = owner.owner if isinstance(owner, ir.Block) else owner
    node = node.operation if hasattr(node, "operation") else node
    while node is not None:
        if node == op:
            return False
        node = node.parent
    return True


def e_If(self, e: ast.If, expected: T.Ty | None) -> Val:
    if isinstance(e.cond, ast.LetChain):
        return if_let_chain(self, e, expected)
    if isinstance(e.cond, ast.LetCond):
        return if_let(self, e, expected)
    cond = self.coerce(self.expr(e.cond, T.BOOL), T.BOOL, e.cond.loc)
    if e.else_ is None:
        branch = scf.IfOp(cond.v)
        with ir.InsertionPoint(branch.then_block):
            self.block(e.then)
            scf.YieldOp([])
        return Val(T.UNIT, None)
    return value_if(self, cond.v, lambda: self.block(e.then, expected),
                    lambda hint: self.expr(e.else_, expected or hint), e.loc)


def match_pattern(self, pattern: Any, value: Val) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """(does `value` match, the bindings it makes) for a refutable pattern."""
    if isinstance(pattern, ast.RefPat):
        return match_pattern(self, pattern.inner, referent(self, value))
    if isinstance(value.ty, T.LocalRef) and not isinstance(pattern, (ast.WildPat, ast.BindPat)):
        return _match_in_place(self, pattern, value.v, value.ty.mutable)
    if isinstance(pattern, ast.WildPat):
        return i1(True), []
    if isinstance(pattern, ast.BindPat):
        return i1(True), [(pattern, value)]
    if isinstance(pattern, ast.VariantPat):
        name = pattern.path[-1]
        if isinstance(value.ty, T.ResultTy) and name in ("Ok", "Err") and len(pattern.elems) == 1:
            ok, binds = match_pattern(self, pattern.elems[0], value.v.payload)
            holds = value.v.is_some if name == "Ok" else arith.xori(value.v.is_some, i1(True))
            return arith.andi(holds, ok), binds
        if isinstance(value.ty, T.OptionTy):
            if name == "Some" and len(pattern.elems) == 1:
                ok, binds = match_pattern(self, pattern.elems[0], value.v.payload)
                return arith.andi(value.v.is_some, ok), binds
            if name == "None" and not pattern.elems:
                return arith.xori(value.v.is_some, i1(True)), []
        if isinstance(value.ty, T.DataEnum):
            found = value.ty.variant(name)
            if found is None:
                raise err(pattern.loc, f"no variant `{name}` in enum `{value.ty}`")
            position, discriminant, payload = found
            pattern = ast.VariantPat(pattern.loc, pattern.path, expand_rest(pattern.elems, len(payload.elems)))
            if len(pattern.elems) != len(payload.elems):
                raise err(pattern.loc, f"this pattern has {len(pattern.elems)} field(s), but `{name}` has "
                                       f"{len(payload.elems)}")
            i32 = ir.IntegerType.get_signless(32)
            ok = arith.cmpi(arith.CmpIPredicate.eq, value.v[0].v,
                            arith.constant(i32, ir.IntegerAttr.get(i32, discriminant)))
            binds = []
            for sub, part in zip(pattern.elems, value.v[position].v):
                sub_ok, sub_binds = match_pattern(self, sub, part)
                ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
            return ok, binds
        if isinstance(value.ty, T.Struct) and value.ty.name.split("<")[0] == name \
                and len(pattern.elems) == len(value.ty.fields):
            ok, binds = i1(True), []
            for sub, part in zip(pattern.elems, value.v):  # `Pair(a, b)` of a tuple struct
                sub_ok, sub_binds = match_pattern(self, sub, part)
                ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
            return ok, binds
        if isinstance(value.ty, T.Enum):
            for variant, discriminant in value.ty.variants:
                if variant == name:
                    d = arith.constant(value.ty.mlir(), ir.IntegerAttr.get(value.ty.mlir(), discriminant))
                    return arith.cmpi(arith.CmpIPredicate.eq, value.v, d), []
        raise err(pattern.loc, f"the pattern `{'::'.join(pattern.path)}` cannot match a value of type `{value.ty}`")
    if isinstance(pattern, ast.LitPat):
        if isinstance(value.ty, T.Bool):
            lit = i1(bool(pattern.value))
            return arith.cmpi(arith.CmpIPredicate.eq, value.v, lit), []
        if not isinstance(value.ty, T.Int):
            raise err(pattern.loc, f"an integer pattern cannot match a value of type `{value.ty}`")
        ty: T.Int = value.ty
        low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)

        def const(x: int) -> ir.Value:
            # A pattern that cannot fit the scrutinee would otherwise wrap and match some other value.
            if not low <= x <= high:
                raise err(pattern.loc, f"literal out of range for `{ty}`: the pattern's {x} is outside "
                                       f"{low}..={high}, the values of the matched `{ty}`")
            return arith.constant(ty.mlir(), int_attr(ty.mlir(), x))
        if pattern.upper is None:
            return arith.cmpi(arith.CmpIPredicate.eq, value.v, const(pattern.value)), []
        ge, le = ("sge", "sle") if value.ty.signed else ("uge", "ule")
        return arith.andi(arith.cmpi(getattr(arith.CmpIPredicate, ge), value.v, const(pattern.value)),
                          arith.cmpi(getattr(arith.CmpIPredicate, le), value.v, const(pattern.upper))), []
    if isinstance(pattern, ast.OrPat):
        ok = i1(False)
        for alternative in pattern.alternatives:
            sub, binds = match_pattern(self, alternative, value)
            if binds:
                raise err(alternative.loc, "bindings inside `|` patterns are not supported")
            ok = arith.ori(ok, sub)
        return ok, []
    if isinstance(pattern, ast.TuplePat) and isinstance(value.ty, T.Tuple):
        ok, binds = i1(True), []
        for sub, part in zip(expand_rest(pattern.elems, len(value.ty.elems)), value.v):
            sub_ok, sub_binds = match_pattern(self, sub, part)
            ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
        return ok, binds
    raise err(pattern.loc, f"this pattern cannot match a value of type `{value.ty}`")


def expand_rest(elems: list[Any], count: int) -> list[Any]:
    """Sub-patterns with a `..` replaced by as many `_` as the fields it stands for."""
    rest = [i for i, p in enumerate(elems) if isinstance(p, ast.RestPat)]
    if not rest:
        return elems
    i = rest[0]
    filler = [ast.WildPat(elems[i].loc) for _ in range(max(count - (len(elems) - 1), 0))]
    return elems[:i] + filler + elems[i + 1:]


def referent(self, value: Val) -> Val:
    """What a reference refers to, read (a `&T` of a Copy value is already the value)."""
    from oxide.frontends.simt.places import load_place, reference_place

    if isinstance(value.ty, T.LocalRef):
        return load_cell(value.v)
    place = reference_place(value)
    if place is not None:
        return load_place(self, place)
    if isinstance(value.ty, T.ElemRef):
        return Val(value.ty.elem, simt.RefLoadOp.build(value.v))
    return value


def _match_in_place(self, pattern: Any, cell: Cell, mutable: bool) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """Match through `&mut local` / `&local`: the names a pattern binds refer to the local's parts, in place
    (`if let Slot::Occupied(v) = &mut slot { *v = 1.0; }` writes `slot`)."""
    if isinstance(pattern, ast.BindPat):
        return i1(True), [(pattern, Val(T.LocalRef(cell.ty, mutable), cell))]
    if isinstance(pattern, ast.WildPat):
        return i1(True), []
    parts: list[tuple[Any, Cell]] | None = None
    ok = i1(True)
    if isinstance(pattern, ast.TuplePat) and isinstance(cell.ty, T.Tuple) and len(pattern.elems) == len(cell.leaves):
        parts = list(zip(pattern.elems, cell.leaves))
    elif isinstance(pattern, ast.VariantPat) and isinstance(cell.ty, T.DataEnum):
        found = cell.ty.variant(pattern.path[-1])
        elems = expand_rest(pattern.elems, len(found[2].elems)) if found is not None else []
        if found is not None and len(found[2].elems) == len(elems):
            pattern = ast.VariantPat(pattern.loc, pattern.path, elems)
            position, discriminant, _ = found
            i32 = ir.IntegerType.get_signless(32)
            ok = arith.cmpi(arith.CmpIPredicate.eq, load_cell(cell.leaves[0]).v,
                            arith.constant(i32, ir.IntegerAttr.get(i32, discriminant)))
            parts = list(zip(pattern.elems, cell.leaves[position].leaves))
    elif isinstance(pattern, ast.VariantPat) and isinstance(cell.ty, T.OptionTy) and pattern.path[-1] == "Some" \
            and len(pattern.elems) == 1:
        flag, payload = cell.leaves
        ok, parts = load_cell(flag).v, [(pattern.elems[0], payload)]
    if parts is None:
        return match_pattern(self, pattern, load_cell(cell))  # literals, `None`, fieldless variants: by value
    binds: list[tuple[Any, Val]] = []
    for sub, sub_cell in parts:
        sub_ok, sub_binds = _match_in_place(self, sub, sub_cell, mutable)
        ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
    return ok, binds


def if_let_chain(self, e: ast.If, expected: T.Ty | None) -> Val:
    """`if let P = v && c && let Q = w { } else { }`: the conditions in order, short-circuiting, each
    seeing the bindings before it; the else branch runs when any fails."""
    with ir.InsertionPoint.at_block_begin(self.entry):
        matched = new_cell(T.BOOL)
    store_cell(matched, Val(T.BOOL, i1(False)))

    def step(i: int) -> None:
        if i == len(e.cond.parts):
            store_cell(matched, Val(T.BOOL, i1(True)))
            self.block(e.then, expected)
            return
        part = e.cond.parts[i]
        if isinstance(part, ast.LetCond):
            value = self.expr(part.value)
            ok, binds = match_pattern(self, part.pattern, value)
        else:
            ok, binds = self.coerce(self.expr(part, T.BOOL), T.BOOL, part.loc).v, []
        branch = scf.IfOp(ok)
        with ir.InsertionPoint(branch.then_block):
            self.push()
            try:
                for pattern, bound in binds:
                    self.bind_pattern(pattern, bound)
                step(i + 1)
            finally:
                self.pop()
            scf.YieldOp([])

    step(0)
    if e.else_ is not None:
        otherwise = scf.IfOp(arith.xori(load_cell(matched).v, i1(True)))
        with ir.InsertionPoint(otherwise.then_block):
            self.expr(e.else_, expected)
            scf.YieldOp([])
    return Val(T.UNIT, None)


def if_let(self, e: ast.If, expected: T.Ty | None) -> Val:
    value = self.expr(e.cond.value)
    ok, binds = match_pattern(self, e.cond.pattern, value)

    def then() -> Val:
        self.push()
        try:
            for pattern, bound in binds:
                self.bind_pattern(pattern, bound)
            return self.block(e.then, expected)
        finally:
            self.pop()

    if e.else_ is None:
        branch = scf.IfOp(ok)
        with ir.InsertionPoint(branch.then_block):
            then()
            scf.YieldOp([])
        return Val(T.UNIT, None)
    return value_if(self, ok, then, lambda hint: self.expr(e.else_, expected or hint), e.loc)


def e_Match(self, e: ast.Match, expected: T.Ty | None) -> Val:
    scrutinee = self.expr(e.scrutinee)
    arms = list(e.arms)

    def chain(i: int, hint: T.Ty | None = None) -> Val:
        # `hint`: the type an earlier arm produced, for unsuffixed literals in later arms (`C => 999`).
        if i == len(arms):
            # Rust proves matches exhaustive; here a value no arm matched cannot occur, so trap.
            simt.TrapOp.build()
            return Val(T.NEVER, None)
        arm = arms[i]
        ok, binds = match_pattern(self, arm.pattern, scrutinee)

        def body() -> Val:
            self.push()
            try:
                for pattern, bound in binds:
                    self.bind_pattern(pattern, bound)
                return self.expr(arm.body, expected or hint)
            finally:
                self.pop()

        if arm.guard is not None:
            self.push()
            for pattern, bound in binds:
                self.bind_pattern(pattern, bound)
            guard_ok = arith.andi(ok, guarded(self, ok, arm.guard))
            self.pop()
            ok = guard_ok
        if isinstance(arm.pattern, (ast.WildPat, ast.BindPat)) and arm.guard is None:
            return body()
        return value_if(self, ok, body, lambda then_ty: chain(i + 1, hint or then_ty), arm.loc)

    return chain(0)


def guarded(self, ok: ir.Value, guard: ast.Expr) -> ir.Value:
    branch = scf.IfOp(ok, [ir.IntegerType.get_signless(1)], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp([self.coerce(self.expr(guard, T.BOOL), T.BOOL, guard.loc).v])
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp([i1(False)])
    return branch.results[0]


def placeholder_or_unit(ty: T.Ty | None) -> Val:
    if ty is None or isinstance(ty, T.Unit):
        return Val(T.UNIT, None)
    return placeholder(ty)


def e_Range(self, e: ast.Range, expected: T.Ty | None) -> Val:
    """`a..b` as a value: a `core::ops::Range<T>` (its `start` and `end` fields)."""
    if e.start is None or e.end is None or e.inclusive:
        raise err(e.loc, "a range value other than `a..b` (e.g. `a..`, `a..=b`) is not supported in device code; "
                         "use it in a `for` loop or a subslice")
    hint = expected.fields[0][1] if isinstance(expected, T.Struct) and expected.name.startswith("Range<") else None
    start, end = operands(self, e.start, e.end, hint)
    ty = unify(self, start, end, e.loc, "a range")
    return Val(range_type(ty), [self.coerce(start, ty, e.start.loc), self.coerce(end, ty, e.end.loc)])


def range_type(elem: T.Ty) -> T.Struct:
    """`core::ops::Range<elem>`."""
    return T.Struct(f"Range<{elem.rust()}>", (("start", elem), ("end", elem)))


# Aggregates -----------------------------------------------------------------------------------------------
def e_Tuple(self, e: ast.Tuple, expected: T.Ty | None) -> Val:
    if not e.elems:
        return Val(T.UNIT, None)
    hints = expected.elems if isinstance(expected, T.Tuple) and len(expected.elems) == len(e.elems) else [None] * len(e.elems)
    parts = [self.expr(x, h) for x, h in zip(e.elems, hints)]
    return Val(T.Tuple(tuple(p.ty for p in parts)), parts)


# A thread's local memory (where arrays that do not fit in registers live) holds at most 512 KiB on every
# supported chip; a larger array cannot be launched.
MAX_LOCAL_BYTES = 512 * 1024


def _check_local_array_size(elem: T.Ty, count: int, loc: Any) -> None:
    """A located error for `[x; count]` larger than a thread's local memory (checked before anything of that
    size is built)."""
    try:
        size = T.layout(elem)[0] * count
    except (AttributeError, TypeError):
        return  # an element type with no memory layout: refused where it is stored
    if size > MAX_LOCAL_BYTES:
        raise err(loc, f"`[{elem}; {count}]` takes {size:,} bytes, and a thread's local memory holds at most "
                       f"{MAX_LOCAL_BYTES:,}; put large data in shared memory or a buffer parameter")


def e_ArrayLit(self, e: ast.ArrayLit, expected: T.Ty | None) -> Val:
    elem_hint = expected.elem if isinstance(expected, T.Array) else None
    if e.repeat is not None:
        count = self.length_arg(e.repeat)
        first = self.expr(e.elems[0], elem_hint)
        _check_local_array_size(first.ty, count, e.loc)
        values = [first] * count
    else:
        values = [self.expr(e.elems[0], elem_hint)] if e.elems else []
        values += [self.coerce(self.expr(x, values[0].ty), values[0].ty, x.loc) for x in e.elems[1:]]
    if e.repeat is not None:
        elem = first.ty  # `[x; 0]` still evaluates x (Rust drops it): its type is the element type
    elif values:
        elem = values[0].ty
    elif elem_hint is not None:
        elem = elem_hint
    else:
        raise err(e.loc, "cannot infer the element type of an empty array; give it a type, "
                         "as in `let a: [u32; 0] = [];`")
    ty = T.Array(elem, len(values))
    try:
        with ir.InsertionPoint.at_block_begin(self.entry):
            view = ArrayView(new_cell(ty).leaves)
    except TypeError:
        raise err(e.loc, f"arrays of `{elem}` are not supported in device code yet") from None
    if e.repeat is not None:
        loop = scf.ForOp(index(0), index(len(values)), index(1))
        with ir.InsertionPoint(loop.body):
            array_store(first, view, loop.induction_variable, elem)
            scf.YieldOp([])
    else:
        for i, v in enumerate(values):
            array_store(v, view, index(i), elem)
    return Val(ty, view)


def e_StructLit(self, e: ast.StructLit, expected: T.Ty | None) -> Val:
    name = e.name[-1]
    struct = self.crate.struct(name)
    if struct is None:
        raise unknown_type(self.crate, e.loc, name, "struct")
    ty = self.struct_type(struct, []) if not struct.generics else None
    given = dict(e.fields)
    if ty is None:
        # Generic struct: infer its parameters from the field values; fields whose declared type names no
        # parameter give their type to literals (`offset: 1` of an `offset: u32` field).
        from oxide.frontends.simt.device_api import _mentions, unify_generics

        declared = dict(struct.fields)
        generic_names = {g.name for g in struct.generics}
        values = {n: self.expr(x, None if n not in declared or _mentions(declared[n], generic_names)
                               else self.resolve_type(declared[n]))
                  for n, x in e.fields}
        bindings: dict[str, T.Ty] = {}
        for field_name, field_ty in struct.fields:
            if field_name in values:  # `pieces: [lhs, ..]` of a `pieces: [T; 4]` field binds `T` too
                unify_generics(self, field_ty, values[field_name].ty, generic_names, bindings)
        ty = self.struct_type(struct, [bindings.get(g.name, T.F32) for g in struct.generics])
        parts = []
        for field_name, field_ty in ty.fields:
            if field_name not in values:
                raise err(e.loc, f"missing field `{field_name}` in initializer of `{ty}`")
            parts.append(self.coerce(values[field_name], field_ty, given[field_name].loc))
        return Val(ty, parts)
    parts = []
    for field_name, field_ty in ty.fields:
        if field_name not in given:
            raise err(e.loc, f"missing field `{field_name}` in initializer of `{ty}`")
        parts.append(self.coerce(self.expr(given[field_name], field_ty), field_ty, given[field_name].loc))
    extra = set(given) - {n for n, _ in ty.fields}
    if extra:
        raise err(e.loc, f"struct `{ty}` has no field named `{sorted(extra)[0]}`")
    return Val(ty, parts)


# Calls ----------------------------------------------------------------------------------------------------
def e_Call(self, e: ast.Call, expected: T.Ty | None) -> Val:
    from oxide.frontends.simt.device_api import call_path

    if not isinstance(e.func, ast.PathExpr):
        callee = self.expr(e.func)  # `(self.f)(x)`, `(table[i])(x)`: a closure or function item value
        if isinstance(callee.ty, T.Closure):
            return self.call_closure(callee, e.args, e.loc)
        if isinstance(callee.ty, T.FnItem):
            return call_path(self, ast.PathExpr(e.func.loc, list(callee.ty.path), list(callee.v or [])), e.args,
                             expected, e.loc)
        raise err(e.loc, f"expected a function, found a value of type `{callee.ty}`")
    return call_path(self, e.func, e.args, expected, e.loc)


def e_MethodCall(self, e: ast.MethodCall, expected: T.Ty | None) -> Val:
    from oxide.frontends.simt.device_api import call_method

    return call_method(self, e, expected)


def e_MacroCall(self, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    from oxide.frontends.simt.device_api import macro

    return macro(self, e, expected)


# Closures -------------------------------------------------------------------------------------------------
def e_Closure(self, e: ast.Closure, expected: T.Ty | None) -> Val:
    """A closure value: its AST and the scopes it captures (by reference: the same bindings)."""
    return Val(T.Closure(id(e)), (e, list(self.scopes), self.generics[-1]))


def call_closure(self, closure: Val, args: list[ast.Expr], loc: Any) -> Val:
    """Inline a closure's body with its parameters bound, in the scopes it was created in."""
    node, scopes, generics = closure.v
    if len(args) != len(node.params):
        raise err(loc, f"this closure takes {len(node.params)} argument(s) but {len(args)} were supplied")
    values = []
    for p, a in zip(node.params, args):
        want = self.resolve_type(p.ty) if p.ty is not None else None
        v = self.expr(a, want)
        values.append(self.coerce(v, want, a.loc) if want is not None else v)
    outer_scopes, self.scopes = self.scopes, scopes + [self.scopes[0].__class__()]
    self.generics.append(generics)
    try:
        for p, v in zip(node.params, values):
            self.bind_pattern(p.pattern, v)
        return self.expr(node.body)
    finally:
        self.generics.pop()
        self.scopes = outer_scopes
