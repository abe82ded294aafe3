"""Declarative macros (`macro_rules!`): match an invocation against the macro's arms and transcribe the
first arm that matches into Rust source, which the caller parses: as items (items.py, for an invocation
at item level) or as a block (build.py, in expression or statement position).

Supported: arms whose matcher is literal tokens, nested delimited groups, `$name:fragment` bindings
(ident, expr, ty, path, pat, literal, lifetime, tt, block, item, stmt, vis) and repetitions
`$( .. ) sep? op` (`*`, `+`, `?`, nested too); `$crate` in a transcriber. A fragment other than a single
token (expr, ty, ...) takes the tokens up to the next literal token of the matcher (or the repetition's
separator), or to the end; an `expr` is transcribed in parentheses, so it stays one operand as in Rust.
Matching does not backtrack: an arm that would need it (a fragment followed by a repetition that could
start with the same tokens) does not match, and an invocation that matches no arm is a located error.
Expansion is textual, without Rust's hygiene, so an argument naming something the macro itself binds
(`let i`, `for i`, a parameter or field `i:`) is refused instead of being silently captured.

The expansion keeps the transcriber's line layout (arguments are written on one line), so a diagnostic
in expanded code points into the macro definition, as rustc's do (after a repetition whose body spans
several lines, the lines below it are shifted).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from oxide.frontends.syntax.errors import unsupported
from oxide.frontends.syntax.parser import Source, text
from oxide.diagnostics import OxideError

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


# What a matcher binds: `$name` -> (fragment, text), or one such dict per iteration of a repetition.
Bindings = dict[str, Any]


def _repetition_parts(node: Any) -> tuple[int, int, str, str]:
    """(start, end) child indices of a repetition's inner elements, its separator ("" if none) and its
    operator (`*`, `+` or `?`). The children are `$ ( elements ) operator`: tree-sitter keeps the
    separator out of them, so it is the text between `)` and the operator."""
    kids = node.children
    close, op = kids[-2], kids[-1]
    separator = node.text[close.end_byte - node.start_byte:op.start_byte - node.start_byte].decode().strip()
    return 2, len(kids) - 2, separator, text(op)


def _names(node: Any) -> list[str]:
    """The metavariables bound anywhere inside a matcher node."""
    if node.type == "token_binding_pattern":
        return [text(node.named_children[0])[1:]]
    return [name for child in node.children for name in _names(child)]


def _leaf_text(element: Any | None) -> str | None:
    """The literal token a matcher element is, if it is one."""
    if element is None or element.child_count or element.type.startswith("token_"):
        return None
    return text(element)


def _match(d: MacroDef, pattern: list[Any], tokens: list[Any], i: int, bindings: Bindings, data: bytes,
           follow: str | None) -> int | None:
    """Match the matcher elements `pattern` against `tokens` (of the invocation, whose source bytes are
    `data`) from index `i`; record the bindings and return the index after the match, or None. `follow`
    is the literal token that comes after this sequence in the enclosing matcher (where a many-token
    fragment at its end stops)."""
    for k, element in enumerate(pattern):
        after = pattern[k + 1] if k + 1 < len(pattern) else None
        stop_text = _leaf_text(after) if after is not None else follow
        if element.type == "token_repetition_pattern":
            lo, hi, separator, op = _repetition_parts(element)
            inner = element.children[lo:hi]
            iterations: list[Bindings] = []
            while True:
                j = i
                if iterations and separator:
                    if j >= len(tokens) or text(tokens[j]) != separator:
                        break
                    j += 1
                one: Bindings = {}
                end = _match(d, inner, tokens, j, one, data, separator or stop_text)
                if end is None or end == j:
                    break
                iterations.append(one)
                i = end
                if op == "?":
                    break
            if op == "+" and not iterations:
                return None
            for name in _names(element):
                bindings[name] = [one[name] for one in iterations]
            continue
        if element.type == "token_tree_pattern":
            if i >= len(tokens) or tokens[i].type != "token_tree" or _delimiter(tokens[i]) != _delimiter(element):
                return None
            group = _inner(tokens[i])
            if _match(d, _inner(element), group, 0, bindings, data, None) != len(group):
                return None
            i += 1
            continue
        if element.type == "token_binding_pattern":
            name = text(element.named_children[0])[1:]
            fragment = text(element.named_children[-1])
            if fragment not in _FRAGMENTS:
                raise unsupported(d.source, element, f"the fragment specifier `{fragment}`")
            if i >= len(tokens):
                return None
            if fragment in _SINGLE_TOKEN:
                token = tokens[i]
                if fragment == "ident" and token.type not in ("identifier", "self"):
                    return None
                if fragment == "literal" and not token.type.endswith("_literal"):
                    return None
                if fragment == "block" and not (token.type == "token_tree" and _delimiter(token) == "{"):
                    return None
                end = i + 1
            else:
                # Up to the next literal token of the matcher (or the end of the group).
                end = i
                while end < len(tokens) and (stop_text is None or text(tokens[end]) != stop_text):
                    end += 1
                if end == i:
                    return None
            bindings[name] = (fragment, _join(tokens[i:end], data))
            i = end
            continue
        if i >= len(tokens) or text(tokens[i]) != text(element):
            return None
        i += 1
    return i


def _join(tokens: list[Any], data: bytes) -> str:
    """The source text spanning `tokens`, on one line (so the expansion keeps the transcriber's lines)."""
    return data[tokens[0].start_byte:tokens[-1].end_byte].decode().replace("\r", " ").replace("\n", " ")


def _used(node: Any) -> list[str]:
    """The metavariables a transcriber node uses."""
    if node.type == "metavariable":
        return [text(node)[1:]]
    return [name for child in node.children for name in _used(child)]


def _render(d: MacroDef, children: list[Any], lo: int, hi: int, bindings: Bindings) -> str:
    """The transcriber text from byte `lo` to `hi` (spanning `children`) with metavariables replaced and
    repetitions repeated."""
    body = d.source.data
    pieces: list[str] = []
    cursor = lo
    for child in children:
        if child.type == "metavariable":
            name = text(child)[1:]
            if name == "crate":
                value = "crate"
            elif name not in bindings:
                raise OxideError(f"`${name}` is not bound by the arm's matcher; bind it there, as in "
                                 f"`(${name}:expr) => {{ .. }}`", d.source.loc(child))
            elif isinstance(bindings[name], list):
                raise OxideError(f"`${name}` is bound inside a repetition of the matcher, so it can only be used "
                                 f"inside `$( .. )*` here", d.source.loc(child))
            else:
                fragment, value = bindings[name]
                value = f"({value})" if fragment == "expr" else value
            pieces += [body[cursor:child.start_byte].decode(), value]
            cursor = child.end_byte
        elif child.type == "token_repetition":
            k_lo, k_hi, separator, _ = _repetition_parts(child)
            inner = child.children[k_lo:k_hi]
            repeated = sorted({n for n in _used(child) if isinstance(bindings.get(n), list)})
            if not repeated:
                raise OxideError("this repetition uses no metavariable that repeats in the matcher",
                                 d.source.loc(child))
            counts = {len(bindings[n]) for n in repeated}
            if len(counts) != 1:
                raise OxideError(f"the metavariables {', '.join('$' + n for n in repeated)} repeat different "
                                 "numbers of times", d.source.loc(child))
            inner_lo, inner_hi = child.children[k_lo - 1].end_byte, child.children[k_hi].start_byte
            copies = [_render(d, inner, inner_lo, inner_hi, {**bindings, **{n: bindings[n][k] for n in repeated}})
                      for k in range(counts.pop())]
            pieces += [body[cursor:child.start_byte].decode(), f"{separator} ".join(copies)]
            cursor = child.end_byte
        elif child.child_count:
            pieces += [body[cursor:child.start_byte].decode(),
                       _render(d, child.children, child.start_byte, child.end_byte, bindings)]
            cursor = child.end_byte
    pieces.append(body[cursor:hi].decode())
    return "".join(pieces)


def _transcribe(d: MacroDef, transcriber: Any, bindings: Bindings) -> str:
    """The transcriber's text (inside its delimiters) with every metavariable replaced."""
    return _render(d, transcriber.children[1:-1], transcriber.children[0].end_byte,
                   transcriber.children[-1].start_byte, bindings)


_IDENT = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
_KEYWORDS = {"mut", "ref", "in", "let", "for", "_"}


def _leaves(node: Any) -> list[Any]:
    """The transcriber's own tokens (metavariables are the caller's, not the macro's)."""
    if node.child_count == 0 or node.type == "metavariable":
        return [node] if node.type != "metavariable" else []
    return [leaf for child in node.children for leaf in _leaves(child)]


def _macro_binders(transcriber: Any) -> set[str]:
    """Names the transcriber itself binds: `let` and `for` patterns and `name:` (parameters, fields)."""
    leaves = _leaves(transcriber)
    names: set[str] = set()
    for k, leaf in enumerate(leaves):
        word = text(leaf)
        if word in ("let", "for"):
            end = ("=", ";") if word == "let" else ("in",)
            j = k + 1
            while j < len(leaves) and text(leaves[j]) not in end:
                if leaves[j].type == "identifier" and text(leaves[j]) not in _KEYWORDS:
                    names.add(text(leaves[j]))
                j += 1
        elif leaf.type == "identifier" and k + 1 < len(leaves) and text(leaves[k + 1]) == ":":
            names.add(word)
    return names


def _caller_names(value: Any) -> set[str]:
    """The identifiers in the arguments: `value` is the bindings, one binding (fragment, text), or the
    list of a repetition's bindings."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(_caller_names(one) for one in value))
    return set(_IDENT.findall(value[1]))


def expand(d: MacroDef, invocation: Any, invocation_source: Source) -> Source:
    """The items of `name!(...)` as a Source whose positions map into the macro's transcriber."""
    group = next(c for c in invocation.children if c.type == "token_tree")
    for matcher, transcriber in d.arms():
        bindings: Bindings = {}
        tokens = _inner(group)
        if _match(d, _inner(matcher), tokens, 0, bindings, invocation_source.data, None) == len(tokens):
            # Rust's macros are hygienic: a name in an argument never means the macro's own local of that
            # name. Text expansion is not, so a clash is refused rather than silently captured.
            captured = sorted(_macro_binders(transcriber) & _caller_names(bindings))
            if captured:
                raise OxideError(f"`{captured[0]}` in the arguments of `{d.name}!` would be captured by the macro's "
                                 f"own `{captured[0]}` (oxide expands macros without hygiene); rename one of them",
                                 invocation_source.loc(invocation))
            expanded = _transcribe(d, transcriber, bindings)
            at = d.source.loc(transcriber)  # the opening delimiter; the text starts one column later
            return Source(d.source.name, expanded, (at.line, at.col + 1, 0))
    raise OxideError(f"no arm of `macro_rules! {d.name}` matches this invocation (oxide's matching does not "
                     "backtrack); check its arguments",
                     invocation_source.loc(invocation))
