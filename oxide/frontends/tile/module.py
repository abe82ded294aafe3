"""The items of a cutile-rs source file: `#[cutile::module] mod`s, their `#[cutile::entry]` kernels, helper
functions and `const` items, and the entry attributes (`print_ir`, `unchecked_accesses`,
`optimization_hints = (sm_90 = (num_worker_warps_per_cta = 8))`, ...).

The syntax tree and the AST come from the syntax floor (tree-sitter adapter, Builder); this module adds the
shape macros (`const_shape![..]`, `shape![..]`, `const_array![..]`), whose arguments it parses as expressions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from oxide.dialects.tile.kernel import DEFAULT_WARPS
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.build import Builder
from oxide.frontends.syntax.parser import text
from oxide.frontends.syntax.items import build_function, no_attributes
from oxide.frontends.syntax.parser import Source, syntax_tree
from oxide.frontends.syntax.attributes import Attribute, attributed, attribute_fields, written_attributes
from oxide.diagnostics import OxideError, SourceLoc
from oxide.target import DEFAULT_CHIP, Target

SHAPE_MACROS = ("const_shape", "shape", "const_array")
_HINT_KEYS = ("num_worker_warps_per_cta", "occupancy", "num_cta_in_cga", "max_divisibility")
_ENTRY_KEYS = ("print_ir", "dump_mlir_dir", "unchecked_accesses", "deny_in_kernel_checks", "optimization_hints")

# The chip tile kernels are compiled for (its hints apply; its element types exist): oxide's tile track targets
# Hopper.
TILE_TARGET = Target(DEFAULT_CHIP)


def is_tile_source(text_: str) -> bool:
    """Whether Rust source holds a `#[cutile::module]` attribute (and so goes to the tile frontend); one in a
    comment or a string does not count. A file with syntax errors is still routed by what parses."""
    if not re.search(r"cutile\s*::\s*module", text_):
        return False  # most sources: no parse needed
    tree = syntax_tree(text_)
    return any(a.name == "cutile::module" for a in written_attributes(tree.root_node))


class TileBuilder(Builder):
    """The syntax floor's AST builder, plus the arguments of the shape macros and `cuda_tile_print!`."""

    def x_macro_invocation(self, node: Any) -> ast.Expr:
        name = text(node.child_by_field_name("macro")).split("::")[-1]
        if name == "cuda_tile_print":
            tree = next(c for c in node.children if c.type == "token_tree")
            return ast.MacroCall(self.loc(node), name, self.macro_args(tree))
        if name not in SHAPE_MACROS:
            return super().x_macro_invocation(node)
        tree = next(c for c in node.children if c.type == "token_tree")
        # `[a, b]` re-parsed as call arguments `(a, b)`: same length, so every position stays the file's.
        return ast.MacroCall(self.loc(node), name, self.macro_args(tree, lambda s: "(" + s[1:-1] + ")"))


@dataclass
class EntryOptions:
    """What `#[cutile::entry(...)]` asks of the compiler: the warps per tile block (`tile.warps`).
    `print_ir`, `dump_mlir_dir` and `deny_in_kernel_checks` are accepted and change nothing; oxide keeps every
    store check (`unchecked_accesses` is checked for `unsafe fn` and keeps them too)."""

    warps: int = DEFAULT_WARPS


@dataclass
class TileCrate:
    """The cutile modules of a file: entries (in source order), helpers and consts by name, as AST."""

    source: Source
    entries: list[str] = field(default_factory=list)
    options: dict[str, EntryOptions] = field(default_factory=dict)
    functions: dict[str, Any] = field(default_factory=dict)
    consts: dict[str, Any] = field(default_factory=dict)
    modules: set[str] = field(default_factory=set)
    _built: dict[Any, Any] = field(default_factory=dict)

    def function(self, name: str) -> ast.Function | None:
        """The AST of an entry or helper function, or None."""
        node = self.functions.get(name)
        if node is None:
            return None
        if node not in self._built:
            self._built[node] = build_function(TileBuilder(self.source), node, [], no_attributes)
        return self._built[node]

    def const(self, name: str) -> ast.ConstDef | None:
        """The AST of a `const` item, or None."""
        node = self.consts.get(name)
        if node is None:
            return None
        if node not in self._built:
            b = TileBuilder(self.source)
            self._built[node] = ast.ConstDef(b.loc(node), name, b.type_(node.child_by_field_name("type")),
                                             b.expr(node.child_by_field_name("value")))
        return self._built[node]


def collect(source: Source, root: Any) -> TileCrate:
    """Index the items of every `#[cutile::module]` in the file."""
    crate = TileCrate(source)
    for node, attrs in attributed(root.named_children):
        if node.type == "mod_item" and any(a.name == "cutile::module" for a in attrs):
            crate.modules.add(text(node.child_by_field_name("name")))
            body = node.child_by_field_name("body")
            if body is not None:
                _collect_module(crate, body.named_children)
    return crate


def _collect_module(crate: TileCrate, nodes: list[Any]) -> None:
    for node, attrs in attributed(nodes):
        if node.type == "function_item":
            name = text(node.child_by_field_name("name"))
            if name in crate.functions:
                first = crate.source.loc(crate.functions[name])
                raise OxideError(f"`{name}` is defined twice (first at {first}); the functions of all "
                                 f"`#[cutile::module]`s of a file share one namespace: rename one",
                                 crate.source.loc(node))
            crate.functions[name] = node
            entry = next((a for a in attrs if a.name in ("cutile::entry", "entry")), None)
            if entry is not None:
                crate.entries.append(name)
                crate.options[name] = _entry_options(crate.source, entry, node)
        elif node.type in ("const_item", "static_item"):
            name = text(node.child_by_field_name("name"))
            if name in crate.consts:
                raise OxideError(f"`{name}` is defined twice (first at {crate.source.loc(crate.consts[name])}); the "
                                 f"consts of all `#[cutile::module]`s of a file share one namespace: rename one",
                                 crate.source.loc(node))
            crate.consts[name] = node
        elif node.type == "mod_item":
            crate.modules.add(text(node.child_by_field_name("name")))
            body = node.child_by_field_name("body")
            if body is not None:
                _collect_module(crate, body.named_children)
        # `use` lines, structs for host code, traits: nothing a tile kernel body reaches


def _entry_options(source: Source, entry: Attribute, fn_node: Any) -> EntryOptions:
    loc = source.loc(entry.node)
    options = EntryOptions()
    args = entry.args
    for key, value in attribute_fields(args):
        if key not in _ENTRY_KEYS:
            raise OxideError(f"unknown #[cutile::entry] option `{key}`; known: {', '.join(_ENTRY_KEYS)}", loc)
        if key == "optimization_hints":
            warps = _warps(value, loc)
            if warps is not None:
                options.warps = warps
    unchecked = any(key == "unchecked_accesses" and value in ("", "true") for key, value in attribute_fields(args))
    unsafe = any(c.type == "function_modifiers" and "unsafe" in text(c) for c in fn_node.children)
    if unchecked and not unsafe:
        raise OxideError("`unchecked_accesses` turns off the safety checks, so the kernel must be an `unsafe fn`; "
                         "write `unsafe fn` or drop `unchecked_accesses`", loc)
    return options


def _warps(value: str, loc: SourceLoc) -> int | None:
    """num_worker_warps_per_cta of the sm_90 entry of `optimization_hints = (sm_90 = (...), ...)`."""
    if not (value.startswith("(") and value.endswith(")")):
        raise OxideError("optimization_hints takes `(sm_XX = (key = value, ...), ...)`", loc)
    warps = None
    for arch, hints in attribute_fields(value[1:-1]):
        if not re.fullmatch(r"sm_\d+[a-z]?", arch) or not (hints.startswith("(") and hints.endswith(")")):
            raise OxideError(f"optimization_hints: expected `sm_XX = (key = value, ...)`, got `{arch}`", loc)
        for key, number in attribute_fields(hints[1:-1]):
            if key not in _HINT_KEYS:
                raise OxideError(f"unknown optimization hint `{key}`; known: {', '.join(_HINT_KEYS)}", loc)
            if not re.fullmatch(r"\d+", number):
                raise OxideError(f"optimization hint `{key}` takes an integer literal, got `{number}`", loc)
            # The hints that apply are the default chip's: oxide compiles tile kernels for Hopper.
            if key == "num_worker_warps_per_cta" and arch == DEFAULT_CHIP:
                warps = int(number)
                if warps < 1 or warps > 32 or warps & (warps - 1):
                    raise OxideError(f"num_worker_warps_per_cta must be a power of two from 1 to 32, got {warps}", loc)
    return warps
