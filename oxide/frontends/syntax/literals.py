"""Rust number, char and string literals -> Python values, with rustc's rules and located errors.

tree-sitter-rust's lexer is looser than rustc's (it takes `2f32` as an integer literal, `1e308u32` as a float
literal, any digits after `0x`), so every literal is checked here: the base, the digits, the suffix, and that
the value fits the suffix's type. Values stay Python ints and floats; nothing here wraps or rounds silently.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass

from oxide.diagnostics import OxideError, SourceLoc

INT_SUFFIXES = ("u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize")
FLOAT_SUFFIXES = ("f16", "f32", "f64")
INT_BITS = {"u8": 8, "u16": 16, "u32": 32, "u64": 64, "u128": 128, "usize": 64,
            "i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "isize": 64}
_BASES = {"0x": 16, "0o": 8, "0b": 2}
_DIGITS = {2: "01", 8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}
_MAX_LITERAL = (1 << 128) - 1  # rustc's limit: the largest u128
# The most significant digits a literal of each base can have below 2**128: longer ones are refused before
# int() runs (which would refuse over 4300 digits with an unrelated message, and is slow near it).
_MAX_DIGITS = {2: 128, 8: 43, 10: 39, 16: 32}
_FLOAT_RE = re.compile(r"([0-9][0-9_]*(?:\.[0-9_]*)?(?:[eE][+-]?_*[0-9][0-9_]*)?)(.*)", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}


@dataclass(frozen=True)
class Number:
    """A number literal's value, its kind ("int" or "float") and its type suffix if one is written."""

    value: int | float
    kind: str
    suffix: str | None


def _suffix_hint() -> str:
    return "valid suffixes are " + ", ".join(f"`{s}`" for s in INT_SUFFIXES + ("f32", "f64"))


def integer(raw: str, loc: SourceLoc) -> Number:
    """An integer literal as tree-sitter lexes it: `1_000`, `0xFFu8`, `0b1010_i64`, and also `2f32` (a float)."""
    base = _BASES.get(raw[:2].lower(), 10)
    body = raw[2:] if base != 10 else raw
    end = 0
    while end < len(body) and (body[end] == "_" or body[end] in _DIGITS[16 if base == 16 else 10]):
        end += 1
    digits, suffix = body[:end].replace("_", ""), body[end:].lstrip("_") or None
    if suffix is not None and suffix not in INT_SUFFIXES + FLOAT_SUFFIXES + ("f128",):
        raise OxideError(f"invalid suffix `{suffix}` for number literal; {_suffix_hint()}", loc)
    if not digits:
        raise OxideError(f"no valid digits found for number literal `{raw}`", loc)
    wrong = next((d for d in digits if d not in _DIGITS[base]), None)
    if wrong is not None:
        raise OxideError(f"invalid digit `{wrong}` in a base {base} literal", loc)
    if suffix in FLOAT_SUFFIXES + ("f128",):
        if base != 10:
            raise OxideError(f"a base {base} float literal is not supported; write it in decimal: "
                             f"`{int(digits, base) if len(digits) <= _MAX_DIGITS[base] else digits}.0`", loc)
        return Number(_float_value(digits, suffix, loc), "float", suffix)
    significant = digits.lstrip("0")
    if len(significant) > _MAX_DIGITS[base] or int(significant or "0", base) > _MAX_LITERAL:
        raise OxideError(f"integer literal is too large: the largest integer literal is {_MAX_LITERAL} "
                         f"(`u128::MAX`)", loc)
    value = int(significant or "0", base)
    if suffix is not None:
        check_int_range(value, suffix, loc, bit_pattern=base != 10)
    return Number(value, "int", suffix)


def check_int_range(value: int, suffix: str, loc: SourceLoc, bit_pattern: bool = False) -> None:
    """Refuse an integer literal that no value of type `suffix` holds. A signed literal may be one past the
    maximum (it is the magnitude of `-128i8`); a hex, octal or binary one may be any bit pattern of the width."""
    bits, signed = INT_BITS[suffix], suffix.startswith("i")
    limit = (1 << bits) - 1 if not signed or bit_pattern else 1 << (bits - 1)
    if value > limit:
        low = -(1 << (bits - 1)) if signed else 0
        high = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
        raise OxideError(f"literal out of range for `{suffix}`: the range of `{suffix}` is {low}..={high}", loc)


def float_literal(raw: str, loc: SourceLoc) -> Number:
    """A float literal: `2.5`, `1e-3`, `1_000.5_f32`; `1e308u32` is refused (an integer suffix on a float)."""
    match = _FLOAT_RE.fullmatch(raw)
    if match is None:
        raise OxideError(f"malformed float literal `{raw}`", loc)
    digits, suffix = match.group(1).replace("_", ""), match.group(2).lstrip("_") or None
    if suffix in INT_SUFFIXES:
        raise OxideError(f"invalid suffix `{suffix}` for float literal; valid suffixes are `f32` and `f64` (an "
                         f"integer needs an integer literal without `.` or exponent)", loc)
    if suffix is not None and suffix not in FLOAT_SUFFIXES + ("f128",):
        raise OxideError(f"invalid suffix `{suffix}` for float literal; valid suffixes are `f32` and `f64`", loc)
    return Number(_float_value(digits, suffix, loc), "float", suffix)


def _float_value(digits: str, suffix: str | None, loc: SourceLoc) -> float:
    if suffix == "f128":
        raise OxideError("the `f128` type is not supported in device code", loc)
    value = float(digits)  # a decimal too large for a double reads as inf, refused just below
    check_float_range(value, suffix or "f64", loc)
    return value


def check_float_range(value: float, type_name: str, loc: SourceLoc) -> None:
    """Refuse a finite literal that rounds to infinity in `type_name` (f16, f32 or f64), as rustc does."""
    if math.isinf(value):
        raise OxideError(f"literal out of range for `{type_name}`: it is infinite at that precision", loc)
    if type_name in ("f16", "f32"):
        code = "e" if type_name == "f16" else "f"
        try:  # packing rounds to the narrow type: `f` gives infinity past its range, `e` raises
            overflows = math.isinf(struct.unpack(code, struct.pack(code, value))[0])
        except OverflowError:
            overflows = True
        if overflows:
            raise OxideError(f"literal out of range for `{type_name}`: it is infinite at that precision; "
                             f"use `f64` or a smaller value", loc)


def unescape(body: str, loc: SourceLoc, byte: bool = False) -> str:
    """The characters a char or string literal's body stands for, by Rust's escape rules; `byte` for `b'..'`
    and `b".."` (escapes `\\x00`..`\\xFF`, no `\\u{..}`, ASCII text only). `loc` is that of the body's first
    character: an error points at the escape."""
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            if byte and ord(ch) > 0x7F:
                raise OxideError(f"non-ASCII character `{ch}` in a byte literal; use a `\\xNN` escape",
                                 _at(loc, body, i))
            out.append(ch)
            i += 1
            continue
        esc = body[i + 1:i + 2]
        if esc in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[esc])
            i += 2
        elif esc == "\n":  # a line continuation skips the newline and the next line's leading blanks
            i += 2
            while i < len(body) and body[i] in " \t\n\r":
                i += 1
        elif esc == "x":
            out.append(_hex_escape(body, i, loc, byte))
            i += 4
        elif esc == "u" and not byte:
            code, i = _unicode_escape(body, i, loc)
            out.append(chr(code))
        else:
            known = "\\n \\r \\t \\\\ \\0 \\' \\\" \\xNN" + ("" if byte else " \\u{NNNN}")
            raise OxideError(f"unknown character escape `\\{esc}`; the escapes are {known} (write `\\\\` for a "
                             f"backslash)", _at(loc, body, i))
    return "".join(out)


def _hex_escape(body: str, i: int, loc: SourceLoc, byte: bool) -> str:
    digits = body[i + 2:i + 4]
    if len(digits) != 2 or any(d not in _DIGITS[16] for d in digits):
        raise OxideError("a `\\x` escape takes exactly two hex digits: `\\x41`", _at(loc, body, i))
    value = int(digits, 16)
    if not byte and value > 0x7F:
        raise OxideError(f"`\\x{digits}` is out of range: a `\\x` escape in a char or string is at most `\\x7F`; "
                         f"use `\\u{{{value:X}}}`", _at(loc, body, i))
    return chr(value)


def _unicode_escape(body: str, i: int, loc: SourceLoc) -> tuple[int, int]:
    close = body.find("}", i)
    if body[i + 2:i + 3] != "{" or close < 0:
        raise OxideError("a `\\u` escape is written `\\u{NNNN}` with braces", _at(loc, body, i))
    digits = body[i + 3:close].replace("_", "")
    if not 1 <= len(digits) <= 6 or any(d not in _DIGITS[16] for d in digits):
        raise OxideError("a `\\u{..}` escape takes one to six hex digits", _at(loc, body, i))
    code = int(digits, 16)
    if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
        raise OxideError(f"`\\u{{{digits}}}` is not a Unicode scalar value: it must be at most 10FFFF and not a "
                         f"surrogate (D800-DFFF)", _at(loc, body, i))
    return code, close + 1


def char_value(body: str, loc: SourceLoc, byte: bool = False) -> int:
    """The code point of a char literal's body (`a`, `\\n`, `\\x41`, `\\u{1F980}`): exactly one character."""
    chars = unescape(body, loc, byte)
    if len(chars) != 1:
        raise OxideError("a character literal holds exactly one character; use a string literal for more", loc)
    return ord(chars)


def _at(loc: SourceLoc, body: str, offset: int) -> SourceLoc:
    """The location of `body[offset]`, where `loc` is that of `body[0]`."""
    before = body[:offset]
    if "\n" in before:
        return SourceLoc(loc.file, loc.line + before.count("\n"), offset - before.rfind("\n"))
    return SourceLoc(loc.file, loc.line, loc.col + offset)
