"""Outer attributes (`#[name(args)]`) and the item each one belongs to.

An attribute belongs to the next item by syntax: the attribute items written before it, whatever comments
(`//`, `/* */`) and doc comments (`///`, `//!`, `/** */`) stand between them. Every attribute either frontend
reads (`#[kernel]`, `#[launch_contract]`, `#[repr]`, `#[cutile::module]`, `#[cutile::entry]`, ...) is attached
here, so a comment can never make one silently disappear.
"""

from __future__ import annotations

from dataclasses import dataclass
import re
from typing import Any, Iterable, Iterator

from oxide.diagnostics import OxideError, SourceLoc

COMMENTS = frozenset({"line_comment", "block_comment"})


@dataclass(frozen=True)
class Attribute:
    """`#[name(args)]`: its path without spaces (`kernel`, `cutile::entry`), the text inside its delimiters
    with comments blanked out, and its attribute_item node (for locations)."""

    name: str
    args: str
    node: Any


def read_attribute(node: Any) -> Attribute:
    """The Attribute of an `attribute_item` node."""
    attr = node.named_children[0]
    path = attr.named_children[0] if attr.named_children else attr
    tree = next((c for c in attr.named_children if c.type == "token_tree"), None)
    args = _without_comments(tree)[1:-1] if tree is not None else ""
    return Attribute(path.text.decode().replace(" ", ""), args, node)


def attributed(nodes: Iterable[Any]) -> Iterator[tuple[Any, list[Attribute]]]:
    """Each node of `nodes` that is neither an attribute nor a comment, with the outer attributes before it."""
    pending: list[Attribute] = []
    for node in nodes:
        if node.type in COMMENTS:
            continue
        if node.type == "attribute_item":
            pending.append(read_attribute(node))
            continue
        yield node, pending
        pending = []


def _without_comments(node: Any) -> str:
    """A node's text with every comment inside it replaced by spaces (so `block = (256, /* x */ 1)` reads as
    its tokens, and offsets within the text stay those of the source)."""
    data = bytearray(node.text)
    start = node.start_byte
    stack = list(node.children)
    while stack:
        child = stack.pop()
        if child.type in COMMENTS:
            data[child.start_byte - start:child.end_byte - start] = b" " * (child.end_byte - child.start_byte)
        else:
            stack.extend(child.children)
    return data.decode()


def attribute_fields(args: str) -> list[tuple[str, str]]:
    """An attribute's arguments, `a = 1, b = (x, y), requires = (f(a, b) >= 1, c)`, split at top-level commas into
    (key, value) pairs ("" for a bare flag)."""
    parts, depth, current = [], 0, ""
    for ch in args + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            if current.strip():
                key, _, value = current.partition("=")
                parts.append((key.strip(), value.strip()))
            current = ""
        else:
            current += ch
    return parts


def written_attributes(root: Any) -> Iterator[Attribute]:
    """Every outer attribute in a syntax tree, at any depth (attributes in comments and strings are not
    nodes, so they are not found)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "attribute_item" and node.named_children:
            yield read_attribute(node)
        stack.extend(reversed(node.children))


# The largest `#[unroll(N)]`: more copies of a loop body than this only grow the code.
MAX_UNROLL = 1024


# A named constant as an unroll count (`#[unroll(P::UNROLL)]`, cuda-oxide's policy constants).
_CONSTANT_PATH = re.compile(r"[A-Za-z_]\w*(::[A-Za-z_]\w*)*")


def unroll_count(attr: Attribute, loc: SourceLoc) -> int | None:
    """`#[unroll]` -> 0 (unroll fully), `#[unroll(N)]` -> N (unroll by N); a named constant -> None: the count
    is not known while parsing, so the loop is left to LLVM's own unrolling (the attribute is a hint)."""
    inner = attr.args.strip()
    if not inner:
        return 0
    if _CONSTANT_PATH.fullmatch(inner):
        return None
    value = int(inner) if inner.isascii() and inner.isdigit() and len(inner) <= 4 else 0
    if not 1 <= value <= MAX_UNROLL:
        raise OxideError(f"`#[unroll({inner})]`: the unroll count must be an integer literal from 1 to {MAX_UNROLL} "
                         "or a named constant (or write `#[unroll]` to unroll fully)", loc)
    return value


def unrolled_loop(statement: Any, loc: SourceLoc) -> Any:
    """The loop node a block statement after `#[unroll]` stands for; anything else is an error at `loc`."""
    node = statement.named_children[0] if statement is not None and statement.type == "expression_statement" \
        else statement
    if node is None or node.type not in ("for_expression", "while_expression", "loop_expression"):
        raise OxideError("`#[unroll]` must stand right before a `for`, `while` or `loop` statement", loc)
    return node
