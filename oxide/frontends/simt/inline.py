"""Inlining of the user's device functions and methods at their call sites: generic parameters bound from
the explicit arguments and the argument types, parameters bound to the argument values, `return` through a
frame. The emitter owns this; calls/ reaches it for calls of the user's own functions."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mlir import ir
from mlir.dialects import scf

from oxide.frontends.simt import safety
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.kernel_module import Retype
from oxide.frontends.syntax.errors import err
from oxide.frontends.structured import Frame, walk
from oxide.frontends.simt.values import Val, flag_cell, load_cell, new_cell, set_flag, store_cell

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def typed_args(em: FunctionEmitter, fn: ast.Function, args: list[ast.Expr], func: Any) -> list[Val]:
    """The arguments of a call of the user's `fn`, emitted with the parameter types as hints when those do not depend on generics."""
    names = {g.name for g in fn.generics}
    # Turbofish type arguments (`f::<f32>(0.0)`) are known before the arguments: they type literals too.
    explicit = getattr(func, "generics", None) or []
    given = {g.name: t for g, t in zip(fn.generics, explicit) if g.const_ty is None}
    out = []
    for i, a in enumerate(args):
        hint = None
        param_ty = _substitute(fn.params[i].ty, given) if i < len(fn.params) else None
        if param_ty is not None and not mentions(param_ty, names - set(given)):
            try:
                hint = em.resolve_type(param_ty)
            except Exception:  # a type only the callee's scope knows (Self): no hint
                hint = None
        out.append(em.expr(a, hint))
    return out


def mentions(t: Any, names: set[str]) -> bool:
    return any(isinstance(n, ast.PathTy) and n.name in names | {"Self"} for n in walk(t))


def _bind_generics(em: FunctionEmitter, fn: ast.Function, params: list[Any], args: list[Val], explicit: list[Any],
                   loc: Any) -> dict[str, Any]:
    names = [g.name for g in fn.generics]
    bindings: dict[str, Any] = {}
    for g, given in zip(fn.generics, explicit or []):
        bindings[g.name] = em.const_arg(given) if g.const_ty is not None else em.resolve_type(given)

    for p, a in zip(params, args):
        unify_generics(em, p.ty, a.ty, names, bindings)
    # A type parameter named only by the return type (`fn apply<F: FnOnce(T) -> R, R>(f: F) -> R`) is what
    # the body yields; inline_call binds it from the body's value.
    in_params = {n.name for p in params for n in walk(p.ty) if isinstance(n, ast.PathTy)}
    missing = [n for n in names if n not in bindings and (n in in_params or fn.ret is None
                                                          or not mentions(fn.ret, {n}) or _is_const(fn, n))]
    if missing:
        raise err(loc, f"cannot infer the generic parameter `{missing[0]}` of `{fn.name}`; "
                       f"write it: `{fn.name}::<...>(...)`")
    return bindings


def unify_generics(em: FunctionEmitter, t: Any, actual: T.Ty, names: list[str] | set[str], bindings: dict[str, Any]) -> None:
    """Bind the type parameters `names` that the declared type `t` mentions from the type `actual` of a value
    written where `t` is declared (first binding wins)."""
    if isinstance(t, ast.PathTy) and t.name in names and t.name not in bindings:
        bindings[t.name] = actual
    elif isinstance(t, ast.RefTy) and isinstance(t.inner, ast.SliceTy) and isinstance(actual, T.Slice):
        unify_generics(em, t.inner.elem, actual.elem, names, bindings)
    elif isinstance(t, ast.RefTy) and isinstance(actual, (T.ElemRef, T.LocalRef, T.PlaceRef)):
        unify_generics(em, t.inner, actual.elem, names, bindings)
    elif isinstance(t, ast.PtrTy) and isinstance(actual, T.Ptr):
        unify_generics(em, t.inner, actual.elem, names, bindings)
    elif isinstance(t, ast.RefTy):
        unify_generics(em, t.inner, actual, names, bindings)
    elif isinstance(t, ast.ArrayTy) and isinstance(actual, T.Array):
        unify_generics(em, t.elem, actual.elem, names, bindings)
        if isinstance(t.length, ast.PathExpr) and t.length.segments[0] in names:
            bindings.setdefault(t.length.segments[0], actual.length)
    elif isinstance(t, ast.PathTy) and t.name == "DisjointSlice" and isinstance(actual, T.Disjoint) and t.args:
        unify_generics(em, t.args[0], actual.elem, names, bindings)
    elif isinstance(t, ast.PathTy) and t.args and isinstance(actual, T.Struct):
        struct = em.crate.struct(t.name)
        if struct is not None:
            for (_, field_t), (_, field_actual) in zip(struct.fields, actual.fields):
                declared = _substitute(field_t, {g.name: a for g, a in zip(struct.generics, t.args)})
                unify_generics(em, declared, field_actual, names, bindings)


def _is_const(fn: ast.Function, name: str) -> bool:
    return any(g.name == name and g.const_ty is not None for g in fn.generics)


def _substitute(t: Any, mapping: dict[str, Any]) -> Any:
    if isinstance(t, ast.PathTy) and t.name in mapping and not t.args:
        return mapping[t.name]
    return t


def inline_call(em: FunctionEmitter, fn: ast.Function, args: list[Val], loc: Any, explicit: list[Any] | None = None,
                self_val: Val | None = None, self_ty: T.Ty | None = None, arg_locs: list[Any] | None = None) -> Val:
    """Emit `fn(args)` in place: parameters bound to the argument values, `return` through a frame."""
    if fn.name in em.inline_depth:
        raise err(loc, f"recursion (`{fn.name}` calls itself) is not supported in device code")
    if len(args) != len(fn.params):
        raise err(loc, f"`{fn.name}` takes {len(fn.params)} argument(s) but {len(args)} were supplied")
    bindings = _bind_generics(em, fn, fn.params, args, explicit or [], loc)
    scope_generics = {**em.generics[0], **bindings}
    if self_val is not None or self_ty is not None:
        scope_generics["Self"] = self_val.ty if self_val is not None else self_ty
    em.generics.append(scope_generics)
    em.inline_depth.append(fn.name)
    em.inline_fns.append(fn)
    outer_scopes, em.scopes = em.scopes, [em.scopes[0].__class__()]
    outer_frames, em.frames = em.frames, []
    outer_unsafe = em.in_unsafe
    em.in_unsafe = bool(fn.attrs.get("unsafe"))
    try:
        for i, (p, a) in enumerate(zip(fn.params, args)):
            want = em.resolve_type(p.ty)
            if a.ty != want and getattr(a, "flex", None) is not None and isinstance(want, (T.Int, T.Float)):
                raise Retype(a.flex, want)
            em.bind_pattern(p.pattern, em.coerce(a, want, arg_locs[i] if arg_locs else loc))
        if self_val is not None:
            em.bind("self", self_val)
        has_return = any(isinstance(n, ast.Return) for n in walk(fn.body))
        unbound = {g.name for g in fn.generics} - set(bindings)
        if fn.ret is not None and unbound and mentions(fn.ret, unbound):
            if has_return:
                raise err(loc, f"cannot infer the return type of `{fn.name}` (it names `{sorted(unbound)[0]}`, "
                               "which no argument fixes) in a function with `return`; annotate the call")
            return em.block(fn.body)  # its type is the return type
        ret_ty = em.resolve_type(fn.ret) if fn.ret is not None else T.UNIT
        safety.check_return(fn, ret_ty, fn.loc)
        frame = Frame("function", None)
        if has_return:
            with ir.InsertionPoint.at_block_begin(em.entry):
                frame.exit_flag = flag_cell()
                frame.result = new_cell(ret_ty) if not isinstance(ret_ty, T.Unit) else None
            set_flag(frame.exit_flag, False)
        em.frames.append(frame)
        value = em.block(fn.body, ret_ty)
        if has_return:
            if frame.result is not None:
                if not isinstance(value.ty, (T.Never, T.Unit)):
                    go_on = em.no_jump_pending()
                    branch = scf.IfOp(go_on)
                    with ir.InsertionPoint(branch.then_block):
                        store_cell(frame.result, em.coerce(value, ret_ty, fn.loc))
                        scf.YieldOp([])
                value = load_cell(frame.result)
            else:
                value = Val(T.UNIT, None)
        if not isinstance(value.ty, T.Never):
            value = em.coerce(value, ret_ty, fn.body.tail.loc if fn.body.tail is not None else fn.loc)
        return value
    finally:
        em.scopes, em.frames = outer_scopes, outer_frames
        em.in_unsafe = outer_unsafe
        em.inline_depth.pop()
        em.inline_fns.pop()
        em.generics.pop()
