"""`cuda_tile_print!("fmt {}", args..)` in tile kernels: the Rust format string becomes a C printf format
(oxide.dialects.simt.printf, the same translation as the SIMT track's `gpu_printf!`) and the scalar arguments
are widened as C varargs (bool, 8- and 16-bit integers to i32, f16/bf16/f32 to f64) into one `tile.print`,
printed once per tile block. A bad format string is a located error at the string.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import tile
from oxide.dialects.simt.printf import rust_format_to_c, vararg_groups
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err
from oxide.frontends.tile.registry import TileEmitter
from oxide.frontends.tile.types import UNIT_V, Scalar, V, rust_name
from oxide.frontends.tile.values import concrete

PRINT_MACROS = ("cuda_tile_print",)


def print_macro(em: TileEmitter, e: ast.MacroCall) -> V:
    """`cuda_tile_print!(format, args..)`: one `tile.print` of the widened scalar arguments."""
    if not e.args or not (isinstance(e.args[0], ast.Lit) and e.args[0].kind == "str"):
        raise err(e.loc, f"`{e.name}!` needs a string literal format as its first argument: "
                         f"`{e.name}!(\"x = {{}}\", x)`")
    values = [concrete(em.expr(a)) for a in e.args[1:]]
    for a, v in zip(e.args[1:], values):
        if not isinstance(v.ty, Scalar):
            raise err(a.loc, f"`{e.name}!` prints scalars, not `{rust_name(v.ty)}`; take a tile's element with "
                             f"`tile_to_scalar` (rank 0) or `extract` first")
    try:
        fmt = rust_format_to_c(e.args[0].value, [_printf_type(v.ty) for v in values])
    except ValueError as exc:
        raise err(e.args[0].loc, f"invalid format string: {exc}") from None
    order, groups = vararg_groups([_widen(v) for v in values])
    tile.PrintOp.build(*groups, format=fmt, order=order)
    return UNIT_V


def _printf_type(ty: Scalar) -> str:
    # tf32 is f32 data; the printf translation knows Rust's integer, bool and float names.
    return "f32" if ty.name == "tf32" else ty.name


def _widen(v: V) -> Any:
    """C varargs promotion: bool, 8- and 16-bit integers to i32, floats narrower than f64 to f64."""
    ty: Scalar = v.ty
    if ty.is_float:
        return v.value if ty.name == "f64" else arith.extf(ir.F64Type.get(), v.value)
    if ty.bits < 32:
        extend = arith.extsi if ty.signed and not ty.is_bool else arith.extui
        return extend(ir.IntegerType.get_signless(32), v.value)
    return v.value
