"""Macros in device code, one handler per macro name: `gpu_printf!`/`printf!` (vprintf), the assertions,
`panic!` & co (a trap), `addr_of!`/`addr_of_mut!`, `ptx_asm!`, and the refusals of `println!`, `vec!` and
Rust's `asm!`."""

from __future__ import annotations

from typing import Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects.simt.printf import rust_format_to_c, vararg_groups
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.ptx_asm import ptx_asm
from oxide.frontends.simt.calls.registry import DuplicateHandler
from oxide.frontends.simt.calls.scalars import i32
from oxide.frontends.simt.cell_pointers import address_of_local
from oxide.frontends.simt.expressions.operators import binary_values
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

MacroHandler = Callable[[Emitter, ast.MacroCall, "T.Ty | None"], Val]
_MACROS: dict[str, MacroHandler] = {}


def device_macro(*names: str) -> Callable[[MacroHandler], MacroHandler]:
    def register(handler: MacroHandler) -> MacroHandler:
        for name in names:
            if name in _MACROS:
                raise DuplicateHandler(f"the macro `{name}!` is registered twice: by {_MACROS[name].__qualname__} "
                                       f"and {handler.__qualname__}")
            _MACROS[name] = handler
        return handler
    return register


def macro(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    """The value of `name!(args)`."""
    handler = _MACROS.get(e.name)
    if handler is None:
        raise err(e.loc, f"the macro `{e.name}!` is not supported in device code")
    return handler(em, e, expected)


@device_macro("gpu_printf", "printf")
def _printf(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    name = e.name
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
    order, groups = vararg_groups([_widen(v) for v in values])
    count = simt.PrintfOp.build(*groups, format=fmt, order=order, results=[i32()])
    return Val(T.PRIMITIVES["i32"], count)


def _printf_type(ty: T.Ty) -> str:
    if isinstance(ty, T.Bool):
        return "bool"
    return ty.rust()


def _widen(v: Val) -> ir.Value:
    """C varargs promotion: bool/i8/i16 -> i32, f16/f32 -> f64."""
    if isinstance(v.ty, T.Bool):
        return arith.extui(i32(), v.v)
    if isinstance(v.ty, T.Int) and v.ty.bits < 32:
        return (arith.extsi if v.ty.signed else arith.extui)(i32(), v.v)
    if isinstance(v.ty, T.Float) and v.ty.bits < 64:
        return arith.extf(ir.F64Type.get(), v.v)
    return v.v


@device_macro("assert", "gpu_assert", "assert_eq", "assert_ne")
def _assert(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    name = e.name
    if name in ("assert_eq", "assert_ne"):
        a = em.expr(e.args[0])
        b = em.expr(e.args[1], a.ty)
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


@device_macro("debug_assert", "debug_assert_eq", "debug_assert_ne")
def _debug_assert(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    return Val(T.UNIT, None)  # cuda-oxide builds with debug assertions off


@device_macro("panic", "unreachable", "todo", "unimplemented")
def _panic(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    simt.TrapOp.build()
    return Val(T.NEVER, None)


@device_macro("addr_of", "addr_of_mut")
def _addr_of(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    name = e.name
    if len(e.args) != 1:
        raise err(e.loc, f"the macro `{name}!` is not supported in device code")
    local = address_of_local(em, e.args[0], name == "addr_of_mut", e.loc)
    if local is not None:
        return local
    target = em.expr(e.args[0])
    if isinstance(target.ty, T.Shared):
        ptr = T.Ptr(target.ty.elem, name == "addr_of_mut", 3)
        return Val(ptr, simt.SharedPtrOp.build(target.v, results=[ptr.mlir()]))
    raise err(e.args[0].loc, f"`{name}!` of a `{target.ty}` is not supported in device code (only of a SharedArray "
                             "or a local)")


@device_macro("println", "print", "format", "write", "writeln", "eprintln", "dbg")
def _fmt(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    raise err(e.loc, f"`{e.name}!` (core::fmt) is not supported in device code; use `gpu_printf!`")


@device_macro("vec")
def _vec(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    raise err(e.loc, "heap allocation (`vec!`) is not supported in device code")


@device_macro("asm")
def _asm(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    raise err(e.loc, "Rust `asm!` is not supported in device code")


@device_macro("ptx_asm")
def _ptx_asm(em: Emitter, e: ast.MacroCall, expected: T.Ty | None) -> Val:
    return ptx_asm(em, e)
