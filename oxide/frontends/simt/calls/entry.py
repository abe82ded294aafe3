"""The emitter's three ways into the device calls (a call expression, a method call and a macro call) and
the one place that says in which order a call's name is resolved.

A path call `a::b::f(args)` (module prefixes of this file stripped) is, in this order, the first of:

1. a closure or function item bound to the local name `f`;
2. the user's free function `f` (a kernel is refused);
3. the constructor of the user's tuple struct `f`;
4. a device function: the registry's handler for the path (registry.py; `Some(x)` is one);
5. a variant of the user's enum `b` (`E::A(x)`);
6. a primitive type's method called as a function (`u32::max(a, b)` is `a.max(b)`);
7. an associated function of the user's type `b` (or of the type a generic `b` is bound to).

The user's items come first because the program names them; the device API is keyed and cannot tell two
of its own handlers apart by order. Enum variants and associated functions follow it because their
qualifier is only known to be a user type once the registry has not claimed the path.

A method call `receiver.name(args)` is, in this order, the first of:

1. by the call's shape, before the receiver is evaluated: an iterator reduction (`xs.iter().sum()`), or
   `write` / `assume_init` of a `MaybeUninit` local;
2. the user's method of the receiver's struct;
3. the registry's handler for (the receiver's type, name): the device types' methods, and those of the
   places and views in memory (element slots, runs and tiles of a DisjointSlice, references to arrays,
   pointers to locals), each registered by its name. A class whose every method is known registers a
   catch-all (OTHER) that names the mistake;
4. a reference to a scalar in memory is dereferenced (auto-deref), and the registry's handler for (the
   scalar's type, name) is tried.
"""

from __future__ import annotations

from typing import Any, Callable

from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.dialects import simt
from oxide.frontends.simt.calls import registry
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.core_calls import maybe_uninit_method
from oxide.frontends.simt.calls.macros import macro
from oxide.frontends.simt.calls.paths import data_variant, strip_modules
from oxide.frontends.simt.calls.primitives import primitive_method
from oxide.frontends.simt.emit_iterators import reduction
from oxide.frontends.simt.expressions.patterns import referent
from oxide.frontends.simt.inline import inline_call, typed_args
from oxide.frontends.simt.places import load_place, reference_place
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_ITERATOR_METHODS = ("iter", "iter_mut", "map", "sum", "collect", "enumerate", "zip")


# Calls of paths -------------------------------------------------------------------------------------------
PathStep = Callable[[Emitter, ast.PathExpr, list[str], list[ast.Expr], "T.Ty | None", Any], "Val | None"]


def call_function(em: Emitter, e: ast.Call, expected: T.Ty | None) -> Val:
    """`f(args)`: a path, or a value that is a closure or a function item (`(self.f)(x)`, `(table[i])(x)`)."""
    if isinstance(e.func, ast.PathExpr):
        return _call_path(em, e.func, e.args, expected, e.loc)
    callee = em.expr(e.func)
    if isinstance(callee.ty, T.Closure):
        return em.call_closure(callee, e.args, e.loc)
    if isinstance(callee.ty, T.FnItem):
        return _call_path(em, ast.PathExpr(e.func.loc, list(callee.ty.path), list(callee.v or [])), e.args,
                          expected, e.loc)
    raise err(e.loc, f"expected a function, found a value of type `{callee.ty}`")


def _call_path(em: Emitter, func: ast.PathExpr, args: list[ast.Expr], expected: T.Ty | None, loc: Any) -> Val:
    segs = strip_modules(em, func.segments)
    for step in _PATH_RESOLUTION:
        value = step(em, func, segs, args, expected, loc)
        if value is not None:
            return value
    name, qualifier = segs[-1], registry.qualifier(segs)
    if name in ("vec", "Vec", "Box", "String") or qualifier in ("Vec", "Box", "String"):
        raise err(loc, "heap allocation is not supported in device code")
    if segs[0] == "std":
        raise err(loc, "`std` is not available in device code; use `core` or the cuda_device API")
    raise err(loc, f"cannot find function `{'::'.join(segs)}` in this scope")


def _local_callable(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                    expected: T.Ty | None, loc: Any) -> Val | None:
    bound = em.lookup(segs[0]) if len(segs) == 1 else None
    if not isinstance(bound, Val):
        return None
    if isinstance(bound.ty, T.Closure):
        return em.call_closure(bound, args, loc)
    if isinstance(bound.ty, T.FnItem):
        return _call_path(em, ast.PathExpr(func.loc, list(bound.ty.path), list(bound.v or [])), args, expected, loc)
    return None


def _user_function(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                   expected: T.Ty | None, loc: Any) -> Val | None:
    if len(segs) != 1 and registry.qualifier(segs) not in ("self", "super", "crate", "kernels"):
        return None
    fn = em.crate.function(segs[-1])
    if fn is None:
        return None
    if fn.attrs.get("kernel"):
        raise err(loc, f"kernel `{segs[-1]}` cannot be called from device code")
    values = [em.expr(a) for a in args] if not fn.params else typed_args(em, fn, args, func)
    return inline_call(em, fn, values, loc, explicit=func.generics, arg_locs=[a.loc for a in args])


def _tuple_struct(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                  expected: T.Ty | None, loc: Any) -> Val | None:
    """`Pair(x, y)`: a tuple struct's constructor is a struct literal with fields 0, 1, ..."""
    struct = em.crate.struct(segs[0]) if len(segs) == 1 else None
    if struct is None or not all(f.isdigit() for f, _ in struct.fields):
        return None
    if len(args) != len(struct.fields):
        raise err(loc, f"`{segs[0]}` takes {len(struct.fields)} field(s) but {len(args)} were supplied")
    return em.expr(ast.StructLit(loc, [segs[0]], [(str(i), a) for i, a in enumerate(args)]), expected)


def _device_function(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                     expected: T.Ty | None, loc: Any) -> Val | None:
    return registry.call_path(em, segs, func.generics, args, expected, loc)


def _enum_variant(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                  expected: T.Ty | None, loc: Any) -> Val | None:
    qualifier = registry.qualifier(segs)
    enum = em.crate.enum(qualifier) if qualifier is not None else None
    if enum is None:
        return None
    ty = em.enum_type(enum)
    if isinstance(ty, T.DataEnum):
        return data_variant(em, ty, segs[-1], args, loc)  # `E::A(x)`
    raise err(loc, f"`{qualifier}::{segs[-1]}` is not a function (the enum's variants have no fields)")


def _primitive_as_function(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                           expected: T.Ty | None, loc: Any) -> Val | None:
    qualifier = registry.qualifier(segs)
    if qualifier not in T.PRIMITIVES or not args:
        return None
    receiver = em.expr(args[0], T.PRIMITIVES[qualifier])
    return primitive_method(em, receiver, segs[-1], args[1:], loc, expected)


def _associated_function(em: Emitter, func: ast.PathExpr, segs: list[str], args: list[ast.Expr],
                         expected: T.Ty | None, loc: Any) -> Val | None:
    """`Type::function(args)` of a user type, `T::f(x)` of a generic T, and `Type::method(value, x)` /
    `<Type as Trait>::method(value, x)`, where the first argument is self."""
    qualifier = registry.qualifier(segs)
    if qualifier is None:
        return None
    bound = em.generics[-1].get(qualifier)
    if isinstance(bound, T.Ty) and len(segs) == 2:
        qualifier = getattr(bound, "name", bound.rust()).split("<")[0]
    method = em.crate.method(qualifier, segs[-1])
    if method is None:
        return None
    struct = em.crate.struct(qualifier)
    self_ty = em.struct_type(struct, []) if struct is not None and not struct.generics else None
    if method.self_param is not None and args:
        self_val = em.expr(args[0], self_ty)
        if method.self_param != "&mut self":
            self_val = referent(em, self_val)
        return inline_call(em, method, typed_args(em, method, args[1:], func), loc, self_val=self_val,
                           arg_locs=[a.loc for a in args[1:]])
    return inline_call(em, method, typed_args(em, method, args, func), loc, self_ty=self_ty,
                       arg_locs=[a.loc for a in args])


_PATH_RESOLUTION: tuple[PathStep, ...] = (_local_callable, _user_function, _tuple_struct, _device_function,
                                          _enum_variant, _primitive_as_function, _associated_function)


# Method calls ---------------------------------------------------------------------------------------------
def call_method(em: Emitter, e: ast.MethodCall, expected: T.Ty | None) -> Val:
    """`receiver.name(args)`, resolved in the order of the module docstring."""
    by_shape = reduction(em, e, expected)
    if by_shape is None:
        by_shape = maybe_uninit_method(em, e)
    if by_shape is not None:
        return by_shape
    with safety.borrowing(em):
        recv = em.expr(e.receiver)
    ty = recv.ty
    user = em.crate.method(ty.name.split("<")[0], e.name) if isinstance(ty, T.Struct) else None
    if user is not None:
        return inline_call(em, user, typed_args(em, user, e.args, None), e.loc, explicit=e.generics, self_val=recv,
                           arg_locs=[a.loc for a in e.args])
    found = registry.call_method(em, recv, e.name, e.args, e.loc, expected, e.generics)
    if found is None and isinstance(ty, (T.ElemRef, T.PlaceRef)) and T.is_scalar(ty.elem):
        recv = _deref(em, recv)
        ty = recv.ty
        found = registry.call_method(em, recv, e.name, e.args, e.loc, expected, e.generics)
    if found is not None:
        return found
    if isinstance(ty, (T.Int, T.Float, T.Bool)):
        raise err(e.loc, f"no method named `{e.name}` found for `{ty}` in device code")
    if e.name in _ITERATOR_METHODS:
        raise err(e.loc, f"an iterator method (`.{e.name}()`) is not supported in device code; loop over an index "
                         "range")
    raise err(e.loc, f"no method named `{e.name}` found for `{ty}`")


def _deref(em: Emitter, recv: Val) -> Val:
    """Method calls auto-dereference: `x.wrapping_add(1)` of an `x: &mut u32` into memory."""
    place = reference_place(recv)
    return load_place(em, place) if place is not None else Val(recv.ty.elem, simt.RefLoadOp.build(recv.v))


# Macros ----------------------------------------------------------------------------------------------------
def call_macro(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    """`name!(args)`."""
    return macro(em, e, expected)
