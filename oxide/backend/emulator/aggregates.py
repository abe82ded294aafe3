"""Struct and array elements in emulated memory.

The emulator's buffers are numpy arrays of one scalar type and its pointers count elements of that type. A
buffer of structs or arrays (`&[F4]`, `DisjointSlice<[f32; 3]>`) is held as its scalars when every scalar
leaf of the element has one type and sits at a multiple of that type's size (padding, like the trailing
bytes of `#[repr(align(16))] struct F3([f32; 3])`, counts as unused scalars). Offsets then count scalars:
an element is `units` of them, a field starts `field_units` of them into its struct. The layout is LLVM's
for the element's `!llvm.struct`/`!llvm.array` type, which the frontend makes the same as rustc's.
"""

from __future__ import annotations

import re
from typing import Any

_SCALAR_BYTES = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f16": 2, "f32": 4, "f64": 8}
_TOKEN = re.compile(r"\s*(!llvm\.|struct<\(|array<|\)>|>|,|x\b|\d+|\w+)")

# ("scalar", name) | ("array", count, element) | ("struct", [fields])
Node = tuple[str, str] | tuple[str, int, Any] | tuple[str, list[Any]]


def is_aggregate(type_text: str) -> bool:
    """Whether an element type (as written) is an LLVM struct or array."""
    return type_text.lstrip().startswith(("!llvm.struct", "!llvm.array", "struct<", "array<"))


def parse(type_text: str) -> Node:
    """The tree of an LLVM struct/array/scalar type; ValueError for anything else (pointers, named structs)."""
    tokens = _TOKEN.findall(type_text)
    if "".join(tokens).replace(" ", "") != type_text.replace(" ", ""):
        raise ValueError(f"cannot read the type {type_text}")
    node, rest = _node([t for t in tokens if t != "!llvm."])
    if rest:
        raise ValueError(f"cannot read the type {type_text}")
    return node


def _node(tokens: list[str]) -> tuple[Node, list[str]]:
    head, rest = tokens[0], tokens[1:]
    if head == "struct<(":
        fields: list[Node] = []
        while rest[0] != ")>":
            field, rest = _node(rest)
            fields.append(field)
            if rest[0] == ",":
                rest = rest[1:]
        return ("struct", fields), rest[1:]
    if head == "array<":
        count, rest = int(rest[0]), rest[2:]  # `N x T>`
        element, rest = _node(rest)
        return ("array", count, element), rest[1:]
    if head in _SCALAR_BYTES:
        return ("scalar", head), rest
    raise ValueError(f"the emulator has no representation for {head} inside a struct")


def layout(node: Node) -> tuple[int, int]:
    """(size, alignment) in bytes, as LLVM lays the type out (fields at their natural alignment)."""
    if node[0] == "scalar":
        size = _SCALAR_BYTES[node[1]]
        return size, size
    if node[0] == "array":
        size, align = layout(node[2])
        return size * node[1], align
    end, align = 0, 1
    for field in node[1]:
        size, field_align = layout(field)
        end = -(-end // field_align) * field_align + size
        align = max(align, field_align)
    return -(-end // align) * align, align


def field_offset(node: Node, position: int) -> int:
    """Byte offset of field `position` of a struct node."""
    end = 0
    for k, field in enumerate(node[1]):
        size, align = layout(field)
        start = -(-end // align) * align
        if k == position:
            return start
        end = start + size
    raise ValueError(f"field {position} is out of range")


def _leaves(node: Node, base: int) -> list[tuple[int, str]]:
    if node[0] == "scalar":
        return [(base, node[1])]
    if node[0] == "array":
        size = layout(node[2])[0]
        return [leaf for i in range(node[1]) for leaf in _leaves(node[2], base + i * size)]
    return [leaf for k, field in enumerate(node[1]) for leaf in _leaves(field, base + field_offset(node, k))]


def scalar_of(type_text: str) -> str:
    """The one scalar type an element is held as; ValueError (with the reason) where there is none."""
    node = parse(type_text)
    leaves = [(offset, name) for offset, name in _leaves(node, 0) if not _padding(node, offset, name)]
    kinds = {name for _, name in leaves}
    if len(kinds) != 1:
        raise ValueError(f"the emulator holds a struct in memory as scalars of one type; {type_text} mixes "
                         f"{', '.join(sorted(kinds)) or 'none'}")
    scalar = kinds.pop()
    width = _SCALAR_BYTES[scalar]
    if any(offset % width for offset, _ in leaves) or layout(node)[0] % width:
        raise ValueError(f"the emulator cannot hold {type_text} as {scalar} scalars (its padding is not a "
                         f"multiple of {width} bytes)")
    return scalar


def _padding(node: Node, offset: int, name: str) -> bool:
    """Whether the leaf at `offset` lies in an `array<k x i8>` field of a struct: the explicit padding the
    frontend inserts. (A real byte-array field is taken for padding too; reading it through an i8 pointer
    then fails at run time, since the buffer holds wider scalars: an error, never a wrong value.)"""
    if node[0] == "array":
        size = layout(node[2])[0]
        return size > 0 and _padding(node[2], offset % size, name)
    if node[0] != "struct" or name != "i8":
        return False
    for k, field in enumerate(node[1]):
        start = field_offset(node, k)
        if start <= offset < start + layout(field)[0]:
            return (field[0] == "array" and field[2] == ("scalar", "i8")) or _padding(field, offset - start, name)
    return False


def units(type_text: str, scalar: str) -> int:
    """How many `scalar`s an element of the type spans."""
    return layout(parse(type_text))[0] // _SCALAR_BYTES[scalar]


def field_units(struct_text: str, position: int, scalar: str) -> int:
    """How many `scalar`s into its struct field `position` starts."""
    return field_offset(parse(struct_text), position) // _SCALAR_BYTES[scalar]
