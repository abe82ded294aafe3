"""Rust format strings for device printf: `println!("i = {}, x = {:.3}", i, x)` becomes upstream
`gpu.printf "i = %d, x = %.3f\\n", %i, %x : i32, f64`, which convert-gpu-to-nvvm lowers to CUDA's `vprintf`.

`rust_format_to_c` translates the placeholders given the argument types, and `printf_arg_type` says how to
widen each argument first: vprintf reads its argument buffer with C's variadic promotions, so an i8, i16
or i1 must arrive as an i32 and an f16/f32 as an f64 (gpu.printf widens f32 itself, not integers).

Types are MLIR spellings (`i32`, `ui32`, `si8`, `index`, `f32`, `!llvm.ptr`) or Rust ones (`u32`, `usize`,
`bool`); a signless integer is signed, as Rust's `iN` is. Where C cannot print what Rust prints, the
translation is the nearest C form (docs/simt-math-debug.md lists the differences) or a ValueError.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["printf_arg_type", "rust_format_to_c"]


@dataclass(frozen=True)
class _Arg:
    """How one argument prints: its kind, signedness and width in bits (after spelling is normalised)."""

    kind: str  # "int", "float" or "ptr"
    signed: bool
    bits: int


def _classify(arg_type: Any) -> _Arg:
    spelled = str(arg_type)
    rust = {"bool": "ui1", "usize": "ui64", "isize": "i64", **{f"u{w}": f"ui{w}" for w in (8, 16, 32, 64)}}
    spelled = rust.get(spelled, spelled)
    if spelled == "index":
        return _Arg("int", True, 64)
    if spelled.startswith("!llvm.ptr"):
        return _Arg("ptr", False, 64)
    match = re.fullmatch(r"(u|s)?i(1|8|16|32|64)", spelled)
    if match:
        # i1 is a bool: never negative, so it widens and prints as unsigned.
        return _Arg("int", match.group(1) != "u" and match.group(2) != "1", int(match.group(2)))
    if spelled in ("f16", "bf16", "f32", "f64"):
        return _Arg("float", True, 64 if spelled == "f64" else 32)
    raise ValueError(f"printf cannot print a value of type {spelled} (integers up to 64 bits, floats and pointers)")


def printf_arg_type(arg_type: Any) -> tuple[str, str | None]:
    """The type vprintf reads for an argument of `arg_type`, and the arith op that converts it (or None)."""
    arg = _classify(arg_type)
    if arg.kind == "ptr":
        return str(arg_type), None
    if arg.kind == "float":
        return "f64", None if str(arg_type) == "f64" else "arith.extf"
    if str(arg_type) == "index":
        return "i64", "arith.index_cast"
    if arg.bits < 32:
        return "i32", "arith.extsi" if arg.signed else "arith.extui"
    return f"i{arg.bits}", None


# Rust's format spec: [[fill]align][sign]['#']['0'][width]['.' precision][type]
# cuda-oxide's gpu_printf! also takes C's conversions where Rust has none: `f`/`g`/`G` for floats, a space
# flag (`{: }`: a blank before positive numbers) and `-` with a width as left alignment (`{:-8}`).
_SPEC = re.compile(r"(?:(?P<fill>[^{}])?(?P<align>[<^>]))?(?P<sign>[+ -])?(?P<alt>#)?(?P<zero>0)?"
                   r"(?P<width>[0-9]+)?(?:\.(?P<precision>[0-9]+))?(?P<type>[a-zA-Z?]*)")
_PREFIX = {"x": "0x", "X": "0x", "o": "0o"}  # Rust writes `{:#X}` as 0x2A: the prefix stays lowercase


def _conversion(placeholder: str, spec: str, arg: _Arg, position: int) -> str:
    """The C conversion (with any literal prefix) for one placeholder."""
    m = _SPEC.fullmatch(spec)
    if m is None:
        raise ValueError(f"'{placeholder}': unsupported format spec (arguments as width or precision, "
                         "`{:1$}`/`{:.*}`, have no printf form)")
    kind = m["type"]
    if kind == "b":
        raise ValueError(f"'{placeholder}': printf has no binary conversion; use {{:x}} or {{:o}}")
    if kind not in ("", "?", "x", "X", "o", "e", "E", "f", "g", "G", "p"):
        raise ValueError(f"'{placeholder}': unknown format type '{kind}'")
    if m["fill"] not in (None, " "):
        raise ValueError(f"'{placeholder}': printf pads only with spaces or zeros (the 0 flag), not '{m['fill']}'")
    if m["align"] == "^":
        raise ValueError(f"'{placeholder}': printf cannot centre a value")
    want = {"p": "ptr", "x": "int", "X": "int", "o": "int", "e": "float", "E": "float", "f": "float", "g": "float",
            "G": "float"}.get(kind)
    if (want and arg.kind != want) or (not want and arg.kind == "ptr"):
        what = {"ptr": "a pointer", "int": "an integer", "float": "a float"}
        needs = f"'{{:{kind}}}' formats {what[want]}" if want else "a pointer prints only with '{:p}'"
        raise ValueError(f"'{placeholder}': {needs}, but argument {position} is {what[arg.kind]}")

    flags = {"+": "+", " ": " "}.get(m["sign"] or "", "") + ("0" if m["zero"] else "")
    # Rust ignores alignment when zero-padding; C would let '-' win over '0'.
    if (m["align"] == "<" or (m["sign"] == "-" and m["width"])) and not m["zero"]:
        flags += "-"
    width = int(m["width"]) if m["width"] else None
    prefix = _PREFIX[kind] if m["alt"] and kind in _PREFIX else ""
    if prefix and width is not None:
        if not m["zero"] and m["align"] != "<":
            raise ValueError(f"'{placeholder}': printf cannot space-pad a prefixed number on the left; "
                             f"zero-pad it ('{{:#0{width}{kind}}}') or align it left ('{{:<#{width}{kind}}}')")
        # Rust's width counts the prefix; the C conversion after the literal prefix must not.
        width = width - len(prefix) if width > len(prefix) else None
        if width is None:
            flags = flags.replace("0", "")
    text = "%" + flags + (str(width) if width is not None else "")

    if arg.kind == "ptr":
        return prefix + text + "p"
    if arg.kind == "float":
        precision = f".{m['precision']}" if m["precision"] is not None else ""
        if kind in ("e", "E", "f", "g", "G"):
            return text + precision + kind
        # Rust's `{}` prints the shortest round-tripping decimal; %g (6 significant digits) is C's closest.
        return text + precision + ("f" if precision else "g")
    # Rust ignores a precision on integers; C would read it as a minimum digit count.
    length = "ll" if arg.bits == 64 else ""
    conversion = {"x": "x", "X": "X", "o": "o"}.get(kind, "d" if arg.signed else "u")
    return prefix + text + length + conversion


def rust_format_to_c(fmt: str, arg_types: Sequence[Any]) -> str:
    """The C printf format for a Rust format string whose arguments have types `arg_types`, in order."""
    args = [_classify(t) for t in arg_types]
    out: list[str] = []
    used = 0
    i = 0
    while i < len(fmt):
        ch = fmt[i]
        if ch in "{}" and fmt[i + 1:i + 2] == ch:
            out.append(ch)
            i += 2
        elif ch == "}":
            raise ValueError(f"unmatched '}}' at offset {i} of {fmt!r}; write '}}}}' for a literal brace")
        elif ch == "{":
            end = fmt.find("}", i)
            if end < 0 or "{" in fmt[i + 1:end]:
                raise ValueError(f"unclosed '{{' at offset {i} of {fmt!r}; write '{{{{' for a literal brace")
            placeholder = fmt[i:end + 1]
            name, _, spec = placeholder[1:-1].partition(":")
            if name:
                raise ValueError(f"'{placeholder}': named and positional arguments are not supported; "
                                 "write '{}' placeholders and pass the arguments in order")
            if used == len(args):
                raise ValueError(f"{fmt!r} has more placeholders than the {len(args)} argument(s) given")
            used += 1
            out.append(_conversion(placeholder, spec, args[used - 1], used))
            i = end + 1
        else:
            out.append("%%" if ch == "%" else ch)
            i += 1
    if used != len(args):
        raise ValueError(f"{fmt!r} has {used} placeholder(s) but {len(args)} argument(s) were given")
    return "".join(out)


def vararg_groups(widened: Sequence[Any]) -> tuple[str, list[list[Any]]]:
    """The `order` string and the (i32, i64, f64) operand groups of a printf-like op (simt.printf, tile.print)
    for arguments already widened as C varargs are (i32, i64 or f64 values)."""
    order = "".join({"i32": "i", "i64": "l", "f64": "d"}[str(w.type)] for w in widened)
    return order, [[w for w, kind in zip(widened, order) if kind == k] for k in "ild"]
