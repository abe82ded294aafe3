"""Declarative macros (`macro_rules!`) invoked at item level: match an invocation against the macro's arms
and transcribe the first arm that matches into Rust source, which the caller parses as items.

Supported: arms whose matcher is literal tokens, nested delimited groups and `$name:fragment` bindings
(ident, expr, ty, path, pat, literal, lifetime, tt, block, item, stmt, vis); `$crate` in a transcriber.
Repetitions (`$(...)*`, `$(...),+`) are rejected with a located error. A fragment other than a single
token (expr, ty, ...) takes the tokens up to the next literal token of the matcher, or to the end; an
`expr` is transcribed in parentheses, so it stays one operand as it does in Rust.

The expansion keeps the transcriber's line layout (arguments are written on one line), so a diagnostic
in expanded code points into the macro definition, as rustc's do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.frontends.rust.build import text, unsupported
from oxide.frontends.rust.parser import Source
from oxide.ir.diagnostics import OxideError

_SINGLE_TOKEN = {"ident", "literal", "lifetime", "tt", "block", "vis"}
_FRAGMENTS = _SINGLE_TOKEN | {"expr", "ty", "path", "pat", "pat_param", "item", "stmt"}
# How deep expansions may nest (a macro whose expansion invokes itself forever stops here).
MAX_DEPTH = 64


@dataclass(frozen=True)
class MacroDef:
    """One `macro_rules!` definition: its name, the Source it was written in and its syntax node."""

    name: str
    source: Source
    node: Any

    def arms(self) -> list[tuple[Any, Any]]:
        """(matcher, transcriber) of each arm, in order."""
        return [(rule.named_children[0], rule.named_children[-1])
                for rule in self.node.named_children if rule.type == "macro_rule"]


def _inner(group: Any) -> list[Any]:
    """The children of a delimited token tree (pattern), without its delimiters."""
    return list(group.children[1:-1])


def _delimiter(group: Any) -> str:
    return text(group.children[0])


def _match(d: MacroDef, pattern: list[Any], tokens: list[Any], bindings: dict[str, tuple[str, str]],
           data: bytes) -> bool:
    """Match `tokens` (of the invocation, whose source bytes are `data`) against the matcher elements
    `pattern`, recording `$name -> (fragment, text)`."""
    i = 0
    for k, element in enumerate(pattern):
        if element.type == "token_repetition_pattern":
            raise unsupported(d.source, element, "a repetition in a `macro_rules!` matcher",
                              "write one arm per arity")
        if element.type == "token_tree_pattern":
            if i >= len(tokens) or tokens[i].type != "token_tree" or _delimiter(tokens[i]) != _delimiter(element):
                return False
            if not _match(d, _inner(element), _inner(tokens[i]), bindings, data):
                return False
            i += 1
            continue
        if element.type == "token_binding_pattern":
            name = text(element.named_children[0])[1:]
            fragment = text(element.named_children[-1])
            if fragment not in _FRAGMENTS:
                raise unsupported(d.source, element, f"the fragment specifier `{fragment}`")
            if i >= len(tokens):
                return False
            if fragment in _SINGLE_TOKEN:
                token = tokens[i]
                if fragment == "ident" and token.type not in ("identifier", "self"):
                    return False
                if fragment == "literal" and not token.type.endswith("_literal"):
                    return False
                if fragment == "block" and not (token.type == "token_tree" and _delimiter(token) == "{"):
                    return False
                end = i + 1
            else:
                # Up to the next literal token of the matcher at this level (or the end of the group).
                stop = pattern[k + 1] if k + 1 < len(pattern) else None
                stop_text = text(stop) if stop is not None and stop.child_count == 0 else None
                end = i
                while end < len(tokens) and (stop_text is None or text(tokens[end]) != stop_text):
                    end += 1
                if end == i:
                    return False
            bindings[name] = (fragment, _join(tokens[i:end], data))
            i = end
            continue
        if i >= len(tokens) or text(tokens[i]) != text(element):
            return False
        i += 1
    return i == len(tokens)


def _join(tokens: list[Any], data: bytes) -> str:
    """The source text spanning `tokens`, on one line (so the expansion keeps the transcriber's lines)."""
    return data[tokens[0].start_byte:tokens[-1].end_byte].decode().replace("\r", " ").replace("\n", " ")


def _transcribe(d: MacroDef, transcriber: Any, bindings: dict[str, tuple[str, str]]) -> str:
    """The transcriber's text (inside its delimiters) with every metavariable replaced."""
    body = d.source.data
    start, end = transcriber.children[0].end_byte, transcriber.children[-1].start_byte
    pieces: list[str] = []
    cursor = start

    def visit(node: Any) -> None:
        nonlocal cursor
        for child in node.children:
            if child.type == "token_repetition":
                raise unsupported(d.source, child, "a repetition in a `macro_rules!` transcriber",
                                  "write one arm per arity")
            if child.type == "metavariable":
                name = text(child)[1:]
                if name == "crate":
                    value = "crate"
                elif name in bindings:
                    fragment, value = bindings[name]
                    value = f"({value})" if fragment == "expr" else value
                else:
                    raise OxideError(f"`${name}` is not bound by the arm's matcher; bind it there, as in "
                                     f"`(${name}:expr) => {{ .. }}`", d.source.loc(child))
                pieces.append(body[cursor:child.start_byte].decode())
                pieces.append(value)
                cursor = child.end_byte
            elif child.child_count:
                visit(child)

    visit(transcriber)
    pieces.append(body[cursor:end].decode())
    return "".join(pieces)


def expand(d: MacroDef, invocation: Any, invocation_source: Source) -> Source:
    """The items of `name!(...)` as a Source whose positions map into the macro's transcriber."""
    group = next(c for c in invocation.children if c.type == "token_tree")
    for matcher, transcriber in d.arms():
        bindings: dict[str, tuple[str, str]] = {}
        if _match(d, _inner(matcher), _inner(group), bindings, invocation_source.data):
            expanded = _transcribe(d, transcriber, bindings)
            at = d.source.loc(transcriber)  # the opening delimiter; the text starts one column later
            return Source(d.source.name, expanded, (at.line, at.col + 1, 0))
    raise OxideError(f"no arm of `macro_rules! {d.name}` matches this invocation (oxide matches literal "
                     "tokens and `$x:fragment` bindings, no repetitions); check its arguments",
                     invocation_source.loc(invocation))
