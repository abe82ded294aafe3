"""Options and results: `Some(x)`, an Option's `is_some`, `is_none`, `unwrap`, `expect`,
`unwrap_or_default`, `copied`, `map_or`, `map` and `unwrap_or`; a Result's `is_ok`, `is_err`, `unwrap`,
`expect` and `unwrap_err` (a Result has the Option's (flag, value) shape); and a bool's `then_some(v)` /
`then(|| v)`."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls import matrix_views
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_fn, device_method, qualifier
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.simt.expressions.branch_values import value_if
from oxide.frontends.simt.expressions.placeholders import placeholder, placeholder_or_unit
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_RESULT_AS_OPTION = {"is_ok": "is_some", "is_err": "is_none", "unwrap": "unwrap", "expect": "expect"}


@device_fn("Some", when=lambda em, segs, *_: qualifier(segs) is None)
def _some(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    if len(args) != 1:
        raise err(loc, "`Some` takes one value")
    inner_hint = expected.inner if isinstance(expected, T.OptionTy) else None
    value = em.expr(args[0], inner_hint)
    return Val(T.OptionTy(value.ty), OptionVal(i1(True), value))


def _no_method(recv: Val, name: str, loc: Any) -> Exception:
    return err(loc, f"no method named `{name}` found for `{recv.ty}`")


@device_method(T.OptionTy, "is_some", "is_none", "unwrap", "expect", "copied")
def _flag(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    opt: OptionVal = recv.v
    if name == "is_some":
        return Val(T.BOOL, opt.is_some)
    if name == "is_none":
        return Val(T.BOOL, arith.xori(opt.is_some, i1(True)))
    if name == "copied":
        return recv
    em.trap_unless(opt.is_some)  # unwrap / expect
    return opt.payload


@device_method(T.OptionTy, "unwrap_or_default")
def _unwrap_or_default(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                       expected: T.Ty | None) -> Val:
    opt: OptionVal = recv.v
    if not isinstance(opt.payload.ty, (T.Int, T.Float, T.Bool)):
        raise _no_method(recv, name, loc)
    return Val(opt.payload.ty, arith.select(opt.is_some, opt.payload.v, placeholder(opt.payload.ty).v))


@device_method(T.OptionTy, "map_or")
def _map_or(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
            expected: T.Ty | None) -> Val:
    opt: OptionVal = recv.v
    if len(args) != 2:
        raise _no_method(recv, name, loc)
    f = em.expr(args[1])
    if not isinstance(f.ty, T.Closure):
        raise err(args[1].loc, "`map_or` takes a closure as its second argument")
    # The closure runs on the placeholder too when None; its result is then discarded by the select.
    em.bind("__map_or_payload", opt.payload)
    mapped = em.call_closure(f, [ast.PathExpr(loc, ["__map_or_payload"])], loc)
    default = em.coerce(em.expr(args[0], mapped.ty), mapped.ty, args[0].loc)
    if not isinstance(mapped.v, ir.Value):
        raise _no_method(recv, name, loc)
    return Val(default.ty, arith.select(opt.is_some, mapped.v, default.v))


@device_method(T.OptionTy, "map")
def _map(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    """`opt.map(f)`: f runs only when the option is Some (it may write memory); the result is Some(f(x))."""
    opt: OptionVal = recv.v
    if len(args) != 1:
        raise _no_method(recv, name, loc)
    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`map` takes a closure")
    em.bind("__map_payload", opt.payload)
    mapped = value_if(em, opt.is_some, lambda: em.call_closure(f, [ast.PathExpr(loc, ["__map_payload"])], loc),
                      lambda hint: placeholder_or_unit(hint), loc)
    return Val(T.OptionTy(mapped.ty), OptionVal(opt.is_some, mapped))


@device_method(T.OptionTy, "unwrap_or")
def _unwrap_or(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    opt: OptionVal = recv.v
    if len(args) != 1:
        raise _no_method(recv, name, loc)
    if isinstance(opt.payload.ty, matrix_views.LineViewTy):
        return matrix_views.unwrap_or(em, recv, args[0], loc)
    other = em.coerce(em.expr(args[0], opt.payload.ty), opt.payload.ty, args[0].loc)
    if not isinstance(other.v, ir.Value):
        raise _no_method(recv, name, loc)
    return Val(other.ty, arith.select(opt.is_some, opt.payload.v, other.v))


@device_method(T.OptionTy, OTHER)
def _other(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
           expected: T.Ty | None) -> Val:
    raise _no_method(recv, name, loc)


@device_method(T.ResultTy, "unwrap_err")
def _unwrap_err(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                expected: T.Ty | None) -> Val:
    em.trap_unless(arith.xori(recv.v.is_some, i1(True)))
    return recv.v.payload


@device_method(T.ResultTy, *_RESULT_AS_OPTION)
def _result_flag(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    # (is_ok, value) has the Option shape: is_ok/unwrap are is_some/unwrap of it.
    return _flag(em, recv, _RESULT_AS_OPTION[name], args, generics, loc, expected)


@device_method(T.Bool, "then", "then_some", when=lambda em, recv, name, args, *_: len(args) == 1)
def _bool_then(em: Emitter, flag: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    """`b.then_some(v)` (v is computed either way) and `b.then(|| v)` (the closure runs only when b)."""
    if name == "then_some":
        value = em.expr(args[0])
    else:
        f = em.expr(args[0])
        if not isinstance(f.ty, T.Closure):
            raise err(args[0].loc, "`then` takes a closure")
        value = value_if(em, flag.v, lambda: em.call_closure(f, [], loc), placeholder_or_unit, loc)
    return Val(T.OptionTy(value.ty), OptionVal(flag.v, value))
