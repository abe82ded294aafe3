"""Small pieces shared by the SIMT emitter modules: scopes, constants, the unknown-type error."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.syntax.errors import err
from oxide.diagnostics import OxideError, SourceLoc


def unknown_type(crate: Any, loc: SourceLoc | None, name: str, what: str = "type") -> OxideError:
    """`cannot find <what> <name>`, or why a name the file does declare (a union) or a core type with a
    niche (`NonZeroU32`) cannot be used in device code."""
    if name in crate.unions:
        return err(loc, f"unions are not supported in device code (`{name}` is a union); use a struct and "
                        "explicit bit conversions (`f32::from_bits`, `u32::from_ne_bytes`, `x.to_ne_bytes()`)")
    if name.startswith("NonZero"):
        return err(loc, f"`{name}` (an integer whose zero is the niche of `Option<{name}>`) is not supported in "
                        "device code; use the plain integer type and test for zero")
    return err(loc, f"cannot find {what} `{name}` in this scope")


@dataclass
class Scope:
    """One lexical scope's names."""

    names: dict[str, Any] = field(default_factory=dict)


def i1(value: bool) -> ir.Value:
    """An i1 constant."""
    t = ir.IntegerType.get_signless(1)
    return arith.constant(t, ir.IntegerAttr.get(t, int(value)))


def int_attr(t: ir.Type, value: int) -> ir.Attribute:
    """An integer attribute of type `t` (an integer or index type) holding `value` wrapped to its width, as
    Rust's `as` wraps: `u128::MAX` is the i128 -1. The binding's IntegerAttr.get takes only 64-bit values,
    so constants of wider types (i128) are parsed."""
    bits = 64 if isinstance(t, ir.IndexType) else ir.IntegerType(t).width
    value &= (1 << bits) - 1
    if bits > 1 and value >> (bits - 1):
        value -= 1 << bits
    # The binding zero-extends a negative value into a wider type (-1 became 2**64 - 1 as an i128).
    if bits <= 64:
        return ir.IntegerAttr.get(t, value)
    return ir.Attribute.parse(f"{value} : {t}")


def index(value: int) -> ir.Value:
    """An index constant."""
    return arith.constant(ir.IndexType.get(), value)
