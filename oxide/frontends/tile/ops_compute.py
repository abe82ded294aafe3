"""cutile-rs computation on tiles: elementwise function forms, math, comparisons and select, reductions
and scans (also with combining closures), mma, conversions.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, math

from oxide.dialects import tile
from oxide.dialects.tile.dialect import FTZ_ATTR
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile import values as vals
from oxide.frontends.tile.ops import (
    arg_loc, check_arity, const_int_arg, literal_elem, named_elem, tile_arg, without_markers,
)
from oxide.frontends.tile.registry import TileEmitter, function
from oxide.frontends.tile.types import (
    BOOL, ClosureT, Flex, MarkerT, Scalar, TileT, V, rust_name,
)
from oxide.frontends.tile.values import coerce, concrete, scalar_const


# Elementwise ---------------------------------------------------------------------------------------------
_BINARY_FORMS = {"addf": "+", "addi": "+", "subf": "-", "subi": "-", "mulf": "*", "muli": "*", "divf": "/",
                 "divi": "/", "true_div": "/", "remf": "%", "remi": "%", "andi": "&", "ori": "|", "xori": "^",
                 "shli": "<<", "shri": ">>"}


@function(*_BINARY_FORMS)
def _binary_form(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    approximate = name in ("divf", "true_div") and _has_marker(args, "rounding::Approx")
    args = without_markers(args)
    check_arity(e, args, 2, name, f"{name}(a, b)")
    a, b = args
    if isinstance(a.ty, Flex) and isinstance(b.ty, Flex):
        a = coerce(a, literal_elem(a, expected), e.loc)
    out = em.binary(_BINARY_FORMS[name], a, b, e.loc)
    _check_family(e, name, out.ty)
    if approximate:
        _allow_approximation(out.value)
    return out


def _has_marker(args: list[V], marker: str) -> bool:
    """Whether the call passes marker `marker` (`rounding::Approx`, `ftz::Enabled`: the two that change the code).
    The other markers are dropped: oxide rounds to nearest, which is also within `rounding::Full`'s bound."""
    return any(isinstance(a.ty, MarkerT) and a.const == marker for a in args)


def _allow_approximation(value: ir.Value) -> None:
    """Let the division or square root that computes `value` be approximated (`afn`): f32 division becomes PTX
    `div.approx.f32` (within 2 ulp for divisors of magnitude 2^-126 to 2^126) instead of the IEEE-rounded
    `div.rn.f32`, and square root `sqrt.approx.f32` instead of `sqrt.rn.f32` (tile_to_simt/scalar_ops.py)."""
    value.owner.attributes["fastmath"] = ir.Attribute.parse("#arith.fastmath<afn>")


def _no_fp8(e: Any, args: list[V], name: str) -> None:
    """Computation refuses fp8 tiles (they are only moved, converted and multiplied by mma)."""
    for v in args:
        vals.refuse_fp8(v.ty, f"`{name}`", e.loc)


def _check_family(e: Any, name: str, ty: Any) -> None:
    """`addf`, `negf`, `true_div`, ... take floats; `addi`, `negi`, `noti`, ... take integers (or bools)."""
    elem = vals.elem_kind(ty)
    if name.endswith("f") or name == "true_div":
        if not elem.is_float:
            raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(ty)}`")
    elif elem.is_float:
        raise err(e.loc, f"`{name}` is for integer tiles; found `{rust_name(ty)}`")


def _same(e: Any, args: list[V], name: str) -> tuple[Any, list[V]]:
    """Operands of one scalar or tile type (Flex literals take the others' type)."""
    concrete_ty = next((a.ty for a in args if not isinstance(a.ty, Flex)), None)
    if concrete_ty is None:
        args = [concrete(a) for a in args]
        concrete_ty = args[0].ty
    out = []
    for i, a in enumerate(args):
        if isinstance(a.ty, Flex) and isinstance(concrete_ty, Scalar):
            a = coerce(a, concrete_ty, arg_loc(e, i))
        if a.ty != concrete_ty:
            hint = " (broadcast the scalar to a tile first)" if isinstance(concrete_ty, TileT) else ""
            raise err(arg_loc(e, i), f"`{name}` takes operands of one type: `{rust_name(concrete_ty)}` and "
                                     f"`{rust_name(a.ty)}`{hint}")
        out.append(a)
    if vals.elem_kind(concrete_ty) is None:
        raise err(e.loc, f"`{name}` takes scalars or tiles, found `{rust_name(concrete_ty)}`")
    return concrete_ty, out


@function("max_tile", "min_tile", "maxf", "minf", "maxi", "mini", "max", "min")
def _max_min(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    args = without_markers(args)
    check_arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    is_max = name.startswith("max")
    if elem.is_float:
        fn = arith.maximumf if is_max else arith.minimumf
    elif elem.is_bool:
        raise err(e.loc, f"`{name}` of booleans")
    else:
        fn = {(True, True): arith.maxsi, (True, False): arith.maxui, (False, True): arith.minsi,
              (False, False): arith.minui}[(is_max, elem.signed)]
    if name in ("maxf", "minf") and not elem.is_float or name in ("maxi", "mini") and not elem.is_int:
        raise err(e.loc, f"`{name}` does not take `{rust_name(ty)}`")
    return V(ty, fn(a.value, b.value))


_UNARY_MATH = {"exp": math.exp, "exp2": math.exp2, "log": math.log, "log2": math.log2, "sqrt": math.sqrt,
               "rsqrt": math.rsqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "sinh": math.sinh,
               "cosh": math.cosh, "tanh": math.tanh, "ceil": math.ceil, "floor": math.floor, "absf": math.absf}


@function(*_UNARY_MATH, "absi", "abs", "negf", "negi", "noti")
def _unary(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    approximate = name == "sqrt" and _has_marker(args, "rounding::Approx")
    flush = name == "exp2" and _has_marker(args, "ftz::Enabled")
    args = without_markers(args)
    check_arity(e, args, 1, name, f"{name}(x)")
    ty, (x,) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    if name in ("negf", "negi", "noti"):
        _check_family(e, name, ty)
        op = "!" if name == "noti" else "-"
        return em.binary("-" if op == "-" else "^", *_unary_operands(x, elem, op), e.loc)
    if name == "abs":
        name = "absf" if elem.is_float else "absi"
    if name == "absi":
        if not elem.is_int:
            raise err(e.loc, f"`absi` is for integer tiles; found `{rust_name(ty)}`")
        return V(ty, math.absi(x.value))
    if not elem.is_float:
        raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(ty)}` (convert it with `convert_tile`)")
    out = V(ty, _UNARY_MATH[name](x.value))
    if approximate:
        _allow_approximation(out.value)
    if flush:
        out.value.owner.attributes[FTZ_ATTR] = ir.UnitAttr.get()
    return out


def _unary_operands(x: V, elem: Scalar, op: str) -> tuple[V, V]:
    """`-x` as `0 - x`, `!x` as `x ^ all-ones`, at x's type."""
    if op == "-":
        zero = vals.tile_const(0, x.ty) if isinstance(x.ty, TileT) else scalar_const(0, elem)
        return zero, x
    ones = vals.tile_const(1 if elem.is_bool else -1, x.ty) if isinstance(x.ty, TileT) \
        else scalar_const(True if elem.is_bool else -1, elem)
    return x, ones


@function("fma")
def _fma(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    args = without_markers(args)
    check_arity(e, args, 3, name, "fma(a, b, c)")
    ty, (a, b, c) = _same(e, args, name)
    if not vals.elem_kind(ty).is_float:
        raise err(e.loc, f"`fma` is for float tiles; found `{rust_name(ty)}`")
    return V(ty, math.fma(a.value, b.value, c.value))


@function("pow", "atan2")
def _pow(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    args = without_markers(args)
    check_arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    if not vals.elem_kind(ty).is_float:
        raise err(e.loc, f"`{name}` is for float tiles; found `{rust_name(ty)}`")
    return V(ty, (math.powf if name == "pow" else math.atan2)(a.value, b.value))


_COMPARE_FORMS = {"eq_tile": "==", "ne_tile": "!=", "gt_tile": ">", "ge_tile": ">=", "lt_tile": "<", "le_tile": "<="}


@function(*_COMPARE_FORMS)
def _compare(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    args = without_markers(args)
    check_arity(e, args, 2, name, f"{name}(a, b)")
    ty, (a, b) = _same(e, args, name)
    elem = vals.elem_kind(ty)
    value = vals.arith_binary(_COMPARE_FORMS[name], a.value, b.value, elem, e.loc, rust_name(ty))
    return V(TileT(BOOL, ty.shape) if isinstance(ty, TileT) else BOOL, value)


@function("select")
def _select(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    check_arity(e, args, 3, name, "select(cond, a, b)")
    ty, (a, b) = _same(e, args[1:], name)
    cond = args[0]
    want = TileT(BOOL, ty.shape) if isinstance(ty, TileT) else BOOL
    if cond.ty != want:
        raise err(arg_loc(e, 0), f"`select`'s condition must be `{rust_name(want)}` (the operands' shape, of bool), "
                                 f"found `{rust_name(cond.ty)}`")
    return V(ty, arith.select(cond.value, a.value, b.value))


@function("ceil_div")
def _ceil_div(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 2, name, "ceil_div(a, b)")
    ty, (a, b) = _same(e, args, name)
    if not isinstance(ty, Scalar) or not ty.is_int:
        raise err(e.loc, "`ceil_div` takes two integers")
    one = scalar_const(1, ty)
    return em.binary("/", em.binary("-", em.binary("+", a, b, e.loc), one, e.loc), b, e.loc)


# Reductions, scans, mma ----------------------------------------------------------------------------------
@function("reduce_sum", "reduce_max", "reduce_min", "reduce_prod")
def _reduce(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    args = without_markers(args)
    check_arity(e, args, 2, name, f"{name}(t, dim)")
    ty = tile_arg(e, args[0], 0, "the reduced value")
    dim = const_int_arg(e, args[1], 1, "the dimension")
    if not 0 <= dim < len(ty.shape):
        raise err(arg_loc(e, 1), f"dimension {dim} is out of range for a rank-{len(ty.shape)} tile")
    if ty.elem.is_bool:
        raise err(arg_loc(e, 0), "cannot reduce a tile of booleans")
    out = TileT(ty.elem, ty.shape[:dim] + ty.shape[dim + 1:])
    kind = name.split("_")[1]
    unsigned = ty.elem.is_int and not ty.elem.signed
    return V(out, tile.ReduceOp.build(args[0].value, dim=dim, kind=kind, unsigned=unsigned, results=[out.mlir()]))


@function("reduce")
def _reduce_closure(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    check_arity(e, args, 4, name, "reduce(t, dim, identity, |a, b| a + b)")
    kind = _closure_kind(e, args[3], 3)
    _check_identity(e, args[2], 2, kind)
    return _reduce(em, e, args[:2], expected, f"reduce_{kind}")


@function("scan")
def _scan_closure(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    check_arity(e, args, 5, name, "scan(t, dim, reverse::Forward, identity, |a, b| a + b)")
    kind = _closure_kind(e, args[4], 4)
    return _scan(em, e, args[:4], expected, f"scan_{kind}")


_MAX_NAMES = ("max", "maxf", "maxi", "max_tile")
_MIN_NAMES = ("min", "minf", "mini", "min_tile")


def _closure_kind(e: Any, v: V, i: int) -> str:
    """Which reduction a combining closure is: `|a, b| a + b` (sum), `a * b` (prod), `max(a, b)` /
    `a.max(b)` (max), `min(..)` (min)."""
    hint = "the combining closure must be `|a, b| a + b`, `a * b`, `max(a, b)` or `min(a, b)` (or `a.max(b)`)"
    closure = v.const
    if not isinstance(v.ty, ClosureT) or len(closure.params) != 2 or not all(
            isinstance(p.pattern, ast.BindPat) for p in closure.params):
        raise err(arg_loc(e, i), hint)
    names = {p.pattern.name for p in closure.params}
    body = closure.body
    while isinstance(body, ast.Block) and not body.stmts and body.tail is not None:
        body = body.tail

    def is_params(*operands: Any) -> bool:
        found = [o.segments[0] for o in operands if isinstance(o, ast.PathExpr) and len(o.segments) == 1]
        return len(found) == 2 and set(found) == names

    if isinstance(body, ast.Binary) and body.op in ("+", "*") and is_params(body.lhs, body.rhs):
        return "sum" if body.op == "+" else "prod"
    if isinstance(body, ast.Call) and isinstance(body.func, ast.PathExpr) and len(body.args) == 2 \
            and is_params(*body.args):
        callee = body.func.segments[-1]
    elif isinstance(body, ast.MethodCall) and len(body.args) == 1 and is_params(body.receiver, body.args[0]):
        callee = body.name
    else:
        raise err(arg_loc(e, i), hint)
    if callee in _MAX_NAMES or callee in _MIN_NAMES:
        return "max" if callee in _MAX_NAMES else "min"
    raise err(arg_loc(e, i), hint)


def _check_identity(e: Any, identity: V, i: int, kind: str) -> None:
    """A sum/prod identity argument must be 0/1 (max/min identities are not checked: -inf, MIN, ...)."""
    expected_identity = {"sum": 0, "prod": 1}.get(kind)
    if identity.const is None or expected_identity is not None and identity.const != expected_identity:
        raise err(arg_loc(e, i), f"the identity of a `{kind}` combination is {expected_identity}: oxide's reductions "
                                 f"and scans start from the identity")


@function("scan_sum", "scan_max", "scan_min", "scan_prod")
def _scan(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    _no_fp8(e, args, name)
    if len(args) not in (2, 3, 4):
        raise err(e.loc, f"`{name}` takes `(t, dim, reverse::Forward|Reverse, identity)`")
    ty = tile_arg(e, args[0], 0, "the scanned value")
    dim = const_int_arg(e, args[1], 1, "the dimension")
    if not 0 <= dim < len(ty.shape):
        raise err(arg_loc(e, 1), f"dimension {dim} is out of range for a rank-{len(ty.shape)} tile")
    if ty.elem.is_bool:
        raise err(arg_loc(e, 0), "cannot scan a tile of booleans")
    reverse = False
    if len(args) >= 3:
        marker = args[2]
        if not isinstance(marker.ty, MarkerT) or marker.const not in ("reverse::Forward", "reverse::Reverse"):
            raise err(arg_loc(e, 2), "the scan direction is `reverse::Forward` or `reverse::Reverse`")
        reverse = marker.const == "reverse::Reverse"
    if len(args) == 4:
        _check_identity(e, args[3], 3, name.split("_")[1])
    unsigned = ty.elem.is_int and not ty.elem.signed
    return V(ty, tile.ScanOp.build(args[0].value, dim=dim, kind=name.split("_")[1], reverse=reverse,
                                   unsigned=unsigned, results=[ty.mlir()]))


@function("mma", "mmaf")
def _mma(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 3, name, "mma(a, b, acc)")
    a, b, c = (tile_arg(e, v, i, w) for i, (v, w) in enumerate(zip(args, ("mma's a", "mma's b", "mma's accumulator"))))
    if len(a.shape) != 2 or len(b.shape) != 2 or len(c.shape) != 2 or a.shape[1] != b.shape[0] \
            or c.shape != (a.shape[0], b.shape[1]):
        raise err(e.loc, f"mma needs a: MxK, b: KxN, acc: MxN; got {list(a.shape)}, {list(b.shape)}, {list(c.shape)}")
    pairs = {("f16", "f32"), ("bf16", "f32"), ("f32", "f32"), ("tf32", "f32"), ("f16", "f16"),
             ("f8e4m3fn", "f32"), ("f8e5m2", "f32")}
    if a.elem != b.elem or (a.elem.name, c.elem.name) not in pairs:
        raise err(e.loc, f"mma does not take {a.elem.rust()} x {b.elem.rust()} -> {c.elem.rust()}; it takes f16/bf16 "
                         f"-> f32, f16 -> f16, tf32 or f32 -> f32 and f8e4m3fn or f8e5m2 (both the same) "
                         f"-> f32")
    if a.elem.is_fp8 and a.shape[1] % 32:
        raise err(e.loc, f"an fp8 mma needs K a multiple of 32 (the Tensor Cores' fp8 step); got K = "
                         f"{a.shape[1]}")
    result = tile.MmaOp.build(args[0].value, args[1].value, args[2].value)
    if a.elem.name == "tf32":
        # tf32 tiles are f32 in the IR; the attribute asks for tf32 products (f32 ones are f32-accurate).
        result.owner.attributes[tile.TF32_ATTR] = ir.UnitAttr.get()
    return V(c, result)


# Conversions ---------------------------------------------------------------------------------------------
_CONVERSION_KINDS = {"ftof": ("float", "float"), "ftoi": ("float", "int"), "itof": ("int", "float"),
                     "exti": ("int", "int"), "trunci": ("int", "int")}


@function("convert_tile", "convert_scalar", *_CONVERSION_KINDS)
def _convert(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    args = without_markers(args)
    check_arity(e, args, 1, name, f"{name}::<T>(x)")
    target = named_elem(em, e, expected)
    if target is None:
        raise err(e.loc, f"`{name}` needs its target type: `{name}::<f32>(x)` or a typed `let`")
    v = concrete(args[0])
    src = vals.elem_kind(v.ty)
    if src is None:
        raise err(arg_loc(e, 0), f"cannot convert `{rust_name(v.ty)}`")
    if name in _CONVERSION_KINDS:
        want_src, want_dst = _CONVERSION_KINDS[name]
        kind = lambda s: "float" if s.is_float else "int"  # noqa: E731
        if kind(src) != want_src or kind(target) != want_dst or name == "exti" and target.bits <= src.bits \
                or name == "trunci" and target.bits >= src.bits:
            raise err(e.loc, f"`{name}` does not convert `{src.rust()}` to `{target.rust()}`")
    return vals.convert(v, target, e.loc)


@function("bitcast")
def _bitcast(em: TileEmitter, e: Any, args: list[V], expected: Any, name: str) -> V:
    check_arity(e, args, 1, name, "bitcast::<T>(x)")
    target = named_elem(em, e, expected)
    v = concrete(args[0])
    src = vals.elem_kind(v.ty)
    if target is None or src is None or target.bits != src.bits or target.is_bool:
        raise err(e.loc, "`bitcast` reinterprets the bits of a tile as another element type of the same width: "
                         "`bitcast::<u32>(t)`")
    out = TileT(target, v.ty.shape) if isinstance(v.ty, TileT) else target
    if src.is_int and target.is_int:
        return V(out, v.value)
    return V(out, arith.bitcast(out.mlir(), v.value))
